"""Bot seats: a seat of a table played by a bot (`engine.bots`) on the server, not on any phone.

A seat is a bot's while its holder (the `device` of its row in `seats`) is `bot:LEVEL`. A phone's device id never
holds a colon (`devices.DEVICE_ID`), so no phone can pass for a bot, and a phone tapping for a bot's seat is refused
as for any seat another phone holds (`tables._holder`). A bot's seat counts as claimed, so joining by code never
offers it; the host takes it back by re-issuing it (a new link, held by no one).

`Runner` is a thread of the server process (started by `companion.launch`'s lifespan) that watches the tables in
play with a bot seat and moves for a bot whose turn it is, through `Tables.act`, the one gate a phone's tap goes
through. Its move is worked out from the table's log alone (the bot is seeded by the table's seed and how many
moves were made, `engine.bots.decision_rng`) and stored as the answer to the log head it was worked out at, under a
request id named after that head: if the table moved on, the move is refused as stale; if another server (or this
one before a restart) stored it already, the store keeps it once. So two servers on one PostgreSQL database, or a
server restarted while its bot thought, never move twice, and a restarted server picks the turn up where it was.

The move waits a short seeded delay after the move before it (`delay`), as a player would, never instant; every
phone shows the bot's seat as thinking until then (`thinking`), and the history reads like a player's, because a
bot's seat is named as a bot ("Bot (normal) played Cavalry").
"""

from __future__ import annotations

import logging
import random
import threading
import time
from typing import Any

from companion.store import Seat, StoreError, TableInfo
from engine.bots import make_bot
from engine.core import Refusal

LOG = logging.getLogger("muster.companion")

LEVELS = ("easy", "normal", "hard")
"""The levels a table offers (engine.bots.LEVELS sets what each means; docs/bots.md measures them)."""
PREFIX = "bot:"
DELAY_S = (0.8, 2.0)
"""A bot's move comes this long after the move before it (seeded per move): a pause a player can follow."""
POLL_S = 0.5
"""How often the runner looks for tables where a bot is to move (one small query)."""


def holder(level: str) -> str:
    """The holder a bot's seat row carries."""
    if level not in LEVELS:
        raise Refusal(f"There is no bot level {level!r}; the levels are {', '.join(LEVELS)}.")
    return PREFIX + level


def level_of(seat: Seat) -> str | None:
    """The level of the bot playing `seat`, or None when a person plays it."""
    device = seat.device or ""
    return device[len(PREFIX):] if device.startswith(PREFIX) else None


def bot_name(level: str, number: int | None = None) -> str:
    """A bot seat's name at a new table: "Bot (normal)", or "Bot 2 (normal)" where several bots sit."""
    return f"Bot {number} ({level})" if number is not None else f"Bot ({level})"


def names(kinds: list[str | None], typed: list[str]) -> list[str]:
    """Seat names for a new table: a person's as typed, a bot's (`kinds[i]` its level) as `bot_name`, numbered by
    seat when more than one bot sits."""
    several = sum(k is not None for k in kinds) > 1
    return [bot_name(kind, i + 1 if several else None) if kind else name
            for i, (kind, name) in enumerate(zip(kinds, typed))]


def shown_name(seat: Seat) -> str:
    """A seat's name as the table reads it: a seat handed to a bot after it was a person's says so."""
    level = level_of(seat)
    if level is None or seat.name.startswith("Bot"):
        return seat.name
    return f"{seat.name} (bot, {level})"


def thinking(table: TableInfo, to_act: list[int]) -> list[Seat]:
    """The bot seats among the seats to act: what every phone shows as thinking."""
    return [table.seats[s] for s in to_act if 0 <= s < len(table.seats) and level_of(table.seats[s])]


def delay(table: TableInfo, head: tuple[int, int]) -> float:
    """Seconds between the move at `head` and the bot's answer: seeded, so every server waits alike."""
    return random.Random(f"bot-delay:{table.seed}:{head[0]}:{head[1]}").uniform(*DELAY_S)


def request_id(head: tuple[int, int], seat: int) -> str:
    """The bot's move at `head` is one stored entry, whoever works it out and however often."""
    return f"bot-{head[0]}-{head[1]}-{seat}"


class Runner:
    """The server's bots: a thread that moves for every bot seat whose turn it is (see the module docstring).

    `service` gives the table service (`context.tables`), asked again after a failure, so a store that could
    not be opened at the start is picked up when it can; `wake(table_id)` redraws the phones of a table."""

    def __init__(self, service: Any, wake: Any = None) -> None:
        self._service = service
        self._wake = wake
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._decided: dict[tuple[int, tuple[int, int], int], Any] = {}
        self._failing = ""

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="muster-bots", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                pause = self.step()
                if self._failing:
                    LOG.warning("the bots move again (after: %s)", self._failing)
                    self._failing = ""
            except Exception as err:  # noqa: BLE001 — a store fault or a bug must not stop the bots for good
                said = f"{type(err).__name__}: {getattr(err, 'full', err)}"
                if said != self._failing:
                    LOG.warning("the bots cannot move now (%s); they try again", said)
                    self._failing = said
                pause = POLL_S * 4
            self._stop.wait(pause)

    def step(self, now: float | None = None) -> float:
        """Move for each bot whose move is due; how long until the next look."""
        service = self._service()
        pause = POLL_S
        live: set[tuple[int, tuple[int, int], int]] = set()
        for table_id in service.store.held_like(PREFIX + "%"):
            table = service.store.table(table_id)
            snap = service.snapshot(table)
            if snap.state.is_terminal:
                continue
            for seat in thinking(table, list(snap.state.players_to_act())):
                key = (table.id, snap.head, seat.seat)
                live.add(key)
                if key not in self._decided:  # worked out once per turn, while the delay runs
                    bot = make_bot(str(level_of(seat)), table.game, len(table.seats), table.seed)
                    self._decided[key] = bot.decide(snap.match, seat.seat)
                at = snap.entries[-1].at if snap.entries else table.created
                wait = at + delay(table, snap.head) - (time.time() if now is None else now)
                if wait > 0:
                    pause = min(pause, wait)
                    continue
                self._move(service, table, seat, snap.head, self._decided[key])
                pause = 0.0
                break  # the table moved on: its next bot looks at the new position
        self._decided = {k: v for k, v in self._decided.items() if k in live}
        return pause

    def _move(self, service: Any, table: TableInfo, seat: Seat, head: tuple[int, int], action: Any) -> None:
        try:
            service.act(table, seat.seat, action, head, request_id(head, seat.seat), seat.device)
        except (Refusal, StoreError) as err:  # stale (a phone or another server was first), or the table ended
            LOG.info("bot move at table %s seat %s not stored: %s", table.id, seat.seat + 1, err)
            return
        if self._wake is not None:
            self._wake(table.id)
