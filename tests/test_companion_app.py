"""The companion's pages, run headless with Streamlit's AppTest: lobby, table (seat and spectator), look-up, CLI errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from apptest_helpers import (APP, button, literal, move_keys, notes, offered, pad_buttons, pads, page, page_text, shut_folds,
                             tap_element, typed_move)
from apptest_helpers import race as service  # noqa: F401  (the fixture: here every table plays the test game)
from streamlit.testing.v1 import AppTest

from companion import cli, lookup, paths
from companion.tables import Tables


def test_lobby_lists_tables_and_records(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 1})
    service.create("race", ["Cy", "Di"], {"players": 2})
    service.act(table, 0, __import__("engine").act("roll", 0))
    at = page()
    assert not at.exception
    body = page_text(at)
    assert "Tables in progress" in body and any("Cy, Di" in b.label for b in pad_buttons(at))
    assert "| Ann | 1 | 0 | 0 |" in body and "| Bob | 0 | 1 | 0 |" in body


def test_create_table_from_the_form_then_hand_out_seats(service: Tables) -> None:
    at = page()
    at.text_input(key="seat-race-0").input("Ann")
    at.text_input(key="seat-race-1").input("Bob")
    at.button(key="FormSubmitter:new-race-Create table").click().run()
    assert not at.exception, at.exception
    tables = service.store.tables()
    assert len(tables) == 1 and [s.name for s in tables[0].seats] == ["Ann", "Bob"]
    assert at.query_params["table"] == tables[0].code and at.query_params["host"] == tables[0].host_token
    assert page_text(at).count("open this seat") == 2


def test_a_served_lobby_draws_the_new_table_form_from_its_second_run(service: Tables,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """On a server with the routes (a phone's browser, whose device probe reports at once), the first run leaves the
    form's widgets out, so the first screen's buttons need not wait for their scripts; the probe's report, or any
    later run, draws them."""
    monkeypatch.setattr(paths, "_base", None)  # put back after the test
    paths.serve_under("")
    creates = (lambda at: [b.key for b in at.button if "Create table" in str(b.key)])
    at = page()
    assert not at.exception, at.exception
    assert at.header[-1].value == "New table" and not at.selectbox and creates(at) == []
    assert [t.key for t in at.text_input] == ["join-code"]
    at.session_state["device"] = {"device": "a" * 32}  # the probe's report
    at.run()
    assert at.selectbox(key="new-game").value == "race" and creates(at) == ["FormSubmitter:new-race-Create table"]
    unreported = page().run()  # a phone whose probe has not reported: any second run (a tap) draws it too
    assert unreported.selectbox(key="new-game").value == "race"


def test_create_refusal_is_shown_not_raised(service: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not [t for t in page().text_area if str(t.key).startswith("opts-")], "no JSON box but in debug mode"
    monkeypatch.setenv("MUSTER_DEBUG", "1")
    at = page()
    at.text_area(key="opts-race").input('{"players": 2, "target": -3}')
    at.button(key="FormSubmitter:new-race-Create table").click().run()
    assert not at.exception
    assert any("target must be" in e.value for e in at.error)
    at.text_area(key="opts-race").input("{not json")
    at.button(key="FormSubmitter:new-race-Create table").click().run()
    assert any("not valid JSON" in e.value for e in at.error)
    for typed, said in [("[" * 999 + "]" * 999, "The options nest too deeply"),  # within the box's 2,000 characters
                        ('{"target": "' + "9" * 2_000 + '"}', "not valid JSON")]:  # cut at 2,000 by the box
        at.session_state["opts-race"] = typed  # as a forged form would send it
        at.button(key="FormSubmitter:new-race-Create table").click().run()
        assert not at.exception and any(said in e.value for e in at.error), [e.value for e in at.error]
    assert service.store.tables() == []


def test_join_by_code(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    at = page()
    at.text_input(key="join-code").input(table.code.lower())
    at.button(key="FormSubmitter:join-Join").click().run()
    assert at.query_params["table"] == table.code
    assert {b.label for b in pad_buttons(at)} >= {"Take seat: Ann", "Take seat: Bob", "Watch as spectator"}
    at = page()
    at.text_input(key="join-code").input("ZZZZZ")
    at.button(key="FormSubmitter:join-Join").click().run()
    assert any("No table has the code" in e.value for e in at.error)


def test_seat_sees_its_card_and_moves(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    state = service.snapshot(table).state
    at = page(table=table.code, seat=table.seats[0].token)
    assert not at.exception
    body = page_text(at)
    assert "You are Ann." in body and state.view(0)["your_card"] in body
    assert state.view(1)["your_card"] not in body
    roll = button(at, "Roll the die")  # chance decides a roll: it cannot be taken back, so the phone asks first
    assert roll.ask == {"question": "This move cannot be taken back: chance decides part of it (a shuffle, draw or "
                                    "dice roll).", "yes": "Yes, do it"} and not roll.primary
    assert [b.ask for b in pad_buttons(at) if b.key.startswith("move-bank")] == [None]  # banking can be taken back
    roll.run()  # the phone sends the tap once the player said "Yes, do it"
    assert service.store.head(table.id)[0] == 1
    assert "Waiting for Bob" in page_text(at)


def test_spectator_sees_no_private_card_and_cannot_act(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    state = service.snapshot(table).state
    at = page(table=table.code)
    body = page_text(at)
    assert "spectator" in body
    assert state.view(0)["your_card"] not in body and state.view(1)["your_card"] not in body
    assert move_keys(at) == [] and "seat-tools" not in pads(at)


def test_forged_seat_token_is_a_spectator(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    at = page(table=table.code, seat="forged-token")
    assert "This seat link no longer works" in page_text(at)
    assert move_keys(at) == []


def test_refused_typed_move_shows_the_engine_reason(service: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSTER_DEBUG", "1")
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    at = page(table=table.code, seat=table.seats[0].token)
    at.selectbox(key="other-kind").set_value("bank").run()
    at.text_input(key="arg-bank-amount").input("7")
    typed_move(at).click().run()
    assert not at.exception
    assert any("exactly 1 point" in e.value for e in at.error)
    assert service.store.head(table.id) == (0, 0)


def test_a_move_typed_on_a_page_the_table_has_left_does_nothing(service: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSTER_DEBUG", "1")
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    at = page(table=table.code, seat=table.seats[0].token)
    at.selectbox(key="other-kind").set_value("bank").run()
    at.text_input(key="arg-bank-amount").input("1")
    typed = typed_move(at)
    service.act(table, 0, __import__("engine").act("bank", 0, amount=1))  # Ann's other phone was quicker
    service.act(table, 1, __import__("engine").act("bank", 1, amount=1))  # and Bob answered: Ann's turn again
    typed.click().run()
    assert not at.exception
    assert [e.action["kind"] for e in service.store.log(table.id)] == ["bank", "bank"]  # not a third
    typed_move(at).click().run()  # typed again on the page as it is now: carried out
    assert [e.action["kind"] for e in service.store.log(table.id)] == ["bank", "bank", "bank"]


def test_undo_button_takes_back_own_move_only(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    ann = page(table=table.code, seat=table.seats[0].token)
    button(ann, "Bank 1 point").click().run()
    bob = page(table=table.code, seat=table.seats[1].token)
    assert offered(bob, "undo").disabled
    offered(ann, "undo").click().run()
    assert [e.action["kind"] for e in service.store.log(table.id)] == ["bank", "undo"]
    assert service.snapshot(table).state.rolls == []
    assert "Ann took back: made a move" in page_text(ann)
    bob.run()
    assert "Ann took back: made a move" in notes(bob, "info")


def test_concede_ends_the_table(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    at = page(table=table.code, seat=table.seats[1].token)
    offered(at, "concede").click().run()  # the phone sends it once its player said "Yes, concede"
    assert "The game ended: Bob conceded, Ann won." in page_text(at)
    assert move_keys(at) == []


def test_unknown_table_code(service: Tables) -> None:
    at = page(table="NOPE1")
    assert any("no table with the code" in e.value for e in at.error)


def test_lookup_search_and_deep_link(service: Tables) -> None:
    entry = next(e for e in lookup.index() if e.kind == "card")
    at = page(page="lookup")
    at.text_input(key="lookup-q").input(entry.title).run()
    assert not at.exception
    hit = next(b for b in at.button if entry.title in b.label)
    hit.click().run()
    assert at.query_params["game"] == entry.game
    at = page(**entry.params)
    assert not at.exception and entry.title in page_text(at)


def test_a_warfare_card_page_says_what_it_does_in_each_phase_once(service: Tables) -> None:
    at = page(game="warfare", card="howitzers")
    text = page_text(at)
    assert not at.exception
    assert ("- **Deploy**: Discard: your opponent discards one card at random.\n"
            "- **Attack**: With Artillery units only.\n"
            "- **Defend**: Discard to knock out one attacking Infantry unit.") in text
    assert text.count("knock out one attacking Infantry unit") == 1  # the printed text is not shown a second time


def test_deep_link_to_a_missing_card_explains(service: Tables) -> None:
    at = page(game="warfare", card="no-such-card")
    assert any("has no card 'no-such-card'" in e.value for e in at.error)


def test_lookup_finds_cards_of_every_game_with_data() -> None:
    games = {e.game for e in lookup.index() if e.kind == "card"}
    assert {"warfare", "medieval"} <= games
    assert lookup.search("zzzz-nothing") == []


def test_rule_entries_parse_headings_and_bold_rulings() -> None:
    text = ("# Rules\nIntro.\n## Rulings\n**R1 Morale rounds down.** Half of 7 is 3.\n"
            "**R2. Ties.** Replay.\n### R3: Heading ruling\nBody.\n## End\nBye.\n")
    entries = lookup.rule_entries("warfare", text)
    rules = {e.key: e for e in entries if e.kind == "rule"}
    assert rules["R1"].title == "R1 Morale rounds down" and rules["R1"].text == "Half of 7 is 3."
    assert rules["R3"].text == "Body."
    assert lookup.find({"game": "warfare", "rule": "r2"}, entries) is rules["R2"]
    assert [e.title for e in entries if e.kind == "section"] == ["Rules", "Rulings", "End"]


@pytest.mark.parametrize("argv, message", [
    (["app", "--port", "0"], "out of range"),
    (["app", "--port", "70000"], "out of range"),
    (["start", "--port", "99999"], "out of range"),
])
def test_cli_bad_port(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_unwritable_data_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert cli.main(["app", "--data-dir", str(blocker)]) == 2
    assert "is a file" in capsys.readouterr().err
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if not __import__("os").access(locked, __import__("os").W_OK):
            assert cli.main(["app", "--data-dir", str(locked)]) == 2
            assert "not writable" in capsys.readouterr().err
    finally:
        locked.chmod(0o700)


def test_corrupt_store_is_reported_in_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "muster.sqlite3").write_bytes(b"not a database " * 200)
    monkeypatch.setenv("MUSTER_DATA_DIR", str(tmp_path))
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception
    assert any("is damaged" in w.value and "fresh store" in w.value for w in at.warning)
    kept = list(tmp_path.glob("muster.sqlite3.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"not a database")


def test_server_helpers() -> None:
    from companion import server

    address = server.lan_ip()
    assert address.count(".") == 3
    assert server.companion_url(8501, "10.0.0.5") == "http://10.0.0.5:8501"
    art = server.terminal_qr("http://10.0.0.5:8501")
    assert len(art.splitlines()) > 10
    command = server.streamlit_command(9000)
    assert command[-1] != "" and "9000" in command and "0.0.0.0" in command


def test_cli_port_in_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert cli.main(["app", "--port", str(port), "--data-dir", str(tmp_path)]) == 2
    assert "already in use" in capsys.readouterr().err


def test_join_takes_a_free_seat_then_it_is_no_longer_offered(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    ann = page(table=table.code, join="1")
    button(ann, "Take seat: Ann").click().run()
    assert not ann.exception
    assert ann.query_params["seat"] == table.seats[0].token and "You are Ann." in page_text(ann)
    assert len(move_keys(ann)) == 2
    bob = page(table=table.code, join="1")
    labels = {b.label for b in pad_buttons(bob)}
    assert "Take seat: Bob" in labels and "Take seat: Ann" not in labels
    button(bob, "Watch as spectator").click().run()
    assert "seat" not in bob.query_params and "spectator" in page_text(bob)


def test_a_seat_taken_meanwhile_is_refused_with_a_message(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    slow = page(table=table.code, join="1")
    service.store.claim_seat(table.id, 1)  # another phone was quicker
    button(slow, "Take seat: Bob").click().run()
    assert not slow.exception
    assert any("Another phone has just taken that seat" in e.value for e in slow.error)
    assert "seat" not in slow.query_params and "You are watching as a spectator." in page_text(slow)


def test_opening_a_seat_link_claims_the_seat(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    page(table=table.code, seat=table.seats[1].token)
    assert [s.name for s in service.store.table(table.id).free_seats] == ["Ann"]


def test_host_link_hands_out_free_seats_only_and_reissues_one(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    service.store.claim_seat(table.id, 1)
    host = page(table=table.code, host=table.host_token)
    assert not host.exception
    body = page_text(host)
    assert f"seat={table.seats[0].token}" in body and table.seats[1].token not in body  # a taken seat's link: never
    assert "**Ann** · free" in body and "**Bob** · taken" in body
    assert not any(b.key == "reissue-0" for b in host.button)
    host.button(key="reissue-1").click().run()
    assert not host.exception
    fresh = service.store.table(table.id).seats[1]
    assert fresh.token != table.seats[1].token and not fresh.claimed and fresh.reserved
    assert any("Bob's seat has a new link" in m.value for m in host.success)
    assert f"seat={fresh.token}" in page_text(host) and f"seat={table.seats[1].token}" not in page_text(host)
    notice = ("Bob's seat was re-issued by the host: its old link no longer works, and the host holds the new link, "
              "so the host can see Bob's cards until Bob opens it on their own phone.")
    assert notice in notes(page(table=table.code), "info")
    old = page(table=table.code, seat=table.seats[1].token)
    assert "no longer works" in page_text(old) and "You are watching as a spectator." in page_text(old)
    assert move_keys(old) == [] and "seat-tools" not in pads(old)
    assert "Take seat: Bob" not in {b.label for b in pad_buttons(old)}  # kept for the new link, not for whoever joins
    assert "**Bob** · re-issued: give Bob this new link" in page_text(host)
    assert not any(b.key == "host-take-1" for b in host.button)
    host.button(key="host-take-0").click().run()  # the host plays Ann on this phone and stays host
    assert host.query_params["seat"] == table.seats[0].token and host.query_params["host"] == table.host_token
    assert "You are Ann." in page_text(host) and "Host: hand out the seats" in [e.label for e in host.expander]
    assert notice in notes(host, "info")
    page(device="bobs-new-phone", table=table.code, seat=fresh.token)  # the new link opened: every phone is told
    assert "Bob's re-issued seat was opened on a phone, which now plays it." in notes(page(table=table.code), "info")


def test_forged_host_token_is_refused(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    at = page(table=table.code, host="forged-host")
    assert not at.exception
    assert "host link is not valid" in page_text(at)
    assert not any(s.token in page_text(at) for s in table.seats)
    assert not any(b.key and b.key.startswith("reissue-") for b in at.button)


def test_seat_page_offers_to_move_the_seat(service: Tables) -> None:
    table = service.create("race", ["Ann", "Bob"], {"players": 2})
    at = page(table=table.code, seat=table.seats[0].token)
    assert "Move this seat to another phone" in [e.label for e in at.expander]
    assert any(table.seats[0].token in c.value for c in at.code)
    assert table.seats[1].token not in page_text(at)


def test_app_prints_its_address_and_qr_and_nothing_of_streamlits(tmp_path: Path) -> None:
    """What a new user reads when the companion starts: our address and QR code, not Streamlit's banner
    repeating it, nor its warning that no external IP was found (it looks one up on the internet)."""
    import subprocess
    import sys
    import time
    import urllib.request

    from test_browser import free_port

    port = free_port()
    out = tmp_path / "out.txt"
    with out.open("wb") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "app", "--port", str(port),
                                 "--data-dir", str(tmp_path / "data")], stdout=sink, stderr=subprocess.STDOUT)
        try:
            for _ in range(200):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                        break
                except OSError:
                    time.sleep(0.3)
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
                assert answer.status == 200
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    text = out.read_text()
    assert "Muster companion: http://" in text and f":{port}" in text
    assert "█" in text  # the QR code
    for noise in ("You can now view", "Local URL", "Did not auto detect", "streamlit.io", "Uvicorn"):
        assert noise not in text, noise


def test_folded_boxes_send_nothing_until_opened(service: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    """The typed-move form exists only in debug mode (off by default); built only while open, so a tap redraws
    less on every phone (`folds.folded`); opening it shows it at once, and it stays open while moves come in."""
    table = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    at = page(folded=True, table=table.code, seat=table.seats[0].token)
    assert not at.exception and not any("type its details" in e.label for e in at.expander), "off by default"
    assert "other-move-box" not in shut_folds(at)
    monkeypatch.setenv("MUSTER_DEBUG", "1")
    at.run()
    form = "FormSubmitter:other-move-"
    element, label = shut_folds(at)["other-move-box"]  # shut: only its label, a block of the table's surface
    assert label == "Debug: other move (type its details)" and label not in [e.label for e in at.expander]
    assert not any(str(b.key).startswith(form) for b in at.button) and not at.selectbox
    tap_element(at, element, {"pad": "other-move-box", "open": True})  # what tapping its label sends
    assert typed_move(at) and [s.label for s in at.selectbox] == ["Kind"]
    for seat in (0, 1):
        service.act(table, seat, __import__("engine").act("roll", seat))
    at.run()
    assert "1. Ann made a move" in page_text(at) and "2. Bob made a move" in page_text(at)
    assert typed_move(at)
