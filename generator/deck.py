"""Card decks of every game, fronts and backs, drawn from each schema's `face(row)` and the layouts.

No game knowledge lives here: a card is its CardFace drawn into the regions of its layout.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from cards.layout import Layout, Region, game_layout, layout_for
from cards.load import CardFace, GameData, PhysicalCard
from cards.problems import Problem
from generator import fonts
from generator.canvas import Box, Canvas
from generator.links import card_link
from generator.printable import PieceSet
from generator.qr import draw_qr
from generator.sheets import Piece, piece_svg
from generator.symbols import SYMBOLS, draw_symbol
from generator.text import draw_text, fit


@dataclass(frozen=True)
class Deck:
    """One printed deck of a card table; games such as medieval print a table once per player colour."""

    table: str
    name: str = ""
    colour: str | None = None


def face_of(game: GameData, row: object) -> CardFace:
    schema = importlib.import_module(f"cards.schemas.{game.id}")
    return schema.face(row)


def _box(region: Region) -> Box:
    return Box(region.x, region.y, region.w, region.h)


def _text(c: Canvas, layout: Layout, region: str, style: str, text: str, fill: str, *,
          back: bool = False, align: str = "middle") -> None:
    box = layout.region(region, back)
    if box is None or not text:
        return
    font = layout.fonts[style]
    draw_text(c, _box(box), text, font.font, font.size, font.min_size, fill, align=align)  # type: ignore[arg-type]


def draw_front(c: Canvas, bleed: float, *, layout: Layout, face: CardFace, link: str | None) -> None:
    """A card face: frame to the bleed edge, panel, title band, kind, symbol, text, QR code."""
    col = layout.colours
    w, h = layout.width, layout.height
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=col["frame"])
    panel = Box(0, 0, w, h).inset(layout.border)
    c.rect(panel.x, panel.y, panel.w, panel.h, fill=col["panel"], radius=layout.radius)
    title = layout.region("title")
    if title is not None:
        band_bottom = title.y + title.h + min(layout.border, 1.0)
        c.rect(panel.x, panel.y, panel.w, band_bottom - panel.y, fill=col["accent"], radius=layout.radius)
        c.rect(panel.x, panel.y + layout.radius, panel.w, band_bottom - panel.y - layout.radius, fill=col["accent"])
        _text(c, layout, "title", "title", face.title, col["accent_ink"])
    corner = layout.region("corner")
    if corner is not None and face.corner:
        r = min(corner.w, corner.h) / 2
        c.circle(corner.x + corner.w / 2, corner.y + corner.h / 2, r, fill=col["panel"])
        inner = Box(corner.x, corner.y, corner.w, corner.h).inset(r * 0.3)
        spec = layout.fonts["corner"]
        draw_text(c, inner, face.corner, spec.font, spec.size, spec.min_size, col["ink"])
    kind = layout.region("kind")
    if kind is not None:
        _text(c, layout, "kind", "kind", face.kind, col["ink"])
        c.line(kind.x, kind.y + kind.h, kind.x + kind.w, kind.y + kind.h, stroke=col["rule"], width=0.25)
    symbol = layout.region("symbol")
    if symbol is not None and face.symbol:
        draw_symbol(c, face.symbol, _box(symbol), col["symbol"], col["symbol_fill"])
    _text(c, layout, "text", "text", face.text, col["ink"])
    qr = layout.region("qr")
    if qr is not None and link:
        draw_qr(c, _box(qr), link, col["qr"], col["qr_background"])


def draw_back(c: Canvas, bleed: float, *, layout: Layout, title: str, subtitle: str, colour: str | None) -> None:
    """A card back: the deck colour to the bleed edge, a ruled frame, emblem, game name and deck name."""
    col = layout.colours
    w, h = layout.width, layout.height
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=colour or col["back"])
    inner = Box(0, 0, w, h).inset(layout.border)
    c.rect(inner.x, inner.y, inner.w, inner.h, stroke=col["back_pattern"], width=0.8, radius=layout.radius)
    ring = inner.inset(1.2)
    c.rect(ring.x, ring.y, ring.w, ring.h, stroke=col["back_ink"], width=0.3, radius=layout.radius)
    symbol = layout.region("symbol", back=True)
    if symbol is not None:
        draw_symbol(c, layout.back_symbol, _box(symbol), col["back_ink"], colour or col["back"])
    _text(c, layout, "title", "back_title", title, col["back_ink"], back=True)
    _text(c, layout, "subtitle", "back_subtitle", subtitle, col["back_ink"], back=True)


def decks(game: GameData, skip: frozenset[str] = frozenset()) -> list[Deck]:
    """The printed decks: every card table (less `skip`), once per named deck colour if the game has them."""
    settings = game_layout(game)
    out = []
    for table in game.card_tables():
        if table in skip:
            continue
        if settings.deck_names:
            out.extend(Deck(table, n, c) for n, c in zip(settings.deck_names, settings.deck_colours))
        else:
            out.append(Deck(table))
    return out


def _title(table: str) -> str:
    return table.replace("_", " ").capitalize()


def card_piece(game: GameData, deck: Deck, card: PhysicalCard, companion_url: str | None) -> Piece:
    """One physical card as a piece; its QR code links to the card's design."""
    face = face_of(game, card.design)
    layout = layout_for(game, deck.table, face.kind)
    link = card_link(companion_url, game.id, card.design.id) if companion_url else None
    prefix = f"{deck.name.lower()}-" if deck.name else ""
    subtitle = deck.name or ("" if deck.table == "cards" else _title(deck.table))
    back_key = f"back-{prefix}{deck.table}".rstrip("-")
    return Piece(
        name=f"{prefix}{card.id}", design=f"{prefix}{card.design.id}",
        width=layout.width, height=layout.height, bleed=layout.bleed,
        front=partial(draw_front, layout=layout, face=face, link=link),
        back=partial(draw_back, layout=layout, title=game.name, subtitle=subtitle, colour=deck.colour),
        back_key=back_key, title=face.title,
    )


def piece_sets(game: GameData, companion_url: str | None, skip: frozenset[str] = frozenset()) -> list[PieceSet]:
    """One set per card table, holding every deck printed from it."""
    sets: dict[str, list[Piece]] = {}
    for deck in decks(game, skip):
        sets.setdefault(deck.table, []).extend(
            card_piece(game, deck, card, companion_url) for card in game.deck(deck.table))
    return [PieceSet(name, pieces) for name, pieces in sets.items()]


def check(games: Mapping[str, GameData], claimed: Mapping[str, frozenset[str]]) -> list[Problem]:
    """Cards the generator cannot draw well: unknown symbols or fonts, glyphs missing, text too long.

    `claimed` names, per game, the card tables other printables draw (they are not cards here)."""
    problems: list[Problem] = []
    for game in games.values():
        for table in dict.fromkeys(d.table for d in decks(game, claimed.get(game.id, frozenset()))):
            where = str(game.files.get(table, game.folder))
            for row in game.table(table):
                face = face_of(game, row)
                if face.symbol is not None and face.symbol not in SYMBOLS:
                    problems.append(Problem(where, f"unknown symbol (known: {', '.join(SYMBOLS)})",
                                            field="symbol", value=face.symbol))
                layout = layout_for(game, table, face.kind)
                for style, region, text in (("title", "title", face.title), ("kind", "kind", face.kind),
                                            ("corner", "corner", face.corner), ("text", "text", face.text)):
                    problems.extend(_text_problems(where, row.id, layout, style, region, text))
    return problems


def _text_problems(where: str, card: str, layout: Layout, style: str, region: str, text: str) -> list[Problem]:
    box = layout.region(region)
    if box is None or not text:
        return []
    spec = layout.fonts[style]
    try:
        missing = fonts.missing_glyphs(text, spec.font)
    except KeyError as err:
        return [Problem(where, str(err.args[0]), field=f"fonts.{style}", value=spec.font)]
    out = []
    if missing:
        out.append(Problem(where, f"card '{card}': font {spec.font} has no glyph for {' '.join(missing)}",
                           field=region, value=text))
    fitted = fit(text, spec.font, spec.size, spec.min_size, _box(box))
    if fitted.size < spec.min_size:
        out.append(Problem(where, f"card '{card}': {region} text needs {fitted.size} pt, below min_size "
                                  f"{spec.min_size}; shorten it", field=region, value=text))
    return out


def design_svg(game: GameData, table: str, design_id: str) -> str | None:
    """One design's front as printed in its table's first deck, without a QR code."""
    deck = next((d for d in decks(game) if d.table == table), None)
    card = next((c for c in game.deck(table) if c.design.id == design_id), None)
    if deck is None or card is None:
        return None
    return piece_svg(card_piece(game, deck, card, None))
