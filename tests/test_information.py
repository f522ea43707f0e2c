"""What each viewer may know, decided by the engines (docs/design.md, "Information and undo").

For every game: a hidden choice is absent from the other players' and the spectator's history,
status line and view until it is revealed, and named for everyone after; an action that revealed
anything or drew on chance cannot be taken back; an allowed take-back followed by the same action
gives the same position; malformed table options are refused with a clear message. Rulings: the
undo ruling of each game (imperial R19, medieval R18, warfare R19, waterloo R29, hexbattle R37)
and waterloo R28.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cards
from cards.schemas.imperial import TYPE_NAMES
from engine import make_game
from engine.core import PLACEHOLDER, Action, Line, Match, Refusal, act

IMPERIAL, MEDIEVAL, WARFARE, WATERLOO, HEXBATTLE = (make_game(cards.load_game(g)) for g in
                                                    ("imperial", "medieval", "warfare", "waterloo", "hexbattle"))
VIEWERS = (None, 0, 1)
CHANCE = "That move cannot be taken back: chance decided part of it (a shuffle, draw or dice roll)."
NOT_LAST = "Only the last move can be taken back, by the player who made it, before anyone else acts."


def texts(match: Match, viewer: int | None, since: int = 0) -> list[str]:
    return [line.text for line in match.history(viewer)[since:]]


def seen(match: Match) -> dict[int | None, int]:
    """How many history lines each viewer has read so far."""
    return {v: len(match.history(v)) for v in VIEWERS}


def views(match: Match) -> str:
    state = match.state
    return json.dumps([state.view(v) for v in VIEWERS] + [state.prompt(v) for v in VIEWERS], sort_keys=True)


def undo_and_redo(match: Match, action: Action) -> None:
    """Take back `action` (just applied) and apply it again: both positions match the ones before."""
    after = views(match)
    match.undo()
    before_lines = len(match.history(None))
    assert views(match) != after
    match.apply(action)
    assert views(match) == after
    assert len(match.history(None)) == before_lines + len(texts(match, None, before_lines))


# -- the history and its lines ------------------------------------------------------------------------
def test_a_name_is_inserted_as_a_value_never_read_as_a_placeholder() -> None:
    line = Line(3, 0, "{p0} chose a card; {p1} waits")
    assert line.format(["{p1}", "Bob"]) == "{p1} chose a card; Bob waits"
    assert Line(1, 2, "{p2} passed").format(["Ann"]) == "seat 3 passed"


def test_history_asked_late_is_the_history_recorded_from_the_start() -> None:
    eager, late = Match(WARFARE, 5), Match(WARFARE, 5)
    eager.history(None)
    rng_a, rng_b = random.Random(2), random.Random(2)
    for _ in range(60):
        eager.apply(rng_a.choice(eager.state.legal_actions()))
        late.apply(rng_b.choice(late.state.legal_actions()))
    for viewer in VIEWERS:
        assert late.history(viewer) == eager.history(viewer)
    assert late.history(0) != late.history(1), "each player reads their own draws"
    assert late.state.snapshot() == eager.state.snapshot(), "recording draws the same chance"


def test_the_opening_deal_is_told_to_each_player_alone() -> None:
    match = Match(WARFARE, 1)
    hands = [", ".join(WARFARE.rows[WARFARE.index[c]].name for c in match.state.view(p)["hand"]) for p in (0, 1)]
    first = "{p%d} plays first" % match.state.active
    assert texts(match, None) == [first, "Both players hold their opening hands"]
    assert texts(match, 0) == [first, f"{{p0}} holds {hands[0]}"] and texts(match, 1) == [first, f"{{p1}} holds {hands[1]}"]
    assert match.history(None)[0].seq == 0 and match.history(None)[0].actor is None


def test_a_notice_is_a_line_for_everyone_and_changes_nothing() -> None:
    match = Match(MEDIEVAL, 1)
    before = views(match)
    match.notice("Seat {p1} was re-issued by the host", step=4)
    assert views(match) == before
    for viewer in VIEWERS:
        assert match.history(viewer)[1:] == [Line(4, None, "Seat {p1} was re-issued by the host", "notice")]


def test_replay_dispatches_stored_entries_with_their_steps() -> None:
    played, replayed = imperial_fight(), Match(IMPERIAL, 1, {"gold": [0, 0]})
    for step, (action, at) in enumerate(zip(played.log, played.steps)):
        replayed.replay(action.to_json(), at)
    choice = played.state.legal_actions(0)[0]
    played.apply(choice, step=20)
    played.undo(step=21)
    replayed.replay(choice.to_json(), 20)
    replayed.replay({"kind": "undo", "player": 0, "args": {"seq": 20}}, 21)
    replayed.replay({"kind": "notice", "player": -1, "args": {"text": "{p0} moved to another phone"}}, 22)
    assert views(replayed) == views(played) and replayed.steps == played.steps
    assert texts(replayed, 1)[-3:] == ["{p0} chose a card", "{p0} took back: chose a card",
                                      "{p0} moved to another phone"]


# -- imperial ------------------------------------------------------------------------------------------------
def imperial_fight(seed: int = 1) -> Match:
    """A battle with no Gold, both sides keeping their hands: the first round of face-down cards."""
    match = Match(IMPERIAL, seed, {"gold": [0, 0]})
    while match.state.phase != "play":
        match.apply(act("pass", match.state.current_player))
    return match


def test_imperial_a_face_down_card_is_hidden_until_both_are_turned_over() -> None:
    match = imperial_fight()
    start = seen(match)
    mine = match.state.legal_actions(0)[0]
    match.apply(mine)
    name = TYPE_NAMES[mine["type"]]
    assert texts(match, 0, start[0]) == [f"{{p0}} chose {name} (face down)"]
    assert texts(match, 1, start[1]) == texts(match, None, start[None]) == ["{p0} chose a card"]
    for viewer in (None, 1):
        assert match.state.view(viewer)["sides"][0]["choice"] is None
        assert match.state.view(viewer)["sides"][0]["has_chosen"] is True
    assert match.state.prompt(None) == "Waiting for {p1} to choose a card to play face down."
    assert match.state.prompt(1) == "Your move: choose a card to play face down."
    theirs = match.state.legal_actions(1)[0]
    match.apply(theirs)
    for viewer in VIEWERS:
        shown = texts(match, viewer, start[viewer] + 1)
        assert shown[0] == ("{p1} chose a card" if viewer != 1 else f"{{p1}} chose {TYPE_NAMES[theirs['type']]} (face down)")
        assert shown[1].startswith(f"Battle round 1: cards revealed, {{p0}} played {name} and "
                                   f"{{p1}} played {TYPE_NAMES[theirs['type']]}; ")
    assert match.undo_refusal(1) == "That move cannot be taken back: it revealed both face-down cards."


def test_r19_imperial_the_first_card_can_be_taken_back_until_the_other_plays() -> None:
    match = imperial_fight()
    before = views(match)
    mine = match.state.legal_actions(0)[0]
    match.apply(mine)
    assert match.undo_refusal(1) == NOT_LAST and match.undo_refusal(0) is None
    undo_and_redo(match, mine)
    match.undo(step=9)
    assert views(match) == before
    lines = match.history(1)
    assert lines[-1] == Line(9, 0, "{p0} took back: chose a card", "undo")
    assert lines[-2].undone and lines[-2].text == "{p0} chose a card"


def test_r19_imperial_an_exchange_draws_at_random_so_it_stands() -> None:
    match = Match(IMPERIAL, 1)
    p = match.state.current_player
    exchange = next(a for a in match.state.legal_actions(p) if a.kind == "exchange")
    assert match.ahead_refusal(p, exchange) == \
        "This move cannot be taken back: chance decides part of it (a shuffle, draw or dice roll)."
    match.apply(exchange)
    assert match.undo_refusal(p) == CHANCE


# -- medieval ------------------------------------------------------------------------------------------------
def test_medieval_a_placement_is_hidden_until_both_commit() -> None:
    match = Match(MEDIEVAL, 3)
    start = seen(match)
    mine = match.state.legal_actions(0)[0]
    match.apply(mine)
    placed = match.state.label(mine).removeprefix("Place ")
    assert texts(match, 0, start[0]) == [f"{{p0}} placed {placed} (face down)"]
    assert texts(match, 1, start[1]) == texts(match, None, start[None]) == [
        "{p0} placed their reenforcements face down"]
    assert match.state.view(1)["players"][0]["placement"] is None
    assert match.state.prompt(None) == "Waiting for {p1} to place reenforcements face down."
    assert match.undo_refusal(0) is None
    undo_and_redo(match, mine)
    mid = seen(match)
    match.apply(match.state.legal_actions(1)[0])
    for viewer in VIEWERS:
        assert texts(match, viewer, mid[viewer])[1].startswith(f"Reenforcements revealed: {{p0}} placed {placed}; ")
    assert match.undo_refusal(1) == "That move cannot be taken back: it revealed both players' reenforcements."


# -- warfare -------------------------------------------------------------------------------------------------
def warfare_with(kind: str) -> tuple[Match, Action]:
    """The first seed whose opening turn offers a move of `kind`."""
    for seed in range(100):
        match = Match(WARFARE, seed, {"first_player": 0})
        found = [a for a in match.state.legal_actions() if a.kind == kind]
        if found:
            return match, found[0]
    raise AssertionError(kind)


def test_warfare_a_look_at_a_hand_is_the_lookers_alone_and_stands() -> None:
    match, scout = warfare_with("scout")
    start = seen(match)
    match.apply(scout)
    hand = ", ".join(WARFARE.rows[WARFARE.index[c]].name for c in match.state.view(1)["hand"])
    card = WARFARE.rows[WARFARE.index[scout["card"]]].name
    public = [f"{{p0}} discarded {card} to look at {{p1}}'s hand", "{p0} looked at {p1}'s hand"]
    assert texts(match, 1, start[1]) == texts(match, None, start[None]) == public
    assert texts(match, 0, start[0]) == [public[0], f"{{p0}} looked at {{p1}}'s hand: {hand}"]
    assert "opponent_hand" not in match.state.view(None) and "opponent_hand" not in match.state.view(1)
    assert match.undo_refusal(0) == "That move cannot be taken back: it revealed your opponent's hand."


def test_r19_warfare_draws_stand_and_declaring_an_attack_can_be_taken_back() -> None:
    match, draw = warfare_with("draw")
    match.apply(draw)
    assert match.undo_refusal(0) == "That move cannot be taken back: it revealed cards from the deck."
    drawn = WARFARE.forces[WARFARE.index[draw["card"]]]
    assert texts(match, 1)[-1] == f"{{p0}} drew {drawn} card{'s' if drawn > 1 else ''}"
    match, attack = warfare_with("attack")
    match.apply(attack)
    assert match.undo_refusal(0) is None
    undo_and_redo(match, attack)
    match, harass = warfare_with("harass")
    # Asked before the move (the page's "Are you sure?"), the same reasons read in the present.
    assert match.ahead_refusal(0, harass) == "This move cannot be taken back: it reveals a card from a hand."
    match.apply(harass)
    assert match.undo_refusal(0) == "That move cannot be taken back: it revealed a card from a hand."
    match, draw = warfare_with("draw")
    assert match.ahead_refusal(0, draw) == "This move cannot be taken back: it reveals cards from the deck."


# -- waterloo ------------------------------------------------------------------------------------------------
def waterloo_until(match: Match, phase: str) -> None:
    """Pass or call, draw and keep, until `phase`."""
    while match.state.phase != phase:
        kinds = {a.kind: a for a in match.state.legal_actions()}
        match.apply(next(kinds[k] for k in ("pass", "call", "draw", "keep", "stand", "pay") if k in kinds))


def test_waterloo_a_face_down_swap_is_the_swappers_alone() -> None:
    match = Match(WATERLOO, 4, {"players": 2})
    waterloo_until(match, "swap")
    p = match.state.current_player
    other = 1 - p
    start = seen(match)
    swap = act("swap", p, card=match.state.hands[p][0], slot="down")
    match.apply(swap)
    name = WATERLOO.names[swap["card"]]
    assert texts(match, p, start[p]) == [f"{{p{p}}} swapped {name} into their face-down reserve"]
    assert texts(match, other, start[other]) == texts(match, None, start[None]) == [
        f"{{p{p}}} swapped a card with their face-down reserve"]
    assert match.state.view(other)["players"][p]["reserve_down"] is None
    assert match.undo_refusal(p) is None
    undo_and_redo(match, swap)
    match.apply(act("stand", other))
    assert texts(match, None)[-1].startswith("Hand 2 begins") or match.state.phase == "scout"
    assert any(t.startswith("Showdown: ") for t in texts(match, None, start[None]))
    assert match.undo_refusal(other) == "That move cannot be taken back: it revealed the hands at the showdown."


def test_r29_waterloo_lines_are_written_when_the_move_is_made() -> None:
    match = Match(WATERLOO, 4, {"players": 2})
    p = match.state.current_player
    match.apply(act("raise", p, amount=2))
    match.apply(act("call", 1 - p))
    assert texts(match, None) == ["Hand 1 begins", f"{{p{p}}} raised by 2 (bet 3)", f"{{p{1 - p}}} called 2"]
    assert match.undo_refusal(1 - p) is None
    waterloo_until(match, "draw")
    drawer = match.state.current_player
    match.apply(act("draw", drawer))
    assert match.undo_refusal(drawer) == "That move cannot be taken back: it revealed the card drawn."
    assert texts(match, None)[-1] == f"{{p{drawer}}} drew a card"
    assert texts(match, drawer)[-1] == f"{{p{drawer}}} drew {WATERLOO.names[match.state.drawn]}"


def test_waterloo_an_entered_hand_is_hidden_until_every_hand_is_in() -> None:
    match = Match(WATERLOO, 1, {"players": 2, "cards": "table"})
    waterloo_until(match, "reveal")
    hand = ["guard-infantry", "guard-infantry", "guard-infantry", "line-infantry", "line-infantry"]
    match.apply(act("reveal", 0, cards=hand, scout_down=True))
    assert texts(match, 1)[-1] == texts(match, None)[-1] == "{p0} entered their hand"
    assert texts(match, 0)[-1] == ("{p0} entered Guard Infantry, Guard Infantry, Guard Infantry, Line Infantry, "
                                   "Line Infantry and a face-down Scout")
    match.apply(act("reveal", 1, cards=["lancers", "lancers", "light-infantry", "howitzers", "grenadiers"]))
    assert texts(match, 0)[-1] == texts(match, None)[-1] == (
        "Showdown: {p1} Lancers, Lancers, Light Infantry, Howitzers, Grenadiers (Pair); "
        "{p0} Guard Infantry, Guard Infantry, Guard Infantry, Line Infantry, Line Infantry (Full House)")
    assert match.state.phase == "scout", "the loser is asked about a Scout whether or not they hold one (R28)"
    assert "scout_down" not in json.dumps(match.state.view(None)) and "scout_saves" not in match.state.view(1)
    assert json.dumps(match.state.view(1)).count("scout_down") == 1, "only the viewer's own entered hand"


# -- hexbattle -----------------------------------------------------------------------------------------------
INF, E_LC = "french-infantry-1", "british-light-cavalry"


def hexbattle_guard() -> Match:
    scenario = {"fill": "open", "units": {INF: {"hex": "4,5", "facing": 0}, E_LC: {"hex": "4,4", "facing": 3}},
                "hands": [["entrench"], []]}
    return Match(HEXBATTLE, 0, {"scenario": scenario, "dice": [1] * 3 + [6] * 5})


def test_hexbattle_a_guard_card_stays_face_down_in_the_log_until_it_is_used() -> None:
    match = hexbattle_guard()
    state = match.state
    unit = state.unit_name(state.units[INF])
    start = seen(match)
    guard = act("play_card", 0, card=state.hands[0][0], unit=INF)
    match.apply(guard)
    assert texts(match, 0, start[0]) == [f"{{p0}} played Entrench on {unit} face down"]
    assert texts(match, 1, start[1]) == texts(match, None, start[None]) == ["{p0} played a guard card face down"]
    for viewer in (None, 1):
        assert match.state.view(viewer)["players"][0]["guards"] is None
        assert "entrench" not in json.dumps(match.state.view(viewer))
    assert match.undo_refusal(0) is None
    undo_and_redo(match, guard)
    match.apply(act("end_turn", 0))
    attacker = match.state.unit_name(match.state.units[E_LC])
    mid = seen(match)
    match.apply(act("attack", 1, unit=E_LC, target=INF, mode="melee"))
    for viewer in VIEWERS:
        assert texts(match, viewer, mid[viewer])[:2] == [f"{{p1}}: {attacker} charged {unit}",
                                                        f"{{p0}}'s face-down Entrench on {unit} is revealed"]
    assert match.undo_refusal(1) == "That move cannot be taken back: it revealed a face-down guard card."


def test_r37_hexbattle_dice_and_drawn_tiles_stand() -> None:
    match = Match(HEXBATTLE, 3, {"quick_start": True})
    p = match.state.current_player
    match.apply(act("draw_terrain", p))
    tile = HEXBATTLE.terrain[match.state.pending_tile].name
    assert texts(match, 1 - p)[-1] == f"The terrain tile drawn is {tile}"
    assert match.undo_refusal(p) == "That move cannot be taken back: it revealed the terrain tile drawn."
    scenario = {"fill": "open", "units": {INF: {"hex": "4,5", "facing": 0}, E_LC: {"hex": "4,4", "facing": 3}}}
    match = Match(HEXBATTLE, 0, {"scenario": scenario})
    match.apply(act("attack", 0, unit=INF, target=E_LC, mode="melee"))
    assert match.undo_refusal(0) == "That move cannot be taken back: it revealed the dice."
    match = Match(HEXBATTLE, 0, {"scenario": scenario})
    match.apply(act("pivot", 0, unit=INF, facing=1))
    assert match.undo_refusal(0) is None


# -- table options from the app ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "options", "message"), [
    (HEXBATTLE, {"scenario": {"terrain": [1, 2]}},
     'The scenario\'s "terrain" must be a table of hexes and terrain, like {"3,4": "woods"} (not [1, 2]).'),
    (HEXBATTLE, {"dice": [6, 6, 6]}, "The option 'dice' is for tests only; a table made in the app cannot set it."),
    (HEXBATTLE, {"scenario": {"units": {INF: {"hex": "4,5", "strength": "3"}}}},
     f"Unit {INF}'s strength must be a whole number (not '3')."),
    (HEXBATTLE, {"scenario": {"fill": ["open"]}}, "Unknown terrain ['open'] in the scenario."),
    (HEXBATTLE, {"scenario": {"hands": [["entrench"], []]}},
     "A scenario made in the app cannot deal bonus hands: whoever typed them would know the other player's "
     'cards. Leave "hands" out; players draw their cards in play.'),
    (HEXBATTLE, {"quick_start": "yes"}, "quick_start is true or false (not 'yes')."),
    (WATERLOO, {"players": 6}, "These options make a game for 6 players, but the table has 2 seats."),
    (WATERLOO, {"players": "2"}, "The table option 'players' must be a whole number."),
    (MEDIEVAL, {"decks": [["archer"], ["archer"]]},
     "The option 'decks' is for tests only; a table made in the app cannot set it."),
    (WARFARE, {"first_player": True}, "first_player must be 0 or 1 (or left out for a coin flip)."),
    (IMPERIAL, {"game_round": 1.5}, "game_round must be a whole number of 1 or more (not 1.5)."),
    (IMPERIAL, ["gold"], 'Table options must be a JSON object of named options, like {"name": value}.'),
])
def test_malformed_table_options_are_refused(game: Any, options: Any, message: str) -> None:
    with pytest.raises(Refusal) as err:
        game.table_options(options, 2)
    assert str(err.value) == message


def test_good_table_options_come_back_cleaned_and_tests_still_script_dice() -> None:
    assert WATERLOO.table_options({"players": 3, "cards": "table"}, 3) == {"players": 3, "cards": "table"}
    assert HEXBATTLE.table_options({"quick_start": True}, 2) == {"quick_start": True}
    assert Match(HEXBATTLE, 0, {"dice": [6, 6]}).state.dice == [6, 6]


@pytest.mark.parametrize(("game", "options", "seed"), [
    (IMPERIAL, {}, 3), (IMPERIAL, {"game_round": 4, "gold": [4, 4]}, 5), (MEDIEVAL, {}, 2), (WARFARE, {}, 4),
    (WATERLOO, {"players": 3, "starting_chips": 6}, 1), (WATERLOO, {"players": 2, "cards": "table"}, 2),
    (HEXBATTLE, {"quick_start": True}, 6)])
def test_every_move_of_a_random_game_is_told_to_every_viewer(game: Any, options: dict[str, Any], seed: int) -> None:
    """Narration covers every kind of move a game offers; each line names seats only by placeholder."""
    match = Match(game, seed, options)
    match.history(None)
    rng = random.Random(seed)
    seats = range(match.state.n if game is WATERLOO else 2)
    while not match.state.is_terminal and len(match.log) < 400:
        legal = [a for a in match.state.legal_actions() if a.kind != "concede"]
        if not legal:  # waterloo with printed cards: the hands to reveal are the players' own
            p = match.state.players_to_act()[0]
            legal = [act("reveal", p, cards=["militia"] * 4 + ["lancers"], scout_down=False)]
            if match.state.revealed:
                legal = [act("reveal", p, cards=["hussars"] * 4 + ["howitzers"], scout_down=False)]
        match.apply(rng.choice(legal))
        if match.undo_refusal(match.log[-1].player) is None and rng.random() < 0.2:
            match.undo()
    for viewer in (None, *seats):
        lines = match.history(viewer)
        assert lines and all(line.text for line in lines)
        assert {int(n) for line in lines for n in PLACEHOLDER.findall(line.text)} <= set(seats)
        assert not any("{" in line.format(["A", "B", "C"]) for line in lines)
    assert {line.seq for line in match.history(None) if line.kind == "action"} >= set(match.steps)
