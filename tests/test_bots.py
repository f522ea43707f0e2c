"""Bots: they decide from their seat's information set only (the no-peek test), seeded, through the public API.

The no-peek test: on positions from seeded random games of every game, a bot's move under a fixed seed is the
same on the true position as on copies whose hidden part (`State.resample`) is dealt again. The search levels
differ only by their budgets (engine.bots.LEVELS), so `easy` stands for them; `ceiling`, the all-seeing bot
used for measuring, is shown to fail the same test, so the test can tell a bot that peeks.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

import cards
from engine import GAME_IDS, make_game
from engine.bots import Bot, decision_rng, hints, make_bot, resampled
from engine.bots.duel import TABLE_OPTIONS, play_duel, wilson
from engine.bots.search import choices, search
from engine.core import Match, Refusal, State
from test_cli import muster

GAMES = {g: make_game(cards.load_game(g)) for g in GAME_IDS}
FAIR = ("random", "greedy", "easy")


def positions(game_id: str, count: int, seed: int = 0) -> list[tuple[State, int]]:
    """`count` positions of seeded random games, spread over each game's course, with a seat to decide."""
    game = GAMES[game_id]
    found: list[tuple[State, int]] = []
    rng = random.Random(seed)
    k = 0
    while len(found) < count:
        match = Match(game, f"positions:{seed}:{k}", TABLE_OPTIONS.get(game_id, {}))
        k += 1
        stops = sorted(rng.sample(range(1, 120), 3))
        for moves in range(max(stops) + 1):
            state = match.state
            if state.is_terminal:
                break
            if moves in stops:
                found.append((state.clone(), state.players_to_act()[-1]))
            legal = [a for a in state.legal_actions() if a.kind != "concede"]
            match.apply(rng.choice(legal))
    return found[:count]


def choices_on_redeals(bot: Bot, state: State, seat: int, redeals: int = 2) -> list[Any]:
    """The bot's move (seed fixed) on the true position, then on `redeals` re-dealt copies of it."""
    worlds = [state] + [state.resample(seat, random.Random(f"redeal:{k}")) for k in range(redeals)]
    return [bot.choose(world, seat, random.Random(7)) for world in worlds]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_peek_a_bot_decides_the_same_whatever_the_hidden_deal(game_id: str) -> None:
    seats = GAMES[game_id].players(TABLE_OPTIONS.get(game_id, {}))
    for name in FAIR:
        bot = make_bot(name, game_id, seats)
        for state, seat in positions(game_id, 8):
            moves = choices_on_redeals(bot, state, seat)
            assert moves[1:] == moves[:1] * 2, (name, seat, state.view(seat))


def test_the_all_seeing_bot_fails_the_no_peek_test() -> None:
    """The ceiling reads the true position; on some positions a re-deal changes its move (so the test can fail)."""
    changed = 0
    for game_id in ("warfare", "imperial", "waterloo"):
        bot = Bot("ceiling", game_id, 2, budget=(30, 40))
        for state, seat in positions(game_id, 6):
            moves = choices_on_redeals(bot, state, seat)
            changed += moves[1:] != moves[:1] * 2
    assert changed >= 3


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_deep_copy_of_a_position_shares_its_game_and_plays_on_as_the_position_does(game_id: str) -> None:
    """A game is rules, shared by every position of it (`Game.__deepcopy__`): a deep copy (as a search or a
    test takes) copies the position only, and plays on move for move as the position it was copied from."""
    game = GAMES[game_id]
    assert copy.deepcopy(game) is game
    for state, _ in positions(game_id, 2, seed=3):
        deep = copy.deepcopy(state)
        for step in range(8):
            if state.is_terminal:
                break
            legal = state.legal_actions()
            assert deep.legal_actions() == legal
            state.apply(legal[0], random.Random(step))
            deep.apply(legal[0], random.Random(step))
        assert deep.view(None) == state.view(None)


def test_a_bot_decision_is_seeded_by_the_match() -> None:
    """The same match, seat and bot seed give the same move; the move is one the seat may make."""
    game = GAMES["warfare"]
    match = Match(game, 3, {"turn_limit": True})
    bot = make_bot("easy", "warfare", 2, seed=5)
    seat = match.state.players_to_act()[0]
    move = bot.decide(match, seat)
    assert bot.decide(match, seat) == move and match.state.can(move)
    assert make_bot("easy", "warfare", 2, seed=5).decide(Match(game, 3, {"turn_limit": True}), seat) == move


def test_a_bot_never_concedes_and_refuses_a_seat_with_no_move() -> None:
    game = GAMES["hexbattle"]
    match = Match(game, 1, {"turn_limit": True, "quick_start": True})
    seat = match.state.players_to_act()[0]
    for name in FAIR:
        assert make_bot(name, "hexbattle").decide(match, seat).kind != "concede"
    with pytest.raises(Refusal, match="Seat 2 has no move to make now."):
        make_bot("random", "hexbattle").decide(match, 1 - seat)


def test_the_search_tries_the_prior_move_first_and_leans_on_it() -> None:
    """Progressive bias at the root: the prior's move is expanded first, and with a bias the size of a whole
    win it stays the most searched of moves that playouts cannot tell apart (every playout scored a draw)."""
    state, seat = next((s, p) for s, p in positions("warfare", 8) if len(choices(s, p)) > 3)
    legal = choices(state, seat)  # the seat's own moves: the same on every re-deal

    def last(world: State, player: int, moves: list[Any], rng: random.Random) -> Any:
        return moves[-1]

    def even(world: State) -> list[float]:
        return [0.5, 0.5]

    def run(iterations: int, bias: float) -> list[tuple[Any, int]]:
        nodes = search(state, seat, random.Random(1), reveal=resampled, evaluate=even, iterations=iterations,
                       depth=0, prior=last, bias=bias)
        return [(n.action, n.visits) for n in nodes]

    assert run(1, 1.0) == [(legal[-1], 1)]
    leaning = run(60, 1.0)
    assert leaning[0][0] == legal[-1] and leaning[0][1] > leaning[1][1] + 2
    assert {visits for _, visits in run(60, 0.0)} <= {60 // len(legal), 60 // len(legal) + 1}  # no lean: even


def test_unknown_players_are_refused_with_the_names_there_are() -> None:
    with pytest.raises(Refusal, match="There is no player called 'smart'; players are random, greedy, easy, normal, hard "
                                      r"\(and ceiling, which sees hidden cards, for measuring only\)."):
        make_bot("smart", "warfare")


def test_wilson_interval() -> None:
    assert wilson(0, 0) == (0.0, 0.0, 1.0)
    p, low, high = wilson(15, 20)
    assert p == 0.75 and round(low, 4) == 0.5313 and round(high, 4) == 0.8881
    assert wilson(20, 20)[2] == 1.0 and round(wilson(20, 20)[1], 4) == 0.8389


def test_a_duel_rotates_seats_and_is_reproducible() -> None:
    first = play_duel(GAMES["medieval"], ["random", "greedy"], 4, 9)
    again = play_duel(GAMES["medieval"], ["random", "greedy"], 4, 9)
    assert {n: t.seats for n, t in first.tallies.items()} == {"random": {0: 2, 1: 2}, "greedy": {0: 2, 1: 2}}
    assert [(t.wins, len(t.times)) for t in first.tallies.values()] == [(t.wins, len(t.times)) for t in again.tallies.values()]
    assert first.tallies["random"].wins + first.tallies["greedy"].wins + first.draws == 4


def test_a_duel_played_in_blocks_is_the_same_games_as_one_duel() -> None:
    """bench/bench_bots.py's shards: games 0-1 and 2-3 played apart are games 0-3 of the one duel, seat for seat."""
    whole = play_duel(GAMES["medieval"], ["random", "greedy"], 4, 9)
    blocks = [play_duel(GAMES["medieval"], ["random", "greedy"], 2, 9, first=k) for k in (0, 2)]
    for name in ("random", "greedy"):
        assert whole.tallies[name].wins == sum(b.tallies[name].wins for b in blocks)
        assert len(whole.tallies[name].times) == sum(len(b.tallies[name].times) for b in blocks)
        assert blocks[1].tallies[name].seats == {0: 1, 1: 1}


# -- muster duel -------------------------------------------------------------------------------------------
def test_muster_duel_prints_and_writes_the_same_result_for_the_same_seed(tmp_path: Path) -> None:
    runs = []
    for k in range(2):
        out = tmp_path / f"duel{k}.json"
        result = muster("duel", "medieval", "--players", "random,greedy", "--games", "10", "--seed", "4",
                        "--json", str(out))
        assert result.returncode == 0, result.stderr
        report = json.loads(out.read_text())
        for row in report["players"].values():
            assert row.pop("decision_ms_p50") <= row.pop("decision_ms_p95")
        runs.append((result.stdout.splitlines()[:2], report))
    assert runs[0] == runs[1]
    lines, report = runs[0]
    assert lines == ["medieval: 10 games, seed 4, seats rotated",
                     "player    wins win rate  95% interval  decision p50       p95"]
    assert report == {"game": "medieval", "games": 10, "seed": 4, "draws": 0,
                      "players": {"random": {"win_rate": [0.3, 0.1078, 0.6032], "wins": 3},
                                  "greedy": {"win_rate": [0.7, 0.3968, 0.8922], "wins": 7}}}


@pytest.mark.parametrize(("args", "message"), [
    (["chess", "--players", "random,greedy"], "muster: there is no game called 'chess' (games: waterloo, warfare, "
                                              "hexbattle, imperial, medieval)"),
    (["warfare", "--players", "random,smart"], "muster: --players: There is no player called 'smart'; players are "
                                               "random, greedy, easy, normal, hard (and ceiling"),
    (["warfare", "--players", "random,greedy,easy"], "muster: --players: warfare is a game for 2 players, so name 2, "
                                                     "not 3."),
    (["warfare", "--players", "easy,easy"], "muster: --players: 'easy' is named twice; name each player once"),
    (["waterloo", "--players", "random"], "muster: --players: 1 players:"),
    (["imperial", "--players", "random,greedy", "--games", "0"], "muster: --games must be 1 or more, not 0"),
    (["imperial", "--players", "random,greedy", "--json", "/no/such/dir/x.json"],
     "muster: --json: the folder of '/no/such/dir/x.json' does not exist"),
])
def test_muster_duel_refuses_bad_arguments_with_exit_2(args: list[str], message: str) -> None:
    result = muster("duel", *args)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(message), result.stderr


def test_hints_rank_moves_from_the_seat_information_only() -> None:
    """The hint for a seat is the same on the true match and on matches whose hidden part is re-dealt."""
    game = GAMES["imperial"]
    match = Match(game, 12)
    rng = random.Random(3)
    while match.state.phase != "play":
        match.apply(rng.choice(match.state.legal_actions()))
    seat = match.state.players_to_act()[0]
    shown = hints(match, seat, level="easy")
    assert 1 <= len(shown) <= 3 and all(0.0 <= h.win <= 1.0 for h in shown)
    assert [h.visits for h in shown] == sorted((h.visits for h in shown), reverse=True)
    assert shown[0].label == match.state.label(shown[0].action) and match.state.can(shown[0].action)
    for k in range(3):
        redealt = copy.copy(match)
        redealt.state = match.state.resample(seat, random.Random(k))
        assert hints(redealt, seat, level="easy") == shown


def test_hints_show_one_move_per_button_text_with_that_moves_own_estimate() -> None:
    """Waterloo's hand holds two cards a button names alike (the tree search keys moves by card): the hint shows
    that text once, with the estimate and visits of its better searched move."""
    game = GAMES["waterloo"]
    match = Match(game, 0)
    rng = random.Random(0)
    for _ in range(16):
        match.apply(rng.choice([a for a in match.state.legal_actions() if a.kind != "concede"]))
    seat = match.state.players_to_act()[0]
    labels = [match.state.label(a) for a in match.state.legal_actions(seat)]
    assert len(set(labels)) < len(labels)
    ranked = make_bot("easy", "waterloo", game.players({})).ranked(
        match.state, seat, decision_rng("hint", seat, len(match.log)))
    first: dict[str, tuple[float, int]] = {}
    for action, win, visits in ranked:
        first.setdefault(match.state.label(action), (round(win, 3), visits))
    assert len(first) < len(ranked)
    shown = hints(match, seat, top=len(labels), level="easy")
    assert [(h.label, (h.win, h.visits)) for h in shown] == list(first.items())
