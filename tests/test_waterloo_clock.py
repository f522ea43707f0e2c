"""Waterloo's shared round timer (R22) and hand history, against the real store, tables service and engine.

The timer is kept by the server: each start or pause is a `timer` entry in the table's log,
stamped with the server's time when stored, so every phone derives the same clock from it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from cards import load_game
from companion.clock import Clock, clock
from companion.store import LogEntry, open_store
from companion.tables import Stale, Tables
from engine.core import Match, Refusal, act

GAME = engine.make_game(load_game("waterloo"))
SECONDS = 4 * 60  # cards/waterloo/game.toml round_timer_minutes = 4


def tap(seq: int, seat: int, run: bool, at: float, round_: int = 1) -> LogEntry:
    return LogEntry(seq, seq, seat, {"kind": "timer", "player": seat, "args": {"run": run, "round": round_}}, at)


@pytest.fixture
def tables(tmp_path: Path) -> Tables:  # an SQLite file: `path` is where a second server would open it
    return Tables(open_store(tmp_path / "muster.sqlite3"))


def test_r22_round_length_comes_from_the_data() -> None:
    assert GAME.rules.round_timer_minutes * 60 == SECONDS


def test_r22_start_pause_resume_and_time_up_from_the_stamps() -> None:
    entries = [tap(1, 0, True, 1000.0)]
    assert clock(entries, 1, SECONDS) == Clock(SECONDS, True, 240.0, 1000.0, 0)
    assert clock(entries, 1, SECONDS).ends == 1240.0
    assert clock(entries, 1, SECONDS).left_at(1100.0) == 140.0
    entries.append(tap(2, 0, True, 1010.0))  # a second start while it runs changes nothing
    assert clock(entries, 1, SECONDS).ends == 1240.0
    entries.append(tap(3, 1, False, 1100.0))  # Bob pauses with 140 s left
    paused = clock(entries, 1, SECONDS)
    assert paused == Clock(SECONDS, False, 140.0, None, 1) and paused.ends is None and paused.left_at(5000.0) == 140.0
    entries.append(tap(4, 0, True, 2000.0))  # resumed later: the 140 s left, from the new stamp
    assert clock(entries, 1, SECONDS).ends == 2140.0
    assert clock(entries, 1, SECONDS).left_at(2500.0) == 0.0  # time is up, never below 0
    entries.append(tap(5, 1, True, 2500.0))  # a start after time ran out: a full round again
    assert clock(entries, 1, SECONDS).ends == 2740.0


def test_r22_a_new_hand_starts_the_timer_afresh() -> None:
    entries = [tap(1, 0, True, 1000.0, round_=1)]
    assert clock(entries, 2, SECONDS) == Clock(SECONDS, False, 240.0, None, None)


def test_r22_any_seat_taps_the_timer_and_every_reader_derives_the_same_clock(tables: Tables) -> None:
    table = tables.create("waterloo", ["Ann", "Bob"], {"players": 2}, seed="w0")
    head = tables.snapshot(table).head
    started = tables.timer(table, 1, True, head)
    assert started.action == {"kind": "timer", "player": 1, "args": {"run": True, "round": 1}}
    again = tables.timer(table, 1, True, head)  # the same tap twice (a double tap) is stored once
    assert again.seq == started.seq
    with pytest.raises(Refusal, match="Spectators cannot start or pause the timer"):
        tables.timer(table, None, True)
    # A second server process reading the same store derives the same deadline from the stored stamp.
    other = Tables(open_store(tables.store.path))
    for reader in (tables, other):
        snap = reader.snapshot(reader.store.table(table.id))
        assert clock(snap.entries, snap.state.clock_round(), SECONDS).ends == started.at + SECONDS


def test_r22_the_timer_is_no_move_it_neither_blocks_nor_joins_an_undo(tables: Tables) -> None:
    table = tables.create("waterloo", ["Ann", "Bob"], {"players": 2}, seed="w0")
    tables.act(table, 1, act("pass", 1))  # Bob (left of the button) passes
    tables.timer(table, 0, True)  # Ann starts the timer: Bob may still take back his pass
    snap = tables.snapshot(table)
    assert snap.match.undo_refusal(1) is None and snap.match.undo_refusal(0) is not None
    tables.undo(table, 1)
    snap = tables.snapshot(table)
    assert [e.action["kind"] for e in snap.entries] == ["pass", "timer", "undo"]
    assert snap.state.current_player == 1 and clock(snap.entries, 1, SECONDS).running
    assert [line.text for line in snap.match.history(None)][-1] == "{p1} took back: passed"


def test_a_move_tapped_while_another_phone_taps_the_timer_still_counts(tables: Tables) -> None:
    """The timer and table notices keep the position, so they do not make an offered move stale; a move does."""
    table = tables.create("waterloo", ["Ann", "Bob"], {"players": 2}, seed="w0")
    offered = tables.snapshot(table).head  # Bob's phone offers "Pass" at this position
    tables.timer(table, 0, True, offered)  # meanwhile Ann starts the timer
    tables.notice(table, "{p0}'s seat was opened on another phone, which now plays it.")
    after = tables.act(table, 1, act("pass", 1), offered)
    assert [e.action["kind"] for e in after.entries] == ["timer", "notice", "pass"]
    with pytest.raises(Stale):  # a real move since: the same offer is stale now
        tables.act(table, 0, act("pass", 0), offered)
    with pytest.raises(Stale):  # and so is the undo button drawn before that move
        tables.undo(table, 1, offered)


def test_hand_history_names_who_won_with_what_and_the_chips_moved() -> None:
    """Seed w0, everyone passes, keeps and stands: hand 1 is a tie on High Card, hand 2 Ann wins with Battalion."""
    match = Match(GAME, "w0", {"players": 2})
    for _ in range(2):
        play_hand(match)
    history = match.state.view(None)["hand_history"]
    assert [h["hand"] for h in history] == [1, 2]
    tie, win = history
    assert tie["winners"] == [1, 0] and tie["moved"] == {"0": 0, "1": 0}
    assert [(e["seat"], e["name"]) for e in tie["showdown"]] == [(1, "High Card"), (0, "High Card")]
    assert win["winners"] == [0] and win["moved"] == {"0": 1, "1": -1}
    assert win["showdown"][0] == {"seat": 0, "name": "Battalion", "cards": [
        "guard-infantry-2", "dragoon-1", "lancers-3", "six-pounders-3", "captain-2"]}  # in order of weight (R10)
    assert all(match.state.view(v)["hand_history"] == history for v in (0, 1))


def test_hand_history_never_shows_a_folded_hand() -> None:
    match = Match(GAME, "w0", {"players": 2})
    match.apply(act("raise", 1, amount=2))
    match.apply(act("fold", 0))
    (hand,) = match.state.view(None)["hand_history"]
    assert hand == {"hand": 1, "winners": [1], "showdown": None, "moved": {"0": -1, "1": 1}, "saved": {},
                    "knocked_out": []}  # no showdown: neither hand was shown, so neither is named


def play_hand(match: Match) -> None:
    """Everyone passes (or calls), draws and keeps, and stands at the reserve swap, to the end of the hand."""
    number = match.state.hand_number
    while match.state.hand_number == number and not match.state.is_terminal:
        legal = {a.kind: a for a in match.state.legal_actions()}
        match.apply(next(legal[k] for k in ("pass", "call", "draw", "keep", "stand", "pay") if k in legal))
