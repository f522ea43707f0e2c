"""Bots for every game: one seat's player, deciding from what that seat knows and nothing else.

`make_bot(name, game_id, seats, seed)` gives a `Bot`; `bot.decide(match, seat)` returns the seat's move,
`bot.choose(state, seat, rng)` the same from a position and a random source. The players by name:

- `random`: a legal move, uniformly;
- `greedy`: the move whose immediate outcome the game's position score (engine.bots.scores) likes best,
  on one re-dealt copy of the position, or a rule of thumb (engine.bots.greedy: medieval's is
  `best_placement`, the placement heuristic the engine already offers);
- `easy`, `normal`, `hard`: information-set search (engine.bots.search) over re-dealt positions (a tree, or
  for medieval a flat comparison of its few placements), with the budgets in LEVELS, set by measured strength and speed (docs/bots.md);
- `ceiling`: the hard search on the true position, hidden cards and deck order included. It cheats, so it
  is for measuring only (how much a game's luck leaves to skill), never offered at a table.

A fair bot reaches the position only through `State.resample(seat, rng)`, so whatever it does with the copy
it cannot tell one deal of the hidden cards from another (tests/test_bots.py). Every choice is seeded: the
same position, seat and seed give the same move, so a server that restarts recomputes the same move.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from engine.bots import scores
from engine.bots.greedy import greedy, prior, rollout, rule
from engine.bots.search import Reveal, choices, distinct, estimates, flat, key, search
from engine.core import Action, Match, Refusal, State

LEVELS: dict[str, dict[str, tuple[int, int]]] = {
    # game -> level -> (iterations, playout depth); depth cuts a playout short, where the score takes over.
    # Medieval is searched flat (FLAT): its iterations are re-deals, each trying every placement.
    "warfare": {"easy": (40, 20), "normal": (300, 20), "hard": (800, 20)},
    "waterloo": {"easy": (30, 20), "normal": (200, 20), "hard": (800, 20)},
    "hexbattle": {"easy": (20, 20), "normal": (100, 20), "hard": (300, 20)},
    "imperial": {"easy": (40, 200), "normal": (500, 200), "hard": (3000, 200)},
    "medieval": {"easy": (10, 0), "normal": (40, 2), "hard": (250, 2)},
}
"""Search budgets per game and level (docs/bots.md says how each was measured)."""

FLAT = frozenset({"medieval"})
"""Games searched flat (engine.bots.search.flat: every move on the same re-deals, the others' replies by the
greedy rule) instead of by the tree: medieval, whose one decision is a simultaneous placement (docs/bots.md)."""

PLAYERS = ("random", "greedy", "easy", "normal", "hard")
"""The players a table or `muster duel` may name; `ceiling` is for measurement only."""
MEASURING = ("ceiling",)


def resampled(state: State, seat: int, rng: random.Random) -> State:
    """A fair bot's copy: everything `seat` knows as it is, everything hidden re-dealt."""
    return state.resample(seat, rng)


def all_seeing(state: State, seat: int, rng: random.Random) -> State:
    """The ceiling's copy: the true position, hidden cards and deck order included."""
    return state.clone()


def decision_rng(seed: int | str, seat: int, step: int) -> random.Random:
    """The random source of one decision: the bot's seed, the seat and how many moves the match has had."""
    return random.Random(f"muster-bot:{seed}:{seat}:{step}")


@dataclass
class Bot:
    """One named player for one game; `choose` is the whole of its thinking."""

    name: str
    game_id: str
    seats: int
    seed: int | str = 0
    budget: tuple[int, int] | None = None
    """(iterations, playout depth) instead of the level's LEVELS entry (tests, hints)."""

    def decide(self, match: Match[Any], seat: int) -> Action:
        """The seat's move in the match's current position, seeded by the match's progress."""
        return self.choose(match.state, seat, decision_rng(self.seed, seat, len(match.log)))

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        if seat not in state.players_to_act():
            raise Refusal(f"Seat {seat + 1} has no move to make now.")
        if self.name == "random":
            move = state.random_action(rng, seat)
            if move is None:
                raise Refusal(f"Seat {seat + 1} has no move to make now.")
            return move
        if self.name == "greedy":
            return self._greedy(state, seat, rng)
        return self.ranked(state, seat, rng)[0][0]

    def ranked(self, state: State, seat: int, rng: random.Random) -> list[tuple[Action, float, int]]:
        """The searched moves with their estimated chance of winning for `seat`, most searched first."""
        level = "hard" if self.name == "ceiling" else self.name
        iterations, depth = self.budget or LEVELS[self.game_id][level]
        reveal: Reveal = all_seeing if self.name == "ceiling" else resampled
        if self.game_id in FLAT:  # the other seats reply by the rule, whether or not the tree search leans on it
            return estimates(flat(state, seat, rng, reveal=reveal, evaluate=self._evaluate, iterations=iterations,
                                  depth=depth, reply=rule(self.game_id, self.seats), policy=rollout(self.game_id)))
        nodes = search(state, seat, rng, reveal=reveal, evaluate=self._evaluate,
                       iterations=iterations, depth=depth, policy=rollout(self.game_id),
                       prior=prior(self.game_id, self.seats))
        return estimates(nodes)

    def _evaluate(self, state: State) -> list[float]:
        return scores.score(self.game_id, state, self.seats)

    def _greedy(self, state: State, seat: int, rng: random.Random) -> Action:
        world = resampled(state, seat, rng)
        return greedy(self.game_id, self.seats, world, seat, choices(world, seat), rng)


def make_bot(name: str, game_id: str, seats: int = 2, seed: int | str = 0) -> Bot:
    """A bot by name (PLAYERS, or `ceiling` for measuring); refuses an unknown name with the names there are."""
    if name not in PLAYERS + MEASURING:
        raise Refusal(f"There is no player called {name!r}; players are {', '.join(PLAYERS)} "
                      "(and ceiling, which sees hidden cards, for measuring only).")
    if game_id not in LEVELS:
        raise Refusal(f"There is no bot for a game called {game_id!r}.")
    return Bot(name, game_id, seats, seed)


@dataclass(frozen=True)
class Hint:
    """One move a bot would consider: its button text for the seat, the estimated chance of winning after it
    (for games a search cuts short, the position score stands in for part of it) and how often it was searched."""

    action: Action
    label: str
    win: float
    visits: int


def hints(match: Match[Any], seat: int, top: int = 3, level: str = "normal") -> list[Hint]:
    """"What would the bot do?": the `top` moves of a `level` search for `seat`, best first.

    Worked out like the bot's own move, on copies re-dealt from the seat's information set only, so a hint can
    never give a hidden card away; seeded by the match's progress, so asking twice gives the same answer."""
    bot = make_bot(level, match.game.id, match.game.players(match.options))
    ranked = bot.ranked(match.state, seat, decision_rng("hint", seat, len(match.log)))
    found: dict[Hashable, tuple[float, int]] = {}
    for action, win, visits in ranked:  # the first of a key, as `distinct` keeps it
        found.setdefault(key(action), (win, visits))
    # by button text: two moves a player cannot tell apart (two cards of one name: a tree search keys moves by card)
    # are one hint, the better searched one (`distinct` keeps the first, and `ranked` is most searched first)
    shown = list(distinct(match.state, [action for action, _, _ in ranked]).items())[:top]
    return [Hint(action, label, round(found[key(action)][0], 3), found[key(action)][1]) for label, action in shown]
