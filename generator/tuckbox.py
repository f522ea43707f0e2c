"""A tuck box per deck, printed on the home profile's paper and sized for the profile's card stock.

The box is measured from the deck: its inside is a card plus `CLEARANCE` each way, and as deep as the
deck's cards laid on each other (count × the profile's `thickness`, cards/profiles.toml) plus `EASE`,
so the deck slides in and out. The net, left to right: glue flap, back, side, front, side; the top and
bottom close with a lid and a tuck flap on the back panel and dust flaps on the sides; the front has a
thumb notch. A deck too deep for one box on the paper goes into two (or more) boxes. Cut lines are
solid, folds dashed. The front carries the deck's own back art, the back
panel the game's name and what the box holds. The page's TrimBox is the net's outline, so its size can
be read off the PDF.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from cards.layout import SheetProfile, game_layout, resolve
from cards.load import GameData
from generator import deck
from generator.canvas import Box, Canvas, Document
from generator.printable import BuildContext, SheetSet
from generator.sheets import Piece
from generator.text import draw_text

NAME = "tuck-boxes"
CLEARANCE = 1.0   # mm of room beside a card on each side
HEAD_ROOM = 1.5   # mm of room above the cards
EASE = 1.5        # mm added to the deck's depth
GLUE = 8.0        # mm: the glue flap along the back panel's side
TUCK = 14.0       # mm: the flap that tucks into the box, at most (never more than half the box's width)
NOTCH = 9.0       # mm: the thumb notch's radius
MARGIN = 6.0      # mm kept clear at the paper edge
INK = "#1f1b16"
FOLD = "#7f7f7f"
MIN_CARD_SIDE = 60.0  # mm: pieces at least this long on one side are cards that go in a deck box


@dataclass(frozen=True)
class Box3:
    """What one box holds and its inside measures (mm)."""

    title: str
    cards: int
    width: float
    height: float
    depth: float
    card: Piece
    colour: str | None = None  # the deck's own back colour, where decks differ by it (sides and lids)

    @property
    def tuck(self) -> float:
        return min(TUCK, self.width / 2)

    @property
    def net(self) -> tuple[float, float]:
        """The flat net's width and height."""
        return GLUE + 2 * self.width + 2 * self.depth, 2 * (self.tuck + self.depth) + self.height


def boxes(game: GameData, thickness: float, paper: tuple[float, float],
          claimed: frozenset[str] = frozenset()) -> list[Box3]:
    """The boxes for every deck the game prints (cards sharing a back), sized for cards `thickness` mm
    thick; a deck too deep for one box on this paper is shared between the fewest boxes that fit."""
    out = []
    colours = {d.name.lower(): d.colour for d in deck.decks(game, claimed) if d.name}  # medieval's Crimson, Azure
    for piece_set in deck.piece_sets(game, None, claimed):
        for name, pieces in piece_set.decks().items():
            card = pieces[0]
            if max(card.width, card.height) < MIN_CARD_SIDE:
                continue  # tokens and counters live in bags, not tuck boxes
            title = " ".join(w.capitalize() for w in (name or piece_set.name).replace("-", " ").replace("_", " ").split())
            for parts in range(1, len(pieces) + 1):
                counts = [len(pieces) // parts + (k < len(pieces) % parts) for k in range(parts)]
                made = [_box(f"{title} {k + 1}/{parts}" if parts > 1 else title, n, card, thickness, colours.get(name))
                        for k, n in enumerate(counts)]
                if all(placement(b, paper) is not None for b in made):
                    out.extend(made)
                    break
    return out


def _box(title: str, cards: int, card: Piece, thickness: float, colour: str | None) -> Box3:
    depth = math.ceil((cards * thickness + EASE) * 2) / 2
    return Box3(title, cards, card.width + 2 * CLEARANCE, card.height + HEAD_ROOM, depth, card, colour)


def placement(box: Box3, paper: tuple[float, float]) -> tuple[bool, float, float] | None:
    """(turned a quarter, x, y) of the net centred on the paper, or None if it fits neither way."""
    w, h = box.net
    pw, ph = paper
    for turned, (a, b) in ((False, (w, h)), (True, (h, w))):
        if a <= pw - 2 * MARGIN and b <= ph - 2 * MARGIN:
            return turned, (pw - a) / 2, (ph - b) / 2
    return None


def _text(c: Canvas, box: Box, text: str, size: float, fill: str, bold: bool = True) -> None:
    font = "DejaVuSansCondensed-Bold" if bold else "DejaVuSansCondensed"
    draw_text(c, box, text, font, size, 6.0, fill, align="middle", valign="middle")


def draw_net(c: Canvas, b: Box3, game: GameData) -> None:
    """The net with its top-left corner at (0, 0): panels, flaps, art and labels."""
    W, H, D, T = b.width, b.height, b.depth, b.tuck
    top = T + D                      # y of the panels' top edge
    xs = [0.0, GLUE, GLUE + W, GLUE + W + D, GLUE + 2 * W + D, GLUE + 2 * W + 2 * D]
    back, side1, front, side2 = (Box(xs[i], top, xs[i + 1] - xs[i], H) for i in range(1, 5))
    # artwork first, cut and fold lines over it
    with c.group(front.x, front.y, clip=Box(0, 0, front.w, front.h)):
        scale = max(front.w / b.card.width, front.h / b.card.height)
        with c.group((front.w - b.card.width * scale) / 2, (front.h - b.card.height * scale) / 2, scale=scale):
            if b.card.back is not None:
                b.card.back(c, 3.0)
    look = resolve("card", game_layout(game)).colours
    ground, ink = b.colour or look["back"], look["back_ink"]
    c.rect(back.x, back.y, back.w, back.h, fill=look["panel"])
    _text(c, Box(back.x + 4, back.y + back.h * 0.3, back.w - 8, 12), game.name, 14, INK)
    _text(c, Box(back.x + 4, back.y + back.h * 0.3 + 13, back.w - 8, 8), f"{b.title} \u00b7 {b.cards} cards", 9, INK,
          bold=False)
    for side in (side1, side2):
        c.rect(side.x, side.y, side.w, side.h, fill=ground)
        with c.group(side.cx, side.cy, rotate=-90):
            _text(c, Box(-side.h / 2 + 4, -side.w / 2 + 1, side.h - 8, side.w - 2), f"{b.title} \u00b7 {b.cards}",
                  min(12, side.w * 1.6), ink)
    for lid in (Box(back.x, T, W, D), Box(back.x, top + H, W, D)):
        c.rect(lid.x, lid.y, lid.w, lid.h, fill=ground)
        _text(c, lid.inset(1.0), game.name, min(10, D * 1.5), ink)
    # the outline: cut
    cut = _outline(b, xs, top)
    c.polygon(cut, stroke=INK, width=0.3)
    # folds between panels, at the lids and flaps
    for x in xs[1:5]:
        c.line(x, top, x, top + H, stroke=FOLD, width=0.25, dash=(2.0, 1.0))
    for y in (top, top + H):
        c.line(back.x, y, back.right, y, stroke=FOLD, width=0.25, dash=(2.0, 1.0))
        for side in (side1, side2):
            c.line(side.x, y, side.right, y, stroke=FOLD, width=0.25, dash=(2.0, 1.0))
        c.line(front.x, y, front.right, y, stroke=FOLD, width=0.25, dash=(2.0, 1.0))
    for y in (T, top + H + D):
        c.line(back.x, y, back.right, y, stroke=FOLD, width=0.25, dash=(2.0, 1.0))
    _text(c, Box(0, top + H + D + 1.0, GLUE + W, 4.0), "cut on solid lines, fold on dashed", 6.5, INK, bold=False)


def _outline(b: Box3, xs: list[float], top: float) -> list[tuple[float, float]]:
    """The cut line round the net, clockwise from the glue flap's top."""
    W, H, D, T = b.width, b.height, b.depth, b.tuck
    slant = min(3.0, D / 3)
    bottom = top + H
    pts: list[tuple[float, float]] = [(xs[0], top + 4), (xs[1], top)]
    # top: lid and tuck flap on the back panel, rounded tuck corners
    pts += [(xs[1], T), (xs[1] + 2, 0), (xs[2] - 2, 0), (xs[2], T), (xs[2], top)]
    pts += [(xs[2] + slant, top - D * 0.9), (xs[3], top - D * 0.9), (xs[3], top)]          # dust flap
    pts += _notch(xs[3], xs[4], top)
    pts += [(xs[4], top), (xs[4], top - D * 0.9), (xs[5] - slant, top - D * 0.9), (xs[5], top)]  # dust flap
    pts += [(xs[5], bottom), (xs[5] - slant, bottom + D * 0.9), (xs[4], bottom + D * 0.9), (xs[4], bottom)]
    pts += [(xs[4], bottom + D), (xs[3], bottom + D), (xs[3], bottom)]                         # front's bottom flap
    pts += [(xs[3], bottom + D * 0.9), (xs[2] + slant, bottom + D * 0.9), (xs[2], bottom)]
    pts += [(xs[2], bottom + D + T), (xs[2] - 2, bottom + D + T), (xs[1] + 2, bottom + D + T), (xs[1], bottom + D + T)]
    pts += [(xs[1], bottom), (xs[0], bottom - 4)]
    return pts


def _notch(x0: float, x1: float, y: float) -> list[tuple[float, float]]:
    """The thumb notch: a half ellipse cut down into the front panel's top edge."""
    cx = (x0 + x1) / 2
    r = min(NOTCH, (x1 - x0) / 3)
    steps = 12
    return [(cx - r * math.cos(math.pi * k / steps), y + r * 0.7 * math.sin(math.pi * k / steps))
            for k in range(steps + 1)]


def draw_page(c: Canvas, b: Box3, game: GameData, paper: tuple[float, float]) -> Box:
    """One box's net centred on the page (turned if it fits only so); returns the net's box on the page."""
    place = placement(b, paper)
    if place is None:
        raise ValueError(f"the {b.title} box ({b.net[0]:.0f} x {b.net[1]:.0f} mm) does not fit the paper")
    turned, x, y = place
    w, h = b.net
    if turned:
        with c.group(x + h, y, rotate=90):
            draw_net(c, b, game)
        return Box(x, y, h, w)
    with c.group(x, y):
        draw_net(c, b, game)
    return Box(x, y, w, h)


def printables(game: GameData, ctx: BuildContext) -> list[SheetSet]:
    """A page per deck on every home profile's paper, each box sized for that profile's card stock."""
    def draw(doc: Document, profile: Any, paper: tuple[float, float]) -> bool:
        if not isinstance(profile, SheetProfile):
            return False
        made = boxes(game, profile.thickness, paper, ctx.claimed)
        for b in made:
            place = placement(b, paper)
            assert place is not None  # boxes() shares a deck out until every box fits
            turned, x, y = place
            w, h = b.net
            trim = Box(x, y, h, w) if turned else Box(x, y, w, h)
            with doc.page(*paper, trim=trim) as c:
                draw_page(c, b, game, paper)
        return bool(made)

    return [SheetSet(NAME, draw)]
