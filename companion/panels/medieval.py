"""Reenforcements (Medieval Edition) at the table: the three columns with totals, the piles, the last battle, and the
engine's suggested placement of your face-down reenforcements (`engine.medieval.expected_outcomes`)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from companion.panels.common import card_names, named
from companion.render import private as render_private
from engine.medieval import expected_outcomes

OUTCOMES = {"won": "won", "unopposed": "won unopposed", "deadlock": "deadlock (both lose their cards)",
            "empty": "empty"}


def render(ctx: Any) -> None:
    view = ctx.view()
    names = card_names(ctx.data)
    players = view["players"]
    decks = [f"{ctx.name(p)} ({players[p]['deck_name']})" for p in (0, 1)]
    lines = [f"**Battle {view['battle']}:** {decks[0]} vs {decks[1]}"]
    for column in view["columns"]:
        sides = []
        for p in (0, 1):
            cards = ", ".join(names.get(e["card"], e["card"]) + ("" if e["counts"] else " (event)")
                              for e in column["cards"][p]) or "—"
            total = column["totals"][p]
            sides.append((cards, "—" if total is None else str(total)))
        lines.append(f"- **{column['name'].capitalize()}**: {sides[0][0]} **{sides[0][1]}** vs "
                     f"**{sides[1][1]}** {sides[1][0]}")
    with st.container(border=True):
        st.markdown("\n".join(lines))
    rows = []
    for p in (0, 1):
        pl = players[p]
        hand = pl["hand"] if isinstance(pl["hand"], int) else len(pl["hand"])
        state = "placed" if pl["committed"] else "placing"
        rows.append(f"- **{decks[p]}**: {pl['cards_left']} cards left · deck {pl['deck']} · hand {hand} ({state}) · "
                    f"survivors {len(pl['survivors'])} · graveyard {len(pl['graveyard'])}"
                    + (f" · beside: {named(pl['beside'], names)}" if pl["beside"] else ""))
    st.markdown("\n".join(rows))
    me = ctx.player
    if me is not None:
        mine = players[me]
        secret = {"your_reenforcements": named(mine["hand"], names)}
        if mine["placement"]:
            secret["you_placed"] = ", ".join(
                f"{names.get(c, c)} {view['columns'][i]['name']}" for i, c in enumerate(mine["placement"]) if c)
        render_private(me, secret, ctx.names)
        _advice(ctx, me)
    ctx.moves()
    _last_battle(ctx, view, names, decks)


def _advice(ctx: Any, me: int) -> None:
    state = ctx.state
    if state.is_terminal or me not in state.players_to_act():
        return
    outcomes = expected_outcomes(state, me)
    if not outcomes:
        return
    best = outcomes[0]
    chances = ", ".join(f"{c['name']} {p:.0%}" for c, p in zip(ctx.view()["columns"], best.per_column, strict=False))
    with st.container(border=True):
        st.markdown(f"**Suggested:** {state.label(best.action)}  \n"
                    f"expected columns won {best.expected_columns:.1f} · chance per column: {chances}")
        ctx.button("Place as suggested", best.action, key="medieval-suggested", primary=True)


def _last_battle(ctx: Any, view: dict[str, Any], names: dict[str, str], decks: list[str]) -> None:
    if not view["battles"]:
        return
    report = view["battles"][-1]
    with st.expander(f"Battle {report['battle']} result", expanded=True):
        lines = []
        for column in report["columns"]:
            winner = decks[column["winner"]] if column["winner"] is not None else "nobody"
            totals = " vs ".join("—" if t is None else str(t) for t in column["totals"])
            ties = f", after {column['tie_rounds']} tie round(s)" if column["tie_rounds"] else ""
            lines.append(f"- **{column['name'].capitalize()}** {totals}: {winner} "
                         f"{OUTCOMES.get(column['outcome'], column['outcome'])}{ties}")
        st.markdown("\n".join(lines))
        st.caption("Winning cards go to their owner's Survivors; beaten cards to the Graveyard.")
