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


def read_card_code(image: Any, game: str) -> tuple[str | None, str | None]:
    """(design id, None) from a photo holding a printed card's QR code, or (None, what went wrong).

    The printed QR codes carry `?game=G&card=DESIGN` (generator.links).
    """
    import zxingcpp

    codes = zxingcpp.read_barcodes(image)
    if not codes:
        return None, "No QR code found in the photo. Hold the card flat and closer, in good light."
    target = parse_link(codes[0].text)
    if target.get("game") != game or "card" not in target:
        return None, f"That code is not a {game} card ({codes[0].text})."
    return target["card"], None


def scan_card(label: str, key: str, game: str) -> str | None:
    """A card design id read from a phone photo (st.camera_input), once per photo; problems are shown, never raised."""
    photo = st.camera_input(label, key=key)
    if photo is None or st.session_state.get(f"{key}-seen") == photo.file_id:
        return None  # a photo is read once, not again on every redraw
    st.session_state[f"{key}-seen"] = photo.file_id
    from PIL import Image

    try:
        image = Image.open(photo).convert("RGB")
    except OSError:
        st.error("That photo could not be read; try again.")
        return None
    design, problem = read_card_code(image, game)
    if problem:
        st.warning(problem)
    return design
