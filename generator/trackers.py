"""Trackers: warfare's troop-point track and waterloo's chips.

The track runs from 0 to the warfare `starting_troops` in rows of `[layout] track_columns`
boxes, with one cut-out marker per player. Chips come from waterloo's `[layout]`:
`chip_values`, `chip_counts` (per player) and `chip_colours`; one set is printed per seat.
"""

from __future__ import annotations

import math
from functools import partial

from cards.layout import Layout, game_layout, resolve
from cards.load import GameData
from generator.canvas import Box, Canvas
from generator.printable import BuildContext, PageSet, PieceSet
from generator.reference import Sheet, fitted, start_sheet
from generator.sheets import Piece
from generator.text import draw_text

MARKER_DIAMETER = 16.0  # mm, the cut-out track markers


# ---------------------------------------------------------------- warfare: troop-point track

def draw_track(s: Sheet, box: Box, top: int, columns: int) -> list[Box]:
    """Numbered boxes 0..top in rows of `columns`; every tenth and the start value stand out.

    Returns the boxes in value order (tests check them)."""
    col = s.layout.colours
    rows = math.ceil((top + 1) / columns)
    side = min(box.w / columns, box.h / rows)
    x0 = box.cx - side * columns / 2
    boxes = []
    for value in range(top + 1):
        r, k = divmod(value, columns)
        cell = Box(x0 + k * side, box.y + r * side, side, side)
        strong = value % 10 == 0 or value == top
        s.c.rect(cell.x, cell.y, cell.w, cell.h, fill=col["band"] if strong else None,
                 stroke=col["ink"], width=0.4 if strong else 0.25)
        s.write(cell.inset(side * 0.12), str(value), "track" if strong else "track_light", align="middle")
        boxes.append(cell)
    return boxes


def _track_page(c: Canvas, width: float, height: float, *, game: GameData) -> None:
    r = game.rules
    settings = game.layout
    s = start_sheet(c, width, height, game, "Each player sets a marker on "
                    f"{r.starting_troops} and moves it down by the casualties taken; at 0 that player loses.",
                    None, title="troop points")
    names, colours = settings["marker_names"], settings["marker_colours"]
    track = s.take(s.area.bottom - s.y - MARKER_DIAMETER - 10.0)
    draw_track(s, track, r.starting_troops, int(settings["track_columns"]))
    s.y += 4.0
    row = s.take(MARKER_DIAMETER + 5.0)
    s.write(Box(row.x, row.y, 40.0, MARKER_DIAMETER), "Cut out the markers:", "body")
    for k, (name, colour) in enumerate(zip(names, colours)):
        cx = row.x + 55.0 + k * (MARKER_DIAMETER + 30.0)
        cy = row.y + MARKER_DIAMETER / 2
        s.c.circle(cx, cy, MARKER_DIAMETER / 2, fill=colour, stroke=s.layout.colours["ink"], width=0.3)
        s.write(Box(cx - MARKER_DIAMETER * 0.4, cy - 3.0, MARKER_DIAMETER * 0.8, 6.0), str(k + 1), "marker",
                s.layout.colours["accent_ink"], align="middle")
        s.write(Box(cx + MARKER_DIAMETER / 2 + 1.5, cy - 3.0, 26.0, 6.0), name, "body")


# ---------------------------------------------------------------- waterloo: chips

def chip_denominations(game: GameData) -> list[tuple[int, int, str]]:
    """(value, count per player, colour) from waterloo's [layout]; ValueError when the lists disagree."""
    settings = game.layout
    values, counts, colours = settings["chip_values"], settings["chip_counts"], settings["chip_colours"]
    if not len(values) == len(counts) == len(colours):
        raise ValueError("chip_values, chip_counts and chip_colours must have the same length")
    return list(zip(values, counts, colours))


def _chip_side(c: Canvas, bleed: float, *, value: int, colour: str, layout: Layout, title: str,
               low_ink: bool = False) -> None:
    """A round chip: the colour disc past the cut circle, edge marks, the value, the game's name.
    `low_ink`: white, with a ring, the edge marks and the value in the chip's colour."""
    col = layout.colours
    d = layout.width
    cx = cy = d / 2
    r = d / 2
    if low_ink:
        c.circle(cx, cy, r * 0.9, stroke=colour, width=d * 0.025)
        col = {**col, "rim": colour, "ink": colour}
    else:
        c.circle(cx, cy, r + bleed, fill=colour)
    mark = d * (0.07 if low_ink else 0.12)
    for k in range(8):
        with c.group(cx, cy, rotate=45.0 * k):
            c.rect(-d * 0.05, -r, d * 0.1, mark, fill=col["rim"])
    c.circle(cx, cy, r * 0.68, stroke=col["rim"], width=0.35)
    corner = layout.fonts["corner"]
    draw_text(c, Box(cx - r * 0.55, cy - r * 0.42, r * 1.1, r * 0.62), str(value), corner.font, corner.size,
              corner.min_size, col["ink"])
    small = layout.fonts["title"]
    draw_text(c, Box(cx - r * 0.5, cy + r * 0.22, r, r * 0.26), title, small.font, small.size, small.min_size,
              col["ink"])
    c.circle(cx, cy, r, stroke=col["cut"], width=0.2)


def chips(game: GameData, low_ink: bool = False) -> list[Piece]:
    """One set of chips per seat (max_players), double-sided (`low_ink`: the playtest print)."""
    layout = resolve("chip", game_layout(game))
    pieces = []
    for seat in range(1, game.max_players + 1):
        for value, count, colour in chip_denominations(game):
            side = partial(_chip_side, value=value, colour=colour, layout=layout, title=game.name, low_ink=low_ink)
            for k in range(1, count + 1):
                pieces.append(Piece(name=f"chip-{value}-{seat}-{k}", width=layout.width, height=layout.height,
                                    bleed=layout.bleed, front=side, back=side, back_key=f"chip-{value}",
                                    design=f"chip-{value}", shape=layout.shape))
    return pieces


# ---------------------------------------------------------------- build entry point

def printables(game: GameData, ctx: BuildContext) -> list[PieceSet | PageSet]:
    """Warfare's troop track and waterloo's chips (nothing for the other games)."""
    if game.id == "warfare":
        return [PageSet("troop-track", [partial(fitted, _track_page, game=game)])]
    if game.id == "waterloo":
        return [PieceSet("chips", chips(game, ctx.low_ink))]
    return []
