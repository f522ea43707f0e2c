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
from functools import partial
from typing import Any

import streamlit as st

from companion import clock, devices, faults, flashes, live, lookup
from companion.components import movepad
from companion.panels.common import card_label, card_links, card_names, named, news, scan_card
from companion.render import Sheet, plain
from companion.render import private as render_private
from companion.table_context import TableContext
from engine.core import Refusal, act

PHASES = {"bet": "Betting", "draw": "Drawing turns", "swap": "Reserve swap", "reveal": "Revealing hands",
          "scout": "Scout burns", "over": "Game over"}
KIND_GROUPS = {"infantry": "Infantry", "cavalry": "Cavalry", "artillery": "Artillery", "officer": "Officers"}
OTHER_GROUP = "Special and wild"


def render(ctx: TableContext) -> None:
    news(ctx)
    view = ctx.view()
    if view.get("cards") == "table":
        _render_printed(ctx, view)
        return
    names = card_names(ctx.data)
    me = ctx.player
    with ctx.page.sheet() as sheet:
        sheet.markdown(f"**Hand {view['hand_number']}** · {PHASES.get(view['phase'], view['phase'])}"
                       f" · betting round {view['round']} · reserves return in **{view['hands_until_return']}** hand(s)")
    _round_timer(ctx, view)
    with ctx.page.sheet() as sheet:  # what no one taps, as one element
        sheet.markdown(f"**Community:** {card_links(view['community'], ctx.data, 'waterloo')}")
        rows = []
        for seat in view["players"]:
            p = seat["seat"]
            flags = []
            if p == view["button"]:
                flags.append("button")
            if seat["out"]:
                flags.append(_gone(seat))
            elif seat["folded"]:
                flags.append("folded")
            tag = f" ({', '.join(flags)})" if flags else ""
            turn = "▶ " if p in view["players_to_act"] else ""
            up = names.get(seat["reserve_up"], "—") if seat["reserve_up"] else "—"
            rows.append(f"- {turn}**{ctx.name(p)}**{tag}: {seat['chips']} chips, **bet {seat['bet']}** · reserve up {up}"
                        + (" + one face down" if seat["has_reserve_down"] else ""))
        sheet.markdown("\n".join(rows) + f"\n\n**At stake: {sum(s['bet'] for s in view['players'])} chips**")
        if me is not None:
            mine = view["players"][me]
            secret: dict[str, Any] = {}
            if mine["reserve_down"]:
                secret["reserve_face_down"] = names.get(mine["reserve_down"], mine["reserve_down"])
            if view.get("drawn"):
                secret["card_just_drawn"] = card_label(ctx.data.card_index[view["drawn"]], ctx.data)
            render_private(me, secret, shown=[f"**Your hand:** {card_links(mine['hand'], ctx.data, 'waterloo')}"],
                           sheet=sheet)
        _showdown(ctx, view, sheet)
        _latest_hand(ctx, view, sheet)
    _hand_history(ctx, view)
    _your_turn(ctx, view)
    ctx.moves(layout=partial(_drawing_turn, view=view) if view["phase"] == "draw" else None)
    _scorer(ctx, names)
    _combo_table(ctx)


def _render_printed(ctx: TableContext, view: dict[str, Any]) -> None:
    """A table holding printed cards: the app shows chips and bets, takes each seat's reveal and shows the showdown."""
    names = card_names(ctx.data)
    phase = view["phase"]
    step = PHASES.get(phase, phase)
    if phase == "bet":
        rounds = view["betting_rounds"]
        step = ("First betting" if view["round"] == 1 else
                "Final betting (after the drawing turns at the table)" if view["round"] >= rounds else
                f"Betting round {view['round']} of {rounds} (after a drawing turn at the table)")
    with ctx.page.sheet() as sheet:
        sheet.markdown(f"**Hand {view['hand_number']}** · {step} · reserves return in "
                       f"**{view['hands_until_return']}** hand(s)")
        if view.get("return_now") and phase == "bet" and view["round"] == 1:
            sheet.note("warning", "Before this hand: return every reserve and community card, shuffle them with "
                       "the deck and deal fresh reserves and community cards (R19).")
    _round_timer(ctx, view)
    rows = []
    for seat in view["players"]:
        p = seat["seat"]
        flags = ["button"] if p == view["button"] else []
        flags += [_gone(seat)] if seat["out"] else ["folded"] if seat["folded"] else []
        if phase == "reveal" and not seat["out"] and not seat["folded"]:
            flags.append("revealed" if seat["revealed"] else "to reveal")
        elif p in view["players_to_act"]:
            flags.append("to act")
        tag = f" ({', '.join(flags)})" if flags else ""
        rows.append(f"- **{ctx.name(p)}**{tag}: {seat['chips']} chips, bet {seat['bet']}")
    with ctx.page.sheet() as sheet:
        sheet.markdown("\n".join(rows) + f"\n\n**At stake: {sum(s['bet'] for s in view['players'])} chips**")
    if phase == "reveal" and view.get("clash"):  # the hands entered clashed and were cleared (R25): every phone
        with ctx.page.sheet() as sheet:
            sheet.note("warning", view["clash"])
    if phase == "reveal" and ctx.player is not None and ctx.table.playing:
        _reveal_entry(ctx, view, names)
    showdown = view.get("showdown")
    if showdown and showdown.get("ranking"):
        with ctx.page.sheet() as sheet:
            sheet.markdown("**Showdown**").markdown(_ranking(ctx, showdown["ranking"], names))
            if phase == "scout" and view.get("scout_saves") is not None:
                sheet.note("info", f"You lost with a Scout face down: burn it to save {view['scout_saves']} chip(s), "
                           "or pay.")
            elif phase == "scout":
                waiting = ", ".join(ctx.name(p) for p in view["players_to_act"])
                sheet.note("info", f"Waiting for {waiting} to burn a face-down Scout or pay the full bet.")
    _printed_result(ctx, view, names)
    _hand_history(ctx, view)
    ctx.moves()
    _combo_table(ctx)


def _reveal_entry(ctx: TableContext, view: dict[str, Any], names: dict[str, str]) -> None:
    """This seat's five printed cards, tapped by design (or scanned), and the face-down Scout toggle."""
    ctx.page.widgets()  # Streamlit's own elements follow: what the surface gathered goes first
    me = ctx.player
    if me is None:  # the reveal is a seat's only
        return
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
            st.pills(group, left, key=f"{key}-{group}", format_func=lambda d: labels.get(d, d),
                     on_change=_pick_design, args=(key, f"{key}-{group}", size, copies))
        if st.toggle("Scan a card's QR code", key=f"{key}-scan-on"):
            scanned = scan_card(ctx.page, "Photograph the card's QR code", f"{key}-cam", "waterloo")
            if scanned and picked.count(scanned) < copies.get(scanned, 0):
                picked.append(scanned)
            elif scanned:
                st.warning("Every copy of that card is already in your hand.")
    header.markdown(f"**Your hand** ({len(picked)}/{size}): {named(picked, design_names) if picked else 'tap your cards'}")
    c1, c2 = st.columns(2)
    c1.button("Take back the last card", key=f"{key}-back", width="stretch", disabled=not picked,
              on_click=_drop_last, args=(picked,))
    c2.button("Clear", key=f"{key}-clear", width="stretch", disabled=not picked,
              on_click=lambda: picked.clear())
    scout_down = st.toggle("A Scout lies face down in my reserve", key=f"{key}-scout")
    if len(picked) == size:
        ctx.button("Reveal my hand", act("reveal", me, cards=list(picked), scout_down=scout_down),
                   key=f"{key}-go", primary=True)
    else:
        st.caption(f"Tap {size - len(picked)} more card(s), then reveal.")


def _pick_design(key: str, pick: str, size: int, copies: dict[str, int]) -> None:
    design = st.session_state.get(pick)
    hand = st.session_state.setdefault(key, [])
    if design and len(hand) < size and hand.count(design) < copies.get(design, 0):
        hand.append(design)
    st.session_state[pick] = None


def _drop_last(picked: list[str]) -> None:
    """"Take back the last card": the hand being entered loses its last card."""
    if picked:
        picked.pop()


def _design_names(data: Any) -> dict[str, str]:
    return {row.id: row.name for row in data.table("cards")}


def _ranking(ctx: TableContext, ranking: list[dict[str, Any]], names: dict[str, str]) -> str:
    """The engine's ranking, as Markdown: each hand's combo, its cards by weight, its wild cards and why it beat
    the next."""
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
    return "\n\n".join(lines)


def _printed_result(ctx: TableContext, view: dict[str, Any], names: dict[str, str]) -> None:
    """The last settled hand: its ranking, the Scout choices, each seat's chips and who was knocked out (a box
    that folds, open at the first betting round after it)."""
    result = view.get("last_result")
    if not result:
        return
    with ctx.page.sheet() as sheet, sheet.box(key=f"hand-result-{result['hand']}", summary=f"Hand {result['hand']}: result",
                                     folded=not (view["phase"] == "bet" and view["round"] == 1)):
        if result.get("showdown") and result["showdown"].get("ranking"):
            sheet.markdown(_ranking(ctx, result["showdown"]["ranking"], names))
        else:
            sheet.markdown("Everyone else folded: no showdown.")
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
        sheet.markdown("\n".join(lines))
        if result.get("scout", {}).get(str(ctx.player)) == "burned":
            sheet.caption("Discard your burned Scout and put the top card of the deck face down in its place.")


def _round_timer(ctx: TableContext, view: dict[str, Any]) -> None:
    """The table's round timer (R22): the same on every phone, kept by the server; any seat starts or pauses it.
    The countdown, its button beside it and the caption under both, in one box of the page's own blocks."""
    seconds = view["round_timer_minutes"] * 60
    timer = clock.clock(ctx.snap.entries, ctx.state.clock_round(), seconds)
    seat = ctx.player is not None and ctx.table.playing and ctx.acting
    who = ctx.name(timer.by)
    with ctx.page.group("round-timer", beside=True):
        with ctx.page.sheet() as sheet:
            sheet.html(clock.countdown(timer))
        if seat:
            left = timer.left_at(time.time())
            running = timer.running and left > 0
            label = ("Pause" if running else "Start again" if timer.by is not None and left <= 0 else
                     "Resume" if timer.by is not None else f"Start {clock.minutes(seconds)}")
            ctx.tool_pad([movepad.Choice("timer", label, not running)], "timer",
                         partial(_tap_timer, ctx.service, ctx.table.id, ctx.player))
        with ctx.page.sheet() as sheet:
            sheet.caption(f"Round timer, hand {view['hand_number']}: " + (
                f"started by {who}" if timer.running else f"paused by {who}" if timer.by is not None else
                "any player can start it") + ". When time is up, players still to act decide at once (R22).")


@live.waking
@faults.calmly
def _tap_timer(service: Any, table_id: int, seat: int, tap: movepad.Tap) -> None:
    """Pad callback: start (value true) or pause the shared timer as the phone showed it (a logged tap, never
    an undoable move)."""
    if tap.head is None or not isinstance(tap.value, bool):
        return
    try:
        service.timer(service.store.table(table_id), seat, tap.value, tap.head, devices.this_device())
    except Refusal as err:
        flashes.flash("error", str(err), "timer")


def _your_turn(ctx: TableContext, view: dict[str, Any]) -> None:
    """Right above this seat's moves: that it is this player's turn, and what for (the engine's task)."""
    me = ctx.player
    if me is None or me not in view["players_to_act"] or not ctx.table.playing or not ctx.acting:
        return
    owed = view.get("to_call", 0)
    extra = f" · {owed} to call" if view["phase"] == "bet" and owed else ""
    with ctx.page.sheet() as sheet:
        sheet.note("success", f"**Your turn**, {ctx.name(me)}: {plain(ctx.state.task(me))}{extra}.", icon="▶")


def _drawing_turn(ctx: TableContext, legal: list[Any], view: dict[str, Any]) -> None:
    """The drawing turn as cards (R5): draw, then keep, or exchange a hand card (the one just drawn unless
    another is picked) with one of the community cards, one tap each (the plain list would be 15 entries).
    Picking the hand card to give is a tap on a pad that makes no move (`_give`), so the turn is blocks of the
    table's surface, with no Streamlit widget."""
    me, data = ctx.player, ctx.data
    if me is None:  # moves are a seat's only
        return
    if view.get("drawn") is None:
        ctx.button("Draw a card", act("draw", me), key="waterloo-draw", primary=True, sure=True)
        with ctx.page.sheet() as sheet:
            sheet.caption("The draw is your only move now, so it is not asked about twice.")
        return
    index = data.card_index
    hand = view["players"][me]["hand"]
    drawn = view["drawn"]
    pick = f"waterloo-give-{ctx.table.id}-{view['hand_number']}-{len(hand)}"
    give = st.session_state.get(pick) if st.session_state.get(pick) in hand else drawn
    with ctx.page.sheet() as sheet:
        sheet.markdown(f"You drew **{plain(card_label(index[drawn], data))}**.")
    ctx.button("Keep it", act("keep", me), key="waterloo-keep", primary=True)
    ctx.page.pad(movepad.pad([movepad.Choice(f"give-{c}", card_label(index[c], data), c, chosen=c == give)
                              for c in hand],
                             "waterloo-give", ctx.snap.head, title="Or exchange this hand card…", columns=2),
                 partial(_give, pick))
    with ctx.page.sheet() as sheet:
        sheet.markdown(f"…for a community card (gives {plain(card_label(index[give], data))}):")
    for c in view["community"]:
        ctx.button(f"Take {card_label(index[c], data)}", act("exchange", me, card=give, community=c),
                   key=f"waterloo-take-{c}")


def _give(pick: str, tap: movepad.Tap) -> None:
    """Pad callback: the hand card the "Take …" buttons give (a choice on this phone, no move; the redraw
    shows it)."""
    if isinstance(tap.value, str):
        st.session_state[pick] = tap.value


def _showdown(ctx: TableContext, view: dict[str, Any], sheet: Sheet) -> None:
    """The hands shown at a showdown still being settled (losers deciding about a Scout), cards in order of weight."""
    showdown = view.get("showdown")
    if not showdown:
        return
    index = ctx.data.card_index
    winners = showdown["winners"]
    hands = sorted(showdown["hands"].items(), key=lambda item: int(item[0]) not in winners)  # the winner's first
    sheet.markdown(f"**Showdown: {_outcome(ctx, winners, showdown['hands'][str(winners[0])]['name'])}.**  \n"
                   + "  \n".join(f"{ctx.name(int(p))}: {h['name']} — "
                                  + plain(", ".join(card_label(index[c], ctx.data) for c in h["by_weight"]))
                                  for p, h in hands))


def _outcome(ctx: TableContext, winners: list[int], combo: str) -> str:
    """Who won a showdown with what, or who tie and split the bets: said before any Scout is burned."""
    who = " and ".join(ctx.name(p) for p in winners)
    return f"{who} tie with {combo} and split the bets" if len(winners) > 1 else f"{who} won the showdown with {combo}"


def _latest_hand(ctx: TableContext, view: dict[str, Any], sheet: Sheet) -> None:
    """The last settled hand, shown open (a printed-card table shows it in its own result box)."""
    hands = view.get("hand_history") or []
    if hands:
        sheet.markdown(_hand_text(ctx, hands[-1]))


def _hand_history(ctx: TableContext, view: dict[str, Any]) -> None:
    """Every settled hand but the last (shown open: `_latest_hand`, or a printed-card table's result box), newest
    first: who won with what (the hands shown at the showdown, cards in order of weight; folded hands were never
    shown), and each seat's chips moved."""
    hands = view.get("hand_history") or []
    older = hands[-2::-1]
    if older:
        with ctx.page.sheet() as sheet, sheet.box(key="hand-history", summary=f"Hand history ({len(hands)} hands)", folded=True):
            sheet.markdown("\n\n".join(_hand_text(ctx, h) for h in older))


def _hand_text(ctx: TableContext, hand: dict[str, Any]) -> str:
    """One settled hand in words, as Markdown (names escaped, cards by label)."""
    data = ctx.data
    winners = hand["winners"]
    shown = {entry["seat"]: entry for entry in hand["showdown"] or []}
    who = " and ".join(ctx.name(p) for p in winners)
    if not shown:
        head = f"{who} won: everyone else folded"
    else:
        head = _outcome(ctx, winners, shown[winners[0]]["name"])
    moved = ", ".join(f"{ctx.name(int(p))} {'+' if n > 0 else '±' if n == 0 else '−'}{abs(n)}"
                      for p, n in hand["moved"].items())
    lines = [f"**Hand {hand['hand']}:** {head} · chips: {moved}"]
    lines += [f"- {ctx.name(p)}: {entry['name']} — " + plain(", ".join(card_label(data.card_index[c], data)
                                                                         for c in entry["cards"]))
              for p, entry in shown.items()]
    lines += [f"- {ctx.name(int(p))}'s Scout saved {n} chip(s)" for p, n in hand["saved"].items()]
    lines += [f"- {ctx.name(p)} is out of chips" for p in hand["knocked_out"]]
    return "  \n".join(lines[:1]) + ("\n" + "\n".join(lines[1:]) if len(lines) > 1 else "")


def _scorer(ctx: TableContext, names: dict[str, str]) -> None:
    """Score printed hands: tap (or scan) five cards per player; the engine names and ranks them."""
    from engine.waterloo import explain

    game = ctx.game
    box, opened = ctx.page.fold("Showdown scorer (printed cards)", "scorer-box")
    if not opened:
        return
    with box:
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
                flashes.show_beside(f"{key}-pick")
                if st.toggle("Scan a card's QR code", key=f"{key}-scan-on"):
                    scanned = scan_card(ctx.page, "Photograph the card's QR code", f"{key}-cam", "waterloo")
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
    return str(row.name)


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
            flashes.flash("warning", "Every copy of that card is already in this hand.", pick)
    st.session_state[pick] = None


def _combo_table(ctx: TableContext) -> None:
    box, opened = ctx.page.fold("Combo table with exact odds", "combo-box")
    if not opened:
        return
    with box:
        lines = []
        for entry in (e for e in lookup.index() if e.kind == "combo" and e.game == "waterloo"):
            odds = dict(entry.extra).get("odds of being dealt", "")
            lines.append(f"{entry.subtitle.split()[-1]}. **{entry.title}** — {entry.text}  \n*{odds}*")
        st.markdown("\n\n".join(lines))


def _gone(seat: dict[str, Any]) -> str:
    """How a seat that no longer plays is marked: it conceded and left (R30), or it ran out of chips."""
    return "left the game" if seat.get("left") else "out"
