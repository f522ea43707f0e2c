"""Waking the other phones at a table the moment it changes, instead of at their next poll.

Each table page registers its browser session as a watcher of its table. When a phone changes a
table (a move, an undo, a seat taken or re-issued), the page wakes every other session watching
it: the server reruns their scripts at once, as Streamlit's own run-on-save does (an idle
session) or as `st.rerun()` does (a session in the middle of a run), so the other phones redraw
without waiting out half a poll interval and without a browser round trip.

On PostgreSQL a change made through another server arrives by NOTIFY, and the store's listener
wakes this server's phones the same way (`Store.watch_changes`). Waking leans on Streamlit's
runtime internals, all of them in `companion.streamlit_adapter` (this module decides whom to wake
and when; the adapter knows how), so the page keeps its poll (`table_page.POLL_SECONDS`) as the
fallback: for a command-line tool writing to the SQLite file, a listener that is reconnecting, and a
Streamlit release the adapter was not checked against, where it wakes no one. Waking never raises: a failure only means the
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

from companion import streamlit_adapter

LOG = logging.getLogger("muster.companion")

SETTLE_LIMIT_S = 1.0  # a page whose run is not delivered by then does not hold the other phones back
_lock = threading.Lock()
_table_of: dict[str, int] = {}  # session id -> the table its page shows
_part_of: dict[str, str] = {}  # session id -> the key of the fragment that draws the table's moving part
_changed: dict[str, set[int]] = {}  # session id -> tables it changed whose other phones are not woken yet
_due: dict[int, float] = {}  # table id -> until when a wake of its phones is due (monotonic clock)


def current_session_id() -> str | None:
    """The browser session whose script run is this thread's, or None outside a run."""
    return streamlit_adapter.session_id()


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
        except Exception as err:  # the session is closing: the poll covers it
            LOG.debug("could not wake session %s: %s", session_id, err)
    return woken


def due(table_id: int) -> bool:
    """Whether this table's phones are about to be woken (a move's wake waits for the tapping phone's
    delivery): a page's poll leaves the redraw to it rather than redrawing its whole page as well."""
    with _lock:
        return _due.get(table_id, 0.0) > time.monotonic()


def session_by_id(session_id: str) -> Any:
    """The Streamlit session of this id, or None when the phone went away, in which case it is forgotten here."""
    found = streamlit_adapter.session(session_id)
    if found is None:
        with _lock:
            _table_of.pop(session_id, None)
            _part_of.pop(session_id, None)
    return found


def _rerun(session_id: str) -> int:
    session = session_by_id(session_id)
    if session is None:
        return 0
    streamlit_adapter.call_soon(session, lambda: _guarded(session))  # where Streamlit handles a phone's requests
    return 1


def _guarded(session: Any) -> None:
    """On Streamlit's event loop (so no request of the phone's own slips in between looking and asking): rerun
    one session as it would rerun itself, only the part of its page a move changes (`watch`'s `part`) once the
    page has drawn it. An idle session reruns with the widgets of its last finished run; a running one is asked
    to run again with its own address, as `st.rerun()` does (during its first runs, the page opening and then
    the browser reporting its device id, its recorded widgets are still empty, and a rerun with them drew the
    lobby under the table's address). A run started by the server carries no word of what the phone holds, so
    a whole page would send every large element again, hexbattle's 300 KB artwork among them."""
    try:
        streamlit_adapter.rerun_running(session, _part(session))
    except Exception as err:  # the session is closing: the poll covers it
        LOG.debug("could not wake session %s: %s", session.id, err)


def _part(session: Any) -> str | None:
    """The key of the fragment that draws what a move changes on `session`'s page, if it has one."""
    with _lock:
        return _part_of.get(session.id)


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
        if session is not None:
            with _lock:  # at the latest when the wait gives up, and a little after: a lost wake never stops the poll
                until = time.monotonic() + SETTLE_LIMIT_S + 0.5
                for table_id in tables:
                    _due[table_id] = max(_due.get(table_id, 0.0), until)
            streamlit_adapter.call_soon(session, lambda: _wake_when_delivered(session, tables))
            return
    except Exception as err:  # the session is closing: wake them now
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
            async with asyncio.timeout(SETTLE_LIMIT_S):
                await streamlit_adapter.delivered(session)
        except Exception as err:  # a timeout, or the session closed: the other phones are woken all the same
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
