"""The one place the companion reaches into Streamlit beyond its public API, each use with a public fallback.

Why a module of its own: an upgrade of Streamlit may move any private name. Every such use is here, and runs
only on the Streamlit releases whose internals were checked (`TESTED`; `pyproject.toml` allows no other), so
a test names what moved (tests/test_streamlit_public.py fails on a private name anywhere else), and a server on
another release logs once, at start-up, that it takes the public path: phones then learn of other phones'
moves by their poll. Slower, never wrong.

What is here, and what would replace it (issue 34): the running session and its rerun (`session_id`,
`session`, `call_soon`, `rerun_running`, `rerun_idle`, `delivered`) by a route of the app's own that tells a
table's phones the log moved and a component trigger that asks for the rerun; the container a surface
stretch belongs to (`current_container`, `element_count`) by one element per table part. Gone to public paths:
Streamlit's front page file (the styles are `st.html` of a CSS file, `context.STYLE_SHEETS`), its command-line
option loading (a script-level config.toml, `companion.launch`), its emoji catalogue read at start-up
(`st.set_page_config` outside a run) and a dialog closed in place (the answer reruns the whole page,
`companion.asking`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import streamlit as st

LOG = logging.getLogger("muster.companion")
DRAIN_POLL_S = 0.002  # how often a websocket's outgoing queue is looked at while it drains (`delivered`)
TESTED = ("1.67",)  # the Streamlit releases (major.minor) whose internals this module was checked against
_checked: list[bool] = []  # the answer of `tested`, once worked out


def tested() -> bool:
    """Whether this Streamlit is one whose internals this module was checked against; logged once when not."""
    if not _checked:
        release = ".".join(st.__version__.split(".")[:2])
        _checked.append(release in TESTED)
        if not _checked[0]:
            LOG.warning("Streamlit %s is not a release the companion was tested with (%s): it takes the public "
                        "path (other phones see moves at their poll)",
                        st.__version__, ", ".join(TESTED))
    return _checked[0]


def _run_context() -> Any:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    return get_script_run_ctx(suppress_warning=True)


def session_id() -> str | None:
    """The browser session whose script run is this thread's, or None outside a run (or off the tested path)."""
    ctx = _run_context() if tested() else None
    return ctx.session_id if ctx else None


def session(session_id: str) -> Any:
    """Streamlit's session of this id, or None when its phone went away (or off the tested path)."""
    if not tested():
        return None
    from streamlit.runtime import Runtime

    info = Runtime.instance()._session_mgr.get_active_session_info(session_id)
    return info.session if info is not None else None


def call_soon(session: Any, work: Callable[[], None]) -> None:
    """Run `work` on Streamlit's event loop, where it handles the session's own requests."""
    session._call_soon_on_event_loop(work)


def rerun_running(session: Any, part: str | None) -> None:
    """On Streamlit's event loop: ask a session to run again with its own address and widgets, as `st.rerun()`
    does, only the fragment keyed `part` where it has one drawn (else the whole page); nothing when a rerun is
    already waiting or the session is between runs (its next run reads the table anyway). A session idle
    since its last run is rerun by `rerun_idle` instead."""
    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData, ScriptRequestType
    from streamlit.runtime.scriptrunner_utils import script_run_context

    runner = session._scriptrunner
    if runner is None:
        rerun_idle(session, part)
        return
    if runner._requests._state != ScriptRequestType.CONTINUE:  # a rerun is already waiting, or the runner stops
        return
    attribute = script_run_context.SCRIPT_RUN_CONTEXT_ATTR_NAME  # type: ignore[attr-defined]
    ctx = getattr(runner._script_thread, attribute, None)
    if ctx is None or not ctx.query_string:  # between runs: the next one reads the table anyway
        return
    runner.request_rerun(RerunData(query_string=ctx.query_string, page_script_hash=ctx.page_script_hash,
                                   cached_message_hashes=ctx.cached_message_hashes, context_info=ctx.context_info,
                                   fragment_id=_fragment_id(session, part) or None))


def rerun_idle(session: Any, part: str | None) -> bool:
    """On Streamlit's event loop: rerun an idle session with the client state of its last finished run (the
    widgets as the phone left them, no pending taps), only the fragment keyed `part` where it has one drawn;
    False, and nothing asked, when it is running or shows no page with an address (never the lobby)."""
    from streamlit.proto.ClientState_pb2 import ClientState

    if session._scriptrunner is not None:
        return False
    state = ClientState()
    state.CopyFrom(session._client_state)
    if not state.query_string:
        return False
    state.fragment_id = _fragment_id(session, part)  # that part, or the whole page; never the poll that ran last
    state.is_auto_rerun = False
    session.request_rerun(state)
    return True


def _fragment_id(session: Any, part: str | None) -> str:
    """The id of the fragment keyed `part` in `session`, or "" (the whole page) when it has none drawn."""
    if not part:
        return ""
    try:
        ids = session._fragment_storage.resolve_target(part)
    except Exception:  # not drawn yet in this session: the whole page
        return ""
    return str(ids[0]) if len(ids) == 1 else ""


async def delivered(session: Any) -> None:
    """On Streamlit's event loop: wait until `session`'s run chain is written to its websocket: every message
    handed to its client (`wait_until_settled`), then the client's own queue drained."""
    session.track_settling()
    await session.wait_until_settled()
    from streamlit.runtime import Runtime

    info = Runtime.instance()._session_mgr.get_active_session_info(session.id)
    outbox = getattr(info.client if info is not None else None, "_send_queue", None)
    while outbox is not None and not outbox.empty():
        await asyncio.sleep(DRAIN_POLL_S)


def current_container() -> Any:
    """The container elements are drawn into now, or None off the tested path (a surface then sends each
    stretch where the page is when it is sent)."""
    if not tested():
        return None
    from streamlit.delta_generator_singletons import context_dg_stack

    return context_dg_stack.get()[-1]._active_dg


def element_count(container: Any) -> int:
    """How many elements `container` holds so far in this run (the place of the next one); 0 off the tested
    path (so nothing drawn out of order is noticed there)."""
    if container is None:
        return 0
    cursor = container._cursor
    return int(cursor.index) if cursor is not None else 0


def time_runs_and_messages(log: Callable[[str], None]) -> bool:
    """For `bench/timeline_server.py` only (never the app): wrap Streamlit's script run and message send so each
    writes a line through `log` (`run-start TIME SESSION`, `run-end TIME SESSION CPU_MS`, `sent TIME SESSION
    KIND`). A bench's view into Streamlit's server, kept here with the app's other private uses; False (nothing
    wrapped) on a release whose internals were not checked."""
    if not tested():
        return False
    import time

    from streamlit.runtime import runtime
    from streamlit.runtime.scriptrunner import script_runner

    run_script, send_message = script_runner.ScriptRunner._run_script, runtime.Runtime._send_message

    def timed_run(self: Any, rerun_data: Any) -> None:
        session, cpu = self._session_id, time.thread_time()
        log(f"run-start {time.time():.4f} {session}")
        try:
            run_script(self, rerun_data)
        finally:
            log(f"run-end {time.time():.4f} {session} {(time.thread_time() - cpu) * 1000:.2f}")

    def timed_send(self: Any, session_info: Any, msg: Any) -> None:
        send_message(self, session_info, msg)
        log(f"sent {time.time():.4f} {session_info.session.id} {msg.WhichOneof('type')}")

    script_runner.ScriptRunner._run_script = timed_run  # type: ignore[method-assign]
    runtime.Runtime._send_message = timed_send  # type: ignore[method-assign]
    return True
