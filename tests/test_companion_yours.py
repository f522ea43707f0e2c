"""A phone's own tables, records per game and game records (issue 30)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from companion_game import RaceGame, TallyGame  # noqa: E402

from companion.replay import load, record  # noqa: E402
from companion.store import open_store  # noqa: E402
from companion.tables import Tables  # noqa: E402
from companion.your_tables import result  # noqa: E402
from engine.core import Refusal, playable  # noqa: E402


def test_held_by_lists_the_tables_of_a_phone_newest_first(store_target: str) -> None:
    service = Tables(open_store(store_target), {"race": RaceGame()})
    first = service.create("race", ["Ann", "Bob"], {"players": 2})
    second = service.create("race", ["Cy", "Di", "Ed"], {"players": 3})
    service.hold(first, first.seats[1], "phone-a")
    service.hold(second, second.seats[0], "phone-a")
    service.hold(second, second.seats[2], "phone-b")
    assert [t.id for t in service.store.held_by("phone-a", 10)] == [second.id, first.id]
    assert [t.id for t in service.store.held_by("phone-b", 10)] == [second.id]
    assert service.store.held_by("phone-c", 10) == []
    assert [t.id for t in service.store.held_by("phone-a", 1)] == [second.id]
    service.concede(service.store.table(first.id), 1, "phone-a")
    ended = service.store.held_by("phone-a", 10)
    assert {t.id: t.playing for t in ended} == {first.id: False, second.id: True}, "an ended table stays the phone's"
    assert result(service.store.table(first.id)) == "Bob conceded, Ann won"


def test_records_are_per_game_and_per_player(store_target: str) -> None:
    service = Tables(open_store(store_target), {"race": RaceGame(), "tally": TallyGame()})
    service.concede(service.create("race", ["Ann", "Bob"], {"players": 2}), 1)
    service.concede(service.create("tally", ["ann", "Bob"], {"players": 2}), 0)
    by_game = {game: [(r.name, r.wins, r.losses) for r in rows] for game, rows in service.store.records_by_game().items()}
    assert by_game == {"race": [("Ann", 1, 0), ("Bob", 0, 1)], "tally": [("Bob", 1, 0), ("ann", 0, 1)]}


def test_a_game_record_loads_again_or_says_what_is_wrong(tmp_path: Path) -> None:
    """A record is one viewer's frames (`companion.replay`): it loads again as that viewer; a file of the first
    format (which held the shuffle), or damaged, or too big, is refused saying what is wrong and where."""
    service = Tables(open_store(tmp_path / "m.sqlite3"))
    table = service.create("warfare", ["Ann", "Bob"], {"first_player": 0}, seed="s0")
    service.act(table, 0, service.snapshot(table).state.legal_actions(0)[0])
    service.concede(table, 1)
    ended = service.store.table(table.id)
    entries = list(service.snapshot(ended).entries)
    mine = record(service, ended, entries, 0)
    raw = mine.dumps().encode()
    loaded = load(service, raw)
    assert loaded == mine and loaded.seen_as == "Ann" and loaded.winner == 0 and loaded.ended_by == "concede:1"
    assert [f.move for f in loaded.frames] == [0, 1]  # the opening and the one move (a concession is no move)
    assert loaded.frames[-1].prompt == "The game ended: Bob conceded, Ann won."
    assert loaded.frames[-1].view == service.snapshot(ended).seen_by(0).view(0)
    assert "hand" in loaded.frames[0].own and load(service, record(service, ended, entries, None).dumps().encode()) \
        .frames[0].own == ()
    assert table.seats[0].token not in raw.decode() and '"seed"' not in raw.decode()
    bad = json.loads(raw)
    frame = bad["frames"][1]
    for change, message in [({"format": "x"}, "not a Muster game record"),
                            ({"format": "muster-game-record/1", "seed": "s0"}, "first format .* held the game's shuffle"),
                            ({"game": "chess"}, "not a game"), ({"seats": []}, "list of the players' names"),
                            ({"seats": ["Ann", "B" * 41]}, "each of at most 40 characters"),
                            ({"viewer": 2}, "\"viewer\" must be a seat number \\(0 to 1\\)"),
                            ({"winner": 5}, "seat number .* or null"), ({"frames": []}, "1 to 20,000 steps"),
                            ({"frames": [bad["frames"][0], frame | {"move": 3}]}, "Step 1 .* \"move\": 1"),
                            ({"frames": [bad["frames"][0], frame | {"own": ["nothing"]}]}, "Step 1 .*keys of its"),
                            ({"frames": [bad["frames"][0], frame | {"view": {"a": [[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]}}]},
                             "Step 1 .*nested at most 16 deep")]:
        with pytest.raises(Refusal, match=message):
            load(service, json.dumps(bad | change).encode())
    with pytest.raises(Refusal, match="not JSON"):
        load(service, b"{")
    with pytest.raises(Refusal, match="nests too deep"):
        load(service, b"[" * 100_000)
    with pytest.raises(Refusal, match="number far too long"):
        load(service, json.dumps(bad).replace('"move": 1', '"move": 1' + "0" * 5_000, 1).encode())
    with pytest.raises(Refusal, match="at most 8,000,000"):
        load(service, b" " * 8_000_001)


def test_a_finished_table_replays_as_this_phones_seat_or_the_spectator_only(service: Tables) -> None:
    """A folded Waterloo hand was never shown to the others, and the seed turns no card over at the end: Bob's
    phone replays as Bob or as the spectator, never as Ann or Cleo, and the header names the viewer shown."""
    from apptest_helpers import page, page_text

    table = service.create("waterloo", ["Ann", "Bob", "Cleo"], {"players": 3}, seed="w3")
    service.concede(table, 0)
    service.concede(service.store.table(table.id), 1)
    ended = service.store.table(table.id)
    assert not ended.playing
    bob = page(table=ended.code, seat=ended.seats[1].token)
    text = page_text(bob)
    assert "You played Bob." in text and "You are Bob." not in text
    assert "· seen as Bob" in text
    viewers = [b.label for b in bob.button if b.key and "-as-" in b.key]
    assert viewers == ["✓ Bob", "Spectator"]
    next(b for b in bob.button if b.label == "Spectator").click().run()
    assert "· seen as the spectator" in page_text(bob)
    watcher = page(table=ended.code)
    assert "· seen as the spectator" in page_text(watcher)
    assert not [b for b in watcher.button if b.key and "-as-" in b.key], "a spectator's phone has no one to choose"


def test_the_host_link_is_in_your_tables(service: Tables) -> None:
    """A phone that opened a table's host link finds it under "Your tables" (with its seats' links), as a seat
    is: the lobby or Back never loses the host's page; another phone is not offered it."""
    from apptest_helpers import pad_buttons, page

    table = service.create("warfare", ["Ann", "Bob"], {}, seed="h")
    page(device="phone-h", table=table.code, host=table.host_token)
    assert service.store.table(table.id).host_device == "phone-h"
    lobby = page(device="phone-h")
    [mine] = [b for b in pad_buttons(lobby) if b.key == f"yours-{table.code}-host"]
    assert mine.label == f"Napoleonic Warfare · {table.code} — you host · 2 seats not taken yet"
    mine.click().run()
    assert dict(lobby.query_params) == {"table": table.code, "host": table.host_token}
    assert not [b for b in pad_buttons(page(device="phone-x")) if b.key.startswith("yours-")]
    service.hold(table, table.seats[0], "phone-h")  # the host takes Ann's seat on the same phone
    [both] = [b for b in pad_buttons(page(device="phone-h")) if b.key.startswith("yours-")]
    assert both.label.startswith(f"Napoleonic Warfare · {table.code} — you are Ann, the host · ")


def test_the_replay_shows_at_each_step_what_the_record_holds(service: Tables) -> None:
    """The replay page draws a step's status line and its lines straight from the position (the last step from the
    table's own snapshot, an earlier one replayed with its history), the record from one replay of the whole log:
    at the last, a middle and the first step, of a table with a move taken back and a table notice, they agree."""
    from apptest_helpers import html_bodies, html_text, page

    from companion.render import NOTE_ICONS

    table = service.create("warfare", ["Ann", "Bob"], {"first_player": 0}, seed="r7")
    rng, undone = random.Random(3), False
    for n in range(10):
        state = service.snapshot(table).state
        seat = state.players_to_act()[0]
        service.act(table, seat, rng.choice(playable(state.legal_actions(seat))))
        if n == 2:
            service.notice(table, "{p1} stepped out.")
        if n > 2 and not undone and service.snapshot(table).match.undo_refusal(seat) is None:
            service.undo(table, seat)
            undone = True
    service.concede(table, 1)
    ended = service.store.table(table.id)
    entries = list(service.snapshot(ended).entries)
    kinds = [e.action["kind"] for e in entries]
    assert "undo" in kinds and "notice" in kinds, kinds
    frames = record(service, ended, entries, 0).frames
    ann = page(table=ended.code, seat=ended.seats[0].token)
    for step in (len(entries), 4, 0):
        ann.session_state[f"replay-{ended.code}-{ended.id}-step"] = step
        ann.run()
        status = NOTE_ICONS["info"] + frames[step].prompt  # the note's symbol, then the status line
        shown = [html_text(b).splitlines() for b in html_bodies(ann) if html_text(b).startswith(status)]
        assert shown == [[status, *frames[step].lines]], step
        assert frames[step].lines or step == 0, "each move of this table has its lines"
