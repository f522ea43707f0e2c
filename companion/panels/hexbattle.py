"""Hexbattle at the table: the board (drawn with the generator's own board and tile drawings through its SVG
canvas), the 6-action counter, units with strength, bonus cards, the last combat die by die, and a
combat roller that asks the engine for every modifier (`melee_modifiers`, `fire_modifiers`, with the
bonus cards toggled on as `card_modifiers` counts them) and pairs the dice with `engine.hexbattle_combat`.
"""

from __future__ import annotations

import base64
import json
import random
from functools import lru_cache
from typing import Any

import streamlit as st

from companion.render import private as render_private
from companion.tables import catalogue
from engine.core import Refusal
from engine.hexbattle_combat import (
    ROLL_EFFECTS,
    CardModifiers,
    card_modifiers,
    close_combat,
    ranged_fire,
)
from generator.canvas import Box, SvgDocument
from generator.hexbattle_parts import (
    board_geometry,
    counter_piece,
    draw_board,
    draw_tile_face,
    part_layout,
)

FONT = "DejaVuSansCondensed-Bold"
SIDE_NAMES = {0: "front", 1: "front flank", 2: "side flank", 3: "rear"}


def ground_svg(data: Any, terrain_map: dict[str, str]) -> str:
    """The map's ground as SVG: the printed board and every revealed terrain tile (changes only when a tile is laid)."""
    geo = board_geometry(data)
    layout = part_layout(data, "tile_layout")
    terrain = data.by_id("terrain")
    start = data.rules.start_terrain
    doc = SvgDocument(folder=None, stem="ground")  # type: ignore[arg-type]  # strings() only; nothing is saved
    with doc.page(geo.width, geo.height) as c:
        draw_board(c, data)
        for hex_key, terrain_id in terrain_map.items():
            if terrain_id == start or terrain_id not in terrain:
                continue
            col, row = (int(x) for x in hex_key.split(","))
            draw_tile_face(c, terrain[terrain_id], layout, *geo.centre(col, row), icons=False)
    return doc.strings()[0]


def units_svg(data: Any, players: list[dict[str, Any]], units: list[dict[str, Any]]) -> str:
    """The units as SVG over the same viewBox: the generator's counters turned to their facing, with a strength badge."""
    geo = board_geometry(data)
    doc = SvgDocument(folder=None, stem="units")  # type: ignore[arg-type]
    colours = {p["seat"]: p["colour_hex"] for p in players}
    armies = {p["seat"]: p["army"] for p in players}
    with doc.page(geo.width, geo.height) as c:
        for unit in units:
            if unit["col"] is None or unit["destroyed"]:
                continue
            cx, cy = geo.centre(unit["col"], unit["row"])
            piece = counter_piece(data, armies[unit["player"]], unit["type"])
            scale = geo.hex_h * 0.62 / piece.height
            with c.group(cx, cy, rotate=60 * unit["facing"], scale=scale):
                with c.group(-piece.width / 2, -piece.height / 2, clip=Box(0, 0, piece.width, piece.height)):
                    piece.front(c, 0.0)
            # The printed counter shows full strength; the badge is the strength marker beside it.
            badge = geo.hex_h * 0.16
            bx, by = cx + geo.hex_h * 0.3, cy + geo.hex_h * 0.27
            c.circle(bx, by, badge, fill="#777777" if unit["broken"] else colours.get(unit["player"], "#444444"),
                     stroke="#ffffff", width=badge * 0.15)
            c.text(bx, by + badge * 0.45, str(unit["strength"]), font=FONT, size=badge * 3.4, fill="#ffffff",
                   anchor="middle")
    return doc.strings()[0]


@lru_cache(maxsize=64)
def _layer(kind: str, key: str) -> str:
    """One board layer as base64 SVG, drawn once per position and shared by every phone at the table."""
    data = catalogue()["hexbattle"].data
    parts = json.loads(key)
    svg = ground_svg(data, parts["map"]) if kind == "ground" else units_svg(data, parts["players"], parts["units"])
    return base64.b64encode(svg.encode()).decode()


def board_html(view: dict[str, Any]) -> str:
    """The board for a phone: the ground image with the units image laid exactly over it."""
    ground = _layer("ground", json.dumps({"map": view["map"]["terrain"]}, sort_keys=True))
    units = _layer("units", json.dumps(_units_key(view), sort_keys=True))
    return (f'<div style="position:relative;width:100%">'
            f'<img alt="board" style="width:100%;height:auto;display:block" src="data:image/svg+xml;base64,{ground}"/>'
            f'<img alt="units" style="position:absolute;left:0;top:0;width:100%;height:auto" '
            f'src="data:image/svg+xml;base64,{units}"/></div>')


def _units_key(view: dict[str, Any]) -> dict[str, Any]:
    return {"players": [{"seat": p["seat"], "army": p["army"], "colour_hex": p["colour_hex"]} for p in view["players"]],
            "units": [{k: u[k] for k in ("col", "row", "destroyed", "player", "type", "facing", "broken", "strength")}
                      for u in view["units"]]}


def render(ctx: Any) -> None:
    view = ctx.view()
    data = ctx.data
    st.markdown(f"Turn {view['turn']} of {view['turn_limit']} · {view['phase']}"
                + (f" · **{view['actions_left']} of {view['actions_this_turn']} actions left**"
                   if view["phase"] == "battle" else ""))
    if view.get("last_unit"):
        last = next((u["name"] for u in view["units"] if u["id"] == view["last_unit"]), view["last_unit"])
        st.caption(f"{last} acted last: it cannot act again until another unit or a non-unit action has.")
    st.markdown(board_html(view), unsafe_allow_html=True)
    st.caption("Each counter is turned the way its unit faces; the badge is its strength now (grey: broken).")
    _last_combat(ctx, view)
    if view["result"]:
        st.caption(f"How the battle ended: {view['result']}")
    me = ctx.player
    if me is not None:
        player = view["players"][me]
        cards = data.by_id("bonus_cards")
        hand = [cards[c].name if c in cards else c for c in player["hand"] or []]
        secret = {"bonus_cards": f"{', '.join(hand) or 'none'} ({len(hand)} of {data.rules.bonus_hand_limit})"}
        if player["guards"]:
            secret["cards_in_play"] = ", ".join(f"{g['card']} on {g['unit'] or 'the army'}" for g in player["guards"])
        render_private(me, secret, ctx.names)
    ctx.moves()
    _units(ctx, view)
    _roller(ctx, view)


def _units(ctx: Any, view: dict[str, Any]) -> None:
    with st.expander("Units"):
        for p in view["players"]:
            alive = [u for u in view["units"] if u["player"] == p["seat"] and not u["destroyed"]]
            lines = [f"**{ctx.name(p['seat'])}** ({p['army_name']}): {len(alive)} units · "
                     f"{p['hand_size']} bonus card(s) · {p['guard_count']} in play"]
            for u in view["units"]:
                if u["player"] != p["seat"]:
                    continue
                state = "destroyed" if u["destroyed"] else ("broken" if u["broken"] else f"{u['strength']}/{u['max_strength']}")
                where = f"at {u['hex']} facing {u['facing_name']}" if u["hex"] else "not deployed"
                lines.append(f"- {u['name']}: {state}, {u['formation']}, {where}")
            st.markdown("\n".join(lines))


def _last_combat(ctx: Any, view: dict[str, Any]) -> None:
    names = {u["id"]: u["name"] for u in view["units"]}
    combat = next((e for e in reversed(view["events"]) if e.get("event") in ("melee", "fire")), None)
    if combat is None:
        return
    who = f"{names.get(combat['attacker'], combat['attacker'])} → {names.get(combat['defender'], combat['defender'])}"
    result = combat.get("result")
    with st.expander(f"Last combat: {who}"):
        if combat["event"] == "melee":
            st.markdown(_melee_text(combat["modifiers"], result))
        else:
            st.markdown(_fire_text(combat["modifiers"], result))


def _melee_text(mods: dict[str, Any], result: dict[str, Any] | None) -> str:
    lines = [f"Close combat: attacker {mods['attacker_dice']} dice +{mods['attacker_modifier']}; defender "
             f"{mods['defender_dice']} dice {mods['defender_modifier']:+d} (unit {mods['defender_unit_bonus']:+d}, "
             f"terrain {mods['defender_terrain_bonus']:+d}, attacked on the {SIDE_NAMES.get(mods['attack_side'], '?')} "
             f"−{mods['defender_facing_penalty']})"]
    if result is None:
        lines.append("The defender was broken and could not reply.")
        return "  \n".join(lines)
    lines.append(f"Dice: attacker {list(result['attacker_dice'])}, defender {list(result['defender_dice'])}")
    for pair in result["pairs"]:
        lines.append(f"- {pair['attacker']} vs {pair['defender']}: "
                     + ({"attacker": "attacker loses 1", "defender": "defender loses 1"}.get(pair["loser"], "tie")))
    if result["attacker_unpaired"] or result["defender_unpaired"]:
        lines.append(f"Unpaired dice do nothing: {list(result['attacker_unpaired']) + list(result['defender_unpaired'])}")
    lines.append(f"**Losses: attacker {result['attacker_losses']}, defender {result['defender_losses']}**")
    return "  \n".join(lines)


def _fire_text(mods: dict[str, Any], result: dict[str, Any] | None) -> str:
    lines = [f"Ranged fire: {mods['dice']} dice, hit on {mods['hit_max']} or less (base {mods['base_hit_max']}, "
             f"formation {mods['formation_bonus']:+d}, terrain {mods['terrain_modifier']:+d})"
             + (f", point-blank ×{mods['multiplier']}" if mods["point_blank"] else "")]
    if result is not None:
        lines.append(f"Dice {list(result['dice'])}: {result['hits']} hit(s) × {result['multiplier']} = "
                     f"**{result['losses']} strength lost**")
    return "  \n".join(lines)


def _roller(ctx: Any, view: dict[str, Any]) -> None:
    """Roll a combat between two units on the board, with the engine's modifiers for their positions and the cards toggled on."""
    state = ctx.state
    on_board = [u for u in view["units"] if u["hex"] and not u["destroyed"]]
    if len(on_board) < 2:
        return
    with st.expander("Combat roller"):
        kind = st.radio("Combat", ["Close combat", "Ranged fire"], horizontal=True, key="roll-kind")
        label = {u["id"]: f"{u['name']} ({u['hex']})" for u in on_board}
        att = st.selectbox("Attacker", list(label), format_func=label.get, key="roll-att")
        foes = [u["id"] for u in on_board if u["player"] != next(x for x in on_board if x["id"] == att)["player"]]
        if not foes:
            return
        dfn = st.selectbox("Defender", foes, format_func=label.get, key="roll-def")
        combat = "melee" if kind == "Close combat" else "fire"
        attacker_kind = state.unit_type(state.units[att]).kind
        cards = _card_toggles(ctx.data, combat, attacker_kind, att, dict(state.roll_cards(state.units[att])))
        try:
            if combat == "melee":
                mods = state.melee_modifiers(state.units[att], state.units[dfn], cards=cards)
                text = _melee_text(mods, None).split("  \n")[0]
            else:
                mods = state.fire_modifiers(state.units[att], state.units[dfn], cards=cards)
                text = _fire_text(mods, None)
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
                st.markdown(_fire_text(mods, fired.to_json()) + _heroic_text(fx, fired.losses))


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
                       help=row.text, disabled=effect == CardModifiers())
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


def options_form(data: Any) -> dict[str, Any]:
    """Quick Start places every unit at random on its starting row (the seed's button)."""
    return {"quick_start": True} if st.toggle("Quick Start (deploy every unit at random)", key="opt-hex-quick") else {}
