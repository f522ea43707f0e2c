"""A table's page: the engine's view for this phone's seat (or a spectator), its legal moves as buttons, undo and concede.

The seat comes only from the secret token in the link; without one the page is a
spectator's: `view(None)`, no moves, no undo, no concede, but it offers the seats no
phone has claimed yet. The host link (`host=TOKEN`, kept by the creator's phone) shows
every seat's link and QR code at any time and can release a seat. A small fragment
polls the table's last action and seats every 1.5 s and redraws the page when they change.

A move button carries the action itself and the log head it was offered at (its state
id, as in boardgame.io), and its key is made of both: a tap that arrives after the table
moved on is refused (`tables.Stale`), so a double tap is one action. Player names and
log lines are player text: they go through `render.plain`, never as Markdown.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from companion import context, live, panels
from companion import render as draw
from companion.render import plain
from companion.store import Seat, StoreError, TableInfo
from companion.tables import ReplayError, Snapshot, Stale, Tables
from engine.core import Action, Refusal

LOG = logging.getLogger("muster.companion")

POLL_SECONDS = 1.5
BUTTONS_BEFORE_GROUPING = 10


@dataclass
class TableContext:
    """What a game panel gets: the table, this phone's seat, the current position, and a way to act."""

    service: Tables
    table: TableInfo
    seat: Seat | None
    snap: Snapshot

    moves_drawn: bool = False

    @property
    def state(self) -> Any:
        return self.snap.state

    def moves(self) -> None:
        """Draw this seat's move buttons here (a panel calls it between its view and its tools)."""
        if not self.moves_drawn and self.table.playing and self.seat is not None:
            self.moves_drawn = True
            _moves(self)

    @property
    def player(self) -> int | None:
        return self.seat.seat if self.seat else None

    @property
    def names(self) -> list[str]:
        """Seat names ready for Markdown (escaped: a name shows as typed)."""
        return [plain(s.name) for s in self.table.seats]

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
        return plain(self.table.seats[player].name)

    def button(self, label: str, action: Action, key: str, primary: bool = False) -> None:
        """A full-width button that submits `action` for this seat, offered at this page's position.

        The key carries the state id, so a tap that lands after the table moved on finds either
        no button (nothing happens) or this one with its old position (refused as stale).
        """
        st.button(plain(label), key=f"{key}-{self.state_id}", on_click=act,
                  args=(self.service, self.table.id, self.player, action.to_json(), self.snap.head),
                  type="primary" if primary else "secondary", width="stretch")


@live.waking
@context.calmly
def act(service: Tables, table_id: int, seat: int | None, action: dict[str, Any],
        offered: tuple[int, int] | None = None) -> None:
    """Button callback: apply the action as offered at `offered`, or keep the refusal to show."""
    try:
        service.act(service.store.table(table_id), seat, Action.from_json(action), offered)
    except Stale as err:
        context.flash("warning", str(err))
    except (Refusal, StoreError, ReplayError) as err:
        context.flash("error", str(err))


def move_key(action: Action) -> str:
    """A widget key naming the action itself (never its place in a list, which shifts as the table moves)."""
    digest = hashlib.sha1(json.dumps(action.to_json(), sort_keys=True).encode()).hexdigest()[:12]
    return f"move-{action.kind}-{digest}"


@live.waking
@context.calmly
def _undo(service: Tables, table_id: int, seat: int | None) -> None:
    try:
        entry = service.undo(service.store.table(table_id), seat)
        context.flash("success", f"Took back action {entry.seq}.")
    except (Refusal, StoreError) as err:
        context.flash("error", str(err))


@live.waking
@context.calmly
def _concede(service: Tables, table_id: int, seat: int | None) -> None:
    try:
        service.concede(service.store.table(table_id), seat)
    except (Refusal, StoreError) as err:
        context.flash("error", str(err))


@live.waking
@context.calmly
def _claim(service: Tables, table_id: int, seat: int, host: str | None) -> None:
    """Button callback: take a free seat, then open its private link on this phone."""
    try:
        taken = service.store.claim_seat(table_id, seat)
    except StoreError as err:
        context.flash("error", str(err))
        return
    table = service.store.table(table_id)
    context.go(table=table.code, seat=taken.token, host=host)


@live.waking
@context.calmly
def _release(service: Tables, table_id: int, seat: int, host: str | None) -> None:
    """Button callback (host only): free a seat under a new token, so its old link stops working."""
    try:
        freed = service.store.reissue_seat(table_id, seat, host)
    except StoreError as err:
        context.flash("error", str(err))
        return
    context.flash("success", f"{plain(freed.name)}'s seat is free again; its old link no longer works. "
                             "Its new link is below, or a phone can take it by the join code.")


def render(service: Tables, code: str, token: str | None, host: str | None = None, joining: bool = False) -> None:
    table = service.store.table_by_code(code)
    if table is None:
        st.error(f"There is no table with the code '{code}'.")
        st.button("Back to the lobby", on_click=context.go, width="stretch", key="back-missing")
        return
    seat = table.seat_by_token(token)
    hosting = table.is_host(host)
    st.markdown(f"### {plain(service.game_name(table.game))} · `{table.code}`")
    if token and seat is None:
        st.warning("This seat link no longer works here (the host may have released the seat, or the link is "
                   "wrong); you are watching as a spectator. Ask the host for the seat's new link, or take a free seat.")
    if host and not hosting:
        st.warning("This host link is not valid for this table; you are watching as a spectator.")
    if seat is not None and not seat.claimed and table.playing:
        service.store.mark_claimed(table.id, seat.token)
    if seat is not None:
        st.caption(f"You are **{plain(seat.name)}**.")
    elif hosting:
        st.caption("You are the host: this phone watches until you take a seat below.")
    else:
        st.caption("You are watching as a spectator.")
    context.show_flashes()
    host = host if hosting else None
    if seat is None and table.playing and not hosting:
        _take_seat(service, table, joining or bool(token))  # a dead seat link goes straight to the free seats
    if hosting:
        _host_tools(service, table, host, expanded=seat is None)
    _watch(service, table.id, service.store.signature(table.id))
    try:
        snap = service.snapshot(table)
    except (ReplayError, Refusal) as err:
        st.error(str(err))
        return
    ctx = TableContext(service, table, seat, snap)
    _status(ctx)
    panel = panels.panel_for(table.game)
    if panel is not None:
        try:
            panel(ctx)
        except Refusal as err:
            st.error(str(err))
        except Exception:  # a panel out of step with its engine must not cost the table its game
            LOG.exception("the %s panel failed", table.game)
            st.error("This game's panel could not be drawn; the plain view and moves follow.")
            _generic_view(ctx, key="private-plain")
    else:
        _generic_view(ctx)
    ctx.moves()
    if table.playing and seat is not None:
        _seat_tools(ctx)
    _log(ctx)
    if seat is not None:
        _move_seat(table, seat)
    _share(table)
    st.button("⬅ Lobby", on_click=context.go, width="stretch", key="to-lobby")


def _generic_view(ctx: TableContext, key: str = "private") -> None:
    """The engine's view; what only this seat may see (keys a spectator's view lacks) is set apart.

    `key` differs when this stands in for a panel that failed part-way (its box may already exist)."""
    mine = ctx.view()
    public = ctx.state.view(None)
    secret = {k: v for k, v in mine.items() if k not in public or public[k] != v}
    draw.view(mine, ctx.names, skip=list(secret))
    draw.private(ctx.player, secret, ctx.names, key=key)


def _watch(service: Tables, table_id: int, seen: tuple[int, int, int]) -> None:
    """Redraw the whole page when another phone changes the table (polls one small query).

    The page also marks the log head it was drawn at (`span.muster-head`), invisibly: the browser
    tests and `bench/bench_browser.py` read it to know when a phone shows a move."""
    st.markdown(f'<span class="muster-head" data-head="{seen[0]}"></span>', unsafe_allow_html=True)
    live.watch(table_id)
    @st.fragment(run_every=POLL_SECONDS)
    def poll() -> None:
        if service.store.signature(table_id) != seen:
            st.rerun(scope="app")
    poll()


def _status(ctx: TableContext) -> None:
    state, table = ctx.state, ctx.table
    if not table.playing:
        if table.ended_by and table.ended_by.startswith("concede:"):
            loser = int(table.ended_by.split(":")[1])
            st.info(f"{ctx.name(loser)} conceded." + (f" {ctx.name(table.winner)} wins." if table.winner is not None else ""))
        elif table.winner is not None:
            st.success(f"{ctx.name(table.winner)} wins.")
        else:
            st.info("The game ended without a winner.")
        return
    if state.is_terminal:
        st.success(f"{ctx.name(state.winner)} wins." if state.winner is not None else "The game is over: no winner.")
        return
    waiting = state.players_to_act()
    if ctx.player is not None and ctx.player in waiting:
        st.success("Your move." if len(waiting) == 1 else "Your move (the others choose at the same time).")
    else:
        st.info("Waiting for " + ", ".join(ctx.name(p) for p in waiting) + "." if waiting else "Waiting.")


def _moves(ctx: TableContext) -> None:
    state = ctx.state
    if state.is_terminal or ctx.player not in state.players_to_act():
        return
    legal: list[Action] = state.legal_actions(ctx.player)
    with st.container(key="moves"):
        _move_buttons(ctx, legal)


def _move_buttons(ctx: TableContext, legal: list[Action]) -> None:
    state = ctx.state
    st.markdown("**Your moves**")
    if not legal:
        st.caption("No move is open to you right now.")
        return
    legal = list({move_key(a): a for a in legal}.values())  # an action listed twice is one button
    if len(legal) <= BUTTONS_BEFORE_GROUPING:
        for action in legal:  # no move is pre-selected as the primary one: the player reads, then taps
            ctx.button(state.label(action), action, key=move_key(action))
    else:
        groups: dict[str, list[Action]] = {}
        for action in legal:
            groups.setdefault(action.kind, []).append(action)
        for kind, actions in groups.items():
            if len(actions) == 1:
                ctx.button(state.label(actions[0]), actions[0], key=move_key(actions[0]))
                continue
            chosen = st.selectbox(context.pretty(kind), range(len(actions)), key=f"pick-{kind}-{ctx.state_id}",
                                  format_func=lambda i, a=actions: state.label(a[i]))
            picked = actions[chosen]
            ctx.button(f"Do: {state.label(picked)}", picked, key=f"do-{move_key(picked)}")
    _other_move(ctx, legal)


def _other_move(ctx: TableContext, legal: list[Action]) -> None:
    """A move typed in by hand, for actions whose arguments the list above does not spell out."""
    examples: dict[str, Action] = {}
    for action in legal:
        examples.setdefault(action.kind, action)
    with st.expander("Other move (type its details)"):
        kind = st.selectbox("Kind", list(examples), format_func=context.pretty, key="other-kind")
        with st.form("other-move"):
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
                act(ctx.service, ctx.table.id, ctx.player, Action(kind, int(ctx.player or 0), args).to_json(),
                    ctx.snap.head)
                st.rerun()


def _seat_tools(ctx: TableContext) -> None:
    entries = ctx.snap.entries
    c1, c2 = st.columns(2)
    mine = bool(entries) and entries[-1].seat == ctx.player
    c1.button("↩ Undo my last move", key="undo", disabled=not mine, on_click=_undo,
              args=(ctx.service, ctx.table.id, ctx.player), width="stretch",
              help="You can take back your own last move while nobody has moved since.")
    with c2.popover("Concede", width="stretch"):
        st.write("Give up this game? It counts as a loss.")
        st.button("Yes, concede", key="concede", type="primary", on_click=_concede,
                  args=(ctx.service, ctx.table.id, ctx.player), width="stretch")


def _log(ctx: TableContext) -> None:
    entries = ctx.snap.entries
    if not entries:
        return
    with st.expander(f"Moves so far ({len(entries)})"):
        lines = []
        for entry in reversed(entries[-40:]):
            action = Action.from_json(entry.action)
            lines.append(plain(f"{entry.seq}. {ctx.table.seats[entry.seat].name}: {_label(ctx.state.label, action)}"))
        st.markdown("  \n".join(lines))


def _label(label: Callable[[Action], str], action: Action) -> str:
    try:
        return label(action)
    except Exception:  # a past action may not be labellable from today's position; show it raw
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
            st.info("Every seat is taken. If yours was lost with a phone, ask the host to release it.")
        for s in free:
            st.button(f"Take seat: {plain(s.name)}", key=f"take-{s.seat}", on_click=_claim,
                      args=(service, table.id, s.seat, None), width="stretch", type="primary")
        if joining:
            st.button("Watch as spectator", key="watch", on_click=context.go, kwargs={"table": table.code},
                      width="stretch")


def _host_tools(service: Tables, table: TableInfo, host: str | None, expanded: bool) -> None:
    """The creator's phone: every seat's link and QR code, at any time, and releasing a seat whose phone is lost."""
    with st.expander("Host: hand out the seats", expanded=expanded):
        st.write("Each player scans their own seat's code (or opens its link, or joins by the code and takes "
                 "a free seat). Keep these private: a seat link lets its holder play that seat.")
        st.caption("Keep this page's address: it is the host link, the only way back to these seat links.")
        for s in table.seats:
            url = context.link(table=table.code, seat=s.token)
            st.markdown(f"**{plain(s.name)}** · {'taken' if s.claimed else 'free'} — [open this seat]({url})")
            st.image(context.qr_png(url, box=5), width=200)
            if not s.claimed and table.playing:
                st.button(f"I am {plain(s.name)}: play on this phone", on_click=_claim, width="stretch",
                          args=(service, table.id, s.seat, host), key=f"host-take-{s.seat}")
            if table.playing:
                with st.popover(f"Release {plain(s.name)}'s seat", width="stretch"):
                    st.write(f"Give {plain(s.name)}'s seat a new link? The old link stops working at once (for a "
                             "phone that was lost or handed to the wrong player); the seat can then be taken again.")
                    st.button("Yes, release it", key=f"release-{s.seat}", type="primary", on_click=_release,
                              args=(service, table.id, s.seat, host), width="stretch")


def _move_seat(table: TableInfo, seat: Seat) -> None:
    """This seat's own link as a QR code, to carry the seat to another phone (the link is the seat)."""
    with st.expander("Move this seat to another phone"):
        url = context.link(table=table.code, seat=seat.token)
        st.write("Scan this on the other phone, or open the link there. Keep it private: it plays your seat.")
        st.image(context.qr_png(url, box=5), width=220)
        st.code(url, language=None)


def _share(table: TableInfo) -> None:
    with st.expander("Invite spectators"):
        url = context.link(table=table.code)
        st.write(f"Join code **{table.code}**, or scan:")
        st.image(context.qr_png(url), width=220)
        st.code(url, language=None)
