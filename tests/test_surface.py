"""The surface (`companion.components.surface`): a part of a page drawn as few elements, in order, its taps sent
to the pad they name."""

from __future__ import annotations

import json
from typing import Any

from apptest_helpers import pads, tap_element, tap_pad
from streamlit.testing.v1 import AppTest

from companion.components import LOST, surface


def _part() -> None:
    import streamlit as st

    from companion.components import movepad, surface
    from companion.render import Sheet
    from companion.streamlit_page import StreamlitPage

    def tapped(tap: movepad.Tap) -> None:
        st.session_state.setdefault("taps", []).append((tap.id, tap.value, tap.head, tap.label))

    with surface.drawing("part"):
        with Sheet() as sheet:
            sheet.markdown("**First**")
        with surface.group("moves"):
            StreamlitPage().pad(movepad.pad([movepad.Choice("go", "Go", {"kind": "go"})], "move-list", (3, 7)), tapped)
        for _ in range(2):  # the same block twice: a key each
            with Sheet() as sheet:
                sheet.markdown("Second")
        if not st.session_state.get("careless"):
            surface.flush()
        st.button("A widget of Streamlit's own")
        with Sheet() as sheet:
            sheet.markdown("Third")


def _elements(at: AppTest) -> list[tuple[str, Any]]:
    """The page's elements in order: a surface as its blocks, anything else by its type."""
    out: list[tuple[str, Any]] = []
    for node in at.main.children.values():
        if node.type == "bidi_component":
            out.append(("surface", json.loads(node.proto.json)))
        else:
            out.append((node.type, None))
    return out


def test_what_a_part_draws_is_one_element_per_stretch_in_order() -> None:
    at = AppTest.from_function(_part).run()
    [(kind, first), (widget, _), (kind2, last)] = _elements(at)
    assert (kind, widget, kind2) == ("surface", "button", "surface")
    keys = [b["key"] for b in first]  # a block of HTML keyed by what it shows: unchanged, the phone keeps its nodes
    assert keys[1] == "group-moves" and keys[0].startswith("h-") and keys[2].startswith("h-") and keys[0] != keys[2]
    assert keys[3] == keys[2] + "-2"
    assert [b["key"] for b in _elements(at.run())[0][1]] == keys
    assert "<strong>First</strong>" in first[0]["html"] and "Second" in first[2]["html"]
    [pad] = first[1]["blocks"]  # the group holds the pad, keyed as the keyed container was
    assert first[1]["group"] == "moves" and pad["key"] == "move-list" and pad["pad"]["head"] == [3, 7]
    assert "Third" in last[0]["html"]


def test_a_stretch_goes_out_as_one_element_where_the_page_stands_when_it_ends() -> None:
    """Nothing of a stretch reaches the phone before its element (no placeholder: Streamlit would send it as a
    message of its own and hold the element back until its next round of sending). So a widget drawn without
    the page's seam (here: no flush) shows before the stretch it interrupts, and "Third", drawn after it, joins
    that stretch: Streamlit says nothing public of what was drawn meanwhile, which is why a page's own widgets
    go through `Page.widgets` (a flush)."""
    at = AppTest.from_function(_part)
    at.session_state["careless"] = True
    at.run()
    [(widget, _), (kind, first)] = _elements(at)
    assert (widget, kind) == ("button", "surface")
    assert ["First" in first[0]["html"], "Second" in first[2]["html"], "Third" in first[4]["html"]] == [True] * 3
    assert "empty" not in [node.type for node in at.main.children.values()]


def _boxed() -> None:
    from contextlib import nullcontext

    from companion.components import surface
    from companion.render import Sheet
    from companion.streamlit_page import StreamlitPage

    page = StreamlitPage()
    with surface.drawing("part"):
        for text in ("Before", "Inside", "After"):
            with page.container("box") if text == "Inside" else nullcontext():
                with Sheet() as sheet:
                    sheet.markdown(text)


def test_a_container_opened_through_the_page_holds_what_is_drawn_inside_it_and_only_that() -> None:
    at = AppTest.from_function(_boxed).run()
    assert [kind for kind, _ in _elements(at)] == ["surface", "flex_container", "surface"]
    [box] = [node for node in at.main.children.values() if node.type == "flex_container"]
    [(kind, inside)] = [(node.type, json.loads(node.proto.json)) for node in box.children.values()]
    assert kind == "bidi_component" and "Inside" in inside[0]["html"]


def test_a_tap_goes_to_the_pad_it_names_and_nothing_else_does_anything() -> None:
    at = AppTest.from_function(_part).run()
    element = pads(at)["move-list"][0]
    tap_pad(at, "move-list", {"id": "go", "value": {"kind": "go"}, "head": [3, 7]})
    assert at.session_state["taps"] == [("go", {"kind": "go"}, (3, 7), "Go")]  # the label is the one drawn
    for junk in ("go", None, [1], {"pad": "nowhere", "id": "go", "value": 1, "head": [3, 7]}, {"id": "go"}):
        tap_element(at, element, junk)
        assert not at.exception
    assert len(at.session_state["taps"]) == 1


FIRST_PAGES = """
import sys, tempfile
from pathlib import Path
sys.path.insert(0, "tests")
from companion.launch import preload
preload()
at_start = set(sys.modules)  # what the server's start loads (icons' arcs load numpy) is no phone's wait
from streamlit.testing.v1 import AppTest
from companion import context
from companion.store import open_store
from companion.tables import Tables
svc = Tables(open_store(Path(tempfile.mkdtemp()) / "muster.sqlite3"))
context.tables = lambda: svc
for game in ("medieval", "hexbattle", "waterloo"):
    table = svc.create(game, ["Ann", "Bob"], {})
    at = AppTest.from_file(str(Path("companion/app.py").resolve()), default_timeout=60)
    at.query_params["table"], at.query_params["seat"] = table.code, table.seats[0].token
    assert not at.run().exception
print(sorted(m for m in ("pandas", "pyarrow", "numpy") if m in set(sys.modules) - at_start))
"""


def test_drawing_the_first_table_pages_imports_no_dataframe_library() -> None:
    """The components' data are lists (`surface`): Streamlit looks for dataframes in a dict's values, which
    imported pandas and pyarrow while the first phone after a start waited for its page (0.2-0.4 s)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", FIRST_PAGES], cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_an_element_carries_its_code_or_where_the_server_serves_it(monkeypatch: Any) -> None:
    """Without the companion's routes (the AppTest harness) an element carries its code; with them, a stub that
    imports the served file under the base path, made absolute (a blob module has no base of its own)."""
    from companion import paths

    monkeypatch.setattr(paths, "_base", None)  # whatever an earlier test of this process built
    assert surface.ELEMENT.js() == surface.SCRIPT
    monkeypatch.setattr(paths, "_base", "club/muster")
    src = f"/club/muster/_muster/js/muster_surface.js?v={surface.ELEMENT.version}"
    stub = surface.ELEMENT.js()
    assert stub.startswith(f'const u=new URL("{src}",location.href).href,') and len(stub) < 900
    assert json.dumps(LOST) in stub  # failing, the element says so in words (tests/test_browser_base_path.py)
