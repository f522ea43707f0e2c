"""A part of a page drawn as few elements: its read-only HTML and its pads, one element per stretch (surface.js).

Why: every element is a message from the server and React and styling work on the phone at every
redraw, and a dialog or an expander costs a whole component of its own; gathered, medieval's table part
is 2 elements instead of 12, and the phone keeps what did not change (docs/performance.md, sixth round,
measures what that saved and what it did not). While a surface is open (`drawing`), `render.Sheet` and
`Page.pad` add blocks to it instead of drawing elements of their own, and the blocks go to the
phone together, as one components-v2 element, when a Streamlit element must come next (`flush`, which
a panel calls before its own widgets) or when the part ends. On the phone a block that did not change
keeps its nodes, so a redraw touches only what changed. The blocks live in the page itself (no shadow
root), so the page's styles (`page_styles.STYLE_SHEETS`) apply to them and tests find them by their classes.

A tap on a pad is the element's trigger (`tap`), Streamlit's public channel from an element to the server:
its callback reads it as the pad was drawn (`movepad.Pad.read`) and hands it to the handler the page was given
with the pad, before the page is drawn again (`_tapped`). A folded box whose
contents are built only while it is open (`companion.folds`) is a block too while it is shut, and a tap on
its label is a tap of the same kind; a countdown (`companion.clock`) is a sheet's HTML that surface.js ticks,
and the table part's listener (`listen`, listen.js) is the last block. So a table part that draws no Streamlit
widget of a panel's own is one element, one message and one redraw.

The element's data is the list of blocks, never a dict: Streamlit looks for dataframes among a dict's
values, which imports pandas and pyarrow when the first page is drawn (0.2-0.4 s for the first phone
after a start) and costs time at every run. The hexbattle board's data is a list for the same reason.

A stretch is sent where the page stands when it ends, in one message: nothing of it goes to the phone before
its element. (It once reserved its place at its first block with `st.empty()`; that placeholder went out as a
message of its own while the rest of the stretch was still being worked out, and Streamlit, which sends a
session's messages at most once every 5 ms, then held the element back until its next round: up to 5 ms of a
tap, most often on the taps that ask the engine its questions, docs/performance.md.) So what the surface cannot
see, a Streamlit element drawn between two of its blocks (Streamlit has no public way to ask what the page drew
meanwhile), would show before the stretch: a page draws its own Streamlit elements only through the page's seam
(`companion.page`: `Page.widgets`, `Page.container` and `Page.fold` send the stretch first, a container's and a
fold's end too).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from companion import components
from companion.components.movepad import Pad, TapHandler

HERE = Path(__file__).parent
LOG = logging.getLogger("muster.companion")

SCRIPT = components.frontend(HERE / "surface.js", parts=(HERE / "listen.js",))
"""The surface's JavaScript as the browser gets it: the tap rule (sight.js), the listener (listen.js), surface.js."""
# Its code is a file the phone fetches once where the server can serve it (`components.Frontend`), and its styles
# (surface.css) are the page's (`page_styles.STYLE_SHEETS`): Streamlit would send either inside every element at
# every redraw.
ELEMENT = components.Frontend("muster_surface", SCRIPT, {"html": "", "isolate_styles": False})

FoldHandler = Callable[[dict[str, Any]], None]  # what a tap on a block that is not a pad does (a shut fold's label)


@dataclass
class _Stretch:
    blocks: list[dict[str, Any]] = field(default_factory=list)
    taps: dict[str, FoldHandler] = field(default_factory=dict)  # a fold's key -> what its tap does
    pads: dict[str, tuple[Pad, TapHandler]] = field(default_factory=dict)  # a pad's key -> it, what its tap does
    keys: set[str] = field(default_factory=set)  # the keys of its blocks so far


@dataclass
class _Surface:
    key: str
    on_lost: Callable[[], None] | None = None  # a tap on a pad this page no longer draws (`drawing`)
    sent: int = 0  # stretches sent so far in this run (each one's element key counts them)
    stretch: _Stretch | None = None
    groups: tuple[tuple[str, dict[str, Any]], ...] = ()  # the groups blocks added now are in, outermost first (`group`)

    def add(self, block: dict[str, Any], on_tap: FoldHandler | None) -> _Stretch:
        if self.stretch is None:
            self.stretch = _Stretch()
        block["key"] = block.get("key") or _content_key(block["html"], self.stretch.keys)
        self.stretch.keys.add(block["key"])
        if self.groups:
            block["group"] = self.groups
        self.stretch.blocks.append(block)
        if on_tap is not None:
            self.stretch.taps[block["key"]] = on_tap
        return self.stretch

    def send(self) -> None:
        """Send the stretch gathered so far, as one element where the page stands."""
        stretch, self.stretch = self.stretch, None
        if stretch is None or not stretch.blocks:
            return
        key = f"{self.key}-{self.sent}"
        self.sent += 1
        ELEMENT(data=_grouped(stretch.blocks), key=key,
                on_tap_change=lambda: _tapped(sent_tap(key), stretch, self.on_lost), on_moved_change=_moved)


def _content_key(html: str, taken: set[str]) -> str:
    """A block with no key of its own (HTML: `render.Sheet`) is keyed by what it shows: one that did not change
    keeps its nodes on the phone wherever it now stands (a note drawn above it moves it down, not anew), and only
    the blocks that changed are parsed and laid out again. `taken`: the keys of the stretch so far (the same
    block twice gets a number)."""
    digest = hashlib.sha1(html.encode()).hexdigest()[:12]
    key, n = f"h-{digest}", 1
    while key in taken:
        n += 1
        key = f"h-{digest}-{n}"
    return key


def _grouped(blocks: list[dict[str, Any]], depth: int = 0) -> list[dict[str, Any]]:
    """Blocks in a row of one group become one block holding them (`{key, group, blocks}` and the group's look),
    a group inside it likewise."""
    out: list[dict[str, Any]] = []
    for block in blocks:
        groups = block.get("group", ())
        if len(groups) <= depth:
            block.pop("group", None)
            out.append(block)
            continue
        name, look = groups[depth]
        if not (out and out[-1].get("group") == name and "inner" in out[-1]):
            out.append({"key": f"group-{name}", "group": name, "inner": []} | look)
        out[-1]["inner"].append(block)
    for block in out:
        if "inner" in block:
            block["blocks"] = _grouped(block.pop("inner"), depth + 1)
    return out


_open: ContextVar[_Surface | None] = ContextVar("muster_surface", default=None)


@contextmanager
def drawing(key: str, on_lost: Callable[[], None] | None = None) -> Iterator[None]:
    """Gather what `render.Sheet` and `Page.pad` draw in the block into stretches (element keys `KEY-N`).

    `on_lost` is called for a tap on a pad the page no longer draws where the phone showed it: the page had
    moved on (another phone's move redrew it) before the tap arrived, so the tap is not carried out and the
    player is told why rather than seeing their tap vanish."""
    surface = _Surface(key, on_lost)
    token = _open.set(surface)
    try:
        yield
        surface.send()
    finally:
        _open.reset(token)


def add(block: dict[str, Any], on_tap: FoldHandler | None = None) -> bool:
    """Add `block` ({"html": ...}, keyed by what it shows, or {"key": ..., "fold": ...}) to the open surface;
    False when none is open."""
    surface = _open.get()
    if surface is None:
        return False
    surface.add(block, on_tap)
    return True


def pad(pad: Pad, on_tap: TapHandler) -> None:
    """Add `pad` (`companion.components.movepad.pad`) to the open surface (with none open: as a surface of its
    own, keyed `KEY-0`): a tap on it is read as drawn (`Pad.read`) and goes straight to `on_tap`. This is
    `Page.pad` on a phone (`companion.streamlit_page`)."""
    with nullcontext() if _open.get() else drawing(pad.key):
        surface = _open.get()
        assert surface is not None  # opened just above if it was not
        surface.add({"key": pad.key, "pad": pad.data}, None).pads[pad.key] = pad, on_tap


@contextmanager
def group(key: str, beside: bool = False, fold: str | None = None) -> Iterator[None]:
    """The blocks added in the block are wrapped together, in a box with the class a keyed Streamlit container
    has (`st-key-KEY`): found the same way whoever draws it. `beside`: a bordered box whose first block and a
    pad right after it stand side by side (a countdown and its button), the others under them. `fold`: a box
    that folds under this label, shut at first (the phone keeps it as the player left it). With no surface
    open, a keyed container (in an expander, for `fold`)."""
    surface = _open.get()
    if surface is None:
        with st.expander(fold) if fold else nullcontext(), st.container(key=key, border=beside):
            yield
        return
    look: dict[str, Any] = {"beside": True} if beside else {"fold": fold} if fold else {}
    outer, surface.groups = surface.groups, (*surface.groups, (key, look))
    try:
        yield
    finally:
        surface.groups = outer


def listen(url: str, page: str, head: int) -> bool:
    """The table part's listener (listen.js) as the open surface's last block: `url` the route that tells of
    moves (`companion.heads`), `page` the name this page's run gave it, `head` the part's head. When the route says
    the table moved past `head`, the element's trigger ("moved") reruns the part, as a tap does: the server never
    reaches into a phone's session. False when no surface is open."""
    return add({"key": "listen", "listen": [url, page, head]})


def _moved() -> None:
    """The listener's trigger: the fragment's rerun is the whole of what it asks."""


def flush() -> None:
    """Send what the open surface gathered so far: a Streamlit element of the page's own comes next."""
    surface = _open.get()
    if surface is not None:
        surface.send()


@contextmanager
def within(box: Any) -> Iterator[Any]:
    """Inside a Streamlit container `box` (a keyed container, an expander) between two stretches: what the open
    surface gathered before goes before it, what is drawn inside ends with it, and what follows goes after it."""
    flush()
    with box:
        yield box
        flush()


def sent_tap(key: str) -> Any:
    """What the phone sent through Streamlit as the tap of the components-v2 element `key` (a surface's
    stretch, the hexbattle board), read in its callback."""
    result = st.session_state.get(key)
    return getattr(result, "tap", None) if result is not None else None


def _tapped(raw: Any, stretch: _Stretch, on_lost: Callable[[], None] | None) -> None:
    """The tap the phone sent, to the pad (or shut fold) it names: a pad's, read as that pad was drawn, to the
    handler the page was given with it; a pad no longer drawn there gets `on_lost` (anything that names no block
    at all is no tap, and a fold opened twice is open)."""
    if not (isinstance(raw, dict) and isinstance(raw.get("pad"), str)):
        return
    if raw["pad"] in stretch.pads:
        drawn, on_tap = stretch.pads[raw["pad"]]
        tap = drawn.read(raw)
        if tap is not None:
            on_tap(tap)
    elif raw["pad"] in stretch.taps:
        stretch.taps[raw["pad"]](raw)
    elif on_lost is not None and not raw.get("open"):
        on_lost()


__all__ = ["ELEMENT", "add", "drawing", "flush", "group", "listen", "pad", "sent_tap"]
