"""No import circles in `companion/` (issue 34): a module's imports, at its top or inside a function, never lead
back to it. A circle that only a function-level import keeps from failing at import time (the routes, the front
page, the context and the surface once made one) fails here all the same."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The store opens its backend by name and each backend subclasses the store's interface; a factory module of
# its own would end it (not done yet: the store is being hardened under issue 29 at the same time).
KNOWN = {frozenset({"companion.store", "companion.store_sqlite"}),
         frozenset({"companion.store", "companion.store_postgres"})}


def modules() -> dict[str, Path]:
    found = {}
    for path in (ROOT / "companion").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The companion modules `path` imports anywhere in it (`from companion import x` names module x)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in known else node.module
                    for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return {name for name in out if name in known}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of more than one module (Tarjan's algorithm), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for dep in sorted(graph[node]):
            if dep not in index:
                visit(dep)
                low[node] = min(low[node], low[dep])
            elif dep in stack:
                low[node] = min(low[node], index[dep])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_circles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_no_import_circles_in_the_companion() -> None:
    known = modules()
    graph = {name: imports(path, known) - {name} for name, path in known.items()}
    for pair in KNOWN:  # the known circle, taken out edge by edge so a longer one through it is still found
        a, b = sorted(pair)
        graph[b].discard(a)
    assert circles(graph) == []


def reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module `start` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for dep in graph[todo.pop()] - seen:
            seen.add(dep)
            todo.append(dep)
    return seen


def test_panels_and_their_api_never_import_the_page_that_draws_them() -> None:
    """The panels once imported back into `table_page` (its `act`, its `move_key`), which imported them (issue 34):
    now a panel, and the API it draws with (`table_context`, the `page` seam), reach neither the page's assembly
    nor its sections, and the seam itself knows nothing of tables or taps."""
    known = modules()
    graph = {name: imports(path, known) - {name} for name, path in known.items()}
    assembly = {"companion.table_page", "companion.table_sections", "companion.table_tools", "companion.app"}
    drawers = [name for name in known if name.startswith("companion.panels.")] + ["companion.table_context"]
    assert {name: sorted(reaches(graph, name) & assembly) for name in drawers} == {name: [] for name in drawers}
    tables = {"companion.table_context", "companion.taps", "companion.tables", "companion.store"}
    assert sorted(reaches(graph, "companion.page") & (assembly | tables)) == []
