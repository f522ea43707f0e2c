"""Failures no player caused, told in Muster's words: a tap's callback and a page's drawing never show a traceback.

A store fault marks the page (`FAULT`); the page then asks the store until it answers and draws itself
again (`until_back`, `back_again`).
"""

from __future__ import annotations

import errno
import functools
import logging
import sqlite3
from collections.abc import Callable

import streamlit as st

from companion import context
from companion.components import movepad, surface
from companion.flashes import flash
from companion.store import StoreError, StoreUnavailable

LOG = logging.getLogger("muster.companion")

FAULT = "_store-fault"  # session state: this page met a store fault and shows it until the store answers again
RETRY_SECONDS = 2.0
KEPT = "Every move the table already showed is kept; this page tries again by itself."


def trouble(err: BaseException) -> str:
    """Plain words for a failure no player caused (a busy or full disk, a damaged row, a bug), never a traceback
    and never the server's paths or database URL (`StoreError.__str__`).

    Every failure keeps what was stored: the log is append-only and a failed write is rolled back.
    """
    text = str(err).lower()
    if isinstance(err, StoreUnavailable):
        return f"{err} {KEPT}"
    if isinstance(err, StoreError):
        return str(err)
    if "locked" in text or "busy" in text:
        return "The table store is busy (another phone is saving). Nothing was lost; try again in a moment."
    if ("disk" in text and "full" in text) or (isinstance(err, OSError) and err.errno == errno.ENOSPC):
        return ("The server's disk is full, so nothing new can be saved. Everything saved so far is kept; "
                "free some space on the server, then try again.")
    if isinstance(err, sqlite3.DatabaseError):
        return ("The table store could not be read just now. Nothing was changed; try again, and if it keeps "
                "happening restart the companion.")
    if isinstance(err, OSError):
        return f"The server could not reach its files ({err.strerror or 'an error'}). Nothing was lost; try again."
    return "Something went wrong on the server. Nothing stored was lost; try again."


def _logged(err: BaseException, what: str) -> None:
    """A store fault was logged where it arose, once with its cause (`store.unavailable`); anything else is a
    bug, logged with its traceback."""
    if not isinstance(err, StoreUnavailable):
        LOG.exception(what)


def calmly(fn: Callable[..., None]) -> Callable[..., None]:
    """For button callbacks: any failure becomes a message on the next draw instead of a traceback; a store
    fault also marks the page (`met`)."""
    @functools.wraps(fn)
    def run(*args: object, **kwargs: object) -> None:
        try:
            fn(*args, **kwargs)
        except Exception as err:
            _logged(err, "a tap failed")
            flash("error", trouble(err))
            met(err)
    return run


def refuse(err: Exception, where: str | None = None) -> None:
    """A tap the table or the store refused: its words beside the control tapped (`flash`); a store fault also
    marks the page (`met`)."""
    flash("error", str(err), where)
    met(err)


def met(err: BaseException) -> None:
    """Mark this page as having met a store fault (`FAULT`), when `err` is one: its poll then asks the store
    (`Store.answers`) and draws the page again once it answers (`back_again`), which forgets the messages the
    fault left beside tapped buttons, rather than leaving them until the player's next tap."""
    if isinstance(err, StoreUnavailable):
        st.session_state[FAULT] = True


def shielded(draw: Callable[[], None], retry: bool = True) -> None:
    """Draw a page, or a part of one (a fragment's run): a failure shows Muster's words where the part goes,
    and the page draws itself again once the store answers (`until_back`; a part leaves that to the page's
    poll, `retry=False`). The log keeps the details: one line per store fault, a traceback per bug."""
    try:
        draw()
    except Exception as err:  # Streamlit's rerun and stop are BaseExceptions: they pass
        _logged(err, "a page failed to draw")
        surface.flush()
        st.error(trouble(err))
        st.button("Try again", key="store-retry", width="stretch")
        met(err)
        if isinstance(err, StoreUnavailable) and retry:
            until_back()


def until_back() -> None:
    """Every RETRY_SECONDS, ask the store whether it would take a tap (`Store.answers`); once it would, draw
    the whole page again."""
    @st.fragment(run_every=RETRY_SECONDS)
    def probe() -> None:
        try:
            context.tables().store.answers()
        except (StoreError, OSError):
            return
        back_again()
    probe()


def back_again() -> None:
    """The store answers after this page met a fault: forget the fault and the messages taps left during it (each
    said the store could not be reached, no longer true), and draw the whole page again."""
    st.session_state.pop(FAULT, None)
    st.session_state.pop("_flash", None)
    movepad.forget()
    st.rerun(scope="app")
