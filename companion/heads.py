"""How a table's phones learn that its log moved: each table's head as this server knows it, and the route
`GET /_muster/moved?page=P&head=N` that answers a page once its table's head is past N (a long poll).

The answer says no more than "your table's log head is now N" (`{"head": N}`, N the table's change count,
which every change to it raises; never the table's id, which would count a server's tables): each phone then draws what it may see in its own run, asked for by
the page's listener (the table surface's last block, `companion/components/surface/listen.js`). Nothing secret crosses this route, and only a page
this server drew may ask (`P` is a random name the page's run gave its listener, `drawn`), so no one can list
the tables of a server through it.

Why a long poll and not server-sent events: the request says what the phone has (`head`), so no move is lost
between two requests, and the answer is one small, whole JSON body, which every proxy and Streamlit's own
compression pass as it is (an event stream is held back by a buffering proxy until it ends); a request never
outlives `HOLD_S`, so a proxy's idle cut never meets one. Either would hold one of the six connections a browser
keeps per address over HTTP/1.1 (Streamlit's websocket is not one of them): the listener holds none while its tab
is hidden, so several tabs open at once do not starve the page's own requests.

Bounds: one waiting request per page (a newer one answers the older); `PER_SEAT` waiting for each seat of a table
(its player's tabs) and `SPECTATORS` for all the table's other pages together, so a spectator's tabs cannot push a
table's players back to polling; `TOTAL` in all, of which spectators at every table together hold at most
`ALL_SPECTATORS`, so a crowd watching many tables cannot push another table's players back to polling either. Past a bound the answer is a 429 saying so (the phone's poll shows
moves meanwhile). `PAGES_KEPT` pages remembered, and the heads of the `TABLES_KEPT` tables moved last (an idle
table's is forgotten first: its pages then learn its next move as it comes, or from their poll); a GET with a body
refused unread (`routes.bodiless`); every request answered within `HOLD_S`, at once when the phone goes away, and
when the server stops (`close`). Nothing here raises into the server's log.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from companion import bounded

LOG = logging.getLogger("muster.companion")

PATH = "_muster/moved"
HOLD_S = 25.0  # a request waits at most this long, then is answered with the head as it is
PER_SEAT = 8  # waiting requests of one seat's pages at a table (its player's tabs)
SPECTATORS = 24  # waiting requests of a table's other pages (spectators, a host without a seat), together
TOTAL = 512  # waiting requests in all on this server
ALL_SPECTATORS = 384  # of them, spectators' at every table together: the rest stay free for players
PAGES_KEPT = 4096  # pages whose listener this server remembers (the oldest is forgotten first)
TABLES_KEPT = 4096  # tables whose head this server remembers (the one moved longest ago is forgotten first)
RETRY_S = 30  # a refused phone asks again after this long (`Retry-After`)
PAGE_NAME = re.compile(r"[A-Za-z0-9_-]{16,64}")
BUSY = "This server is already telling {} pages of moves; this phone sees them at its next poll."


@dataclass(frozen=True)
class Answer:
    """What the route answers: an HTTP status and its JSON body."""

    status: int
    body: dict[str, Any]


class _Kept:
    """The seat a page already had at a table (`Heads.drawn`'s default): a run that moved names its seat later."""


KEPT = _Kept()


@dataclass(frozen=True)
class _Drawn:
    """What a page last drew: its table, at which head, as whom (a seat's token; None: a spectator)."""

    table: int
    head: int
    seat: str | None


@dataclass(eq=False)
class _Waiter:
    page: str
    table: int
    seat: str | None
    loop: asyncio.AbstractEventLoop
    woken: asyncio.Event = field(default_factory=asyncio.Event)

    def wake(self, after: float = 0.0) -> None:
        """From any thread: the request this waiter holds is to be answered now, or in `after` seconds."""
        try:
            if after > 0:
                self.loop.call_soon_threadsafe(self.loop.call_later, after, self.woken.set)
            else:
                self.loop.call_soon_threadsafe(self.woken.set)
        except RuntimeError:  # the server's loop has closed: nobody is waiting any more
            pass


class Heads:
    """Each table's newest head known here, the pages listening to a table and the requests waiting on one.

    `moved` is called from any thread (a page's run, the bots, PostgreSQL's listener); requests wait on
    Streamlit's event loop. One lock guards it all, held only for a few dictionary steps."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._head: dict[int, int] = {}  # table id -> its newest change count known here
        self._told: dict[str, float] = {}  # page -> when its waiting request was last told of a move (monotonic)
        self._pages: dict[str, _Drawn] = {}  # page -> what it drew
        self._waiting: dict[str, _Waiter] = {}  # page -> its one waiting request
        self._closed = False

    def drawn(self, page: str, table: int, head: int, seat: str | None | _Kept = KEPT) -> None:
        """A page's run drew `table` at `head` as the player of `seat` (a seat's token; None: a spectator), or is
        about to (the run of the phone that moved it, which names the seat as it draws: until then it keeps the
        seat it had at that table, `KEPT`, so its tabs are not counted a spectator's meanwhile)."""
        with self._lock:
            old = self._pages.get(page)
            same = old is not None and old.table == table
            if isinstance(seat, _Kept):
                seat = old.seat if old is not None and same else None
            drawn = _Drawn(table, max(head, old.head) if old is not None and same else head, seat)
            woken = [self._waiting.pop(page)] if not same and page in self._waiting \
                else []  # the page shows another table now: its request asks again, about that one
            for gone in bounded.keep(self._pages, page, drawn, PAGES_KEPT):
                self._told.pop(gone, None)
                woken += [self._waiting.pop(gone)] if gone in self._waiting else []
        for waiter in woken:
            waiter.wake()

    def moved(self, table: int, head: int, after: float = 0.0) -> int:
        """Table `table` is now at `head`: answer its pages that drew less, in `after` seconds (the head is known
        at once: a page that asks meanwhile is answered then); how many were told."""
        with self._lock:
            if head <= self._head.get(table, -1):
                return 0
            bounded.keep(self._head, table, head, TABLES_KEPT)
            behind = [w for w in self._waiting.values() if w.table == table
                      and (w.page not in self._pages or self._pages[w.page].head < head)]
            now = time.monotonic()
            self._told.update((w.page, now) for w in behind)
        for waiter in behind:
            waiter.wake(after)
        return len(behind)

    def told_within(self, page: str, seconds: float) -> bool:
        """Whether page `page`'s listener was told of a move in the last `seconds` (so its run is on the way)."""
        with self._lock:
            return time.monotonic() - self._told.get(page, float("-inf")) < seconds

    def close(self) -> None:
        """The server stops: every waiting request is answered now, and later ones at once."""
        with self._lock:
            self._closed = True
            waiters = list(self._waiting.values())
        for waiter in waiters:
            waiter.wake()

    async def wait(self, page: str, head: int, gone: asyncio.Future[Any] | None = None) -> Answer:
        """The answer to page `page` that drew its table at `head`: at once when the table is past it (or the page
        is unknown, or too many wait), else when it moves, when `gone` is done (the phone went away), or after
        `HOLD_S`."""
        waiter = self._enter(page, head)
        if isinstance(waiter, Answer):
            return waiter
        try:
            woken = asyncio.ensure_future(waiter.woken.wait())
            watched = {woken} if gone is None else {woken, gone}
            await asyncio.wait(watched, timeout=HOLD_S, return_when=asyncio.FIRST_COMPLETED)
            woken.cancel()
        finally:
            with self._lock:
                if self._waiting.get(page) is waiter:
                    del self._waiting[page]
        with self._lock:  # about the table the page shows now (it may have moved to another while waiting)
            shown = self._pages.get(page)
            table, drew = (shown.table, shown.head) if shown is not None else (waiter.table, head)
            return Answer(200, {"head": max(self._head.get(table, drew), drew)})

    def _enter(self, page: str, head: int) -> _Waiter | Answer:
        with self._lock:
            known = self._pages.get(page)
            if known is None:
                return Answer(404, {"error": "This page is not listening here (drawn by another server, or "
                                             "forgotten): its poll shows moves. Reload it to listen again."})
            table, drew, seat = known.table, known.head, known.seat
            now = self._head.get(table, -1)
            if now > max(head, drew) or self._closed:
                return Answer(200, {"head": now})
            older = self._waiting.pop(page, None)
            if older is not None:  # one request per page: the newer one waits
                older.wake()
            alike = spectating = 0  # the waiting requests of this page's seat at its table; every spectator's
            for other in self._waiting.values():  # one pass, however many wait
                alike += other.table == table and other.seat == seat
                spectating += other.seat is None
            bound, whose = (SPECTATORS, "this table's spectators'") if seat is None else (PER_SEAT, "this seat's")
            if alike >= bound:
                return Answer(429, {"error": BUSY.format(f"{bound} of {whose}")})
            if len(self._waiting) >= TOTAL:
                return Answer(429, {"error": BUSY.format(TOTAL)})
            if seat is None and spectating >= ALL_SPECTATORS:
                return Answer(429, {"error": BUSY.format(f"{ALL_SPECTATORS} of the server's spectators'")})
            waiter = self._waiting[page] = _Waiter(page, table, seat, asyncio.get_running_loop())
            return waiter


HEADS = Heads()  # this server's


def parse(query: Any) -> tuple[str, int] | Answer:
    """The page and head a request names (`?page=P&head=N`), or a 400 saying what is wrong with them."""
    page, head = query.get("page", ""), query.get("head", "")
    if not PAGE_NAME.fullmatch(page):
        return Answer(400, {"error": "'page' must name a listening page (16-64 letters, digits, - or _)."})
    if not re.fullmatch(r"-?\d{1,18}", head):
        return Answer(400, {"error": "'head' must be the whole number of the log head the page drew."})
    return page, int(head)


async def serve(request: Any) -> Any:
    """GET `PATH`?page=P&head=N: `{"head": N}` once the page's table's head is past N (or after `HOLD_S`);
    a 400, 404 or 429 with `{"error": words}` when it cannot listen (the phone's poll shows moves)."""
    from starlette.responses import JSONResponse

    gone = None
    try:
        asked = parse(request.query_params)
        if isinstance(asked, Answer):
            answer = asked
        else:
            gone = _gone(request)
            answer = await HEADS.wait(*asked, gone=gone)
    except Exception as err:  # a bug must not reach the server's log as a traceback: the poll still shows moves
        LOG.warning("the moves route failed (%s: %s); the phones' polls show moves", type(err).__name__, err)
        answer = Answer(503, {"error": "This server cannot tell moves now; the page's poll shows them."})
    finally:
        if gone is not None:
            gone.cancel()
    headers = {"Cache-Control": "no-store"}
    if answer.status == 429:
        headers["Retry-After"] = str(RETRY_S)
    return JSONResponse(answer.body, status_code=answer.status, headers=headers)


def _gone(request: Any) -> asyncio.Future[Any]:
    """Done when the phone closes the connection (a GET's body, empty, is read first)."""
    async def watch() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass
    return asyncio.ensure_future(watch())
