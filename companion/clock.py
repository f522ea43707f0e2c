"""The round timer a whole table shares, kept by the server (Waterloo's "Round time: 4 min", R22).

Any seat starts or pauses it (`Tables.timer`): each tap is a `timer` entry in the table's
append-only log, stamped with the server's time when it was stored (`LogEntry.at`) and naming
the round it times (`State.clock_round`). Every phone derives the same clock from those
entries (`clock`), so a second phone, a refresh or a server restart shows the same time left.
The countdown itself ticks in the browser (`show`, a components-v2 element), so an idle table
page costs the server nothing per second; the page only redraws when the log changes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass

import streamlit as st

from companion.store import LogEntry

TICK_MS = 200
"""How often the countdown redraws in the browser (what it shows may be this much behind)."""
SKEW = 5
"""Seconds a phone's clock may differ from the server's (delivery included) and still be trusted."""
CLOCK_JS = """
const TICK_MS = @TICK_MS, SKEW = @SKEW;
export default function ({ data: sent, parentElement }) {
  // sent as a list: [running, started, now, left, ends] (a dict's values are searched for dataframes)
  const [running, started, now, left0, ends] = sent;
  const data = { running, started, now, left: left0, ends };
  let box = parentElement.querySelector(".muster-clock");
  if (!box) {
    box = document.createElement("div");
    box.className = "muster-clock";
    box.setAttribute("role", "timer");
    parentElement.appendChild(box);
  }
  if (box.__tick) clearInterval(box.__tick);
  // Time left = the stored deadline minus the server's time now. A phone's own clock is used when it agrees
  // with the server's (within SKEW s, delivery included), so every phone shows the same second whatever the
  // network's delay; a phone whose clock is wrong counts from the server's time as received instead.
  const offset = data.now - Date.now() / 1000;
  const skew = Math.abs(offset) < SKEW ? 0 : offset;
  box.dataset.ends = data.ends === null ? "" : String(data.ends);
  box.dataset.left = data.running ? "" : String(data.left);
  const draw = () => {
    const left = data.running ? Math.max(0, data.ends - (Date.now() / 1000 + skew)) : data.left;
    const whole = Math.ceil(left - 1e-9);
    const shown = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    box.classList.toggle("up", left <= 0);
    box.classList.toggle("paused", !data.running && left > 0);
    box.textContent = left <= 0 ? "Time's up!" : data.running ? `${shown} left`
      : data.started ? `${shown} left · paused` : `${shown} · not started`;
    if (left <= 0 && box.__tick) clearInterval(box.__tick);
  };
  draw();
  if (data.running && data.left > 0) box.__tick = setInterval(draw, TICK_MS);
  return () => clearInterval(box.__tick);
}
""".replace("@TICK_MS", str(TICK_MS)).replace("@SKEW", str(SKEW))
CLOCK_CSS = """
.muster-clock {font-size: 1.25rem; font-weight: 700; line-height: 44px; white-space: nowrap; font-variant-numeric: tabular-nums;}
.muster-clock.paused {opacity: 0.6;}
.muster-clock.up {color: #b3261e;}
"""
_clock = st.components.v2.component("muster_round_clock", js=CLOCK_JS, css=CLOCK_CSS)


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


def show(timer: Clock, key: str) -> None:
    """The countdown, ticking in the browser towards the stored deadline (see CLOCK_JS for whose clock it reads).

    `data-ends` (the server time the round runs out) and `data-left` (while stopped) are the
    stored stamps' arithmetic, the same on every phone."""
    now = time.time()
    _clock(data=[timer.running, timer.by is not None, round(now, 3), round(timer.left_at(now), 3),
                 None if timer.ends is None else round(timer.ends, 3)], key=key)  # a list: why in `surface`


def minutes(seconds: float) -> str:
    """'4:00' for 240 seconds (rounded up to the whole second, as the countdown shows it)."""
    whole = math.ceil(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
