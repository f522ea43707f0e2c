"""The greedy player: a simple per-game heuristic, the baseline a search bot must beat clearly.

By default it plays the move whose immediate outcome scores best (engine.bots.scores) on one re-dealt copy
of the position. Where most moves change no score at once, a rule of thumb per step says what greedy
means: warfare (attack whenever you can, with the most force; always reply), imperial (play the type that
beats what the opponent holds), medieval (the engine's own `best_placement`), hexbattle (march infantry on the
enemy's edge, revealing the way). Each reads only the re-dealt copy it is handed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.bots.scores import score
from engine.bots.search import Policy
from engine.core import Action, State
from engine.hexbattle_state import HexbattleState
from engine.hexgrid import Hex, distance
from engine.imperial import ImperialState
from engine.medieval import MedievalState, best_placement
from engine.warfare import WarfareState


def look_ahead(game_id: str, seats: int, world: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """The move whose outcome scores best for `seat`, every move under the same roll of the dice; ties at random."""
    outcome = rng.getrandbits(64)
    best: list[Action] = []
    best_value = -1.0
    for action in legal:
        after = world.clone()
        after.play(action, random.Random(outcome))
        value = round(score(game_id, after, seats)[seat], 9)
        if value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return best[rng.randrange(len(best))]


def _best(legal: list[Action], worth: Callable[[Action], float], rng: random.Random) -> Action:
    """The move `worth` rates highest, ties at random (each move rated once: playouts call this at every move)."""
    values = [worth(a) for a in legal]
    top = max(values)
    best = [a for a, v in zip(legal, values) if v == top]
    return best[rng.randrange(len(best))]


def warfare(world: WarfareState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Attack whenever there is a unit to attack with, with the most force and every support card; always
    reply (Blunder, counter the strongest unit, Morale); exchange nothing; discard the weakest card."""
    g = world.game

    def force(cid: str) -> int:
        return g.forces[g.index[cid]]

    def worth(action: Action) -> float:
        kind = action.kind
        if kind in ("attack", "blunder", "morale"):
            return 10.0
        if kind == "counter":
            return 5.0 + force(action["target"])
        if kind in ("units", "support"):
            return sum(force(c) for c in action["cards"]) + 0.1 * len(action["cards"])
        if kind == "exchange":
            return -len(action["cards"])
        if kind == "discard":
            return -force(action["card"])
        if kind == "draw":
            return 1.0
        return 0.0  # hold, allow, stand, take, yield, scout, harass

    return _best(legal, worth, rng)


def imperial(world: ImperialState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Call back every card it may; play (or buy) the type that beats the most of the opponent's hand as dealt
    in the copy (their face-down card, when there is one), and loses to the fewest; name the type they hold most."""
    beats = world.cfg.beats
    foe = 1 - seat
    down = world.table[foe]
    held = {t: len(cards) for t, cards in world.hands[foe].items()}
    if down is not None:
        held = {t: int(world.cfg.kind[down] == t) for t in held}

    def against(t: str) -> int:
        return sum(n for u, n in held.items() if beats[t] == u) - sum(n for u, n in held.items() if beats[u] == t)

    def worth(action: Action) -> float:
        kind = action.kind
        if kind == "reinforce":
            return 100.0 + len(action["types"])
        if kind in ("play", "buy"):
            return 10.0 + against(action["type"])
        if kind == "name_type":
            return held[action["type"]]
        return 0.0  # pass, exchange, discard_infantry

    return _best(legal, worth, rng)


def hexbattle(world: HexbattleState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """March on the enemy's edge (the breakthrough, R25, is how a battle is won): move infantry onto the row when
    it can, else the farthest forward, facing the enemy, in Column; lay a drawn tile where the infantry must go
    (nearest to it, towards the enemy); draw terrain when nothing moves forward; attack whenever it can."""
    g = world.game
    goal, row_of, named, units = g.goal_row[seat], g.row_of, g.hex_named, world.units
    infantry = [u.hex for u in world.alive(seat) if u.hex is not None and u.type in g.infantry_types]
    ahead = g.home_facing[seat]

    def to_goal(h: Hex) -> int:
        return abs(row_of[h] - goal)

    lead = min((to_goal(h) for h in infantry), default=g.rows)

    def worth(action: Action) -> float:
        kind = action.kind
        if kind == "move":
            unit = units[action["unit"]]
            to = named(action["to"])
            assert unit.hex is not None  # a unit that may move stands on the board
            gain = to_goal(unit.hex) - to_goal(to)
            if unit.type not in g.infantry_types:
                return 0.5 * gain - 0.5
            if to_goal(to) == 0:
                return 1000.0  # the breakthrough
            return 4.0 * gain + (gain > 0 and to_goal(to) <= lead) + 0.2 * (int(action["facing"]) == ahead)
        if kind == "place_tile":
            h = named(action["hex"])
            return 20.0 - 2 * min((distance(h, i) for i in infantry), default=g.rows) - 0.5 * to_goal(h)
        return HEXBATTLE_WORTH.get(kind, 0.0) + (kind == "formation" and action["formation"] == "column") * 4.0

    return _best(legal, worth, rng)


HEXBATTLE_WORTH = {"attack": 6.0, "draw_terrain": 3.0, "formation": -2.0, "pivot": -1.0, "play_card": 1.0,
                   "repair": 1.0, "draw_bonus": 0.5}
"""What hexbattle's rule makes of each other kind of move (end turn, deploy, quick start: 0): a march forward
of one row is worth 4, an attack 6, a draw of terrain 3 (so it draws only when nothing moves forward)."""


def medieval(world: MedievalState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    return best_placement(world, seat)


RULES: dict[str, Callable[[Any, int, list[Action], random.Random], Action]] = {
    "warfare": warfare, "imperial": imperial, "medieval": medieval, "hexbattle": hexbattle}
"""Games whose greedy player follows a rule of thumb rather than the one-move look-ahead."""


ROLLOUT_RULES = {"warfare": 0.25, "hexbattle": 0.25, "medieval": 0.0}
"""Games whose search plays its playouts by the rule of thumb, each with the share of moves made at random
instead, so the search sees other lines. Random warfare play is so poor that a search over it did not beat the
rule itself; random hexbattle play never reaches the enemy's edge, so its playouts never end a battle;
medieval's cut playouts play the next battle as the rule would (docs/bots.md)."""


def rollout(game_id: str) -> Policy | None:
    """The playout policy of a game's search: its rule of thumb with some moves at random (ROLLOUT_RULES), or
    None: uniform (`State.random_action`)."""
    if game_id not in ROLLOUT_RULES:
        return None
    rule, share = RULES[game_id], ROLLOUT_RULES[game_id]

    def policy(state: Any, player: int, legal: list[Action], rng: random.Random) -> Action:
        if share and rng.random() < share:
            return legal[rng.randrange(len(legal))]
        return rule(state, player, legal, rng)
    return policy


def greedy(game_id: str, seats: int, world: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """The greedy move for `seat` on the re-dealt copy `world`, among `legal` (its moves there)."""
    rule = RULES.get(game_id)
    if rule is not None:
        return rule(world, seat, legal, rng)
    return look_ahead(game_id, seats, world, seat, legal, rng)


PRIOR_RULES = ("warfare", "medieval", "waterloo", "hexbattle")
"""Games whose search leans on the greedy move at the root. Not imperial: its rule won 99 of 200 games against
random play (docs/bots.md), so leaning on it only costs the search visits."""


def prior(game_id: str, seats: int) -> Policy | None:
    """The greedy move as a search's prior (engine.bots.search's progressive bias at the root), where it is
    worth leaning on (PRIOR_RULES)."""
    return rule(game_id, seats) if game_id in PRIOR_RULES else None


def rule(game_id: str, seats: int) -> Policy:
    """The greedy move as a policy: a search's prior (`prior`), or the other seats' reply in a flat search."""
    def policy(state: Any, player: int, legal: list[Action], rng: random.Random) -> Action:
        return greedy(game_id, seats, state, player, legal, rng)
    return policy
