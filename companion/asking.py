"""Asking "are you sure?" before a move that cannot be taken back (it reveals, draws chance or ends the game).

The question is the engine's (`Tables.consequence`), asked once, in one of two places by what the player
tapped: a move button asks on the phone itself, under the button (`question`, a pad's `ask`), so the tap
that reaches the server is already the "yes"; a move that reaches the server unasked (a list's pick, a
board's tap, a typed move) is parked (`park`) and asked in a dialog (`confirm`), whose "yes" carries it out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from companion import flashes
from companion.components import surface
from companion.render import plain
from companion.tables import STALE, Snapshot, Tables
from engine.core import Action

CONFIRM = "confirm-move"  # session key of the move waiting for "Yes"
DIALOG_TITLE = "Are you sure?"
ASK_KEY = "muster-ask"  # the question's own box in the dialog
CONFIRM_YES = "Yes, do it"  # the answer to a move that cannot be taken back, in a pad or in the dialog

Pending = dict[str, Any]  # the parked move: table, seat, action, where, offered, label, reason


def question(service: Tables, table: Any, player: int | None, action: Action | None,
             snap: Snapshot | None = None) -> str | None:
    """The engine's words for what `action` would do that cannot be taken back, or None (nothing to ask); `snap`:
    the position it is offered at (`Tables.consequence`)."""
    if player is None or action is None:
        return None
    return service.consequence(table, player, action, snap)


def park(pending: Pending) -> None:
    """Keep a move to ask about in the dialog at the next draw (`confirm`)."""
    st.session_state[CONFIRM] = pending


def drop() -> None:
    """No move waits for an answer any more (it was carried out, or the player said no)."""
    st.session_state.pop(CONFIRM, None)


def confirm(table_id: int, player: int | None, snap: Snapshot, state_id: str,
            carry_out: Callable[[Pending], None]) -> None:
    """The parked move of this table and seat, asked about in a dialog (seen wherever the page is scrolled);
    `carry_out` does it when the player says yes."""
    pending = st.session_state.get(CONFIRM)
    if not pending or pending["table"] != table_id or pending["seat"] != player:
        return
    if snap.moved_on_since(tuple(pending["offered"])):  # the table moved on while the question was open
        drop()
        flashes.flash("warning", STALE, pending.get("where"))  # beside the move that was tapped, or at the top
        # Another phone's move reran the table part alone (`companion.live`), which leaves an open dialog open:
        # the next run, whole, closes it and shows the message.
        st.rerun(scope="app")
    surface.flush()
    _ask(pending, state_id, carry_out)


@st.dialog(DIALOG_TITLE, dismissible=False)  # a tap beside it must not drop the move unsaid: Cancel says no
def _ask(pending: Pending, state_id: str, carry_out: Callable[[Pending], None]) -> None:
    label = pending["label"] or "This move"
    with st.container(key=ASK_KEY):  # found by the page's styles, which dim the table under it (styles/muster.css)
        st.markdown(f"**{plain(label)}**")
        st.write(plain(pending["reason"]))
        yes, no = st.columns(2)
        yes.button(CONFIRM_YES, key=f"confirm-yes-{state_id}", width="stretch", on_click=_yes, args=(pending, carry_out))
        no.button("Cancel", key=f"confirm-no-{state_id}", width="stretch", on_click=_cancel)


def _yes(pending: Pending, carry_out: Callable[[Pending], None]) -> None:
    """Carry out the confirmed move, then redraw the whole page, which closes the dialog: Streamlit 1.67 closes a
    dialog at a whole-page run only (a rerun of the dialog's fragment or of the table part leaves it open;
    docs/design.md)."""
    carry_out(pending)
    st.rerun(scope="app")


def _cancel() -> None:
    drop()
    st.rerun(scope="app")
