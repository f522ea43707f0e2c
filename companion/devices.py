"""This browser's own id, so that a seat is held by one phone at a time (`Tables.hold`).

The id is random, made and kept by the browser (its localStorage) and reported by an invisible
components-v2 element (`device_probe`), which also keeps it in a cookie (`COOKIE`); the server never makes one up.
The cookie comes with every page the browser opens later, so the lobby knows the phone's tables from its first
run without drawing the probe: a first visit then loads no components-v2 code for it (the element's scripts,
0.2 MB, and a second run of the lobby when the probe reports), which a phone that holds no seat needs nowhere.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TypeGuard

import streamlit as st

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
  document.cookie = `muster-device=${id}; path=/; max-age=31536000; SameSite=Lax`;
  setStateValue("device", id);
}
"""
_device_probe = st.components.v2.component("muster_device", js=DEVICE_JS)
COOKIE = "muster-device"  # as DEVICE_JS names it
DEVICE = "device-id"
DEVICE_PROBE = "device"  # the probe's key: its state is what the browser last reported
DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a device id may be (the browser makes 32 hex digits): anything else is no id, never stored, so a forged
id of megabytes cannot slow every read of its table."""


def device() -> str | None:
    """This browser's own id (random, kept in its localStorage), or None until the browser has reported it.

    A seat is held by one browser at a time (`Tables.hold`): a reload keeps the id, a
    second phone (or a browser that keeps no storage) has another. The id is what the probe
    (`device_probe`, drawn at the end of the page) reported (its report reruns the page), else the id this
    session knew already. Never the cookie: a cookie is shared by every port of a host while storage is kept per
    origin, so two servers on one machine would take the cookie of whichever the phone opened last for its own.
    """
    found = st.session_state.get(DEVICE_PROBE)
    told = [found.get("device") if isinstance(found, Mapping) else getattr(found, "device", None),
            st.session_state.get(DEVICE)]
    device_id = next((v for v in told if _is_id(v)), None)
    st.session_state[DEVICE] = device_id
    return device_id


def listed_device() -> str | None:
    """Whose tables the lobby lists ("Your tables"): `device()`, else the cookie the probe left, which came with
    this page (`st.context.cookies`), so a lobby that draws no probe knows them from its first run. It only lists:
    the seat a link opens is held by `device()`'s id, as that page's probe reports it."""
    cookie = st.context.cookies.get(COOKIE)
    return device() or (cookie if _is_id(cookie) else None)


def _is_id(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and DEVICE_ID.fullmatch(value) is not None


def device_probe() -> None:
    """The invisible element that reports this browser's id (`device`). A page that asks for the id draws it
    last: on a phone's first visit each kind of element fetches its script as the page reaches it, one after
    the other, and the table should not wait for this one's."""
    _device_probe(key=DEVICE_PROBE, default={"device": None}, on_device_change=lambda: None, height=0)


def this_device() -> str | None:
    """In a button callback: the id `device()` found for this browser on the last draw."""
    return st.session_state.get(DEVICE)
