"""Taps posted to the server (`companion.courier`), in a real browser against one `muster app`: a pad's tap is
answered with the tapping phone's own table part; a post that is not a live page's tap is refused in words and
changes nothing; a tap the route cannot take goes through Streamlit and still counts."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from test_browser import Server, settle
from test_browser_cardgames import app, wait_for  # noqa: F401  (the module's server)
from test_browser_hexbattle import Phone as BoardPhone
from test_browser_trust import SEATS, SEED, Phone, seat_phones, tables  # noqa: F401  (tables: a fixture)

from companion.components.hexboard import ART_PATH
from companion.courier import BODY_LIMIT, PATH
from companion.tables import STALE, Tables
from engine.hexgrid import hex_id

KEEP = "Keep your hand"  # imperial's first move for each seat: public, and it can be taken back (asked nothing)


def post(app: Server, body: bytes) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(f"{app.url}/{PATH}", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def html_of(drawn: dict[str, list[dict[str, Any]]]) -> str:
    def flat(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [leaf for block in blocks for leaf in (flat(block["blocks"]) if "group" in block else [block])]
    return "".join(block.get("html", "") for blocks in drawn.values() for block in flat(blocks))


def test_a_pad_tap_is_posted_and_answered_with_the_tappers_own_table_part(app: Server, new_phone: Callable[[], Any],
                                                                         tables: Tables) -> None:
    table = tables.create("imperial", SEATS, {}, seed=SEED)
    ann, bob, _ = seat_phones(new_phone, app, table, 0)
    before = tables.store.signature(table.id)[0]
    with ann.page.expect_response(lambda reply: PATH in reply.url) as posted:
        ann.page.locator(".st-key-moves").get_by_role("button", name=KEEP, exact=True).first.click()
    reply = posted.value
    sent = reply.request.post_data_json
    assert sent["element"] == "table-0" and sent["tap"]["label"] == KEEP and sent["tap"]["head"][0] == before
    head = tables.store.signature(table.id)[0]
    assert reply.status == 200 and head == before + 1
    drawn = reply.json()["drawn"]
    assert set(drawn) == {"table-0"}
    html = html_of(drawn)
    assert f'data-head="{head}"' in html and "Ann kept their hand" in html  # the new position, as Ann reads it
    ann.page.locator(f'span.muster-head[data-head="{head}"]').wait_for(state="attached")
    bob.page.locator(f'span.muster-head[data-head="{head}"]').wait_for(state="attached")  # woken as before


def test_a_tap_on_the_hexbattle_board_is_posted_and_answered_with_the_board(app: Server,
                                                                           new_phone: Callable[[], Any],
                                                                           tables: Tables) -> None:
    table = tables.create("hexbattle", SEATS, {}, seed="board-deploy")
    ann = BoardPhone(new_phone, f"{app.url}/?table={table.code}&seat={table.seats[0].token}")
    ann.hint("Tap a green hex to deploy Blue Infantry 1")
    with ann.page.expect_response(lambda reply: PATH in reply.url) as posted:
        ann.tap_hex("4,8")
    assert posted.value.request.post_data_json["element"] == "hexboard"
    drawn = posted.value.json()["drawn"]
    kind, board, address = drawn["hexboard"]
    assert kind == "board" and board["head"][0] == 1 and address["courier"]["element"] == "hexboard"
    assert hex_id(tables.snapshot(table).state.units["french-infantry-1"].hex) == "4,8"
    assert len(board["units"]) == 1  # the unit just deployed, drawn by the reply
    ann.page.locator(".hb-unit").first.wait_for(state="attached")


def test_posts_that_are_no_live_pages_tap_are_refused_in_words(app: Server) -> None:
    assert post(app, b"{not json") == (400, {"error": "That was not a tap."})
    assert post(app, json.dumps({"token": "t", "element": "table-0"}).encode()) == (400, {"error": "That was not a tap."})
    assert post(app, json.dumps({"token": 1, "element": "table-0", "tap": {}}).encode()) == (
        400, {"error": "That was not a tap."})
    assert post(app, b" " * (BODY_LIMIT + 1)) == (413, {"error": f"A request here holds at most {BODY_LIMIT:,} bytes."})
    assert post(app, json.dumps({"token": "no-such-page", "element": "table-0", "tap": {"pad": "moves"}}).encode()) == (
        404, {"error": "This page's session has ended; reload the page."})
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{app.url}/{ART_PATH}/no-such-version", timeout=30)
    assert missing.value.code == 404 and json.loads(missing.value.read()) == {
        "error": "No such board artwork; reload the page."}


def test_a_spectator_posting_a_seats_move_moves_nothing(app: Server, new_phone: Callable[[], Any],
                                                        tables: Tables) -> None:
    """The spectator's page has a token (to post taps on its own pads) but draws no move pads: a move posted with
    it names a pad that page does not draw, so nothing is done and the page says the table moved on."""
    table = tables.create("imperial", SEATS, {}, seed=SEED)
    ann, _, watcher = seat_phones(new_phone, app, table, 0)
    tokens = {m.group(1).decode() for frame in watcher.frames for m in re.finditer(rb'"token": ?"([\w-]+)"', frame)}
    assert len(tokens) == 1
    with ann.page.expect_request(lambda request: PATH in request.url) as tapped:
        ann.page.route(f"**/{PATH}", lambda route: route.abort())  # Ann's tap is only looked at, not delivered
        ann.page.locator(".st-key-moves").get_by_role("button", name=KEEP, exact=True).first.click()
    forged = dict(tapped.value.post_data_json, token=tokens.pop())
    wait_for(lambda: tables.store.signature(table.id)[0] == 1, ann.page)  # Ann's own tap went through Streamlit
    ann.page.unroute(f"**/{PATH}")
    for _ in range(40):  # a page busy with a run of its own (the wake of Ann's keep) hands the tap to Streamlit
        status, reply = post(app, json.dumps(forged).encode())
        if reply != {"through": "streamlit"}:
            break
        watcher.page.wait_for_timeout(250)
    assert status == 200 and "Ann kept their hand" in html_of(reply["drawn"])  # what the spectator's page shows
    watcher.page.get_by_text(STALE).first.wait_for()
    assert [e.action["kind"] for e in tables.snapshot(table).entries] == ["pass"]  # Ann's keep alone


def test_a_tap_the_route_cannot_take_goes_through_streamlit(app: Server, new_phone: Callable[[], Any],
                                                            tables: Tables) -> None:
    table = tables.create("imperial", SEATS, {}, seed=SEED)
    ann, _, watcher = seat_phones(new_phone, app, table, 0)
    ann.page.route(f"**/{PATH}", lambda route: route.fulfill(status=503, body="busy"))
    ann.page.locator(".st-key-moves").get_by_role("button", name=KEEP, exact=True).first.click()
    wait_for(lambda: tables.store.signature(table.id)[0] == 1, ann.page)
    for phone in (ann, watcher):
        phone.page.locator('span.muster-head[data-head="1"]').wait_for(state="attached")


def test_a_tap_reply_overtaken_by_a_newer_move_never_draws_the_older_position(app: Server,
                                                                              new_phone: Callable[[], Any],
                                                                              tables: Tables) -> None:
    """A posted tap's reply and Streamlit's runs travel on two connections: here Ann's reply is held until the
    table has moved on from outside her phone (as a bot, another server or the host's tools move it) and her
    page shows that newer move. The late reply then must not draw the older position over it: the server has
    marked the newer head as drawn, so neither a wake nor the poll would ever send it again."""
    table = tables.create("imperial", SEATS, {}, seed=SEED)
    ann = Phone(new_phone, f"{app.url}/?table={table.code}&seat={table.seats[0].token}", "You are Ann")
    settle(ann.page)
    held: list[tuple[Any, Any]] = []
    ann.page.route(f"**/{PATH}", lambda route: held.append((route, route.fetch())))
    ann.page.locator(".st-key-moves").get_by_role("button", name=KEEP, exact=True).first.click()
    wait_for(lambda: bool(held), ann.page)
    assert tables.store.signature(table.id)[0] == 1  # Ann's keep is stored; its reply is on its way
    snap = tables.snapshot(tables.store.table(table.id))
    bob = next(a for a in snap.state.legal_actions(1) if snap.state.label(a) == KEEP)
    tables.act(tables.store.table(table.id), 1, bob)  # from outside any phone: no wake, Ann's poll finds it
    ann.page.locator('span.muster-head[data-head="2"]').wait_for(state="attached")
    route, reply = held[0]
    with ann.page.expect_response(lambda r: PATH in r.url):
        route.fulfill(response=reply)
    ann.page.wait_for_timeout(500)  # the reply's handler has run (it is one task of the page)
    assert ann.page.locator("span.muster-head").get_attribute("data-head") == "2"
