"""A table's page: the engine's view for this phone's seat (or a spectator), its legal moves, undo and concede.

The seat comes only from the secret token in the link; without one the page is a
spectator's: `view(None)`, no moves, no undo, no concede, but it offers the seats no
phone has claimed yet. The host link (`host=TOKEN`, kept by the creator's phone) hands
out each seat's link and QR code until a phone claims it, never after; a seat whose phone
was lost is re-issued (new link, the old one dies, every phone is told). A seat is held
by one browser (`devices.device`): opening its link on a second phone moves it there,
and the first phone says so and stops acting. Another phone's move reaches this one at once through
the table part's listener (`companion.live`); a small fragment also polls the table every 1.5 s and
redraws the page when it changed (a change by the command-line tool, a listener cut off).

Everything shown to a viewer about the game comes from the engine for that viewer:
`State.view`, `State.prompt` (the status line) and `Match.history` (the log, undo and
table notices). Player names and those lines are plain text (`render.plain`), never Markdown.

This module assembles the page; its parts are modules of their own: what panels draw with
(`companion.table_context`), what a tap changes (`companion.taps`), asking before a move that
cannot be taken back (`companion.asking`), the table part's sections besides the panel
(`companion.table_sections`, laid out around the panel here: `part`)
and the parts around it (`companion.table_tools`). The part a move redraws is gathered into one
element (`companion.components.surface`: the sheets and pads, and a typed-move box after it): a
phone pays for every element at every redraw.
"""

from __future__ import annotations

import logging
import os
from functools import partial
from typing import Any

import streamlit as st

from companion import (asking, context, devices, faults, flashes, links, live, panels, replay,
                       table_sections, table_tools, taps)
from companion.components import surface
from companion.render import plain
from companion.streamlit_page import StreamlitPage
from companion.store import Seat, StoreUnavailable, TableInfo
from companion.table_context import TableContext
from companion.tables import ELSEWHERE, STALE, Snapshot, Tables
from engine.core import Refusal

LOG = logging.getLogger("muster.companion")

POLL_SECONDS = 1.5
POLL_ENV = "MUSTER_POLL_SECONDS"  # another poll interval for this server (a test of the listener alone: long)
SEEN = "table-seen"  # session key of the table signature this page last drew
TABLE_FRAGMENT = "table"  # the fragment a move redraws (`_table`)


def render(service: Tables, code: str, token: str | None, host: str | None = None, joining: bool = False) -> None:
    table = service.store.table_by_code(code)
    if table is None:
        st.error(f"There is no table with the code '{plain(code)}'.")
        st.button("Back to the lobby", on_click=links.go, width="stretch", key="back-missing")
        return
    seat = table.seat_by_token(token)
    hosting = table.is_host(host)
    device = devices.device() if seat is not None else None
    if seat is not None and table.playing:
        table, seat = _take_hold(service, table, seat, device)
    acting = seat is None or device is None or seat.device in (None, device)
    table_tools.header(service, table, seat, hosting, bad_seat_link=bool(token) and seat is None,
            bad_host_link=bool(host) and not hosting)
    flashes.show_flashes()
    if seat is not None and device is not None and not acting:
        st.warning(ELSEWHERE)
        st.button("Play this seat on this phone again", key="hold-again", on_click=taps.hold, width="stretch",
                  args=(service, table.id, seat.token))
    host = host if hosting else None
    hosted_here = devices.device() if hosting else None
    if hosted_here is not None and table.host_device != hosted_here:
        service.store.host_on(table.id, hosted_here)  # the lobby's "Your tables" offers this phone the host link
    if seat is None and table.playing and not hosting:
        table_tools.take_seat(service, table, joining or bool(token))  # a dead seat link goes straight to the free seats
    if hosting:
        table_tools.host_tools(service, table, host, expanded=seat is None)
    assets = panels.assets_for(table.game)
    if assets is not None:
        assets(service.entries()[table.game].data)
    if table.playing:
        _table(service, table.id, seat.token if seat else None, _outline(table))
    else:  # a finished table opens as its replay
        replay.render(service, table, service.snapshot(table), _own_seats(table, seat),
                      partial(replayed, service, table))
    tools = panels.tools_for(table.game)
    if tools is not None:  # the game's calculators for printed cards: a tap at the table does not redraw them
        tools(StreamlitPage(), service.game(table.game), service.entries()[table.game].data)
    if table.playing:  # an ended table changes no more
        _watch(service, table.id)
    live.drawn()  # a change this run made outside the table part (the table ended) is told too
    table_tools.foot(table, seat)
    if seat is not None or hosting:
        devices.device_probe()


def _own_seats(table: TableInfo, seat: Seat | None) -> list[Seat]:
    """The seats this phone may replay a finished table as: the one its link opened and any it held."""
    device = devices.device()
    return [s for s in table.seats if s == seat or (device is not None and s.device == device)]


def _outline(table: TableInfo) -> tuple[Any, ...]:
    """What the page outside the table fragment was drawn from: whether the table plays, its seats and holders."""
    return table.playing, table.winner, tuple((s.token, s.claimed, s.device) for s in table.seats)


@st.fragment(key=TABLE_FRAGMENT)
def _table(service: Tables, table_id: int, token: str | None, outline: tuple[Any, ...]) -> None:
    """The part of the page a move changes: position, status, panel, moves, seat tools, log.

    A tap on a button in here reruns only this part, which is most of what a tap costs a
    phone to redraw; the header, host tools and QR codes stay as drawn. When a tap changed
    what the rest of the page shows (the table ended, a seat moved to another phone), the
    whole page is redrawn.
    """
    def lost() -> None:
        flashes.flash("warning", STALE)

    def part() -> None:
        with surface.drawing("table", on_lost=lost):  # its HTML and pads as few elements
            _table_part(service, table_id, token, outline)
            live.listen(table_id, st.session_state[SEEN][2], token)  # last: its head is the one the part drew

    try:  # a store fault shows here, where the player tapped; the page's poll redraws it when the store is back
        faults.shielded(part, retry=False)
    finally:
        live.drawn()  # only now tell the other phones of a move made here: this phone redraws first


def _table_part(service: Tables, table_id: int, token: str | None, outline: tuple[Any, ...]) -> None:
    table = service.store.table(table_id)
    if _outline(table) != outline:
        st.rerun(scope="app")
    seat = table.seat_by_token(token)
    device = devices.this_device() if seat is not None else None
    acting = seat is None or device is None or seat.device in (None, device)
    flashes.show_flashes()
    seen = _mark(service, table_id)
    try:
        snap = service.snapshot(table, head=seen[:2])  # the head the page marks is the one it draws
    except Refusal as err:
        st.error(str(err))
        return
    part(TableContext(service, table, seat, snap, acting), seen)


def part(ctx: TableContext, seen: tuple[int, int, int]) -> None:
    """The part of a table's page a move changes, on `ctx.page`: the mark of the log head `seen`, the news and
    status line, a parked question, the game's panel (or the plain view), the moves, undo and concede, the
    log, and the developers' typed move (the sections are `companion.table_sections`'s; the page calls the
    panel itself, so nothing stands between the fragment a tap reruns and the panel that draws the pads)."""
    history = ctx.snap.history(ctx.player)
    with ctx.page.sheet() as top:  # one element: the mark, the table's news and the status line
        top.html(f'<span class="muster-head" data-head="{seen[0]}"></span>')
        table_sections.news(ctx, history, top)
        table_sections.status(ctx, top)
    asking.confirm(ctx.table.id, ctx.player, ctx.snap, ctx.state_id, partial(taps.answered, ctx.service))
    panel = panels.panel_for(ctx.table.game)
    if panel is not None:
        try:
            panel(ctx)
        except Refusal as err:
            ctx.page.widgets().error(str(err))
        except Exception:  # a panel out of step with its engine must not cost the table its game
            LOG.exception("the %s panel failed", ctx.table.game)
            ctx.page.widgets().error("This game's panel could not be drawn; the plain view and moves follow.")
            table_sections.generic_view(ctx, key="private-plain")
    else:
        table_sections.generic_view(ctx)
    ctx.moves()
    ctx.seat_tools()
    flashes.show_beside()  # a refusal whose control is gone (the table moved on): here, near the moves
    table_sections.log(ctx, history)
    if ctx.typed_moves is not None and context.debugging():  # last: a form of its own
        table_sections.other_move(ctx, ctx.typed_moves)


def _take_hold(service: Tables, table: TableInfo, seat: Seat, device: str | None) -> tuple[TableInfo, Seat]:
    """The first time this browser session shows the seat, its phone takes the seat (a newer phone wins).

    Later redraws (polling) never take it back, so two phones cannot pass a seat to and fro
    without a player asking; the table is re-read to show who holds it now.
    """
    if device is None:
        if not seat.claimed:
            service.store.mark_claimed(table.id, seat.token)
        return table, seat
    opened: set[str] = st.session_state.setdefault("seats-opened", set())
    if seat.token in opened:
        return table, seat
    opened.add(seat.token)
    service.hold(table, seat, device)
    fresh = service.store.table(table.id)
    return fresh, fresh.seat_by_token(seat.token) or seat


def replayed(service: Tables, table: TableInfo, seat: Seat | None, snap: Snapshot) -> None:
    """A replay's step (`companion.replay`): the game's panel, for `seat` (None: the spectator), at `snap`."""
    ctx = TableContext(service, table, seat, snap, acting=False)
    panel = panels.panel_for(table.game)
    if panel is None:
        table_sections.generic_view(ctx)
        return
    try:
        panel(ctx)
    except Exception:  # a panel that cannot draw a past position still leaves the plain view
        LOG.exception("the %s panel failed on a replay", table.game)
        surface.flush()
        table_sections.generic_view(ctx, key="replay-plain")
    surface.flush()


def poll_seconds() -> float:
    """How often a table page polls its table (`POLL_SECONDS`, or `POLL_ENV` when set to a number of seconds)."""
    try:
        return max(0.5, float(os.environ.get(POLL_ENV) or POLL_SECONDS))
    except ValueError:
        LOG.warning("%s=%r is not a number of seconds; the table pages poll every %s s", POLL_ENV,
                    os.environ[POLL_ENV], POLL_SECONDS)
        return POLL_SECONDS


def _mark(service: Tables, table_id: int) -> tuple[int, int, int]:
    """Note the table's signature this page shows; the page marks its log head (`span.muster-head`),
    invisibly: the browser tests and `bench/bench_browser.py` read it to know when a phone shows a move."""
    seen = service.store.signature(table_id)
    st.session_state[SEEN] = seen
    return seen


def _watch(service: Tables, table_id: int) -> None:
    """Redraw the whole page when another phone changes the table (polls one small query) since the
    table part of the page last drew it (`_mark`). The table part's listener learns of a move at once
    (`live`); the poll is the fallback, and leaves a move its listener was just told of (`live.due`) to
    it rather than redrawing the whole page as well.

    The poll's first look is in this page run itself, just after the table part read the signature (`_mark`):
    it takes that one (`drawn`) instead of reading it again; each later look (the fragment's own runs, which call
    this same closure) reads it afresh."""
    drawn = [st.session_state.get(SEEN)]

    @st.fragment(run_every=poll_seconds())
    def poll() -> None:
        try:
            seen = drawn.pop() if drawn else service.store.signature(table_id)
        except StoreUnavailable:  # logged where it arose; the whole page shows it, once
            if not st.session_state.get(faults.FAULT):
                st.session_state[faults.FAULT] = True
                st.rerun(scope="app")
            return
        if st.session_state.get(faults.FAULT):
            try:  # a read answers while another program holds the write lock: ask what a tap needs
                service.store.answers()
            except StoreUnavailable:
                return
            faults.back_again()
        if seen != st.session_state.get(SEEN) and not live.due():
            st.rerun(scope="app")
    poll()
