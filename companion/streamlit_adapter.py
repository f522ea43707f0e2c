"""The one place Muster reaches into Streamlit beyond its public API: a bench's hooks, never the app.

Why a module of its own: an upgrade of Streamlit may move any private name. Every such use is here, and runs
only on the Streamlit releases whose internals were checked (`TESTED`; `pyproject.toml` allows no other), so
a test names what moved (tests/test_streamlit_public.py fails on a private name anywhere else in `companion/`,
and on any module of `companion/` importing this one), and on another release it logs once that it does
nothing.

What is here, and why no public path does it: `time_runs_and_messages`, for `bench/timeline_server.py` only:
Streamlit has no public hook on a script run's start and end or on each message it sends.

Gone to public paths (issue 34): finding and rerunning a phone's session (taps are the components' own trigger;
the other phones learn that the log moved through the companion's own route and their listener's trigger,
`companion.live`), Streamlit's front page file (`page_styles` links a style sheet from the page Streamlit
serves), its command-line option loading (a script-level config.toml, `companion.launch`), its emoji catalogue
read at start-up (`st.set_page_config` outside a run), a dialog closed in place (the answer reruns the whole
page, `companion.asking`), and the container a surface stretch belongs to (each stretch is sent where the page
stands when it ends, and a page opens its Streamlit containers through `Page.container`,
`companion.components.surface`).
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
            LOG.warning("Streamlit %s is not a release the companion was tested with (%s): the bench's hooks are off",
                        st.__version__, ", ".join(TESTED))
    return _checked[0]


def time_runs_and_messages(log: Callable[[str], None]) -> bool:
    """For `bench/timeline_server.py` only (never the app): wrap Streamlit's script run and message send so each
    writes a line through `log` (`run-start TIME SESSION`, `run-end TIME SESSION CPU_MS`, `sent TIME SESSION
    KIND`). A bench's view into Streamlit's server, kept here with its version check; False (nothing
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
