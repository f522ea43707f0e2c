"""The round timer a whole table shares, kept by the server (Waterloo's "Round time: 4 min", R22).

Any seat starts or pauses it (`Tables.timer`): each tap is a `timer` entry in the table's
append-only log, stamped with the server's time when it was stored (`LogEntry.at`) and naming
the round it times (`State.clock_round`). Every phone derives the same clock from those
entries (`clock`), so a second phone, a refresh or a server restart shows the same time left.
The countdown itself ticks in the browser (`countdown`: HTML the table part's surface ticks, so it costs
no element of its own), so an idle table page costs the server nothing per second; the page only redraws
when the log changes.
"""

from __future__ import annotations

import html
import json
import math
import time
from collections.abc import Iterable
from dataclasses import dataclass

from companion.store import LogEntry

TICK_MS = 200
"""How often the countdown redraws in the browser (what it shows may be this much behind)."""
SKEW = 5
"""Seconds a phone's clock may differ from the server's (delivery included) and still be trusted."""


@dataclass(frozen=True)
class Clock:
    """One round's timer: `left` seconds at server time `since` while running, or left now while stopped."""

    seconds: int
    running: bool = False
    left: float = 0.0
    since: float | None = None
    by: int | None = None  # the seat that tapped last; None: nobody has started it this round

    @property
    def ends(self) -> float | None:
        """The server time at which the round's time runs out, while the timer runs."""
        return None if self.since is None or not self.running else self.since + self.left

    def left_at(self, now: float) -> float:
        """Seconds left at server time `now` (never below 0)."""
        if self.running and self.since is not None:
            return max(0.0, self.left - (now - self.since))
        return max(0.0, self.left)


def clock(entries: Iterable[LogEntry], round_: int, seconds: int) -> Clock:
    """The timer of round `round_` from the table's log: a start resumes a paused timer, or starts a full
    round when none was started or its time ran out; a pause keeps the time left. Other rounds' taps
    do not count: a new round starts afresh."""
    now = Clock(seconds, left=float(seconds))
    for entry in entries:
        action = entry.action
        args = action.get("args") or {}
        if action.get("kind") != "timer" or args.get("round") != round_:
            continue
        if args.get("run"):
            if now.running and now.left_at(entry.at) > 0:
                continue  # already running: a second start changes nothing
            left = now.left if not now.running and now.left > 0 else float(seconds)
            now = Clock(seconds, True, left, entry.at, entry.seat)
        elif now.running:
            now = Clock(seconds, False, now.left_at(entry.at), None, entry.seat)
    return now


def countdown(timer: Clock) -> str:
    """The countdown as HTML for a sheet: the table's surface ticks it in the browser towards the stored deadline
    (companion/components/surface/surface.js, `tick`, says whose clock it reads).

    It sets `data-ends` (the server time the round runs out) and `data-left` (while stopped): the stored
    stamps' arithmetic, the same on every phone."""
    now = time.time()
    data = {"running": timer.running, "started": timer.by is not None, "now": round(now, 3),
            "left": round(timer.left_at(now), 3), "ends": None if timer.ends is None else round(timer.ends, 3),
            "tick": TICK_MS, "skew": SKEW}
    return f'<div class="muster-clock" role="timer" data-clock="{html.escape(json.dumps(data))}"></div>'


def minutes(seconds: float) -> str:
    """'4:00' for 240 seconds (rounded up to the whole second, as the countdown shows it)."""
    whole = math.ceil(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
