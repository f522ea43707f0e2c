"""This browser's own id, so that a seat is held by one phone at a time (`Tables.hold`).

The id is random, made and kept by the browser (its localStorage) and reported by an invisible
components-v2 element; the server never makes one up.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

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
    device_id = value if isinstance(value, str) and DEVICE_ID.fullmatch(value) else None
    st.session_state[DEVICE] = device_id
    return device_id


def device_probe() -> None:
    """The invisible element that reports this browser's id (`device`). A page that asks for the id draws it
    last: on a phone's first visit each kind of element fetches its script as the page reaches it, one after
    the other, and the table should not wait for this one's."""
    _device_probe(key=DEVICE_PROBE, default={"device": None}, on_device_change=lambda: None, height=0)


def this_device() -> str | None:
    """In a button callback: the id `device()` found for this browser on the last draw."""
    return st.session_state.get(DEVICE)
