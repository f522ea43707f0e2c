"""Waking the other phones at a table the moment it changes, instead of at their next poll.

Each table page registers its browser session as a watcher of its table. When a phone changes a
table (a move, an undo, a seat taken or re-issued), the page wakes every other session watching
it: the server reruns their scripts at once, as Streamlit's own run-on-save does (an idle
session) or as `st.rerun()` does (a session in the middle of a run), so the other phones redraw
without waiting out half a poll interval and without a browser round trip.

On PostgreSQL a change made through another server arrives by NOTIFY, and the store's listener
wakes this server's phones the same way (`Store.watch_changes`). Waking leans on Streamlit's
runtime internals, so the page keeps its poll (`table_page.POLL_SECONDS`) as the fallback: for a
command-line tool writing to the SQLite file, a listener that is reconnecting, and any Streamlit
release where waking is not possible. Waking never raises: a failure only means the
poll will show the move.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

LOG = logging.getLogger("muster.companion")

SETTLE_LIMIT_S = 1.0  # a page whose run is not delivered by then does not hold the other phones back
DRAIN_POLL_S = 0.002  # how often the websocket's outgoing queue is looked at while it drains
_lock = threading.Lock()
_table_of: dict[str, int] = {}  # session id -> the table its page shows
_part_of: dict[str, str] = {}  # session id -> the key of the fragment that draws the table's moving part
_changed: dict[str, set[int]] = {}  # session id -> tables it changed whose other phones are not woken yet
_due: dict[int, float] = {}  # table id -> until when a wake of its phones is due (monotonic clock)


def current_session_id() -> str | None:
    """The browser session whose script run is this thread's, or None outside a run."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx
    except ImportError:
        return None
    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx.session_id if ctx else None


def watch(table_id: int, part: str | None = None) -> None:
    """This browser session now shows `table_id` (a session shows one table at a time); `part` is the key of
    the fragment (`st.fragment(key=…)`) that draws what a move changes, which is all a wake reruns."""
    session = current_session_id()
    if session is not None:
        with _lock:
            _table_of[session] = table_id
            if part:
                _part_of[session] = part
            else:
                _part_of.pop(session, None)


def wake(table_id: int, me: str | None = None) -> int:
    """Rerun every session of this process that shows `table_id`, but this one (or `me`); how many were woken."""
    me = me or current_session_id()
    with _lock:
        others = [s for s, t in _table_of.items() if t == table_id and s != me]
    woken = 0
    for session_id in others:
        try:
            woken += _rerun(session_id)
        except Exception as err:  # internals moved, or the session is closing: the poll covers it
            LOG.debug("could not wake session %s: %s", session_id, err)
    return woken


def due(table_id: int) -> bool:
    """Whether this table's phones are about to be woken (a move's wake waits for the tapping phone's
    delivery): a page's poll leaves the redraw to it rather than redrawing its whole page as well."""
    with _lock:
        return _due.get(table_id, 0.0) > time.monotonic()


def _info(session_id: str) -> Any:
    """Streamlit's record of this session (its session and its connection), or None when the phone went away,
    in which case the session is forgotten here too."""
    from streamlit.runtime import Runtime

    info = Runtime.instance()._session_mgr.get_active_session_info(session_id)
    if info is None:
        with _lock:
            _table_of.pop(session_id, None)
            _part_of.pop(session_id, None)
    return info


def session_by_id(session_id: str) -> Any:
    """The Streamlit session of this id, or None when the phone went away."""
    info = _info(session_id)
    return info.session if info is not None else None


def _rerun(session_id: str) -> int:
    session = session_by_id(session_id)
    if session is None:
        return 0
    session._call_soon_on_event_loop(lambda: _guarded(session))  # where Streamlit handles a phone's own requests
    return 1


def _guarded(session: Any) -> None:
    try:
        _rerun_on_loop(session)
    except Exception as err:  # internals moved, or the session is closing: the poll covers it
        LOG.debug("could not wake session %s: %s", session.id, err)


def _rerun_on_loop(session: Any) -> None:
    """Rerun one session the way it would rerun itself, on Streamlit's event loop (so no request of the
    phone's own slips in between looking and asking).

    An idle session reruns with the client state of its last finished run, and only the part of its page
    that a move changes (`watch`'s `part`; the page redraws the rest itself when that changed too), as
    its own tap there would: fewer elements for the phone to lay out. A session that is running
    must not: Streamlit records a session's client state only when its runs stop, so during its first
    runs (the page opening, then the browser reporting its device id) that state is still empty, and a
    rerun with it drew the lobby under the table's address. A running session is asked to run again
    with its own address and widgets, as `st.rerun()` does (that part again once the page has drawn it,
    else the whole page); one that already has a rerun waiting reads the table afresh anyway.
    """
    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData, ScriptRequestType
    from streamlit.runtime.scriptrunner_utils.script_run_context import SCRIPT_RUN_CONTEXT_ATTR_NAME

    runner = session._scriptrunner
    if runner is None:
        rerun_part(session)
        return
    if runner._requests._state != ScriptRequestType.CONTINUE:  # a rerun is already waiting, or the runner stops
        return
    ctx = getattr(runner._script_thread, SCRIPT_RUN_CONTEXT_ATTR_NAME, None)
    if ctx is None or not ctx.query_string:  # between runs: the next one reads the table anyway
        return
    # only the part, once the page has drawn it (a run started by the server carries no word of what the phone
    # holds, so a whole page would send every large element again, hexbattle's 300 KB artwork among them)
    runner.request_rerun(RerunData(query_string=ctx.query_string, page_script_hash=ctx.page_script_hash,
                                   cached_message_hashes=ctx.cached_message_hashes, context_info=ctx.context_info,
                                   fragment_id=_part_id(session) or None))


def rerun_part(session: Any) -> bool:
    """On Streamlit's event loop: rerun an idle `session`'s table part (see `_rerun_on_loop`); False, and nothing
    asked, when it is running or shows no table."""
    from streamlit.proto.ClientState_pb2 import ClientState

    if session._scriptrunner is not None:
        return False
    state = ClientState()
    state.CopyFrom(session._client_state)  # the widgets as the phone left them; no pending taps
    if not state.query_string:  # not showing a table (never the case for a watched session, but never the lobby)
        return False
    state.fragment_id = _part_id(session)  # that part, or the whole page; never the poll that may have run last
    state.is_auto_rerun = False
    session.request_rerun(state)
    return True


def _part_id(session: Any) -> str:
    """The fragment id of the part of `session`'s page a move changes, or "" (the whole page) when it has none."""
    with _lock:
        part = _part_of.get(session.id)
    if not part:
        return ""
    try:
        ids = session._fragment_storage.resolve_target(part)
    except Exception:  # not drawn yet in this session, or internals moved: the whole page
        return ""
    return str(ids[0]) if len(ids) == 1 else ""


def waking(callback: Callable[..., None]) -> Callable[..., None]:
    """A page callback `(service, table_id, …)` that may change the table wakes its other phones after it ran.

    In a browser session they are woken once this phone's own page has drawn the change (`drawn`),
    so the two redraws do not share the CPU while the player who tapped waits for theirs."""
    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            callback(*args, **kwargs)
        finally:
            session = current_session_id()
            if session is None:
                wake(int(args[1]))
            else:
                with _lock:
                    _changed.setdefault(session, set()).add(int(args[1]))
    return run


def drawn() -> None:
    """This session's page has drawn the tables it changed: wake their other phones once it is delivered.

    The other phones' runs would otherwise share the server's CPU (and Python's one interpreter lock)
    with sending this run to the phone that tapped, which then waits for both. So they are woken when
    Streamlit has sent this session's whole run to its browser (`AppSession.wait_until_settled`), or
    after `SETTLE_LIMIT_S` at the latest; a Streamlit without that API wakes them at once."""
    me = current_session_id()
    with _lock:
        tables = _changed.pop(me, set()) if me is not None else set()
    if not tables or me is None:
        return
    try:
        session = session_by_id(me)
        if session is not None and hasattr(session, "wait_until_settled"):
            with _lock:  # at the latest when the wait gives up, and a little after: a lost wake never stops the poll
                until = time.monotonic() + SETTLE_LIMIT_S + 0.5
                for table_id in tables:
                    _due[table_id] = max(_due.get(table_id, 0.0), until)
            session._call_soon_on_event_loop(lambda: _wake_when_delivered(session, tables))
            return
    except Exception as err:  # internals moved: wake them now
        LOG.debug("could not wait for session %s to settle: %s", me, err)
    for table_id in tables:
        wake(table_id, me)


_delivering: set[asyncio.Task[None]] = set()  # kept until done: the event loop holds tasks only weakly


def _wake_when_delivered(session: Any, tables: set[int]) -> None:
    """On Streamlit's event loop: wait until `session`'s run chain is written to its websocket, then wake the
    tables' other phones.

    Settled means Streamlit handed every message to the session's client; the client's own queue (the
    Starlette server's sender task) is then drained as well, as a run it has not written yet would
    wait on the other phones' runs for the loop and the interpreter lock."""
    async def later() -> None:
        try:
            session.track_settling()
            async with asyncio.timeout(SETTLE_LIMIT_S):
                await session.wait_until_settled()
                info = _info(session.id)
                outbox = getattr(info.client if info is not None else None, "_send_queue", None)
                while outbox is not None and not outbox.empty():
                    await asyncio.sleep(DRAIN_POLL_S)
        except Exception as err:  # a timeout, or internals moved: the other phones are woken all the same
            LOG.debug("session %s did not settle: %r", session.id, err)
        finally:
            for table_id in tables:
                wake(table_id, session.id)
            with _lock:
                for table_id in tables:
                    _due.pop(table_id, None)

    task = asyncio.get_running_loop().create_task(later())
    _delivering.add(task)
    task.add_done_callback(_delivering.discard)
