"""Bots at the table in real `muster app` processes: the runner of the app's lifespan moves for the bot.

In warfare, imperial, medieval and hexbattle a table played to near its end through the table service is
handed to a bot, and a phone plays it out against the bot, the bot's moves showing on the player's phone and a spectator's.
Waterloo's, with the fewest chips a table may start with, is handed to the bot at its first hand's final betting. A server killed (SIGKILL)
while its bot thinks moves once after its restart; two servers on one PostgreSQL database, each running the bots,
never move twice for one turn, also when one of them dies mid-game. Outside the browser the player's moves go
through the table service from the test, as a phone's tap does; the bots' always come from the servers.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import TIMEOUT, sharing
from test_browser import Server, player_taps, settle, tap_move, wait_moves

from engine.core import Match

from companion import bot_seats
from companion.store import DB_NAME, LogEntry, open_store
from companion.tables import Tables

PLAYED_OUT = 40  # turns a game near its end may still take on the phone
BOT_WAIT_S = 60  # generous: a loaded CI machine; a bot answers within DELAY_S plus its search


def human_moves(svc: Tables, table: Any, rng: random.Random) -> tuple[int, int]:
    """Ann (seat 1) moves at random until it is the bot's turn (or the game is over); the log's head then."""
    while True:
        snap = svc.snapshot(svc.store.table(table.id))
        if 0 in snap.state.players_to_act() or snap.state.is_terminal:
            return snap.head
        svc.act(table, 1, rng.choice(snap.state.legal_actions(1)))


def bot_answer(svc: Tables, table: Any, head: tuple[int, int]) -> LogEntry:
    """The bot's entry after the log head `head`, once a server stored it."""
    deadline = time.time() + BOT_WAIT_S
    while time.time() < deadline:
        newer = svc.store.log(table.id, head[0])
        if newer:
            return newer[0]
        time.sleep(0.1)
    raise AssertionError(f"no bot move after seq {head[0]} within {BOT_WAIT_S} s")


def answered(log: list[LogEntry]) -> None:
    """Every bot entry is the one answer to the head before it, and the log is whole (no seq twice or missing)."""
    heads = [(0, 0)] + [(e.seq, e.id) for e in log]
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    assert all(e.request_id == bot_seats.request_id(heads[i], 0) for i, e in enumerate(log) if e.seat == 0)


@pytest.fixture(scope="module")
def app(one_server: Server) -> Iterator[Server]:
    """The session's shared server (conftest's `sharing`): each test plays a table of its own."""
    with sharing(one_server) as srv:
        yield srv


def near_the_end(svc: Tables, game: str) -> Any:
    """A table of Bob (seat 1) and Ann (seat 2) played at random through the service up to Bob's last turn that Ann
    answered in the same game played to its end at random, then handed to a bot for Bob, as a host would."""
    seed = f"solo-{game}"
    table = svc.create(game, ["Bob", "Ann"], {}, seed=seed)
    sim, rng, moves = Match(svc.game(game), seed), random.Random(seed), []
    while not sim.state.is_terminal:
        seat = sim.state.players_to_act()[0]
        moves.append((seat, rng.choice(sim.state.legal_actions(seat))))
        sim.apply(moves[-1][1], len(moves))
    bobs = [i for i, (seat, _) in enumerate(moves) if seat == 0]  # the last of Bob's turns that Ann answered
    for seat, action in moves[:next((i for i in reversed(bobs) if any(s == 1 for s, _ in moves[i:])), bobs[-1])]:
        svc.act(table, seat, action)
    svc.give_to_bot(table, 0, "easy", table.host_token)
    return svc.store.table(table.id)


SHOTS = os.environ.get("MUSTER_SHOTS")  # a folder: save screenshots of the bot's first moves there


@pytest.mark.parametrize("game", ["warfare", "imperial", "medieval", "hexbattle"])  # waterloo: below
def test_a_phone_plays_a_bot_to_the_end(app: Server, new_phone: Any, game: str) -> None:
    svc = Tables(open_store(app.data_dir / DB_NAME))
    ann_picks = random.Random(f"ann-{game}")  # the move Ann looks for on her phone (the game ends as a random one)
    play_out(app, new_phone, svc, near_the_end(svc, game), lambda ann, state: player_taps(
        ann, state.label(ann_picks.choice(state.legal_actions(1)))))


def play_out(app: Server, new_phone: Any, svc: Tables, table: Any, ann_taps: Callable[[Any, Any], None]) -> None:
    """Ann (seat 1) plays the table to its end on her phone by `ann_taps(page, position)` against the bot that
    has played Bob's seat since the table's last entry; every bot move shows on her phone and a spectator's, told
    under Bob's name as a bot's, and both phones show the finished game."""
    game = table.game
    handed = svc.store.head(table.id)[0]  # the hand-over's notice: the bot moves from here on
    base = f"{app.url}/?table={table.code}"
    ann, watcher = new_phone(), new_phone()
    ann.goto(f"{base}&seat={table.seats[1].token}")
    watcher.goto(base)
    ann.get_by_text("You are Ann").first.wait_for(timeout=TIMEOUT)
    shots = 0
    for _ in range(PLAYED_OUT):
        table = svc.store.table(table.id)
        snap = svc.snapshot(table)
        if not table.playing:
            break
        if 1 not in snap.state.players_to_act():
            bot_answer(svc, table, snap.head)
            continue
        bot_moved = snap.head[0] > handed and snap.entries[-1].seat == 0
        bot_acts_too = 0 in snap.state.players_to_act()  # a simultaneous turn: the bot may move while we look
        for page, who in ((ann, "player"), (watcher, "spectator")):  # the bot's moves so far show on both phones
            try:
                wait_moves(page, snap.moves, within=TIMEOUT / 1000, at_least=bot_acts_too)
                if bot_moved:
                    page.locator(".st-key-news", has_text="Bob (bot, easy) ").wait_for(timeout=TIMEOUT)
            except Exception as err:
                raise AssertionError(f"{game}, the {who}'s phone: {err}") from None
            if SHOTS and bot_moved and shots < 2:
                page.screenshot(path=str(Path(SHOTS) / f"solo-{game}-{shots}-{who}.png"))
        shots += bot_moved
        ann_taps(ann, snap.state)
    else:
        raise AssertionError(f"{game}: the game did not end within {PLAYED_OUT} turns")
    bots = [e for e in svc.store.log(table.id, handed) if e.seat == 0]
    assert bots and all(e.request_id and e.request_id.startswith("bot-") for e in bots)
    entries = len(svc.store.log(table.id))
    for page in (ann, watcher):  # both phones show the finished game, its last move the last one stored
        page.get_by_text(f"Replay · move {entries} of {entries}").first.wait_for(timeout=TIMEOUT)


CAUTIOUS = ("Call", "Pass", "Draw", "Keep", "Pay the full bet")
"""Waterloo: the moves of a player who neither raises nor exchanges (keeps the card drawn and the reserve), by
their labels' first words, preferred in order."""


def bold_move(page: Any) -> Any:
    """Waterloo: the move button a player out to end the game soon taps, by its words: the largest raise, else
    calling, passing, drawing, keeping the card drawn, keeping the reserve, paying. Never by the deal."""
    texts: list[str] = []
    for _ in range(3):
        settle(page)
        buttons = page.locator(".st-key-moves .mp-btn:enabled")
        texts = [b.inner_text().strip() for b in buttons.all()]
        raises = [(int(m.group(1)), i) for i, t in enumerate(texts) if (m := re.match(r"Raise by (\d+) ", t))]
        if raises:
            return buttons.nth(max(raises)[1])
        for word in CAUTIOUS:
            named = [i for i, t in enumerate(texts) if t.startswith(word)]
            if named:
                return buttons.nth(named[0])
    raise AssertionError(f"Ann's phone offers no raise nor any of {', '.join(CAUTIOUS)}: {texts}")


def cautious(state: Any, seat: int) -> Any:
    """Waterloo through the service: the seat's first move, by its label, whose words CAUTIOUS prefers."""
    legal = {state.label(a): a for a in state.legal_actions(seat)}
    return next(legal[label] for word in CAUTIOUS for label in legal if label.startswith(word))


def test_a_phone_plays_waterloo_against_a_bot_to_the_end(app: Server, new_phone: Any) -> None:
    """Waterloo, shortened by its table options: 10 chips each (the new-table form's least) and two betting rounds
    a hand (the Quick game preset's). Ann (seat 1) and Bob pass, call and keep what they draw through the service
    up to hand 1's final betting round; the host hands Bob's seat to a bot, and Ann plays it out on her phone as
    a bold player would, by the buttons' words (`bold_move`). A bot that calls her all-in ends the game at the
    showdown; one that folds starts another hand (bounded by PLAYED_OUT). From hand 1's first move the phone
    takes ~28 s, most of it the bot's natural delay, so the drawing turns are played through the service."""
    svc = Tables(open_store(app.data_dir / DB_NAME))
    table = svc.create("waterloo", ["Bob", "Ann"], {"players": 2, "starting_chips": 10, "betting_rounds": 2},
                       seed="solo-waterloo")
    while not (svc.snapshot(table).state.phase == "bet" and svc.snapshot(table).state.round == 2):
        state = svc.snapshot(table).state
        seat = state.players_to_act()[0]
        svc.act(table, seat, cautious(state, seat))
    svc.give_to_bot(table, 0, "easy", table.host_token)
    play_out(app, new_phone, svc, svc.store.table(table.id), lambda ann, state: tap_move(ann, bold_move(ann)))


def test_a_bots_turn_survives_a_server_restart_without_a_double_move(app: Server) -> None:
    server = app  # killed and started again: the module's other tests find it serving
    svc = Tables(open_store(server.data_dir / DB_NAME))
    table = svc.create("medieval", bot_seats.names(["easy", None], ["", "Ann"]), {}, seed="restart-1",
                       bots={0: "easy"})
    rng = random.Random(1)
    bot_answer(svc, table, human_moves(svc, table, rng))  # a turn of the bot's as it comes
    before = human_moves(svc, table, rng)  # the bot's turn again: the server thinks for at least DELAY_S[0]
    server.proc.kill()  # type: ignore[union-attr]  # SIGKILL while it thinks: no goodbye
    server.proc.wait()  # type: ignore[union-attr]
    server.proc = None
    assert svc.store.log(table.id, before[0]) == []  # it had not moved yet
    server.start()
    answer = bot_answer(svc, table, before)
    assert answer.seat == 0 and answer.request_id == bot_seats.request_id(before, 0)
    bot_answer(svc, table, human_moves(svc, table, rng))  # the game goes on: the next turn is answered once too
    answered(svc.store.log(table.id))


def test_postgres_two_servers_with_one_bot_seat_never_move_twice(postgres_url: str, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSTER_DATABASE_URL", postgres_url)
    svc = Tables(open_store(postgres_url))
    table = svc.create("medieval", bot_seats.names(["easy", None], ["", "Ann"]), {}, seed="two-servers",
                       bots={0: "easy"})
    a, b = Server(tmp_path / "a"), Server(tmp_path / "b")
    a.start()
    b.start()
    try:
        rng = random.Random(2)
        for turn in range(4):
            before = human_moves(svc, table, rng)
            if svc.snapshot(svc.store.table(table.id)).state.is_terminal:
                break
            if turn == 2:  # server A dies while both think: B answers, once
                a.proc.kill()  # type: ignore[union-attr]
                a.proc.wait()  # type: ignore[union-attr]
                a.proc = None
            bot_answer(svc, table, before)
        log = svc.store.log(table.id)
        answered(log)
        assert sum(e.seat == 0 for e in log) >= 3
        assert not any(e.action.get("kind") == "notice" for e in log)  # no move refused on replay
    finally:
        a.stop()
        b.stop()
