"""How the other phones at a table learn that it changed, the moment it changes, on Streamlit's public API.

The path of "the log moved" (docs/design.md draws it):
1. A phone's tap changes a table through a page callback (`waking`), which notes the table's new head and that
   this page is about to draw it (`heads.Heads.drawn`), so this phone is never told of its own move.
2. When the table part of that phone's run has drawn (`drawn`), this server's pages of the table are told
   `TELL_AFTER_S` later: `companion.heads` answers their waiting requests with "table T's head is now N". Told
   after the tapping phone's drawing has left and been laid out, so the other phones' runs and redraws do not
   share the CPU with the run and the redraw its player waits for.
3. Each other phone's listener (the last block of the table part's surface, `listen`: listen.js in
   `companion.components.surface`) gets the answer and asks Streamlit, through the element's trigger, to rerun
   the table part: that phone's own run draws what its viewer may see.

A change this server did not make arrives too: PostgreSQL's NOTIFY from another server (`Store.watch_changes`)
and this server's bots call `tell` (`teller`). A change the command-line tool makes to the SQLite file is seen by
the page's poll (`table_page.POLL_SECONDS`), which stays the fallback for every case here: a server without the
routes (the AppTest harness), a listener refused or cut off, a tab hidden. Telling never raises: a failure only
means the poll will show the move.
"""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable
from typing import Any

import streamlit as st

from companion import heads, paths
from companion.components import surface
from companion.store import Store

LOG = logging.getLogger("muster.companion")

PAGE = "live-page"  # session state: the name this page's listener has (`heads`: the route knows it by it)
CHANGED = "live-changed"  # session state: table id -> its head after a change this page made, not told yet
TELL_AFTER_S = 0.05
"""How long after the mover's run has drawn its move the table's other phones are told of it: until then its
drawing leaves the server and the mover's phone lays it out, and the other phones' runs and redraws (a run on the
server, a redraw in their browsers) would share the machine's CPUs with that phone's (docs/performance.md, "The
other phones told after the mover's redraw"). Their aim (700 ms at p95) leaves room; a bot's move or another
server's is told at once (`tell`)."""
TOLD_S = 1.5  # a poll within this long of its page's listener being told leaves the redraw to the listener (`due`)


def listen(table_id: int, head: int, seat: str | None) -> None:
    """Draw the table part's listener, last in the part's surface, at the change count `head` the part was drawn at,
    for the player of `seat` (its token; None: a spectator), whose tabs the route bounds apart from the others'."""
    page = _page()
    heads.HEADS.drawn(page, table_id, head, seat)
    if paths.installed():  # else no route: the poll shows moves
        surface.listen(paths.here(heads.PATH), page, head)


def _page() -> str:
    name: str = st.session_state.setdefault(PAGE, secrets.token_urlsafe(18))
    return name


def head_of(store: Store, table_id: int) -> int:
    """The table's change count: what the phones are told (any change to a table raises it)."""
    return store.signature(table_id)[2]


def waking(callback: Callable[..., None]) -> Callable[..., None]:
    """A page callback `(service, table_id, …)` that may change the table tells its other phones after it ran,
    once this page's table part has drawn the change (`drawn`)."""
    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            callback(*args, **kwargs)
        finally:
            _changed(args[0].store, int(args[1]))
    return run


def _changed(store: Store, table_id: int) -> None:
    try:
        head = head_of(store, table_id)
    except Exception as err:  # a store fault: the page shows it, the poll tells the other phones later
        LOG.debug("could not read table %s's head after a change: %s", table_id, err)
        return
    heads.HEADS.drawn(_page(), table_id, head)  # this page draws it next: it is not told of its own change
    changed: dict[int, int] = st.session_state.setdefault(CHANGED, {})
    changed[table_id] = max(head, changed.get(table_id, -1))


def drawn() -> None:
    """This page's table part has drawn the tables it changed: tell their other phones, `TELL_AFTER_S` from now."""
    for table_id, head in st.session_state.pop(CHANGED, {}).items():
        heads.HEADS.moved(table_id, head, after=TELL_AFTER_S)


def tell(store: Store, table_id: int) -> None:
    """From any thread: table `table_id` changed (another server, a bot): tell this server's phones of it."""
    try:
        heads.HEADS.moved(table_id, head_of(store, table_id))
    except Exception as err:  # the store is down: the poll shows the move when it is back
        LOG.debug("could not tell table %s's phones of a change: %s", table_id, err)


def teller(store: Store) -> Callable[[int], None]:
    """`tell` for this store, as `Store.watch_changes` and the bots call it: with a table id."""
    return functools.partial(tell, store)


def due() -> bool:
    """Whether this page's listener was just told its table moved: its poll then leaves the redraw to the
    listener rather than redrawing the whole page as well. Only this page's: a page that was not listening (no
    route, refused, drawn just after) is redrawn by its poll as before."""
    return heads.HEADS.told_within(_page(), TOLD_S)
