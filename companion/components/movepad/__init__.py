"""A seat's controls as one block of a surface: moves, undo, concede (drawn by `companion.components.surface`).

Why: a phone pays for every element Streamlit redraws, and a move button drawn with `st.button`
had to carry the position it was offered at in its key (so a stale tap found no button), which made
every move button a new widget at every move. A pad is a block with a fixed key whose data changes in
place, and each tap reports what the player saw: the item, its value (an engine action) and the
position the pad was drawn at (`Tap.head`), as boardgame.io's moves carry their state id. Python,
never the phone, decides what a tap does; a label shown anywhere comes from what this server drew,
not from the tap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

NOTICES = "movepad-shown-notices"  # session key: each pad's refusals, shown until this phone's next tap
WITHDRAWN = "The table moved on before you said yes, so nothing was done; here is the new position."


@dataclass(frozen=True)
class Choice:
    """One button. `ask` = (question, yes label): the phone asks first and sends only on "yes"."""

    id: str
    label: str
    value: Any
    primary: bool = False
    disabled: bool = False
    help: str | None = None
    ask: tuple[str, str] | None = None
    sure: bool = False  # the tap itself is the player's "yes" (kept here, never sent to the phone)
    chosen: bool | None = None  # a choice that makes no move (a toggle): whether it is the one picked now

    def drawn(self) -> dict[str, Any]:
        item: dict[str, Any] = {"kind": "button", "id": self.id, "label": self.label, "value": self.value}
        if self.primary:
            item["primary"] = True
        if self.chosen is not None:
            item["chosen"] = self.chosen
        if self.disabled:
            item["disabled"] = True
        if self.help:
            item["help"] = self.help
        if self.ask:
            item["ask"] = {"question": self.ask[0], "yes": self.ask[1]}
        return item


@dataclass(frozen=True)
class Pick:
    """A long list of like choices: picked from a list on the phone, then sent by one button (`go` + label).

    Nothing is picked until the player picks (the list opens on "Choose…" and its button waits), and options
    that read the same are one entry: to the player they are the same move (two copies of one card)."""

    id: str
    label: str
    go: str
    options: Sequence[tuple[str, Any]]

    def drawn(self) -> dict[str, Any]:
        first: dict[str, Any] = {}
        for label, value in self.options:
            first.setdefault(label, value)
        return {"kind": "select", "id": self.id, "label": self.label, "go": self.go,
                "options": [{"label": label, "value": value} for label, value in first.items()]}


Item = Choice | Pick


@dataclass(frozen=True)
class Tap:
    """A tap as the phone reported it: which item, its value, and the position the pad showed.

    `label` and `sure` are what this server drew for that item (None and False if the pad has moved on since)."""

    id: str
    value: Any
    head: tuple[int, int] | None
    label: str | None
    sure: bool = False


NO_POSITION = (0, 0)
"""The position a pad that makes no move is drawn at (taking a seat, opening a table, back to the lobby)."""

TapHandler = Callable[[Tap], None]
"""What a tap on a pad does: the handler a page is given with the pad."""


@dataclass(frozen=True)
class Pad:
    """A pad as drawn: what the phone gets (`data`, drawn by surface.js) and what this server keeps to read its
    taps (`read`). A page draws it (`companion.page.Page.pad`); on a phone its tap goes from the surface straight to
    the handler the page was given, read here on the way (`read` clears this phone's earlier
    refusals beside the pads and returns the tap; it carries nothing out)."""

    key: str
    data: dict[str, Any]
    sure: frozenset[str]  # items whose tap is the player's "yes" (never sent to the phone)

    def read(self, raw: dict[str, Any]) -> Tap | None:
        """The tap the phone sent on this pad, as this server drew it (anything of another shape is no tap at all,
        and so is a tap on a button drawn greyed out: the phone sends none, and a control the player saw disabled
        does nothing whatever a phone sends). A new tap: the refusals of earlier ones are read (`forget`)."""
        forget()
        if not isinstance(raw.get("id"), str):
            return None
        items: list[dict[str, Any]] = self.data["items"]
        item = next((i for i in items if i["id"] == raw["id"]), None)
        if item is not None and item.get("disabled"):
            return None
        label = None if item is None else item["label"] if item["kind"] == "button" else next(
            (o["label"] for o in item["options"] if o["value"] == raw.get("value")), None)  # a list: the option sent
        return Tap(raw["id"], raw.get("value"), reported_head(raw.get("head")), label, raw["id"] in self.sure)


def pad(items: Sequence[Item], key: str, head: tuple[int, int], title: str | None = None, note: str | None = None,
        columns: int = 1, notices: Sequence[tuple[str, str, str | None]] = (), lines: Sequence[str] = (),
        boxed: bool = False) -> Pad:
    """The pad `key` of `items` at the position `head`, for a page to draw (`page.pad(pad(...), on_tap)`; on a
    phone into the open surface, else as an element of its own, keyed `KEY-0`); a tap runs `on_tap` (in
    Streamlit's callback, before the page is drawn again).

    `lines` are plain text shown under the title, one per line (a box of news and its "Seen" button is one
    block this way); `boxed` draws a border around the pad, as a bordered container would.

    `notices` are (kind, message, item id or None): a refusal of a tap, shown right under the button tapped
    (under the pad when that button is gone) and scrolled to the middle of the screen, where the player looks;
    it stays through redraws until this phone's next tap."""
    drawn = [item.drawn() for item in items]
    # the tap is the player's "yes": the item says so, or the phone asked first (it sends only on "yes")
    sure = frozenset(item.id for item in items if isinstance(item, Choice) and (item.sure or item.ask))
    data: dict[str, Any] = {"head": list(head), "items": drawn, "columns": columns}
    if title:
        data["title"] = title
    if note:
        data["note"] = note
    if lines:
        data["lines"] = list(lines)
    if boxed:
        data["boxed"] = True
    if any(item.get("ask") for item in drawn):
        data["withdrawn"] = WITHDRAWN  # under a question the phone had open when the table moved on
    kept: dict[str, list[dict[str, Any]]] = st.session_state.setdefault(NOTICES, {})
    if notices:
        shown = st.session_state["movepad-notices"] = st.session_state.get("movepad-notices", 0) + 1
        kept[key] = [{"kind": kind, "text": text, "id": item, "n": shown} for kind, text, item in notices]
    if key in kept:  # until this phone's next tap: a redraw by a poll or a wake must not take it away unread
        data["notices"] = kept[key]
    return Pad(key, data, sure)


def forget() -> None:
    """Drop every pad's kept refusals: at this phone's next tap, or when the store answers again after a fault
    (`faults.back_again`), as they said it could not be reached."""
    st.session_state.pop(NOTICES, None)


def reported_head(head: Any) -> tuple[int, int] | None:
    """The position a phone says it showed ([seq, id] as drawn), or None for anything else."""
    if isinstance(head, list) and len(head) == 2 and all(type(h) is int for h in head):
        return head[0], head[1]
    return None


__all__ = ["NO_POSITION", "Choice", "Item", "Pad", "Pick", "Tap", "pad", "reported_head"]
