"""The companion uses Streamlit's public API only (issue 34): no module of `companion/` but
`companion/streamlit_adapter.py` imports a Streamlit module other than `streamlit` itself, or reads an underscore
attribute of anything but itself; no other module of the repository (the tests aside) imports a private Streamlit
module or reads an underscore attribute of a Streamlit object; and no module of `companion/` imports the adapter,
which holds a bench's hooks only. So a Streamlit upgrade that moves an internal cannot break the app, only the
bench's timeline, which says so. (The panels' seam rule is `tests/test_page_seam.py`'s.)"""

from __future__ import annotations

import ast
import re
import subprocess
import tomllib
from pathlib import Path

import pytest
import streamlit as st
from packaging.requirements import Requirement
from apptest_helpers import button, page, page_text
from apptest_helpers import race  # noqa: F401  (the fixture: a store whose one game is the test game)

from companion import streamlit_adapter
from companion.tables import Tables

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "companion" / "streamlit_adapter.py"
# Underscore names the Python documentation gives as public: a named tuple's methods, os._exit after a fork.
DOCUMENTED = {"_replace", "_asdict", "_fields", "_make", "_exit"}


PUBLIC_MODULES = {"streamlit.testing.v1"}  # Streamlit's documented modules besides `streamlit` (AppTest's)
RULE = "[PRIVATE: Streamlit's private API is used in companion/streamlit_adapter.py only]"


def root(node: ast.expr) -> str | None:
    """The name an expression like `a.b(c)[d].e` starts from, if any."""
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def private_uses(source: str, streamlit_objects_only: bool = False) -> list[str]:
    """Each private Streamlit import and underscore attribute in `source`, as `line: what`. With
    `streamlit_objects_only`, an underscore attribute counts only on a Streamlit object: a name Streamlit's import
    binds, or one assigned from such a name."""
    tree = ast.parse(source)
    found, streamlit = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in (a for a in node.names if a.name.split(".")[0] == "streamlit"):
                streamlit.add(alias.asname or "streamlit")
                if alias.name != "streamlit" and alias.name not in PUBLIC_MODULES:
                    found.append((node.lineno, f"import {alias.name}"))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "streamlit":
            streamlit |= {a.asname or a.name for a in node.names}
            if node.module not in PUBLIC_MODULES:  # the public API is `st.…`; a name imported from a module is not
                found.append((node.lineno, f"from {node.module} import {', '.join(a.name for a in node.names)}"))
    streamlit |= {t.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and root(node.value) in streamlit
                  for t in node.targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and node.attr not in DOCUMENTED and root(node.value) not in {"self", "cls"}
                and (not streamlit_objects_only or root(node.value) in streamlit)):
            found.append((node.lineno, ast.unparse(node)))
    return [f"{line}: {what}" for line, what in sorted(found)]


def test_the_check_finds_each_kind_of_private_use() -> None:
    source = ("import streamlit as st\nimport streamlit.runtime\nfrom streamlit.runtime import Runtime\n"
              "from streamlit import file_util\nfrom streamlit import config\nsession._client_state\n"
              "self._own\nparts._replace(x=1)\nst.session_state\nfrom streamlit.testing.v1 import AppTest\n"
              "at = AppTest.from_file('a.py')\nat._tree\nst._main._active\nown._cache\n")
    assert private_uses(source) == ["2: import streamlit.runtime", "3: from streamlit.runtime import Runtime",
                                    "4: from streamlit import file_util", "5: from streamlit import config",
                                    "6: session._client_state", "12: at._tree", "13: st._main",
                                    "13: st._main._active", "14: own._cache"]
    assert private_uses(source, streamlit_objects_only=True) == [
        "2: import streamlit.runtime", "3: from streamlit.runtime import Runtime", "4: from streamlit import file_util",
        "5: from streamlit import config", "12: at._tree", "13: st._main", "13: st._main._active"]


def test_no_private_streamlit_outside_the_adapter() -> None:
    """In `companion/` no underscore attribute at all (but the adapter's); in every other module of the repository
    (the tests aside: AppTest drives Streamlit from outside) none of a Streamlit object."""
    tracked = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True)
    paths = [ROOT / name for name in tracked.stdout.split()]  # the repository's own: not a venv or a build beside it
    found = [f"{path.relative_to(ROOT)}:{use} {RULE}" for path in paths
             if path != ADAPTER and path.relative_to(ROOT).parts[0] != "tests"
             for use in private_uses(path.read_text(encoding="utf-8"),
                                     streamlit_objects_only=path.relative_to(ROOT).parts[0] != "companion")]
    assert len(paths) > 100 and any(p.relative_to(ROOT).parts[0] == "companion" for p in paths)
    assert not found, "\n".join(found)


def test_installs_get_the_tested_release() -> None:
    """constraints.txt pins one Streamlit inside pyproject.toml's range, of a minor release the adapter was checked
    against; scripts/start and scripts/test (so CI) install with it, and this suite runs on exactly that release."""
    pinned = re.findall(r"^streamlit==(\S+)$", (ROOT / "constraints.txt").read_text(encoding="utf-8"), re.MULTILINE)
    declared = [Requirement(r) for r in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
                ["project"]["dependencies"] if Requirement(r).name == "streamlit"]
    assert len(pinned) == 1 and len(declared) == 1 and declared[0].specifier.contains(pinned[0])
    assert ".".join(pinned[0].split(".")[:2]) in streamlit_adapter.TESTED
    assert st.__version__ == pinned[0]
    for script in ("start", "test"):
        assert "-c constraints.txt" in (ROOT / "scripts" / script).read_text(encoding="utf-8")
    assert "exec scripts/test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")  # so CI runs on the pin


def test_the_adapter_is_checked_against_the_installed_release() -> None:
    """The installed Streamlit is in the tested range (`pyproject.toml`), so the adapter takes its fast path."""
    assert streamlit_adapter.tested()


def test_the_app_never_uses_the_adapter() -> None:
    """Only the bench imports the adapter (`bench/timeline_server.py`): the app runs on the public API alone."""
    importers = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "companion").rglob("*.py")
                       if path != ADAPTER and "streamlit_adapter" in path.read_text(encoding="utf-8"))
    assert importers == []


def test_off_the_tested_release_the_bench_hooks_are_off_and_a_table_still_plays(
        race: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Streamlit the adapter was not checked against: the bench's hooks wrap nothing, and a seat still sees its
    table, moves and the position after its move."""
    monkeypatch.setattr(streamlit_adapter, "_checked", [False])
    lines: list[str] = []
    assert streamlit_adapter.time_runs_and_messages(lines.append) is False
    table = race.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    ann = page(table=table.code, seat=table.seats[0].token)
    assert not ann.exception and "You are Ann." in page_text(ann)
    button(ann, "Bank 1 point").click().run()
    assert not ann.exception
    assert [e.action["kind"] for e in race.store.log(table.id)] == ["bank"]
    assert "Waiting for Bob" in page_text(ann) and lines == []


def test_styles_and_scripts_select_no_streamlit_test_id() -> None:
    """The companion's styles and scripts find Streamlit's elements by their classes, HTML and ARIA, and Muster's own
    by Muster's classes, never by Streamlit's test ids or BaseWeb's attributes, which Streamlit keeps for its own
    tests: but for the caption's box, which nothing else tells from a Markdown box (styles/streamlit.css)."""
    found = {str(path.relative_to(ROOT)): selectors for path in sorted((ROOT / "companion").rglob("*"))
             if path.suffix in {".css", ".js", ".py"}
             and (selectors := re.findall(r"\[data-(?:testid|baseweb)[^\]]*\]", path.read_text(encoding="utf-8")))}
    assert found == {"companion/styles/streamlit.css": ['[data-testid="stCaptionContainer"]']}
