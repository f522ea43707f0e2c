"""Hexbattle bonus cards: drawing, playing and the guards waiting in play (R26–R35)."""

from __future__ import annotations

import itertools
import random
from typing import Any

from engine.core import Action, Refusal
from engine.hexbattle_combat import ROLL_EFFECTS
from engine.hexbattle_pieces import Guard, Unit


UNKNOWN_GUARD = "unknown"  # the effect of a guard card whose face its player cannot see: it answers nothing


class CardsMixin:
    """Bonus cards in hand, their effects this turn, and the defensive guards they leave in play."""

    def forget_others_secrets(self, player: int) -> None:
        """Another seat's face-down guard cards stay in play (how many there are is public, and they still go to
        the discard pile at the end of their owner's next turn) but answer nothing: which cards they are, and
        under which unit, `player` cannot know, so a trial move must not spring them."""
        self.guards = [g if g.owner == player else Guard(g.card, g.owner, UNKNOWN_GUARD, 0, None) for g in self.guards]

    def _can_draw_bonus(self) -> bool:
        return (self.actions_left > 0 and not self.last_was_draw
                and len(self.hands[self.current]) < self.game.rules.bonus_hand_limit
                and bool(self.bonus_deck or self.discard))

    def _card_actions(self, player: int, out: list[Action]) -> None:
        cards = self.game.cards
        for card in self.hands[player]:
            design = cards[card].design
            for args in self._card_targets(player, design):
                out.append(Action("play_card", player, {"card": card, **args}))
            out.append(Action("discard_card", player, {"card": card}))

    def _card_targets(self, player: int, design: Any) -> list[dict[str, Any]]:
        """Every choice a card can be played with now; an empty list means it cannot be played."""
        mine = self.alive(player)
        effect = design.effect
        if effect == "extra_action":
            return [{}] if self.actions_granted + design.amount <= self.game.rules.max_actions else []
        if design.target == "none":
            return [{}]
        if design.target == "own_unit":
            return [{"unit": u.id} for u in mine]
        damaged = [u.id for u in mine if u.strength < self.max_strength(u)]
        if design.target == "own_damaged_unit":
            return [{"unit": uid} for uid in damaged]
        if design.target == "own_damaged_units":
            return [{"units": list(c)} for n in range(1, design.amount + 1)
                    for c in itertools.combinations(damaged, n)]
        if design.target == "own_infantry":
            infantry = [u for u in mine if self.unit_type(u).uses_formations and not self.is_broken(u)]
            if effect == "regroup":
                return [{"unit": u.id, "formation": fid} for u in infantry
                        for fid in self.game.formations if fid != u.formation]
            return [{"unit": u.id} for u in infantry]
        if design.target == "own_artillery":
            return [{"unit": u.id} for u in mine if self.unit_type(u).kind == "artillery" and not self.is_broken(u)]
        return [{"unit": u.id} for u in mine if self.unit_type(u).range > 0 and not self.is_broken(u)]

    def _verify_card(self, action: Action) -> None:
        card = action.get("card")
        if card not in self.hands[self.current]:
            raise Refusal("You do not hold that card.")
        if action.kind == "discard_card":
            return
        design = self.game.cards[card].design
        args = {k: v for k, v in action.args.items() if k != "card"}
        if isinstance(args.get("units"), list | tuple):
            # Supply Run: the order the player lists its units in does not matter.
            args["units"] = sorted(args["units"], key=str)
            choices = [{**c, "units": sorted(c["units"])} if "units" in c else c
                       for c in self._card_targets(self.current, design)]
        else:
            choices = self._card_targets(self.current, design)
        if args in choices:
            return
        if design.effect == "extra_action":
            raise Refusal(f"A turn cannot have more than {self.game.rules.max_actions} actions.")
        wanted = {"none": "no choice", "own_unit": "one of your units",
                  "own_damaged_unit": "one of your damaged units",
                  "own_damaged_units": f"up to {design.amount} of your damaged units",
                  "own_infantry": "one of your infantry units (not broken)",
                  "own_artillery": "one of your artillery units (not broken)",
                  "own_shooter": "one of your units that can fire (not broken)"}[design.target]
        if design.effect == "regroup":
            wanted += " and a new formation"
        raise Refusal(f"{design.name} needs {wanted}.")

    def _draw_bonus(self, rng: random.Random) -> None:
        if not self.bonus_deck:
            self.bonus_deck = self.discard
            self.discard = []
            rng.shuffle(self.bonus_deck)
            self.events.append({"event": "bonus_reshuffled"})
        card = self.bonus_deck.pop()
        design = self.game.cards[card].design
        if design.kind == "nothing":
            self.discard.append(card)
            self.events.append({"event": "bonus_drawn", "player": self.current, "card": card, "nothing": True})
        else:
            self.hands[self.current].append(card)
            self.events.append({"event": "bonus_drawn", "player": self.current, "card": card,
                                "private_to": self.current})

    def _play_card(self, action: Action, rng: random.Random) -> None:
        p = self.current
        card = action["card"]
        design = self.game.cards[card].design
        self.hands[p].remove(card)
        event = {"event": "card_played", "player": p, "card": card, "kind": design.kind}
        if design.kind == "defensive":
            event["private_to"] = p
        self.events.append(event)
        uid = action.get("unit")
        effect, amount = design.effect, design.amount
        if design.kind == "defensive":
            self.guards.append(Guard(card, p, effect, amount, uid))
            return
        self.discard.append(card)
        fx = self.effects
        if effect in ROLL_EFFECTS:
            fx.roll_cards[card] = uid
        if effect == "free_move":
            fx.free_moves += amount
        elif effect == "charge_dice":
            fx.charge += amount
        elif effect == "volley_fire":
            fx.volley = amount
        elif effect == "forced_march":
            fx.forced[uid] = amount
        elif effect == "rally":
            unit = self.units[uid]
            unit.strength = min(self.max_strength(unit), unit.strength + amount)
        elif effect == "ambush":
            fx.ambush = True
        elif effect == "fog_of_war":
            self.fog[1 - p] += amount
        elif effect == "extra_action":
            self.actions_left += amount
            self.actions_granted += amount
        elif effect == "artillery_barrage":
            fx.barrage = {u.id for u in self.alive(p) if self.unit_type(u).kind == "artillery"}
        elif effect == "regroup":
            self.units[uid].formation = action["formation"]
        elif effect == "supply_run":
            for other in action["units"]:
                self.units[other].strength += 1
        elif effect == "bold_advance":
            fx.bold += amount
        elif effect == "engineers":
            fx.engineers = amount
        elif effect == "double_time":
            fx.double_time.add(uid)
        elif effect == "cannon_blast":
            fx.cannon[uid] = fx.cannon.get(uid, 0) + amount
        elif effect == "rout":
            fx.rout = True

    def _reserve_fire(self, mover: Unit, rng: random.Random) -> None:
        """A Reserve Fire guard shoots at the first enemy that ends a Move where it can be hit (R33)."""
        for guard in list(self.guards):
            if guard.effect != "reserve_fire" or guard.owner == mover.player:
                continue
            shooter = self.units[guard.unit]  # type: ignore[index]
            if not mover.on_board or not shooter.on_board:
                continue
            if mover in self.fire_targets(shooter):
                self.guards.remove(guard)
                self.discard.append(guard.card)
                self.events.append({"event": "guard", "card": guard.card, "effect": guard.effect,
                                    "player": guard.owner, "unit": shooter.id})
                self._fire(shooter, mover, rng, reserve=True)
                return

    def _screen(self, player: int) -> Guard | None:
        """Spend a Skirmisher Screen of `player` if its screening unit is fit (R35)."""
        screen_type = self.game.rules.screen_unit
        fit = any(u.type == screen_type and not self.is_broken(u) for u in self.alive(player))
        for guard in self.guards:
            if guard.owner == player and guard.effect == "skirmisher_screen" and fit:
                self.guards.remove(guard)
                self.discard.append(guard.card)
                self.events.append({"event": "guard", "card": guard.card, "effect": guard.effect, "player": player})
                return guard
        return None

    def _take_guard(self, effect: str, unit: Unit) -> Guard | None:
        for guard in self.guards:
            if guard.effect == effect and guard.unit == unit.id:
                self.guards.remove(guard)
                self.discard.append(guard.card)
                self.events.append({"event": "guard", "card": guard.card, "effect": effect,
                                    "player": guard.owner, "unit": unit.id})
                return guard
        return None
