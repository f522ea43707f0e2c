"""Napoleonic Warfare at the table: both troop totals, the turn's phase, the attack builder and the casualty arithmetic.

The attack builder lays the hand out as cards, one tap each; the engine (`WarfareState.picks`)
says which may join the choice and why not, and `engine.warfare.casualties` does the sums.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import streamlit as st

from companion.components import movepad
from companion.panels.common import card_label, card_links, news
from companion.render import Sheet
from companion.render import private as render_private
from companion.table_context import TableContext
from engine.core import Action, Refusal
from engine.warfare import WarfareState, casualties, with_morale

PHASES = ("Deploy", "Attack", "Casualties", "Maneuver")
STEP_PHASE = {"deploy": 0, "units": 1, "blunder": 1, "counter": 1, "support": 1, "morale": 2,
              "exchange": 3, "discard": 3, "over": 3}
STEP_HINT = {"deploy": "deploy: play Strategy effects, then attack or not", "units": "choose the attacking units",
             "blunder": "the defender may play an Enemy Blunder", "counter": "the defender may counter-discard",
             "support": "back the attack with Tactics and Strategies", "morale": "the defender may spend Morale",
             "exchange": "exchange cards (no attack this turn)", "discard": "discard down to the hand limit",
             "over": "the battle is over"}
BUILDER_STEPS = ("units", "support", "exchange")
BUILDER_TITLES = {"units": "Attack builder: your units", "support": "Attack builder: support",
                  "exchange": "Maneuver: cards to exchange"}
BUILDER_HINTS = {"units": "Tap each unit to send; one type per attack.",
                 "support": "Tap Tactics of your units' arm and up to one Strategy of each kind, or none.",
                 "exchange": "Tap up to two cards to swap for new ones, or none."}
REPLY_HINT = ("“Take the attack” answers the whole attack in one tap: no Blunder, no more counters, "
              "no Morale.")
DISCARD_SHOWN = 6


def render(ctx: TableContext) -> None:
    news(ctx)
    view = ctx.view()
    data = ctx.data
    start = data.rules.starting_troops
    with ctx.page.sheet() as sheet:  # what no one taps, as one element
        for p in (0, 1):
            troops = view["troops"][p]
            sheet.markdown(f"**{ctx.name(p)}** — {troops} troops · {view['hand_counts'][p]} cards in hand")
            sheet.bar(troops / start, f"{ctx.name(p)}'s troops")
        phase = STEP_PHASE.get(view["step"], 0)
        track = " → ".join(f"**{name}**" if i == phase else name for i, name in enumerate(PHASES))
        sheet.markdown(f"Turn {view['turn']}, {ctx.name(view['active'])} attacking: {track}  \n"
                       f"*Now: {STEP_HINT.get(view['step'], view['step'])}* · deck {view['deck_count']}")
        _attack(view, data, sheet)
        _last(ctx, view, sheet)
        _discard(view, data, sheet)
        if ctx.player is not None:
            lines = [f"**Your hand:** {card_links(view.get('hand', []), data, 'warfare')}"]
            if view.get("opponent_hand") is not None:
                lines.append(f"**Opponent's hand (you looked):** {card_links(view['opponent_hand'], data, 'warfare')}")
            render_private(ctx.player, {}, ctx.names, shown=lines, sheet=sheet)
            if view["step"] in ("blunder", "counter") and ctx.player in view["to_act"] and ctx.acting:
                sheet.caption(REPLY_HINT)
    if view["step"] in BUILDER_STEPS:
        ctx.moves(layout=lambda ctx, legal: _builder(ctx, view, data))
    else:
        ctx.moves()


def _cards(ids: list[str], data: Any) -> str:
    return ", ".join(card_label(data.card_index[c], data) for c in ids) or "none"


def _discard(view: dict[str, Any], data: Any, sheet: Sheet) -> None:
    """The discard pile, newest first: the last cards played (attacks, counters, random discards) lie on top."""
    pile = view["discard"]
    if pile:
        sheet.markdown(f"**Discard pile ({len(pile)}), last played first:** "
                       f"{card_links(list(reversed(pile))[:DISCARD_SHOWN], data, 'warfare')}"
                       + (" …" if len(pile) > DISCARD_SHOWN else ""))


def _arith(c: dict[str, Any], rules: Any) -> str:
    line = f"forces {c['forces']}"
    if c["bonus"]:
        line += (f" + {c['extra_cards']} card(s) beyond {rules.free_cards_per_attack} × "
                 f"{rules.bonus_per_extra_card} = {c['total']}")
    else:
        line += f" ({c['cards']} card(s), no bonus) = {c['total']}"
    if c["halved"]:
        line += f"; Morale halves it to **{c['inflicted']}**"
    else:
        line += f" → **{c['inflicted']}** casualties"
    return line


def _attack(view: dict[str, Any], data: Any, sheet: Sheet) -> None:
    attack = view["attack"]
    if not attack["units"]:
        return
    sheet.markdown(f"**On the table:** units {_cards(attack['units'], data)}"
                   + (f"; support {_cards(attack['support'], data)}" if attack["support"] else ""))
    if attack["casualties"]:
        sheet.markdown(f"Casualties: {_arith(attack['casualties'], data.rules)}")


def _last(ctx: TableContext, view: dict[str, Any], sheet: Sheet) -> None:
    last = view.get("last")
    if last and last.get("event") == "casualties":
        sheet.note("info", f"Last attack by {ctx.name(last['player'])}: {_arith(last['casualties'], ctx.data.rules)}; "
                   f"{last['lost']} troops lost.")
    if view["over"]:
        why = view.get("end_reason") or ""
        sheet.note("success", f"{ctx.name(view['winner'])} wins ({why})." if view["winner"] is not None
                   else f"A draw ({why}).")


def _builder(ctx: TableContext, view: dict[str, Any], data: Any) -> None:
    """The attack builder: the hand laid out as cards, one tap each to choose or un-choose.

    The engine says which cards may join the choice (`WarfareState.picks`); the others are
    disabled with its short reason. It is the layout of the moves (`ctx.moves`) at these steps,
    where the generic list would spell out every combination of cards as its own move. It is all
    part of the table's surface: the cards a pad whose taps choose on this phone only (nothing
    reaches the table until the attack's own button), the sum a sheet, the attack a move pad.
    """
    state, me = ctx.state_as(WarfareState), ctx.player
    if me is None:  # the builder is a seat's moves only
        return
    kind = view["step"]
    key = f"build-{ctx.table.id}-{view['turn']}-{kind}"
    chosen = [c for c in st.session_state.get(key, []) if c in view.get("hand", [])]
    cards = [movepad.Choice(f"card-{card}", ("✓ " if card in chosen else "") + card_label(data.card_index[card], data)
                            + (f" — {why}" if why else ""), card, primary=card in chosen, disabled=why is not None,
                            chosen=card in chosen)
             for card, why in state.picks(chosen)]
    ctx.page.pad(movepad.pad(cards, "builder", ctx.snap.head, title=BUILDER_TITLES[kind],
                             lines=[BUILDER_HINTS[kind]], boxed=True), partial(_toggle, key, chosen))
    action = Action(kind, me, {"cards": chosen})
    with ctx.page.sheet() as sheet:
        try:
            state.check(action)
        except Refusal:
            sheet.caption("Tap the units to attack with.")
            return
        if kind in ("units", "support"):
            counted = [data.card_index[c].design for c in view["attack"]["units"] + chosen] \
                if kind == "support" else [data.card_index[c].design for c in chosen]
            result = casualties(counted, data.rules)
            sheet.markdown(f"Would inflict: {_arith(result.to_json(), data.rules)}  \n"
                           f"(after a Morale card: {with_morale(result, data.rules).inflicted})")
    ctx.button(state.label(action), action, key=f"build-go-{kind}", primary=True)


def _toggle(key: str, chosen: list[str], tap: movepad.Tap) -> None:
    """A card of the builder tapped: chosen if it was not, else no longer (on this phone only). The card is the
    one the pad drew under that button (its id), never a value the phone names."""
    if tap.label is None or not tap.id.startswith("card-"):  # no card this pad drew
        return
    card = tap.id.removeprefix("card-")
    st.session_state[key] = [c for c in chosen if c != card] if card in chosen else [*chosen, card]
