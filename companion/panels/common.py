"""Small drawing helpers the game panels share (card names, scanning a printed card's QR code)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import streamlit as st

from generator.links import parse_link


def card_names(data: Any) -> dict[str, str]:
    """Physical card id -> printed name, over every card table of a game."""
    return {cid: card.name for cid, card in data.card_index.items()}


def named(ids: Iterable[str] | None, names: dict[str, str]) -> str:
    items = [names.get(i, i) for i in ids or []]
    return ", ".join(items) if items else "none"


def scan_card(label: str, key: str, game: str) -> str | None:
    """A card design id read from a photo of a printed card's QR code (st.camera_input), or None.

    The printed QR codes carry `?game=G&card=DESIGN` (generator.links); a code of another game
    or an unreadable photo is reported, never raised.
    """
    photo = st.camera_input(label, key=key)
    if photo is None or st.session_state.get(f"{key}-seen") == photo.file_id:
        return None  # a photo is read once, not again on every redraw
    st.session_state[f"{key}-seen"] = photo.file_id
    import zxingcpp
    from PIL import Image

    try:
        image = Image.open(photo).convert("RGB")
    except OSError:
        st.error("That photo could not be read; try again.")
        return None
    codes = zxingcpp.read_barcodes(image)
    if not codes:
        st.warning("No QR code found in the photo. Hold the card flat and closer, in good light.")
        return None
    target = parse_link(codes[0].text)
    if target.get("game") != game or "card" not in target:
        st.warning(f"That code is not a {game} card ({codes[0].text}).")
        return None
    return target["card"]
