"""The route that tells a table's phones its log moved (`companion.heads`, issue 34): what it answers, to whom, and
its bounds and refusals, through the route as the server mounts it (`routes.bodiless(heads.serve)` in a Starlette
app) and spoken to in ASGI, as uvicorn speaks to it. No server, no browser: each wait is cut short by HOLD_S."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable
from typing import Any

import pytest
from asgi_helpers import apart
from starlette.applications import Starlette
from starlette.routing import Route
from test_postgres_replicas import admin_count, wait_for

from companion import heads, live, routes
from companion.heads import Heads
from companion.store import open_store

PAGE, OTHER = "p" * 20, "q" * 20


@pytest.fixture
def board(monkeypatch: pytest.MonkeyPatch) -> Heads:
    """A fresh record of heads as the route's, waits cut to 0.5 s, bounds small enough to reach."""
    fresh = Heads()
    monkeypatch.setattr(heads, "HEADS", fresh)
    monkeypatch.setattr(heads, "HOLD_S", 0.5)
    monkeypatch.setattr(heads, "PER_SEAT", 1)
    monkeypatch.setattr(heads, "SPECTATORS", 2)
    monkeypatch.setattr(heads, "TOTAL", 3)
    monkeypatch.setattr(heads, "PAGES_KEPT", 5)
    monkeypatch.setattr(heads, "TABLES_KEPT", 3)
    return fresh


APP = Starlette(routes=[Route(f"/{heads.PATH}", routes.bodiless(heads.serve), methods=["GET"])])


async def ask(query: str, headers: list[tuple[bytes, bytes]] | None = None, hang_up: asyncio.Event | None = None
              ) -> tuple[int, dict[str, str], Any]:
    """GET the route with `query`: (status, headers, JSON body). `hang_up` set: the phone closes the connection."""
    scope = {"type": "http", "method": "GET", "path": f"/{heads.PATH}", "raw_path": f"/{heads.PATH}".encode(),
             "query_string": query.encode(), "headers": headers or [], "http_version": "1.1", "scheme": "http",
             "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5000), "root_path": "", "app": APP}
    sent: list[dict[str, Any]] = []
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await (hang_up.wait() if hang_up is not None else asyncio.Event().wait())
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await APP(scope, receive, send)
    start = sent[0]
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, json.loads(body)


def run(*steps: Awaitable[Any]) -> list[Any]:
    """The steps together, apart (`asgi_helpers.apart`)."""
    async def together() -> list[Any]:
        return list(await asyncio.gather(*steps))
    return apart(together())


async def later(action: Any, delay: float = 0.05) -> None:
    await asyncio.sleep(delay)
    action()


def test_a_page_is_told_when_its_table_moves_past_what_it_drew(board: Heads) -> None:
    board.drawn(PAGE, 7, 3)
    (status, headers, body), _ = run(ask(f"page={PAGE}&head=3"), later(lambda: board.moved(7, 4)))
    assert (status, body) == (200, {"head": 4})
    assert headers["cache-control"] == "no-store"
    assert run(ask(f"page={PAGE}&head=3"))[0][::2] == (200, {"head": 4})  # at once: it is behind


def test_the_phone_that_moved_is_not_told_of_its_own_move(board: Heads) -> None:
    """Its page is about to draw the move (`drawn` before `moved`): its request waits out HOLD_S, then says the
    head it drew; a move of another table is no news to it either."""
    board.drawn(PAGE, 7, 3)
    board.drawn(OTHER, 7, 3)

    def move() -> None:
        board.drawn(PAGE, 7, 4)
        assert board.moved(7, 4) == 1  # OTHER alone
        assert board.moved(8, 9) == 0
        assert board.moved(7, 4) == 0  # a head told already is told once

    mine, theirs, _ = run(ask(f"page={PAGE}&head=3"), ask(f"page={OTHER}&head=3"), later(move))
    assert mine[2] == theirs[2] == {"head": 4}
    assert board.told_within(OTHER, 5) and not board.told_within(PAGE, 5)  # a poll skips only where a wake is due


def test_a_page_that_shows_another_table_asks_again_about_that_one(board: Heads,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Its waiting request is answered when its run draws another table, with the head it drew there (no
    needless redraw), and a move of the table it left wakes it no more."""
    monkeypatch.setattr(heads, "HOLD_S", 60.0)  # answered by the switch; the limit only stops a broken test
    board.drawn(PAGE, 7, 3)

    def switch() -> None:
        board.drawn(PAGE, 8, 1)
        assert board.moved(7, 9) == 0

    mine, _ = run(asyncio.wait_for(ask(f"page={PAGE}&head=3"), 10), later(switch))
    assert mine[2] == {"head": 1}


def test_refusals_say_what_is_wrong(board: Heads) -> None:
    board.drawn(PAGE, 7, 3)
    for query, words in (("head=3", "'page' must name"), ("page=short&head=3", "'page' must name"),
                         (f"page={PAGE}", "'head' must be"), (f"page={PAGE}&head=three", "'head' must be")):
        status, _, body = run(ask(query))[0]
        assert status == 400 and body["error"].startswith(words), query
    status, _, body = run(ask(f"page={OTHER}&head=3"))[0]
    assert status == 404 and "not listening here" in body["error"]
    with_body = [(b"content-length", b"5")]
    assert run(ask(f"page={PAGE}&head=3", with_body))[0][::2] == (400, {"error": routes.NO_BODY})


def test_waiting_requests_are_bounded_per_table_in_all_and_per_page(board: Heads) -> None:
    pages = [c * 20 for c in "abcd"]
    for page, table in zip(pages, (1, 1, 1, 2)):
        board.drawn(page, table, 0)
    board.drawn(PAGE, 3, 0)

    async def crowd() -> list[Any]:
        first = [asyncio.ensure_future(ask(f"page={p}&head=0")) for p in pages[:2]]  # table 1 is full
        await asyncio.sleep(0.05)
        refused = await ask(f"page={pages[2]}&head=0")
        other = asyncio.ensure_future(ask(f"page={pages[3]}&head=0"))  # 3 waiting in all: the total
        await asyncio.sleep(0.05)
        full = await ask(f"page={PAGE}&head=0")
        again = asyncio.ensure_future(ask(f"page={pages[0]}&head=0"))  # the same page again: the older answers
        older = await first[0]
        return [refused, full, older, await first[1], await other, await again]

    refused, full, *answered = run(crowd())[0]
    assert refused[0] == full[0] == 429
    assert refused[1]["retry-after"] == full[1]["retry-after"] == str(heads.RETRY_S)
    assert "2 of this table's spectators'" in refused[2]["error"]
    assert "telling 3 pages" in full[2]["error"]
    assert [a[:1] for a in answered] == [(200,)] * 4


def test_a_spectators_tabs_cannot_push_a_tables_players_back_to_polling(board: Heads) -> None:
    """Each seat has its own bound, apart from the spectators': a spectator's many tabs fill only theirs (before,
    they filled the table's one bound, and the players' listeners were refused)."""
    spectators, ann, ann_again = [c * 20 for c in "stu"], "a" * 20, "A" * 20
    for page in spectators:
        board.drawn(page, 1, 0)
    board.drawn(ann, 1, 0, "ann-token")
    board.drawn(ann_again, 1, 0, "ann-token")

    async def crowd() -> list[Any]:
        waiting = [asyncio.ensure_future(ask(f"page={p}&head=0")) for p in spectators[:2]]
        await asyncio.sleep(0.05)
        refused = await ask(f"page={spectators[2]}&head=0")  # the spectators' bound
        seated = asyncio.ensure_future(ask(f"page={ann}&head=0"))
        await asyncio.sleep(0.05)
        second_tab = await ask(f"page={ann_again}&head=0")  # Ann's own bound (1 here)
        board.moved(1, 1)
        return [refused, second_tab, await seated, *[await w for w in waiting]]

    refused, second_tab, seated, *watching = run(crowd())[0]
    assert (refused[0], second_tab[0]) == (429, 429) and "this seat's" in second_tab[2]["error"]
    assert [seated[::2], *[w[::2] for w in watching]] == [(200, {"head": 1})] * 3


def test_spectators_of_many_tables_cannot_fill_the_server_for_the_players(board: Heads,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Spectators at every table together hold at most `ALL_SPECTATORS` of the server's waiting requests, so a
    crowd watching many tables leaves room for another table's players (before, they could take all of `TOTAL`)."""
    monkeypatch.setattr(heads, "ALL_SPECTATORS", 2)
    watchers, ann = [c * 20 for c in "xyz"], "a" * 20
    for page, table in zip(watchers, (1, 2, 3)):
        board.drawn(page, table, 0)
    board.drawn(ann, 3, 0, "ann-token")

    async def crowd() -> list[Any]:
        waiting = [asyncio.ensure_future(ask(f"page={p}&head=0")) for p in watchers[:2]]
        await asyncio.sleep(0.05)
        refused = await ask(f"page={watchers[2]}&head=0")  # a third table's spectator: the spectators' share is full
        seated = asyncio.ensure_future(ask(f"page={ann}&head=0"))  # that table's player still listens
        await asyncio.sleep(0.05)
        board.moved(3, 1)
        board.moved(1, 1)
        board.moved(2, 1)
        return [refused, await seated, *[await w for w in waiting]]

    refused, seated, *watching = run(crowd())[0]
    assert refused[0] == 429 and "2 of the server's spectators'" in refused[2]["error"]
    assert [seated[::2], *[w[::2] for w in watching]] == [(200, {"head": 1})] * 3


def test_the_phone_that_moved_keeps_its_seat_until_its_run_names_it(board: Heads) -> None:
    """The run of the phone that moved tells the board first (`live._changed`, no seat yet) and names its seat
    later as it draws: meanwhile its tabs still count as the seat's, not the spectators' (before, they did, and a
    table's spectators could get its player refused)."""
    spectators, ann = [c * 20 for c in "st"], "a" * 20
    for page in spectators:
        board.drawn(page, 1, 0)
    board.drawn(ann, 1, 0, "ann-token")
    board.drawn(ann, 1, 1)  # Ann moved: her run is about to draw the table at head 1

    async def crowd() -> list[Any]:
        waiting = [asyncio.ensure_future(ask(f"page={p}&head=0")) for p in spectators]
        await asyncio.sleep(0.05)
        seated = asyncio.ensure_future(ask(f"page={ann}&head=1"))
        await asyncio.sleep(0.05)
        board.moved(1, 2)
        return [await seated, *[await w for w in waiting]]

    seated, *watching = run(crowd())[0]
    assert seated[::2] == (200, {"head": 2})
    assert [w[::2] for w in watching] == [(200, {"head": 2})] * 2


def test_a_server_remembers_the_heads_of_the_tables_moved_last(board: Heads) -> None:
    """One small entry per table ever moved would grow for as long as the server runs: the table moved longest
    ago is forgotten first (TABLES_KEPT, 3 here), and the pages of the tables it remembers are still told at once."""
    for table in range(1, 1001):
        board.moved(table, 5)
    assert list(board._head) == [998, 999, 1000]
    board.drawn(PAGE, 1000, 4)
    assert run(ask(f"page={PAGE}&head=4"))[0][::2] == (200, {"head": 5})
    board.moved(998, 6)  # a move keeps its table's head: the one moved longest ago goes
    board.moved(7, 1)
    assert list(board._head) == [1000, 998, 7]


def test_a_phone_that_goes_away_and_a_server_that_stops_are_answered_at_once(board: Heads) -> None:
    board.drawn(PAGE, 7, 3)
    board.drawn(OTHER, 7, 3)

    async def leave_and_stop() -> list[Any]:
        hang_up = asyncio.Event()
        gone = asyncio.ensure_future(ask(f"page={PAGE}&head=3", hang_up=hang_up))
        waiting = asyncio.ensure_future(ask(f"page={OTHER}&head=3"))
        await asyncio.sleep(0.05)
        hang_up.set()
        await asyncio.wait_for(gone, 0.3)  # well before HOLD_S
        board.close()
        answered = await asyncio.wait_for(waiting, 0.3)
        return [answered, await ask(f"page={OTHER}&head=3")]

    answered, after = run(leave_and_stop())[0]
    assert answered[0] == after[0] == 200


def test_the_oldest_page_is_forgotten_past_the_bound(board: Heads) -> None:
    names = [c * 20 for c in "abcdef"]
    for name in names:
        board.drawn(name, 1, 0)
    board.moved(1, 1)
    assert run(ask(f"page={names[0]}&head=0"))[0][0] == 404
    assert run(ask(f"page={names[-1]}&head=0"))[0][::2] == (200, {"head": 1})


def test_a_change_made_through_another_server_reaches_this_servers_pages(board: Heads, postgres_url: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL's NOTIFY, heard by this server's store (`Store.watch_changes` -> `live.tell`), answers the page."""
    monkeypatch.setattr(heads, "HOLD_S", 60.0)  # answered when the notice comes; the limit only stops a broken test
    here, there = open_store(postgres_url), open_store(postgres_url)
    here.watch_changes(live.teller(here))
    wait_for(lambda: admin_count(postgres_url) == 2)  # both servers are listening
    table = there.create_table("race", ["Ann", "Bob"], {})
    wait_for(lambda: here.signature(table.id) == there.signature(table.id))
    drew = here.signature(table.id)[2]
    board.drawn(PAGE, table.id, drew)
    move = lambda: there.append(table.id, 0, {"kind": "roll", "player": 0, "args": {}})  # noqa: E731
    (status, _, body), _ = run(ask(f"page={PAGE}&head={drew}"), later(move))
    assert (status, body) == (200, {"head": there.signature(table.id)[2]})
    assert body["head"] > drew


def test_a_move_told_after_a_while_is_answered_then(board: Heads) -> None:
    """The mover's run tells the other phones `after` seconds on (`live.TELL_AFTER_S`): a waiting page is answered
    then, not before; one that asks meanwhile learns the head at once."""
    board.drawn(PAGE, 7, 3)
    board.drawn(OTHER, 7, 3)

    async def steps() -> tuple[bool, Any, Any]:
        asked = asyncio.ensure_future(ask(f"page={PAGE}&head=3"))
        await asyncio.sleep(0.05)
        assert board.moved(7, 4, after=1.0) == 1
        await asyncio.sleep(0.05)  # well before the wake (a stall of almost a second would be needed to fail)
        return not asked.done(), await ask(f"page={OTHER}&head=3"), await asked

    [(waiting, other, mine)] = run(steps())
    assert waiting and mine[::2] == other[::2] == (200, {"head": 4})
