"""The one place the companion reaches into Streamlit beyond its public API, each use with a public fallback.

Why a module of its own: an upgrade of Streamlit may move any private name. Every such use is here, and runs
only on the Streamlit releases whose internals were checked (`TESTED`; `pyproject.toml` allows no other), so
a test names what moved (tests/test_streamlit_public.py fails on a private name anywhere else), and a server on
another release logs once, at start-up, that it takes the public path. Slower, never wrong.

What is here, and why no public path does it yet (issue 34):
- The container a surface stretch belongs to (`current_container`, `element_count`). Streamlit has no public way
  to ask which container its next element goes to, or how many that container holds. A surface needs both to
  keep a stretch in its place when a panel enters a Streamlit container or draws a Streamlit element between
  two of its blocks without flushing (hexbattle's `hx-controls` box; waterloo's hand picker draws Streamlit's
  buttons and a toggle straight before its pad), and the tests' check
  (`surface.MISORDERED`) is built on them. The public way would be one element per table part, or a slot
  reserved by `st.empty()` per stretch with every Streamlit container a panel opens going through the page's
  seam (`companion.page`), so the surface learns of it; until then the fallback sends each stretch where the page
  is when it is sent (right unless a panel skipped the seam).
- `time_runs_and_messages`, for `bench/timeline_server.py` only (the app never calls it): Streamlit has no public
  hook on a script run's start and end or on each message it sends.

Gone to public paths: finding and rerunning a phone's session (taps are the components' own trigger; the other
phones learn that the log moved through the companion's own route and their listener's trigger,
`companion.live`), Streamlit's front page file (`page_styles` links a style sheet from the page Streamlit
serves), its command-line option loading (a script-level config.toml, `companion.launch`), its emoji catalogue
read at start-up (`st.set_page_config` outside a run) and a dialog closed in place (the answer reruns the whole
page, `companion.asking`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import streamlit as st

LOG = logging.getLogger("muster.companion")
TESTED = ("1.67",)  # the Streamlit releases (major.minor) whose internals this module was checked against
_checked: list[bool] = []  # the answer of `tested`, once worked out


def tested() -> bool:
    """Whether this Streamlit is one whose internals this module was checked against; logged once when not."""
    if not _checked:
        release = ".".join(st.__version__.split(".")[:2])
        _checked.append(release in TESTED)
        if not _checked[0]:
            LOG.warning("Streamlit %s is not a release the companion was tested with (%s): it takes the public "
                        "path (a surface stretch is sent where the page is when it is sent)",
                        st.__version__, ", ".join(TESTED))
    return _checked[0]


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
