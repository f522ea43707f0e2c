"""Running the companion's page script headless with Streamlit's AppTest."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from companion_game import RaceGame
from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Button

from companion import context
from companion.store import open_store
from companion.tables import Tables

APP = str(Path(context.__file__).with_name("app.py"))
# The folded boxes whose contents a page builds only while they are open (`folds.folded`). Page
# tests read what a player who opened every one of them sees; `test_folded_boxes_*` checks the folding.
FOLDED = ("other-move-box", "resolver-box", "scorer-box", "combo-box", "units-box", "all-moves-box",
          "roller-box", "seat-move-box", "share-box")


@pytest.fixture
def race(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Tables:
    """A fresh store whose only game is the test game `race` (tests/companion_game.py), installed where the
    pages look for it: page tests that need no real game's rules."""
    svc = Tables(open_store(tmp_path / "muster.sqlite3"), {"race": RaceGame()})
    monkeypatch.setattr(context, "tables", lambda: svc)
    return svc


def page(device: str | None = None, folded: bool = False, **params: str) -> AppTest:
    """The page as a phone opening this link would get it; `device` is the id its browser reports (none: not yet).

    Every folded box starts open (`FOLDED`) unless `folded`."""
    at = AppTest.from_file(APP, default_timeout=60)
    if not folded:
        for key in FOLDED:
            at.session_state[key] = True
    for key, value in params.items():
        at.query_params[key] = value
    if device is not None:
        at.session_state["device"] = {"device": device}
    return at.run()


def page_text(at: AppTest) -> str:
    """Every line of text the page shows, for assertions on wording (text escaped as plain comes out as typed,
    and HTML blocks as their text, a line per line break)."""
    parts = [*at.title, *at.header, *at.subheader, *at.markdown, *at.caption, *at.error, *at.warning, *at.info, *at.success]
    return "\n".join([literal("\n".join(str(p.value) for p in parts)), *html_texts(at), *pad_texts(at)])


def pad_texts(at: AppTest) -> list[str]:
    """What each move pad shows: its title, lines and note, its buttons, a disabled button's reason, its lists,
    and the refusal of a tap."""
    out = []
    for _, data in pads(at).values():
        out += [data[k] for k in ("title", "note") if data.get(k)] + data.get("lines", [])
        out += [n["text"] for n in data.get("notices", [])]
        for item in data["items"]:
            out += [item["label"]] + ([item["help"]] if item.get("help") and item.get("disabled") else [])
            out += [item["go"] + o["label"] for o in item.get("options", [])]
    return out


def surface_blocks(at: AppTest) -> list[tuple[str, dict[str, Any]]]:
    """Every block of every surface on the page (`companion.components.surface`), a group's blocks in its
    place: (the id of the surface element, the block)."""
    def flat(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [leaf for block in blocks for leaf in (flat(block["blocks"]) if "group" in block else [block])]
    return [(e.proto.id, block) for e in at.get("bidi_component") if e.proto.component_name.endswith("muster_surface")
            for block in flat(json.loads(e.proto.json))]


def html_bodies(at: AppTest) -> list[str]:
    """Each HTML block on the page: `st.html` elements, then the HTML blocks of surfaces (what `render.Sheet`
    draws in the table part)."""
    return [str(e.proto.body) for e in at.get("html")] + [b["html"] for _, b in surface_blocks(at) if "html" in b]


def html_texts(at: AppTest) -> list[str]:
    """The text of each HTML block on the page (`st.html`, `render.Sheet`), tags dropped and a line per line
    break and per block (paragraph, list item, box, note); styles and scripts are not text a phone shows."""
    return [html_text(body) for body in html_bodies(at)]


def html_text(body: str) -> str:
    hidden = re.compile(r"<(style|script)\b.*?</\1>", re.S)
    lines = re.sub(r"<br\s*/?>|</(p|div|li|tr|summary|h\d)>", "\n", hidden.sub("", body))
    return "\n".join(line for line in html.unescape(re.sub(r"<[^>]+>", "", lines)).splitlines() if line.strip())


def notes(at: AppTest, kind: str) -> list[str]:
    """The texts of the coloured notes of one kind ("success", "info", ...) a sheet drew (`Sheet.note`),
    without their symbol."""
    found = re.findall(rf'<div class="muster-note muster-note-{kind}"[^>]*><span[^>]*>[^<]*</span><div>(.*?)</div></div>',
                       "".join(html_bodies(at)), re.S)
    return [html_text(body).replace("\n", " ") for body in found]


def literal(markdown: str) -> str:
    """What a phone shows for text the page escaped with `render.plain` (the backslashes go)."""
    return re.sub(r"\\(.)", r"\1", markdown)


@dataclass
class PadButton:
    """A button of a move pad (`companion.components.movepad`), tapped as the phone would: the pad's data
    as drawn (the item's value, the position it was drawn at) goes back as the tap. AppTest knows no
    components-v2 element, so the tap is sent as the widget state the browser sends (Streamlit's own
    trigger id)."""

    at: AppTest
    element: str  # the id of the surface element that drew the pad (a double tap goes to it again)
    pad_id: str  # the pad's key
    key: str  # the item's id
    label: str
    value: Any
    head: list[int]
    disabled: bool = False
    help: str | None = None
    primary: bool = False
    ask: dict[str, str] | None = None  # {question, yes}: the phone asks first and sends the tap only on "yes"

    def click(self) -> PadButton:
        return self

    def run(self) -> AppTest:
        return tap_element(self.at, self.element, {"pad": self.pad_id, "id": self.key, "value": self.value,
                                                   "head": self.head})


def lay_until_move(at: AppTest) -> AppTest:
    """Medieval: tap a card of the hand, then a column, until a column's tap is the move (the placement is laid
    card by card on the phone and sent whole); another game's page is left as it is."""
    for _ in range(8):
        buttons = [b for b in pad_buttons(at) if not b.disabled]
        if any(b.key.startswith(("move-", "pick-")) for b in buttons):
            break
        laying = [b for b in buttons if b.key.startswith("col-")] or [b for b in buttons if b.key.startswith("card-")]
        if not laying:
            break
        laying[0].click().run()
    return at


def tap_pad(at: AppTest, pad: str, payload: Any) -> AppTest:
    """A tap on the pad keyed `pad`, as its surface sends it (the pad's key with what the phone sent); a
    payload that is no dict goes as it is: any payload, as a phone may send junk."""
    element = pads(at)[pad][0]
    return tap_element(at, element, {"pad": pad, **payload} if isinstance(payload, dict) else payload)


def tap_element(at: AppTest, element_id: str, payload: Any) -> AppTest:
    """Send `payload` as the "tap" event of the components-v2 element `element_id` (a surface, or the
    hexbattle board)."""
    states = at._tree.get_widget_states()
    states.widgets.append(WidgetState(id=_make_trigger_id(element_id, "events"),
                                      json_trigger_value=json.dumps([{"event": "tap", "value": payload}])))
    at._tree._runner._run(states, timeout=None)
    return at


def pads(at: AppTest) -> dict[str, tuple[str, dict[str, Any]]]:
    """Each move pad on the page: its key -> (the id of the surface element drawing it, its data as drawn)."""
    return {block["key"]: (element, block["pad"]) for element, block in surface_blocks(at) if "pad" in block}


def shut_folds(at: AppTest) -> dict[str, tuple[str, str]]:
    """Each shut folded box on the page, only its label, a block of a surface (`folds.folded`): its key -> (the id
    of the surface element drawing it, its label)."""
    return {block["key"]: (element, block["fold"]) for element, block in surface_blocks(at) if "fold" in block}


def pad_notices(at: AppTest) -> list[tuple[str, str, str | None]]:
    """The refusals the pads show: (kind, text, the button tapped or None)."""
    return [(n["kind"], n["text"], n["id"]) for _, data in pads(at).values() for n in data.get("notices", [])]


def pad_buttons(at: AppTest) -> list[PadButton]:
    """Every button of every move pad, with its choices of a long list as buttons of their own."""
    out = []
    for pad_id, (element, data) in pads(at).items():
        for item in data["items"]:
            if item["kind"] == "button":
                out.append(PadButton(at, element, pad_id, item["id"], item["label"], item["value"], data["head"],
                                     bool(item.get("disabled")), item.get("help"), bool(item.get("primary")),
                                     item.get("ask")))
            else:
                out.extend(PadButton(at, element, pad_id, item["id"], item["go"] + o["label"], o["value"], data["head"])
                           for o in item["options"])
    return out


def button(at: AppTest, label: str) -> Button | PadButton:
    """The one button showing `label`: a Streamlit button, or a move pad's (keyed by action, not by a fixed key)."""
    found: list[Button | PadButton] = [b for b in at.button if literal(str(b.label)) == label]
    found += [b for b in pad_buttons(at) if b.label == label]
    assert len(found) == 1, (f"{len(found)} buttons read {label!r}: {[literal(str(b.label)) for b in at.button]}"
                             f" {[b.label for b in pad_buttons(at)]}")
    return found[0]


def move_keys(at: AppTest) -> list[str]:
    """Keys of the seat's move buttons on the page (a long list's choices once each)."""
    return list(dict.fromkeys(b.key for b in pad_buttons(at) if b.key.startswith(("move-", "pick-"))))


def offered(at: AppTest, key: str) -> PadButton:
    """The move button a panel drew under `key`."""
    found = [b for b in pad_buttons(at) if b.key == key]
    assert len(found) == 1, f"no single button keyed {key!r}: {[b.key for b in pad_buttons(at)]}"
    return found[0]


def typed_move(at: AppTest) -> Button:
    """The "Try this move" button of the typed-move form (keyed by the position the form was drawn at)."""
    found = [b for b in at.button if str(b.key).startswith("FormSubmitter:other-move-")]
    assert len(found) == 1, f"no single typed-move form: {[b.key for b in at.button]}"
    return found[0]


def confirm(at: AppTest) -> AppTest:
    """Say "Yes" to the move waiting for confirmation in the page's dialog (one that cannot be taken back,
    tapped where the phone could not ask first: a typed move, a choice from a list, the hexbattle board)."""
    found = [b for b in at.button if b.key and str(b.key).startswith("confirm-yes-")]
    assert len(found) == 1, f"no move is waiting for confirmation: {[b.key for b in at.button]}"
    return found[0].click().run()


def carry_out(at: AppTest, move: Button | PadButton) -> AppTest:
    """Tap a move button, and say "Yes" if the page asks (the move could not be taken back)."""
    move.click().run()
    if any(b.key and str(b.key).startswith("confirm-yes-") for b in at.button):
        confirm(at)
    return at
