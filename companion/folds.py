"""A folded box whose contents are built only while it is open (the history, the typed move, card helpers)."""

from __future__ import annotations

from contextlib import AbstractContextManager

import streamlit as st

from companion.components import surface


def folded(label: str, key: str) -> tuple[AbstractContextManager[object], bool]:
    """An expander whose contents are built, sent and laid out only while it is open: `(box, open)`.

    A tap redraws the table part of the page, and a phone lays out every element it is sent,
    folded or not; the history, the typed-move form and the printed-card helpers are read far
    less often than a move is made. Opening one reruns the part it is in, so it fills at once,
    and the key keeps it open across redraws. Its label must not change: Streamlit counts the
    label in a stateful expander's identity, so a new label would fold it again. The box is entered once;
    what it gathered is sent at its end, so what the page draws after it goes after it."""
    surface.flush()  # before the expander is made: what was gathered goes above it
    box = st.expander(label, key=key, on_change="rerun")
    return surface.within(box), bool(box.open)
