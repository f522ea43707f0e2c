"""Waterloo at the table: chips and bets around the table, the round timer, the showdown scorer and the combo odds.

Every rule comes from `engine.waterloo`: the state's view and legal moves, `explain` and
the evaluator's sort key for the scorer, `combo_odds` (through the look-up index) for the
odds. The scorer is for a table playing with printed cards: tap or scan five cards per
player and the engine names each combo and ranks the hands.
"""

from __future__ import annotations

import time
from typing import Any

import streamlit as st

from companion import lookup
from companion.panels.common import card_names, named, scan_card
from companion.render import private as render_private

PHASES = {"bet": "Betting", "draw": "Drawing turns", "swap": "Reserve swap", "scout": "Scout burns", "over": "Game over"}


def render(ctx: Any) -> None:
    view = ctx.view()
    names = card_names(ctx.data)
    me = ctx.player
    st.markdown(f"**Hand {view['hand_number']}** · {PHASES.get(view['phase'], view['phase'])}"
                f" · betting round {view['round']} · reserves return in **{view['hands_until_return']}** hand(s)")
    _timer(view["round_timer_minutes"])
    st.markdown(f"**Community:** {named(view['community'], names)}")
    rows = []
    for seat in view["players"]:
        p = seat["seat"]
        flags = []
        if p == view["button"]:
            flags.append("button")
        if seat["out"]:
            flags.append("out")
        elif seat["folded"]:
            flags.append("folded")
        if p in view["players_to_act"]:
            flags.append("to act")
        tag = f" ({', '.join(flags)})" if flags else ""
        up = names.get(seat["reserve_up"], "—") if seat["reserve_up"] else "—"
        rows.append(f"- **{ctx.name(p)}**{tag}: {seat['chips']} chips, bet {seat['bet']} · reserve up {up}"
                    + (" + one face down" if seat["has_reserve_down"] else ""))
    st.markdown("\n".join(rows))
    if me is not None:
        mine = view["players"][me]
        secret: dict[str, Any] = {"your_hand": named(mine["hand"], names)}
        if mine["reserve_down"]:
            secret["reserve_face_down"] = names.get(mine["reserve_down"], mine["reserve_down"])
        if view.get("drawn"):
            secret["card_just_drawn"] = names.get(view["drawn"], view["drawn"])
        render_private(me, secret)
    _last_result(ctx, view, names)
    ctx.moves()
    _scorer(ctx, names)
    _combo_table(ctx)


def _timer(minutes: int) -> None:
    """The round timer runs on this phone only: start it when the betting round starts."""
    started = st.session_state.get("waterloo-timer")
    c1, c2 = st.columns(2)
    c1.button(f"Start {minutes}-minute timer", key="timer-start", width="stretch",
              on_click=lambda: st.session_state.update({"waterloo-timer": time.time()}))
    if started is None:
        return
    c2.button("Stop timer", key="timer-stop", width="stretch",
              on_click=lambda: st.session_state.pop("waterloo-timer", None))

    @st.fragment(run_every=1)
    def clock() -> None:
        left = minutes * 60 - (time.time() - st.session_state.get("waterloo-timer", time.time()))
        if left <= 0:
            st.error("Time! The round is over.")
        else:
            st.markdown(f"### {int(left // 60)}:{int(left % 60):02d} left")
    clock()


def _last_result(ctx: Any, view: dict[str, Any], names: dict[str, str]) -> None:
    result = view.get("last_result")
    showdown = view.get("showdown")
    if showdown:
        st.markdown("**Showdown:** " + "; ".join(
            f"{ctx.name(int(p))}: {h['name']} ({named(h['cards'], names)})" for p, h in showdown["hands"].items()))
    if not result:
        return
    won = ", ".join(f"{ctx.name(int(p))} +{w}" for p, w in result["won"].items())
    saved = [f"{ctx.name(p)} saved {s}" for p, s in enumerate(result.get("saved", [])) if s]
    lines = [f"**Hand {result['hand']}:** {won}" + (f" · Scout: {', '.join(saved)}" if saved else "")]
    if result.get("showdown"):
        lines += [f"- {ctx.name(int(p))}: {h['name']} — {named(h['cards'], names)}"
                  for p, h in result["showdown"]["hands"].items()]
    st.markdown("\n".join(lines))


def _scorer(ctx: Any, names: dict[str, str]) -> None:
    """Score printed hands: tap (or scan) five cards per player; the engine names and ranks them."""
    from engine.waterloo import explain

    game = ctx.game
    with st.expander("Showdown scorer (printed cards)"):
        count = st.number_input("Hands to compare", min_value=1, max_value=6, value=2, key="scorer-count")
        designs = [row for row in ctx.data.table("cards")]
        hands: list[list[str]] = []
        for h in range(int(count)):
            key = f"scorer-hand-{h}"
            hand: list[str] = st.session_state.setdefault(key, [])
            st.markdown(f"**Hand {h + 1}:** {named(hand, names) if hand else 'tap five cards'}")
            if len(hand) < 5:
                st.pills(f"Add a card to hand {h + 1}", [d.id for d in designs], key=f"{key}-pick",
                         format_func=lambda d: _design_label(d, designs), on_change=_add_card,
                         args=(key, f"{key}-pick", ctx.data))
                if st.toggle("Scan a card's QR code", key=f"{key}-scan-on"):
                    scanned = scan_card("Photograph the card's QR code", f"{key}-cam", "waterloo")
                    if scanned and not _take(hand, scanned, ctx.data):
                        st.warning("Every copy of that card is already in this hand.")
            st.button(f"Clear hand {h + 1}", key=f"{key}-clear", on_click=lambda k=key: st.session_state.update({k: []}))
            hands.append(hand)
        full = [(i, h) for i, h in enumerate(hands) if len(h) == 5]
        if not full:
            return
        ranked = sorted(full, key=lambda item: game.evaluator.key(item[1]))
        best = game.evaluator.key(ranked[0][1])
        for place, (i, hand) in enumerate(ranked, start=1):
            why = explain(game, hand)
            wild = "; ".join(f"{names[c]} stands for {what}" for c, what in why.wilds.items())
            tie = " (tie: shares the bets)" if place > 1 and game.evaluator.key(hand) == best else ""
            st.markdown(f"{place}. **Hand {i + 1}: {why.name}**{tie}  \n"
                        f"cards by weight: {named(why.cards, names)}" + (f"  \n{wild}" if wild else ""))
        if len(ranked) > 1:
            st.caption("Hands rank by combo first (the combo table below, strongest first); within the same combo, "
                       "the cards are compared one by one in the order of weight shown, the first difference decides; "
                       "identical hands tie and split the bets.")


def _design_label(design_id: str, designs: list[Any]) -> str:
    row = next(d for d in designs if d.id == design_id)
    return row.name


def _take(hand: list[str], design: str, data: Any) -> bool:
    """Add the next unused physical copy of a design to the hand."""
    for card in data.deck("cards"):
        if card.design.id == design and card.id not in hand:
            hand.append(card.id)
            return True
    return False


def _add_card(key: str, pick: str, data: Any) -> None:
    design = st.session_state.get(pick)
    if design:
        hand = st.session_state.setdefault(key, [])
        if len(hand) < 5 and not _take(hand, design, data):
            st.session_state["_flash"] = st.session_state.get("_flash", []) + [
                ("warning", "Every copy of that card is already in this hand.")]
    st.session_state[pick] = None


def _combo_table(ctx: Any) -> None:
    with st.expander("Combo table with exact odds"):
        lines = []
        for entry in (e for e in lookup.index() if e.kind == "combo" and e.game == "waterloo"):
            odds = dict(entry.extra).get("odds of being dealt", "")
            lines.append(f"{entry.subtitle.split()[-1]}. **{entry.title}** — {entry.text}  \n*{odds}*")
        st.markdown("\n\n".join(lines))


def options_form(data: Any) -> dict[str, Any]:
    """Waterloo's table options: when reserves return, and the starting stacks."""
    rules = data.rules
    return {"return_after": st.selectbox("Reserves and community cards return after", rules.return_after_options,
                                         format_func=lambda n: f"{n} hands", key="opt-waterloo-return"),
            "starting_chips": int(st.number_input("Starting chips", min_value=1, max_value=10_000,
                                                  value=rules.starting_chips, key="opt-waterloo-chips"))}
