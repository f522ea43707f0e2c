"""Hexbattle bonus cards: which can be played and how, drawing them, and what each does (R27, R31); the
play_card, discard_card and draw_bonus actions."""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING, Any

from engine import hexbattle_turn as turn
from engine import hexbattle_victory as victory
from engine.core import Action, Arg, Refusal, Told, seat
from engine.hexbattle_combat import ROLL_EFFECTS
from engine.hexbattle_pieces import Guard
from engine.hexbattle_view import unit_named
from engine.kinds import Kind

if TYPE_CHECKING:
    from engine.hexbattle_state import HexbattleState


def can_draw_bonus(state: HexbattleState) -> bool:
    return (state.actions_left > 0 and not state.last_was_draw
            and len(state.hands[state.current]) < state.game.rules.bonus_hand_limit
            and bool(state.bonus_deck or state.discard))


def card_actions(state: HexbattleState, player: int, out: list[Action]) -> None:
    game = state.game
    for card in state.hands[player]:
        for args in card_targets(state, player, game.bonus[card]):
            out.append(game.card_action("play_card", player, card, args))
        out.append(game.card_action("discard_card", player, card, {}))


def card_targets(state: HexbattleState, player: int, design: Any) -> list[dict[str, Any]]:
    """Every choice a card can be played with now; an empty list means it cannot be played."""
    mine = state.alive(player)
    effect = design.effect
    if effect == "extra_action":
        return [{}] if state.actions_granted + design.amount <= state.game.rules.max_actions else []
    if design.target == "none":
        return [{}]
    if design.target == "own_unit":
        return [{"unit": u.id} for u in mine]
    damaged = [u.id for u in mine if u.strength < state.max_strength(u)]
    if design.target == "own_damaged_unit":
        return [{"unit": uid} for uid in damaged]
    if design.target == "own_damaged_units":
        return [{"units": list(c)} for n in range(1, design.amount + 1)
                for c in itertools.combinations(damaged, n)]
    if design.target == "own_infantry":
        infantry = [u for u in mine if state.unit_type(u).uses_formations and not state.is_broken(u)]
        if effect == "regroup":
            return [{"unit": u.id, "formation": fid} for u in infantry
                    for fid in state.game.formations if fid != u.formation]
        return [{"unit": u.id} for u in infantry]
    if design.target == "own_artillery":
        return [{"unit": u.id} for u in mine if state.unit_type(u).kind == "artillery" and not state.is_broken(u)]
    return [{"unit": u.id} for u in mine if state.unit_type(u).range > 0 and not state.is_broken(u)]


def _verify_held(state: HexbattleState, action: Action) -> None:
    if action.get("card") not in state.hands[state.current]:
        raise Refusal("You do not hold that card.")


def _verify_play(state: HexbattleState, action: Action) -> None:
    _verify_held(state, action)
    card = action.get("card")
    design = state.game.bonus[card]
    args = {k: v for k, v in action.args.items() if k != "card"}
    if isinstance(args.get("units"), list | tuple):
        # Supply Run: the order the player lists its units in does not matter.
        args["units"] = sorted(args["units"], key=str)
        choices = [{**c, "units": sorted(c["units"])} if "units" in c else c
                   for c in card_targets(state, state.current, design)]
    else:
        choices = card_targets(state, state.current, design)
    if args in choices:
        return
    if design.effect == "extra_action":
        raise Refusal(f"A turn cannot have more than {state.game.rules.max_actions} actions.")
    wanted = {"none": "no choice", "own_unit": "one of your units",
              "own_damaged_unit": "one of your damaged units",
              "own_damaged_units": f"up to {design.amount} of your damaged units",
              "own_infantry": "one of your infantry units (not broken)",
              "own_artillery": "one of your artillery units (not broken)",
              "own_shooter": "one of your units that can fire (not broken)"}[design.target]
    if design.effect == "regroup":
        wanted += " and a new formation"
    raise Refusal(f"{design.name} needs {wanted}.")


def draw_bonus(state: HexbattleState, rng: random.Random) -> None:
    if not state.bonus_deck:
        state.bonus_deck = state.discard
        state.discard = []
        rng.shuffle(state.bonus_deck)
        state.events.append({"event": "bonus_reshuffled"})
    card = state.bonus_deck.pop()
    design = state.game.bonus[card]
    if design.kind == "nothing":
        state.discard.append(card)
        state.events.append({"event": "bonus_drawn", "player": state.current, "card": card, "nothing": True})
    else:
        state.hands[state.current].append(card)
        state.events.append({"event": "bonus_drawn", "player": state.current, "card": card,
                            "private_to": state.current})


def play_card(state: HexbattleState, action: Action, rng: random.Random) -> None:
    p = state.current
    card = action["card"]
    design = state.game.bonus[card]
    state.hands[p].remove(card)
    event = {"event": "card_played", "player": p, "card": card, "kind": design.kind}
    if design.kind == "defensive":
        event["private_to"] = p
    state.events.append(event)
    uid = action.get("unit")
    effect, amount = design.effect, design.amount
    if design.kind == "defensive":
        state.guards.append(Guard(card, p, effect, amount, uid))
        return
    state.discard.append(card)
    fx = state.effects
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
        unit = state.units[uid]
        unit.strength = min(state.max_strength(unit), unit.strength + amount)
    elif effect == "ambush":
        fx.ambush = True
    elif effect == "fog_of_war":
        state.fog[1 - p] += amount
    elif effect == "extra_action":
        state.actions_left += amount
        state.actions_granted += amount
    elif effect == "artillery_barrage":
        fx.barrage = {u.id for u in state.alive(p) if state.unit_type(u).kind == "artillery"}
    elif effect == "regroup":
        state.units[uid].formation = action["formation"]
    elif effect == "supply_run":
        for other in action["units"]:
            state.units[other].strength += 1
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


def _play(state: HexbattleState, action: Action, rng: random.Random) -> None:
    play_card(state, action, rng)
    victory.check_victory(state)


def _discard(state: HexbattleState, action: Action, rng: random.Random) -> None:
    state.hands[state.current].remove(action["card"])
    state.discard.append(action["card"])
    state.events.append({"event": "discard", "player": state.current, "card": action["card"]})


def _verify_draw(state: HexbattleState, action: Action) -> None:
    turn.need_action(state)
    if state.last_was_draw:
        raise Refusal("You cannot draw two bonus cards in a row; take another action first.")
    if len(state.hands[state.current]) >= state.game.rules.bonus_hand_limit:
        raise Refusal(f"You already hold {state.game.rules.bonus_hand_limit} bonus cards; "
                      "play or discard one first.")
    if not state.bonus_deck and not state.discard:
        raise Refusal("There are no bonus cards left to draw.")


def _draw(state: HexbattleState, action: Action, rng: random.Random) -> None:
    turn.spend(state, action, activation=False)
    draw_bonus(state, rng)


def _played_label(state: HexbattleState, action: Action) -> str:
    who = unit_named(state, action)
    return f"Play {state.game.bonus[action['card']].name}" + (f" on {who}" if who else "")


def _played_told(state: HexbattleState, action: Action) -> list[Told]:
    """A guard card is played face down: the others read only that one was played (R32)."""
    p, design, name = action.player, state.game.bonus[action["card"]], unit_named(state, action)
    on = f" on {name}" if name else ""
    if design.kind == "defensive":
        return [Told(f"{seat(p)} played a guard card face down", {p: f"{seat(p)} played {design.name}{on} face down"})]
    return [Told(f"{seat(p)} played {design.name}{on}")]


PLAY_CARD: Kind[HexbattleState] = Kind(
    # a card's other arguments depend on its effect (card_targets)
    {"card": str, "unit": Arg(str, optional=True), "units": Arg(list[str], optional=True),
     "formation": Arg(str, optional=True)}, _verify_play, _play, _played_label, _played_told, phases=("battle",))
DISCARD_CARD: Kind[HexbattleState] = Kind(
    {"card": str}, _verify_held, _discard,
    lambda state, action: f"Discard {state.game.bonus[action['card']].name}",
    lambda state, action: [Told(f"{seat(action.player)} discarded {state.game.bonus[action['card']].name}")],
    phases=("battle",))
DRAW_BONUS: Kind[HexbattleState] = Kind(
    {}, _verify_draw, _draw, lambda state, action: "Draw a bonus card",
    lambda state, action: [],  # told by its event: what was drawn, and to whom
    phases=("battle",))

