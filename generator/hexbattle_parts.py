"""Hexbattle's printed parts: terrain tiles, unit counters, formation and strength markers, the map board.

Every number and name comes from the hexbattle tables (`cards/hexbattle/`); sizes, colours
and fonts from the layouts its `[layout]` names. Tile art is chosen by the terrain's
`symbol`, and a tile's effect icons are derived from its effect columns, so a new terrain
row prints correctly without code changes. Each part is a `Piece`, so the companion can
draw one as SVG with `tile_svg` / `counter_svg`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from cards.layout import Layout, game_layout, load_profiles, resolve
from cards.load import GameData
from cards.problems import Problem
from generator import fonts
from generator.canvas import Box, Canvas, Point, SvgDocument
from generator.drawing import ellipse, hex_half_width, hexagon, mix
from generator.printable import BuildContext, PageSet, PieceSet
from generator.sheets import SCALE_DEPTH, Piece, draw_scale, piece_svg
from generator.icons import draw_icon
from generator.symbols import SYMBOLS, draw_picture, draw_symbol
from generator.text import LEADING, draw_text

GAME = "hexbattle"
NOTE_BAND = 12.0  # mm above a board page's window for the title and assembly note
SCALE_GAP = 3.0   # mm from a board page's window (and glue strip) down to its 50 mm scale bar
WHITE = "#ffffff"
MINUS = "\u2212"


def part_layout(game: GameData, key: str) -> Layout:
    """The resolved layout a part uses: `key` names it in the game's [layout] (e.g. "tile_layout")."""
    return resolve(game.layout[key], game_layout(game))


def _font(c: Canvas, layout: Layout, style: str, box: Box, text: str, fill: str, **kw: Any) -> None:
    f = layout.fonts[style]
    draw_text(c, box, text, f.font, f.size, f.min_size, fill, **kw)


def signed(n: int) -> str:
    """+1 / −1 with a true minus sign, as printed."""
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


# ---------------------------------------------------------------- terrain art, by symbol

Art = Callable[[Canvas, Box, str], None]
"""Draws a terrain's picture into a box in its detail colour (the ground is already painted)."""


def _tree(c: Canvas, x: float, y: float, r: float, colour: str) -> None:
    c.rect(x - r * 0.15, y + r * 0.5, r * 0.3, r * 0.9, fill=mix(colour, "#000000", 0.3))
    c.circle(x, y, r, fill=colour, stroke=mix(colour, "#000000", 0.35), width=r * 0.12)


def _open(c: Canvas, b: Box, ink: str) -> None:
    """Grass tufts on open ground."""
    for fx, fy in ((0.2, 0.35), (0.55, 0.2), (0.8, 0.55), (0.35, 0.75), (0.65, 0.85)):
        x, y, s = b.x + fx * b.w, b.y + fy * b.h, b.h * 0.13
        for dx in (-s * 0.5, 0.0, s * 0.5):
            c.line(x, y, x + dx, y - s * (0.8 if dx else 1.0), stroke=mix(ink, "#000000", 0.4), width=0.4)


def _hills(c: Canvas, b: Box, ink: str) -> None:
    """Contour lines, each ring a little darker."""
    for k, t in enumerate((1.0, 0.68, 0.38)):
        c.polygon(ellipse(b.cx, b.cy + b.h * 0.08 * (1 - t), b.w / 2 * t, b.h / 2 * t),
                  fill=mix(ink, WHITE, 0.75 - 0.2 * k), stroke=ink, width=0.35)


def _woods(c: Canvas, b: Box, ink: str) -> None:
    """A stand of trees."""
    r = b.h * 0.2
    for fx, fy in ((0.2, 0.3), (0.45, 0.22), (0.72, 0.3), (0.32, 0.62), (0.6, 0.6), (0.85, 0.65), (0.1, 0.68)):
        _tree(c, b.x + fx * b.w, b.y + fy * b.h, r, ink)


def _wheat(c: Canvas, b: Box, ink: str) -> None:
    """Rows of wheat: furrows with ears along them."""
    rows = 5
    for k in range(rows):
        y = b.y + b.h * (k + 0.5) / rows
        c.line(b.x, y, b.right, y, stroke=ink, width=0.3)
        for j in range(9):
            x = b.x + b.w * (j + 0.5) / 9
            c.line(x, y, x + b.h * 0.06, y - b.h * 0.12, stroke=ink, width=0.35)


def _orchards(c: Canvas, b: Box, ink: str) -> None:
    """Fruit trees planted in a regular grid."""
    cols, rows = 4, 2
    r = min(b.w / cols, b.h / rows) * 0.28
    for j in range(rows):
        for i in range(cols):
            _tree(c, b.x + b.w * (i + 0.5) / cols, b.y + b.h * (j + 0.4) / rows, r, ink)


def _rough(c: Canvas, b: Box, ink: str) -> None:
    """Scattered stones."""
    shape = ((-1.0, 0.1), (-0.4, -0.8), (0.5, -0.7), (1.0, 0.0), (0.6, 0.7), (-0.5, 0.8))
    for fx, fy, s in ((0.15, 0.3, 1.0), (0.42, 0.2, 0.7), (0.7, 0.35, 1.1), (0.3, 0.7, 0.8),
                      (0.58, 0.72, 0.6), (0.87, 0.7, 0.9)):
        r = b.h * 0.13 * s
        x, y = b.x + fx * b.w, b.y + fy * b.h
        c.polygon([(x + px * r, y + py * r * 0.7) for px, py in shape],
                  fill=mix(ink, WHITE, 0.35), stroke=ink, width=0.3)


def _mud(c: Canvas, b: Box, ink: str) -> None:
    """Puddles."""
    for fx, fy, rx, ry in ((0.25, 0.35, 0.2, 0.14), (0.65, 0.3, 0.16, 0.1), (0.5, 0.72, 0.26, 0.15)):
        c.polygon(ellipse(b.x + fx * b.w, b.y + fy * b.h, rx * b.w, ry * b.h),
                  fill=ink, stroke=mix(ink, "#000000", 0.3), width=0.3)


def _farm(c: Canvas, b: Box, ink: str) -> None:
    """A farmhouse and a barn behind a fence."""
    wall = mix(ink, WHITE, 0.8)
    for fx, fw, fh in ((0.12, 0.36, 0.42), (0.55, 0.34, 0.52)):
        x, w, h = b.x + fx * b.w, fw * b.w, fh * b.h
        base = b.y + b.h * 0.8
        c.rect(x, base - h, w, h, fill=wall, stroke=ink, width=0.3)
        c.polygon([(x - w * 0.08, base - h), (x + w / 2, base - h - b.h * 0.25), (x + w * 1.08, base - h)],
                  fill=ink)
        c.rect(x + w * 0.4, base - h * 0.45, w * 0.2, h * 0.45, fill=ink)
    y = b.y + b.h * 0.92
    c.line(b.x, y, b.right, y, stroke=ink, width=0.3)
    for k in range(9):
        x = b.x + b.w * k / 8
        c.line(x, y - b.h * 0.08, x, y + b.h * 0.04, stroke=ink, width=0.3)


def _pond(c: Canvas, b: Box, ink: str) -> None:
    """Open water with ripples."""
    c.polygon(ellipse(b.cx, b.cy, b.w * 0.48, b.h * 0.46), fill=ink, stroke=mix(ink, "#000000", 0.3), width=0.35)
    light = mix(ink, WHITE, 0.55)
    for fx, fy in ((0.35, 0.4), (0.6, 0.55), (0.45, 0.68)):
        x, y, s = b.x + fx * b.w, b.y + fy * b.h, b.w * 0.08
        c.line(x - s, y, x, y - s * 0.3, stroke=light, width=0.35)
        c.line(x, y - s * 0.3, x + s, y, stroke=light, width=0.35)


ART: dict[str, Art] = {"open": _open, "hills": _hills, "woods": _woods, "wheat": _wheat, "orchards": _orchards,
                       "rough": _rough, "mud": _mud, "farm": _farm, "pond": _pond}


def draw_terrain_art(c: Canvas, symbol: str, box: Box, colours: dict[str, str]) -> None:
    """The picture of a terrain `symbol` in its detail colour (KeyError naming the known symbols)."""
    if symbol not in ART:
        raise KeyError(f"no terrain art for symbol '{symbol}' (known: {', '.join(ART)})")
    ART[symbol](c, box, colours.get(f"{symbol}_detail", colours["ink"]))


# ---------------------------------------------------------------- effect icons, from the effect columns

@dataclass(frozen=True)
class Effect:
    """One icon on a tile: `kind` picks the pictogram (or `icon`, a unit's picture), `label` is
    printed under it."""

    kind: str
    label: str
    meaning: str
    icon: str | None = None


def unit_icons(game: GameData) -> dict[str, str]:
    """Unit kind -> the picture its counters show (units.csv `icon`, the first of the kind): tiles and
    sheets draw a unit as its counter does."""
    out: dict[str, str] = {}
    for unit in game.table("units"):
        if unit.icon:
            out.setdefault(unit.kind, unit.icon)
    return out


def effects(t: Any, pictures: dict[str, str] | None = None) -> list[Effect]:
    """A terrain row's effects as icons, in a fixed order; open ground has none. `pictures` (unit
    kind -> icon, `unit_icons`) draws "Infantry only" with the infantry's picture."""
    out: list[Effect] = []
    if t.impassable:
        out.append(Effect("impassable", "", "Impassable"))
    if t.move_cost > 1:
        out.append(Effect("move", f"\u00d7{t.move_cost}", f"Costs {t.move_cost} movement points to enter"))
    if t.takes_all_movement:
        out.append(Effect("stop", "", "Entering or leaving ends the move"))
    if t.infantry_only:
        out.append(Effect("infantry", "only", "Infantry only", (pictures or {}).get("infantry")))
    if t.blocks_los:
        out.append(Effect("sight", "", "Blocks line of sight"))
    if t.no_combat:
        out.append(Effect("no_combat", "", "No combat into or out of it"))
    if t.melee_defence_bonus:
        out.append(Effect("defence", signed(t.melee_defence_bonus),
                          f"Defender {signed(t.melee_defence_bonus)} in close combat"))
    if t.fire_from_modifier and t.fire_from_modifier == t.fire_into_modifier:
        out.append(Effect("fire", signed(t.fire_from_modifier),
                          f"{signed(t.fire_from_modifier)} to hit, firing from or into it"))
    else:
        if t.fire_from_modifier:
            out.append(Effect("fire_from", signed(t.fire_from_modifier),
                              f"{signed(t.fire_from_modifier)} to hit when firing from it"))
        if t.fire_into_modifier:
            out.append(Effect("fire_into", signed(t.fire_into_modifier),
                              f"{signed(t.fire_into_modifier)} to hit when firing into it"))
    if t.fire_line_modifier:
        out.append(Effect("fire", signed(t.fire_line_modifier),
                          f"{signed(t.fire_line_modifier)} to hit, once a shot, firing from, into or through it"))
    return out


def _no(c: Canvas, b: Box, ink: str) -> None:
    r = min(b.w, b.h) / 2
    c.circle(b.cx, b.cy, r * 0.9, stroke=ink, width=r * 0.18)
    d = r * 0.9 * math.sqrt(0.5)
    c.line(b.cx - d, b.cy - d, b.cx + d, b.cy + d, stroke=ink, width=r * 0.18)


def _crosshair(c: Canvas, b: Box, ink: str) -> None:
    r = min(b.w, b.h) / 2 * 0.8
    c.circle(b.cx, b.cy, r * 0.7, stroke=ink, width=r * 0.16)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        c.line(b.cx + dx * r * 0.3, b.cy + dy * r * 0.3, b.cx + dx * r, b.cy + dy * r, stroke=ink, width=r * 0.16)


def _side_arrow(c: Canvas, b: Box, ink: str, outward: bool) -> None:
    """An arrow in a narrow box beside a crosshair: pointing away (firing from) or towards it (into)."""
    y, head = b.cy, b.w * 0.55
    tip, tail = (b.right, b.x) if outward else (b.x, b.right)
    d = head if outward else -head
    c.line(tail, y, tip - d * 0.6, y, stroke=ink, width=b.w * 0.22)
    c.polygon([(tip, y), (tip - d, y - head * 0.8), (tip - d, y + head * 0.8)], fill=ink)


def _pictogram(c: Canvas, kind: str, b: Box, ink: str, paper: str) -> None:
    s = min(b.w, b.h)
    x, y = b.cx - s / 2, b.cy - s / 2
    if kind == "impassable":
        _no(c, b, ink)
    elif kind == "move":
        for dx in (0.0, 0.3):
            c.polygon([(x + s * (0.15 + dx), y + s * 0.15), (x + s * (0.5 + dx), y + s * 0.5),
                       (x + s * (0.15 + dx), y + s * 0.85), (x + s * (0.3 + dx), y + s * 0.5)], fill=ink)
    elif kind == "stop":
        c.polygon([(x + s * 0.05, y + s * 0.35), (x + s * 0.45, y + s * 0.35), (x + s * 0.45, y + s * 0.15),
                   (x + s * 0.75, y + s * 0.5), (x + s * 0.45, y + s * 0.85), (x + s * 0.45, y + s * 0.65),
                   (x + s * 0.05, y + s * 0.65)], fill=ink)
        c.rect(x + s * 0.8, y + s * 0.1, s * 0.13, s * 0.8, fill=ink)
    elif kind == "infantry":
        draw_symbol(c, "infantry", b.inset(s * 0.05), ink, paper)
    elif kind == "sight":
        c.polygon(ellipse(b.cx, b.cy, s * 0.45, s * 0.25, 20), fill=paper, stroke=ink, width=s * 0.08)
        c.circle(b.cx, b.cy, s * 0.14, fill=ink)
        c.line(x + s * 0.1, y + s * 0.9, x + s * 0.9, y + s * 0.1, stroke=ink, width=s * 0.1)
    elif kind == "defence":
        c.polygon([(x + s * 0.15, y + s * 0.1), (x + s * 0.85, y + s * 0.1), (x + s * 0.85, y + s * 0.5),
                   (b.cx, y + s * 0.95), (x + s * 0.15, y + s * 0.5)], fill=ink)
    elif kind == "no_combat":
        c.line(x + s * 0.25, y + s * 0.2, x + s * 0.75, y + s * 0.8, stroke=ink, width=s * 0.09)
        c.line(x + s * 0.75, y + s * 0.2, x + s * 0.25, y + s * 0.8, stroke=ink, width=s * 0.09)
        _no(c, b, ink)
    elif kind == "fire":
        _crosshair(c, b, ink)
    elif kind in ("fire_from", "fire_into"):
        _crosshair(c, Box(b.x - b.w * 0.12, b.y, b.w * 0.8, b.h), ink)
        _side_arrow(c, Box(b.x + b.w * 0.66, b.y, b.w * 0.34, b.h), ink, kind == "fire_from")
    else:
        raise KeyError(f"no pictogram for effect '{kind}'")


def draw_effect_icon(c: Canvas, effect: Effect, box: Box, layout: Layout, low_ink: bool = False) -> None:
    """A rounded badge: the pictogram, with its label (×2, +1, −1, only) underneath when it has one;
    the label's strip is one line of the layout's `icon` font, so it prints at its size (≥ 6 pt).
    `low_ink`: an outlined badge on white, the pictogram and label in the badge's colour."""
    col = layout.colours
    if low_ink:
        col = {**col, "icon": WHITE, "icon_ink": col["icon"]}
        c.rect(box.x, box.y, box.w, box.h, fill=WHITE, stroke=col["icon_ink"], width=0.3,
               radius=min(box.w, box.h) * 0.18)
    else:
        c.rect(box.x, box.y, box.w, box.h, fill=col["icon"], radius=min(box.w, box.h) * 0.18)
    pad = min(box.w, box.h) * 0.1
    if effect.label:
        spec = layout.fonts["icon"]
        strip = spec.size * fonts.PT * LEADING
        label = Box(box.x + pad * 0.3, box.bottom - strip - pad * 0.3, box.w - pad * 0.6, strip)
        pic = Box(box.x + pad, box.y + pad * 0.6, box.w - 2 * pad, label.y - box.y - pad * 0.6)
        _font(c, layout, "icon", label, effect.label, col["icon_ink"])
    else:
        pic = box.inset(pad)
    if effect.icon:
        draw_icon(c, effect.icon, pic, col["icon_ink"])
    else:
        _pictogram(c, effect.kind, pic, col["icon_ink"], col["icon"])


# ---------------------------------------------------------------- terrain tiles

def _hex_centre(layout: Layout) -> Point:
    return layout.width / 2, layout.height / 2


def draw_tile_face(c: Canvas, terrain: Any, layout: Layout, cx: float, cy: float, *,
                   icons: bool = True, name: bool = True, low_ink: bool = False,
                   pictures: dict[str, str] | None = None) -> None:
    """A terrain hex centred on (cx, cy) at the layout's size: ground, art, name and effect icons.

    The board draws its starting rows with the same call, so a printed tile and a board hex match.
    `low_ink`: white ground inside a band of the terrain's colour along the edge, outlined badges."""
    col = layout.colours
    w, h = layout.width, layout.height
    ground = col.get(terrain.symbol, col["panel"])
    if low_ink:
        c.polygon(hexagon(cx, cy, w * 0.96, h * 0.96), stroke=ground, width=0.6)
    else:
        c.polygon(hexagon(cx, cy, w, h), fill=ground)
    left, top = cx - w / 2, cy - h / 2
    art = Box(left + w * 0.2, top + h * 0.06, w * 0.6, h * 0.38)
    draw_terrain_art(c, terrain.symbol, art, col)
    if name:
        band = Box(left + w * 0.17, top + h * 0.46, w * 0.66, h * 0.14)
        c.rect(band.x, band.y, band.w, band.h, fill=None if low_ink else col["label"],
               stroke=ground if low_ink else None, width=0.3, radius=band.h * 0.3)
        _font(c, layout, "title", band.inset(band.h * 0.08), terrain.name, col["ink"])
    marks = effects(terrain, pictures) if icons else []
    if marks:
        # Badges as tall as the row, as wide as the hex allows at the row's foot (labels print at 6 pt).
        y0, y1 = top + h * 0.63, top + h * 0.89
        room = 2 * hex_half_width(w, h, y1 - cy) - w * 0.06
        gap = w * 0.015
        size = min((y1 - y0) * 0.75, (room - gap * (len(marks) - 1)) / len(marks))
        x = cx - (len(marks) * size + (len(marks) - 1) * gap) / 2
        for effect in marks:
            draw_effect_icon(c, effect, Box(x, y0, size, y1 - y0), layout, low_ink)
            x += size + gap


def _cut_line(c: Canvas, layout: Layout) -> None:
    cx, cy = _hex_centre(layout)
    c.polygon(hexagon(cx, cy, layout.width, layout.height), stroke=layout.colours["cut"], width=layout.border)


def _tile_front(c: Canvas, bleed: float, *, terrain: Any, layout: Layout, low_ink: bool = False,
                pictures: dict[str, str] | None = None) -> None:
    if not low_ink:
        c.rect(-bleed, -bleed, layout.width + 2 * bleed, layout.height + 2 * bleed,
               fill=layout.colours.get(terrain.symbol, layout.colours["panel"]))
    draw_tile_face(c, terrain, layout, *_hex_centre(layout), low_ink=low_ink, pictures=pictures)
    _cut_line(c, layout)


def _tile_back(c: Canvas, bleed: float, *, layout: Layout, title: str, low_ink: bool = False) -> None:
    """The face-down side: the undiscovered map, the same for every tile (`low_ink`: on white, in
    the ground's colour)."""
    col = layout.colours
    w, h = layout.width, layout.height
    ink = col["back"] if low_ink else col["back_ink"]
    if not low_ink:
        c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=col["back"])
    cx, cy = _hex_centre(layout)
    for k in (0.8, 0.6):
        c.polygon(hexagon(cx, cy, w * k, h * k), stroke=ink, width=0.3)
    _font(c, layout, "back_title", Box(cx - w * 0.25, cy - h * 0.1, w * 0.5, h * 0.2), title, ink)
    _cut_line(c, layout)


def tile_piece(game: GameData, terrain_id: str, copy: int = 1, low_ink: bool = False) -> Piece:
    """One terrain tile; fronts of one terrain share a design, every back is the same."""
    layout = part_layout(game, "tile_layout")
    terrain = game.by_id("terrain")[terrain_id]
    return Piece(name=terrain_id if terrain.copies == 1 else f"{terrain_id}-{copy}", width=layout.width,
                 height=layout.height, bleed=layout.bleed,
                 front=partial(_tile_front, terrain=terrain, layout=layout, low_ink=low_ink,
                               pictures=unit_icons(game)),
                 back=partial(_tile_back, layout=layout, title=game.name, low_ink=low_ink),
                 back_key="tile-back", design=terrain_id, title=terrain.name, shape="hexagon")


def tiles(game: GameData, low_ink: bool = False) -> list[Piece]:
    """Every physical terrain tile: one piece per copy in terrain.csv (`low_ink`: the playtest print)."""
    return [tile_piece(game, card.design.id, card.copy, low_ink) for card in game.deck("terrain")]


# ---------------------------------------------------------------- unit counters and markers

def _army_square(c: Canvas, bleed: float, layout: Layout, colour: str, low_ink: bool = False) -> str:
    """A counter's ground in the army colour with a thin light frame inside the trim; returns the ink
    for what is drawn on it (the paper colour). `low_ink`: white ground in a band of the army colour
    along the trim, and the army colour is the ink (the armies still differ by letter and lightness)."""
    w, h = layout.width, layout.height
    if low_ink:
        band = layout.border
        c.rect(band / 2, band / 2, w - band, h - band, stroke=colour, width=band, radius=layout.radius)
        return colour
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=colour)
    inset = layout.border
    c.rect(inset, inset, w - 2 * inset, h - 2 * inset, stroke=layout.colours["paper"], width=0.25,
           radius=layout.radius)
    return layout.colours["paper"]


def _counter_front(c: Canvas, bleed: float, *, unit: Any, army: Any, layout: Layout, low_ink: bool = False) -> None:
    """Name, picture, the army's letter beside it, and strength, range and movement with their labels."""
    col, w, h, safe = layout.colours, layout.width, layout.height, layout.safe
    ink = _army_square(c, bleed, layout, army.colour_hex, low_ink)
    # Facing: a notch on the top edge points the way the unit faces.
    notch = w * 0.11
    top = layout.border + 0.25
    c.polygon([(w / 2, top), (w / 2 + notch, top + notch * 0.9), (w / 2 - notch, top + notch * 0.9)], fill=ink)
    _font(c, layout, "title", Box(safe + 1.0, h * 0.15, w - 2 * safe - 2.0, h * 0.14), unit.name, ink)
    picture = Box(w * 0.3, h * 0.3, w * 0.4, h * 0.3)
    c.rect(picture.x, picture.y, picture.w, picture.h, fill=None if low_ink else col["paper"],
           stroke=ink if low_ink else None, width=0.3, radius=0.6)
    draw_picture(c, unit.icon, unit.symbol, picture.inset(0.5), col["ink"], col["paper"])
    _font(c, layout, "army", Box(safe, h * 0.3, w * 0.3 - safe, h * 0.3), army.letter, ink)
    values = (str(unit.strength), str(unit.range) if unit.range else "\u2013", str(unit.movement))
    labels = ("STR", "RNG", "MOV")
    third = (w - 2 * safe) / 3
    for k, (value, label) in enumerate(zip(values, labels)):
        x = safe + k * third
        _font(c, layout, "corner", Box(x, h * 0.59, third, h * 0.19), value, ink)
        _font(c, layout, "kind", Box(x, h * 0.78, third, h * 0.14), label, ink)


def counter_piece(game: GameData, army_id: str, unit_id: str, copy: int = 1, low_ink: bool = False) -> Piece:
    """One unit counter of an army (single-sided: damage is shown with strength markers)."""
    layout = part_layout(game, "counter_layout")
    army = game.by_id("armies")[army_id]
    unit = game.by_id("units")[unit_id]
    name = f"{army_id}-{unit_id}" + (f"-{copy}" if unit.copies > 1 else "")
    return Piece(name=name, width=layout.width, height=layout.height, bleed=layout.bleed,
                 front=partial(_counter_front, unit=unit, army=army, layout=layout, low_ink=low_ink),
                 design=f"{army_id}-{unit_id}")


def counters(game: GameData, low_ink: bool = False) -> list[Piece]:
    """Every unit counter of both armies (units.csv copies per army; `low_ink`: the playtest print)."""
    return [counter_piece(game, army.id, card.design.id, card.copy, low_ink)
            for army in game.table("armies") for card in game.deck("units")]


def _ranks(c: Canvas, b: Box, cols: int, rows: int, ink: str, hollow: bool = False) -> None:
    """Blocks of men in ranks and files, as on a drill diagram."""
    cell = min(b.w / cols, b.h / rows)
    x0, y0 = b.cx - cell * cols / 2, b.cy - cell * rows / 2
    for j in range(rows):
        for i in range(cols):
            if hollow and 0 < i < cols - 1 and 0 < j < rows - 1:
                continue
            c.rect(x0 + i * cell + cell * 0.12, y0 + j * cell + cell * 0.12, cell * 0.76, cell * 0.76, fill=ink)


FORMATION_ART: dict[str, Callable[[Canvas, Box, str], None]] = {
    "column": lambda c, b, ink: _ranks(c, b, 2, 4, ink),
    "line": lambda c, b, ink: _ranks(c, b, 6, 1, ink),
    "square": lambda c, b, ink: _ranks(c, b, 4, 4, ink, hollow=True),
}
"""Drill pictograms by formation id; a formation without one prints its name and numbers only."""


def _marker_ground(c: Canvas, bleed: float, layout: Layout, army: Any, low_ink: bool = False) -> Box:
    """Marker ground: the army colour with the army's letter on a band across the top, light paper
    below it in a frame of that colour; returns the paper's box. `low_ink`: white in a band of the
    army colour along the trim, the letter in that colour."""
    w, h, b = layout.width, layout.height, layout.border
    band = _marker_band(layout)
    paper = Box(b + 0.6, band.bottom, w - 2 * b - 1.2, h - b - 0.6 - band.bottom)
    if low_ink:
        _army_square(c, bleed, layout, army.colour_hex, low_ink)
        _font(c, layout, "army", band, army.letter, army.colour_hex)
        return paper
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=army.colour_hex)
    _font(c, layout, "army", band, army.letter, layout.colours["paper"])
    c.rect(paper.x, paper.y, paper.w, paper.h, fill=layout.colours["paper"], radius=layout.radius)
    return paper


def _marker_band(layout: Layout) -> Box:
    """The strip across a marker's top that carries the army's letter (one line of the `army` font)."""
    spec = layout.fonts["army"]
    return Box(layout.safe, layout.border, layout.width - 2 * layout.safe, spec.size * fonts.PT * LEADING)


def formation_lines(formation: Any) -> str:
    """The marker's numbers, two short lines: movement and close-combat bonus, or for a formation
    that defends differently against cavalry and infantry (Square), those two."""
    if formation.defence_vs_cavalry is not None or formation.defence_vs_infantry is not None:
        return (f"vs cav {signed(formation.defence_vs_cavalry or 0)}\n"
                f"vs inf {signed(formation.defence_vs_infantry or 0)}")
    return f"Move {formation.movement}\nCC {signed(formation.melee_attack_bonus)}"


def _formation_front(c: Canvas, bleed: float, *, formation: Any, army: Any, layout: Layout,
                     low_ink: bool = False) -> None:
    col = layout.colours
    paper = _marker_ground(c, bleed, layout, army, low_ink)
    inner = paper.inset(0.4)
    lines = layout.fonts["kind"].size * fonts.PT * LEADING * 2
    name = layout.fonts["title"].size * fonts.PT * LEADING
    _font(c, layout, "kind", Box(inner.x, inner.y, inner.w, lines), formation_lines(formation), col["ink"])
    art = FORMATION_ART.get(formation.id)
    if art is not None:
        art(c, Box(inner.x + inner.w * 0.15, inner.y + lines + 0.3, inner.w * 0.7, inner.h - lines - name - 0.6),
            army.colour_hex)
    _font(c, layout, "title", Box(inner.x, inner.bottom - name, inner.w, name), formation.name, col["ink"])


def _strength_front(c: Canvas, bleed: float, *, value: int, army: Any, layout: Layout,
                    low_ink: bool = False) -> None:
    col, w, h = layout.colours, layout.width, layout.height
    name = layout.fonts["title"].size * fonts.PT * LEADING
    if value == 0:
        ink = _army_square(c, bleed, layout, army.colour_hex, low_ink)
        band = _marker_band(layout)
        _font(c, layout, "army", band, army.letter, ink)
        c.line(w * 0.3, band.bottom + h * 0.06, w * 0.7, h * 0.66, stroke=ink, width=w * 0.06)
        c.line(w * 0.7, band.bottom + h * 0.06, w * 0.3, h * 0.66, stroke=ink, width=w * 0.06)
        _font(c, layout, "title", Box(layout.safe, h - layout.safe - name, w - 2 * layout.safe, name), "Broken", ink)
        return
    paper = _marker_ground(c, bleed, layout, army, low_ink)
    inner = paper.inset(0.4)
    _font(c, layout, "corner", Box(inner.x, inner.y, inner.w, inner.h - name), str(value), col["ink"])
    _font(c, layout, "title", Box(inner.x, inner.bottom - name, inner.w, name), "Strength", col["ink"])


def markers(game: GameData, low_ink: bool = False) -> list[Piece]:
    """Per army: a formation marker of each formation for every unit that uses formations, and
    strength markers: for each value below full, one per unit that can stand at it unbroken, and a
    Broken marker for every unit (a gun is broken at 1, R23)."""
    layout = part_layout(game, "marker_layout")
    units = game.table("units")
    drilled = sum(u.copies for u in units if u.uses_formations)
    pieces: list[Piece] = []

    def add(name: str, design: str, front: Callable[..., None]) -> None:
        pieces.append(Piece(name=name, width=layout.width, height=layout.height, bleed=layout.bleed,
                            front=front, design=design))

    for army in game.table("armies"):
        for formation in game.table("formations"):
            for k in range(1, drilled + 1):
                add(f"{army.id}-{formation.id}-{k}", f"{army.id}-{formation.id}",
                    partial(_formation_front, formation=formation, army=army, layout=layout, low_ink=low_ink))
        top = max(u.strength for u in units)
        for value in range(top - 1, -1, -1):
            # A strength marker for each unit that can stand at that value unbroken; every unit can break.
            count = sum(u.copies for u in units if u.strength > value and (value == 0 or value > u.broken_at))
            label = "broken" if value == 0 else f"strength-{value}"
            for k in range(1, count + 1):
                add(f"{army.id}-{label}-{k}", f"{army.id}-{label}",
                    partial(_strength_front, value=value, army=army, layout=layout, low_ink=low_ink))
    return pieces


# ---------------------------------------------------------------- the map board

@dataclass(frozen=True)
class BoardGeometry:
    """Where the hexes of the map sit on the (unsplit) board, in mm from its top-left corner."""

    columns: int
    rows: int
    hex_w: float
    hex_h: float
    margin: float

    @property
    def width(self) -> float:
        return 2 * self.margin + self.hex_w * (1 + 0.75 * (self.columns - 1))

    @property
    def height(self) -> float:
        return 2 * self.margin + self.hex_h * (self.rows + (0.5 if self.columns > 1 else 0))

    def centre(self, col: int, row: int) -> Point:
        """Odd-q offset: odd columns sit half a hex lower (the engine's `col,row` ids)."""
        x = self.margin + self.hex_w / 2 + col * 0.75 * self.hex_w
        y = self.margin + self.hex_h / 2 + row * self.hex_h + (self.hex_h / 2 if col % 2 else 0)
        return x, y


def board_geometry(game: GameData) -> BoardGeometry:
    layout = part_layout(game, "tile_layout")
    return BoardGeometry(game.rules.map_columns, game.rules.map_rows, layout.width, layout.height,
                         float(game.layout["board"]["margin"]))


def start_rows(game: GameData) -> dict[int, Any]:
    """Row index -> the army that deploys on it (its home edge)."""
    last = game.rules.map_rows - 1
    return {0 if army.home_edge == "top" else last: army for army in game.table("armies")}


def draw_board(c: Canvas, game: GameData, low_ink: bool = False) -> None:
    """The whole map at full size: hex outlines with their ids, the starting rows in army colours
    (`low_ink`: on white, the starting rows' terrain as the low-ink tiles draw it)."""
    layout = part_layout(game, "tile_layout")
    col = layout.colours
    geo = board_geometry(game)
    tint = float(game.layout["board"]["start_tint"])
    start = game.by_id("terrain")[game.rules.start_terrain]
    homes = start_rows(game)
    if not low_ink:
        c.rect(0, 0, geo.width, geo.height, fill=col["board"])
    for army_row, army in homes.items():
        label_y = geo.margin * 0.1 if army_row == 0 else geo.height - geo.margin * 0.9
        band = Box(geo.margin, label_y, geo.width - 2 * geo.margin, geo.margin * 0.8)
        for align in ("start", "end"):  # at both ends, so each half of a split board shows it
            _font(c, layout, "label", band, f"{army.name}: starting row", army.colour_hex, align=align)
    for column in range(geo.columns):
        for row in range(geo.rows):
            cx, cy = geo.centre(column, row)
            army = homes.get(row)
            if army is not None:
                draw_tile_face(c, start, layout, cx, cy, icons=False, name=False, low_ink=low_ink)
                c.polygon(hexagon(cx, cy, geo.hex_w * 0.9, geo.hex_h * 0.9),
                          stroke=mix(army.colour_hex, WHITE, tint), width=geo.hex_h * 0.05)
            c.polygon(hexagon(cx, cy, geo.hex_w, geo.hex_h), stroke=col["grid"], width=0.35)
            _font(c, layout, "coord", Box(cx - geo.hex_w * 0.2, cy + geo.hex_h * 0.3, geo.hex_w * 0.4,
                                          geo.hex_h * 0.15), f"{column},{row}", col["coord"])


@dataclass(frozen=True)
class BoardPage:
    """One page's window onto the board: the part it shows plus the glue strips under its neighbours."""

    col: int
    row: int
    window: Box
    glue_right: float
    glue_bottom: float


def board_pages(game: GameData, paper: tuple[float, float]) -> tuple[int, int, list[BoardPage]]:
    """Split the board into windows that fit `paper` (columns, rows, pages in reading order)."""
    geo = board_geometry(game)
    settings = game.layout["board"]
    margin, glue = float(settings["page_margin"]), float(settings["glue"])
    room_w, room_h = paper[0] - 2 * margin - glue, paper[1] - 2 * margin - glue - NOTE_BAND
    cols = 1 if geo.width <= paper[0] - 2 * margin else math.ceil(geo.width / room_w)
    rows = 1 if geo.height <= paper[1] - 2 * margin - NOTE_BAND else math.ceil(geo.height / room_h)
    w, h = geo.width / cols, geo.height / rows
    pages = [BoardPage(i, j, Box(i * w, j * h, w, h), glue if i < cols - 1 else 0.0, glue if j < rows - 1 else 0.0)
             for j in range(rows) for i in range(cols)]
    return cols, rows, pages


def _hatch(c: Canvas, box: Box, colour: str, pitch: float = 2.5) -> None:
    """Diagonal hatching over a box, leaving what is under it readable (glue strips)."""
    with c.group(clip=box):
        k = 0.0
        while k < box.w + box.h:
            c.line(box.x + k, box.y, box.x + k - box.h, box.bottom, stroke=colour, width=0.5)
            k += pitch


def _page_name(col: int, row: int) -> str:
    return f"{chr(ord('A') + row)}{col + 1}"


def _board_page(c: Canvas, pw: float, ph: float, *, game: GameData, page: BoardPage, cols: int, rows: int,
                low_ink: bool = False) -> None:
    layout = part_layout(game, "tile_layout")
    sheet = resolve("sheet", game_layout(game))
    col = layout.colours
    win = page.window
    x0 = (pw - win.w - page.glue_right) / 2
    y0 = float(game.layout["board"]["page_margin"]) + NOTE_BAND
    with c.group(x0 - win.x, y0 - win.y, clip=Box(win.x, win.y, win.w + page.glue_right, win.h + page.glue_bottom)):
        draw_board(c, game, low_ink)
    for strip in (Box(x0 + win.w, y0, page.glue_right, win.h + page.glue_bottom),
                  Box(x0, y0 + win.h, win.w, page.glue_bottom)):
        if strip.w > 0 and strip.h > 0:
            _hatch(c, strip, col["glue"])
    c.rect(x0, y0, win.w, win.h, stroke=col["cut"], width=0.3)
    # The tiles fit the hexes only at 100 %: the 50 mm bar under the window says whether the printer shrank it.
    bar_y = y0 + win.h + page.glue_bottom + SCALE_GAP
    if bar_y + SCALE_DEPTH <= ph - float(game.layout["board"]["page_margin"]):
        with c.group(x0, bar_y):
            draw_scale(c, col["ink"])
    f = sheet.fonts["body"]
    if cols * rows == 1:
        note = f"{game.name} map, {game.rules.map_columns} \u00d7 {game.rules.map_rows} hexes."
    else:
        joins = [f"{_page_name(page.col - 1, page.row)} on the left" if page.col else "",
                 f"{_page_name(page.col, page.row - 1)} above" if page.row else ""]
        join = " and ".join(j for j in joins if j)
        note = (f"{game.name} map, {game.rules.map_columns} \u00d7 {game.rules.map_rows} hexes, page "
                f"{_page_name(page.col, page.row)} of {cols} \u00d7 {rows}. The board spans {cols * rows} pages: "
                f"cut along the frame" + (f", then lay this page over the shaded strip of {join}" if join else "")
                + "; shaded strips go under the next page.")
    draw_text(c, Box(x0, y0 - NOTE_BAND + 1.0, win.w + page.glue_right, NOTE_BAND - 2.0), note, f.font, f.size,
              f.min_size, col["ink"], align="start")


def _board_side(c: Canvas, bleed: float, *, game: GameData, low_ink: bool = False) -> None:
    """The whole board as one piece's side (it has no bleed: its paper margin is part of it)."""
    draw_board(c, game, low_ink)


def board_pageset(game: GameData, low_ink: bool = False) -> PageSet:
    """The board split for the smallest paper of any profile, so every paper prints the same pages."""
    papers = load_profiles().papers.values()
    smallest = (min(p[0] for p in papers), min(p[1] for p in papers))
    cols, rows, pages = board_pages(game, smallest)
    geo = board_geometry(game)
    whole = Piece(name="board", width=geo.width, height=geo.height, bleed=0.0,
                  front=partial(_board_side, game=game, low_ink=low_ink), title=f"{game.name} map")
    return PageSet("board", [partial(_board_page, game=game, page=p, cols=cols, rows=rows, low_ink=low_ink)
                             for p in pages], whole)


# ---------------------------------------------------------------- build and companion entry points

def printables(game: GameData, ctx: BuildContext) -> list[PieceSet | PageSet]:
    """Hexbattle's tiles, counters, markers and board (nothing for other games)."""
    if game.id != GAME:
        return []
    return [PieceSet("tiles", tiles(game, ctx.low_ink)), PieceSet("counters", counters(game, ctx.low_ink)),
            PieceSet("markers", markers(game, ctx.low_ink)), board_pageset(game, ctx.low_ink)]


CLAIMS = {GAME: frozenset({"terrain", "units"})}
"""The card tables these parts replace in the generic decks."""


def check(game: GameData) -> list[Problem]:
    """Terrain art and unit symbols these parts cannot draw, at their rows."""
    if game.id != GAME:
        return []
    problems = [game.problem("terrain", t.id, f"no terrain art for this symbol (known: {', '.join(ART)})",
                             "symbol", t.symbol) for t in game.table("terrain") if t.symbol not in ART]
    problems += [game.problem("units", u.id, f"unknown symbol (known: {', '.join(SYMBOLS)})", "symbol", u.symbol)
                 for u in game.table("units") if u.symbol not in SYMBOLS]
    return problems


def tile_svg(game: GameData, terrain_id: str) -> str:
    """A terrain hex as SVG at tile size, its corners left transparent so hexes can tile the
    companion's board view (the printed piece fills its corners with bleed instead)."""
    layout = part_layout(game, "tile_layout")
    doc = SvgDocument(Path("."), terrain_id)
    with doc.page(layout.width, layout.height) as c:
        draw_tile_face(c, game.by_id("terrain")[terrain_id], layout, *_hex_centre(layout), pictures=unit_icons(game))
        _cut_line(c, layout)
    return doc.strings()[0]


def counter_svg(game: GameData, army_id: str, unit_id: str) -> str:
    """A unit counter as SVG at its trim size, facing up (rotate it by 60° per facing step)."""
    return piece_svg(counter_piece(game, army_id, unit_id))


def preview(game: GameData, table: str, design_id: str) -> str | None:
    """A terrain tile, or a unit's counter in the first army's colours, for the look-up page."""
    if table == "terrain":
        return tile_svg(game, design_id)
    if table == "units":
        return counter_svg(game, game.table("armies")[0].id, design_id)
    return None
