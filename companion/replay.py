"""A finished game as a replay, and one viewer's record of it as a file.

A finished table opens as a replay: step through its log move by move, as this phone's own seat(s)
or as the spectator. Each step is the engine's own position after that many log entries
(`Tables.position`), read through the viewer's view, prompt and history, so a step shows only what
that viewer knew at that moment. No seat is looked through but the phone's own: none of the five
seeds turns every card over at the end (Waterloo shows only the hands at a showdown, never a folded
hand or a face-down reserve), so a replay never shows what the game kept from a player.

A game record (`record`) is what one viewer saw, as a file: a frame per step (the opening, then each log
entry), each the status line, the view and the history lines that viewer read then, with the game, the seat
names, who the viewer was and the result. Every frame comes from the position as that viewer may know it
(`Snapshot.seen_by`) and the history as that viewer reads it, so the file is a function of the viewer's
information set: a game whose hidden part went otherwise in anything the viewer could not see gives the same
file byte for byte (tests/test_record_information.py). The record's first format held the seed and the log
instead, and the seed is the whole shuffle and the log every face-down pick and every hand entered: whoever
could open a finished table, a spectator too, could work every folded hand out of the file. So a phone
downloads the record of a viewer it may replay as (its own seat, or the spectator), never another seat's.

Loaded again (`load`), a record replays its frames as its viewer, nothing stored. They are drawn plainly (the
view's lines, the seat's own part boxed) rather than by the game's panel, which draws from a position: a
record holds what was seen of each position, not the position. Nothing in the file can be checked against a
game it leaves out, so a replayed file shows what the file says. A file of the first format, or one that is
damaged, is refused, saying what is wrong and where.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from companion import render as draw
from companion.bot_seats import shown_name
from companion.names import NAME_LIMIT
from companion.render import Sheet, plain, pretty
from companion.store import LogEntry, Seat, TableInfo
from companion.tables import Snapshot, Tables
from companion.your_tables import result
from engine.core import Refusal, fill

FORMAT = "muster-game-record/2"
FIRST_FORMAT = "muster-game-record/1"
RECORD_LIMIT = 8_000_000  # bytes of a record file; a 600-move hexbattle game's record has about 4 MB
FRAMES_LIMIT = 20_000  # frames of a record: a log entry each, and the longest games have a few hundred
DEPTH_LIMIT = 16  # nesting of a frame's view: the engines' views nest 8 deep at most
SEATS_LIMIT = 16

Draw = Callable[[Seat | None, Snapshot], None]
"""Draws a position for a viewer (a seat, or None for the spectator) with the game's own panel."""


@dataclass(frozen=True)
class Frame:
    """One step as its viewer saw it: `move` log entries replayed (0: the opening), the status line and history
    lines with the names filled in, the view, and which of its keys were the viewer's own (the spectator's view
    lacks them or has them otherwise)."""

    move: int
    prompt: str
    view: dict[str, Any]
    own: tuple[str, ...]
    lines: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "prompt": self.prompt, "view": self.view, "own": list(self.own),
                "lines": list(self.lines)}


@dataclass(frozen=True)
class Record:
    """A game as one viewer (a seat, or None for the spectator) saw it, frame by frame."""

    game: str
    seats: tuple[str, ...]
    viewer: int | None
    winner: int | None
    ended_by: str | None
    frames: tuple[Frame, ...]

    @property
    def seen_as(self) -> str:
        return "the spectator" if self.viewer is None else self.seats[self.viewer]

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "seats": list(self.seats), "viewer": self.viewer,
                "winner": self.winner, "ended_by": self.ended_by, "frames": [f.to_json() for f in self.frames]}

    def dumps(self) -> str:
        """The file: compact JSON (a long game's views add up), keys sorted."""
        return json.dumps(self.to_json(), separators=(",", ":"), sort_keys=True)


def record(service: Tables, table: TableInfo, entries: list[LogEntry], viewer: int | None) -> Record:
    """The record of a finished table as `viewer` saw it (no seed, no log, no seat links): one frame per step, from
    one replay of the log (`Tables.steps`, which records the history as it goes). A step's lines are its entry's
    in the history as the viewer reads it at the end, read once and grouped by entry."""
    shown: list[tuple[str, dict[str, Any], tuple[str, ...]]] = []
    for i, snap in enumerate(service.steps(table, entries)):  # the opening at least: `snap` is the last step after
        shown.append(_seen(table, snap, viewer, i == len(entries)))
    names = _names(table)
    lines: dict[int, list[str]] = {}
    for line in snap.history(viewer):
        lines.setdefault(line.seq, []).append(line.format(names))
    frames = tuple(Frame(i, prompt, view, own, tuple(lines.get(seq, ())))
                   for i, ((prompt, view, own), seq) in enumerate(zip(shown, _steps_seq(entries), strict=True)))
    return Record(table.game, tuple(s.name for s in table.seats), viewer, table.winner, table.ended_by, frames)


def _seen(table: TableInfo, snap: Snapshot, viewer: int | None,
          last: bool) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    """What `viewer` saw at `snap` besides the history: the status line (`_prompt`), the view, and which of its keys
    were the viewer's own (the spectator's view lacks them or has them otherwise). Read from the position as the
    viewer may know it (`Snapshot.seen_by`), never from the real one."""
    view = _json(snap.seen_by(viewer).view(viewer))
    public = view if viewer is None else _json(snap.seen_by(None).view(None))
    own = tuple(k for k, v in view.items() if k not in public or public[k] != v)
    return _prompt(table, snap, viewer, last), view, own


def _prompt(table: TableInfo, snap: Snapshot, viewer: int | None, last: bool) -> str:
    """The status line `viewer` read at `snap`, from the position as it may know it; `last`: the table's last step,
    where a table that ended without the game ending (a concession) says how it ended."""
    seen = snap.seen_by(viewer)
    if last and not seen.is_terminal:
        return f"The game ended: {result(table)}."
    return fill(seen.prompt(viewer), _names(table))


def _names(table: TableInfo) -> list[str]:
    """The seats' names as the table shows them: a seat handed to a bot says so."""
    return [shown_name(s) for s in table.seats]


def _steps_seq(entries: Sequence[LogEntry]) -> list[int]:
    """The sequence number whose history lines each step shows: 0 (the opening's) and each entry's own."""
    return [0, *(e.seq for e in entries)]


def _json(value: Any) -> Any:
    """A view as a file holds it (tuples as lists): what is saved is what is compared and drawn."""
    return json.loads(json.dumps(value))


# -- reading a record back ----------------------------------------------------------------------------------


def load(service: Tables, raw: bytes) -> Record:
    """A record file read back. Refusal, saying what is wrong and where, for a file that is not one."""
    if len(raw) > RECORD_LIMIT:
        raise Refusal(f"This file has {len(raw):,} bytes; a game record has at most {RECORD_LIMIT:,}.")
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise Refusal(f"This file is not JSON ({getattr(err, 'msg', err)}).") from None
    except ValueError:  # a number of more digits than Python reads (4,300): no record holds one
        raise Refusal("This file's JSON holds a number far too long to be a game record's.") from None
    except RecursionError:
        raise Refusal("This file's JSON nests too deep to be a game record.") from None
    if isinstance(data, dict) and data.get("format") == FIRST_FORMAT:
        raise Refusal(f"This record is of Muster's first format (\"{FIRST_FORMAT}\"), which held the game's shuffle "
                      "and so every hidden card; it is no longer replayed. Download the record again from the "
                      "finished table: it now holds what your seat saw, and nothing more.")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Refusal(f"This file is not a Muster game record (its \"format\" should be \"{FORMAT}\").")
    game, seats, viewer, frames = (data.get(k) for k in ("game", "seats", "viewer", "frames"))
    if not isinstance(game, str) or game not in service.entries():
        raise Refusal(f"The record's \"game\" ({str(game)[:40]!r}) is not a game this Muster knows.")
    if not (isinstance(seats, list) and 0 < len(seats) <= SEATS_LIMIT
            and all(isinstance(n, str) and n.strip() and len(n) <= NAME_LIMIT for n in seats)):
        raise Refusal(f"The record's \"seats\" must be a list of the players' names (1 to {SEATS_LIMIT}, each of "
                      f"at most {NAME_LIMIT} characters).")
    winner, ended_by = data.get("winner"), data.get("ended_by")
    for name, value in (("viewer", viewer), ("winner", winner)):
        if not (value is None or (type(value) is int and 0 <= value < len(seats))):
            raise Refusal(f"The record's \"{name}\" must be a seat number (0 to {len(seats) - 1}) or null.")
    if not (ended_by is None or isinstance(ended_by, str)):
        raise Refusal("The record's \"ended_by\" must be text or null.")
    if not isinstance(frames, list) or not 0 < len(frames) <= FRAMES_LIMIT:
        raise Refusal(f"The record's \"frames\" must be a list of 1 to {FRAMES_LIMIT:,} steps.")
    read = tuple(_frame(i, f) for i, f in enumerate(frames))
    return Record(game, tuple(seats), viewer, winner, ended_by, read)


def _frame(i: int, data: Any) -> Frame:
    where = f"Step {i} of the record's \"frames\""
    if not isinstance(data, dict):
        raise Refusal(f"{where} must be an object.")
    move, prompt, view, own, lines = (data.get(k) for k in ("move", "prompt", "view", "own", "lines"))
    if move != i or type(move) is not int:
        raise Refusal(f"{where} needs \"move\": {i} (the steps count the log's entries from 0, the opening).")
    if not isinstance(prompt, str):
        raise Refusal(f"{where} needs its status line, \"prompt\", as text.")
    if not isinstance(view, dict) or _depth(view) > DEPTH_LIMIT:
        raise Refusal(f"{where} needs a \"view\" object, nested at most {DEPTH_LIMIT} deep.")
    if not (isinstance(own, list) and all(isinstance(k, str) and k in view for k in own)):
        raise Refusal(f"{where}: \"own\" must list keys of its \"view\".")
    if not (isinstance(lines, list) and all(isinstance(t, str) for t in lines)):
        raise Refusal(f"{where}: \"lines\" must be a list of history lines (text).")
    return Frame(move, prompt, view, tuple(own), tuple(lines))


def _depth(value: Any, limit: int = DEPTH_LIMIT + 1) -> int:
    """How deep `value` nests, counted no further than `limit` (a file's view may be built to nest deeper)."""
    if limit <= 0 or not isinstance(value, (dict, list)):
        return 0
    inner = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(v, limit - 1) for v in inner), default=0)


# -- drawing ------------------------------------------------------------------------------------------------


def render(service: Tables, table: TableInfo, final: Snapshot, mine: list[Seat], draw_panel: Draw) -> None:
    """The replay of a finished table whose last position is `final` (the table's snapshot, shown as it is at the
    last step, where a replay opens): who to look through (`mine`, the seats this phone holds, or the spectator),
    which step, then that viewer's status line and lines and the panel at that step, each worked out once (an
    earlier step is replayed once, its history recorded as it goes); and that viewer's record to download."""
    entries = list(final.entries)
    key = f"replay-{table.code}-{table.id}"
    allowed = [s.seat for s in mine] + [None]
    viewer: int | None = st.session_state.get(f"{key}-as", allowed[0])
    viewer = viewer if viewer in allowed else allowed[0]
    step: int = min(st.session_state.get(f"{key}-step", len(entries)), len(entries))
    shown = "the spectator" if viewer is None else table.seats[viewer].name
    _heading(step, len(entries), shown)
    _viewers(key, table, viewer, allowed)
    _steps(key, step, len(entries))
    snap = final if step == len(entries) else service.position(table, entries[:step], history=True)
    seq, names = _steps_seq(entries)[step], _names(table)
    _text(_prompt(table, snap, viewer, step == len(entries)),
          [line.format(names) for line in snap.history(viewer) if line.seq == seq])
    seat = table.seats[viewer] if viewer is not None and 0 <= viewer < len(table.seats) else None
    draw_panel(seat, snap)
    whose = "the spectator's" if seat is None else f"{plain(seat.name)}'s"
    st.download_button(f"Download {whose} game record (JSON)", lambda: record(service, table, entries, viewer).dumps(),
                       file_name=f"muster-{table.game}-{table.code}-{'spectator' if seat is None else seat.seat + 1}"
                                 ".json", mime="application/json", width="stretch", key=f"{key}-download-{viewer}",
                       on_click="ignore")  # a download changes nothing: no rerun to race the file's request
    st.caption(f"The record holds what {plain(shown)} saw at each move (the status line, the table, the history), "
               "nothing more: no shuffle, no card kept from that seat. Another phone replays it with \"Replay a game "
               "record\" in the lobby, seen as that seat only.")


def _heading(step: int, last: int, shown: str) -> None:
    st.markdown(f"#### Replay · move {step} of {last} · seen as {plain(shown)}")


def _text(prompt: str, lines: Sequence[str]) -> None:
    """A step's status line and the history lines it added, as its viewer read them."""
    with Sheet() as sheet:
        sheet.note("info", plain(prompt))
        if lines:
            sheet.lines(list(lines), "muster-log")


def _viewers(key: str, table: TableInfo, viewer: int | None, allowed: list[int | None]) -> None:
    """One button per seat this phone holds and one for the spectator; the one looked through is marked and
    primary. With nothing to choose (a record file, a spectator's phone) there are no buttons."""
    if len(allowed) < 2:
        return
    choices = [(s, "Spectator" if s is None else table.seats[s].name) for s in allowed]
    row = st.container(horizontal=True)  # side by side on a phone too (columns stack under 640 px)
    for seat, name in choices:
        chosen = seat == viewer
        row.button(("✓ " if chosen else "") + name, key=f"{key}-as-{seat}", width="stretch",
                      type="primary" if chosen else "secondary", on_click=_set, args=(f"{key}-as", seat),
                      help=f"See the game as {'a spectator' if seat is None else name} saw it")


def _steps(key: str, step: int, last: int) -> None:
    """First, back, forward and last, as buttons under the thumb."""
    moves = [("« Start", 0), ("‹ Back", max(step - 1, 0)), ("Next ›", min(step + 1, last)), ("End »", last)]
    row = st.container(horizontal=True)
    for label, to in moves:
        row.button(label, key=f"{key}-to-{label}", width="stretch", disabled=to == step,
                   on_click=_set, args=(f"{key}-step", to))


def _set(name: str, value: Any) -> None:
    st.session_state[name] = value


def render_record(service: Tables) -> None:
    """`?page=record`: load a game record file and replay it as its viewer (kept in this phone's session, never
    stored)."""
    st.markdown("### Replay a game record")
    upload = st.file_uploader("A game record (JSON), as a finished table's page downloads it", type=["json"],
                              key="record-file", max_upload_size=-(-RECORD_LIMIT // 1_000_000))  # MB, rounded up
    if upload is None:
        st.caption("Choose a file to replay it here; nothing is stored on the server. A record holds what one "
                   "seat (or the spectator) saw, and replays as that seat only.")
        return
    try:
        rec = load(service, upload.getvalue())
    except Refusal as err:
        st.error(f"{upload.name}: {err}")
        return
    key = f"replay-file-{upload.file_id}"
    last = len(rec.frames) - 1
    step: int = min(st.session_state.get(f"{key}-step", last), last)
    st.caption(f"{plain(service.game_name(rec.game))} · {plain(', '.join(rec.seats))}")
    _heading(step, last, rec.seen_as)
    _steps(key, step, last)
    shown = rec.frames[step]
    _text(shown.prompt, shown.lines)
    names = [plain(n) for n in rec.seats]
    with Sheet() as sheet:
        draw.view(_plain({k: v for k, v in shown.view.items() if k not in shown.own}), names, sheet=sheet)
        draw.private(rec.viewer, _plain({k: shown.view[k] for k in shown.own}), names, key="record-own", sheet=sheet,
                     heading=f"Only {plain(rec.seen_as)} saw this")  # a file may be opened on any phone


def _plain(value: Any) -> Any:
    """A file's view with every text escaped (`render.plain`), keys included: a file may say anything."""
    if isinstance(value, dict):
        return {plain(pretty(str(k))): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return plain(value) if isinstance(value, str) else value
