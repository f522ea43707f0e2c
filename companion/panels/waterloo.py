"""Waterloo at the table: chips and bets around the table, the round timer, the showdown and the combo odds.

Every rule comes from `engine.waterloo`: the state's view and legal moves, `explain` and
the evaluator's sort key for the scorer, `combo_odds` (through the look-up index) for the
odds. A table playing with printed cards (option `cards="table"`, R23-R27) enters each
seat's five cards here and submits them as the engine's `reveal`; the engine checks them,
ranks the hands, asks about Scouts and moves the chips, and this page shows its view.
With the app's cards, a scorer still names and ranks any hands tapped in.
"""

from __future__ import annotations

import time
from typing import Any

import streamlit as st

from companion import lookup
from companion.panels.common import card_label, card_links, card_names, named, news, scan_card
from companion.render import private as render_private
from engine.core import act

PHASES = {"bet": "Betting", "draw": "Drawing turns", "swap": "Reserve swap", "reveal": "Revealing hands",
          "scout": "Scout burns", "over": "Game over"}
KIND_GROUPS = {"infantry": "Infantry", "cavalry": "Cavalry", "artillery": "Artillery", "officer": "Officers"}
OTHER_GROUP = "Special and wild"


def render(ctx: Any) -> None:
    news(ctx)
    view = ctx.view()
    if view.get("cards") == "table":
        _render_printed(ctx, view)
        return
    names = card_names(ctx.data)
    me = ctx.player
    st.markdown(f"**Hand {view['hand_number']}** · {PHASES.get(view['phase'], view['phase'])}"
                f" · betting round {view['round']} · reserves return in **{view['hands_until_return']}** hand(s)")
    _timer(view["round_timer_minutes"])
    st.markdown(f"**Community:** {card_links(view['community'], ctx.data, 'waterloo')}")
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
        rows.append(f"- **{ctx.name(p)}**{tag}: {seat['chips']} chips, **bet {seat['bet']}** · reserve up {up}"
                    + (" + one face down" if seat["has_reserve_down"] else ""))
    st.markdown("\n".join(rows) + f"\n\n**At stake: {sum(s['bet'] for s in view['players'])} chips**")
    if me is not None:
        mine = view["players"][me]
        secret: dict[str, Any] = {}
        if mine["reserve_down"]:
            secret["reserve_face_down"] = names.get(mine["reserve_down"], mine["reserve_down"])
        if view.get("drawn"):
            secret["card_just_drawn"] = card_label(ctx.data.card_index[view["drawn"]], ctx.data)
        render_private(me, secret, lines=[f"**Your hand:** {card_links(mine['hand'], ctx.data, 'waterloo')}"])
    _last_result(ctx, view, names)
    ctx.moves()
    _scorer(ctx, names)
    _combo_table(ctx)


def _render_printed(ctx: Any, view: dict[str, Any]) -> None:
    """A table holding printed cards: the app shows chips and bets, takes each seat's reveal and shows the showdown."""
    names = card_names(ctx.data)
    phase = view["phase"]
    step = PHASES.get(phase, phase)
    if phase == "bet":
        rounds = view["betting_rounds"]
        step = ("First betting" if view["round"] == 1 else
                "Final betting (after the drawing turns at the table)" if view["round"] >= rounds else
                f"Betting round {view['round']} of {rounds} (after a drawing turn at the table)")
    st.markdown(f"**Hand {view['hand_number']}** · {step} · reserves return in **{view['hands_until_return']}** hand(s)")
    if view.get("return_now") and phase == "bet" and view["round"] == 1:
        st.warning("Before this hand: return every reserve and community card, shuffle them with the deck "
                   "and deal fresh reserves and community cards (R19).")
    _timer(view["round_timer_minutes"])
    rows = []
    for seat in view["players"]:
        p = seat["seat"]
        flags = ["button"] if p == view["button"] else []
        flags += ["out"] if seat["out"] else ["folded"] if seat["folded"] else []
        if phase == "reveal" and not seat["out"] and not seat["folded"]:
            flags.append("revealed" if seat["revealed"] else "to reveal")
        elif p in view["players_to_act"]:
            flags.append("to act")
        tag = f" ({', '.join(flags)})" if flags else ""
        rows.append(f"- **{ctx.name(p)}**{tag}: {seat['chips']} chips, bet {seat['bet']}")
    st.markdown("\n".join(rows) + f"\n\n**At stake: {sum(s['bet'] for s in view['players'])} chips**")
    if phase == "reveal" and ctx.player is not None and ctx.table.playing:
        _reveal_entry(ctx, view, names)
    showdown = view.get("showdown")
    if showdown and showdown.get("ranking"):
        st.markdown("**Showdown**")
        _ranking(ctx, showdown["ranking"], names)
        if phase == "scout" and view.get("scout_saves") is not None:
            st.info(f"You lost with a Scout face down: burn it to save {view['scout_saves']} chip(s), or pay.")
        elif phase == "scout":
            waiting = ", ".join(ctx.name(p) for p in view["players_to_act"])
            st.info(f"Waiting for {waiting} to burn a face-down Scout or pay the full bet.")
    _printed_result(ctx, view, names)
    ctx.moves()
    _combo_table(ctx)


def _reveal_entry(ctx: Any, view: dict[str, Any], names: dict[str, str]) -> None:
    """This seat's five printed cards, tapped by design (or scanned), and the face-down Scout toggle."""
    me = ctx.player
    mine = view.get("my_reveal")
    ctx.moves_drawn = True  # the reveal below is this phase's move; the engine lists none to tap
    if mine is not None:
        scout = " · a Scout face down in reserve" if mine["scout_down"] else ""
        st.success(f"You revealed: {named(mine['cards'], _design_names(ctx.data))}{scout}. "
                   "Hidden from the others until everyone has revealed.")
        for i, action in enumerate(ctx.state.legal_actions(me)):
            ctx.button(ctx.state.label(action), action, key=f"waterloo-retract-{i}")
        return
    if me not in view["players_to_act"]:
        return
    size = ctx.data.rules.hand_size
    key = f"waterloo-reveal-{ctx.table.code}-{view['hand_number']}"
    picked: list[str] = st.session_state.setdefault(key, [])
    design_names = _design_names(ctx.data)
    labels = {row.id: card_label(row, ctx.data) for row in ctx.data.table("cards")}
    copies = {row.id: row.copies for row in ctx.data.table("cards")}
    header = st.empty()  # filled last, so a card scanned below is already counted
    if len(picked) < size:
        groups: dict[str, list[str]] = {}
        for row in ctx.data.table("cards"):
            groups.setdefault(KIND_GROUPS.get(row.kind, OTHER_GROUP), []).append(row.id)
        for group, designs in groups.items():
            left = [d for d in designs if picked.count(d) < copies[d]]  # never more copies than the deck holds
            st.pills(group, left, key=f"{key}-{group}", format_func=labels.get,
                     on_change=_pick_design, args=(key, f"{key}-{group}", size, copies))
        if st.toggle("Scan a card's QR code", key=f"{key}-scan-on"):
            scanned = scan_card("Photograph the card's QR code", f"{key}-cam", "waterloo")
            if scanned and picked.count(scanned) < copies.get(scanned, 0):
                picked.append(scanned)
            elif scanned:
                st.warning("Every copy of that card is already in your hand.")
    header.markdown(f"**Your hand** ({len(picked)}/{size}): {named(picked, design_names) if picked else 'tap your cards'}")
    c1, c2 = st.columns(2)
    c1.button("Take back the last card", key=f"{key}-back", width="stretch", disabled=not picked,
              on_click=lambda: picked.pop() if picked else None)
    c2.button("Clear", key=f"{key}-clear", width="stretch", disabled=not picked,
              on_click=lambda: picked.clear())
    scout = st.toggle("A Scout lies face down in my reserve", key=f"{key}-scout")
    if len(picked) == size:
        ctx.button("Reveal my hand", act("reveal", me, cards=list(picked), scout_down=bool(scout)),
                   key=f"{key}-go", primary=True)
    else:
        st.caption(f"Tap {size - len(picked)} more card(s), then reveal.")


def _pick_design(key: str, pick: str, size: int, copies: dict[str, int]) -> None:
    design = st.session_state.get(pick)
    hand = st.session_state.setdefault(key, [])
    if design and len(hand) < size and hand.count(design) < copies.get(design, 0):
        hand.append(design)
    st.session_state[pick] = None


def _design_names(data: Any) -> dict[str, str]:
    return {row.id: row.name for row in data.table("cards")}


def _ranking(ctx: Any, ranking: list[dict[str, Any]], names: dict[str, str]) -> None:
    """The engine's ranking: each hand's combo, its cards by weight, its wild cards and why it beat the next."""
    lines = []
    for entry in ranking:
        wilds = "; ".join(f"{names.get(c, c)} stands for {what}" for c, what in entry["wilds"].items())
        line = (f"{entry['place']}. **{ctx.name(entry['seat'])}: {entry['name']}**  \n"
                f"cards by weight: {named(entry['cards'], names)}" + (f"  \n{wilds}" if wilds else ""))
        against = entry.get("against_next")
        if against:
            verb = "ties with" if against["tie"] else "beats"
            line += f"  \n*{verb} {ctx.name(against['seat'])}: {against['why']}*"
        lines.append(line)
    st.markdown("\n\n".join(lines))


def _printed_result(ctx: Any, view: dict[str, Any], names: dict[str, str]) -> None:
    """The last settled hand: its ranking, the Scout choices, each seat's chips and who was knocked out."""
    result = view.get("last_result")
    if not result:
        return
    with st.expander(f"Hand {result['hand']}: result", expanded=view["phase"] == "bet" and view["round"] == 1):
        if result.get("showdown") and result["showdown"].get("ranking"):
            _ranking(ctx, result["showdown"]["ranking"], names)
        else:
            st.markdown("Everyone else folded: no showdown.")
        lines = []
        for p, chips in enumerate(result["chips"]):
            bet, saved, won = result["bets"][p] + result["saved"][p], result["saved"][p], result["won"].get(str(p), 0)
            if not bet and not won:
                continue
            parts = [f"bet {bet}"]
            choice = result.get("scout", {}).get(str(p))
            if choice == "burned":
                parts.append(f"burned the Scout, saved {saved}")
            elif choice == "paid":
                parts.append("kept the Scout and paid")
            if won:
                parts.append(f"collects {won}")
            lines.append(f"- **{ctx.name(p)}**: {', '.join(parts)} → {chips} chips")
        lines += [f"- **{ctx.name(p)}** is out of chips and out of the game." for p in result.get("knocked_out", [])]
        st.markdown("\n".join(lines))
        if result.get("scout", {}).get(str(ctx.player)) == "burned":
            st.caption("Discard your burned Scout and put the top card of the deck face down in its place.")


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
    """Waterloo's table options: who holds the cards, when reserves return, and the starting stacks."""
    rules = data.rules
    return {"cards": st.selectbox("Cards", ["app", "table"], key="opt-waterloo-cards",
                                  format_func=lambda m: "The app deals the cards" if m == "app"
                                  else "We play with the printed cards"),
            "return_after": st.selectbox("Reserves and community cards return after", rules.return_after_options,
                                         format_func=lambda n: f"{n} hands", key="opt-waterloo-return"),
            "starting_chips": int(st.number_input("Starting chips", min_value=1, max_value=10_000,
                                                  value=rules.starting_chips, key="opt-waterloo-chips"))}
