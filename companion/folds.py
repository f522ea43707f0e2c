"""A folded box whose contents are built only while it is open (the history, the typed move, card helpers)."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

import streamlit as st

from companion.components import surface


def folded(label: str, key: str) -> tuple[AbstractContextManager[object], bool]:
    """A box whose contents are built, sent and laid out only while it is open: `(box, open)`.

    A tap redraws the table part of the page, and a phone lays out every element it is sent,
    folded or not; the history, the typed-move form and the printed-card helpers are read far
    less often than a move is made. So while it is shut the box is only its label, a block of the
    open surface (no element of its own, `companion.components.surface`); a tap on the label marks it
    open (`st.session_state[key]`, as Streamlit keeps a keyed expander's state) and the part is drawn
    again with the box open, as Streamlit's expander, which fills at once. Shut there again, it is
    a block again from the next redraw on. Its label must not change: Streamlit counts the label in a
    stateful expander's identity, so a new label would fold it again. The box is entered once; what it
    gathered is sent at its end, so what the page draws after it goes after it."""
    if not st.session_state.get(key) and surface.add({"key": key, "fold": label}, lambda tap: _opened(key)):
        return nullcontext(), False
    surface.flush()  # before the expander is made: what was gathered goes above it
    box = st.expander(label, key=key, on_change="rerun")
    return surface.within(box), bool(box.open)


def _opened(key: str) -> None:
    """A tap on a shut box's label: it is drawn open."""
    st.session_state[key] = True
