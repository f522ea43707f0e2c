"""One simulated game, watched: who won, how long it ran, how the lead moved, what each side drew and played.

A game is numbered k within a run; its seat s is played by `players[(s + k) % P]` (seats rotate, as in
`muster duel`) and everything random in it (the deal, the dice, the players' choices) comes from one
source seeded with the run's seed and k, so game k is the same game on any worker, in any order, and
`muster balance --replay K` plays it again move by move (the run's --cards DIR too, when it had one).
Players choose among every legal move but conceding (`engine.core.playable`); `random` picks uniformly among
them (`State.random_action`), the other players are the bots of `engine.bots`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from balance.drama import Leads
from balance.observe import Observer, showdown
from engine.bots import Bot, make_bot
from engine.bots.duel import MAX_MOVES, TABLE_OPTIONS
from engine.bots.scores import SCORES
from engine.bots.search import choices
from engine.core import Action, Game, State

MOVE_CAPS = {"hexbattle": 60_000}
"""Moves after which a balance game is stopped as a rules gap, where a duel's MAX_MOVES is too few: hexbattle's
random games, with no turn limit, took 4,000 to 18,000 moves (40 measured), so its cap stands well beyond."""

STUCK_SPAN = 1_000
"""A game at the move cap whose lead score has not moved over its last this-many moves is a stuck loop."""


@dataclass
class Gap:
    """A game the rules did not bring to an end on the board: what happened, at which move."""

    kind: str  # "turn limit", "move cap", "stuck loop", "no legal move", "exception"
    move: int
    detail: str = ""


@dataclass
class Record:
    """What the report needs from one game."""

    winner: int | None
    decisions: int
    turns: int
    rounds: int
    lead_changes: int
    trailed: bool | None
    """Whether the winner was behind on the lead score at the game's midpoint (None: no winner)."""
    dealt: dict[str, int] = field(default_factory=dict)
    """Design -> the seat that held the most copies of it in the opening position (only when one did)."""
    played: dict[str, int] = field(default_factory=dict)
    """Design -> the seat that played it most often (named it in a move while holding it), when one did."""
    showdowns: list[tuple[dict[int, str], list[int]]] = field(default_factory=list)
    gap: Gap | None = None


OPTIONS: dict[str, dict[str, Any]] = {**TABLE_OPTIONS, "hexbattle": {}}
"""The table options of a balance game: a duel's, but hexbattle as the seed has it, with no turn limit (R28). With
the duel's 30-turn limit every random game was a draw: a random player draws a terrain tile about 6 times in 30
turns, the hidden map stays closed and the armies never meet (greedy players too). Without it every game
measured ended on the board, by breakthrough, after 400 to 900 turns."""


def options_for(game: Game[Any], seats: int) -> dict[str, Any]:
    """The table options a balance game plays with (OPTIONS), and the seat count."""
    options = dict(OPTIONS.get(game.id, {}))
    if game.id == "waterloo":
        options["players"] = seats
    return options


def game_rng(seed: int, k: int) -> random.Random:
    return random.Random(f"muster-balance:{seed}:{k}")


Chooser = Callable[[State, int, random.Random], Action | None]
"""(position, the seat to act, the game's random source) -> the seat's move, or None when it has none."""


def _uniform(state: State, seat: int, rng: random.Random) -> Action | None:
    """The random player: a legal move (conceding left out), uniformly, by the engine's `State.random_action`."""
    return state.random_action(rng, seat)


POLICIES: dict[str, Callable[[Game[Any], int, str], Chooser]] = {"random": lambda game, seats, seed: _uniform}
"""Players that are a plain function of the position, by name: each makes one seat's chooser from the game, the
number of seats and the seat's seed ("<run seed>:<game>:<seat>"). Any other name is a bot of engine.bots. A
script may add its own (tests add players that provoke each kind of rules gap)."""


def choosers(game: Game[Any], names: Sequence[str], seed: int, k: int) -> list[Chooser]:
    """One chooser per seat for game k."""
    return [POLICIES[name](game, len(names), f"{seed}:{k}:{s}") if name in POLICIES
            else _bot(make_bot(name, game.id, len(names), seed=f"{seed}:{k}:{s}")) for s, name in enumerate(names)]


def _bot(bot: Bot) -> Chooser:
    """A bot of engine.bots as a chooser (it lists its own moves from the position)."""
    def choose(state: State, seat: int, rng: random.Random) -> Action | None:
        return bot.choose(state, seat, rng) if choices(state, seat) else None
    return choose


def _most(counts: list[Counter[str]]) -> dict[str, int]:
    """Design -> the one seat with strictly the most of it."""
    out: dict[str, int] = {}
    for design in sorted(set().union(*counts)):
        ranked = sorted(((c[design], s) for s, c in enumerate(counts)), reverse=True)
        if ranked[0][0] > ranked[1][0]:
            out[design] = ranked[0][1]
    return out


def _named(action: Action, design_of: dict[str, str]) -> list[str]:
    """The designs of the cards (or units) a move names, in its arguments' order."""
    named: list[str] = []
    for value in action.args.values():
        if isinstance(value, str):
            design = design_of.get(value)  # one look-up: this runs for most of a hexbattle game's moves
            if design is not None:
                named.append(design)
        elif isinstance(value, list):
            named.extend(design_of[v] for v in value if isinstance(v, str) and v in design_of)
    return named


def play(game: Game[Any], obs: Observer, names: Sequence[str], seed: int, k: int,
         design_of: dict[str, str], trace: Callable[[int, Action], None] | None = None) -> Record:
    """Play game k of a run between `names` (one per seat) and watch it. `design_of` maps a card id named in
    a move (a physical card, or imperial's type) to its design; `trace(move, action)` sees every move."""
    seats = len(names)
    design_of = {**design_of, **obs.names}
    rng = game_rng(seed, k)
    pick = choosers(game, names, seed, k)
    score = SCORES[game.id]
    cap = MOVE_CAPS.get(game.id, MAX_MOVES)
    try:  # a deal the rules cannot make, or an opening position they cannot read, is a finding too, at move 0
        state = game.new_state(rng, options_for(game, seats))
        dealt = _most([Counter(obs.held(state, p)) for p in range(seats)])
        leads = Leads(seats)
        leads.add(0, score(state, seats))
    except Exception as err:
        return Record(None, 0, 0, 0, 0, None, gap=Gap("exception", 0, f"setting up: {type(err).__name__}: {err}"))
    played: list[Counter[str]] = [Counter() for _ in range(seats)]
    shows: list[tuple[dict[int, str], list[int]]] = []
    seen_show: object = None
    moves, turns, last_mover = 0, 0, -1
    gap: Gap | None = None
    holds = obs.has or (lambda s, p, design: design in obs.held(s, p))
    try:
        while not state.is_terminal:
            if moves >= cap:
                still = leads.same_since(moves - STUCK_SPAN)
                gap = Gap("stuck loop" if still else "move cap", moves, f"still going after {cap} moves")
                break
            to_act = state.players_to_act()
            if not to_act:
                gap = Gap("no legal move", moves + 1, "the game is not over and nobody is to act")
                break
            seat = to_act[0]
            lead = score(state, seats) if seat != last_mover else None  # read before a player may touch it
            action = pick[seat](state, seat, rng)
            if action is None:
                gap = Gap("no legal move", moves + 1, f"seat {seat + 1} is to act and has no legal move")
                break
            if lead is not None:
                turns += 1
                last_mover = seat
                leads.add(moves, lead)
            if action.args:
                named = _named(action, design_of)
                if named:  # read only then: hexbattle names a unit in most moves, the card games seldom a card
                    counts = played[seat]
                    for design in named:
                        if holds(state, seat, design):
                            counts[design] += 1
            if trace is not None:
                trace(moves + 1, action)
            state.play(action, rng)
            moves += 1
            shown = showdown(state) if obs.showdowns else None
            if shown is not None and shown is not seen_show:
                seen_show = shown
                shows.append(({p: h["combo"] for p, h in shown["hands"].items()}, list(shown["winners"])))
    except Exception as err:  # a crash in the rules is a finding of the report, with the move that caused it
        gap = Gap("exception", moves + 1, f"{type(err).__name__}: {err}")
    try:  # the final position read as the moves were: a rules bug showing only here is a finding too
        if gap is None and obs.capped(state):
            gap = Gap("turn limit", moves, "the game ended on its turn or action limit")
        leads.add(moves, score(state, seats))
        decided = state.is_terminal and (gap is None or gap.kind == "turn limit")  # a limit is the rules deciding
        winner = state.winner if decided else None
        rounds = obs.round(state)
    except Exception as err:
        found = Gap("exception", moves, f"reading the final position: {type(err).__name__}: {err}")
        return Record(None, moves, turns, 0, leads.changes(), None, dealt, _most(played), shows, gap or found)
    return Record(winner, moves, turns, rounds, leads.changes(), leads.trailed(winner, moves),
                  dealt, _most(played), shows, gap)

