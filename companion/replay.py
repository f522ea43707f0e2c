"""A finished game as a replay, and its record as a file.

A finished table opens as a replay: step through its log move by move, as this phone's own seat(s)
or as the spectator. Each step is the engine's own position after that many log entries
(`Tables.position`), read through the viewer's view, prompt and history, so a step shows only what
that viewer knew at that moment. No seat is looked through but the phone's own: none of the five
seeds turns every card over at the end (Waterloo shows only the hands at a showdown, never a folded
hand or a face-down reserve), so a replay never shows what the game kept from a player.

A game record is a JSON file (`record`): the game, seed, options, seat names and the log. Loaded
again (`load`) it replays to the same final state, as the spectator (a file is nobody's seat);
nothing is stored. A record holds the seed, so it is the whole game, secrets included: the page says so
beside the download rather than pretending a file can keep what the replay keeps.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import streamlit as st

from companion.render import Sheet, plain
from companion.store import LogEntry, Seat, TableInfo
from companion.tables import Snapshot, Tables
from companion.your_tables import result
from engine.core import Refusal, fill

FORMAT = "muster-game-record/1"
RECORD_LIMIT = 2_000_000  # bytes of a record file; a long game's log is a few hundred kilobytes

Draw = Callable[[Seat | None, Snapshot], None]
"""Draws a position for a viewer (a seat, or None for the spectator) with the game's own panel."""


def record(table: TableInfo, entries: list[LogEntry]) -> dict[str, Any]:
    """The game record of a table: enough to replay it anywhere (no tokens, no phones' ids)."""
    return {"format": FORMAT, "game": table.game, "seed": table.seed, "options": table.options,
            "seats": [s.name for s in table.seats], "winner": table.winner, "ended_by": table.ended_by,
            "log": [{"seq": e.seq, "seat": e.seat, "action": e.action, "at": e.at} for e in entries]}


def load(service: Tables, raw: bytes) -> tuple[TableInfo, list[LogEntry]]:
    """A game record read back: a table of its own (kept in this phone's session only) and its log.
    Refusal, saying what is wrong and where, for a file that is not a Muster game record."""
    if len(raw) > RECORD_LIMIT:
        raise Refusal(f"This file has {len(raw):,} bytes; a game record has at most {RECORD_LIMIT:,}.")
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise Refusal(f"This file is not JSON ({getattr(err, 'msg', err)}).") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Refusal(f"This file is not a Muster game record (its \"format\" should be \"{FORMAT}\").")
    game, seed, options, seats, log = (data.get(k) for k in ("game", "seed", "options", "seats", "log"))
    if not isinstance(game, str) or game not in service.game_ids():
        raise Refusal(f"The record's \"game\" ({game!r}) is not a game this Muster plays.")
    if not isinstance(seed, str) or not isinstance(options, dict):
        raise Refusal("The record's \"seed\" must be text and its \"options\" an object.")
    if not isinstance(seats, list) or not seats or not all(isinstance(n, str) and n.strip() for n in seats):
        raise Refusal("The record's \"seats\" must be a list of the players' names.")
    if not isinstance(log, list):
        raise Refusal("The record's \"log\" must be a list of moves.")
    entries = []
    for i, row in enumerate(log):
        if not (isinstance(row, dict) and isinstance(row.get("seq"), int) and isinstance(row.get("seat"), int)
                and isinstance(row.get("action"), dict)):
            raise Refusal(f"Move {i + 1} of the record's \"log\" needs a whole-number \"seq\" and \"seat\" and an "
                          "\"action\" object.")
        entries.append(LogEntry(i + 1, row["seq"], row["seat"], row["action"], float(row.get("at") or 0)))
    winner, ended_by = data.get("winner"), data.get("ended_by")
    if not (winner is None or (isinstance(winner, int) and 0 <= winner < len(seats))):
        raise Refusal("The record's \"winner\" must be a seat number or null.")
    if not (ended_by is None or isinstance(ended_by, str)):
        raise Refusal("The record's \"ended_by\" must be text or null.")
    table = TableInfo(0, game, seed, options, "RECORD", 0.0, 0.0, "ended", winner, ended_by,
                      tuple(Seat(i, name, "") for i, name in enumerate(seats)))
    try:
        final = service.position(table, entries).state
    except Refusal as err:
        raise Refusal(f"The record cannot be replayed: {err}") from None
    except Exception as err:  # options or a log of a shape the engine never expected
        raise Refusal(f"The record cannot be replayed ({type(err).__name__}: {err}).") from None
    if final.is_terminal and final.winner != winner:
        raise Refusal(f"The record says seat {winner} won, but its moves replay to a different end.")
    return table, entries


def render(service: Tables, table: TableInfo, entries: list[LogEntry], mine: list[Seat], draw: Draw) -> None:
    """The replay of a finished table: who to look through (`mine`, the seats this phone holds, or the
    spectator), which step, then that viewer's position."""
    key = f"replay-{table.code}-{table.id}"
    allowed = [s.seat for s in mine] + [None]
    viewer: int | None = st.session_state.get(f"{key}-as", allowed[0])
    viewer = viewer if viewer in allowed else allowed[0]
    step: int = min(st.session_state.get(f"{key}-step", len(entries)), len(entries))
    shown = "the spectator" if viewer is None else table.seats[viewer].name
    st.markdown(f"#### Replay · move {step} of {len(entries)} · seen as {plain(shown)}")
    _viewers(key, table, viewer, allowed)
    _steps(key, step, len(entries))
    snap = service.position(table, entries[:step])
    seat = table.seats[viewer] if viewer is not None and 0 <= viewer < len(table.seats) else None
    names = [s.name for s in table.seats]
    with Sheet() as sheet:
        ended = step == len(entries) and not snap.state.is_terminal
        sheet.note("info", f"The game ended: {plain(result(table))}." if ended
                   else plain(fill(snap.state.prompt(viewer), names)))
        lines = [line for line in snap.history(viewer) if step and line.seq == entries[step - 1].seq]
        if lines:
            sheet.lines([line.format(names) for line in lines], "muster-log")
    draw(seat, snap)
    st.download_button("Download the game record (JSON)", json.dumps(record(table, entries), indent=1),
                       file_name=f"muster-{table.game}-{table.code}.json", mime="application/json",
                       width="stretch", key=f"{key}-download")
    st.caption("The record holds the game's shuffle, as a chess score holds every move: whoever has the file "
               "can work out every card, hands that were folded unseen included.")


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


def render_record(service: Tables, draw: Callable[[TableInfo], Draw]) -> None:
    """`?page=record`: load a game record file and replay it (kept in this phone's session, never stored)."""
    st.markdown("### Replay a game record")
    upload = st.file_uploader("A game record (JSON), as a finished table's page downloads it", type=["json"],
                              key="record-file")
    if upload is None:
        st.caption("Choose a file to replay it here; nothing is stored on the server.")
        return
    try:
        table, entries = load(service, upload.getvalue())
    except Refusal as err:
        st.error(f"{upload.name}: {err}")
        return
    render(service, table, entries, [], draw(table))
