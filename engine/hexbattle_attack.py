"""Hexbattle attacks: the modifiers of a charge or a shot, rolling them, and losses (R14–R24)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from engine.core import Action, Refusal
from engine.hexbattle_combat import CardModifiers, card_modifiers, close_combat, ranged_fire, split_blocks
from engine.hexbattle_pieces import Unit
from engine.hexgrid import Hex, bearing, direction_to, distance, hex_id, neighbour, sight_line, turn_steps


class AttackMixin:
    """Charges and fire on the board, from their legal actions to the losses they cause."""

    def _attacks(self, unit: Unit, enemies: list[Unit]) -> tuple[Action, ...]:
        """The unit's charge and fire actions (cached until a unit or tile is placed near it)."""
        key = (unit.id, unit.facing, unit.formation, self.is_broken(unit))
        cached = self._attack_cache.get(key)
        if cached is None:
            game, p, uid = self.game, unit.player, unit.id
            target = self.melee_target(unit)
            melee = () if target is None else (game.attack_action(p, uid, target.id, "melee"),)
            targets = self.fire_targets(unit, enemies)
            fire = tuple([game.attack_action(p, uid, enemy.id, "fire") for enemy in targets]) if targets else ()
            zone = game.zone(unit.hex, game.attack_radius[unit.type])  # type: ignore[arg-type]
            cached = self._attack_cache[key] = (zone, melee + fire)
        return cached[1]

    def _verify_attack(self, action: Action, unit: Unit) -> None:
        target = self.units.get(action.get("target")) if isinstance(action.get("target"), str) else None
        mode = action.get("mode")
        if target is None or not target.on_board:
            raise Refusal("There is no enemy unit there to attack.")
        if target.player == unit.player:
            raise Refusal("You cannot attack your own unit.")
        if self.is_broken(unit):
            raise Refusal(f"{self.unit_name(unit)} is broken and cannot attack.")
        if self.terrain_at(unit.hex).no_combat:
            raise Refusal(f"Units in {self.terrain_at(unit.hex).name} cannot attack.")
        if self.terrain_at(target.hex).no_combat:
            raise Refusal(f"Units in {self.terrain_at(target.hex).name} cannot be attacked.")
        if mode == "melee":
            if self.melee_target(unit) is not target:
                unit_type = self.unit_type(unit)
                if not unit_type.can_melee:
                    raise Refusal(f"{unit_type.name} never fights in close combat; it fires.")
                if unit_type.uses_formations and not self.game.formations[unit.formation].can_charge:
                    raise Refusal(f"Infantry in {self.game.formations[unit.formation].name} cannot charge.")
                raise Refusal("A charge needs the enemy in the hex the unit faces; pivot first.")
            return
        if mode != "fire":
            raise Refusal("Choose close combat ('melee') or ranged fire ('fire').")
        unit_type = self.unit_type(unit)
        if unit_type.range <= 0:
            raise Refusal(f"{unit_type.name} has no ranged attack.")
        if distance(unit.hex, target.hex) > unit_type.range:  # type: ignore[arg-type]
            raise Refusal(f"{self.unit_name(target)} is out of range ({unit_type.range} hexes).")
        if self.fire_facing(unit, target.hex) is None:  # type: ignore[arg-type]
            # A gun cannot pivot (R11): its arc moves only by firing into it (R16).
            advice = "a gun turns only one step as it fires" if unit_type.turns_to_fire else "pivot first"
            raise Refusal(f"{self.unit_name(target)} is outside {self.unit_name(unit)}'s arc of fire; {advice}.")
        seen = self.sight(unit.hex, target.hex)  # type: ignore[arg-type]
        if seen.blocked:
            raise Refusal(f"No line of sight: hex {seen.blocker} is in the way.")

    def fire_dice(self, unit: Unit) -> int:
        unit_type = self.unit_type(unit)
        if not unit_type.uses_formations:
            return unit.strength
        t = self.terrain_at(unit.hex)  # type: ignore[arg-type]
        if t.garrison_fire_dice is not None:
            return min(unit.strength, t.garrison_fire_dice)
        formation = self.game.formations[unit.formation]
        return unit.strength if formation.full_volley else min(unit.strength, formation.fire_dice)

    def roll_cards(self, attacker: Unit) -> list[tuple[str, int]]:
        """The offensive card effects of this turn, as (effect, amount), that may change `attacker`'s next roll."""
        if attacker.player != self.current:
            return []
        fx = self.effects
        return [("charge_dice", fx.charge), ("volley_fire", fx.volley), ("cannon_blast", fx.cannon.get(attacker.id, 0))]

    def _spend_roll_cards(self, attacker: Unit, combat: str) -> list[str]:
        """The ids of this turn's offensive cards that change `attacker`'s roll now, for the combat's record
        (public from then on); each is spent by it except Charge!, which lasts the turn (R27)."""
        if attacker.player != self.current:
            return []
        kind, fx, used = self.unit_type(attacker).kind, self.effects, []
        for card, uid in list(fx.roll_cards.items()):
            design = self.game.cards[card].design
            if uid in (None, attacker.id) and card_modifiers([(design.effect, design.amount)], combat,
                                                             kind) != CardModifiers():
                used.append(card)
                if design.effect != "charge_dice":
                    del fx.roll_cards[card]
        return used

    def melee_modifiers(self, attacker: Unit, defender: Unit, ambush: bool = False,
                        cards: Iterable[tuple[str, int]] | None = None) -> dict[str, Any]:
        """Dice counts and per-die modifiers of a close combat, each part named (R17–R20).

        `cards`: the bonus-card effects on this roll (`card_modifiers`); None means this turn's cards in play."""
        rules = self.game.rules
        a_type, d_type = self.unit_type(attacker), self.unit_type(defender)
        a_bonus = (self.game.formations[attacker.formation].melee_attack_bonus if a_type.uses_formations
                   else a_type.melee_bonus)
        fx = card_modifiers(self.roll_cards(attacker) if cards is None else cards, "melee", a_type.kind)
        a_dice = fx.attack_dice(attacker.strength)
        if d_type.uses_formations:
            formation = self.game.formations[defender.formation]
            d_bonus = formation.melee_defence_bonus
            if a_type.kind == "cavalry" and formation.defence_vs_cavalry is not None:
                d_bonus = formation.defence_vs_cavalry
            if a_type.kind == "infantry" and formation.defence_vs_infantry is not None:
                d_bonus = formation.defence_vs_infantry
            immune = formation.facing_immune
        else:
            d_bonus = d_type.melee_bonus
            immune = False
        terrain = self.terrain_at(defender.hex)  # type: ignore[arg-type]
        terrain_bonus = 0 if ambush or fx.ignore_terrain else terrain.melee_defence_bonus
        if terrain_bonus and terrain.replaces_formation_bonus and d_type.uses_formations:
            d_bonus = 0
        # Adjacent in play; the companion's roller may also ask about units further apart (R20).
        side = (bearing(defender.hex, attacker.hex) - defender.facing) % 6  # type: ignore[arg-type]
        penalty = 0 if immune else [0, rules.front_flank_penalty, rules.side_flank_penalty, rules.rear_penalty][
            turn_steps(0, side)]
        return {"attacker_dice": a_dice, "attacker_modifier": a_bonus,
                "defender_dice": defender.strength + fx.defender_dice, "defender_unit_bonus": d_bonus,
                "defender_terrain_bonus": terrain_bonus, "defender_facing_penalty": penalty,
                "defender_modifier": d_bonus + terrain_bonus - penalty, "attack_side": turn_steps(0, side)}

    def _melee(self, attacker: Unit, defender: Unit, rng: random.Random) -> None:
        ambush = self.effects.ambush
        self.effects.ambush = False
        entrench = self._take_guard("entrench", defender)
        guard = [(entrench.effect, entrench.amount)] if entrench is not None else []
        mods = self.melee_modifiers(attacker, defender, ambush, self.roll_cards(attacker) + guard)
        cards = self._spend_roll_cards(attacker, "melee")
        d_dice = mods["defender_dice"]
        if self.is_broken(defender):
            # A broken unit cannot reply; the charge finishes it (R24).
            event = {"event": "melee", "attacker": attacker.id, "defender": defender.id, "modifiers": mods,
                     "cards": cards, "result": None, "broken_defender": True}
            self.events.append(event)
            self._lose(defender, 1)
            return
        a_roll = [self.roll(rng) for _ in range(mods["attacker_dice"])]
        d_roll = [self.roll(rng) for _ in range(d_dice)]
        result = close_combat(a_roll, d_roll, mods["attacker_modifier"], mods["defender_modifier"])
        self.events.append({"event": "melee", "attacker": attacker.id, "defender": defender.id, "modifiers": mods,
                            "cards": cards, "result": result.to_json()})
        self._lose(attacker, result.attacker_losses, enemy_attack=False)
        self._lose(defender, result.defender_losses)
        if self.effects.rout:
            self.effects.rout = False
            if defender.on_board and result.defender_losses > result.attacker_losses:
                back = neighbour(defender.hex, direction_to(attacker.hex, defender.hex))  # type: ignore[arg-type]
                if back in self.game.board and self.can_enter(defender, back):
                    self._place(defender, back)
                    self.events.append({"event": "rout", "unit": defender.id, "to": hex_id(back)})

    def fire_modifiers(self, shooter: Unit, target: Unit, ambush: bool = False,
                       cards: Iterable[tuple[str, int]] | None = None) -> dict[str, Any]:
        """Dice, hit number and damage multiplier of a ranged attack, each part named (R14–R16).

        `cards`: the bonus-card effects on this roll (`card_modifiers`); None means this turn's cards in play."""
        rules = self.game.rules
        s_type, t_type = self.unit_type(shooter), self.unit_type(target)
        artillery = s_type.kind == "artillery"
        fx = card_modifiers(self.roll_cards(shooter) if cards is None else cards, "fire", s_type.kind)
        dice = fx.attack_dice(self.fire_dice(shooter))
        # 1–3 hits, and guns against guns 1–2: the seed names no other exception, a Square included (R15).
        base = rules.counter_battery_hit_max if artillery and t_type.kind == "artillery" else rules.hit_max
        terrain = 0
        if not (ambush or fx.ignore_terrain):
            terrain = (self.terrain_at(shooter.hex).fire_from_modifier  # type: ignore[arg-type]
                       + self.terrain_at(target.hex).fire_into_modifier  # type: ignore[arg-type]
                       + self._line_modifier(shooter.hex, target.hex))  # type: ignore[arg-type]
        point_blank = artillery and distance(shooter.hex, target.hex) <= rules.point_blank_range  # type: ignore[arg-type]
        return {"dice": dice, "base_hit_max": base, "terrain_modifier": terrain, "hit_max": max(0, base + terrain),
                "multiplier": rules.point_blank_multiplier if point_blank else 1, "point_blank": point_blank}

    def _line_modifier(self, a: Hex, b: Hex) -> int:
        """Wheat's −1 "firing through/from it": once a shot for each such terrain on the line of fire,
        the shooter's and the target's hexes and both hexes of a split step included (R15)."""
        terrain, table = self.terrain, self.game.terrain
        on_line = {a, b}.union(*sight_line(a, b))
        kinds = {terrain[h] for h in on_line if h in terrain}
        return sum(table[t].fire_line_modifier for t in kinds)

    def _fire(self, shooter: Unit, target: Unit, rng: random.Random, reserve: bool = False) -> None:
        own_turn = shooter.player == self.current
        ambush = own_turn and self.effects.ambush
        if own_turn:
            self.effects.ambush = False
        mods = self.fire_modifiers(shooter, target, ambush)
        cards = self._spend_roll_cards(shooter, "fire")
        if own_turn:
            if self.unit_type(shooter).kind == "artillery":
                self.effects.volley = 0
            self.effects.cannon.pop(shooter.id, None)
        shooter.facing = self.fire_facing(shooter, target.hex)  # type: ignore[arg-type,assignment]
        event: dict[str, Any] = {"event": "fire", "attacker": shooter.id, "defender": target.id, "modifiers": mods,
                                 "cards": cards, "reserve_fire": reserve, "result": None}
        self.events.append(event)
        screen = self._screen(target.player)
        if screen is not None:
            event["screened"] = screen.card
            return
        sight = self.sight(shooter.hex, target.hex)  # type: ignore[arg-type]
        sight_dice = {h: self.roll(rng) for h in sight.contested}
        event["sight_dice"] = sight_dice
        blocked = [h for h, d in sight_dice.items() if split_blocks(d, self.game.rules.split_block_max)]
        if blocked:
            event["blocked_by"] = blocked[0]
            return
        roll = [self.roll(rng) for _ in range(mods["dice"])]
        result = ranged_fire(roll, mods["hit_max"], mods["multiplier"])
        event["result"] = result.to_json()
        self._lose(target, result.losses)

    def _lose(self, unit: Unit, losses: int, enemy_attack: bool = True) -> None:
        """Take losses one at a time: at its broken strength (0, guns 1) a unit is broken, and a loss
        suffered while broken destroys it (R23)."""
        if losses <= 0 or unit.destroyed:
            return
        guard = self._take_guard("heroic_defence", unit) if enemy_attack else None
        if guard is not None:
            losses = card_modifiers([(guard.effect, guard.amount)]).losses(losses)
        for _ in range(losses):
            if not self.is_broken(unit):
                unit.strength -= 1
            else:
                unit.destroyed = True
                self._place(unit, None)
                self.events.append({"event": "destroyed", "unit": unit.id})
                return
        if self.is_broken(unit):
            self.events.append({"event": "broken", "unit": unit.id})
