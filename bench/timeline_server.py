"""`muster app`'s server with a log of when each script run starts and ends and when each message leaves.

Run by `bench/bench_tap_timeline.py` in place of `python -m companion.launch` (same arguments). Each line of
the file named by MUSTER_TIMELINE_LOG is `run-start TIME SESSION`, `run-end TIME SESSION CPU_MS` or
`sent TIME SESSION KIND`, times in seconds since the epoch (the machine's clock, as the browser's).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from streamlit.runtime import runtime
from streamlit.runtime.scriptrunner import script_runner

LOG = open(os.environ["MUSTER_TIMELINE_LOG"], "a", buffering=1, encoding="utf-8")  # noqa: SIM115 (the process's life)
_run_script = script_runner.ScriptRunner._run_script
_send_message = runtime.Runtime._send_message


def _timed_run(self: Any, rerun_data: Any) -> None:
    session = self._session_id
    cpu = time.thread_time()
    LOG.write(f"run-start {time.time():.4f} {session}\n")
    try:
        _run_script(self, rerun_data)
    finally:
        LOG.write(f"run-end {time.time():.4f} {session} {(time.thread_time() - cpu) * 1000:.2f}\n")


def _timed_send(self: Any, session_info: Any, msg: Any) -> None:
    _send_message(self, session_info, msg)
    LOG.write(f"sent {time.time():.4f} {session_info.session.id} {msg.WhichOneof('type')}\n")


script_runner.ScriptRunner._run_script = _timed_run  # type: ignore[method-assign]
runtime.Runtime._send_message = _timed_send  # type: ignore[method-assign]

if __name__ == "__main__":
    from companion.launch import main

    sys.argv[0] = "companion.launch"
    main()
