"""The rules booklets' diagrams, each drawn from the game's data where a player reads it in the text.

A diagram is `draw(flow, lead)`: it places itself on the booklet's current page (after `lead`, the
headings that must stay with it), through the flow of generator/booklet.py. `DIAGRAMS` names them
per game; `::: diagram NAME` in cards/<game>/rules.md puts one in the text.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from cards.layout import game_layout
from cards.load import GameData
from engine.hexgrid import DIRECTIONS, in_arc
from generator.booklet_flow import Flow, booklet_layout, table
from generator.canvas import Box, Canvas, Point
from generator.drawing import arrow, hexagon, mix
from generator.reference import (
    Sheet,
    battlefield,
    beats_triangle,
    counter_cycle,
    formation_table,
    terrain_table,
    unit_table,
)
from generator.text import draw_text

Lead = Callable[[Sheet], None] | None


def _room(flow: Flow, name: str) -> Any:
    assert flow.layout.booklet is not None
    return flow.layout.booklet.diagrams[name]


def _label(s: Sheet, box: Box, text: str, style: str = "small", fill: str | None = None,
           align: str = "middle") -> None:
    f = s.layout.fonts[style]
    draw_text(s.c, box, text, f.font, f.size, f.min_size, fill or s.layout.colours["ink"], align=align,  # type: ignore[arg-type]
              valign="middle")


def _place_box(flow: Flow, lead: Lead, room: str, draw: Callable[[Sheet, Box], None], what: str) -> None:
    def block(s: Sheet) -> None:
        if lead:
            lead(s)
        draw(s, s.diagram(_room(flow, room)))
    flow.place(block, what)


# ---------------------------------------------------------------- waterloo: the combo table

def _mini_card(s: Sheet, box: Box, part: str, game: GameData) -> None:
    """One card of a combo's make-up: its kind's frame colour and abbreviation, and the letter that
    marks matching cards or the value it needs; any-card slots are drawn hollow."""
    from cards.schemas.waterloo import PARTS

    abbr, _, mark = part.partition(" ")
    kind = PARTS[abbr][0]
    frames = game_layout(game).frames
    col = s.layout.colours
    colour = frames.get(kind) if kind else None
    ink = col["accent_ink"] if colour else col["ink"]
    if colour:
        s.c.rect(box.x, box.y, box.w, box.h, fill=colour, radius=0.8)
    else:
        s.c.rect(box.x, box.y, box.w, box.h, fill=col["panel"], stroke=col["ink"], width=0.25, radius=0.8)
    top = Box(box.x, box.y + 0.6, box.w, box.h * 0.5)
    _label(s, top, abbr, "cell_bold", ink)
    if mark:
        _label(s, Box(box.x, box.y + box.h * 0.5, box.w, box.h * 0.45), mark, "cell", ink)


CARD = (7.4, 10.0)  # mm: a card of a combo's make-up


def _make_up(game: GameData, parts: list[str]) -> Callable[[Canvas, Box], None]:
    def draw(c: Canvas, box: Box) -> None:
        s = Sheet(c, booklet_layout(game), box)
        w, h = CARD
        for k, part in enumerate(parts):
            _mini_card(s, Box(box.x + k * (w + 0.7), box.cy - h / 2, w, h), part, game)
    return draw


def combos(flow: Flow, lead: Lead) -> None:
    """Every combo, strongest first: its cards drawn, what it takes, and how two of it are compared."""
    from cards.schemas.waterloo import PARTS

    game = flow.game
    rows = [[str(k), combo.name, _make_up(game, combo.parts), f"{combo.takes}. Ties: {combo.ties}."]
            for k, combo in enumerate(game.rules.combos, start=1)]
    width = 5 * CARD[0] + 4 * 0.7 + 2.2
    area = flow.area(2).w
    shares = [0.06, 0.2, width / area, 1 - 0.26 - width / area]
    table(flow, ["#", "Combo", "Cards", "What it takes; ties"], rows, shares, lead, min_row=CARD[1])
    legend = "; ".join(f"{abbr} {meaning}" for abbr, (_, meaning) in PARTS.items())
    flow.place(lambda s: s.paragraph(f"{legend}. Cards with the same letter match (same kind and value); "
                                     "a digit is the value the card must have.", "small"), "the combo legend")


# ---------------------------------------------------------------- warfare, imperial, medieval

def counters(flow: Flow, lead: Lead) -> None:
    _place_box(flow, lead, "beats", lambda s, box: counter_cycle(s, box, flow.game), "the counter cycle")


def beats(flow: Flow, lead: Lead) -> None:
    _place_box(flow, lead, "beats", lambda s, box: beats_triangle(s, box, flow.game), "who beats whom")


def field(flow: Flow, lead: Lead) -> None:
    _place_box(flow, lead, "battlefield", lambda s, box: battlefield(s, box, flow.game), "the battlefield")


# ---------------------------------------------------------------- hexbattle: arcs and line of sight

def _hex_at(origin: Point, size: float, q: int, r: int) -> Point:
    """Centre of axial hex (q, r) for flat-topped hexes `size` mm flat to flat."""
    w = size / math.sqrt(3) * 2
    return origin[0] + 0.75 * w * q, origin[1] + size * (r + q / 2)


def _hex(s: Sheet, centre: Point, size: float, fill: str | None, stroke: str | None = None) -> None:
    w = size / math.sqrt(3) * 2
    s.c.polygon(hexagon(centre[0], centre[1], w, size), fill=fill, stroke=stroke or s.layout.colours["rule"],
                width=0.35)


def _counter(s: Sheet, centre: Point, size: float, colour: str, label: str, facing: int = 0) -> None:
    """A unit counter seen from above, its notch on the side it faces (0 = north, clockwise)."""
    half = size / 2
    paper = s.layout.colours["panel"]
    with s.c.group(centre[0], centre[1], rotate=60.0 * facing):
        s.c.rect(-half, -half, size, size, fill=colour, radius=0.6)
        s.c.polygon([(-half * 0.45, -half), (half * 0.45, -half), (0, -half * 0.45)], fill=paper)
    _label(s, Box(centre[0] - half, centre[1] - half * 0.2, size, half * 1.1), label, "cell_bold", paper)


def arcs(flow: Flow, lead: Lead) -> None:
    """Left: the six sides of a unit and what an attack from each costs the defender. Right: the cone a
    unit fires into (two hexes out) and the hexes a charge can reach."""
    game = flow.game
    r = game.rules
    armies = list(game.table("armies"))

    def draw(s: Sheet, box: Box) -> None:
        col = s.layout.colours
        half = box.w / 2 - 3.0
        size = min(box.h / 3.3, half / 2.6 * math.sqrt(3) / 2 * 2 / 1.0 / 1.3)
        origin = (box.x + half / 2, box.y + box.h / 2 - 2.0)
        names = ["Front", f"Front flank \u2212{r.front_flank_penalty}", f"Side flank \u2212{r.side_flank_penalty}",
                 f"Rear \u2212{r.rear_penalty}", f"Side flank \u2212{r.side_flank_penalty}",
                 f"Front flank \u2212{r.front_flank_penalty}"]
        steps = [0, 1, 2, 3, 2, 1]
        for facing, (dq, dr) in enumerate(DIRECTIONS):
            centre = _hex_at(origin, size, dq, dr)
            _hex(s, centre, size, mix(col["panel"], col["accent"], 0.12 * steps[facing]))
            _label(s, Box(centre[0] - size * 0.55, centre[1] - size * 0.4, size * 1.1, size * 0.8), names[facing])
        _hex(s, origin, size, col["panel"])
        _counter(s, origin, size * 0.5, armies[0].colour_hex, "")
        _label(s, Box(box.x, box.bottom - 4.5, half, 4.5), "Close combat: the defender's dice lose",
               "small")
        small = size * 0.52
        origin2 = (box.x + box.w * 0.75, box.y + box.h / 2 - 1.0)
        for q in range(-2, 3):
            for rr in range(-2, 3):
                if abs(q) + abs(rr) + abs(-q - rr) > 4 or (q, rr) == (0, 0):
                    continue
                shaded = in_arc((0, 0), 0, (q, rr))
                _hex(s, _hex_at(origin2, small, q, rr), small,
                     mix(col["panel"], col["accent"], 0.35) if shaded else col["panel"])
        _hex(s, origin2, small, col["panel"])
        _counter(s, origin2, small * 0.55, armies[0].colour_hex, "")
        _label(s, Box(box.x + box.w / 2 + 3.0, box.bottom - 4.5, half, 4.5),
               "Fire: the shaded cone, \u00b160\u00b0 ahead", "small")

    _place_box(flow, lead, "arcs", draw, "the arcs diagram")


def sight(flow: Flow, lead: Lead) -> None:
    """Left: a unit in between blocks the line. Right: a line along the edge between two hexes, each of
    which would block, is checked hex by hex with a die."""
    game = flow.game
    armies = list(game.table("armies"))
    r = game.rules

    def draw(s: Sheet, box: Box) -> None:
        col = s.layout.colours
        size = min(box.h / 3.8, box.w / 2 / 5.0)
        block_ink = col["accent"]
        for k, (title, blockers) in enumerate((("A unit in between blocks the line.", "unit"),
                                               (f"Along an edge: roll for each blocking hex, 1\u2013{r.split_block_max} "
                                                "blocks.", "split"))):
            left = box.x + k * box.w / 2
            origin = (left + size * 0.75, box.y + size * 1.2)
            cells = [(q, rr) for q in range(0, 5) for rr in range(-1 - q // 2 if q % 2 else -q // 2, 2 - q // 2)]
            for q, rr in cells:
                _hex(s, _hex_at(origin, size, q, rr), size, col["panel"])
            a, b = _hex_at(origin, size, 0, 0), _hex_at(origin, size, 4, -2)
            if blockers == "split":
                b = _hex_at(origin, size, 2, -1)
                for q, rr, what in ((1, -1, "Woods"), (1, 0, "unit")):
                    centre = _hex_at(origin, size, q, rr)
                    if what == "Woods":
                        _hex(s, centre, size, mix(col["panel"], "#2f5a22", 0.45))
                        _label(s, Box(centre[0] - size / 2, centre[1] - size * 0.45, size, size * 0.4), "Woods")
                    else:
                        _counter(s, centre, size * 0.5, armies[1].colour_hex, "")
            else:
                mid = _hex_at(origin, size, 2, -1)
                _counter(s, mid, size * 0.5, armies[1].colour_hex, "")
            _counter(s, a, size * 0.5, armies[0].colour_hex, "A")
            _counter(s, b, size * 0.5, armies[1].colour_hex, "T")
            s.c.line(a[0], a[1], b[0], b[1], stroke=block_ink, width=0.5, dash=(1.5, 0.8))
            arrow(s.c, a, (a[0] + (b[0] - a[0]) * 0.3, a[1] + (b[1] - a[1]) * 0.3), block_ink, 0.5, 2.0)
            _label(s, Box(left + 1.0, box.bottom - 9.0, box.w / 2 - 2.0, 9.0), title, "small")

    _place_box(flow, lead, "sight", draw, "the line-of-sight diagram")


def units(flow: Flow, lead: Lead) -> None:
    spec = flow.layout.sheet_settings().hexbattle
    table(flow, *unit_table(flow.game), spec.units, lead)


def formations(flow: Flow, lead: Lead) -> None:
    spec = flow.layout.sheet_settings().hexbattle
    table(flow, *formation_table(flow.game), spec.formations, lead)


def terrain(flow: Flow, lead: Lead) -> None:
    spec = flow.layout.sheet_settings().hexbattle
    caption = flow.layout.fonts["small"].min_size
    table(flow, *terrain_table(flow.game, spec.icon, caption), spec.terrain, lead, min_row=spec.icon)


DIAGRAMS: dict[str, dict[str, Callable[[Flow, Lead], None]]] = {
    "waterloo": {"combos": combos},
    "warfare": {"counters": counters},
    "imperial": {"beats": beats},
    "medieval": {"battlefield": field},
    "hexbattle": {"units": units, "formations": formations, "terrain": terrain, "arcs": arcs, "sight": sight},
}
