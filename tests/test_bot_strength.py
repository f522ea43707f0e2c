"""What makes the bots strong where the tree search was not (issue 31, docs/bots.md): medieval's flat search and
hexbattle's marching rule."""

from __future__ import annotations

import random

import cards
from engine import make_game
from engine.bots import make_bot, resampled, scores
from engine.bots.greedy import prior, rollout
from engine.bots.search import choices, flat
from engine.core import Match

MEDIEVAL = make_game(cards.load_game("medieval"))
HEXBATTLE = make_game(cards.load_game("hexbattle"))


def test_the_flat_search_tries_every_placement_on_the_same_deals_and_dice_and_identical_ones_once() -> None:
    """Two Bishops in hand: the six placements are three a player can tell apart (which Bishop goes where is not
    one), and the search tries those three, each on every re-deal, under the same reply and dice (common random
    numbers). Until 2026-11-26 it tried all six, the twins scoring exactly alike: half its work wasted."""
    state = Match(MEDIEVAL, 6, {}).state
    assert sorted(MEDIEVAL.names[c] for c in state.hands[0]) == ["Bishop", "Bishop", "Blessing of the Banners"]
    assert len(choices(state, 0)) == 6
    nodes = flat(state, 0, random.Random(1), reveal=resampled, iterations=8, depth=2,
                 evaluate=lambda world: scores.score("medieval", world, 2), reply=prior("medieval", 2),
                 policy=rollout("medieval"))
    assert {n.visits for n in nodes} == {8}
    assert sorted(state.label(n.action) for n in nodes) == [
        "Place Bishop left, Bishop centre, Blessing of the Banners right",
        "Place Bishop left, Blessing of the Banners centre, Bishop right",
        "Place Blessing of the Banners left, Bishop centre, Bishop right"]


def test_greedy_marches_and_hexbattle_battles_end_by_breakthrough() -> None:
    """Greedy against itself reveals the way and wins by reaching the enemy's row (R25), long before the turn
    limit (R28); the score-greedy player it replaced drew every battle at the limit."""
    ends = []
    for seed in range(3):
        match = Match(HEXBATTLE, seed, {"turn_limit": True, "quick_start": True})
        bot = make_bot("greedy", "hexbattle", 2, seed=seed)
        while not match.state.is_terminal:
            match.apply(bot.decide(match, match.state.players_to_act()[0]))
        ends.append((match.state.result, match.state.winner, match.state.turn))
    assert ends == [("breakthrough", 1, 3), ("breakthrough", 1, 6), ("breakthrough", 1, 23)]
