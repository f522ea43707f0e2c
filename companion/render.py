"""Drawing an engine's `view()` when no game panel does it better: readable on a phone, no tables that scroll sideways."""

from __future__ import annotations

import functools
import html
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import streamlit as st
from markdown_it import MarkdownIt

from companion.components import surface

MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
"""Markdown as Streamlit reads it (CommonMark, tables, ~~strikethrough~~), but with raw HTML shown as text,
never as markup. A link opens in a new tab, as Streamlit's Markdown opens it: a card's look-up beside the
table, never instead of it (`_new_tab`)."""


def _new_tab(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    tokens[idx].attrSet("target", "_blank")
    tokens[idx].attrSet("rel", "noopener noreferrer")
    return str(self.renderToken(tokens, idx, options, env))


MARKDOWN.add_render_rule("link_open", _new_tab)


@functools.lru_cache(maxsize=1024)
def to_html(markdown: str) -> str:
    """Markdown as HTML (`MARKDOWN`), remembered: most of a page is drawn again unchanged, for each phone at each
    move, and rendering a table costs about a millisecond."""
    return str(MARKDOWN.render(markdown))


NOTE_ICONS = {"success": "✔", "info": "ℹ", "warning": "⚠", "error": "✖"}


MARKUP = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation mark: CommonMark lets each be escaped


def plain(text: str) -> str:
    """`text` escaped for any Streamlit element that reads Markdown (st.markdown, captions, alerts, labels).

    Names and log lines come from players; escaping every punctuation mark makes links, images,
    tables, HTML, LaTeX and colour directives show as the characters typed, never as markup.
    Line breaks become spaces, so a name cannot start a heading or a list of its own.
    """
    return MARKUP.sub(r"\\\1", one_line(text))


def one_line(text: object) -> str:
    """`text` on one line: every run of spaces and line breaks becomes one space."""
    return " ".join(str(text).split())


class Sheet:
    """The read-only part of a page (Markdown, captions, coloured notes, boxes) drawn as ONE element.

    Why: a phone pays for every element Streamlit draws, at every redraw (its React and styling work,
    measured by bench/bench_browser.py), far more than for the HTML inside one element. So text that
    no one taps is gathered here and drawn when the `with` block ends: as a block of the open surface
    (the table part's), else with `st.html`. The Markdown is rendered on the server (`MARKDOWN`: raw
    HTML in it shows as text, and text escaped with `plain` stays plain), so the HTML is safe to set as
    it is (Streamlit's `st.html` sanitises it once more on the phone; a surface sets it). A keyed box carries the class
    Streamlit gives a keyed container (`st-key-KEY`), so a box is found the same way whoever draws it.
    The styles are the page's (`companion/styles/muster.css`, `.muster-*`).
    """

    def __init__(self, out: Callable[[str], None] | None = None) -> None:
        self._open: list[list[str]] = [[]]
        self._out = out  # where the markup goes (a `companion.page.Page`'s); None: the open surface, else st.html

    def __enter__(self) -> Sheet:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        if kind is None:
            self.draw()

    def _add(self, part: str) -> Sheet:
        self._open[-1].append(part)
        return self

    def markdown(self, text: str) -> Sheet:
        return self._add(to_html(text))

    def caption(self, text: str) -> Sheet:
        return self._add(f'<div class="muster-caption">{to_html(text)}</div>')

    def note(self, kind: str, text: str, icon: str | None = None) -> Sheet:
        """A coloured note as `st.success`/`st.info`/`st.warning`/`st.error` draw it (`kind`), with a symbol."""
        symbol = html.escape(icon or NOTE_ICONS.get(kind, ""))
        return self._add(f'<div class="muster-note muster-note-{kind}" role="status"><span aria-hidden="true">'
                         f'{symbol}</span><div>{to_html(text)}</div></div>')

    def lines(self, lines: Sequence[str], css_class: str) -> Sheet:
        """Plain text lines, escaped, one under the other (no Markdown at all)."""
        return self._add(f'<div class="{css_class}">' + "<br>".join(html.escape(one_line(line)) for line in lines)
                         + "</div>")

    def bar(self, fraction: float, label: str) -> Sheet:
        """A progress bar as `st.progress` draws it, filled to `fraction` (clamped to 0..1); `label` names it for a
        screen reader (what it measures)."""
        width = f"{max(0.0, min(1.0, fraction)) * 100:.1f}%"
        return self._add(f'<div class="muster-bar" role="progressbar" aria-label="{html.escape(label)}" '
                         f'aria-valuemin="0" aria-valuemax="100" aria-valuenow="{width[:-1]}"><span '
                         f'style="width: {width}"></span></div>')

    def html(self, markup: str) -> Sheet:
        """HTML this server made itself (never a player's text)."""
        return self._add(markup)

    @contextmanager
    def box(self, key: str | None = None, summary: str | None = None, folded: bool = False) -> Iterator[Sheet]:
        """A bordered box around what the block adds; with `summary`, a box that folds (open at first, unless
        `folded`)."""
        self._open.append([])
        try:
            yield self
        finally:
            inner = "".join(self._open.pop())
            keyed = f" st-key-{key}" if key else ""
            if summary is None:
                self._add(f'<div class="muster-box{keyed}">{inner}</div>')
            else:
                fold = f' data-fold="{html.escape(key)}"' if key else ""  # a surface keeps it as the player left it
                shut = "" if folded else " open"
                self._add(f'<details class="muster-box{keyed}"{fold}{shut}><summary>{MARKDOWN.renderInline(summary)}'
                          f'</summary>{inner}</details>')

    def markup(self) -> str:
        """The HTML `draw` sends ("" for an empty sheet)."""
        parts = self._open[0]
        return '<div class="muster-sheet">' + "".join(parts) + "</div>" if parts else ""

    def draw(self) -> None:
        """To its page (`out`), else into the open surface (`companion.components.surface`), else as an `st.html`
        element."""
        markup = self.markup()
        if markup and self._out is not None:
            self._out(markup)
        elif markup and not surface.add({"html": markup}):
            st.html(markup)
        self._open = [[]]


def ago(when: float, now: float | None = None) -> str:
    """'just now', '5 min ago', '3 h ago', '2 days ago'."""
    seconds = max(0, (now or time.time()) - when)
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h ago"
    return f"{int(seconds // 86400)} days ago"


def pretty(key: str) -> str:
    return key.replace("_", " ").strip().capitalize()


def scalar(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def lines(value: Any, seat_names: Sequence[str] = (), depth: int = 0) -> list[str]:
    """Markdown lines for any JSON-ready value: dicts as labelled lines, lists inline when short."""
    pad = "  " * depth
    out: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            label = pretty(str(key))
            if is_scalar(item):
                out.append(f"{pad}- **{label}**: {scalar(item)}")
            elif isinstance(item, Sequence) and all(is_scalar(x) for x in item):
                shown = ", ".join(scalar(x) for x in item) if item else "none"
                if seat_names and len(item) == len(seat_names) and all(isinstance(x, (int, float)) for x in item):
                    shown = ", ".join(f"{n} {scalar(x)}" for n, x in zip(seat_names, item, strict=True))
                out.append(f"{pad}- **{label}**: {shown}")
            else:
                out.append(f"{pad}- **{label}**")
                out.extend(lines(item, seat_names, depth + 1))
    elif isinstance(value, Sequence) and not isinstance(value, str):
        named = bool(seat_names) and len(value) == len(seat_names)
        for i, item in enumerate(value):
            head = seat_names[i] if named else f"{i + 1}"
            if is_scalar(item):
                out.append(f"{pad}- {head}: {scalar(item)}" if named else f"{pad}- {scalar(item)}")
            else:
                out.append(f"{pad}- **{head}**")
                out.extend(lines(item, seat_names, depth + 1))
    else:
        out.append(f"{pad}- {scalar(value)}")
    return out


def view(data: Mapping[str, Any], seat_names: Sequence[str] = (), skip: Sequence[str] = (),
         sheet: Sheet | None = None) -> None:
    """A view dict as labelled lines, into `sheet` (or a sheet of its own)."""
    shown = {k: v for k, v in data.items() if k not in skip}
    if shown:
        with _into(sheet) as into:
            into.markdown("\n".join(lines(shown, seat_names)))


def private(player: int | None, secret: Mapping[str, Any], seat_names: Sequence[str] = (), key: str = "private",
            shown: Sequence[str] = (), sheet: Sheet | None = None, heading: str = "Only you can see this") -> None:
    """A seat's hidden information, boxed (key `private`) so a glance tells what to keep from the table,
    into `sheet` (or a sheet of its own). `shown` are Markdown lines the panel already made safe (cards with
    links to their look-up); `heading` says whose it is (a record file read on another phone: that seat's)."""
    if player is None or not (secret or shown):
        return
    with _into(sheet) as into, into.box(key):
        into.markdown(f"🔒 **{heading}**")
        if shown:
            into.markdown("  \n".join(shown))
        if secret:
            into.markdown("\n".join(lines(secret, seat_names)))


@contextmanager
def _into(sheet: Sheet | None) -> Iterator[Sheet]:
    """`sheet` itself, or a new sheet drawn when the block ends."""
    if sheet is not None:
        yield sheet
        return
    with Sheet() as own:
        yield own
