"""Drawing an engine's `view()` when no game panel does it better: readable on a phone, no tables that scroll sideways."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from companion.context import pretty


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


def text_block(lines: Sequence[str], css_class: str) -> None:
    """Lines of plain text (a player's name, a log line) as one HTML element, each shown exactly as written.

    Streamlit parses every Markdown element on the phone at every redraw; HTML it only sanitises and
    inserts, so long read-only text costs a tap far less this way. The text is escaped, never markup."""
    body = "<br>".join(html.escape(one_line(line)) for line in lines)
    st.html(f'<div class="{css_class}">{body}</div>')


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


def view(data: Mapping[str, Any], seat_names: Sequence[str] = (), skip: Sequence[str] = ()) -> None:
    """Draw a view dict as one markdown block of labelled lines."""
    shown = {k: v for k, v in data.items() if k not in skip}
    if shown:
        st.markdown("\n".join(lines(shown, seat_names)))


def private(player: int | None, secret: Mapping[str, Any], seat_names: Sequence[str] = (), key: str = "private",
            shown: Sequence[str] = ()) -> None:
    """A seat's hidden information, boxed (key `private`) so a glance tells what to keep from the table.

    `shown` are Markdown lines the panel already made safe (cards with links to their look-up). The box is one
    Markdown element: a tap redraws it, and every element costs the phone time to lay out."""
    if player is None or not (secret or shown):
        return
    parts = ["🔒 **Only you can see this**"]
    if shown:
        parts.append("  \n".join(shown))
    if secret:
        parts.append("\n".join(lines(secret, seat_names)))
    with st.container(border=True, key=key):
        st.markdown("\n\n".join(parts))
