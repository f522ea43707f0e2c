"""The one interface a table's page is drawn through, with a Streamlit backend and a recording backend.

Why: as `generator/canvas.py` is for printables, this is the seam between what a panel says (this
text, these moves, this fold) and how a phone gets it. Panels draw only through a `Page`: read-only
HTML (`sheet`), move buttons (`pad`), a box built only while open (`fold`), a keyed group (`group`),
a keyed Streamlit container that what is drawn inside goes into (`container`), and one escape hatch for a
Streamlit widget of their own (`widgets`, which returns Streamlit itself after what the page gathered so
far). A panel opens a Streamlit container holding sheets or pads only through `container`: the page learns
where its own drawing goes on (`companion.components.surface`). `companion.streamlit_page` draws a page on a phone (the table
part's surface); `RecordingPage` keeps what was drawn, so tests read each viewer's page, and tap its
pads, with no server.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

import streamlit as st

from companion.components.movepad import Pad, TapHandler
from companion.render import Sheet



class Page(Protocol):
    """What a panel (and the table part around it) may draw; every backend does exactly these."""

    def sheet(self) -> AbstractContextManager[Sheet]:
        """A sheet of read-only HTML (`render.Sheet`), drawn on this page when the block ends."""

    def pad(self, pad: Pad, on_tap: TapHandler) -> None:
        """Move buttons (`companion.components.movepad.pad`); a tap on them, read as drawn (`Pad.read`), runs
        `on_tap`."""

    def fold(self, label: str, key: str) -> tuple[AbstractContextManager[object], bool]:
        """A folded box whose contents are built only while it is open: (the box, whether it is open)."""

    def group(self, key: str, beside: bool = False, fold: str | None = None) -> AbstractContextManager[None]:
        """What the block draws, kept together under `key` (the moves: `moves`); `beside`: in a bordered box, the
        first thing drawn and a pad right after it side by side, the rest under them (a countdown and its button);
        `fold`: in a box that folds under this label, shut at first (built whether open or not, unlike `fold`)."""

    def container(self, key: str, border: bool = False) -> AbstractContextManager[None]:
        """A Streamlit container keyed `key` (`st-key-KEY`): what the block draws goes into it, in order."""

    def widgets(self) -> ModuleType:
        """The escape hatch: Streamlit itself, for a widget of the panel's own, after what was drawn so far."""


@dataclass(frozen=True)
class Drawn:
    """One thing a recorded page drew: `kind` is html, pad, fold, container or widgets; `key` names a pad, fold
    or container."""

    kind: str
    text: str = ""  # html: the markup; fold: its label
    key: str | None = None
    data: dict[str, Any] | None = None  # a pad's, as the phone gets it
    pad: Pad | None = field(default=None, compare=False, repr=False)
    on_tap: TapHandler | None = field(default=None, compare=False, repr=False)
    group: str | None = None


TAG = re.compile(r"<[^>]+>")


@dataclass
class RecordingPage:
    """A page that keeps what is drawn (`drawn`) instead of sending it: for tests, which read it as a viewer
    would (`text`), find its pads (`pads`) and tap them (`tap`). Folds are open when `open_folds`."""

    open_folds: bool = True
    drawn: list[Drawn] = field(default_factory=list)
    _group: str | None = None

    @contextmanager
    def sheet(self) -> Iterator[Sheet]:
        with Sheet(self._html) as sheet:
            yield sheet

    def _html(self, markup: str) -> None:
        self.drawn.append(Drawn("html", markup, group=self._group))

    def pad(self, pad: Pad, on_tap: TapHandler) -> None:
        self.drawn.append(Drawn("pad", key=pad.key, data=pad.data, pad=pad, on_tap=on_tap, group=self._group))

    def fold(self, label: str, key: str) -> tuple[AbstractContextManager[object], bool]:
        self.drawn.append(Drawn("fold", label, key=key, group=self._group))
        return _nothing(), self.open_folds

    @contextmanager
    def group(self, key: str, beside: bool = False, fold: str | None = None) -> Iterator[None]:
        if fold is not None:
            self.drawn.append(Drawn("fold", fold, key=key, group=self._group))
        outer, self._group = self._group, key
        try:
            yield
        finally:
            self._group = outer

    @contextmanager
    def container(self, key: str, border: bool = False) -> Iterator[None]:
        self.drawn.append(Drawn("container", key=key, group=self._group))
        yield

    def widgets(self) -> ModuleType:
        self.drawn.append(Drawn("widgets", group=self._group))
        return st

    def text(self) -> str:
        """Every word the page shows, as a viewer reads it: the sheets' text (tags dropped) and the pads' titles,
        lines, buttons and list entries, one line each."""
        out: list[str] = []
        for item in self.drawn:
            if item.kind == "html":
                out.append(html.unescape(TAG.sub(" ", item.text)))
            elif item.kind == "fold":
                out.append(item.text)
            elif item.kind == "pad" and item.data is not None:
                out += [item.data.get("title", ""), *item.data.get("lines", []), item.data.get("note", "")]
                for entry in item.data["items"]:
                    out.append(entry["label"])
                    out += [option["label"] for option in entry.get("options", [])]
        return "\n".join(" ".join(line.split()) for line in out if line and line.strip())

    def pads(self) -> dict[str, Drawn]:
        """The pads drawn, by key."""
        return {item.key: item for item in self.drawn if item.kind == "pad" and item.key is not None}

    def tap(self, pad: str, item: str, value: Any = None) -> None:
        """Tap `item` of the pad `pad` as the phone would: with the item's value (or, for a list, `value`) and
        the position the pad showed, read as the surface reads it (`Pad.read`)."""
        drawn = self.pads()[pad]
        assert drawn.pad is not None and drawn.on_tap is not None
        entry = next(e for e in drawn.pad.data["items"] if e["id"] == item)
        sent = value if entry["kind"] == "select" else entry.get("value")
        tap = drawn.pad.read({"pad": pad, "id": item, "value": sent, "head": drawn.pad.data["head"]})
        if tap is not None:
            drawn.on_tap(tap)


@contextmanager
def _nothing() -> Iterator[None]:
    yield
