"""Waking the other phones at a table the moment it changes, instead of at their next poll.

Each table page registers its browser session as a watcher of its table. When a phone changes a
table (a move, an undo, a seat taken or re-issued), the page wakes every other session watching
it: the server reruns their scripts at once, exactly as Streamlit's own run-on-save does
(`AppSession.request_rerun` with the session's last client state), so the other phones redraw
without waiting out half a poll interval and without a browser round trip.

On PostgreSQL a change made through another server arrives by NOTIFY, and the store's listener
wakes this server's phones the same way (`Store.watch_changes`). Waking leans on Streamlit's
runtime internals, so the page keeps its poll (`table_page.POLL_SECONDS`) as the fallback: for a
command-line tool writing to the SQLite file, a listener that is reconnecting, and any Streamlit
release where waking is not possible. Waking never raises: a failure only means the
poll will show the move.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from typing import Any

LOG = logging.getLogger("muster.companion")

_lock = threading.Lock()
_table_of: dict[str, int] = {}  # session id -> the table its page shows
_changed: dict[str, set[int]] = {}  # session id -> tables it changed whose other phones are not woken yet


def _session_id() -> str | None:
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx
    except ImportError:
        return None
    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx.session_id if ctx else None


def watch(table_id: int) -> None:
    """This browser session now shows `table_id` (a session shows one table at a time)."""
    session = _session_id()
    if session is not None:
        with _lock:
            _table_of[session] = table_id


def wake(table_id: int) -> int:
    """Rerun every other session of this process that shows `table_id`; how many were woken."""
    me = _session_id()
    with _lock:
        others = [s for s, t in _table_of.items() if t == table_id and s != me]
    woken = 0
    for session_id in others:
        try:
            woken += _rerun(session_id)
        except Exception as err:  # internals moved, or the session is closing: the poll covers it
            LOG.debug("could not wake session %s: %s", session_id, err)
    return woken


def _rerun(session_id: str) -> int:
    from streamlit.proto.ClientState_pb2 import ClientState
    from streamlit.runtime import Runtime

    info = Runtime.instance()._session_mgr.get_active_session_info(session_id)
    if info is None:  # the phone went away
        with _lock:
            _table_of.pop(session_id, None)
        return 0
    session = info.session
    state = ClientState()
    state.CopyFrom(session._client_state)  # the widgets as the phone left them; no pending taps
    state.fragment_id = ""  # the whole page, not the poll fragment that may have run last
    state.is_auto_rerun = False
    session.request_rerun(state)
    return 1


def waking(callback: Callable[..., None]) -> Callable[..., None]:
    """A page callback `(service, table_id, …)` that may change the table wakes its other phones after it ran.

    In a browser session they are woken once this phone's own page has drawn the change (`drawn`),
    so the two redraws do not share the CPU while the player who tapped waits for theirs."""
    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            callback(*args, **kwargs)
        finally:
            session = _session_id()
            if session is None:
                wake(int(args[1]))
            else:
                with _lock:
                    _changed.setdefault(session, set()).add(int(args[1]))
    return run


def drawn() -> None:
    """This session's page has drawn the tables it changed: wake their other phones now."""
    session = _session_id()
    with _lock:
        tables = _changed.pop(session, set()) if session is not None else set()
    for table_id in tables:
        wake(table_id)
