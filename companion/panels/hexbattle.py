"""Hexbattle at the table: the board is the control. Tap one of your units to see where it can go (with
each hex's movement cost), its fire arc and what it can attack; tap a hex to move, a neighbouring hex
(or a facing button) to choose the final facing, a marked enemy to attack. A drawn terrain tile is
shown and named at once and laid by a tap. Laid out as the seed's online version: a top bar (turn, Undo,
Concede), a result banner for the combats this viewer has not moved on from (`hexbattle_result`), what just
happened, the board with the selected unit's facts over it, then the bonus cards with ▶ play / ✕ discard,
each asked about by name. The last combat stays in full on every phone, die by die, until the next one.
An attack tapped on the board is asked about by name in the table page's dialog. What a tap means is worked out in `hexbattle_board`, always from the engine's legal
actions; the board itself is `companion.components.hexboard`. The full move list stays as a fallback,
and the combat roller still asks the engine for every modifier.
"""

from __future__ import annotations

import copy
import random
import threading
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import streamlit as st

from cards import markup
from companion import faults, flashes
from companion.components import hexboard, movepad
from companion.page import Page
from companion.panels import hexbattle_board as board
from companion.panels import hexbattle_result as results
from companion.panels.hexbattle_result import dice
from companion.panels.common import news
from companion.panels.hexbattle_board import ARROWS, COMPASS, Selection
from companion.render import Sheet
from companion.render import private as render_private
from companion.table_context import TableContext
from companion.taps import act
from companion.tables import CACHED_TABLES, STALE
from engine.core import Action, Match, Refusal
from engine.hexbattle_combat import (
    ROLL_EFFECTS,
    CardModifiers,
    card_modifiers,
    close_combat,
    ranged_fire,
)
from engine.hexbattle_state import HexbattleState
from engine.hexgrid import FACING_NAMES
from generator.hexbattle_parts import board_geometry, effects

SIDE_NAMES = {0: "front", 1: "front flank", 2: "side flank", 3: "rear"}


def render(ctx: TableContext) -> None:
    view = ctx.view()
    data = ctx.data
    state = ctx.state_as(HexbattleState)
    _top_bar(ctx, view)
    _banner(ctx)  # the last combat's result, until this viewer moves on
    news(ctx)  # what the other side just did, written for this viewer, at the top as in the card games
    if view["pending_tile"]:
        _drawn_tile(ctx.page, data, view["pending_tile"])
    sel = _selection(ctx.table.id)
    geo = board_geometry(data)
    overlay = board.overlay(state, geo, ctx.player, sel, hexboard.counter_aspect(data))
    overlay["head"] = list(ctx.snap.head)  # reported back with each tap
    hexboard.show(data, overlay, on_tap=partial(_on_tap, ctx.service, ctx.table.id, ctx.player))
    flashes.show_beside("hexboard")  # a refused tap on the board, just under it
    if ctx.table.playing:
        _controls(ctx, sel)
    hand_shown = _card_plays(ctx, view)
    with ctx.page.sheet() as sheet:  # what no one taps, as one element
        sheet.caption("Tap a unit to select it. Green: where it can move (the number is the movement points it "
                      "costs); blue tint: its fire arc; red ⚔: close combat; orange ◎: ranged fire, dashed when "
                      "the line of sight is split (a die decides). The badge is the unit's strength; ⚠ and grey: broken.")
        _last_combat(ctx, sheet)
        if view["result"]:
            sheet.caption(f"How the battle ended: {view['result']}")
        _cards(ctx, view, sheet, hand_shown)
    _units(ctx, view)
    if ctx.table.playing and ctx.seat is not None:
        _all_moves(ctx)
    _roller(ctx, view)


def _top_bar(ctx: TableContext, view: dict[str, Any]) -> None:
    """The turn, and this seat's undo and concede (the seed's online version has Concede in its top bar)."""
    limit = f" of {view['turn_limit']}" if view["turn_limit"] else ""
    turn = f"Turn {view['turn']}{limit} · {view['phase']}" + (
        f" · {view['actions_left']} of {view['actions_this_turn']} actions left" if view["phase"] == "battle" else "")
    drawn = ctx.seat_tools(title=turn)
    with ctx.page.sheet() as sheet:
        if not drawn:
            sheet.markdown(f"**{turn}**")
        if view.get("last_unit"):
            last = next((u["name"] for u in view["units"] if u["id"] == view["last_unit"]), view["last_unit"])
            sheet.caption(f"{last} acted last: it cannot act again until another unit or a non-unit action has.")


def prepare(data: Any) -> None:
    """Draw the board's artwork once, at the server's start, not for the first phone to open a table."""
    hexboard.art(data)


def assets(data: Any) -> None:
    """The board's artwork (`hexboard.mount_art`), before and outside the part of the page a move redraws."""
    hexboard.mount_art(data)


# ----- the selection in progress (per phone, per table) ----------------------------------------------

def _key(table_id: int) -> str:
    return f"hx-sel-{table_id}"


def _selection(table_id: int) -> Selection:
    return st.session_state.get(_key(table_id)) or Selection()


def _select(table_id: int, sel: Selection) -> None:
    st.session_state[_key(table_id)] = sel


def _send(service: Any, table_id: int, seat: int | None, action: Action, offered: tuple[int, int],
          label: str) -> None:
    """A board tap's action goes through the table page's own action path, with the log head the phone saw
    when it was offered (a tap on an outdated board is refused as stale) and the move in words (`label`: a
    move that cannot be taken back is asked about by name); a refusal shows under the board."""
    _select(table_id, Selection())
    act(service, table_id, seat, action.to_json(), offered, label, where="hexboard")


@faults.calmly
def _on_tap(service: Any, table_id: int, seat: int | None, reported: dict[str, Any] | None) -> None:
    """The board reported a tap: find the hex, then select, or act, on the board as the phone showed it
    (a tap on a board the table has moved on from does nothing but say so)."""
    if reported is None:
        return
    offered = movepad.reported_head(reported.get("head"))
    try:
        x, y, width = float(reported["x"]), float(reported["y"]), float(reported["w"])
    except (KeyError, TypeError, ValueError):
        return  # a malformed report from the page is ignored, like a tap beside the board
    if offered is None:
        return
    table = service.store.table(table_id)
    snap = service.snapshot(table)
    if snap.moved_on_since(offered):
        _select(table_id, Selection())
        flashes.flash("warning", STALE, "hexboard")
        return
    state = snap.seen_by(seat)
    where = hexboard.hex_at(board_geometry(state.game.data), x, y, width)
    sel, action = board.tap(state, seat, _selection(table_id), f"{where[0]},{where[1]}" if where else None)
    if action is not None:
        _send(service, table_id, seat, action, offered, board.words(state, action))
    else:
        _select(table_id, sel)


def _pad(ctx: TableContext, items: list[Any], key: str, columns: int = 1, title: str | None = None,
         note: str | None = None) -> None:
    """Buttons as one pad (the table page's); a tap forgets this phone's selection, then plays its move."""
    ctx.pad(items, key, columns=columns, title=title, note=note, before=partial(_select, ctx.table.id, Selection()))


def _compass(ctx: TableContext, actions: dict[int, Action], key: str, verb: str, title: str) -> None:
    """Six facing buttons laid out like the hexes around the unit (one pad, three to a row)."""
    _pad(ctx, [ctx.choice(f"{verb}{ARROWS[f]} {FACING_NAMES[f]}", actions.get(f), key=f"{key}-{f}")
               for row in COMPASS for f in row], key, columns=3, title=title)


def _controls(ctx: TableContext, sel: Selection) -> None:
    """The selected unit's choices as large buttons, and the turn's other actions."""
    state = ctx.state_as(HexbattleState)
    me = ctx.player
    if me is None or me not in state.players_to_act():
        return
    legal = state.legal_actions(me)
    opts = board.options(legal, sel.unit)
    unit = state.units.get(sel.unit) if sel.unit else None
    with ctx.page.group("hx-controls"):  # pads and sheets only: part of the table's one element
        if unit is not None and unit.player == me and unit.on_board:
            if sel.dest is not None and sel.dest in opts.moves:
                _compass(ctx, opts.moves[sel.dest], "hx-face", "", "Final facing")
            elif sel.target is not None and sel.target in opts.attacks:
                _attack_choice(ctx, unit, state.units[sel.target], opts.attacks[sel.target])
            else:
                if opts.pivots:
                    _compass(ctx, opts.pivots, "hx-pivot", "", "Pivot in place (1 action)")
                others = [ctx.choice(f"Form {state.game.formations[a['formation']].name}", a,
                                     key=f"hx-form-{a['formation']}") for a in opts.formations]
                if opts.repair is not None:
                    others.append(ctx.choice("Repair (+1 strength)", opts.repair, key="hx-repair"))
                if others:
                    _pad(ctx, others, "hx-unit-actions")
        bare = {a.kind: a for a in legal if not a.args}  # the turn's actions on no unit
        if state.phase == "deploy":
            turn = [ctx.choice("Quick Start: deploy the rest", bare.get("quick_start"), key="hx-quick-start")]
        else:
            turn = [ctx.choice(label, bare[kind], key=f"hx-{kind.replace('_', '-')}") for kind, label in
                    (("draw_terrain", "Draw terrain"), ("draw_bonus", "Draw bonus card"), ("end_turn", "End turn"))
                    if kind in bare]
        if turn:
            _pad(ctx, turn, "hx-turn", columns=len(turn))


def _attack_choice(ctx: TableContext, unit: Any, enemy: Any, modes: dict[str, Action]) -> None:
    """The attacking unit, what each kind of attack would roll, then one button for each."""
    state = ctx.state_as(HexbattleState)
    with ctx.page.sheet() as sheet:
        sheet.markdown(f"**{state.unit_name(unit)} attacks {state.unit_name(enemy)}: close combat or ranged fire?**")
        if "melee" in modes:
            sheet.caption(_melee_text(state.melee_modifiers(unit, enemy), None))
        if "fire" in modes:
            sheet.caption(_fire_text(state.fire_modifiers(unit, enemy), None, state.game.rules)
                          + _sight_text(state, unit, enemy))
    _pad(ctx, [_named(ctx.choice(label, modes[mode], key=f"hx-{mode}", primary=True), state, modes[mode])
               for mode, label in (("melee", "⚔ Close combat"), ("fire", "◎ Ranged fire")) if mode in modes],
         "hx-attack", columns=len(modes))


def _named(item: movepad.Choice, state: HexbattleState, action: Action) -> movepad.Choice:
    """A button whose question names its move in full ("Charge Red Infantry 1 at 5,4 with …?"), not only
    its short label."""
    if item.ask is None:
        return item
    return replace(item, ask=(f"{board.words(state, action)}? {item.ask[0]}", item.ask[1]))


def _sight_text(state: HexbattleState, unit: Any, enemy: Any) -> str:
    seen = state.sight(unit.hex, enemy.hex)
    if not seen.contested:
        return "; line of sight clear"
    return (f"; line of sight split at {len(seen.contested)} hex(es): a split-hex die each, "
            f"{state.game.rules.split_block_max} or less blocks the shot")


# ----- the drawn tile ------------------------------------------------------------------------------

def _drawn_tile(page: Page, data: Any, terrain_id: str) -> None:
    """A drawn terrain tile, named and explained, before anyone must place it; the board shows it as printed, in
    its bar above the hexes it may go to (`overlay`'s `drawn`), drawn from the art the phone holds: an image here
    would be sent again at every tap until the tile is laid, in an element of its own."""
    terrain = data.by_id("terrain")[terrain_id]
    meanings = "; ".join(e.meaning for e in effects(terrain))
    with page.sheet() as sheet:
        sheet.markdown(f"**Drawn tile: {terrain.name}**  \n{terrain.text}" + (f"  \n{meanings}." if meanings else ""))


# ----- the combats: a banner until the viewer moves on, the last in full until the next -------------

@dataclass(frozen=True)
class Combat:
    """An action that held a combat: its events as each viewer may see them (the engine's `view`), its place
    in the match's record and who made it (for `hexbattle_result.moved_on`)."""

    events: dict[int | None, list[dict[str, Any]]]
    at: int
    actor: int


_COMBATS: dict[tuple[int, str, str], tuple[list[tuple[str, int, Any]], Match[Any], tuple[Combat, ...]]] = {}
_COMBATS_LOCK = threading.Lock()


def combats(ctx: TableContext) -> tuple[Combat, ...]:
    """Every action that held a combat, oldest first.

    The match's own record of what it applied (actions with their steps, undos, notices) is replayed
    once per table and extended as it grows; each viewer's events come from the engine's `view`."""
    applied = ctx.snap.match.events
    table = (ctx.table.id, ctx.table.code, ctx.table.seed)
    with _COMBATS_LOCK:
        cached = _COMBATS.get(table)
    if cached is not None and applied[:len(cached[0])] == cached[0]:
        done, match, found = cached
    else:
        done, match, found = [], Match(ctx.game, ctx.table.seed, ctx.snap.match.options), ()
    if len(applied) > len(done):
        match = copy.copy(match)
        for at, (kind, step, what) in enumerate(applied[len(done):], start=len(done)):
            entry = what.to_json() if kind == "action" else {"kind": kind, "args": {"text": what}}
            match.replay(entry, step)
            if kind == "action" and any(e.get("event") in ("melee", "fire") for e in match.state.events):
                found += (Combat({viewer: match.state.view(viewer)["events"] for viewer in (None, 0, 1)}, at,
                                 what.player),)
        with _COMBATS_LOCK:
            _COMBATS.pop(table, None)
            _COMBATS[table] = (list(applied), match, found)
            while len(_COMBATS) > CACHED_TABLES:  # the least recently changed table goes first
                _COMBATS.pop(next(iter(_COMBATS)))
    return found


def last_combat(ctx: TableContext) -> list[dict[str, Any]] | None:
    """The events of the last action that held a combat, as this phone may see them."""
    found = combats(ctx)
    return found[-1].events.get(ctx.player, found[-1].events[None]) if found else None


def standing(ctx: TableContext) -> list[Combat]:
    """The combats this viewer has not moved on from (`hexbattle_result.moved_on`), oldest first: a player
    reads every combat of the other side's turn until they move. Having moved on from one, a viewer has
    moved on from every earlier one too, so the walk back stops there."""
    actions = [(at, what.player) for at, (kind, _, what) in enumerate(ctx.snap.match.events) if kind == "action"]
    shown: list[Combat] = []
    for fought in reversed(combats(ctx)):
        if results.moved_on([p for at, p in actions if at > fought.at], fought.actor, ctx.player):
            break
        shown.insert(0, fought)
    return shown


def _banner(ctx: TableContext) -> None:
    """The results of the combats this viewer has not moved on from, at the top of the table, in a few words."""
    shown = standing(ctx)
    if not shown:
        return
    state, me = ctx.state_as(HexbattleState), ctx.player
    units = state.units

    def name(uid: str) -> str:
        unit = units.get(uid)
        if unit is None:
            return uid
        owner = "your" if unit.player == me else f"{ctx.name(unit.player)}'s"
        return f"{owner} {state.unit_name(unit)}"

    cards = ctx.data.card_index
    with ctx.page.sheet() as sheet, sheet.box(key="hx-result"):
        for fought in shown:
            for line in results.banner(fought.events.get(me, fought.events[None]), name,
                                       lambda card: cards[card].design.name if card in cards else "A card"):
                if line.kind == "text":
                    sheet.markdown(f"{line.icon} {line.text}".strip())
                else:
                    sheet.note(line.kind, line.text, icon=line.icon)
        sheet.caption("Every die and modifier of the last: *Last combat*, under the board.")


def _last_combat(ctx: TableContext, sheet: Sheet) -> None:
    events = last_combat(ctx)
    if not events:
        return
    state = ctx.state_as(HexbattleState)
    names = {u.id: state.unit_name(u) for u in state.units.values()}
    cards = ctx.data.card_index
    with sheet.box(key="hx-combat"):
        for e in events:
            kind = e.get("event")
            if kind == "guard" and e.get("card") in cards:
                design = cards[e["card"]].design
                sheet.markdown(f"🛡 **{design.name}** fired for {ctx.name(e.get('player'))}: {markup.plain(ctx.data, design.text)}")
            elif kind in ("melee", "fire"):
                who = f"{names.get(e['attacker'], e['attacker'])} → {names.get(e['defender'], e['defender'])}"
                sheet.markdown(f"**Last combat: {who}**")
                for card in (c for c in e.get("cards", ()) if c in cards):
                    design = cards[card].design
                    owner = state.units[e["attacker"]].player
                    sheet.markdown(f"🃏 **{design.name}** played by {ctx.name(owner)}: {markup.plain(ctx.data, design.text)}")
                if kind == "melee":
                    sheet.markdown(_melee_text(e["modifiers"], e.get("result"))
                                + ("  \nThe defender was broken and could not reply; the charge finished it."
                                   if e.get("broken_defender") else ""))
                else:
                    sheet.markdown(_fire_text(e["modifiers"], e.get("result"), ctx.data.rules) + _fire_extras(e))
            elif kind in ("broken", "destroyed", "rout"):
                what = {"broken": "is broken", "destroyed": "is destroyed",
                        "rout": f"is routed to {e.get('to')}"}[kind]
                sheet.markdown(f"**{names.get(e['unit'], e['unit'])} {what}.**")


def _fire_extras(event: dict[str, Any]) -> str:
    """Sight dice, a screen that stopped the shot, a reserve-fire shot."""
    parts = []
    if event.get("reserve_fire"):
        parts.append("Reserve Fire: the shot came during the enemy's move.")
    for h, die in (event.get("sight_dice") or {}).items():
        parts.append(f"Split hex {h}: sight die {die}" + (", blocks the shot" if event.get("blocked_by") == h
                                                          else ", sight clear"))
    if event.get("screened"):
        parts.append("A Skirmisher Screen stopped the shot.")
    return "".join(f"  \n{p}" for p in parts)


# ----- bonus cards and units ---------------------------------------------------------------------------

def _cards(ctx: TableContext, view: dict[str, Any], sheet: Sheet, hand_shown: bool) -> None:
    """How many bonus cards and guards each other seat holds, and this seat's own, boxed as private (its hand
    only when its card panel, `hand_shown`, is not drawn)."""
    me, state = ctx.player, ctx.state_as(HexbattleState)
    cards = ctx.data.card_index
    for p in view["players"]:
        if p["seat"] != me:
            sheet.caption(f"{ctx.name(p['seat'])} holds {p['hand_size']} bonus card(s), {p['guard_count']} guard(s) "
                          "in play (secret until they fire).")
    if me is None:
        return
    player = view["players"][me]
    secret: dict[str, Any] = {}
    hand = player["hand"] or []
    if not hand_shown:
        secret["bonus_cards"] = [f"{cards[c].design.name}: {markup.plain(ctx.data, cards[c].design.text)}"
                                 for c in hand] or "none"
    if player["guards"]:
        secret["guards_in_play"] = [
            f"{cards[g['card']].design.name}" + (f" on {state.unit_name(state.units[g['unit']])}"
                                                 if g["unit"] else "") + f": {markup.plain(ctx.data, cards[g['card']].design.text)}"
            for g in player["guards"]]
    if secret:
        render_private(me, secret, ctx.names, sheet=sheet)


def _card_plays(ctx: TableContext, view: dict[str, Any]) -> bool:
    """This seat's bonus cards as its panel, on its turn: each card named with its text, ▶ to play it (a button
    for each way the engine allows now) and ✕ to discard it, each asked about first by the card's name (the
    seed's "a popup confirms each card played"). Whether the panel was drawn."""
    me = ctx.player
    state = ctx.state_as(HexbattleState)
    if me is None or not ctx.acting:
        return False
    hand = view["players"][me]["hand"] or []
    if not hand or me not in state.players_to_act():
        return False
    cards = ctx.data.card_index
    legal = [a for a in state.legal_actions(me) if a.kind in ("play_card", "discard_card")]
    for card in hand:
        design = cards[card].design
        text = markup.plain(ctx.data, design.text)
        items: list[movepad.Item] = []
        plays = [a for a in legal if a.kind == "play_card" and a.get("card") == card]
        head: dict[str, str | None] = {"title": f"{'🛡' if design.kind == 'defensive' else '⚔'} {design.name} ({design.kind})",
                                       "note": text}
        unpicked = None
        if plays and design.target == "own_damaged_units":  # Supply Run: the units first, then one ▶ for them
            plays = _units_picked(ctx, state, card, design, plays, head)
            head = {"title": None, "note": None}
            unpicked = f"Tap the damaged unit(s) {design.name} repairs first (up to {design.amount})."
        for i, play in enumerate(plays):
            said = board.words(state, play)
            why = ctx.service.consequence(ctx.table, me, play, ctx.snap)  # what it sets off that cannot be taken back
            items.append(movepad.Choice(f"play-{i}", f"▶ {said}", play.to_json(), ask=(
                " ".join(filter(None, (f"{said} now?", text, why, "The card is spent once played."))), "▶ Yes, play it")))
        if not items:
            items.append(movepad.Choice("play", f"▶ Play {design.name}", None, disabled=True,
                                        help=unpicked or f"{design.name} cannot be played now."))
        discard = next((a for a in legal if a.kind == "discard_card" and a.get("card") == card), None)
        items.append(movepad.Choice("discard", f"✕ Discard {design.name}", discard.to_json() if discard else None,
                                    disabled=discard is None, ask=(
            f"Discard {design.name} with no effect? It goes to the discard pile.", "✕ Yes, discard it")))
        _pad(ctx, items, f"hx-card-{card}", title=head["title"], note=head["note"])
    return True


def _units_picked(ctx: TableContext, state: HexbattleState, card: str, design: Any, plays: list[Action],
                  head: dict[str, str | None]) -> list[Action]:
    """A card played on several units (Supply Run, on up to `amount` damaged units): one button per ▶ way would
    be one per pair of units, dozens with many damaged. Instead each damaged unit is a button of its own, under
    the card's name, tapped to choose it (again to drop it); nothing is chosen for the player. The play of
    exactly the units chosen, if any, is returned: its ▶ then names them."""
    key = f"hx-units-{ctx.table.id}-{card}"
    damaged = [a["units"][0] for a in plays if len(a["units"]) == 1]
    chosen = [u for u in st.session_state.get(key, []) if u in damaged]
    full = len(chosen) >= design.amount
    items = [movepad.Choice(f"unit-{u}", ("✓ " if u in chosen else "") + f"{state.unit_name(state.units[u])} "
                            f"({state.units[u].strength}/{state.max_strength(state.units[u])})", u,
                            primary=u in chosen, disabled=full and u not in chosen) for u in damaged]
    ctx.page.pad(movepad.pad(items, f"hx-card-{card}-units", ctx.snap.head, title=head["title"],
                             note=f"{head['note']} Tap the damaged units it repairs, then ▶.", columns=2),
                 partial(_toggle_unit, key, design.amount))
    return [a for a in plays if sorted(a["units"]) == sorted(chosen)] if chosen else []


def _toggle_unit(key: str, most: int, tap: movepad.Tap) -> None:
    """A unit tapped in a card's list: chosen, or no longer chosen; never more than the card takes."""
    chosen: list[str] = st.session_state.setdefault(key, [])
    if tap.value in chosen:
        chosen.remove(tap.value)
    elif isinstance(tap.value, str) and len(chosen) < most:
        chosen.append(tap.value)


def _units(ctx: TableContext, view: dict[str, Any]) -> None:
    """Every unit with its strength, formation where it applies, broken units marked; a tap selects it on the board.
    Each army is a line and a pad of its units (a destroyed one greyed out, in its place): part of the table's
    surface, so a tap on the board while the box is open redraws two pads, not an element per unit."""
    state = ctx.state_as(HexbattleState)
    box, opened = ctx.page.fold("Units", "units-box")
    if not opened:
        return
    with box:
        for p in view["players"]:
            alive = [u for u in view["units"] if u["player"] == p["seat"] and not u["destroyed"]]
            with ctx.page.sheet() as sheet:
                sheet.markdown(f"**{ctx.name(p['seat'])}** ({p['army_name']}): {len(alive)} units")
            items: list[movepad.Item] = []
            for u in view["units"]:
                if u["player"] != p["seat"]:
                    continue
                if u["destroyed"]:
                    items.append(movepad.Choice(f"unit-{u['id']}", f"{u['name']} · destroyed", None, disabled=True))
                    continue
                unit = state.units[u["id"]]
                formation = (f" · {state.game.formations[u['formation']].name}"
                             if state.unit_type(unit).uses_formations else "")
                status = ("⚠ broken " if u["broken"] else "") + f"{u['strength']}/{u['max_strength']}"  # as the seed
                where = "" if u["hex"] else " · not deployed"
                items.append(movepad.Choice(f"unit-{u['id']}", f"{u['name']} · {status}{formation}{where}", u["id"]))
            ctx.page.pad(movepad.pad(items, f"hx-units-{p['seat']}", ctx.snap.head), partial(_picked, ctx.table.id))


def _picked(table_id: int, tap: movepad.Tap) -> None:
    """A unit tapped in the Units box: selected on the board (the unit the pad drew under that button, by its id)."""
    if tap.label is not None and tap.id.startswith("unit-"):
        _select(table_id, Selection(unit=tap.id.removeprefix("unit-")))


def _all_moves(ctx: TableContext) -> None:
    """Every legal move, grouped by unit, for anything the board does not make easy."""
    state = ctx.state_as(HexbattleState)
    ctx.moves_drawn = True  # this list replaces the table page's generic one
    me = ctx.player
    if me is None or me not in state.players_to_act():
        return
    box, opened = ctx.page.fold("All legal moves (by unit)", "all-moves-box")
    if not opened:
        return
    groups: dict[str, list[Action]] = {}
    for action in state.legal_actions(me):
        uid = action.get("unit")
        group = state.unit_name(state.units[uid]) if action.kind != "play_card" and uid in state.units else "Other"
        groups.setdefault(group, []).append(action)
    with box:
        _pad(ctx, [movepad.Pick(f"pick-hx-{i}", group, "Do: ", [(state.label(a), a.to_json()) for a in actions])
                   for i, (group, actions) in enumerate(groups.items())], "hx-all-moves")


def _melee_text(mods: dict[str, Any], result: dict[str, Any] | None) -> str:
    """A close combat in words: the modifiers by source, then each die, the pairs (highest against highest)
    and the losses."""
    lines = [f"Close combat: attacker {mods['attacker_dice']} dice +{mods['attacker_modifier']} (its formation's or "
             f"unit's bonus); defender {mods['defender_dice']} dice {mods['defender_modifier']:+d} "
             f"(formation or unit {mods['defender_unit_bonus']:+d}, terrain {mods['defender_terrain_bonus']:+d}, "
             f"attacked on the {SIDE_NAMES.get(mods['attack_side'], '?')} −{mods['defender_facing_penalty']})"]
    if result is None:
        return lines[0]
    lines.append(f"Dice: attacker {dice(result['attacker_dice'])}, defender {dice(result['defender_dice'])}")
    lines.append("Modified: attacker " + _modified(result["attacker_dice"], result["attacker_modifier"])
                 + "; defender " + _modified(result["defender_dice"], result["defender_modifier"]))
    text = "  \n".join(lines) + "\n\n" + "\n".join(
        f"- {pair['attacker']} vs {pair['defender']}: "
        + {"attacker": "attacker loses 1", "defender": "defender loses 1"}.get(pair["loser"], "tie, nobody loses")
        for pair in result["pairs"]) + "\n\n"
    if result["attacker_unpaired"] or result["defender_unpaired"]:
        text += f"Unpaired dice do nothing: {dice(list(result['attacker_unpaired']) + list(result['defender_unpaired']))}  \n"
    return text + f"**Losses: attacker {result['attacker_losses']}, defender {result['defender_losses']}**"


def _modified(rolled: list[int], modifier: int) -> str:
    return ", ".join(f"{d}{modifier:+d}={d + modifier}" for d in sorted(rolled, reverse=True))


def _fire_text(mods: dict[str, Any], result: dict[str, Any] | None, rules: Any) -> str:
    counter = mods["base_hit_max"] == rules.counter_battery_hit_max != rules.hit_max
    lines = [f"Ranged fire: {mods['dice']} dice, hit on {mods['hit_max']} or less (base {mods['base_hit_max']}"
             + (" counter-battery" if counter else "")
             + f", terrain {mods['terrain_modifier']:+d})"
             + (f", point-blank ×{mods['multiplier']}" if mods["point_blank"] else "")]
    if result is not None:
        each = ", ".join(f"{d} {'hit' if d <= result['hit_max'] else 'miss'}" for d in result["dice"])
        lines.append(f"Dice {dice(result['dice'])} ({each}): {result['hits']} hit(s) × {result['multiplier']} = "
                     f"**{result['losses']} strength lost**")
    return "  \n".join(lines)


def _roller(ctx: TableContext, view: dict[str, Any]) -> None:
    """Roll a combat between two units on the board, with the engine's modifiers for their positions and the cards toggled on."""
    state = ctx.state_as(HexbattleState)
    on_board = [u for u in view["units"] if u["hex"] and not u["destroyed"]]
    if len(on_board) < 2:
        return
    box, opened = ctx.page.fold("Combat roller", "roller-box")
    if not opened:
        return
    with box:
        kind = st.radio("Combat", ["Close combat", "Ranged fire"], horizontal=True, key="roll-kind")
        label = {u["id"]: f"{u['name']} ({u['hex']})" for u in on_board}
        att = st.selectbox("Attacker", list(label), format_func=label.__getitem__, key="roll-att")
        foes = [u["id"] for u in on_board if u["player"] != next(x for x in on_board if x["id"] == att)["player"]]
        if not foes:
            return
        dfn = st.selectbox("Defender", foes, format_func=label.__getitem__, key="roll-def")
        combat = "melee" if kind == "Close combat" else "fire"
        attacker_kind = state.unit_type(state.units[att]).kind
        cards = _card_toggles(ctx.data, combat, attacker_kind, att, dict(state.roll_cards(state.units[att])))
        try:
            if combat == "melee":
                mods = state.melee_modifiers(state.units[att], state.units[dfn], cards=cards)
                text = _melee_text(mods, None)
            else:
                mods = state.fire_modifiers(state.units[att], state.units[dfn], cards=cards)
                text = _fire_text(mods, None, ctx.data.rules)
        except (Refusal, KeyError, TypeError, ValueError) as err:
            st.caption(f"These two units cannot fight like that: {err}")
            return
        fx = card_modifiers(cards, combat, attacker_kind)
        st.markdown(text + (f"  \nCards: {_effect_text(fx)}" if cards else ""))
        if st.button("Roll", key="roll-go", width="stretch", type="primary"):
            dice = random.SystemRandom()
            if combat == "melee":
                result = close_combat([dice.randint(1, 6) for _ in range(mods["attacker_dice"])],
                                      [dice.randint(1, 6) for _ in range(mods["defender_dice"])],
                                      mods["attacker_modifier"], mods["defender_modifier"])
                st.markdown(_melee_text(mods, result.to_json()) + _heroic_text(fx, result.defender_losses))
            else:
                fired = ranged_fire([dice.randint(1, 6) for _ in range(mods["dice"])], mods["hit_max"],
                                    mods["multiplier"])
                st.markdown(_fire_text(mods, fired.to_json(), ctx.data.rules) + _heroic_text(fx, fired.losses))


def _card_toggles(data: Any, combat: str, attacker_kind: str, attacker: str,
                  in_play: dict[str, int]) -> list[tuple[str, int]]:
    """One toggle per bonus card that can change a roll, the attacker's cards in play switched on to start;
    returns the toggled cards' (effect, amount) for the engine."""
    st.markdown("**Bonus cards on this roll**")
    chosen: list[tuple[str, int]] = []
    for row in data.table("bonus_cards"):
        if row.effect not in ROLL_EFFECTS:
            continue
        effect = card_modifiers([(row.effect, row.amount)], combat, attacker_kind)
        on = st.toggle(row.name, key=f"roll-card-{attacker}-{row.id}", value=in_play.get(row.effect, 0) > 0,
                       help=markup.plain(data, row.text), disabled=effect == CardModifiers())
        if on and effect != CardModifiers():
            chosen.append((row.effect, row.amount))
    st.caption("Greyed-out cards do nothing for this attacker in this kind of combat. Cards the attacker has "
               "in play this turn start switched on; hidden guards are the defender's to add.")
    return chosen


def _effect_text(fx: CardModifiers) -> str:
    """The engine's card modifiers in words."""
    parts = []
    if fx.dice_multiplier > 1:
        parts.append(f"attacker dice ×{fx.dice_multiplier}")
    if fx.attacker_dice:
        parts.append(f"+{fx.attacker_dice} attacker dice")
    if fx.defender_dice:
        parts.append(f"+{fx.defender_dice} defender dice")
    if fx.ignore_terrain:
        parts.append("terrain ignored")
    if fx.losses_ignored:
        parts.append(f"the defender ignores its first {fx.losses_ignored} loss(es)")
    return ", ".join(parts) or "no effect on this roll"


def _heroic_text(fx: CardModifiers, losses: int) -> str:
    if not fx.losses_ignored or not losses:
        return ""
    return f"  \n**Heroic Defence: the defender loses {fx.losses(losses)} instead of {losses}.**"
