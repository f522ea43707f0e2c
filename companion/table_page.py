"""A table's page: the engine's view for this phone's seat (or a spectator), its legal moves, undo and concede.

The seat comes only from the secret token in the link; without one the page is a
spectator's: `view(None)`, no moves, no undo, no concede, but it offers the seats no
phone has claimed yet. The host link (`host=TOKEN`, kept by the creator's phone) hands
out each seat's link and QR code until a phone claims it, never after; a seat whose phone
was lost is re-issued (new link, the old one dies, every phone is told). A seat is held
by one browser (`context.device`): opening its link on a second phone moves it there,
and the first phone says so and stops acting. A small fragment polls the table every
1.5 s and redraws the page when it changed.

Everything shown to a viewer about the game comes from the engine for that viewer:
`State.view`, `State.prompt` (the status line) and `Match.history` (the log, undo and
table notices). Player names and those lines are plain text (`render.plain`), never Markdown.

Moves are drawn as pads (`companion.components.movepad`): one element per group of
buttons, whose every tap carries the action itself and the log head the pad showed (its
state id, as in boardgame.io); a tap that arrives after the table moved on is refused
(`tables.Stale`), and a double tap is one action. A move the engine could not take back
(it reveals, draws chance or ends the game) is confirmed first in a dialog, conceding on the
phone itself; no such move is ever the highlighted button. The part a move redraws is gathered
into one element (`companion.components.surface`: the sheets and pads, and a typed-move box after
it): a phone pays for every element at every redraw.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import streamlit as st

from companion import bot_seats, context, courier, live, panels, replay, streamlit_adapter
from companion import render as draw
from companion.components import movepad, surface
from companion.render import one_line, plain
from companion.store import Seat, StoreError, StoreUnavailable, TableInfo
from companion.tables import ELSEWHERE, STALE, Snapshot, Stale, Tables, allows_hints
from engine.core import Action, Line, Refusal, fill

LOG = logging.getLogger("muster.companion")

POLL_SECONDS = 1.5
BUTTONS_BEFORE_GROUPING = 10
LOG_LINES = 60
CONFIRM = "confirm-move"  # session key of the move waiting for "Yes"
SEEN = "table-seen"  # session key of the table signature this page last drew
TABLE_FRAGMENT = "table"  # the fragment a move redraws (`_table`)
ASKED = "confirm-asked"  # session key: the confirmation dialog was sent open
DEBUG_ENV = "MUSTER_DEBUG"  # "1" (`muster app --debug`): every seat may also type a move, for developers
DIALOG_TITLE = "Are you sure?"
CONFIRM_YES = "Yes, do it"  # the answer to a move that cannot be taken back, in a pad or in the dialog
HINT = "table-hint"  # session key: ((table, head, seat), [(move, chance of winning)]) of the last hint asked


@dataclass
class TableContext:
    """What a game panel gets: the table, this phone's seat, the current position, and a way to act."""

    service: Tables
    table: TableInfo
    seat: Seat | None
    snap: Snapshot
    acting: bool = True  # False when another phone holds this seat now

    moves_drawn: bool = False
    tools_drawn: bool = False
    typed_moves: list[Action] | None = None  # the moves listed as a pad, which may also be typed in (`_other_move`)

    @property
    def state(self) -> Any:
        """The position as this phone's viewer may know it (`Snapshot.seen_by`), never the real one: history
        lines and questions come from the match (`snap.match`), which writes them per viewer."""
        return self.snap.seen_by(self.player)

    def moves(self, layout: Callable[[TableContext, list[Action]], None] | None = None) -> None:
        """Draw this seat's moves here (a panel calls it between its view and its tools); `layout` draws the
        legal moves a panel lays out itself (with `choice` and `pad`, or `button`, and `move_key`) instead of
        the plain list."""
        if not self.moves_drawn and self.table.playing and self.seat is not None and self.acting:
            self.moves_drawn = True
            _moves(self, layout or _move_buttons)

    def seat_tools(self, title: str | None = None) -> bool:
        """Draw this seat's undo and concede here, under `title` (a panel's top bar, as the seed's online
        hexbattle has Concede); the page draws them after the moves otherwise. Whether they were drawn."""
        if (not self.tools_drawn and self.table.playing and self.seat is not None and self.acting
                and self.service.seated(self.table, self.seat.seat)):
            self.tools_drawn = True
            _seat_tools(self, title)
        return self.tools_drawn

    @property
    def player(self) -> int | None:
        return self.seat.seat if self.seat else None

    @property
    def names(self) -> list[str]:
        """Seat names ready for Markdown (escaped: a name shows as typed)."""
        return [plain(bot_seats.shown_name(s)) for s in self.table.seats]

    @property
    def typed_names(self) -> list[str]:
        """Seat names as entered (a bot's seat says so), for `Line.format` before the whole line is escaped."""
        return [bot_seats.shown_name(s) for s in self.table.seats]

    @property
    def state_id(self) -> str:
        """The log head this page was drawn at, as it goes into widget keys."""
        return f"{self.snap.head[0]}-{self.snap.head[1]}"

    @property
    def data(self) -> Any:
        entry = self.service.entries().get(self.table.game)
        return entry.data if entry else None

    @property
    def game(self) -> Any:
        return self.service.game(self.table.game)

    def view(self) -> dict[str, Any]:
        return self.state.view(self.player)

    def name(self, player: int | None) -> str:
        """A seat's name ready for Markdown (escaped), or a dash for no one."""
        if player is None or not 0 <= player < len(self.table.seats):
            return "—"
        return plain(bot_seats.shown_name(self.table.seats[player]))

    def line(self, text: str) -> str:
        """An engine line (`{pN}` placeholders) with the names filled in, ready for Markdown as plain text."""
        return plain(fill(text, self.typed_names))

    def button(self, label: str, action: Action | None, key: str, primary: bool = False, sure: bool = False) -> None:
        """A full-width button that submits `action` for this seat (greyed out when None), as one pad (`choice`)."""
        self.pad([self.choice(label, action, key, primary, sure)], key)

    def choice(self, label: str, action: Action | None, key: str, primary: bool = False,
               sure: bool = False) -> movepad.Choice:
        """One move as a pad button (see `pad`). A move that could not be taken back (it reveals, draws chance
        or ends the game) asks "Yes, do it" on the phone first, under the button, in the engine's words, and
        is never `primary`; unless the player is `sure` of it by tapping it (their only move: it is not asked
        about twice)."""
        reason = None
        if not sure and self.player is not None and action is not None:
            reason = self.service.consequence(self.table, self.player, action)
        return movepad.Choice(key, one_line(label), action.to_json() if action else None,
                              primary=primary and reason is None, disabled=action is None, sure=sure,
                              ask=(reason, CONFIRM_YES) if reason else None)

    def pad(self, items: Sequence[movepad.Item], key: str, title: str | None = None, note: str | None = None,
            columns: int = 1, before: Callable[[], None] | None = None) -> None:
        """Move buttons as one element (`companion.components.movepad`): each tap carries its action and the
        position the pad was drawn at, so a tap that lands after the table moved on is refused (`tables.Stale`)
        and a double tap is one action. A refusal shows right under the button tapped. `before` runs first at
        each tap (a panel forgetting its selection)."""
        movepad.show(items, key, self.snap.head,
                     partial(play_tap, self.service, self.table.id, self.player, key, before=before),
                     title=title, note=note, columns=columns, notices=context.take_beside(key))


def request_id(table_id: int, offered: tuple[int, int], action: dict[str, Any]) -> str:
    """The same tap (this table, this position, this action) always gets the same id, so the store keeps it once."""
    digest = hashlib.sha1(json.dumps(action, sort_keys=True).encode()).hexdigest()[:16]
    return f"t{table_id}-{offered[0]}-{offered[1]}-{digest}"


@live.waking
@context.calmly
def act(service: Tables, table_id: int, seat: int | None, action: dict[str, Any], offered: tuple[int, int],
        label: str | None = None, confirmed: bool = False, where: str | None = None) -> None:
    """Carry out a move as offered at `offered` (every move button and panel comes here, in a callback).

    A move that could not be taken back waits for "Yes" in a dialog (`_confirm`); refusals and
    a stale position become messages on the next draw, beside the control `where` (the tapped
    button's key, `context.show_beside`) when it is given.
    """
    table = service.store.table(table_id)
    move = Action.from_json(action)
    try:
        if not confirmed and seat is not None:
            reason = service.consequence(table, seat, move)
            if reason:
                st.session_state[CONFIRM] = {"table": table_id, "seat": seat, "action": action, "where": where,
                                             "offered": tuple(offered), "label": label, "reason": reason}
                return
        st.session_state.pop(CONFIRM, None)
        service.act(table, seat, move, tuple(offered), request_id(table_id, offered, action), context.this_device())
    except Stale as err:
        context.flash("warning", str(err), where)
    except (Refusal, StoreError) as err:
        context.refuse(err, where)


def play_tap(service: Tables, table_id: int, seat: int | None, pad: str, tap: movepad.Tap,
             before: Callable[[], None] | None = None) -> None:
    """A pad's tap: the action it carries, as offered at the position the phone showed; a refusal is shown
    under the button tapped ("PAD:ITEM", `context.take_beside`)."""
    if before is not None:
        before()
    where = f"{pad}:{tap.id}"
    if tap.head is None or not _is_action(tap.value):
        context.flash("error", "That tap could not be read as a move; nothing was done.", where)
        return
    act(service, table_id, seat, tap.value, tap.head, tap.label, confirmed=tap.sure, where=where)


def _is_action(value: Any) -> bool:
    return (isinstance(value, dict) and isinstance(value.get("kind"), str) and type(value.get("player")) is int
            and isinstance(value.get("args", {}), dict))


def move_key(action: Action) -> str:
    """A widget key naming the action itself (never its place in a list, which shifts as the table moves)."""
    digest = hashlib.sha1(json.dumps(action.to_json(), sort_keys=True).encode()).hexdigest()[:12]
    return f"move-{action.kind}-{digest}"


@live.waking
@context.calmly
def _undo(service: Tables, table_id: int, seat: int | None, offered: tuple[int, int]) -> None:
    try:
        service.undo(service.store.table(table_id), seat, tuple(offered), context.this_device())
    except Stale as err:
        context.flash("warning", str(err), "seat-tools")
    except (Refusal, StoreError) as err:
        context.refuse(err, "seat-tools")


@live.waking
@context.calmly
def _concede(service: Tables, table_id: int, seat: int | None) -> None:
    try:
        service.concede(service.store.table(table_id), seat, context.this_device())
    except (Refusal, StoreError) as err:
        context.refuse(err, "seat-tools")


@live.waking
@context.calmly
def _claim(service: Tables, table_id: int, seat: int, host: str | None) -> None:
    """Button callback: take a free seat, then open its private link on this phone."""
    try:
        taken = service.store.claim_seat(table_id, seat)
    except StoreError as err:
        context.refuse(err)
        return
    table = service.store.table(table_id)
    context.go(table=table.code, seat=taken.token, host=host)


@live.waking
@context.calmly
def _reissue(service: Tables, table_id: int, seat: int, host: str | None) -> None:
    """Button callback (host only): a new link for a seat whose phone was lost; the old link stops working."""
    try:
        fresh = service.reissue(service.store.table(table_id), seat, host)
    except StoreError as err:
        context.refuse(err)
        return
    context.flash("success", f"{plain(fresh.name)}'s seat has a new link (below); the old one no longer works. "
                             "Every phone at the table has been told.")


@live.waking
@context.calmly
def _to_bot(service: Tables, table_id: int, seat: int, level: str, host: str | None) -> None:
    """Button callback (host only): a bot plays this seat from now on; every phone is told."""
    try:
        service.give_to_bot(service.store.table(table_id), seat, level, host)
    except (Refusal, StoreError) as err:
        context.refuse(err)


@live.waking
@context.calmly
def _hold(service: Tables, table_id: int, token: str) -> None:
    """Button callback: play this seat on this phone again (the other phone is told and stops acting)."""
    table = service.store.table(table_id)
    seat = table.seat_by_token(token)
    device = context.this_device()
    if seat is not None and device is not None:
        service.hold(table, seat, device)


def render(service: Tables, code: str, token: str | None, host: str | None = None, joining: bool = False) -> None:
    table = service.store.table_by_code(code)
    if table is None:
        st.error(f"There is no table with the code '{plain(code)}'.")
        st.button("Back to the lobby", on_click=context.go, width="stretch", key="back-missing")
        return
    seat = table.seat_by_token(token)
    hosting = table.is_host(host)
    device = context.device() if seat is not None else None
    if seat is not None and table.playing:
        table, seat = _take_hold(service, table, seat, device)
    acting = seat is None or device is None or seat.device in (None, device)
    _header(service, table, seat, hosting, bad_seat_link=bool(token) and seat is None,
            bad_host_link=bool(host) and not hosting)
    context.show_flashes()
    if seat is not None and device is not None and not acting:
        st.warning(ELSEWHERE)
        st.button("Play this seat on this phone again", key="hold-again", on_click=_hold, width="stretch",
                  args=(service, table.id, seat.token))
    host = host if hosting else None
    if seat is None and table.playing and not hosting:
        _take_seat(service, table, joining or bool(token))  # a dead seat link goes straight to the free seats
    if hosting:
        _host_tools(service, table, host, expanded=seat is None)
    assets = panels.assets_for(table.game)
    if assets is not None:
        assets(service.entries()[table.game].data)
    if table.playing:
        _table(service, table.id, seat.token if seat else None, _outline(table))
    else:  # a finished table opens as its replay
        replay.render(service, table, list(service.snapshot(table).entries), _own_seats(table, seat),
                      partial(replayed, service, table))
    tools = panels.tools_for(table.game)
    if tools is not None:  # the game's calculators for printed cards: a tap at the table does not redraw them
        tools(service.game(table.game), service.entries()[table.game].data)
    if table.playing:  # an ended table changes no more
        _watch(service, table.id)
    if seat is not None:
        _move_seat(table, seat)
    _share(table)
    st.button("⬅ Lobby", on_click=context.go, width="stretch", key="to-lobby")
    if seat is not None:
        context.device_probe()


def _header(service: Tables, table: TableInfo, seat: Seat | None, hosting: bool, bad_seat_link: bool,
            bad_host_link: bool) -> None:
    """The game and code, a link that did not work, and who this phone is: one element (a surface), where
    Markdown elements cost a phone's first visit a Markdown renderer's work for each."""
    with surface.drawing("head"), draw.Sheet() as head:
        head.markdown(f"### {plain(service.game_name(table.game))} · `{table.code}`")
        if bad_seat_link:
            head.note("warning", "This seat link no longer works here (the host may have re-issued the seat, or the "
                      "link is wrong); you are watching as a spectator. Ask the host for the seat's new link, or "
                      "take a free seat.")
        if bad_host_link:
            head.note("warning", "This host link is not valid for this table; you are watching as a spectator.")
        if seat is not None:
            head.caption(f"You {'are' if table.playing else 'played'} **{plain(seat.name)}**.")
        elif hosting:
            head.caption("You are the host: this phone watches until you take a seat below.")
        else:
            head.caption("You are watching as a spectator.")


def _own_seats(table: TableInfo, seat: Seat | None) -> list[Seat]:
    """The seats this phone may replay a finished table as: the one its link opened and any it held."""
    device = context.device()
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
        context.flash("warning", STALE)

    def part() -> None:
        surface.carry_out_posted(lost)  # a tap this phone posted (`companion.courier`) is carried out here
        # its HTML and pads as few elements (`companion.components.surface`); the posted tap's reply is the
        # drawing, sent ahead of the drawing's last element
        with surface.drawing("table", on_lost=lost, on_drawn=courier.answer):
            _table_part(service, table_id, token, outline)

    try:  # a store fault shows here, where the player tapped; the page's poll redraws it when the store is back
        context.shielded(part, retry=False)
    finally:
        courier.answer(None)  # not drawn whole (the page is drawn again): Streamlit's run is the reply
        live.drawn()  # only now wake the other phones of a move made here: this phone redraws first


def _table_part(service: Tables, table_id: int, token: str | None, outline: tuple[Any, ...]) -> None:
    table = service.store.table(table_id)
    if _outline(table) != outline:
        st.rerun(scope="app")
    seat = table.seat_by_token(token)
    device = context.this_device() if seat is not None else None
    acting = seat is None or device is None or seat.device in (None, device)
    context.show_flashes()
    seen = _mark(service, table_id)
    # Another phone's move wakes this one (`live`) to rerun this part alone, or the whole page while
    # its question is open: a dialog is closed by a full run by itself, and that is left to one.
    live.watch(table_id, None if st.session_state.get(CONFIRM) else TABLE_FRAGMENT)
    try:
        snap = service.snapshot(table)
    except Refusal as err:
        st.error(str(err))
        return
    ctx = TableContext(service, table, seat, snap, acting)
    history = snap.history(ctx.player)
    with draw.Sheet() as top:  # one element: the mark, the table's news and the status line
        top.html(f'<span class="muster-head" data-head="{seen[0]}"></span>')
        _news(ctx, history, top)
        _status(ctx, top)
    _confirm(ctx)
    panel = panels.panel_for(table.game)
    if panel is not None:
        try:
            panel(ctx)
        except Refusal as err:
            surface.flush()
            st.error(str(err))
        except Exception:  # a panel out of step with its engine must not cost the table its game
            LOG.exception("the %s panel failed", table.game)
            surface.flush()
            st.error("This game's panel could not be drawn; the plain view and moves follow.")
            _generic_view(ctx, key="private-plain")
    else:
        _generic_view(ctx)
    ctx.moves()
    ctx.seat_tools()
    context.show_beside()  # a refusal whose control is gone (the table moved on): here, near the moves
    _log(ctx, history)
    if ctx.typed_moves is not None and os.environ.get(DEBUG_ENV) == "1":  # last: a form of its own
        _other_move(ctx, ctx.typed_moves)


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
        _generic_view(ctx)
        return
    try:
        panel(ctx)
    except Exception:  # a panel that cannot draw a past position still leaves the plain view
        LOG.exception("the %s panel failed on a replay", table.game)
        surface.flush()
        _generic_view(ctx, key="replay-plain")
    surface.flush()


def _generic_view(ctx: TableContext, key: str = "private") -> None:
    """The engine's view; what only this seat may see (keys a spectator's view lacks) is set apart.

    `key` differs when this stands in for a panel that failed part-way (its box may already exist)."""
    mine = ctx.view()
    public = ctx.state.view(None)
    secret = {k: v for k, v in mine.items() if k not in public or public[k] != v}
    with draw.Sheet() as sheet:
        draw.view(mine, ctx.names, skip=list(secret), sheet=sheet)
        draw.private(ctx.player, secret, ctx.names, key=key, sheet=sheet)


def _mark(service: Tables, table_id: int) -> tuple[int, int, int]:
    """Note the table's signature this page shows; the page marks its log head (`span.muster-head`),
    invisibly: the browser tests and `bench/bench_browser.py` read it to know when a phone shows a move."""
    seen = service.store.signature(table_id)
    st.session_state[SEEN] = seen
    return seen


def _watch(service: Tables, table_id: int) -> None:
    """Redraw the whole page when another phone changes the table (polls one small query) since the
    table part of the page last drew it (`_mark`). Other phones at this server are woken at once
    (`live`, registered by the table part); the poll is the fallback, and leaves a move to a wake that
    is due (`live.due`) rather than redrawing the whole page as well."""
    @st.fragment(run_every=POLL_SECONDS)
    def poll() -> None:
        try:
            seen = service.store.signature(table_id)
        except StoreUnavailable:  # logged where it arose; the whole page shows it, once
            if not st.session_state.get(context.FAULT):
                st.session_state[context.FAULT] = True
                st.rerun(scope="app")
            return
        if st.session_state.get(context.FAULT):
            try:  # a read answers while another program holds the write lock: ask what a tap needs
                service.store.answers()
            except StoreUnavailable:
                return
            context.back_again()
        if seen != st.session_state.get(SEEN) and not live.due(table_id):
            st.rerun(scope="app")
    poll()


def _news(ctx: TableContext, history: list[Line], sheet: draw.Sheet) -> None:
    """What happened since the last move that everyone must notice: undos and table notices, on every phone."""
    fresh: list[Line] = []
    for line in reversed(history):
        if line.kind == "action":
            break
        fresh.append(line)
    for line in reversed(fresh):
        sheet.note("info", plain(line.format(ctx.typed_names)), icon="↩" if line.kind == "undo" else "⚑")


def _status(ctx: TableContext, sheet: draw.Sheet) -> None:
    """The engine's status line for this viewer (`State.prompt`), or how the table ended."""
    state, table = ctx.state, ctx.table
    if not table.playing and not state.is_terminal:
        if table.ended_by and table.ended_by.startswith("concede:"):
            loser = int(table.ended_by.split(":")[1])
            sheet.note("info", f"{ctx.name(loser)} conceded." + (f" {ctx.name(table.winner)} wins."
                                                               if table.winner is not None else ""))
        else:
            sheet.note("info", "The game ended without a winner." if table.winner is None
                       else f"{ctx.name(table.winner)} wins.")
        return
    text = ctx.line(state.prompt(ctx.player))
    to_act = ctx.player is not None and ctx.player in state.players_to_act() and ctx.acting
    sheet.note("success" if to_act else "info", text)
    for bot in bot_seats.thinking(table, [] if state.is_terminal else list(state.players_to_act())):
        sheet.note("info", f"{ctx.name(bot.seat)} is thinking…", icon="⏳")


def _moves(ctx: TableContext, layout: Callable[[TableContext, list[Action]], None]) -> None:
    state = ctx.state
    if state.is_terminal or ctx.player not in state.players_to_act():
        return
    legal: list[Action] = state.legal_actions(ctx.player)
    if layout is _move_buttons:  # pads only: a group of the table's surface, keyed as the container was
        with surface.group("moves"):
            layout(ctx, legal)
        ctx.typed_moves = legal
        return
    surface.flush()  # a panel's own layout may draw Streamlit's widgets
    with st.container(key="moves"):
        layout(ctx, legal)


def _confirm(ctx: TableContext) -> None:
    """The tapped move that cannot be taken back, asked about in a dialog (seen wherever the page is scrolled)."""
    pending = st.session_state.get(CONFIRM)
    if not pending or pending["table"] != ctx.table.id or pending["seat"] != ctx.player:
        _close_dialog()
        return
    if ctx.snap.moved_on_since(tuple(pending["offered"])):  # the table moved on while the question was open
        st.session_state.pop(CONFIRM, None)
        _close_dialog()
        context.flash("warning", STALE, pending.get("where"))  # beside the move that was tapped
        context.show_flashes()  # (at the top when the move has no place of its own)
        return
    st.session_state[ASKED] = True
    surface.flush()
    _ask(ctx.service, pending, ctx.state_id)


def _close_dialog() -> None:
    """Close the dialog this page left open, when only the table part redraws: Streamlit keeps a dialog open
    across reruns of the fragment that opened it (`streamlit_adapter.close_dialog`); where it cannot be closed
    in place, the whole page is redrawn instead."""
    if st.session_state.pop(ASKED, False) and not streamlit_adapter.close_dialog(DIALOG_TITLE):
        st.rerun(scope="app")


def _forget() -> None:
    st.session_state.pop(CONFIRM, None)


@st.dialog(DIALOG_TITLE, dismissible=False)  # a tap beside it must not drop the move unsaid: Cancel says no
def _ask(service: Tables, pending: dict[str, Any], state_id: str) -> None:
    label = pending["label"] or "This move"
    st.markdown(f"**{plain(label)}**")
    st.write(plain(pending["reason"]))
    yes, no = st.columns(2)
    yes.button(CONFIRM_YES, key=f"confirm-yes-{state_id}", width="stretch", on_click=_yes, args=(service, pending))
    no.button("Cancel", key=f"confirm-no-{state_id}", width="stretch", on_click=_cancel)


def _yes(service: Tables, pending: dict[str, Any]) -> None:
    """Carry out the confirmed move, then redraw the table part (which closes the dialog)."""
    act(service, pending["table"], pending["seat"], pending["action"], pending["offered"], pending["label"], True,
        pending.get("where"))
    st.rerun(TABLE_FRAGMENT)


def _cancel() -> None:
    _forget()
    st.rerun(TABLE_FRAGMENT)


def _move_buttons(ctx: TableContext, legal: list[Action]) -> None:
    """The legal moves in one pad; past BUTTONS_BEFORE_GROUPING, moves of one kind are picked from a list.
    No move is pre-selected as the primary one: the player reads, then taps."""
    state = ctx.state
    legal = list({move_key(a): a for a in legal}.values())  # an action listed twice is one button
    items: list[movepad.Item] = []
    if len(legal) <= BUTTONS_BEFORE_GROUPING:
        items = [ctx.choice(state.label(action), action, move_key(action)) for action in legal]
    else:
        groups: dict[str, list[Action]] = {}
        for action in legal:
            groups.setdefault(action.kind, []).append(action)
        for kind, actions in groups.items():
            if len(actions) == 1:
                items.append(ctx.choice(state.label(actions[0]), actions[0], move_key(actions[0])))
            else:
                items.append(movepad.Pick(f"pick-{kind}", context.pretty(kind), "Do: ",
                                          [(one_line(state.label(a)), a.to_json()) for a in actions]))
    ctx.pad(items, "move-list", title="Your moves", note=None if legal else "No move is open to you right now.")


def _other_move(ctx: TableContext, legal: list[Action]) -> None:
    """A move typed in by hand, for actions whose arguments the list above does not spell out."""
    box, opened = context.folded("Debug: other move (type its details)", "other-move-box")
    if opened:
        examples: dict[str, Action] = {}
        for action in legal:
            examples.setdefault(action.kind, action)
        with box:
            kind = st.selectbox("Kind", list(examples), format_func=context.pretty, key="other-kind")
            # The form is keyed by the position it was drawn at, as a pad's tap carries it: a move typed on a
            # page the table has left is never carried out against the new position (its form is gone).
            with st.form(f"other-move-{ctx.state_id}"):
                sample = examples[kind] if kind else None
                fields = {key: st.text_input(context.pretty(key), value=json.dumps(value), key=f"arg-{kind}-{key}")
                          for key, value in (sample.args.items() if sample else [])}
                if st.form_submit_button("Try this move", width="stretch") and kind:
                    args: dict[str, Any] = {}
                    for key, raw in fields.items():
                        try:
                            args[key] = json.loads(raw)
                        except json.JSONDecodeError:
                            args[key] = raw
                    typed = Action(kind, int(ctx.player or 0), args)
                    act(ctx.service, ctx.table.id, ctx.player, typed.to_json(), ctx.snap.head,
                        _label(ctx.state.label, typed), where="other-move")
                    st.rerun()
    context.show_beside("other-move")


def _seat_tools(ctx: TableContext, title: str | None = None) -> None:
    """Undo (when the engine allows it for this seat now) and concede (asked about first), as one pad; where the
    table allows hints and the seat is to act, "What would the bot do?" too, with its answer under the pad."""
    refusal = ctx.snap.match.undo_refusal(ctx.player)
    tools = [movepad.Choice("undo", "↩ Undo my last move", "undo", disabled=refusal is not None, help=refusal),
             movepad.Choice("concede", "Concede", "concede", ask=(
                 "Give up this game? It counts as a loss, "
                 + ("the others play on without you, " if ctx.service.plays_on(ctx.table) else "")
                 + "and it cannot be taken back.", "Yes, concede"))]
    hinting = allows_hints(ctx.table) and ctx.player in ctx.snap.state.players_to_act()
    if hinting:
        tools.append(movepad.Choice("hint", "What would the bot do?", "hint"))
    movepad.show(tools, "seat-tools", ctx.snap.head, partial(_tool, ctx.service, ctx.table.id, ctx.player),
                 title=title, columns=2, notices=context.take_beside("seat-tools"))
    answer = st.session_state.get(HINT)
    if hinting and answer and answer[0] == (ctx.table.id, ctx.snap.head, ctx.player):
        with draw.Sheet() as sheet, sheet.box(key="hint", summary="What the bot would do"):
            sheet.lines([f"{n}. {fill(label, ctx.typed_names)} — {win:.0%} chance of winning after it"
                         for n, (label, win) in enumerate(answer[1], start=1)], "muster-log")
            sheet.caption("Worked out from what your seat knows only (never the hidden cards); an estimate.")


def _tool(service: Tables, table_id: int, seat: int | None, tap: movepad.Tap) -> None:
    if tap.id == "undo" and tap.head is not None:
        _undo(service, table_id, seat, tap.head)
    elif tap.id == "concede":
        _concede(service, table_id, seat)
    elif tap.id == "hint":
        _hint(service, table_id, seat)


@context.calmly
def _hint(service: Tables, table_id: int, seat: int | None) -> None:
    """"What would the bot do?": the answer is kept for this position and drawn under the seat tools."""
    table = service.store.table(table_id)
    try:
        found = service.hints(table, seat, context.this_device())
    except (Refusal, StoreError) as err:
        context.refuse(err, "seat-tools")
        return
    st.session_state[HINT] = ((table_id, service.snapshot(table).head, seat), [(h.label, h.win) for h in found])


def _log(ctx: TableContext, history: list[Line]) -> None:
    """The history as this viewer may read it (`Match.history`), newest first, as plain text."""
    if not ctx.snap.entries:
        return
    # A folded box of HTML (a block of the table's surface, which keeps it open or shut as the player left
    # it as moves come in): up to LOG_LINES lines the phone need not parse as Markdown at every move.
    with draw.Sheet() as sheet, sheet.box(key="log", summary=f"Moves so far ({ctx.snap.moves})", folded=True):
        sheet.lines([f"{f'{line.seq}.' if line.seq else 'Setup:'} {line.format(ctx.typed_names)}"
                     + (" (taken back)" if line.undone else "")
                     for line in reversed(history[-LOG_LINES:])], "muster-log")


def _label(label: Callable[[Action], str], action: Action) -> str:
    try:
        return label(action)
    except Exception:  # a typed move the engine cannot word: show it as typed
        return str(action)


def _take_seat(service: Tables, table: TableInfo, joining: bool) -> None:
    """Joining by code: the seats nobody has claimed yet, and watching; a spectator's page keeps the offer folded."""
    free = table.free_seats
    if not free and not joining:
        return
    box = st.container(border=True, key="join-seats") if joining else st.expander(f"Free seats ({len(free)})")
    with box:
        if joining:
            st.markdown("**Which seat is yours?**")
        if not free:
            st.info("Every seat is taken. If yours was lost with a phone, ask the host to re-issue it.")
        for s in free:
            st.button(f"Take seat: {plain(s.name)}", key=f"take-{s.seat}", on_click=_claim,
                      args=(service, table.id, s.seat, None), width="stretch", type="primary")
        if joining:
            st.button("Watch as spectator", key="watch", on_click=context.go, kwargs={"table": table.code},
                      width="stretch")


def _host_tools(service: Tables, table: TableInfo, host: str | None, expanded: bool) -> None:
    """The creator's phone: each seat's link and QR code until a phone claims it (never after), and re-issuing a seat.

    A claimed seat's link is never shown again, so the host cannot look at another player's hand or act
    for them through it. A seat whose phone was lost gets a new link instead, which the host holds: whoever
    opens it sees that seat's cards, the host included. So re-issuing is said plainly to every phone
    (`Tables.reissue`, `REISSUED`), and so is the new link being opened (`Tables.hold`).
    """
    with st.expander("Host: hand out the seats", expanded=expanded):
        st.write("Each player scans their own seat's code (or opens its link, or joins by the code and takes "
                 "a free seat). Once a phone has taken a seat, its link is not shown here again.")
        st.caption("Keep this page's address: it is the host link, the only way back to the seats not taken yet.")
        for s in table.seats:
            if bot_seats.level_of(s):
                st.markdown(f"**{plain(bot_seats.shown_name(s))}** · played by a bot on the server")
            elif s.claimed:
                st.markdown(f"**{plain(s.name)}** · taken")
            else:
                url = context.link(table=table.code, seat=s.token)
                state = f"re-issued: give {plain(s.name)} this new link" if s.reserved else "free"
                st.markdown(f"**{plain(s.name)}** · {state} — [open this seat]({url})")
                st.image(context.qr_png(url, box=5), width=200)
                if table.playing and not s.reserved:
                    st.button(f"I am {plain(s.name)}: play on this phone", on_click=_claim, width="stretch",
                              args=(service, table.id, s.seat, host), key=f"host-take-{s.seat}")
            if table.playing and (s.claimed or s.reserved):
                with st.popover(f"Re-issue {plain(s.name)}'s seat", width="stretch"):
                    st.write(f"Give {plain(s.name)}'s seat a new link? The old link stops working at once (for a "
                             "phone that was lost or handed to the wrong player). You will hold the new link, so "
                             f"you could see {plain(s.name)}'s cards: every phone is told so.")
                    st.button("Yes, re-issue it", key=f"reissue-{s.seat}", on_click=_reissue,
                              args=(service, table.id, s.seat, host), width="stretch")
            if table.playing and not bot_seats.level_of(s):
                with st.popover(f"Hand {plain(s.name)}'s seat to a bot", width="stretch"):
                    st.write(f"A bot plays {plain(s.name)}'s seat from its next turn (a player who left, or practice); "
                             "every phone is told. Re-issue the seat to take it back.")
                    for level in bot_seats.LEVELS:
                        st.button(f"Bot ({level})", key=f"to-bot-{s.seat}-{level}", on_click=_to_bot,
                                  args=(service, table.id, s.seat, level, host), width="stretch")


def _move_seat(table: TableInfo, seat: Seat) -> None:
    """This seat's own link as a QR code, to carry the seat to another phone (the link is the seat).

    Folded lazily (`context.folded`): its image is made, sent and laid out only when opened."""
    box, opened = context.folded("Move this seat to another phone", "seat-move-box")
    if not opened:
        return
    with box:
        url = context.link(table=table.code, seat=seat.token)
        st.write("Scan this on the other phone, or open the link there. Keep it private: it plays your seat.")
        st.image(context.qr_png(url, box=5), width=220)
        st.code(url, language=None)


def _share(table: TableInfo) -> None:
    """The table's spectator link and QR code, folded lazily like `_move_seat`."""
    box, opened = context.folded("Invite spectators", "share-box")
    if not opened:
        return
    with box:
        url = context.link(table=table.code)
        st.write(f"Join code **{table.code}**, or scan:")
        st.image(context.qr_png(url), width=220)
        st.code(url, language=None)
