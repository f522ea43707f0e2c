"""Messages a tap leaves for the next draw: page-wide ones at the top, a tapped control's beside it.

Button callbacks run before the page is drawn again, so what they have to say waits in the session
until the page (or the pad that was tapped) draws it.
"""

from __future__ import annotations

import streamlit as st

from companion.components import surface


def flash(kind: str, message: str, where: str | None = None) -> None:
    """A message to show on the next draw (button callbacks run before the page redraws).

    `where` is the key of the control that was tapped: its message (a refusal, a stale tap) is
    drawn beside that control by `show_beside`, where the player's thumb and eyes are, rather than
    at the top of a page they may have scrolled away from.
    """
    st.session_state.setdefault("_flash", []).append((kind, message, where))


def show_flashes() -> None:
    """The page-wide messages, at the top; those of a tapped control wait for `show_beside`."""
    waiting = []
    for kind, message, where in st.session_state.pop("_flash", []):
        if where is None:
            surface.flush()
            getattr(st, kind)(message)
        else:
            waiting.append((kind, message, where))
    if waiting:
        st.session_state["_flash"] = waiting


def take_beside(pad: str) -> list[tuple[str, str, str | None]]:
    """The waiting messages of a pad's taps (`where` is the pad's key, or "KEY:ITEM" for one of its buttons),
    as (kind, message, item or None), for the pad to show right under the button that was tapped."""
    waiting = st.session_state.get("_flash", [])
    mine = [f for f in waiting if f[2] is not None and (f[2] == pad or f[2].startswith(f"{pad}:"))]
    st.session_state["_flash"] = [f for f in waiting if f not in mine]
    return [(kind, message, where.partition(":")[2] or None) for kind, message, where in mine]


def show_beside(where: str | None = None) -> None:
    """The messages of the control `where` (every one still waiting when None: the control is gone, as after
    a stale tap), drawn here in a box keyed `refusal-<where>` and scrolled into the middle of the screen."""
    waiting = st.session_state.get("_flash", [])
    mine = [f for f in waiting if f[2] is not None and (where is None or f[2] == where)]
    if not mine:
        return
    st.session_state["_flash"] = [f for f in waiting if f not in mine]
    surface.flush()
    box = f"refusal-{where or 'here'}"
    with st.container(key=box):
        for kind, message, _ in mine:
            getattr(st, kind)(message)
    shown = st.session_state["_flash-shown"] = st.session_state.get("_flash-shown", 0) + 1
    st.html(f"<script>/* {shown} */ setTimeout(() => document.querySelector('.st-key-{box}')"
            "?.scrollIntoView({block: 'center', behavior: 'smooth'}), 50);</script>", unsafe_allow_javascript=True)
