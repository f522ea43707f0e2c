"""The seam rule (issue 34, docs/design.md): a game's panel (`companion/panels/`) draws only through the typed
`Page` (`companion.page`), read statically from its source with `ast`:

- SEAM: a panel imports none of the modules behind the seam (`companion.folds`, `companion.components.surface`,
  `companion.streamlit_page`): a fold is `Page.fold`, a keyed box `Page.container`;
- HATCH: a panel draws a Streamlit element (`st.X(...)`, X an element or a container) only where the stretch of
  sheets and pads before it has ended: after `page.widgets()` (the escape hatch) in the same function, or inside a
  fold's box or `page.container(...)`; a helper that draws one is called only from such a place;
- BOX: in a Streamlit container a panel opens itself (`with st.container(...)`, `st.expander`, …), a sheet or pad
  goes inside a `page.container(...)` or fold there, never straight in it: those end the stretch at both ends, so
  the pad is sent into the box and what the page draws after the box comes after it.

Each breach is named by file, line and rule. Streamlit's private names are `tests/test_streamlit_public.py`'s."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PANELS = ROOT / "companion" / "panels"
BEHIND = {"companion.folds", "companion.components.surface", "companion.streamlit_page"}
NOT_DRAWING = {"session_state", "query_params", "context", "secrets", "cache_data", "cache_resource", "rerun", "stop",
               "fragment", "dialog", "get_option", "column_config"}  # Streamlit calls that draw nothing
CONTAINERS = {"container", "columns", "expander", "tabs", "popover", "form", "empty", "sidebar"}
# What a page (or a panel's ctx) draws into the open stretch of sheets and pads; its fold and container end the
# stretch at both ends, so they may go anywhere.
STRETCH = {"sheet", "pad", "group", "moves", "button", "seat_tools"}
RULES = {"SEAM": "a panel draws through the Page, never the modules behind it",
         "HATCH": "a Streamlit element only after page.widgets(), or in a fold or page.container",
         "BOX": "a sheet or pad in a Streamlit box goes inside a Page.container or Page.fold there"}


def st_element(call: ast.Call) -> str | None:
    """X, for a call `st.X(...)` or `st.X.Y(...)` that draws (X not in NOT_DRAWING); else None."""
    node = call.func
    while isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == "st":
            return None if node.attr in NOT_DRAWING else node.attr
        node = node.value
    return None


def on_page(call: ast.Call, calls: set[str]) -> bool:
    """Whether `call` is `page.X(...)`, `ctx.X(...)` or `….page.X(...)` with X in `calls`."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return False
    owner = func.value
    return func.attr in calls and ((isinstance(owner, ast.Name) and owner.id in {"page", "ctx"})
                                   or (isinstance(owner, ast.Attribute) and owner.attr == "page"))


def own_calls(node: ast.AST) -> Iterator[ast.Call]:
    """The calls in `node`, not those in functions or classes defined inside it."""
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            if isinstance(child, ast.Call):
                yield child
            yield from own_calls(child)


@dataclass
class Function:
    """A panel function's calls: which are in a place where the stretch has ended (`ended`), which boxes of its own
    they are in (`boxed`), and which functions of the module it calls where."""

    node: ast.FunctionDef | ast.AsyncFunctionDef
    ended: set[int] = field(default_factory=set)  # id() of calls after widgets() or in a fold/page.container
    boxed: dict[int, int] = field(default_factory=dict)  # id() of a call -> the line of the Streamlit box it is in
    paged: set[int] = field(default_factory=set)  # id() of calls inside a fold's box or page.container

    def calls(self) -> list[ast.Call]:
        return sorted(own_calls(self.node), key=lambda c: (c.lineno, c.col_offset))


def read_function(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Function:
    fn = Function(node)
    calls = fn.calls()
    hatch = next(((c.lineno, c.col_offset) for c in calls
                  if isinstance(c.func, ast.Attribute) and c.func.attr == "widgets"), None)
    fn.ended = {id(c) for c in calls if hatch is not None and (c.lineno, c.col_offset) > hatch}
    folds = {t.elts[0].id for s in ast.walk(node) if isinstance(s, ast.Assign) and isinstance(s.value, ast.Call)
             and isinstance(s.value.func, ast.Attribute) and s.value.func.attr == "fold"
             for t in s.targets if isinstance(t, ast.Tuple) and isinstance(t.elts[0], ast.Name)}

    def box_of(expr: ast.expr) -> str | int | None:
        """"page" for a fold's box or `page.container(...)`, the line of a Streamlit box, else None."""
        if (isinstance(expr, ast.Name) and expr.id in folds) or (
                isinstance(expr, ast.Call) and on_page(expr, {"container"})):
            return "page"
        if isinstance(expr, ast.Call) and ((isinstance(expr.func, ast.Attribute) and expr.func.attr in CONTAINERS
                                            and not on_page(expr, {"container"})) or st_element(expr) in CONTAINERS):
            return expr.lineno
        return None

    def visit(tree: ast.AST, inner: str | int | None, paged: bool) -> None:
        """Note each call in `tree` by the innermost box it is drawn in (`paged`: some box around it is the page's,
        so the stretch has ended there, even in a Streamlit box of its own inside that one)."""
        if isinstance(tree, ast.Call):
            if paged:
                fn.ended.add(id(tree))
                fn.paged.add(id(tree))
            if isinstance(inner, int):
                fn.boxed[id(tree)] = inner
        if isinstance(tree, (ast.With, ast.AsyncWith)):
            for item in tree.items:  # `with a, b:` opens b inside a
                visit(item, inner, paged)
                box = box_of(item.context_expr)
                inner, paged = box or inner, paged or box == "page"
            for statement in tree.body:
                visit(statement, inner, paged)
            return
        for child in ast.iter_child_nodes(tree):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                visit(child, inner, paged)

    for statement in node.body:
        visit(statement, None, False)
    return fn


def breaches(source: str, name: str, seam: bool = True) -> list[str]:
    """Each breach of the seam rule in the panel module `name` whose text is `source`, as `name:line: what [RULE:
    words]`; without `seam`, of HATCH and BOX only, for a module of the page itself, which builds on the seam and
    passes drawing functions around: there any call but a Streamlit element's in a raw Streamlit box is a breach."""
    tree = ast.parse(source)
    found: list[str] = []

    def breach(line: int, what: str, rule: str) -> None:
        found.append(f"{name}:{line}: {what} [{rule}: {RULES[rule]}]")

    for node in ast.walk(tree):
        modules = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                   [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
                   if isinstance(node, ast.ImportFrom) else [])
        for module in set(modules) & BEHIND if seam else ():
            breach(node.lineno, f"imports {module}", "SEAM")
    functions = {n.name: read_function(n) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef,
                                                                                    ast.AsyncFunctionDef))}
    callers: dict[str, list[tuple[Function, ast.Call]]] = {n: [] for n in functions}
    for fn in functions.values():
        for call in fn.calls():
            if isinstance(call.func, ast.Name) and call.func.id in functions:
                callers[call.func.id].append((fn, call))

    def safe(fn_name: str, seen: frozenset[str]) -> bool:
        """Whether every call of the function is where the stretch has ended (or in a function that is so)."""
        calls = callers[fn_name]
        return bool(calls) and fn_name not in seen and all(
            id(call) in caller.ended or safe(caller.node.name, seen | {fn_name}) for caller, call in calls)

    def draws_on_page(fn: Function, seen: frozenset[str] = frozenset()) -> Iterator[ast.Call]:
        for call in fn.calls():
            callee = call.func.id if isinstance(call.func, ast.Name) and call.func.id in functions else None
            if on_page(call, STRETCH) or (callee and callee not in seen and any(
                    draws_on_page(functions[callee], seen | {callee}))):
                yield call

    for fn in functions.values():
        if not seam:  # the page's own modules pass drawing functions around: a raw box holds Streamlit's elements only
            for call in fn.calls():
                if id(call) in fn.boxed and id(call) not in fn.paged and not st_element(call):
                    breach(call.lineno, f"{ast.unparse(call.func)}(…) inside the Streamlit box of line "
                                        f"{fn.boxed[id(call)]}", "BOX")
        loose = [c for c in fn.calls() if st_element(c) and id(c) not in fn.ended]
        if loose and not safe(fn.node.name, frozenset()):
            for call in loose:
                breach(call.lineno, f"{ast.unparse(call.func)}(…) in {fn.node.name}", "HATCH")
        for call in draws_on_page(fn):
            if id(call) in fn.boxed:
                breach(call.lineno, f"{ast.unparse(call.func)}(…) inside the Streamlit box of line "
                                    f"{fn.boxed[id(call)]}", "BOX")
    return found


def test_panels_draw_only_through_the_page() -> None:
    found = [b for path in sorted(PANELS.glob("*.py"))
             for b in breaches(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, "\n".join(found)


def test_the_table_parts_own_sections_keep_the_hatch_and_box_rules_too() -> None:
    """The moves, seat tools and log (`table_context`, `table_sections`) draw into the same stretch as the panel: a
    pad in a raw Streamlit box there (the moves' box once was) lands outside the box, as nothing of a stretch is
    sent before it ends."""
    found = [b for name in ("table_context.py", "table_sections.py")
             for b in breaches((ROOT / "companion" / name).read_text(encoding="utf-8"), f"companion/{name}", seam=False)]
    assert not found, "\n".join(found)


BREACHES = '''
import streamlit as st
from companion import folds
from companion.components.surface import flush


def render(ctx):
    st.caption("before the hatch")
    ctx.page.widgets()
    st.caption("after it")
    _helper(ctx)
    box, opened = ctx.page.fold("More", "more")
    with box:
        _loose()
    with st.expander("Calls"):
        st.caption("a widget in a box of its own")
        ctx.pad([], "calls")
    with st.container(horizontal=True), ctx.page.container("beside"):
        ctx.pad([], "beside")


def _helper(ctx):
    st.markdown("drawn before the hatch of one of its callers")
    ctx.pad([], "k")


def _loose():
    st.markdown("drawn only in a fold")


def tools(page):
    with st.container():
        _helper(page)
'''


def test_the_check_names_file_line_and_rule_of_each_breach() -> None:
    """A made-up panel with breaches of each kind, and right uses beside them."""
    where = "companion/panels/made_up.py"
    assert breaches(BREACHES, where) == [
        f"{where}:3: imports companion.folds [SEAM: {RULES['SEAM']}]",
        f"{where}:4: imports companion.components.surface [SEAM: {RULES['SEAM']}]",
        f"{where}:8: st.caption(…) in render [HATCH: {RULES['HATCH']}]",
        f"{where}:17: ctx.pad(…) inside the Streamlit box of line 15 [BOX: {RULES['BOX']}]",
        f"{where}:23: st.markdown(…) in _helper [HATCH: {RULES['HATCH']}]",
        f"{where}:32: st.container(…) in tools [HATCH: {RULES['HATCH']}]",
        f"{where}:33: _helper(…) inside the Streamlit box of line 32 [BOX: {RULES['BOX']}]"]
