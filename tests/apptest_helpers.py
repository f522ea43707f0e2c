"""Running the companion's page script headless with Streamlit's AppTest."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from companion_game import RaceGame
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Button

from companion import context
from companion.store import open_store
from companion.tables import Tables

APP = str(Path(context.__file__).with_name("app.py"))
# The folded boxes whose contents a page builds only while they are open (`context.folded`). Page
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
    parts = [*at.title, *at.subheader, *at.markdown, *at.caption, *at.error, *at.warning, *at.info, *at.success]
    return "\n".join([literal("\n".join(str(p.value) for p in parts)), *html_texts(at)])


def html_texts(at: AppTest) -> list[str]:
    """The text of each HTML block on the page (`st.html`), tags dropped and line breaks kept; styles and
    scripts are not text a phone shows."""
    hidden = re.compile(r"<(style|script)\b.*?</\1>", re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<br\s*/?>", "\n", hidden.sub("", str(e.proto.body)))))
            for e in at.get("html")]


def literal(markdown: str) -> str:
    """What a phone shows for text the page escaped with `render.plain` (the backslashes go)."""
    return re.sub(r"\\(.)", r"\1", markdown)


def button(at: AppTest, label: str) -> Button:
    """The one button showing `label` (move buttons are keyed by action and position, not by a fixed key)."""
    found = [b for b in at.button if literal(str(b.label)) == label]
    assert len(found) == 1, f"{len(found)} buttons read {label!r}: {[literal(str(b.label)) for b in at.button]}"
    return found[0]


def move_keys(at: AppTest) -> list[str]:
    """Keys of the seat's move buttons on the page."""
    return [str(b.key) for b in at.button if b.key and b.key.startswith(("move-", "do-move-"))]


def offered(at: AppTest, key: str) -> Button:
    """The move button a panel drew under `key` (the page adds the state id it was offered at)."""
    found = [b for b in at.button if b.key and re.fullmatch(re.escape(key) + r"-\d+-\d+", str(b.key))]
    assert len(found) == 1, f"no single button keyed {key!r}: {[b.key for b in at.button]}"
    return found[0]


def confirm(at: AppTest) -> AppTest:
    """Say "Yes" to the move waiting for confirmation (one that cannot be taken back)."""
    found = [b for b in at.button if b.key and str(b.key).startswith("confirm-yes-")]
    assert len(found) == 1, f"no move is waiting for confirmation: {[b.key for b in at.button]}"
    return found[0].click().run()


def carry_out(at: AppTest, move: Button) -> AppTest:
    """Tap a move button, and say "Yes" if the page asks (the move could not be taken back)."""
    move.click().run()
    if any(b.key and str(b.key).startswith("confirm-yes-") for b in at.button):
        confirm(at)
    return at
