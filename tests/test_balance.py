"""`muster balance`: exact figures, the same bytes whatever plays the shards (1 or 2 processes, a stopped and
resumed run, a real Dask cluster), an offline HTML report with its charts drawn, and a removal test that finds
a card made strong on purpose.

Imperial (a battle is 14 decisions) keeps the runs short; the removal test uses warfare, whose cards have forces.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from balance.command import execute, plan
from balance.observe import observer
from balance.play import MAX_MOVES, POLICIES, Gap, play
from balance.run import play_run
from balance.shard import design_map, prepared, run_shard
from balance.variants import load
from companion.cli import main
from engine import make_game
from engine.core import Action
from apptest_helpers import race  # noqa: F401  (the fixture: the companion pages need a store)
from test_cli import muster

ROOT = Path(__file__).resolve().parent.parent


def small(tmp: Path, workers: int = 1, scheduler: str | None = None) -> bytes:
    """A small imperial run's balance.json: 120 games, seed 3, the removal test for cavalry on 40 seeds."""
    run = plan("imperial", "random,random", 120, 3, None, 40, "cavalry")
    execute(run, tmp, workers, scheduler)
    return (tmp / "balance.json").read_bytes()


def test_small_report_has_exact_figures(tmp_path: Path) -> None:
    report = json.loads(small(tmp_path))
    assert report["games"] == 120 and report["left_out"] == 0
    assert report["draws"]["draws"] == 1
    assert [(s["seat"], s["wins"], s["n"], s["low"], s["high"]) for s in report["seats"]] == [
        (1, 55, 119, 0.3752, 0.5515), (2, 64, 119, 0.4485, 0.6248)]  # shares of the games with a winner
    assert report["edge_games"] == 9550  # 1.96² · p(1-p) / 0.01², p = 55/119
    decisions = report["length"]["decisions"]
    assert (decisions["p50"], decisions["mean"], report["length"]["rounds"]["p95"]) == (13, 13.0917, 9)
    assert report["drama"]["lead_changes"]["mean"] == 1.1333
    assert report["drama"]["winner_trailed_at_midpoint"] == {"n": 119, "trailed": 25, "rate": 0.2101,
                                                             "low": 0.1465, "high": 0.2918}
    cavalry = next(c for c in report["cards"] if c["design"] == "cavalry")
    assert cavalry["dealt"] == {"n": 88, "wins": 45, "rate": 0.5114, "low": 0.4087, "high": 0.6131,
                                "effect": 0.0114, "flag": False}
    assert cavalry["removal"]["win_rate"]["n"] == 33
    assert cavalry["removal"]["decisions"]["n"] == 40
    assert report["gaps"] == {"counts": {}, "examples": []}


def test_seat_wins_and_lengths_are_those_of_the_games_played_one_by_one(tmp_path: Path) -> None:
    """The merged shards count what playing each game on its own gives (independent of shards and merging)."""
    report = json.loads(small(tmp_path))
    run = plan("imperial", "random,random", 120, 3, None, 0, None)
    data = load(run.game, run.files)
    game = make_game(data)
    records = [play(game, observer(game), ["random", "random"], 3, k, design_map(data)) for k in range(120)]
    assert [s["wins"] for s in report["seats"]] == [sum(r.winner == s for r in records) for s in (0, 1)]
    assert report["length"]["decisions"]["counts"] == sorted(
        [v, sum(r.decisions == v for r in records)] for v in {r.decisions for r in records})


def test_one_or_two_workers_and_a_stopped_run_give_the_same_bytes(tmp_path: Path) -> None:
    one = small(tmp_path / "one", workers=1)
    assert small(tmp_path / "two", workers=2) == one
    run = plan("imperial", "random,random", 120, 3, None, 40, "cavalry")
    stopped = tmp_path / "stopped"
    assert len(play_run(run, stopped, 1, limit=1)) == 1  # one shard of two kept, then the run stops
    assert len(list((stopped / "shards").glob("*/*.json"))) == 1
    assert small(stopped, workers=2) == one


def test_a_worker_loads_the_data_once_for_all_its_shards() -> None:
    """The first shard of a fresh worker reads the data once (one load, no second look-up of it), the next none."""
    run = plan("imperial", "random,random", 4, 3, None, 0, None)
    load.cache_clear()
    prepared.cache_clear()
    first, second = dataclasses.replace(run.specs()[0], count=2), dataclasses.replace(run.specs()[0], start=2, count=2)
    run_shard(first)
    assert (load.cache_info().misses, load.cache_info().hits) == (1, 0)
    run_shard(second)
    assert (load.cache_info().misses, load.cache_info().hits) == (1, 0)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def dask_cluster(tmp_path: Path) -> Iterator[str]:
    """A real Dask cluster: `dask scheduler` and two `dask worker` processes, on free ports of this machine."""
    pytest.importorskip("distributed")
    dask = Path(sys.executable).parent / "dask"
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    logs = [open(tmp_path / f"dask-{i}.log", "w") for i in range(3)]
    procs = [subprocess.Popen([str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--dashboard-address", ":0"], env=env, cwd=tmp_path, stdout=logs[0], stderr=logs[0])]
    from distributed import Client

    try:
        for i in (1, 2):
            procs.append(subprocess.Popen([str(dask), "worker", address, "--nworkers", "1", "--nthreads", "1",
                                           "--no-dashboard", "--local-directory", str(tmp_path / f"w{i}")],
                                          env=env, cwd=tmp_path, stdout=logs[i], stderr=logs[i]))
        with Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        yield address
        with Client(address, timeout="30s") as client:
            client.shutdown()  # scheduler and workers close together, faster than a signal to each
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        for log in logs:
            log.close()


def test_a_dask_cluster_gives_the_same_bytes_as_the_local_pool(tmp_path: Path, dask_cluster: str) -> None:
    assert small(tmp_path / "dask", scheduler=dask_cluster) == small(tmp_path / "local", workers=1)


def test_bad_arguments_are_refused_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    unreachable = f"tcp://127.0.0.1:{_free_port()}"
    for args, words in ((["nogame"], "there is no game called 'nogame'"),
                        (["imperial", "--players", "random,clever"], "There is no player called 'clever'"),
                        (["imperial", "--players", "random"], "imperial is a game for 2 players, so name 2, not 1"),
                        (["warfare", "--remove", "nosuch"], "--remove: warfare's cards table has no design 'nosuch'"),
                        (["imperial", "--games", "0"], "--games must be 1 or more, not 0"),
                        (["imperial", "--workers", "0"], "--workers must be 1 or more, not 0"),
                        (["imperial", "--replay", "-1"], "--replay: games are numbered from 0, not -1"),
                        (["imperial"], "--out DIR is needed"),
                        (["imperial", "--scheduler", unreachable, "--out", str(tmp_path)],
                         f"--scheduler: cannot reach a Dask scheduler at {unreachable}")):
        assert main(["balance", *args]) == 2, args
        err = capsys.readouterr().err
        assert words in err, (args, err)


def test_cli_writes_report_prints_summary_and_replays_a_game(tmp_path: Path) -> None:
    result = muster("balance", "imperial", "--games", "40", "--seed", "3", "--removal-games", "0",
                    "--workers", "1", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "Imperial Battles: 40 games (random, random, seats rotated, seed 3)" in result.stdout
    assert "a 1-point seat edge needs about" in result.stdout
    assert "  length: median 15 decisions (5-95%: 4-25); lead changes per game: median 1 (5-95%: 0-3, n=40)\n" \
        in result.stdout  # a distribution with its n, not a bare mean
    assert (tmp_path / "balance.json").is_file() and (tmp_path / "balance.html").is_file()
    replay = muster("balance", "imperial", "--games", "40", "--seed", "3", "--replay", "7")
    assert replay.returncode == 0, replay.stderr
    lines = replay.stdout.splitlines()
    assert lines[0].startswith("    1  seat ")
    data = load("imperial", plan("imperial", "random,random", 40, 3, None, 0, None).files)
    game = make_game(data)
    record = play(game, observer(game), ["random", "random"], 3, 7, design_map(data))
    assert lines[-1] == f"game 7: seat {record.winner + 1} won after {record.decisions} moves"
    assert len(lines) == record.decisions + 1


def test_html_opens_offline_with_every_chart_drawn(tmp_path: Path, launch_chromium: Any) -> None:
    """Offline, every chart has its marks and labels, the findings come first, and a phone's width holds the page."""
    run = plan("waterloo", "random,random", 6, 0, None, 0, None)
    execute(run, tmp_path, 1, None)
    browser = launch_chromium()
    page = browser.new_page()
    outside: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.goto((tmp_path / "balance.html").as_uri())
    for chart in ("seats", "length", "cards-dealt", "combos"):
        assert page.locator(f"figure#{chart} svg path").count() > 3, chart
        assert page.locator(f"figure#{chart} svg text").count() > 3, chart
    assert page.title() == "Waterloo: balance report"
    assert page.locator("h1").inner_text() == "Waterloo"
    assert page.locator(".findings dt").all_inner_texts() == ["Seats", "Length", "Drama", "Cards", "Rules gaps"]
    assert outside == []
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: wide tables scroll in their box, not the page
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    page.close()


def test_removal_finds_a_unit_made_strong_on_purpose(tmp_path: Path) -> None:
    """Warfare's Sappers with force 10 instead of 1: taking the card out costs the side that played it most
    a clear share of its wins (the interval excludes zero) and makes the games longer; a card left as shipped
    (Musketeers, force 2) shows no effect on the same seeds."""
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards" / "warfare", cards / "warfare")
    csv = cards / "warfare" / "cards.csv"
    text = csv.read_text(encoding="utf-8")
    assert "\nsappers,Sappers,IU,1," in text
    csv.write_text(text.replace("\nsappers,Sappers,IU,1,", "\nsappers,Sappers,IU,10,"), encoding="utf-8")
    run = plan("warfare", "random,random", 200, 0, cards, 200, "sappers,musketeers")
    report = execute(run, tmp_path / "out", 2, None)
    by_id = {c["design"]: c for c in report["cards"]}
    strong = by_id["sappers"]["removal"]
    assert strong["win_rate"]["flag"] and strong["win_rate"]["low"] > 0
    assert strong["decisions"]["flag"] and strong["decisions"]["low"] > 0
    assert not by_id["musketeers"]["removal"]["win_rate"]["flag"]


def test_companion_page_shows_each_games_latest_report_with_streamlit_charts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, race: Any) -> None:
    """Two imperial reports (the newer one wins) and one medieval report: a tab per game, three charts each
    (seat intervals, the length histogram and card effects, each through st.altair_chart)."""
    from apptest_helpers import page, page_text

    older, newer = tmp_path / "imperial-old", tmp_path / "imperial"
    execute(plan("imperial", "random,random", 20, 1, None, 0, None), older, 1, None)
    execute(plan("imperial", "random,random", 30, 2, None, 0, None), newer, 1, None)
    os.utime(older / "balance.json", (time.time() - 60, time.time() - 60))
    execute(plan("medieval", "random,random", 10, 0, None, 0, None), tmp_path / "medieval", 1, None)
    monkeypatch.setenv("MUSTER_BALANCE_DIR", str(tmp_path))
    at = page(page="balance")
    assert [t.label for t in at.tabs] == ["Imperial Battles", "Reenforcements (Medieval Edition)"]
    text = page_text(at)
    assert "30 games, random, random, seats rotated, seed 2" in text
    assert "20 games" not in text
    assert len(at.get("vega_lite_chart")) == 6


def test_companion_page_without_reports_says_how_to_make_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, race: Any) -> None:
    from apptest_helpers import page, page_text

    monkeypatch.setenv("MUSTER_BALANCE_DIR", str(tmp_path / "none"))
    assert f"No balance report yet in {tmp_path / 'none'}/" in page_text(page(page="balance"))


def test_rules_gaps_name_the_game_and_move_and_replay_there(tmp_path: Path) -> None:
    """Warfare with a 6-turn limit: every game ends on the limit, a gap the report lists with its game, move and
    the command that plays it again, and that command stops at the same move."""
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards" / "warfare", cards / "warfare")
    toml = cards / "warfare" / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("turn_limit = 200 ", "turn_limit = 6 "), encoding="utf-8")
    report = execute(plan("warfare", "random,random", 12, 5, cards, 0, None), tmp_path / "out", 1, None)
    assert report["gaps"]["counts"] == {"turn limit": 12}
    assert report["games"] == 12  # the rules decided these games on troops: they count
    first = report["gaps"]["examples"][0]
    assert (first["kind"], first["game"]) == ("turn limit", 0)
    assert first["replay"] == "muster balance warfare --seed 5 --players random,random --cards DIR --replay 0"
    replayed = muster("balance", "warfare", "--seed", "5", "--players", "random,random", "--cards", str(cards),
                      "--replay", "0")
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.splitlines()[-2] == (f"game 0: turn limit at move {first['move']}: "
                                                "the game ended on its turn or action limit")


def _troublemaker(game: Any, seats: int, seed: str) -> Any:
    """A seat that plays at random, except in game 1, where its second move is one imperial has no rule for
    (the engine raises), and in game 3, where on its first move of a round it empties the other side's hand
    behind the rules' back (that side is then to act with no move). The other games are ordinary."""
    game_no = seed.split(":")[1]
    made = 0

    def choose(state: Any, seat: int, rng: Any) -> Action | None:
        nonlocal made
        made += 1
        if game_no == "1" and made == 2:
            return Action("dragoons", seat)
        if game_no == "3" and len(state.players_to_act()) == 2:
            for pile in state.hands[1 - seat].values():
                pile.clear()
        return state.random_action(rng, seat)
    return choose


def _replayed(command: str, cards: Path | None, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What the report's replay command prints (run in this process, where the test's players exist)."""
    args = command.split()
    assert args[:2] == ["muster", "balance"]
    args = [str(cards) if a == "DIR" else a for a in args[1:]]
    assert main(args) == 0
    return capsys.readouterr().out.splitlines()


def test_an_exception_and_a_seat_with_no_move_are_gaps_the_run_goes_on_and_replays_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(POLICIES, "trouble", _troublemaker)
    report = execute(plan("imperial", "random,trouble", 6, 0, None, 0, None), tmp_path, 1, None)
    assert (report["games"], report["left_out"]) == (4, 2)  # the other four games count
    assert sum(s["wins"] for s in report["seats"]) + report["draws"]["draws"] == 4
    assert report["gaps"] == {"counts": {"exception": 1, "no legal move": 1}, "examples": [
        {"kind": "exception", "game": 1, "move": 3, "detail": "KeyError: 'dragoons'",
         "replay": "muster balance imperial --seed 0 --players random,trouble --replay 1"},
        {"kind": "no legal move", "game": 3, "move": 4, "detail": "seat 2 is to act and has no legal move",
         "replay": "muster balance imperial --seed 0 --players random,trouble --replay 3"}]}
    for gap in report["gaps"]["examples"]:
        lines = _replayed(gap["replay"], None, capsys)
        assert lines[-2] == f"game {gap['game']}: {gap['kind']} at move {gap['move']}: {gap['detail']}"
        assert lines[-1] == f"game {gap['game']}: no winner after {gap['move'] - 1} moves"
        assert lines[-3].startswith(f"{gap['move'] - (gap['kind'] == 'no legal move'):5d}  seat ")


def _spoiler(game: Any, seats: int, seed: str) -> Any:
    """A seat that plays at random, except that in game 2 the move that ends the battle (tried on a copy first) also
    wipes imperial's reserves behind the rules' back: the rules finish the game, and only reading the final position
    (its score) fails, as a rules bug showing at the very end would."""
    game_no = seed.split(":")[1]

    def choose(state: Any, seat: int, rng: Any) -> Action | None:
        action = state.random_action(rng, seat)
        trial, dice = state.clone(), random.Random()
        dice.setstate(rng.getstate())
        trial.play(action, dice)
        if game_no == "2" and trial.is_terminal:
            state.reserves = None
        return action
    return choose


def test_a_final_or_opening_position_the_report_cannot_read_is_a_gap_not_a_crash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The reads after the last move (score, round, limit) and before the first (the opening hands) are guarded like
    the moves: a failure is an exception gap with its game and move, the run goes on, and the replay stops there."""
    monkeypatch.setitem(POLICIES, "spoil", _spoiler)
    report = execute(plan("imperial", "random,spoil", 4, 0, None, 0, None), tmp_path, 1, None)
    assert (report["games"], report["left_out"]) == (3, 1)
    assert report["gaps"] == {"counts": {"exception": 1}, "examples": [
        {"kind": "exception", "game": 2, "move": 11,
         "detail": "reading the final position: TypeError: 'NoneType' object is not subscriptable",
         "replay": "muster balance imperial --seed 0 --players random,spoil --replay 2"}]}
    lines = _replayed(report["gaps"]["examples"][0]["replay"], None, capsys)
    assert lines[-2:] == ["game 2: exception at move 11: reading the final position: TypeError: "
                          "'NoneType' object is not subscriptable", "game 2: no winner after 11 moves"]
    game = make_game(load("imperial", plan("imperial", "random,random", 1, 0, None, 0, None).files))
    unreadable = dataclasses.replace(observer(game), held=lambda state, seat: state.no_such_pile[seat])
    record = play(game, unreadable, ["random", "random"], 0, 0, {})
    assert (record.winner, record.decisions, record.gap) == (None, 0, Gap(
        "exception", 0, "setting up: AttributeError: 'ImperialState' object has no attribute 'no_such_pile'"))


def test_a_game_going_round_in_circles_is_a_stuck_loop_at_the_move_cap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Warfare with its turn and action limits out of reach, between two players who always take the last move
    listed (hold, exchange, discard): nobody ever attacks, the troops never change, and the game is stopped at
    the move cap as a stuck loop (the lead score has not moved for its last STUCK_SPAN moves)."""
    monkeypatch.setitem(POLICIES, "passive", lambda game, seats, seed: lambda state, seat, rng: state.legal_actions(seat)[-1])
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards" / "warfare", cards / "warfare")
    toml = cards / "warfare" / "game.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace("turn_limit = 200 ", "turn_limit = 90000 ").replace(
        "action_limit = 6000 ", "action_limit = 90000 "), encoding="utf-8")
    report = execute(plan("warfare", "passive,passive", 1, 4, cards, 0, None), tmp_path / "out", 1, None)
    assert (report["games"], report["left_out"]) == (0, 1)
    assert report["gaps"] == {"counts": {"stuck loop": 1}, "examples": [
        {"kind": "stuck loop", "game": 0, "move": MAX_MOVES, "detail": f"still going after {MAX_MOVES} moves",
         "replay": "muster balance warfare --seed 4 --players passive,passive --cards DIR --replay 0"}]}
    lines = _replayed(report["gaps"]["examples"][0]["replay"], cards, capsys)
    assert lines[-2] == f"game 0: stuck loop at move {MAX_MOVES}: still going after {MAX_MOVES} moves"
    assert lines[-3].startswith(f"{MAX_MOVES:5d}  seat ")


def test_a_random_hexbattle_game_ends_on_the_board() -> None:
    """Hexbattle's balance games play the seed's battle, with no turn limit (R28): with the 30-turn limit every
    random game was a draw, the armies never meeting; game 0 of seed 0 has a winner on the board, on turn 460."""
    data = load("hexbattle", plan("hexbattle", "random,random", 1, 0, None, 0, None).files)
    game = make_game(data)
    record = play(game, observer(game), ["random", "random"], 0, 0, design_map(data))
    assert (record.winner, record.decisions, record.rounds, record.gap) == (1, 6283, 460, None)


def test_hexbattle_says_whether_a_seat_holds_a_design_as_its_list_of_holdings_does() -> None:
    """`Observer.has` answers `design in held(state, seat)` without listing the seat's holdings: checked for every unit
    type and card design, both seats, after every move of a random battle to its end (units are destroyed, cards drawn
    and played, and the answers go both ways)."""
    data = load("hexbattle", plan("hexbattle", "random,random", 1, 0, None, 0, None).files)
    game = make_game(data)
    obs = observer(game)
    assert obs.has is not None
    designs = sorted(set(design_map(data).values()))
    rng = random.Random("holds:5")  # 4,737 moves, and each side loses a unit
    state = game.new_state(rng, {})
    answers: set[bool] = set()
    while not state.is_terminal:
        for seat in (0, 1):
            held = obs.held(state, seat)
            for design in designs:
                assert obs.has(state, seat, design) == (design in held), (design, seat)
                answers.add(design in held)
        state.play(state.random_action(rng), rng)
    assert answers == {True, False}
    assert [len(state.alive(p)) for p in (0, 1)] == [len(army) - 1 for army in game.roster] and state.discard
