"""The lobby's "Your tables": the seats this phone holds and the tables it hosts, first, each opened as this
phone had it (at its seat, with the host's tools when it hosts).

A phone holds a seat once it opened the seat's link (`Tables.hold` stores the browser's id with the
seat), and hosts a table once it opened the host link (`Store.host_on`), so the store already knows
which tables are this phone's: nothing but that random id is kept in the browser. Going to the lobby,
or Back, therefore never loses a seat or the host link: the lobby offers them again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from companion import devices, links
from companion.components import movepad, surface
from companion.render import ago
from companion.store import Seat, TableInfo
from companion.tables import Tables

YOUR_TABLES = 20  # the most recently active tables where this phone holds a seat


def render(service: Tables) -> set[int]:
    """Draw this phone's tables, playing ones first; the ids drawn, so the lobby's other lists skip them."""
    device = devices.device()
    if device is None:
        return set()
    held: list[tuple[TableInfo, Seat | None]] = []
    for table in service.store.held_by(device, YOUR_TABLES):
        seats = [s for s in table.seats if s.device == device]
        held += [(table, s) for s in seats] or [(table, None)]  # hosted only: the host link
    if not held:
        return set()
    st.header("Your tables")
    entries = []
    for table, seat in sorted(held, key=lambda pair: not pair[0].playing):
        hosting = table.host_device == device and table.host_token is not None
        link = {"table": table.code, **({"seat": seat.token} if seat else {}),
                **({"host": table.host_token} if hosting else {})}
        who = f"you are {seat.name}" + (", the host" if hosting else "") if seat else "you host"
        entries.append((f"yours-{table.code}-{seat.seat if seat else 'host'}",
                        f"{service.game_name(table.game)} · {table.code} — {who} · {_where(service, table, seat)}",
                        link, table.playing))
    table_buttons("lobby-yours", entries)
    return {table.id for table, _ in held}


def table_buttons(key: str, entries: Sequence[tuple[str, str, dict[str, Any], bool]]) -> None:
    """A list of tables, each entry (id, label, the table's link, primary) a button opening its link (`links.go`):
    one element (a pad of its own surface), not an `st.button` each. The lobby lists up to 70 tables; each
    `st.button` was a message, a Markdown label and a tooltip for the phone to draw, and on a first visit Streamlit
    shows none of a page's buttons until every kind of element on it has its script (docs/performance.md)."""
    if not entries:
        return
    opens = {entry_id: link for entry_id, _, link, _ in entries}

    def tapped(tap: movepad.Tap) -> None:
        if tap.id in opens:  # the link as this server drew it
            links.go(**opens[tap.id])

    items = [movepad.Choice(entry_id, label, None, primary=primary) for entry_id, label, _, primary in entries]
    surface.pad(movepad.pad(items, key, movepad.NO_POSITION), tapped)


def _where(service: Tables, table: TableInfo, seat: Seat | None) -> str:
    """How the table stands for this seat (or its host), in a few words: its turn, waiting, or how it ended."""
    if not table.playing:
        return "ended, " + result(table)
    if seat is None:
        free = len(table.free_seats)
        return f"{free} seat{'s' * (free != 1)} not taken yet" if free else f"active {ago(table.last_activity)}"
    if seat.seat in service.snapshot(table).state.players_to_act():
        return "your move"
    return f"active {ago(table.last_activity)}"


def result(table: TableInfo) -> str:
    """An ended table's result in words: who won, or who conceded, or no winner."""
    names = [s.name for s in table.seats]
    won = f"{names[table.winner]} won" if table.winner is not None and 0 <= table.winner < len(names) else "no winner"
    if table.ended_by and table.ended_by.startswith("concede:"):
        loser = int(table.ended_by.split(":")[1])
        return f"{names[loser]} conceded, {won}" if 0 <= loser < len(names) else won
    return won
