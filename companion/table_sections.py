"""The sections of a table's part of the page besides the panel: the news and status line, the plain view, the
log, and the developers' typed move (the part lays them out around the panel: `table_page.part`).

Each draws for one viewer from what the engine writes for that viewer (`State.view`, `State.prompt`,
`Match.history`); names and lines are plain text (`render.plain`), never Markdown.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import streamlit as st

from companion import bot_seats, flashes, taps
from companion import render as draw
from companion.render import plain, pretty
from companion.table_context import TableContext
from engine.core import Action, Line

LOG_LINES = 60


def news(ctx: TableContext, history: list[Line], sheet: draw.Sheet) -> None:
    """What happened since the last move that everyone must notice: undos and table notices, on every phone."""
    fresh: list[Line] = []
    for line in reversed(history):
        if line.kind == "action":
            break
        fresh.append(line)
    for line in reversed(fresh):
        sheet.note("info", plain(line.format(ctx.typed_names)), icon="↩" if line.kind == "undo" else "⚑")


def status(ctx: TableContext, sheet: draw.Sheet) -> None:
    """The engine's status line for this viewer (`State.prompt`), or how the table ended."""
    state, table = ctx.state, ctx.table
    if not table.playing and not state.is_terminal:
        if table.ended_by and table.ended_by.startswith("concede:"):
            loser = int(table.ended_by.split(":")[1])
            sheet.note("info", f"{ctx.name(loser)} conceded." + (f" {ctx.name(table.winner)} wins."
                                                               if table.winner is not None else ""))
        else:
            sheet.note("info", "The game ended without a winner." if table.winner is None
                       else f"{ctx.name(table.winner)} wins.")
        return
    text = ctx.line(state.prompt(ctx.player))
    to_act = ctx.player is not None and ctx.player in state.players_to_act() and ctx.acting
    sheet.note("success" if to_act else "info", text)
    for bot in bot_seats.thinking(table, [] if state.is_terminal else list(state.players_to_act())):
        sheet.note("info", f"{ctx.name(bot.seat)} is thinking…")


def generic_view(ctx: TableContext, key: str = "private") -> None:
    """The engine's view; what only this seat may see (keys a spectator's view lacks) is set apart.

    `key` differs when this stands in for a panel that failed part-way (its box may already exist)."""
    mine = ctx.view()
    public = ctx.state.view(None)
    secret = {k: v for k, v in mine.items() if k not in public or public[k] != v}
    with ctx.page.sheet() as sheet:
        draw.view(mine, ctx.names, skip=list(secret), sheet=sheet)
        draw.private(ctx.player, secret, ctx.names, key=key, sheet=sheet)


def log(ctx: TableContext, history: list[Line]) -> None:
    """The history as this viewer may read it (`Match.history`), newest first, as plain text."""
    if not ctx.snap.entries:
        return
    # A folded box of HTML (a block of the table's surface, which keeps it open or shut as the player left
    # it as moves come in): up to LOG_LINES lines the phone need not parse as Markdown at every move.
    with ctx.page.sheet() as sheet, sheet.box(key="log", summary=f"Moves so far ({ctx.snap.moves})", folded=True):
        sheet.lines([f"{f'{line.seq}.' if line.seq else 'Setup:'} {line.format(ctx.typed_names)}"
                     + (" (taken back)" if line.undone else "")
                     for line in reversed(history[-LOG_LINES:])], "muster-log")


def other_move(ctx: TableContext, legal: list[Action]) -> None:
    """A move typed in by hand, for actions whose arguments the list above does not spell out."""
    box, opened = ctx.page.fold("Debug: other move (type its details)", "other-move-box")
    if opened:
        examples: dict[str, Action] = {}
        for action in legal:
            examples.setdefault(action.kind, action)
        with box:
            kind = st.selectbox("Kind", list(examples), format_func=pretty, key="other-kind")
            # The form is keyed by the position it was drawn at, as a pad's tap carries it: a move typed on a
            # page the table has left is never carried out against the new position (its form is gone).
            with st.form(f"other-move-{ctx.state_id}"):
                sample = examples[kind] if kind else None
                fields = {key: st.text_input(pretty(key), value=json.dumps(value), key=f"arg-{kind}-{key}")
                          for key, value in (sample.args.items() if sample else [])}
                if st.form_submit_button("Try this move", width="stretch") and kind:
                    args: dict[str, Any] = {}
                    for key, raw in fields.items():
                        try:
                            args[key] = json.loads(raw)
                        except json.JSONDecodeError:
                            args[key] = raw
                    typed = Action(kind, int(ctx.player or 0), args)
                    taps.act(ctx.service, ctx.table.id, ctx.player, typed.to_json(), ctx.snap.head,
                        _label(ctx.state.label, typed), where="other-move")
                    st.rerun()
    flashes.show_beside("other-move")


def _label(label: Callable[[Action], str], action: Action) -> str:
    try:
        return label(action)
    except Exception:  # a typed move the engine cannot word: show it as typed
        return str(action)
