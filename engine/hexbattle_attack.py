"""Hexbattle attacks: the modifiers of a charge or a shot, rolling them, losses, Reserve Fire's free shot, and
the attack action (R14–R24, R33)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from engine import hexbattle_guards as guards
from engine import hexbattle_setup as setup
from engine import hexbattle_sight as sight
from engine import hexbattle_turn as turn
from engine import hexbattle_victory as victory
from engine.core import Action, Refusal, Told, seat
from engine.hexbattle_combat import CardModifiers, card_modifiers, close_combat, ranged_fire, split_blocks
from engine.hexbattle_pieces import AttackEntry, Unit
from engine.hexbattle_view import unit_named
from engine.hexgrid import Hex, bearing, distance, hex_id, neighbour, sight_line, turn_steps
from engine.kinds import Kind

if TYPE_CHECKING:
    from engine.hexbattle_state import HexbattleState


def attacks(state: HexbattleState, unit: Unit, enemies: list[Unit]) -> tuple[Action, ...]:
    """The unit's charge and fire actions, cached with exactly what they read (`AttackEntry`), so that a move
    nearby that cannot change them keeps them: most moves are a friendly unit's, far from any enemy."""
    key = (unit.id, unit.facing, unit.formation, state.is_broken(unit))
    cached = state._attack_cache.get(key)
    if cached is None:
        game, p, uid = state.game, unit.player, unit.id
        here = state.hex_of(unit)
        target = sight.melee_target(state, unit)
        actions: tuple[Action, ...] = () if target is None else (game.attack_action(p, uid, target.id, "melee"),)
        arc = sight.fire_arc(state, unit)
        bit = game.bit
        read = bit[here] | bit.get(game.around[here][unit.facing], 0)  # a hex off the map never changes
        inside = [enemy for enemy in enemies if enemy.hex in arc] if arc else None
        if inside:  # most of a battle no enemy stands in a unit's arc: no shot, and no sight line to read
            actions += tuple([game.attack_action(p, uid, enemy.id, "fire")
                              for enemy in sight.fire_targets(state, unit, inside, arc)])
            for enemy in inside:
                read |= game.line(here, state.hex_of(enemy))[1]
        cached = state._attack_cache[key] = AttackEntry(uid, p, read, game.mask(arc) if arc else 0, actions)
    return cached.actions


def _verify_attack(state: HexbattleState, action: Action) -> None:
    unit = turn.acting_unit(state, action)
    target = state.units.get(action.get("target")) if isinstance(action.get("target"), str) else None
    mode = action.get("mode")
    if target is None or not target.on_board:
        raise Refusal("There is no enemy unit there to attack.")
    if target.player == unit.player:
        raise Refusal("You cannot attack your own unit.")
    if state.is_broken(unit):
        raise Refusal(f"{state.unit_name(unit)} is broken and cannot attack.")
    if state.ground(unit).no_combat:
        raise Refusal(f"Units in {state.ground(unit).name} cannot attack.")
    if state.ground(target).no_combat:
        raise Refusal(f"Units in {state.ground(target).name} cannot be attacked.")
    if mode == "melee":
        if sight.melee_target(state, unit) is not target:
            unit_type = state.unit_type(unit)
            if not unit_type.can_melee:
                raise Refusal(f"{unit_type.name} never fights in close combat; it fires.")
            if unit_type.uses_formations and not state.formation(unit).can_charge:
                raise Refusal(f"Infantry in {state.formation(unit).name} cannot charge.")
            raise Refusal("A charge needs the enemy in the hex the unit faces; pivot first.")
        return
    if mode != "fire":
        raise Refusal("Choose close combat ('melee') or ranged fire ('fire').")
    unit_type = state.unit_type(unit)
    if unit_type.range <= 0:
        raise Refusal(f"{unit_type.name} has no ranged attack.")
    if distance(state.hex_of(unit), state.hex_of(target)) > unit_type.range:
        raise Refusal(f"{state.unit_name(target)} is out of range ({unit_type.range} hexes).")
    if sight.fire_facing(state, unit, state.hex_of(target)) is None:
        # A gun cannot pivot (R11): its arc moves only by firing into it (R16).
        advice = "a gun turns only one step as it fires" if unit_type.turns_to_fire else "pivot first"
        raise Refusal(f"{state.unit_name(target)} is outside {state.unit_name(unit)}'s arc of fire; {advice}.")
    seen = sight.sight(state, state.hex_of(unit), state.hex_of(target))
    if seen.blocked:
        raise Refusal(f"No line of sight: hex {seen.blocker} is in the way.")


def fire_dice(state: HexbattleState, unit: Unit) -> int:
    unit_type = state.unit_type(unit)
    if not unit_type.uses_formations:
        return unit.strength
    t = state.ground(unit)
    if t.garrison_fire_dice is not None:
        return min(unit.strength, t.garrison_fire_dice)
    formation = state.formation(unit)
    return unit.strength if formation.full_volley else min(unit.strength, formation.fire_dice)


def roll_cards(state: HexbattleState, attacker: Unit) -> list[tuple[str, int]]:
    """The offensive card effects of this turn, as (effect, amount), that may change `attacker`'s next roll."""
    if attacker.player != state.current:
        return []
    fx = state.effects
    return [("charge_dice", fx.charge), ("volley_fire", fx.volley), ("cannon_blast", fx.cannon.get(attacker.id, 0))]


def spend_roll_cards(state: HexbattleState, attacker: Unit, combat: str) -> list[str]:
    """The ids of this turn's offensive cards that change `attacker`'s roll now, for the combat's record
    (public from then on); each is spent by it except Charge!, which lasts the turn (R27)."""
    if attacker.player != state.current:
        return []
    kind, fx, used = state.unit_type(attacker).kind, state.effects, []
    for card, uid in list(fx.roll_cards.items()):
        design = state.game.bonus[card]
        if uid in (None, attacker.id) and card_modifiers([(design.effect, design.amount)], combat,
                                                         kind) != CardModifiers():
            used.append(card)
            if design.effect != "charge_dice":
                del fx.roll_cards[card]
    return used


def melee_modifiers(state: HexbattleState, attacker: Unit, defender: Unit, ambush: bool = False,
                    cards: Iterable[tuple[str, int]] | None = None) -> dict[str, Any]:
    """Dice counts and per-die modifiers of a close combat, each part named (R17–R20).

    `cards`: the bonus-card effects on this roll (`card_modifiers`); None means this turn's cards in play."""
    rules = state.game.rules
    a_type, d_type = state.unit_type(attacker), state.unit_type(defender)
    a_bonus = (state.formation(attacker).melee_attack_bonus if a_type.uses_formations
               else a_type.melee_bonus)
    fx = card_modifiers(roll_cards(state, attacker) if cards is None else cards, "melee", a_type.kind)
    a_dice = fx.attack_dice(attacker.strength)
    if d_type.uses_formations:
        formation = state.formation(defender)
        d_bonus = formation.melee_defence_bonus
        if a_type.kind == "cavalry" and formation.defence_vs_cavalry is not None:
            d_bonus = formation.defence_vs_cavalry
        if a_type.kind == "infantry" and formation.defence_vs_infantry is not None:
            d_bonus = formation.defence_vs_infantry
        immune = formation.facing_immune
    else:
        d_bonus = d_type.melee_bonus
        immune = False
    terrain = state.ground(defender)
    terrain_bonus = 0 if ambush or fx.ignore_terrain else terrain.melee_defence_bonus
    if terrain_bonus and terrain.replaces_formation_bonus and d_type.uses_formations:
        d_bonus = 0
    # Adjacent in play; the companion's roller may also ask about units further apart (R20).
    side = (bearing(state.hex_of(defender), state.hex_of(attacker)) - defender.facing) % 6
    penalty = 0 if immune else [0, rules.front_flank_penalty, rules.side_flank_penalty, rules.rear_penalty][
        turn_steps(0, side)]
    return {"attacker_dice": a_dice, "attacker_modifier": a_bonus,
            "defender_dice": defender.strength + fx.defender_dice, "defender_unit_bonus": d_bonus,
            "defender_terrain_bonus": terrain_bonus, "defender_facing_penalty": penalty,
            "defender_modifier": d_bonus + terrain_bonus - penalty, "attack_side": turn_steps(0, side)}


def melee(state: HexbattleState, attacker: Unit, defender: Unit, rng: random.Random) -> None:
    ambush = state.effects.ambush
    state.effects.ambush = False
    entrench = guards.take_guard(state, "entrench", defender)
    guard = [(entrench.effect, entrench.amount)] if entrench is not None else []
    mods = melee_modifiers(state, attacker, defender, ambush, roll_cards(state, attacker) + guard)
    cards = spend_roll_cards(state, attacker, "melee")
    d_dice = mods["defender_dice"]
    if state.is_broken(defender):
        # A broken unit cannot reply; the charge finishes it (R24).
        event = {"event": "melee", "attacker": attacker.id, "defender": defender.id, "modifiers": mods,
                 "cards": cards, "result": None, "broken_defender": True}
        state.events.append(event)
        lose(state, defender, 1)
        return
    a_roll = [state.roll(rng) for _ in range(mods["attacker_dice"])]
    d_roll = [state.roll(rng) for _ in range(d_dice)]
    result = close_combat(a_roll, d_roll, mods["attacker_modifier"], mods["defender_modifier"])
    state.events.append({"event": "melee", "attacker": attacker.id, "defender": defender.id, "modifiers": mods,
                        "cards": cards, "result": result.to_json()})
    lose(state, attacker, result.attacker_losses, enemy_attack=False)
    lose(state, defender, result.defender_losses)
    if state.effects.rout:
        state.effects.rout = False
        if defender.on_board and result.defender_losses > result.attacker_losses:
            here = state.hex_of(defender)
            back = neighbour(here, bearing(state.hex_of(attacker), here))
            if back in state.game.board and state.can_enter(defender, back):
                setup.place(state, defender, back)
                state.events.append({"event": "rout", "unit": defender.id, "to": hex_id(back)})


def fire_modifiers(state: HexbattleState, shooter: Unit, target: Unit, ambush: bool = False,
                   cards: Iterable[tuple[str, int]] | None = None) -> dict[str, Any]:
    """Dice, hit number and damage multiplier of a ranged attack, each part named (R14–R16).

    `cards`: the bonus-card effects on this roll (`card_modifiers`); None means this turn's cards in play."""
    rules = state.game.rules
    s_type, t_type = state.unit_type(shooter), state.unit_type(target)
    artillery = s_type.kind == "artillery"
    fx = card_modifiers(roll_cards(state, shooter) if cards is None else cards, "fire", s_type.kind)
    dice = fx.attack_dice(fire_dice(state, shooter))
    # 1–3 hits, and guns against guns 1–2: the seed names no other exception, a Square included (R15).
    base = rules.counter_battery_hit_max if artillery and t_type.kind == "artillery" else rules.hit_max
    terrain = 0
    if not (ambush or fx.ignore_terrain):
        terrain = (state.ground(shooter).fire_from_modifier + state.ground(target).fire_into_modifier
                   + line_modifier(state, state.hex_of(shooter), state.hex_of(target)))
    point_blank = artillery and distance(state.hex_of(shooter), state.hex_of(target)) <= rules.point_blank_range
    return {"dice": dice, "base_hit_max": base, "terrain_modifier": terrain, "hit_max": max(0, base + terrain),
            "multiplier": rules.point_blank_multiplier if point_blank else 1, "point_blank": point_blank}


def line_modifier(state: HexbattleState, a: Hex, b: Hex) -> int:
    """Wheat's −1 "firing through/from it": once a shot for each such terrain on the line of fire,
    the shooter's and the target's hexes and both hexes of a split step included (R15)."""
    terrain, table = state.terrain, state.game.terrain
    on_line = {a, b}.union(*sight_line(a, b))
    kinds = {terrain[h] for h in on_line if h in terrain}
    return sum(table[t].fire_line_modifier for t in kinds)


def fire(state: HexbattleState, shooter: Unit, target: Unit, rng: random.Random, reserve: bool = False) -> None:
    own_turn = shooter.player == state.current
    ambush = own_turn and state.effects.ambush
    if own_turn:
        state.effects.ambush = False
    mods = fire_modifiers(state, shooter, target, ambush)
    cards = spend_roll_cards(state, shooter, "fire")
    if own_turn:
        if state.unit_type(shooter).kind == "artillery":
            state.effects.volley = 0
        state.effects.cannon.pop(shooter.id, None)
    facing = sight.fire_facing(state, shooter, state.hex_of(target))
    if facing is not None:  # always, for a shot the rules allowed
        shooter.facing = facing
    event: dict[str, Any] = {"event": "fire", "attacker": shooter.id, "defender": target.id, "modifiers": mods,
                             "cards": cards, "reserve_fire": reserve, "result": None}
    state.events.append(event)
    screen = guards.screen(state, target.player)
    if screen is not None:
        event["screened"] = screen.card
        return
    seen = sight.sight(state, state.hex_of(shooter), state.hex_of(target))
    sight_dice = {h: state.roll(rng) for h in seen.contested}
    event["sight_dice"] = sight_dice
    blocked = [h for h, d in sight_dice.items() if split_blocks(d, state.game.rules.split_block_max)]
    if blocked:
        event["blocked_by"] = blocked[0]
        return
    roll = [state.roll(rng) for _ in range(mods["dice"])]
    result = ranged_fire(roll, mods["hit_max"], mods["multiplier"])
    event["result"] = result.to_json()
    lose(state, target, result.losses)


def lose(state: HexbattleState, unit: Unit, losses: int, enemy_attack: bool = True) -> None:
    """Take losses one at a time: at its broken strength (0, guns 1) a unit is broken, and a loss
    suffered while broken destroys it (R23)."""
    if losses <= 0 or unit.destroyed:
        return
    guard = guards.take_guard(state, "heroic_defence", unit) if enemy_attack else None
    if guard is not None:
        losses = card_modifiers([(guard.effect, guard.amount)]).losses(losses)
    for _ in range(losses):
        if not state.is_broken(unit):
            unit.strength -= 1
        else:
            unit.destroyed = True
            setup.place(state, unit, None)
            state.events.append({"event": "destroyed", "unit": unit.id})
            return
    if state.is_broken(unit):
        state.events.append({"event": "broken", "unit": unit.id})


def reserve_fire(state: HexbattleState, mover: Unit, rng: random.Random) -> None:
    """A Reserve Fire guard shoots at the first enemy that ends a Move where it can be hit (R33)."""
    for guard in list(state.guards):
        if guard.effect != "reserve_fire" or guard.owner == mover.player or guard.unit is None:
            continue
        shooter = state.units[guard.unit]
        if not mover.on_board or not shooter.on_board:
            continue
        if mover in sight.fire_targets(state, shooter):
            state.guards.remove(guard)
            state.discard.append(guard.card)
            state.events.append({"event": "guard", "card": guard.card, "effect": guard.effect,
                                "player": guard.owner, "unit": shooter.id})
            fire(state, shooter, mover, rng, reserve=True)
            return


def _attack(state: HexbattleState, action: Action, rng: random.Random) -> None:
    """A charge or a shot; a free shot of Artillery Barrage uses up that gun's (R27)."""
    free, follow_up = turn.spend(state, action, activation=True)
    unit, target = state.units[action["unit"]], state.units[action["target"]]
    if free and unit.id != follow_up:
        state.effects.barrage.discard(unit.id)
    if action["mode"] == "melee":
        melee(state, unit, target, rng)
    else:
        fire(state, unit, target, rng)
    victory.check_victory(state)


def _target_named(state: HexbattleState, action: Action) -> str:
    target = state.units.get(action["target"])
    return state.unit_name(target) if target else str(action["target"])


ATTACK: Kind[HexbattleState] = Kind(
    {"unit": str, "target": str, "mode": str}, _verify_attack, _attack,
    lambda state, action: (f"{unit_named(state, action)}: {'Charge' if action.get('mode') == 'melee' else 'Fire at'} "
                           f"{_target_named(state, action)}"),
    lambda state, action: [Told(f"{seat(action.player)}: {unit_named(state, action)} "
                                f"{'charged' if action['mode'] == 'melee' else 'fired at'} "
                                f"{_target_named(state, action)}")],
    phases=("battle",))

