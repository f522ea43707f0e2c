"""A table the players can trust (issue 10), page side, with AppTest over a real store: taps mean what the player
saw, names are plain text, and bad input or a damaged store gives a message, never a traceback."""

from __future__ import annotations

import sqlite3

import pytest
from apptest_helpers import (  # noqa: F401 (race: fixture)
    button, carry_out, confirm, html_bodies, html_text, move_keys, notes, offered, pad_buttons, pad_notices, pads, page, page_text,
    race, surface_blocks, tap_element, tap_pad, typed_move)

from companion.render import Sheet, plain
from companion.tables import ELSEWHERE, STALE, UNNAMED, Tables
from engine.core import Refusal, act

PIXEL = "![p](http://10.9.9.9/p.png) Mallory"
FORGED = "Nia | 99 | 0 | 0 |"


def test_a_tap_offered_before_the_table_moved_on_does_nothing(race: Tables) -> None:
    table = race.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    ann = page(table=table.code, seat=table.seats[0].token)
    race.act(table, 0, act("bank", 0, amount=1))  # Ann's other phone was quicker
    button(ann, "Roll the die").click().run()
    assert not ann.exception
    assert [w.value for w in ann.warning] == [STALE]
    entries = race.snapshot(table).entries
    assert [e.action["kind"] for e in entries] == ["bank"]
    assert "Waiting for Bob to make a move." in page_text(ann) and move_keys(ann) == []


def test_a_tap_on_a_pad_the_page_no_longer_draws_says_the_table_moved_on(race: Tables) -> None:
    """The phone showed a pad the server has since drawn away (another phone's move redrew the page before the
    tap arrived): the tap is not carried out, and the player reads why instead of seeing it vanish."""
    table = race.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    ann = page(table=table.code, seat=table.seats[0].token)
    element, drawn = pads(ann)["move-list"]
    move = drawn["items"][0]
    tap_element(ann, element, {"pad": "moves-of-a-page-gone", "id": move["id"], "value": move["value"],
                               "head": drawn["head"], "label": move["label"]})
    assert not ann.exception and [w.value for w in ann.warning] == [STALE]
    assert race.snapshot(table).entries == ()
    tap_element(ann, element, {"pad": 7, "id": move["id"]})  # names no pad at all: junk, not a lost tap
    assert not ann.exception and [w.value for w in ann.warning] == [] and race.snapshot(table).entries == ()


def test_a_seats_move_sent_from_a_spectators_page_moves_nothing(race: Tables) -> None:
    """A tap is a trigger of an element of the sender's own page: a spectator's page forging a seat's move (its
    pad, item, value and position, read off the seat's page) names a pad that page does not draw, so nothing is
    done and the spectator reads that the table moved on."""
    table = race.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    ann = page(table=table.code, seat=table.seats[0].token)
    _, drawn = pads(ann)["move-list"]
    bank = next(item for item in drawn["items"] if item["label"].startswith("Bank"))
    watcher = page(table=table.code)
    assert "move-list" not in pads(watcher)
    element = next(e for e, _ in surface_blocks(watcher) if e.endswith("-table-0"))  # the spectator's table part
    tap_element(watcher, element, {"pad": "move-list", "id": bank["id"], "value": bank["value"],
                                   "head": drawn["head"], "label": bank["label"]})
    assert not watcher.exception and [w.value for w in watcher.warning] == [STALE]
    assert race.snapshot(table).entries == ()


def test_a_tap_offered_before_a_notice_still_counts_and_the_log_counts_moves_only(race: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSTER_DEBUG", "1")
    table = race.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    ann = page(table=table.code, seat=table.seats[0].token)
    ann.selectbox(key="other-kind").set_value("roll").run()  # typed in: chance, so the page asks in its dialog
    typed_move(ann).click().run()
    race.notice(table, "{p1}'s seat was opened on another phone, which now plays it.")  # keeps the position
    confirm(ann)
    assert not ann.exception and [w.value for w in ann.warning] == [], [w.value for w in ann.warning]
    assert [e.action["kind"] for e in race.snapshot(table).entries] == ["notice", "roll"]
    assert "Moves so far (1)" in page_text(ann).splitlines()


def test_move_buttons_name_their_action_and_position_and_none_is_preselected(race: Tables) -> None:
    table = race.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    race.act(table, 0, act("bank", 0, amount=1))
    head = race.store.head(table.id)
    bob = page(table=table.code, seat=table.seats[1].token)
    keys = move_keys(bob)
    assert len(keys) == 2 and {k.split("-")[1] for k in keys} == {"roll", "bank"}
    moves = [b for b in pad_buttons(bob) if b.key in keys]
    assert [b.head for b in moves] == [list(head)] * 2  # each tap carries the position it was offered at
    assert not any(b.primary for b in moves)


def test_names_are_plain_text_on_the_lobby_and_the_table(race: Tables) -> None:
    table = race.create("race", [PIXEL, FORGED], {"players": 2, "target": 1})
    race.act(table, 0, act("bank", 0, amount=1))  # Mallory wins
    lobby = page()
    assert not lobby.exception
    records = next(m.value for m in lobby.markdown if "| Player |" in m.value)
    assert records.splitlines()[2:] == [f"| {plain(PIXEL)} | 1 | 0 | 0 |", f"| {plain(FORGED)} | 0 | 1 | 0 |"]
    watcher = page(table=table.code)
    sheets = html_bodies(watcher)
    assert any(PIXEL in html_text(body) for body in sheets)  # shown as typed
    assert not any("<img" in body or "<a " in body for body in sheets)  # never as markup
    for text in [m.value for m in [*watcher.markdown, *lobby.markdown]] + [str(b.label) for b in lobby.button]:
        assert PIXEL not in text and FORGED not in text  # never as raw Markdown
    assert f"The game is over: {PIXEL} won." in notes(watcher, "info")


def test_a_name_longer_than_forty_characters_is_refused(race: Tables) -> None:
    with pytest.raises(Refusal, match="Seat 2's name has 41 characters; a name may have at most 40"):
        race.create("race", ["Ann", "B" * 41], {"players": 2})
    with pytest.raises(Refusal, match=r"Seat 1.s name contains an invisible character \(U\+202E RIGHT-TO-LEFT OVERRIDE\)"):
        race.create("race", ["Ann\u202eevil", "Bob"], {"players": 2})
    assert race.create("race", ["  Ann   Lee ", "B" * 40], {"players": 2}).seats[0].name == "Ann Lee"


def test_a_typed_move_of_the_wrong_shape_is_refused(service: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSTER_DEBUG", "1")
    table = service.create("warfare", ["Ann", "Bob"], {"first_player": 0}, seed="typed")
    at = page(table=table.code, seat=table.seats[0].token)
    kind = at.selectbox(key="other-kind").value
    field = next(t for t in at.text_input if str(t.key).startswith(f"arg-{kind}-"))
    field.input('["line"]')
    typed_move(at).click().run()
    assert not at.exception
    assert len(at.error) == 1 and not any("panel could not be drawn" in e.value for e in at.error)
    assert service.store.head(table.id) == (0, 0)
    hexes = service.create("hexbattle", ["Ann", "Bob"], {"quick_start": True}, seed="typed")
    seat = service.snapshot(hexes).state.players_to_act()[0]
    unit = next(a for a in service.snapshot(hexes).state.legal_actions(seat) if a.kind == "formation")["unit"]
    with pytest.raises(Refusal, match=r"\['line'\]"):  # the engine's words, or the table's if the engine has none
        service.act(hexes, seat, act("formation", seat, unit=unit, formation=["line"]))
    assert service.store.head(hexes.id) == (0, 0)


def test_options_of_the_wrong_shape_or_for_tests_only_are_refused_on_the_form(service: Tables,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSTER_DEBUG", "1")  # the JSON box is the developers'
    at = page()
    at.selectbox(key="new-game").set_value("hexbattle").run()
    for typed, refusal in [('{"scenario": {"terrain": [1, 2]}}', 'The scenario\'s "terrain" must be a table'),
                           ('{"dice": [6, 6, 6]}', "The option 'dice' is for tests only"),
                           ('["not", "an object"]', "must be a JSON object"),
                           ('{"scenario": ', "not valid JSON")]:
        at.text_area(key="opts-hexbattle").input(typed)
        at.button(key="FormSubmitter:new-hexbattle-Create table").click().run()
        assert not at.exception
        assert [refusal in e.value for e in at.error] == [True], (typed, [e.value for e in at.error])
    assert service.store.tables() == []


def test_a_damaged_action_row_is_set_aside_with_a_notice_and_kept(race: Tables) -> None:
    """A row that cannot be read no longer shuts the table: every phone reads which row was set aside and why,
    the game goes on from before it, and the log keeps the row as it was."""
    table = race.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    race.act(table, 0, act("roll", 0))
    with sqlite3.connect(race.store.path) as conn:
        conn.execute("UPDATE actions SET action='{\"kind\": \"roll\"}' WHERE table_id=?", (table.id,))
    race._cache.clear()
    at = page(table=table.code, seat=table.seats[1].token)
    assert not at.exception and not at.error
    assert notes(at, "info")[0] == ("Stored move 1 was set aside: it cannot be read (KeyError: 'player'). The game "
                                     "goes on without it; the log keeps it as it was.")
    assert race.store.log(table.id)[0].action == {"kind": "roll"}
    race.act(table, 0, act("roll", 0))  # Ann's turn again: the position from before the row
    assert [e.action for e in race.store.log(table.id)][1] == act("roll", 0).to_json()


def test_a_seat_opened_on_a_second_phone_moves_there(race: Tables) -> None:
    table = race.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    first = page(device="phone-a", table=table.code, seat=table.seats[0].token)
    assert race.store.table(table.id).seats[0].device == "phone-a" and len(move_keys(first)) == 2
    second = page(device="phone-b", table=table.code, seat=table.seats[0].token)
    assert race.store.table(table.id).seats[0].device == "phone-b" and len(move_keys(second)) == 2
    notice = "Ann's seat was opened on another phone, which now plays it."
    first.run()  # the first phone's next draw (its poll notices the change)
    assert ELSEWHERE in [w.value for w in first.warning] and move_keys(first) == []
    assert "seat-tools" not in pads(first)
    assert notice in notes(first, "info")
    assert notice in notes(page(table=table.code), "info")
    with pytest.raises(Refusal, match="another phone"):
        race.act(race.store.table(table.id), 0, act("bank", 0, amount=1), device="phone-a")
    first.button(key="hold-again").click().run()  # the player takes it back on the first phone
    assert race.store.table(table.id).seats[0].device == "phone-a" and len(move_keys(first)) == 2
    page(device="phone-a", table=table.code, seat=table.seats[0].token)  # a reload on the same phone: no notice
    assert [e.action["kind"] for e in race.store.log(table.id)] == ["notice", "notice"]


def test_a_session_without_a_device_id_cannot_act_for_a_seat_another_phone_holds(race: Tables) -> None:
    """Issue 29: a session that never reported an id (or reported one out of bounds, which counts as none) was let
    act for a seat another phone holds; a 2,000,000-character id was stored as is, slowing every read."""
    table = race.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    page(device="phone-a", table=table.code, seat=table.seats[0].token)
    for forged in (None, "x" * 2_000_000, "phone a", ""):
        at = page(device=forged, table=table.code, seat=table.seats[0].token)
        assert race.store.table(table.id).seats[0].device == "phone-a"  # the forged id is not stored
        carry_out(at, button(at, "Bank 1 point"))  # the page offers the moves until it hears which phone it is
        assert not at.exception and race.snapshot(race.store.table(table.id)).entries == ()
        assert UNNAMED in page_text(at)
    with pytest.raises(Refusal, match=UNNAMED.split(";")[0]):
        race.act(race.store.table(table.id), 0, act("bank", 0, amount=1), device=None)
    race.act(race.store.table(table.id), 0, act("bank", 0, amount=1), device="phone-a")
    assert [e.action["kind"] for e in race.snapshot(race.store.table(table.id)).entries] == ["bank"]


def test_undo_is_refused_after_chance_and_the_page_says_why(race: Tables) -> None:
    table = race.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    ann = page(table=table.code, seat=table.seats[0].token)
    carry_out(ann, button(ann, "Roll the die"))
    undo = offered(ann, "undo")
    assert undo.disabled and "chance decided part of it" in undo.help
    with pytest.raises(Refusal, match="chance decided part of it"):
        race.undo(race.store.table(table.id), 0)
    assert [e.action["kind"] for e in race.store.log(table.id)] == ["roll"]


def test_a_malformed_or_repeated_pad_tap_does_nothing_harmful(race: Tables) -> None:
    table = race.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    ann = page(table=table.code, seat=table.seats[0].token)
    pad_id = "move-list"
    tap_pad(ann, pad_id, {"id": "move-roll", "value": {"kind": "roll"}, "head": [1, 0]})  # no player: not a move
    assert not ann.exception
    assert pad_notices(ann) == [("error", "That tap could not be read as a move; nothing was done.", "move-roll")]
    for junk in ("nonsense", None, {"id": 7}, {"id": "move-roll", "value": {}, "head": "1-0"}):
        tap_pad(ann, pad_id, junk)
        assert not ann.exception
    assert list(race.snapshot(table).entries) == []
    bank = next(b for b in pad_buttons(ann) if b.key.startswith("move-bank"))
    bank.run()
    bank.run()  # the same tap again, from the page as it was (a double tap): the store keeps it once
    assert [e.action["kind"] for e in race.snapshot(table).entries] == ["bank"]
    assert not ann.exception and pad_notices(ann) == [] and [e.value for e in ann.error] == []


def test_a_sheet_shows_a_players_text_as_typed_and_never_as_markup() -> None:
    name = "<img src=x onerror=alert(1)> [link](javascript:alert(1)) **Bold**"
    sheet = Sheet()
    with sheet.box(key="private"):
        sheet.markdown(f"**{plain(name)}** holds 3 cards")
    sheet.note("info", f"{plain(name)} conceded.")
    sheet.lines([name], "muster-log")
    markup = sheet.markup()
    assert "<img" not in markup and "<a " not in markup and "href" not in markup and "<strong>Bold" not in markup
    assert html_text(markup).splitlines() == [f"{name} holds 3 cards", f"ℹ{name} conceded.", name]
    assert '<div class="muster-box st-key-private">' in markup  # found as Streamlit's keyed container would be
    assert '<div class="muster-note muster-note-info" role="status">' in markup
    assert Sheet().markup() == ""  # an empty sheet draws nothing


def test_a_positions_questions_are_worked_out_once_and_change_with_the_position(race: Tables,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Each phone asks, for every button it draws, whether the move could be taken back (a trial move each): the
    answer of a position is kept, and a new position asks again."""
    from engine.core import Match

    tried = []
    real = Match.ahead_refusal
    monkeypatch.setattr(Match, "ahead_refusal", lambda match, *args: tried.append(1) or real(match, *args))
    table = race.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    roll, bank = act("roll", 0), act("bank", 0, amount=1)
    reason = "This move cannot be taken back: chance decides part of it (a shuffle, draw or dice roll)."
    assert [race.consequence(table, 0, a) for a in (roll, bank, roll, bank)] == [reason, None, reason, None]
    assert len(tried) == 2
    race.act(table, 0, bank)  # a new position: asked again
    race.act(table, 1, act("bank", 1, amount=1))
    tried.clear()
    assert race.consequence(table, 0, roll) == reason and len(tried) == 1


def test_a_store_fault_in_the_table_part_shows_musters_words_and_the_page_comes_back(race: Tables, tmp_path) -> None:
    """Issue 29: the table part is a fragment, and a store fault there escaped to Streamlit's own error box. Now the
    part shows Muster's message (what happened, that nothing acknowledged is lost, what to do) with no path, and
    the page draws again once the store answers."""
    from companion.faults import FAULT, KEPT

    table = race.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    ann = page(table=table.code, seat=table.seats[0].token)
    carry_out(ann, button(ann, "Roll the die"))
    path = tmp_path / "muster.sqlite3"
    aside = tmp_path / "aside.sqlite3"
    path.rename(aside)
    path.write_bytes(b"")  # another file where the store was: every read is refused
    try:
        button(ann, "↩ Undo my last move").click().run()  # a tap in the table part: a fragment's run
        assert not ann.exception
        said = [e.value for e in ann.error]
        assert said[-1] == ("The table store was replaced by another file while the companion was running. Muster "
                            f"will not write to it; restart the companion to use the new file. {KEPT}")
        assert not any(str(tmp_path) in text for text in said) and ann.session_state[FAULT]
    finally:
        aside.replace(path)  # the store is back
    ann.run()
    assert not ann.exception and not ann.error
    assert [e.action["kind"] for e in race.snapshot(race.store.table(table.id)).entries] == ["roll"]
