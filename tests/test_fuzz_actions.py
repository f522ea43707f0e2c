"""Every game refuses malformed and out-of-turn actions, interleaved with random legal play, and
a refused action leaves the state exactly as it was (compared pickled, hidden parts included).

The same through `Tables` as the app calls it (history on, each tap at the head it was offered at):
one gate for every path (issue 28), a precise refusal, nothing stored; and a table whose store already
holds a row the gate refuses opens with a notice and plays on."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fuzz_actions import Tally, malformed, play_with_bad_actions
from hypothesis import given, settings
from hypothesis import strategies as st

from cards import load_game
from companion.store import open_store
from companion.tables import Tables
from engine import GAME_IDS, Action, Match, Refusal, make_game
from engine.core import Arg


@pytest.mark.parametrize("game", GAME_IDS)
@settings(max_examples=4, derandomize=True, deadline=None, database=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_bad_actions_are_refused_and_change_nothing(game: str, seed: int) -> None:
    tally = Tally()
    play_with_bad_actions(game, seed, steps=60, tally=tally)
    assert tally.tried > 0
    assert tally.refused >= tally.tried * 0.8, f"{game}: only {tally.refused} of {tally.tried} damaged actions refused"


def test_the_issue_crash_sites_are_refusals() -> None:
    """warfare's argument-less moves with a card, hexbattle's formation as a list (issue 12)."""
    from cards import load_game
    from engine import Match, Refusal, act, make_game

    warfare = Match(make_game(load_game("warfare")), 3, {"first_player": 0})
    with pytest.raises(Refusal, match=r"^'hold' takes no 'card' \(it takes nothing\)\.$"):
        warfare.apply(act("hold", 0, card="grenadiers"))
    hexbattle = Match(make_game(load_game("hexbattle")), 3, {"quick_start": True})
    unit = next(a for a in hexbattle.state.legal_actions() if a.kind == "formation")
    with pytest.raises(Refusal, match=r"^'formation' of 'formation' must be a name, not \['line'\]\.$"):
        hexbattle.apply(act("formation", unit.player, unit=unit["unit"], formation=["line"]))


LONGER: dict[str, dict[str, Any]] = {"hexbattle": {"quick_start": True},
                                     "imperial": {"imperial_power": [7, 6], "gold": [2, 2], "reinforcements": [2, 1]}}
GENERIC = "The game cannot read that move's details"  # Tables.act's words for an exception out of the rules code


def table_service(tmp_path: Path) -> Tables:
    return Tables(open_store(tmp_path / "fuzz.sqlite"))


@pytest.mark.parametrize("game", GAME_IDS)
def test_bad_actions_through_tables_are_refused_precisely_and_never_stored(game: str, tmp_path: Path) -> None:
    """As the app calls it: history on (a page reads it first), each move tapped at the head it was offered at.
    A damaged copy of a legal move is refused with the gate's or the rules' own words, never the generic
    words for a crash, its question is None rather than an exception, and the store's head does not move."""
    service = table_service(tmp_path)
    rng = random.Random(game)
    engine_game = service.game(game)
    options = LONGER.get(game, {})
    players = engine_game.players(options)
    table = service.create(game, [f"P{n}" for n in range(players)], options, seed=game)
    refused = 0
    for _ in range(25):
        snap = service.snapshot(table)
        if snap.state.is_terminal:
            break
        for viewer in (None, *range(players)):
            snap.history(viewer)
        legal = [a for a in snap.state.legal_actions() if a.kind != "concede"]
        for _ in range(4):
            bad = malformed(rng.choice(legal), rng, players)
            if not isinstance(bad.player, int) or not 0 <= bad.player < players or snap.state.can(bad):
                continue
            assert service.consequence(table, bad.player, bad) is None
            with pytest.raises(Refusal) as err:
                service.act(table, bad.player, bad, snap.head)
            assert GENERIC not in str(err.value), (bad, str(err.value))
            assert service.store.head(table.id) == snap.head
            refused += 1
        move = rng.choice(legal)
        service.act(table, move.player, move, snap.head)
    assert refused >= 15


def test_an_extra_argument_is_refused_with_history_on() -> None:
    """Issue 28: with history recorded (every table page records it) the argument check was skipped, so an
    imperial tap with "x": 1 added was accepted, stored and played on."""
    match = Match(make_game(load_game("imperial")), 1)
    match.history(None)
    move = match.state.legal_actions()[0]
    with pytest.raises(Refusal, match=rf"^'{move.kind}' takes no 'x' \(it takes "):
        match.apply(Action(move.kind, move.player, {**move.args, "x": 1}))
    assert match.log == []


def test_a_table_holding_a_row_the_gate_refuses_opens_with_a_notice_and_goes_on(tmp_path: Path) -> None:
    """A row stored before the gate (here imperial's extra "x": 1, written straight into the store) no longer
    bricks the table: replay sets it aside with a notice every phone reads, and play goes on from before it."""
    service = table_service(tmp_path)
    table = service.create("imperial", ["Ann", "Bob"], {}, seed="bad-row")
    move = service.snapshot(table).state.legal_actions()[0]
    service.store.append(table.id, move.player, {**move.to_json(), "args": {**move.args, "x": 1}})
    fresh = table_service(tmp_path)  # a restart: nothing cached
    snap = fresh.snapshot(fresh.store.table(table.id))
    notice = (f"Stored move 1 by {{p{move.player}}} was set aside: the rules refuse it now: '{move.kind}' takes no "
              f"'x' (it takes {', '.join(repr(n) for n in move.args) or 'nothing'}). The game goes on without it; "
              "the log keeps it as it was.")
    for viewer in (None, 0, 1):
        assert [line.text for line in snap.history(viewer)][-1] == notice
    assert snap.state.view(None) == Match(fresh.game("imperial"), "bad-row").state.view(None)
    after = fresh.act(fresh.store.table(table.id), move.player, move, snap.head)
    assert after.match.log == [move] and fresh.store.table(table.id).playing
    fresh.concede(fresh.store.table(table.id), 1 - move.player)
    assert not fresh.store.table(table.id).playing


def test_a_row_the_position_refuses_is_set_aside_without_saying_why(tmp_path: Path) -> None:
    """A well-formed row the position refuses (here a hand entered by a seat that already entered one, written
    straight into the store) is set aside with the same words for every phone: why a position refuses a move may
    hang on what some phones may not see (issue 28), so the reason is not told; a malformed row's reason is."""
    service = table_service(tmp_path)
    table = service.create("waterloo", ["Ann", "Bob", "Cy"], {"players": 3, "cards": "table"}, seed="bad-row")
    while service.snapshot(table).state.phase == "bet":
        state = service.snapshot(table).state
        service.act(table, state.current_player, next(a for a in state.legal_actions() if a.kind in ("pass", "call")))
    hand = {"cards": ["militia"] * 5, "scout_down": False}
    service.act(table, 0, Action("reveal", 0, hand))
    service.store.append(table.id, 0, Action("reveal", 0, hand).to_json())
    fresh = table_service(tmp_path)
    snap = fresh.snapshot(fresh.store.table(table.id))
    for viewer in (None, 0, 1, 2):
        assert snap.history(viewer)[-1].text == (
            f"Stored move {snap.head[0]} by {{p0}} was set aside: the rules refuse it in this position. The game goes "
            "on without it; the log keeps it as it was.")


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_move_a_game_offers_has_its_arguments_declared(game: str) -> None:
    """The gate checks names and types for the kinds a game's ARGS declares: every kind offered in play is
    declared, and each offered move carries every required argument and no other."""
    match = Match(make_game(load_game(game)), 7, LONGER.get(game, {}))
    rng = random.Random(7)
    schema = type(match.state).ARGS
    for _ in range(150):
        if match.state.is_terminal:
            break
        legal = match.state.legal_actions()
        for action in legal:
            declared = schema[action.kind]
            required = {n for n, spec in declared.items() if not (isinstance(spec, Arg) and spec.optional)}
            assert required <= set(action.args) <= set(declared), action
        match.apply(rng.choice([a for a in legal if a.kind != "concede"] or legal))


def test_an_undo_of_a_row_set_aside_is_set_aside_too(tmp_path: Path) -> None:
    """A bad row, then its owner's undo of it: both are set aside (the undo must not take back another move),
    each with its notice, and the table plays on from its opening position."""
    service = table_service(tmp_path)
    table = service.create("imperial", ["Ann", "Bob"], {}, seed="bad-row")
    move = service.snapshot(table).state.legal_actions()[0]
    service.store.append(table.id, move.player, {**move.to_json(), "args": {**move.args, "x": 1}})
    service.store.append(table.id, move.player, {"kind": "undo", "player": move.player, "args": {"seq": 1}})
    fresh = table_service(tmp_path)
    snap = fresh.snapshot(fresh.store.table(table.id))
    assert [line.text for line in snap.history(None)][-1] == (
        f"Stored move 2 by {{p{move.player}}} was set aside: it took back a move that was set aside. The game goes "
        "on without it; the log keeps it as it was.")
    assert snap.match.log == [] and snap.head[0] == 2
    assert fresh.act(fresh.store.table(table.id), move.player, move, snap.head).match.log == [move]
