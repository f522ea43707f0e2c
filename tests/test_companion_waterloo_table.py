"""The waterloo panel for a table playing with printed cards (R23-R27), run with AppTest against the real engine."""

from __future__ import annotations

from apptest_helpers import button, carry_out, offered, pad_notices, page, page_text
from streamlit.testing.v1 import AppTest

from companion.store import TableInfo
from companion.tables import Tables
from engine.core import act

GROUPS = {"guard-infantry": "Infantry", "line-infantry": "Infantry", "light-infantry": "Infantry",
          "lancers": "Cavalry", "howitzers": "Artillery", "captain": "Officers", "grenadiers": "Special and wild"}


def ok(at: AppTest) -> None:
    assert not at.exception, at.exception
    assert not any("panel could not be drawn" in e.value for e in at.error), [e.value for e in at.error]


def to_reveal(service: Tables, table: TableInfo) -> None:
    """Ann (button) and Bob bet through the four rounds: Bob raises 2, Ann calls, then both pass three times."""
    for seat, action in [(1, act("raise", 1, amount=2)), (0, act("call", 0))] + [(1, act("pass", 1)), (0, act("pass", 0))] * 3:
        service.act(table, seat, action)
    assert service.snapshot(table).state.phase == "reveal"


def enter_hand(at: AppTest, code: str, hand_number: int, designs: list[str], scout: bool = False) -> None:
    key = f"waterloo-reveal-{code}-{hand_number}"
    for design in designs:
        group = next(p for p in at.get("button_group") if p.key == f"{key}-{GROUPS[design]}")
        group.set_value(design).run()
        ok(at)
    if scout:
        at.toggle(key=f"{key}-scout").set_value(True).run()
    carry_out(at, offered(at, f"{key}-go"))
    ok(at)


def test_two_seats_reveal_printed_hands_and_the_chips_move(service: Tables) -> None:
    table = service.create("waterloo", ["Ann", "Bob"], {"players": 2, "cards": "table"}, seed="printed")
    ann = page(table=table.code, seat=table.seats[0].token)
    ok(ann)
    assert "First betting" in page_text(ann) and "Showdown scorer" not in str([e.label for e in ann.expander])
    to_reveal(service, table)

    ann = page(table=table.code, seat=table.seats[0].token)
    ok(ann)
    assert "Tap 5 more card(s), then reveal." in page_text(ann)
    enter_hand(ann, table.code, 1, ["guard-infantry"] * 3 + ["line-infantry"] * 2)
    assert "You revealed: Guard Infantry, Guard Infantry, Guard Infantry, Line Infantry, Line Infantry" in page_text(ann)
    state = service.snapshot(table).state
    assert state.players_to_act() == [1] and 0 in state.revealed

    bob = page(table=table.code, seat=table.seats[1].token)
    ok(bob)
    assert "Guard Infantry" not in page_text(bob), "Ann's hand stays hidden until Bob has revealed"
    assert "Ann (button, revealed): 97 chips, bet 3" in page_text(bob).splitlines()
    enter_hand(bob, table.code, 1, ["lancers", "lancers", "light-infantry", "howitzers", "grenadiers"], scout=True)

    state = service.snapshot(table).state
    assert state.phase == "scout" and state.players_to_act() == [1]
    text = page_text(bob)
    lines = text.splitlines()
    assert lines.index("Ann: Full House") < lines.index("Bob: Pair")  # ranked, as the engine ranks them
    assert "beats Bob: Full House is above Pair on the combo table" in lines
    assert "You lost with a Scout face down: burn it to save 1 chip(s), or pay." in text
    button(bob, "Burn the Scout (save 1 chips)").click().run()
    ok(bob)

    result = service.snapshot(table).state.last_result
    assert result is not None and result["chips"] == [102, 98] and result["saved"] == [0, 1]
    text = page_text(bob)
    assert "Ann: bet 3, collects 5 → 102 chips" in text.splitlines()  # the result box's lines, as shown
    assert "Bob: bet 3, burned the Scout, saved 1 → 98 chips" in text.splitlines()
    assert "Discard your burned Scout" in text


def test_a_clash_between_hands_is_shown_to_every_phone_and_the_hands_are_entered_again(service: Tables) -> None:
    """R25: Bob's hand is not checked against Ann's hidden one (that would let him probe it); once both are in,
    the clash is told to the whole table and both enter their hands again."""
    table = service.create("waterloo", ["Ann", "Bob"], {"players": 2, "cards": "table"}, seed="clash")
    to_reveal(service, table)
    service.act(table, 0, act("reveal", 0, cards=["captain", "captain", "guard-infantry", "guard-infantry",
                                                  "line-infantry"], scout_down=False))
    bob = page(table=table.code, seat=table.seats[1].token)
    enter_hand(bob, table.code, 1, ["captain", "lancers", "lancers", "light-infantry", "howitzers"])
    assert not pad_notices(bob)
    clash = ("Every hand is in, but together they hold 3 Captain (the deck has 2): someone entered a card wrongly. "
             "Every hand is cleared; check your cards and enter them again.")
    for token in (table.seats[0].token, table.seats[1].token, None):
        at = page(table=table.code, seat=token) if token else page(table=table.code)
        ok(at)
        shown = [line for line in page_text(at).splitlines() if clash in line]
        assert shown == [f"⚠{clash}", f"10. {clash}", clash], "the warning above the hands, the log, the last line"
    assert service.snapshot(table).state.players_to_act() == [1, 0]


def test_a_knock_out_is_shown(service: Tables) -> None:
    table = service.create("waterloo", ["Ann", "Bob", "Cy"], {"players": 3, "cards": "table", "starting_chips": 3},
                           seed="knock")
    for seat, action in [(1, act("raise", 1, amount=2)), (2, act("fold", 2)), (0, act("call", 0))] + \
            [(1, act("pass", 1)), (0, act("pass", 0))] * 3:
        service.act(table, seat, action)
    service.act(table, 0, act("reveal", 0, cards=["guard-infantry"] * 3 + ["line-infantry"] * 2, scout_down=False))
    service.act(table, 1, act("reveal", 1, cards=["lancers", "lancers", "light-infantry", "howitzers", "grenadiers"],
                              scout_down=False))
    service.act(table, 1, act("pay", 1))  # every loser is asked, Scout or not (R28)
    cy = page(table=table.code, seat=table.seats[2].token)
    ok(cy)
    assert "Bob is out of chips and out of the game." in page_text(cy).splitlines()


def test_the_new_table_form_offers_printed_cards(service: Tables) -> None:
    at = page()
    at.selectbox(key="new-game").set_value("waterloo").run()
    at.radio(key="opt-waterloo-0-cards").set_value("We play with the printed cards")
    at.button(key="FormSubmitter:new-waterloo-Create table").click().run()
    assert not at.exception, at.exception
    created = service.store.tables()[0]
    assert created.game == "waterloo" and created.options["cards"] == "table"


def test_the_showdown_says_who_won_before_the_scout_decisions(service: Tables) -> None:
    """App-dealt cards: once the hands are shown and a loser still decides about a Scout (R28), every phone already
    reads who won and with what, the winner's hand first (issue 30: it said so only after the decisions)."""
    import random

    table = service.create("waterloo", ["Ann", "Bob"], {"players": 2}, seed="sc0")
    rng = random.Random(0)
    state = service.snapshot(table).state
    while state.phase != "scout":  # pass, call, draw, keep and swap at random, to the showdown
        p = state.players_to_act()[0]
        state = service.act(table, p, rng.choice([a for a in state.legal_actions(p)
                                                  if a.kind not in ("concede", "fold", "raise")])).state
    assert state.players_to_act() == [1] and state.showdown["winners"] == [0]
    for token in (table.seats[0].token, table.seats[1].token, None):
        text = page_text(page(table=table.code, **({"seat": token} if token else {})))
        assert "Showdown: Ann won the showdown with Pair." in text.splitlines()
        assert text.index("Ann: Pair") < text.index("Bob: High Card")
