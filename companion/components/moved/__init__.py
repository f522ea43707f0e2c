"""The table part's listener: a components-v2 element with nothing to see (moved.js) that reruns the part when
this server says its table moved (`companion.heads`), through the element's public trigger.

Why an element: Streamlit reruns a fragment when an element drawn in it sends a trigger, so the phone reruns the
table part, and only it, as a tap would; the server never reaches into a phone's session. It is drawn last in the
part, at the head the part drew, so the listener always asks about what the phone shows.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from companion import components

HERE = Path(__file__).parent
KEY = "table-moved"  # its box is hidden by the page's styles (styles/muster.css): it shows nothing, takes no room

_component = st.components.v2.component("muster_moved", html="", js=components.frontend(HERE / "moved.js", sight=False))


def _redraw() -> None:
    """The trigger's callback: the fragment's rerun is the whole of what it asks."""


def listen(url: str, page: str, head: int) -> None:
    """Draw the listener: `url` the route, `page` the name this page's run gave it, `head` the part's head.
    The data is a list, never a dict (Streamlit looks for dataframes among a dict's values)."""
    _component(data=[url, page, head], key=KEY, on_moved_change=_redraw)
