"""Information-set Monte Carlo tree search (single observer, open loop), over re-dealt positions.

Each iteration asks `reveal` for one position consistent with what the deciding seat knows (for a fair
bot, `State.resample(seat, rng)`: its own cards as they are, everything hidden dealt afresh), walks the
tree of moves from there choosing by UCB among the moves legal in that deal, adds one node, plays on at
random through the public API (`State.random_action` + `play`) and scores what it reaches. Nodes are keyed by
the moves that lead to them, not by positions, so one tree gathers every deal and every roll of the dice
(Cowling, Powley and Whitehouse 2012, "Information Set Monte Carlo Tree Search"; availability counts for
the moves a deal does not offer). A playout stops after `depth` moves, where the game's position score
(engine.bots.scores) stands in for the result: hexbattle and waterloo games are too long to finish.

Everything the search reads comes from the positions `reveal` hands it, so a bot that reveals through
`resample` cannot decide on a card it has not seen (tests/test_bots.py, the no-peek test).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from typing import Any

from engine.core import Action, State, playable

Reveal = Callable[[State, int, random.Random], State]
"""(the true position, the deciding seat, rng) -> a position to search: re-dealt, or an all-seeing copy."""
Evaluate = Callable[[State], list[float]]
"""A position -> one value in [0, 1] per seat."""
Policy = Callable[[Any, int, list[Action], random.Random], Action]
"""(position, player, its legal moves there, rng) -> the move a playout makes."""


PRIOR_BIAS = 1.0
"""How strongly the root leans on the rule of thumb's move: worth `PRIOR_BIAS / visits` of a win rate."""


def key(action: Action) -> Hashable:
    """A move as a dictionary key: its kind, its player and its arguments (lists as tuples)."""
    return action.kind, action.player, tuple((k, tuple(v) if isinstance(v, list) else v)
                                             for k, v in sorted(action.args.items()))


def mover(state: State, seat: int | None = None) -> int:
    """Who moves next in a search: `seat` when it is among those who may act, else the first who may."""
    acting = state.players_to_act()
    return seat if seat in acting else acting[0]


def choices(state: State, player: int) -> list[Action]:
    """The moves a bot considers: every legal move but conceding (`engine.core.playable`)."""
    return playable(state.legal_actions(player))


def playout(state: State, rng: random.Random, depth: int, policy: Policy | None = None) -> int:
    """Moves chosen by `policy` (None: uniformly, by `State.random_action`) through the public API until the game
    ends or `depth` moves are made; the moves made."""
    made = 0
    while made < depth and not state.is_terminal:
        player = mover(state)
        if policy is None:
            action = state.random_action(rng, player)
        else:
            legal = choices(state, player)
            action = policy(state, player, legal, rng) if legal else None
        if action is None:  # no position the rules reach, nor a re-deal (tests/test_information_sets.py), leaves a
            break  # seat to act with no move; were an engine to, the position is scored as it stands, not crashed on
        state.play(action, rng)
        made += 1
    return made


class Node:
    """Statistics of one move in the tree: played `visits` times, offered `offered` times, `total` won by its mover."""

    __slots__ = ("action", "player", "visits", "offered", "total", "children")

    def __init__(self, action: Action | None, player: int) -> None:
        self.action = action
        self.player = player
        self.visits = 0
        self.offered = 0
        self.total = 0.0
        self.children: dict[Hashable, Node] = {}


def search(state: State, seat: int, rng: random.Random, *, reveal: Reveal, evaluate: Evaluate,
           iterations: int, depth: int, policy: Policy | None = None, exploration: float = 0.7,
           prior: Policy | None = None, bias: float = PRIOR_BIAS) -> list[Node]:
    """The root's children after `iterations` iterations, most visited first.

    `prior`, when given, names one move at the root (chosen on the first re-deal, as a fair player would: the
    game's rule of thumb): it is tried first and its UCB value gets `bias / visits` more (progressive bias,
    Chaslot et al. 2008), so a search that finds no clear difference between the moves leans on the rule
    instead of on noise, and one that finds a better move still overrules it."""
    root = Node(None, seat)
    favoured: Hashable = None
    for iteration in range(iterations):
        world = reveal(state, seat, rng)
        if prior is not None and iteration == 0:
            legal = choices(world, seat)
            favoured = key(prior(world, seat, legal, rng)) if legal else None
        node, path = root, [root]
        while not world.is_terminal:
            player = mover(world, seat if node is root else None)
            legal = choices(world, player)
            if not legal:
                break  # as in `playout`: a seat to act with no move is scored as it stands
            fresh: list[tuple[Hashable, Action]] = []
            best, best_value = None, -1.0
            for action in legal:
                k = key(action)
                child = node.children.get(k)
                if child is None:
                    fresh.append((k, action))
                    continue
                child.offered += 1
                if not fresh:
                    value = child.total / child.visits + exploration * math.sqrt(math.log(child.offered) / child.visits)
                    if k == favoured and node is root:
                        value += bias / child.visits
                    if value > best_value:
                        best, best_value = child, value
            if fresh:
                first = next((f for f in fresh if f[0] == favoured), None) if node is root else None
                k, action = first or fresh[rng.randrange(len(fresh))]
                child = node.children[k] = Node(action, player)
                child.offered = 1
                world.play(action, rng)
                path.append(child)
                break
            assert best is not None and best.action is not None  # no fresh move, so some child was scored
            world.play(best.action, rng)
            node = best
            path.append(node)
        playout(world, rng, depth, policy)
        values = evaluate(world)
        for visited in path:
            visited.visits += 1
            visited.total += values[visited.player]
    return sorted(root.children.values(), key=lambda n: (-n.visits, -n.total))


def flat(state: State, seat: int, rng: random.Random, *, reveal: Reveal, evaluate: Evaluate, iterations: int,
         depth: int, reply: Policy, policy: Policy | None = None) -> list[Node]:
    """The root's moves, best first, each tried on every one of `iterations` re-deals under the same dice.

    For a game whose only decision is one simultaneous choice (medieval's placement), a tree adds little: the
    moves are few, and what separates them is small beside the luck of the deal. So every move is played on
    the same re-deal, against the same reply (`reply`: how each other seat that has yet to commit would move
    there, worked out once per re-deal, since it cannot see ours), with the same random source after it
    (common random numbers), then played on for `depth` moves by `policy` and scored. Each deal's luck falls
    on every move alike, so the comparison between moves is far sharper than separate samples would make it."""
    root = Node(None, seat)
    for _ in range(iterations):
        world = reveal(state, seat, rng)
        replies = [reply(world, p, choices(world, p), rng) for p in world.players_to_act() if p != seat]
        dice = rng.getrandbits(64)
        for name, action in distinct(world, choices(world, seat)).items():
            child = root.children.get(name)
            if child is None:
                child = root.children[name] = Node(action, seat)
            after = world.clone()
            same = random.Random(dice)
            after.play(action, same)
            for answer in replies:
                after.play(answer, same)
            playout(after, same, depth, policy)
            child.visits += 1
            child.offered += 1
            child.total += evaluate(after)[seat]
    return sorted(root.children.values(), key=lambda n: (-n.visits, -n.total))


def distinct(state: State, moves: list[Action]) -> dict[str, Action]:
    """The moves by their button text, the first of each: moves a player cannot tell apart (medieval's placements
    that differ only by which of two identical cards goes where) play alike, so a search tries one of them."""
    named: dict[str, Action] = {}
    for action in moves:
        named.setdefault(state.label(action), action)
    return named


def estimates(nodes: list[Node]) -> list[tuple[Action, float, int]]:
    """(move, its mover's estimated chance, visits) for each searched move, most visited first."""
    return [(n.action, n.total / n.visits, n.visits) for n in nodes if n.action is not None and n.visits]


def summary(nodes: list[Node]) -> dict[str, Any]:
    """The search's answer in JSON-ready form (for hints and debugging)."""
    return {"moves": [{"action": a.to_json(), "win": round(w, 3), "visits": v} for a, w, v in estimates(nodes)]}
