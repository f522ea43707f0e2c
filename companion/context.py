"""What every page shares: the store (one per data folder per process), links, QR images, flash messages.

Pages are thin: they read query parameters, call `companion.tables`, and draw engine
state. Navigation changes query parameters in place (no page reload), so a phone keeps
its session; every URL is also a deep link that works when opened cold.
"""

from __future__ import annotations

import errno
import functools
import gc
import io
import logging
import os
import re
import sqlite3
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import qrcode
import streamlit as st

from companion import live
from companion.components import movepad, surface
from companion.store import StoreError, StoreUnavailable, database_target, default_data_dir, open_store
from companion.tables import Tables

LOG = logging.getLogger("muster.companion")
PAGE_TITLE = "Muster"
PAGE_ICON = "⚔️"

STYLES = Path(__file__).with_name("styles")
# The page's styles, one <style> for the front page to carry (`companion.front_page`): Streamlit's widgets sized
# for a phone (styles/streamlit.css), then the companion's own classes (styles/muster.css).
PHONE_CSS = "<style>\n" + "".join((STYLES / name).read_text(encoding="utf-8")
                                  for name in ("streamlit.css", "muster.css")) + "</style>\n"


DEVICE_JS = """
export default function ({ setStateValue }) {
  const KEY = "muster-device";
  let id = window.__musterDevice || null;
  try { id = id || window.localStorage.getItem(KEY); } catch (e) { /* storage blocked: this page's own id */ }
  if (!id) {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    try { window.localStorage.setItem(KEY, id); } catch (e) { /* kept for this page only */ }
  }
  window.__musterDevice = id;
  setStateValue("device", id);
}
"""
_device_probe = st.components.v2.component("muster_device", js=DEVICE_JS)
DEVICE = "device-id"
DEVICE_PROBE = "device"  # the probe's key: its state is what the browser last reported
DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a device id may be (the browser makes 32 hex digits): anything else is no id, never stored, so a forged
id of megabytes cannot slow every read of its table."""


def device() -> str | None:
    """This browser's own id (random, kept in its localStorage), or None until the browser has reported it.

    A seat is held by one browser at a time (`Tables.hold`): a reload keeps the id, a
    second phone (or a browser that keeps no storage) has another. The id is what the probe
    (`device_probe`, drawn at the end of the page) reported; its report reruns the page.
    """
    found = st.session_state.get(DEVICE_PROBE)
    value = found.get("device") if isinstance(found, Mapping) else getattr(found, "device", None)
    st.session_state[DEVICE] = value if isinstance(value, str) and DEVICE_ID.fullmatch(value) else None
    return st.session_state[DEVICE]


def device_probe() -> None:
    """The invisible element that reports this browser's id (`device`). A page that asks for the id draws it
    last: on a phone's first visit each kind of element fetches its script as the page reaches it, one after
    the other, and the table should not wait for this one's."""
    _device_probe(key=DEVICE_PROBE, default={"device": None}, on_device_change=lambda: None, height=0)


def this_device() -> str | None:
    """In a button callback: the id `device()` found for this browser on the last draw."""
    return st.session_state.get(DEVICE)


@st.cache_resource(show_spinner=False)
def _tables_for(target: str) -> Tables:
    service = Tables(open_store(target))
    service.store.watch_changes(live.wake)  # a move on another server redraws this server's phones at once
    service.entries()  # every game's data and engine, loaded once for the process
    gc.freeze()  # ...and kept out of every later collection, which then has far fewer objects to walk
    return service


def tables() -> Tables:
    """The table service for this process's database: MUSTER_DATABASE_URL, else the data folder's SQLite file."""
    return _tables_for(database_target(None, default_data_dir()))


def base_url() -> str:
    """The address printed in QR codes: MUSTER_URL (set by `muster app`), else what the browser used."""
    env = os.environ.get("MUSTER_URL")
    if env:
        return env.rstrip("/")
    try:
        url = st.context.url or ""
    except Exception:  # outside a browser session (AppTest) there is no URL
        url = ""
    if url:
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        if parts.scheme and parts.netloc:
            return f"{parts.scheme}://{parts.netloc}"
    return "http://localhost:8501"


def link(**params: Any) -> str:
    """An absolute link to a companion page with these query parameters."""
    clean = {k: str(v) for k, v in params.items() if v is not None}
    return f"{base_url()}/?{urlencode(clean)}"


@functools.lru_cache(maxsize=512)
def qr_png(text: str, box: int = 8) -> bytes:
    """A QR code as PNG bytes, for st.image and for scanning from another phone."""
    code = qrcode.QRCode(border=2, box_size=box, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(text)
    code.make(fit=True)
    out = io.BytesIO()
    code.make_image(fill_color="black", back_color="white").save(out, format="PNG")
    return out.getvalue()


def go(**params: Any) -> None:
    """Move to another page of the app by replacing the query parameters (keeps the session)."""
    st.query_params.clear()
    st.query_params.update({k: str(v) for k, v in params.items() if v is not None})


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


def folded(label: str, key: str) -> Any:
    """An expander whose contents are built, sent and laid out only while it is open: `(box, open)`.

    A tap redraws the table part of the page, and a phone lays out every element it is sent,
    folded or not; the history, the typed-move form and the printed-card helpers are read far
    less often than a move is made. Opening one reruns the part it is in, so it fills at once,
    and the key keeps it open across redraws. Its label must not change: Streamlit counts the
    label in a stateful expander's identity, so a new label would fold it again."""
    surface.flush()
    box = st.expander(label, key=key, on_change="rerun")
    return box, bool(box.open)


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


def query() -> Mapping[str, str]:
    return {k: st.query_params[k] for k in st.query_params}


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
            tables().store.answers()
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
