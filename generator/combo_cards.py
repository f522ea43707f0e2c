"""Waterloo's combos drawn card by card: each card of a combo's make-up as a small card in its kind's frame
colour with its abbreviation, and the letter shared by matching cards or the value it needs (`parts` in
game.toml, cards/schemas/waterloo.py PARTS). The letters carry it without colour; any-card slots are
hollow. Used by the booklet's combo table and the reference sheet's second page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cards.layout import Layout, game_layout
from cards.load import GameData
from cards.schemas.waterloo import PARTS
from generator.canvas import Box, Canvas
from generator.hex_diagrams import Ink, label

CARD = (7.4, 10.0)  # mm: a card of a combo's make-up in the booklet
SMALL_CARD = (6.4, 7.5)  # mm: on the reference sheet, whose 17 rows share a page with the tie rules
CARD_GAP = 0.7
MAKE_UP_WIDTH = 5 * CARD[0] + 4 * CARD_GAP
LEGEND = ("; ".join(f"{abbr} {meaning}" for abbr, (_, meaning) in PARTS.items())
          + ". Cards with the same letter match (same kind and value); a digit is the value the card must have.")


def mini_card(c: Canvas, layout: Layout, box: Box, part: str, game: GameData) -> None:
    """One card of a combo's make-up."""
    abbr, _, mark = part.partition(" ")
    kind = PARTS[abbr][0]
    col = layout.colours
    colour = game_layout(game).frames.get(kind) if kind else None
    ink = col["accent_ink"] if colour else col["ink"]
    if colour:
        c.rect(box.x, box.y, box.w, box.h, fill=colour, radius=0.8)
    else:
        c.rect(box.x, box.y, box.w, box.h, fill=col["panel"], stroke=col["ink"], width=0.25, radius=0.8)
    pen = Ink(c, layout)
    label(pen, Box(box.x, box.y + 0.6, box.w, box.h * 0.5), abbr, "cell_bold", ink)
    if mark:
        label(pen, Box(box.x, box.y + box.h * 0.5, box.w, box.h * 0.45), mark, "cell", ink)


def make_up(game: GameData, layout: Layout, parts: Sequence[str],
            size: tuple[float, float] = CARD) -> Callable[[Canvas, Box], None]:
    """A table cell drawing a combo's five cards `size` mm each, centred on the cell's height."""
    def draw(c: Canvas, box: Box) -> None:
        w, h = size
        for k, part in enumerate(parts):
            mini_card(c, layout, Box(box.x + k * (w + CARD_GAP), box.cy - h / 2, w, h), part, game)
    return draw
