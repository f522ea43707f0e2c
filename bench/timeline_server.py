"""`muster app`'s server with a log of when each script run starts and ends and when each message leaves.

Run by `bench/bench_tap_timeline.py` in place of `python -m companion.launch` (same arguments). Each line of
the file named by MUSTER_TIMELINE_LOG is `run-start TIME SESSION`, `run-end TIME SESSION CPU_MS` or
`sent TIME SESSION KIND`, times in seconds since the epoch (the machine's clock, as the browser's). The hooks
into Streamlit's server are private, so they live in `companion.streamlit_adapter` with its version check.
"""

from __future__ import annotations

import os
import sys

from companion import streamlit_adapter

if __name__ == "__main__":
    # open for the process's life: every line is written as it happens
    LOG = open(os.environ["MUSTER_TIMELINE_LOG"], "a", buffering=1, encoding="utf-8")  # noqa: SIM115
    if not streamlit_adapter.time_runs_and_messages(lambda line: LOG.write(line + "\n")):
        sys.exit(f"bench/timeline_server.py: Streamlit {streamlit_adapter.st.__version__} is not a release its "
                 f"hooks were checked against ({', '.join(streamlit_adapter.TESTED)}).")
    from companion.launch import main

    sys.argv[0] = "companion.launch"
    main()
