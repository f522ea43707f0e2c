"""What a game panel draws with: the table, this phone's seat, the position as this viewer may know it, and moves.

A panel (`companion.panels`) gets a `TableContext` and draws its game's view, then asks for the
seat's moves where they belong (`moves`), as buttons it lays out itself (`choice`, `pad`, `button`) or
as the plain list (`_move_buttons`). Moves are drawn as pads (`companion.components.movepad`): one
element per group of buttons, whose every tap carries the action itself and the log head the pad
showed (its state id, as in boardgame.io); a tap that arrives after the table moved on is refused
(`tables.Stale`), and a double tap is one action.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

import streamlit as st

from companion import asking, bot_seats, flashes, taps
from companion.components import movepad
from companion.page import Page
from companion.render import one_line, plain, pretty
from companion.store import Seat, TableInfo
from companion.streamlit_page import StreamlitPage
from companion.tables import Snapshot, Tables, allows_hints
from engine.core import Action, Refusal, State, fill

S = TypeVar("S", bound=State)

BUTTONS_BEFORE_GROUPING = 10


@dataclass
class TableContext:
    """What a game panel gets: the table, this phone's seat, the current position, and a way to act."""

    service: Tables
    table: TableInfo
    seat: Seat | None
    snap: Snapshot
    acting: bool = True  # False when another phone holds this seat now
    page: Page = field(default_factory=StreamlitPage)  # where the panel draws (`companion.page`)

    moves_drawn: bool = False
    tools_drawn: bool = False
    typed_moves: list[Action] | None = None  # the moves listed as a pad, which may also be typed in (`_other_move`)

    @property
    def state(self) -> State:
        """The position as this phone's viewer may know it (`Snapshot.seen_by`), never the real one: history
        lines and questions come from the match (`snap.match`), which writes them per viewer."""
        seen: State = self.snap.seen_by(self.player)
        return seen

    def state_as(self, kind: type[S]) -> S:
        """`state` as its game's own class, for a panel that reads its game's own facts (typed, not `Any`)."""
        seen = self.state
        if not isinstance(seen, kind):
            raise Refusal(f"This table's position is a {type(seen).__name__}, not a {kind.__name__}.")
        return seen

    def moves(self, layout: Callable[[TableContext, list[Action]], None] | None = None) -> None:
        """Draw this seat's moves here (a panel calls it between its view and its tools); `layout` draws the
        legal moves a panel lays out itself (with `choice` and `pad`, or `button`, and `move_key`) instead of
        the plain list. Either way they are sheets and pads, in the group `moves` of the table's surface: a
        Streamlit widget there would split the table part into more elements, each redrawn at every tap."""
        if not self.moves_drawn and self.table.playing and self.seat is not None and self.acting:
            self.moves_drawn = True
            _moves(self, layout or _move_buttons)

    def seat_tools(self, title: str | None = None) -> bool:
        """Draw this seat's undo and concede here, under `title` (a panel's top bar, as the seed's online
        hexbattle has Concede); the page draws them after the moves otherwise. Whether they were drawn."""
        if (not self.tools_drawn and self.table.playing and self.seat is not None and self.acting
                and self.service.seated(self.table, self.seat.seat, self.snap)):
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
        shown: dict[str, Any] = self.state.view(self.player)
        return shown

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
        reason = None if sure else asking.question(self.service, self.table, self.player, action, self.snap)
        return movepad.Choice(key, one_line(label), action.to_json() if action else None,
                              primary=primary and reason is None, disabled=action is None, sure=sure,
                              ask=(reason, asking.CONFIRM_YES) if reason else None)

    def pad(self, items: Sequence[movepad.Item], key: str, title: str | None = None, note: str | None = None,
            columns: int = 1, before: Callable[[], None] | None = None) -> None:
        """Move buttons as one element (`companion.components.movepad`): each tap carries its action and the
        position the pad was drawn at, so a tap that lands after the table moved on is refused (`tables.Stale`)
        and a double tap is one action. A refusal shows right under the button tapped. `before` runs first at
        each tap (a panel forgetting its selection)."""
        self.tool_pad(items, key, partial(taps.play_tap, self.service, self.table.id, self.player, key, before=before),
                      title=title, note=note, columns=columns)

    def tool_pad(self, items: Sequence[movepad.Item], key: str, on_tap: movepad.TapHandler, title: str | None = None,
                 note: str | None = None, columns: int = 1) -> None:
        """Buttons as one pad drawn at this position, whose taps run `on_tap`, with the refusals a tap on it left
        (`flashes.beside`) under it: the moves' pads (`pad`), the seat's tools, a game's own (waterloo's timer)."""
        self.page.pad(movepad.pad(items, key, self.snap.head, title=title, note=note, columns=columns,
                                  notices=flashes.take_beside(key)), on_tap)


def move_key(action: Action) -> str:
    """A widget key naming the action itself (never its place in a list, which shifts as the table moves)."""
    digest = hashlib.sha1(json.dumps(action.to_json(), sort_keys=True).encode()).hexdigest()[:12]
    return f"move-{action.kind}-{digest}"


def _moves(ctx: TableContext, layout: Callable[[TableContext, list[Action]], None]) -> None:
    state = ctx.state
    if state.is_terminal or ctx.player not in state.players_to_act():
        return
    legal: list[Action] = state.legal_actions(ctx.player)
    with ctx.page.group("moves"):
        layout(ctx, legal)
    if layout is _move_buttons:
        ctx.typed_moves = legal


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
                items.append(movepad.Pick(f"pick-{kind}", pretty(kind), "Do: ",
                                          [(one_line(state.label(a)), a.to_json()) for a in actions]))
    ctx.pad(items, "move-list", title="Your moves", note=None if legal else "No move is open to you right now.")


def _seat_tools(ctx: TableContext, title: str | None = None) -> None:
    """Undo (when the engine allows it for this seat now) and concede (asked about first), as one pad; where the
    table allows hints and the seat is to act, "What would the bot do?" too, with its answer under the pad."""
    if ctx.player is None:  # a spectator has no seat tools
        return
    refusal = ctx.snap.match.undo_refusal(ctx.player)
    tools = [movepad.Choice("undo", "↩ Undo my last move", "undo", disabled=refusal is not None, help=refusal),
             movepad.Choice("concede", "Concede", "concede", ask=(
                 "Give up this game? It counts as a loss, "
                 + ("the others play on without you, " if ctx.service.plays_on(ctx.table, ctx.snap) else "")
                 + "and it cannot be taken back.", "Yes, concede"))]
    hinting = allows_hints(ctx.table) and ctx.player in ctx.snap.state.players_to_act()
    if hinting:
        tools.append(movepad.Choice("hint", "What would the bot do?", "hint"))
    ctx.tool_pad(tools, "seat-tools", partial(taps.seat_tool, ctx.service, ctx.table.id, ctx.player), title=title,
                 columns=2)
    answer = st.session_state.get(taps.HINT)
    if hinting and answer and answer[0] == (ctx.table.id, ctx.snap.head, ctx.player):
        with ctx.page.sheet() as sheet, sheet.box(key="hint", summary="What the bot would do"):
            sheet.lines([f"{n}. {fill(label, ctx.typed_names)} — {win:.0%} chance of winning after it"
                         for n, (label, win) in enumerate(answer[1], start=1)], "muster-log")
            sheet.caption("Worked out from what your seat knows only (never the hidden cards); an estimate.")
