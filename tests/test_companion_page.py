"""Each game's table part drawn through the recording page (`companion.page.RecordingPage`, issue 34): a whole game,
seeded and bounded, with no server. At every step each viewer's page is drawn as that phone would draw it, and
what it shows is checked: the engine's status line for that viewer word for word, moves only on the page of a seat
to act and only for that seat, no card another seat holds unseen by this one (that this viewer's view and history
do not name), and the private box only on a seat's
own page. The seat to act then taps one of the moves its page drew, through the pad's own handler, as the phone
would; after the bound the first seat concedes through its Concede button, and the pages say how the table ended."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import streamlit as st

from companion import asking, table_page, taps
from companion.page import RecordingPage
from companion.table_context import TableContext
from companion.tables import Tables
from engine import GAME_IDS
from engine.core import fill

STEPS = 30  # moves per game before the first seat concedes: enough for each game's phases, quick to draw
PRIVATE = "Only you can see this"


class Phones:
    """Each viewer's own session (a phone's): outside `streamlit run` there is one session state, so each
    viewer's is swapped in around what that viewer's page does."""

    def __init__(self) -> None:
        self.kept: dict[int | None, dict[str, Any]] = {}

    @contextmanager
    def of(self, viewer: int | None) -> Iterator[None]:
        st.session_state.clear()
        st.session_state.update(self.kept.get(viewer, {}))
        try:
            yield
        finally:
            self.kept[viewer] = dict(st.session_state)
            st.session_state.clear()


def card_ids(value: Any, known: dict[str, Any]) -> set[str]:
    """Every physical card id (a key of the game's card index) anywhere in a view."""
    found: set[str] = set()
    if isinstance(value, str) and value in known:
        found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= card_ids(item, known)
    elif isinstance(value, (list, tuple)):
        for item in value:
            found |= card_ids(item, known)
    return found


def moves_on(page: RecordingPage) -> list[tuple[str, str, Any]]:
    """(pad, item, value) of every move a page offers: enabled buttons and list entries carrying an engine action."""
    out = []
    for key, drawn in page.pads().items():
        for entry in (drawn.data or {}).get("items", []):
            values = [o["value"] for o in entry.get("options", [])] if entry["kind"] == "select" else \
                [] if entry.get("disabled") else [entry.get("value")]
            out += [(key, entry["id"], v) for v in values if isinstance(v, dict) and "kind" in v and "player" in v]
    return out


def draw(service: Tables, table_id: int, phones: Phones) -> dict[int | None, RecordingPage]:
    """Each viewer's table part (the spectator's and every seat's), as of now."""
    info = service.store.table(table_id)
    snap = service.snapshot(info)
    pages = {}
    for viewer in [None, *range(len(info.seats))]:
        with phones.of(viewer):
            page = RecordingPage(open_folds=False)
            seat = info.seats[viewer] if viewer is not None else None
            ctx = TableContext(service, info, seat, snap, acting=info.playing, page=page)  # ended: as its replay
            table_page.part(ctx, service.store.signature(table_id))
        pages[viewer] = page
    return pages


def check(service: Tables, table_id: int, pages: dict[int | None, RecordingPage]) -> None:
    info = service.store.table(table_id)
    snap = service.snapshot(info)
    names = [s.name for s in info.seats]
    known = service.entries()[info.game].data.card_index
    for viewer, page in pages.items():
        text = page.text()
        seen = snap.seen_by(viewer)
        if info.playing:  # the engine's status line for this viewer, word for word
            assert " ".join(fill(seen.prompt(viewer), names).split()) in text, (viewer, text)
        to_act = info.playing and not seen.is_terminal and viewer in seen.players_to_act()
        offered = moves_on(page)
        assert all(v["player"] == viewer for _, _, v in offered), (viewer, offered)
        assert bool(offered) <= to_act, (viewer, offered)
        assert (PRIVATE in text) <= (viewer is not None), text
        mine = card_ids(snap.state.view(viewer), known)
        told = " ".join(line.format(names) for line in snap.history(viewer))  # a showdown's cards, once public
        shown = {known[c].design.name for c in mine} | {card.design.name for card in known.values()
                                                          if card.design.name in told}
        hidden = {known[c].design.name for p in range(len(info.seats)) if p != viewer
                  for c in card_ids(snap.state.view(p), known) - mine} - shown
        assert not [name for name in hidden if name in text], (viewer, hidden & set(text.split("\n")))


@pytest.mark.parametrize("game", GAME_IDS)
def test_each_game_through_the_recording_page(service: Tables, game: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, "muster.companion")
    rng = random.Random(34)
    table = service.create(game, ["Ann", "Bob"], {}, seed="seam")
    phones = Phones()
    tapped = fallen_back = 0
    for _ in range(STEPS):
        pages = draw(service, table.id, phones)
        check(service, table.id, pages)
        info = service.store.table(table.id)
        if not info.playing:
            break
        head = service.snapshot(info).head
        state = service.snapshot(info).state
        actors = [v for v, page in pages.items() if moves_on(page)]
        if not actors:
            seat = rng.choice(sorted(state.players_to_act()))
            held = [key for key in pages[seat].pads() if key not in ("news", "seat-tools")]
            # the page holds the moves back until the player has read it (medieval's "On to battle"), or a move is
            # laid out on the page first (medieval's card, then its column): one of those taps
            steps = [(key, e["id"]) for key in held for e in pages[seat].pads()[key].data["items"]  # type: ignore[index]
                     if not e.get("disabled")]
            if steps:
                with phones.of(seat):
                    pages[seat].tap(*rng.choice(steps))
                continue
            # a panel's own widgets (warfare's card builder) stand for the moves: the engine's own, then
            service.act(info, seat, rng.choice(state.legal_actions(seat)), head)
            fallen_back += 1
            continue
        seat = rng.choice(actors)
        pad, item, value = rng.choice(moves_on(pages[seat]))
        with phones.of(seat):
            pages[seat].tap(pad, item, value)
            if st.session_state.get(asking.CONFIRM):  # a list's entry that cannot be taken back: the dialog's "yes"
                taps.answered(service, st.session_state[asking.CONFIRM])
            assert service.snapshot(service.store.table(table.id)).head != head, st.session_state.get("_flash")
        tapped += 1
    assert tapped > fallen_back  # most moves went through a page's own move buttons
    if service.store.table(table.id).playing:
        page = draw(service, table.id, phones)[0]
        with phones.of(0):
            page.tap("seat-tools", "concede")
    pages = draw(service, table.id, phones)
    check(service, table.id, pages)
    ended = service.store.table(table.id)
    assert not ended.playing
    if ended.ended_by == "concede:0":
        assert all("Ann conceded. Bob wins." in page.text() for page in pages.values())
    assert all(not moves_on(page) and "seat-tools" not in page.pads() for page in pages.values())
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def test_hexbattle_supply_run_is_the_units_tapped_then_one_play(service: Tables) -> None:
    """Supply Run on three damaged units would be six ▶ buttons (each unit, each pair); instead each damaged unit is
    a button of the card's own, nothing chosen at first, and the one ▶ plays exactly the units tapped, naming them."""
    units = {"french-infantry-1": {"hex": "4,6", "facing": 0, "strength": 2},
             "french-infantry-2": {"hex": "5,6", "facing": 0, "strength": 1},
             "french-infantry-3": {"hex": "6,6", "facing": 0, "strength": 2},
             "british-infantry-1": {"hex": "5,1", "facing": 3}}
    scenario = {"terrain": {f"{c},{r}": "open" for c in range(2, 9) for r in range(0, 8)}, "current_player": 0,
                "hands": [["supply-run"], []], "units": units}
    table = service.create("hexbattle", ["Ann", "Bob"], {"scenario": scenario}, seed="supply", scripted=True)
    phones = Phones()
    card = service.snapshot(table).state.hands[0][0]
    page = draw(service, table.id, phones)[0]
    picks = page.pads()[f"hx-card-{card}-units"].data["items"]  # type: ignore[index]
    assert [i["label"] for i in picks] == ["Blue Infantry 1 (2/4)", "Blue Infantry 2 (1/4)", "Blue Infantry 3 (2/4)"]
    [play] = [i for i in page.pads()[f"hx-card-{card}"].data["items"] if i["id"].startswith("play")]  # type: ignore[index]
    assert play.get("disabled") and play["label"] == "▶ Play Supply Run"  # nothing chosen for the player
    for unit in ("french-infantry-3", "french-infantry-1"):
        with phones.of(0):
            page.tap(f"hx-card-{card}-units", f"unit-{unit}")
        page = draw(service, table.id, phones)[0]
    picks = page.pads()[f"hx-card-{card}-units"].data["items"]  # type: ignore[index]
    assert [(i["label"], bool(i.get("disabled"))) for i in picks] == [
        ("✓ Blue Infantry 1 (2/4)", False), ("Blue Infantry 2 (1/4)", True), ("✓ Blue Infantry 3 (2/4)", False)]
    [play] = [i for i in page.pads()[f"hx-card-{card}"].data["items"] if i["id"].startswith("play")]  # type: ignore[index]
    assert play["label"] == "▶ Play Supply Run on Blue Infantry 1 and Blue Infantry 3" and play["ask"]
    with phones.of(0):
        page.tap(f"hx-card-{card}", play["id"])
    state = service.snapshot(service.store.table(table.id)).state
    assert [state.units[u].strength for u in units if u.startswith("french")] == [3, 1, 3]
