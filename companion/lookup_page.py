"""Look-up pages: a search over every card, combo and rule, and one page per entry at its deep link.

`?game=G&card=ID`, `?game=G&rule=R3`, `?game=G&sheet=NAME` are what the printed QR codes
carry (`generator.links`); `combo` and `section` extend the same scheme for combos and
rule sections.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping
from functools import lru_cache

import streamlit as st

from companion import links, lookup
from companion.render import pretty
from companion.tables import catalogue
from generator.build import preview_svg

DEEP_KEYS = ("card", "combo", "rule", "section", "sheet")
KIND_NAMES = {"card": "Card", "combo": "Combo", "rule": "Ruling", "section": "Rules"}
KIND_PLURALS = {"card": "Cards", "combo": "Combos", "rule": "Rulings", "section": "Rule sections"}


def is_deep_link(params: Mapping[str, str]) -> bool:
    return any(k in params for k in DEEP_KEYS)


def _game_name(game_id: str) -> str:
    entry = catalogue().get(game_id)
    return entry.name if entry else game_id


def _rules_missing_note() -> None:
    if lookup.rules_dir() is None:
        st.info("The rules documents (docs/rules) are not next to this installation, so rules and rulings "
                "cannot be searched. Run Muster from its source folder or set MUSTER_RULES_DIR.")


def render_search() -> None:
    st.title("Look-up")
    _rules_missing_note()
    query = st.text_input("Search cards, combos and rules", key="lookup-q", placeholder="e.g. morale, cavalry, R3")
    games = [g for g in catalogue().values() if g.data is not None]
    picked = st.multiselect("Games", [g.id for g in games], format_func=_game_name, key="lookup-games",
                            placeholder="All games")
    kinds = st.pills("Show", ["card", "combo", "rule", "section"], selection_mode="multi", key="lookup-kinds",
                     format_func=KIND_PLURALS.__getitem__)
    hits = lookup.search(query, picked or None, kinds or None) if query.strip() else []
    if query.strip():
        st.caption(f"{len(hits)} match{'es' if len(hits) != 1 else ''}" + (" (first 50)" if len(hits) == 50 else ""))
        if not hits:
            st.info("Nothing matches every word. Try fewer or shorter words.")
    for i, entry in enumerate(hits):
        label = f"{entry.title} · {KIND_NAMES.get(entry.kind, entry.kind)} · {_game_name(entry.game)}"
        st.button(label, key=f"hit-{i}", on_click=links.go, kwargs=entry.params, width="stretch")
    st.button("⬅ Lobby", on_click=links.go, width="stretch", key="lookup-back")


def render_entry(params: Mapping[str, str]) -> None:
    game = params.get("game", "")
    if "sheet" in params:
        _sheet(game, params["sheet"])
    else:
        entry = lookup.find(dict(params))
        if entry is None:
            what = next((f"{k} '{params[k]}'" for k in DEEP_KEYS if k in params), "that")
            st.error(f"{_game_name(game)} has no {what}. The link may be from an older printing.")
            _rules_missing_note()
        else:
            _entry(entry)
    c1, c2 = st.columns(2)
    c1.button("Search", on_click=links.go, kwargs={"page": "lookup"}, width="stretch", key="entry-search")
    c2.button("⬅ Lobby", on_click=links.go, width="stretch", key="entry-lobby")


@lru_cache(maxsize=256)
def _card_picture(game: str, design: str, title: str) -> str | None:
    """The card as printed (drawn by the generator), as an <img> a phone can show, read out by its title; None if
    not drawable."""
    entry = catalogue().get(game)
    svg = preview_svg(entry.data, design) if entry and entry.data is not None else None
    if svg is None:
        return None
    data = base64.b64encode(svg.encode()).decode()
    return (f'<img alt="{html.escape(title)}" style="display:block;margin:0 auto;width:60%;max-width:240px;height:auto" '
            f'src="data:image/svg+xml;base64,{data}"/>')


def _entry(entry: lookup.Entry) -> None:
    st.caption(f"{_game_name(entry.game)} · {entry.kind}")
    st.markdown(f"## {entry.title}")
    if entry.subtitle:
        st.markdown(f"*{entry.subtitle}*")
    picture = _card_picture(entry.game, entry.key, entry.title) if entry.kind == "card" else None
    if picture:
        st.html(picture)
    if entry.text:
        st.markdown(entry.text)
    if entry.extra:
        st.markdown("\n".join(f"- **{k[:1].upper()}{k[1:]}**: {v}" if k else f"- {v}" for k, v in entry.extra))
    if entry.kind == "card":
        _rulings_about(entry)
    with st.expander("Link and QR code"):
        url = links.link(**entry.params)
        st.code(url, language=None)
        st.image(links.qr_png(url, box=5), width=180, alt=f"QR code of this page's link: {entry.title}")


def _rulings_about(card: lookup.Entry) -> None:
    """Rulings that name the card, so a scanned card leads to how Muster plays it."""
    hits = [e for e in lookup.search(card.title, [card.game], ["rule"]) if card.title.casefold() in e.haystack][:5]
    if hits:
        st.markdown("**Rulings that mention it**")
    for i, ruling in enumerate(hits):
        st.button(ruling.title, key=f"card-rule-{i}", on_click=links.go, kwargs=ruling.params, width="stretch")


def _sheet(game: str, sheet: str) -> None:
    """A printed reference sheet's page: its rules sections, since the sheet itself is on paper."""
    st.caption(f"{_game_name(game)} · sheet")
    st.markdown(f"## {pretty(sheet)}")
    sections = [e for e in lookup.index() if e.game == game and e.kind in ("section", "rule")]
    if not sections:
        st.info(f"No rules are on file for {_game_name(game)}.")
        _rules_missing_note()
        return
    st.write("The rules this sheet summarises, in full:")
    for i, entry in enumerate(sections):
        st.button(f"{entry.title} ({KIND_NAMES[entry.kind]})", key=f"sheet-{i}", on_click=links.go,
                  kwargs=entry.params, width="stretch")
