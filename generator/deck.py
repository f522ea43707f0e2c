"""Card decks of every game, fronts and backs, drawn from each schema's `face(row)` and the layouts.

No game knowledge lives here: a card is its CardFace drawn into the regions of its layout.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import partial

from cards import markup
from cards.layout import IndexMark, Layout, Region, game_layout, layout_for
from cards.load import CardFace, GameData, PhysicalCard
from cards.problems import Problem
from generator import fonts
from generator.canvas import Box, Canvas
from generator.drawing import hexagon, mix
from generator.icons import draw_icon
from generator.links import card_link
from generator.printable import PieceSet
from generator.qr import draw_qr
from generator.sheets import Piece, piece_svg
from generator.symbols import SYMBOLS, draw_picture, draw_symbol
from generator.text import draw_text, fit, glyphs, icon_token


@dataclass(frozen=True)
class Deck:
    """One printed deck of a card table; games such as medieval print a table once per player colour."""

    table: str
    name: str = ""
    colour: str | None = None
    mark: str | None = None


def face_of(game: GameData, row: object) -> CardFace:
    schema = importlib.import_module(f"cards.schemas.{game.id}")
    return schema.face(row)


def printed_face(game: GameData, row: object) -> CardFace:
    """The face with its effect text's `[key]` markup turned into inline icons (cards/markup.py)."""
    face = face_of(game, row)
    return replace(face, text=markup.printed(game, face.text, icon_token))


def _box(region: Region) -> Box:
    return Box(region.x, region.y, region.w, region.h)


def _text(c: Canvas, layout: Layout, region: str, style: str, text: str, fill: str, *,
          back: bool = False, align: str = "middle") -> None:
    box = layout.region(region, back)
    if box is None or not text:
        return
    font = layout.fonts[style]
    draw_text(c, _box(box), text, font.font, font.size, font.min_size, fill, align=align)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Look:
    """What a card shows besides its face: the frame colour of its kind, its kind's index (letters
    and icon under the value), the game's name (small, on every front) and its deck's mark (an icon
    in the index, so two decks differ by more than colour)."""

    frame: str | None = None
    game: str = ""
    mark: str | None = None
    index: IndexMark | None = None
    deck_colour: str | None = None  # games with several decks: the index sits on a tab of its deck's colour
    low_ink: bool = False  # playtest print: white ground, the kind's colour only in outlines and type


def _picture(c: Canvas, face: CardFace, box: Box, ink: str, paper: str) -> None:
    draw_picture(c, face.icon, face.symbol, box, ink, paper)


def _cut(c: Canvas, layout: Layout, stroke: str) -> None:
    """The printed cut line of a round or hexagonal piece (rectangles are cut along the sheet's marks)."""
    w, h = layout.width, layout.height
    if layout.shape == "circle":
        c.circle(w / 2, h / 2, min(w, h) / 2, stroke=stroke, width=0.3)
    elif layout.shape == "hexagon":
        c.polygon(hexagon(w / 2, h / 2, w, h * 0.866), stroke=stroke, width=0.3)


def draw_front(c: Canvas, bleed: float, *, layout: Layout, face: CardFace, link: str | None,
               look: Look = Look()) -> None:
    """A card face as published games lay it out: the kind's frame colour to the bleed edge, a value
    badge and title on a band of that colour, the kind in small capitals, an art panel with the
    card's icon, the effect text, then the game's name and the QR code at the foot."""
    col = layout.colours
    frame = look.frame or col["frame"]
    w, h = layout.width, layout.height
    if look.low_ink:
        _low_ink_front(c, bleed, layout, face, link, look, frame)
        return
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=frame)
    panel = Box(0, 0, w, h).inset(layout.border)
    title = layout.region("title")
    if layout.shape == "rect":
        top = panel.y if title is None else title.y + title.h  # under the title band: the frame colour shows
        c.rect(panel.x, top, panel.w, panel.bottom - top, fill=col["panel"], radius=layout.radius)
    else:
        _cut(c, layout, col["ink"])
    deep = mix(frame, col["ink"], 0.35)
    if title is not None:
        _text(c, layout, "title", "title", face.title, col["accent_ink"])
    kind = layout.region("kind")
    if kind is not None:
        _text(c, layout, "kind", "kind", face.kind.upper(), deep)
    art = layout.region("symbol")
    text = layout.region("text")
    if art is not None:
        box = _box(art)
        if text is not None and not face.text:
            box = Box(box.x, box.y, box.w, text.y + text.h - box.y)
        if layout.shape == "rect" and kind is not None:
            c.rect(box.x, box.y, box.w, box.h, fill=mix(frame, col["panel"], 0.75), stroke=mix(frame, col["panel"], 0.4),
                   width=0.3, radius=layout.radius)
            inner = box.inset(min(box.w, box.h) * 0.04)
        else:
            inner = box
        _picture(c, face, inner, deep if kind is not None else col["accent_ink"], col["symbol_fill"])
    if face.text and text is not None:
        _text(c, layout, "text", "text", face.text, col["ink"])
    _badge(c, layout, face, fill=col["panel"], stroke=deep, low_ink=False)
    _index(c, layout, look, col["ink"])
    if look.game:
        _text(c, layout, "game", "game", look.game.upper(), deep, align="start")
    qr = layout.region("qr")
    if qr is not None and link:
        draw_qr(c, _box(qr), link, col["qr"], col["qr_background"])


def _badge(c: Canvas, layout: Layout, face: CardFace, *, fill: str, stroke: str, low_ink: bool) -> None:
    """The round corner badge: the card's value, or on a card without one (waterloo's Specials and
    Wilds, hexbattle's empty cards) its own picture, so no two kinds of card show the same corner
    (pieces without an index region, such as tokens, leave it out)."""
    corner = layout.region("corner")
    if corner is None or not (face.corner or (layout.region("index") is not None and (face.icon or face.symbol))):
        return
    r = min(corner.w, corner.h) / 2
    box = _box(corner)
    c.circle(box.cx, box.cy, r, fill=fill, stroke=stroke, width=0.5 if low_ink else max(r * 0.08, 0.2))
    ink = layout.colours["ink"]
    if face.corner:
        spec = layout.fonts["corner"]
        draw_text(c, box.inset(r * 0.32), face.corner, spec.font, spec.size, spec.min_size, ink)
    else:
        _picture(c, face, box.inset(r * 0.4), ink, fill)


def _index(c: Canvas, layout: Layout, look: Look, ink: str) -> None:
    """Under the badge: the deck's mark or the kind's icon, then the kind's letters, centred; dark on
    the light panel, so it reads in a fanned hand without telling colours apart. A card of one of
    several decks (medieval) has them light on a tab of its deck's colour (outlined in low ink)."""
    region = layout.region("index")
    icon = look.mark or (look.index.icon if look.index else None)
    letters = look.index.letters if look.index else ""
    if region is None or not (icon or letters):
        return
    box, spec = _box(region), layout.fonts["index"]
    if look.deck_colour:
        tab = box.inset(-0.4)
        if look.low_ink:
            c.rect(tab.x, tab.y, tab.w, tab.h, stroke=look.deck_colour, width=0.4, radius=tab.h * 0.3)
        else:
            c.rect(tab.x, tab.y, tab.w, tab.h, fill=look.deck_colour, radius=tab.h * 0.3)
            ink = layout.colours["panel"]
    side = box.h if icon else 0.0
    gap = box.h * 0.15 if icon and letters else 0.0
    room = box.w - side - gap
    width = min(room, fonts.width(letters, spec.font, spec.size)) if letters else 0.0
    x = box.cx - (side + gap + width) / 2
    if icon:
        draw_icon(c, icon, Box(x, box.y, side, side), ink)
    if letters:
        draw_text(c, Box(x + side + gap, box.y, width, box.h), letters, spec.font, spec.size, spec.min_size, ink,
                  align="start")


def _lattice(box: Box, step: float) -> list[tuple[float, float, float, float]]:
    """Diagonal lines both ways across a box, `step` apart, cut at its edges (a back's pattern)."""
    out = []
    for k in range(1, math.ceil((box.w + box.h) / step)):
        d = k * step  # the lines x + y = d and x - y = d - h, in the box's own coordinates
        a, b = max(0.0, d - box.h), min(box.w, d)
        out.append((box.x + a, box.y + d - a, box.x + b, box.y + d - b))
        out.append((box.x + a, box.bottom - (d - a), box.x + b, box.bottom - (d - b)))
    return out


def _low_ink_front(c: Canvas, bleed: float, layout: Layout, face: CardFace, link: str | None, look: Look,
                   frame: str) -> None:
    """The playtest face (`--ink low`): white paper, a thin frame and rules in the kind's colour,
    dark type, the icon in the kind's colour; every region where the full face has it."""
    col = layout.colours
    w, h = layout.width, layout.height
    deep = mix(frame, col["ink"], 0.35)
    panel = Box(0, 0, w, h).inset(layout.border)
    if layout.shape == "rect":
        c.rect(panel.x, panel.y, panel.w, panel.h, stroke=frame, width=0.6, radius=layout.radius)
    else:
        _cut(c, layout, frame)
    title = layout.region("title")
    if title is not None:
        _text(c, layout, "title", "title", face.title, deep)
        if layout.shape == "rect":
            c.line(panel.x, title.y + title.h, panel.right, title.y + title.h, stroke=frame, width=0.4)
    if layout.region("kind") is not None:
        _text(c, layout, "kind", "kind", face.kind.upper(), deep)
    art, text = layout.region("symbol"), layout.region("text")
    if art is not None:
        box = _box(art)
        if text is not None and not face.text:
            box = Box(box.x, box.y, box.w, text.y + text.h - box.y)
        _picture(c, face, box.inset(min(box.w, box.h) * 0.1), deep, "#ffffff")
    if face.text and text is not None:
        _text(c, layout, "text", "text", face.text, col["ink"])
    _badge(c, layout, face, fill="#ffffff", stroke=frame, low_ink=True)
    _index(c, layout, look, col["ink"])
    if look.game:
        _text(c, layout, "game", "game", look.game.upper(), deep, align="start")
    qr = layout.region("qr")
    if qr is not None and link:
        draw_qr(c, _box(qr), link, col["qr"], col["qr_background"])


def draw_back(c: Canvas, bleed: float, *, layout: Layout, title: str, subtitle: str, colour: str | None,
              emblem: str | None = None, mark: str | None = None, low_ink: bool = False) -> None:
    """A card back: the deck colour to the bleed edge, a ruled frame, a diagonal lattice, the game's
    emblem (an icon, else the layout's symbol), game name, deck name and the deck's mark in the corners."""
    col = layout.colours
    ground = colour or col["back"]
    w, h = layout.width, layout.height
    if low_ink:  # playtest backs: white, the deck colour in the outline and the emblem only
        col = {**col, "back_ink": ground, "back_pattern": ground}
        ground = "#ffffff"
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=ground)
    inner = Box(0, 0, w, h).inset(layout.border)
    if not low_ink:
        lattice = mix(ground, col["back_ink"], 0.12)
        for x1, y1, x2, y2 in _lattice(inner, max(w, h) / 9):
            c.line(x1, y1, x2, y2, stroke=lattice, width=0.35)
    if layout.shape != "rect":
        _cut(c, layout, col["back_ink"])
    else:
        c.rect(inner.x, inner.y, inner.w, inner.h, stroke=col["back_pattern"], width=0.8, radius=layout.radius)
        ring = inner.inset(1.2)
        c.rect(ring.x, ring.y, ring.w, ring.h, stroke=col["back_ink"], width=0.3, radius=layout.radius)
    symbol = layout.region("symbol", back=True)
    if symbol is not None:
        box = _box(symbol)
        r = min(box.w, box.h) / 2 + 1.5
        c.circle(box.cx, box.cy, r, fill=ground, stroke=col["back_ink"], width=0.4)
        if emblem:
            draw_icon(c, emblem, box.inset(min(box.w, box.h) * 0.12), col["back_ink"])
        else:
            draw_symbol(c, layout.back_symbol, box, col["back_ink"], ground)
    _text(c, layout, "title", "back_title", title, col["back_ink"], back=True)
    _text(c, layout, "subtitle", "back_subtitle", subtitle, col["back_ink"], back=True)
    if mark and layout.shape == "rect":
        size = min(w, h) * 0.12
        for x, y in ((inner.x + 2, inner.y + 2), (inner.right - 2 - size, inner.bottom - 2 - size)):
            draw_icon(c, mark, Box(x, y, size, size), col["back_ink"])


def decks(game: GameData, skip: frozenset[str] = frozenset()) -> list[Deck]:
    """The printed decks: every card table (less `skip`), once per named deck colour if the game has them."""
    settings = game_layout(game)
    out = []
    for table in game.card_tables():
        if table in skip:
            continue
        if settings.deck_names:
            marks = settings.deck_icons or [None] * len(settings.deck_names)
            out.extend(Deck(table, n, c, m) for n, c, m in zip(settings.deck_names, settings.deck_colours, marks))
        else:
            out.append(Deck(table))
    return out


def _title(table: str) -> str:
    return table.replace("_", " ").capitalize()


def card_piece(game: GameData, deck: Deck, card: PhysicalCard, companion_url: str | None,
               low_ink: bool = False) -> Piece:
    """One physical card as a piece; its QR code links to the card's design."""
    face = printed_face(game, card.design)
    layout = layout_for(game, deck.table, face.kind)
    link = card_link(companion_url, game.id, card.design.id) if companion_url else None
    prefix = f"{deck.name.lower()}-" if deck.name else ""
    subtitle = deck.name or ("" if deck.table == "cards" else _title(deck.table))
    back_key = f"back-{prefix}{deck.table}".rstrip("-")
    settings = game_layout(game)
    look = Look(frame=settings.frames.get(face.kind), game=game.name, mark=deck.mark,
                index=settings.index.get(face.kind), deck_colour=deck.colour, low_ink=low_ink)
    return Piece(
        name=f"{prefix}{card.id}", design=f"{prefix}{card.design.id}",
        width=layout.width, height=layout.height, bleed=layout.bleed,
        front=partial(draw_front, layout=layout, face=face, link=link, look=look),
        back=partial(draw_back, layout=layout, title=game.name, subtitle=subtitle, colour=deck.colour,
                     emblem=settings.back_icon, mark=deck.mark, low_ink=low_ink),
        back_key=back_key, title=face.title, shape=layout.shape,
    )


def piece_sets(game: GameData, companion_url: str | None, skip: frozenset[str] = frozenset(),
               low_ink: bool = False) -> list[PieceSet]:
    """One set per card table, holding every deck printed from it (`low_ink`: the playtest look)."""
    sets: dict[str, list[Piece]] = {}
    for deck in decks(game, skip):
        sets.setdefault(deck.table, []).extend(
            card_piece(game, deck, card, companion_url, low_ink) for card in game.deck(deck.table))
    return [PieceSet(name, pieces) for name, pieces in sets.items()]


def check(games: Mapping[str, GameData], claimed: Mapping[str, frozenset[str]]) -> list[Problem]:
    """Cards the generator cannot draw well: unknown symbols or fonts, glyphs missing, text too long.

    `claimed` names, per game, the card tables other printables draw (they are not cards here)."""
    problems: list[Problem] = []
    for game in games.values():
        index = game_layout(game).index
        for table in dict.fromkeys(d.table for d in decks(game, claimed.get(game.id, frozenset()))):
            where = str(game.files.get(table, game.folder))
            for row in game.table(table):
                face = printed_face(game, row)
                if face.symbol is not None and face.symbol not in SYMBOLS:
                    problems.append(Problem(where, f"unknown symbol (known: {', '.join(SYMBOLS)})",
                                            field="symbol", value=face.symbol))
                layout = layout_for(game, table, face.kind)
                if layout.region("index") is not None and face.kind not in index:
                    problems.append(Problem(str(game.folder / "game.toml"), f"card '{row.id}': its kind has no "
                                            "corner index (letters, so a fanned hand reads without colour)",
                                            field=f"layout.index.{face.kind}", value=face.kind))
                letters = index[face.kind].letters if face.kind in index else ""
                for style, region, text in (("title", "title", face.title), ("kind", "kind", face.kind.upper()),
                                            ("index", "index", letters),
                                            ("corner", "corner", face.corner), ("text", "text", face.text)):
                    problems.extend(_text_problems(where, row.id, layout, style, region, text))
    return problems


def _text_problems(where: str, card: str, layout: Layout, style: str, region: str, text: str) -> list[Problem]:
    box = layout.region(region)
    if box is None or not text:
        return []
    spec = layout.fonts[style]
    try:
        missing = fonts.missing_glyphs(glyphs(text), spec.font)
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
