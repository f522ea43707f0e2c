"""One way to ask first (issue 30): a move that gives something up is asked about, naming what (`State.forfeits`)."""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path

import cards
from companion.store import open_store
from companion.tables import Tables
from engine import make_game
from engine.core import Match, _Watched, act, chance
from engine.waterloo import SHARED


def test_a_fold_is_asked_about_with_the_chips_it_gives_up(tmp_path: Path) -> None:
    service = Tables(open_store(tmp_path / "m.sqlite3"))
    table = service.create("waterloo", ["Ann", "Bob", "Cleo"], {"players": 3, "button": 0}, seed="w3")
    state = service.snapshot(table).state
    p = state.current_player
    assert service.consequence(table, p, act("fold", p)) == \
        "Folding gives up this hand and the 1 chip you have bet in it."
    assert service.consequence(table, p, state.legal_actions(p)[0]) is None, "a pass or call is not asked about"
    other = next(q for q in range(3) if q != p)
    assert service.consequence(table, other, act("fold", other)) is None, "a refused move asks nothing"


def test_ending_a_turn_with_actions_left_is_asked_about_and_without_none() -> None:
    match = Match(make_game(cards.load_game("hexbattle")), "s1", {})
    while match.state.phase != "battle":
        legal = match.state.legal_actions(match.state.current_player)
        match.apply(next((a for a in legal if a.kind == "quick_start"), legal[0]))
    state = match.state
    p = state.current_player
    assert state.forfeits(act("end_turn", p)) == "You still have 6 actions this turn; ending it gives them up."
    state.actions_left = 1
    assert state.forfeits(act("end_turn", p)) == "You still have 1 action this turn; ending it gives it up."
    state.actions_left = 0
    assert state.forfeits(act("end_turn", p)) is None


def test_a_move_is_asked_about_at_the_position_its_button_was_drawn_at(tmp_path: Path) -> None:
    """A page asks about each button's move at the position it drew (`Tables.consequence(…, snap)`), whatever
    the table did since; asked without it (a tap being carried out), the question is about the newest position."""
    service = Tables(open_store(tmp_path / "m.sqlite3"))
    table = service.create("waterloo", ["Ann", "Bob", "Cleo"], {"players": 3, "button": 0}, seed="w3")
    drawn = service.snapshot(table)
    p = drawn.state.current_player
    fold = act("fold", p)
    asked = "Folding gives up this hand and the 1 chip you have bet in it."
    service.act(table, p, next(a for a in drawn.state.legal_actions(p) if a.kind != "fold"))
    assert service.consequence(table, p, fold) is None, "the newest position: it is another seat's turn"
    assert service.consequence(table, p, fold, drawn) == asked


def test_a_positions_deals_dealt_once_give_every_button_the_answer_it_gets_alone() -> None:
    """`Tables.consequence` deals a position's re-deals once for all its buttons (`Match.ahead_deals`): each
    question tries its move on copies, so the deals stay as dealt and every answer is the one asked alone."""
    match = Match(make_game(cards.load_game("waterloo")), "deals", {"players": 3})
    rng = random.Random(3)
    asked = 0
    while not match.state.is_terminal and match.state.hand_number < 3:
        p = match.state.current_player
        legal = match.state.legal_actions(p)
        deals = match.ahead_deals(p)
        dealt = [json.dumps([d.view(q) for q in range(3)], sort_keys=True) for d in deals]
        for action in legal:
            assert match.ahead_refusal(p, action, deals=deals) == match.ahead_refusal(p, action), action
            asked += 1
        assert [json.dumps([d.view(q) for q in range(3)], sort_keys=True) for d in deals] == dealt
        match.apply(rng.choice(legal))
    assert asked > 50 and match.state.hand_log, "settled hands were asked about, their records shared by the copies"


def test_a_waterloo_copy_played_on_leaves_the_position_it_was_copied_from_as_it_was() -> None:
    """A copy shares the showdown, the last result and the settled hands' records and copies the rest field by field
    (`WaterlooState.clone`): playing the copy to the end changes nothing any viewer reads of the original."""
    match = Match(make_game(cards.load_game("waterloo")), "copy", {"players": 3})
    rng = random.Random(5)
    while match.state.hand_number < 3:
        match.apply(rng.choice(match.state.legal_actions(match.state.current_player)))
    before = json.dumps([match.state.view(q) for q in (None, 0, 1, 2)], sort_keys=True)
    copied = match.state.clone()
    while not copied.is_terminal:
        copied.apply(rng.choice(copied.legal_actions(copied.current_player)), rng)
    assert json.dumps([match.state.view(q) for q in (None, 0, 1, 2)], sort_keys=True) == before
    assert len(copied.hand_log) > len(match.state.hand_log)


def test_a_waterloo_copy_shares_no_list_or_dict_but_the_ones_never_changed_in_place() -> None:
    """`WaterlooState.clone` names each field it copies: one added to the position and changed in place must be
    copied there too, so every list and dict a copy holds is its own but `SHARED` (and the game's)."""
    match = Match(make_game(cards.load_game("waterloo")), "fields", {"players": 3})
    rng = random.Random(7)
    while match.state.showdown is None or match.state.last_result is None:
        match.apply(rng.choice(match.state.legal_actions(match.state.current_player)))
    state = match.state
    copied = state.clone()
    shared = sorted(k for k, v in vars(state).items() if isinstance(v, (list, dict)) and vars(copied)[k] is v)
    assert shared == sorted(SHARED)
    assert vars(copied).keys() == vars(state).keys() and copied.game is state.game
    assert all(a is not b for a, b in zip(state.hands, copied.hands))
    assert all(a is not b for a, b in zip(state.reserves, copied.reserves))


def test_a_watched_random_source_seeded_at_its_first_draw_draws_what_its_step_would() -> None:
    """A step's watched source (`core._Watched`, a trial's and a recorded step's) is seeded at its first draw, as
    most moves draw nothing: what it draws is exactly what `chance` gives for the same seed and step."""
    watched, plain = chance("ahead:3", 57, _Watched), chance("ahead:3", 57)
    assert not watched.drawn
    deck, same = list(range(40)), list(range(40))
    watched.shuffle(deck)
    plain.shuffle(same)
    assert deck == same and deck != sorted(deck) and watched.drawn
    assert [watched.randint(1, 6) for _ in range(9)] + [watched.random()] == \
        [plain.randint(1, 6) for _ in range(9)] + [plain.random()]


def test_a_watched_random_source_copied_or_pickled_before_or_after_a_draw_goes_on_as_its_step_would() -> None:
    """Its state (a copy, a pickle, `getstate`) is the seeded one's even before the first draw, which it does not
    count as a draw; whether it was drawn from travels with it."""
    for draws in (0, 3):
        watched, plain = chance("ahead:3", 57, _Watched), chance("ahead:3", 57)
        for _ in range(draws):
            assert watched.random() == plain.random()
        watched.getstate()
        assert watched.drawn is (draws > 0)
        expected = [plain.randint(1, 6) for _ in range(9)]
        for twin in (copy.deepcopy(watched), pickle.loads(pickle.dumps(watched))):
            assert isinstance(twin, _Watched) and twin.drawn is (draws > 0)
            assert [twin.randint(1, 6) for _ in range(9)] == expected
