"""The lobby's "Your tables": the seats this phone holds, first, each opened at its seat.

A phone holds a seat once it opened the seat's link (`Tables.hold` stores the browser's id with the
seat), so the store already knows which seats are this phone's: nothing but that random id is kept
in the browser. Going to the lobby, or Back, therefore never loses a seat: the lobby offers it again.
"""

from __future__ import annotations

import streamlit as st

from companion import devices, links
from companion.render import ago, plain
from companion.store import Seat, TableInfo
from companion.tables import Tables

YOUR_TABLES = 20  # the most recently active tables where this phone holds a seat


def render(service: Tables) -> set[int]:
    """Draw this phone's tables, playing ones first; the ids drawn, so the lobby's other lists skip them."""
    device = devices.device()
    if device is None:
        return set()
    held = [(table, seat) for table in service.store.held_by(device, YOUR_TABLES)
            for seat in table.seats if seat.device == device]
    if not held:
        return set()
    st.subheader("Your tables")
    for table, seat in sorted(held, key=lambda pair: not pair[0].playing):
        st.button(plain(f"{service.game_name(table.game)} · {table.code} — you are {seat.name} · "
                        f"{_where(service, table, seat)}"),
                  key=f"yours-{table.code}-{seat.seat}", on_click=links.go,
                  kwargs={"table": table.code, "seat": seat.token}, width="stretch",
                  type="primary" if table.playing else "secondary",
                  help="Open this table at your seat")
    return {table.id for table, _ in held}


def _where(service: Tables, table: TableInfo, seat: Seat) -> str:
    """How the table stands for this seat, in a few words: its turn, waiting, or how it ended."""
    if not table.playing:
        return "ended, " + result(table)
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
