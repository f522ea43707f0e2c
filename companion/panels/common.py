"""Small drawing helpers the game panels share: the "what just happened" strip, cards as named, valued chips
with a link to their look-up, and scanning a printed card's QR code."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from functools import partial
from typing import Any

import streamlit as st

from companion import links
from companion.components import movepad
from companion.page import Page
from companion.render import one_line, plain
from companion.table_context import TableContext
from generator.links import parse_link

NEWS_FIRST = 3  # a phone opening the table sees the last few moves
NEWS_MOST = 8   # and never more lines than fit above the fold


def card_names(data: Any) -> dict[str, str]:
    """Physical card id -> printed name, over every card table of a game."""
    return {cid: card.name for cid, card in data.card_index.items()}


def news(ctx: TableContext) -> None:
    """What just happened, written for this viewer (`Match.history`), at the top of the phone.

    A line stays until this browser session has seen it: until the player taps "Seen", or
    acts (a move of theirs means they saw the page it was made on). Undos and table notices
    are the table page's own banners and are not repeated here.
    """
    history = [line for line in ctx.snap.history(ctx.player) if line.kind == "action" and not line.undone]
    if not history:
        return
    key = f"news-seen-{ctx.table.id}-{ctx.player}"
    latest = history[-1].seq
    seqs = sorted({line.seq for line in history})
    seen = st.session_state.setdefault(key, seqs[-NEWS_FIRST - 1] if len(seqs) > NEWS_FIRST else 0)
    mine = [line.seq for line in history if ctx.player is not None and line.actor == ctx.player]
    if mine:
        seen = max(seen, mine[-1] - 1)
    fresh = [line for line in history if line.seq > seen][-NEWS_MOST:]
    if not fresh:
        return
    lines = [one_line(line.format(ctx.typed_names)) for line in fresh]
    ctx.page.pad(movepad.pad([movepad.Choice("seen", "Seen", latest)], "news", ctx.snap.head,
                             title="What just happened", lines=lines, boxed=True),
                 partial(mark_seen, key))


def mark_seen(key: str, tap: movepad.Tap) -> None:
    """"Seen" clears the lines up to the one the phone showed as the latest (never later ones it had not shown);
    a panel's own "seen" button (medieval's battle result) keeps its mark the same way."""
    if type(tap.value) is int:
        st.session_state[key] = max(st.session_state.get(key, 0), tap.value)


def card_label(card: Any, data: Any) -> str:
    """A physical card or design as a player reads it at a glance: name, value or force, and type
    (as the printed face puts them: the schema's `face`)."""
    design = getattr(card, "design", card)
    face = getattr(importlib.import_module(f"cards.schemas.{data.id}"), "face", None)
    if face is None:
        return str(design.name)
    f = face(design)
    value = f.corner if f.corner and f.corner.isdigit() else ""
    return f"{f.title} · {f.kind} {value}".rstrip()


def card_links(ids: Iterable[str], data: Any, game: str) -> str:
    """Cards as plain-text labels, each linking to its look-up page (opens beside the table)."""
    index = data.card_index
    items = [f"[{plain(card_label(index[c], data))}]({links.link(game=game, card=index[c].design.id)})"
             if c in index else plain(c) for c in ids]
    return " · ".join(items) if items else "none"


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


def scan_card(page: Page, label: str, key: str, game: str) -> str | None:
    """A card design id read from a phone photo (st.camera_input), once per photo; problems are shown, never raised."""
    page.widgets()  # Streamlit's own elements follow: what the page gathered goes first
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
