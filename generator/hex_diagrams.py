"""Hexbattle's diagrams: a unit's sides and fire cone, and line of sight through units and split hexes.

Drawn from the rules data (penalties, the split-hex die) and the engine's own hex maths (the cone is
`engine.hexgrid.in_arc`), in a page layout's colours and fonts, for the reference sheet and the booklet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from cards.layout import Layout
from cards.load import GameData
from engine.hexbattle_combat import CombatResult, FireResult, close_combat, ranged_fire
from engine.hexgrid import DIRECTIONS, in_arc
from generator.canvas import Box, Canvas, Point
from generator.drawing import arrow, hexagon, mix
from generator.hexbattle_parts import signed
from generator.symbols import draw_picture
from generator.text import draw_text


@dataclass(frozen=True)
class Ink:
    """A canvas and the layout whose colours and fonts a diagram is drawn in (a reference sheet's, a booklet's)."""

    c: Canvas
    layout: Layout


def label(s: Ink, box: Box, text: str, style: str = "small", fill: str | None = None) -> None:
    f = s.layout.fonts[style]
    draw_text(s.c, box, text, f.font, f.size, f.min_size, fill or s.layout.colours["ink"], align="middle",
              valign="middle")


def _hex_at(origin: Point, size: float, q: int, r: int) -> Point:
    """Centre of axial hex (q, r) for flat-topped hexes `size` mm flat to flat."""
    w = size / math.sqrt(3) * 2
    return origin[0] + 0.75 * w * q, origin[1] + size * (r + q / 2)


def _hex(s: Ink, centre: Point, size: float, fill: str | None, stroke: str | None = None) -> None:
    w = size / math.sqrt(3) * 2
    s.c.polygon(hexagon(centre[0], centre[1], w, size), fill=fill, stroke=stroke or s.layout.colours["rule"],
                width=0.35)


def _counter(s: Ink, centre: Point, size: float, army: Any, unit: Any, facing: int = 0) -> None:
    """A unit counter seen from above as it is printed (`hexbattle_parts._counter_front`): the army's
    colour with its notch on the side it faces (0 = north, clockwise), the army's letter, and the
    unit's picture in a paper window; so the diagrams speak the counters' one vocabulary."""
    half = size / 2
    paper = s.layout.colours["panel"]
    with s.c.group(centre[0], centre[1], rotate=60.0 * facing):
        s.c.rect(-half, -half, size, size, fill=army.colour_hex, radius=0.6)
        s.c.polygon([(-half * 0.3, -half), (half * 0.3, -half), (0, -half * 0.7)], fill=paper)
    window = Box(centre[0] - half * 0.12, centre[1] - half * 0.45, half * 0.95, half * 1.15)
    s.c.rect(window.x, window.y, window.w, window.h, fill=paper, radius=0.4)
    draw_picture(s.c, unit.icon, unit.symbol, window.inset(0.3), s.layout.colours["ink"], paper)
    label(s, Box(centre[0] - half, centre[1] - half * 0.45, half * 0.88, half * 1.15), army.letter, "cell_bold",
          paper)


def draw_arcs(c: Canvas, layout: Layout, box: Box, game: GameData) -> None:
    """Left: the six sides of a unit and what an attack from each costs the defender. Right: the cone a
    unit fires into (two hexes out) and the hexes a charge can reach."""
    s = Ink(c, layout)
    r = game.rules
    armies = list(game.table("armies"))
    foot = game.table("units")[0]
    col = s.layout.colours
    half = box.w / 2 - 3.0
    size = min(box.h / 3.3, half / 2.6)
    origin = (box.x + half / 2, box.y + box.h / 2 - 2.0)
    names = ["Front", f"Front flank \u2212{r.front_flank_penalty}", f"Side flank \u2212{r.side_flank_penalty}",
             f"Rear \u2212{r.rear_penalty}", f"Side flank \u2212{r.side_flank_penalty}",
             f"Front flank \u2212{r.front_flank_penalty}"]
    steps = [0, 1, 2, 3, 2, 1]
    for facing, (dq, dr) in enumerate(DIRECTIONS):
        centre = _hex_at(origin, size, dq, dr)
        _hex(s, centre, size, mix(col["panel"], col["accent"], 0.12 * steps[facing]))
        label(s, Box(centre[0] - size * 0.55, centre[1] - size * 0.4, size * 1.1, size * 0.8), names[facing])
    _hex(s, origin, size, col["panel"])
    _counter(s, origin, size * 0.5, armies[0], foot)
    label(s, Box(box.x, box.bottom - 4.5, half, 4.5), "Close combat: the defender's dice lose",
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
    _counter(s, origin2, small * 0.55, armies[0], foot)
    label(s, Box(box.x + box.w / 2 + 3.0, box.bottom - 4.5, half, 4.5),
           "Fire: the shaded cone, \u00b160\u00b0 ahead", "small")


def draw_sight(c: Canvas, layout: Layout, box: Box, game: GameData) -> None:
    """Left: a unit in between blocks the line. Right: a line along the edge between two hexes, each of
    which would block, is checked hex by hex with a die."""
    s = Ink(c, layout)
    armies = list(game.table("armies"))
    foot = game.table("units")[0]
    r = game.rules
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
            woods = _hex_at(origin, size, 1, -1)
            _hex(s, woods, size, mix(col["panel"], "#2f5a22", 0.45))
            label(s, Box(woods[0] - size / 2, woods[1] - size * 0.45, size, size * 0.4), "Woods")
            between = _hex_at(origin, size, 1, 0)
        else:
            between = _hex_at(origin, size, 2, -1)
        # the line first, so the counters lie on it as on the table
        s.c.line(a[0], a[1], b[0], b[1], stroke=block_ink, width=0.5, dash=(1.5, 0.8))
        arrow(s.c, a, (a[0] + (b[0] - a[0]) * 0.3, a[1] + (b[1] - a[1]) * 0.3), block_ink, 0.5, 2.0)
        for centre, army in ((between, armies[1]), (a, armies[0]), (b, armies[1])):
            _counter(s, centre, size * 0.56, army, foot)
        label(s, Box(left + 1.0, box.bottom - 9.0, box.w / 2 - 2.0, 9.0), title, "small")


EXAMPLE_ATTACK = (1, 3, 4, 2)   # the worked charge's dice: what an example rolls, not a rule
EXAMPLE_DEFENCE = (6, 6, 2, 3)


def charge_example(game: GameData) -> tuple[str, CombatResult]:
    """The worked charge: Infantry in Column against Infantry in Line from a front flank, its numbers from
    the data and its result from the engine's own close combat."""
    infantry = next(u for u in game.table("units") if u.uses_formations)
    formations = {f.id: f for f in game.table("formations")}
    column, line = formations["column"], formations["line"]
    r = game.rules
    defence = line.melee_defence_bonus - r.front_flank_penalty
    n = infantry.strength
    result = close_combat(EXAMPLE_ATTACK[:n], EXAMPLE_DEFENCE[:n], column.melee_attack_bonus, defence)
    ties = sum(1 for p in result.pairs if not p.loser)
    text = (f"**Example.** {infantry.name} in {column.name} ({signed(column.melee_attack_bonus)}) charges "
            f"{infantry.name} in {line.name} ({signed(line.melee_defence_bonus)}) from a front flank "
            f"({signed(-r.front_flank_penalty)}): each side rolls {n} dice; the attacker adds "
            f"{signed(column.melee_attack_bonus)} to each, the defender {signed(defence)}. Paired high to low, the "
            f"attacker loses {result.attacker_losses} strength and the defender {result.defender_losses}"
            + (f"; {ties} tied pair costs nobody." if ties == 1 else f"; {ties} tied pairs cost nobody." if ties
               else "."))
    return text, result


def _die(s: Ink, x: float, y: float, size: float, value: int, marked: bool) -> None:
    """One die of a worked example, shaded when it is the one that counts (a lost pair, a hit)."""
    col = s.layout.colours
    s.c.rect(x, y, size, size, fill=col["accent"] if marked else col["panel"], stroke=col["ink"], width=0.35,
             radius=1.2)
    label(s, Box(x, y, size, size), str(value), "cell_bold", col["accent_ink"] if marked else None)


DIE = 9.0       # mm: a die in the worked examples
DIE_GAP = 8.0   # mm between two dice, room for what a pair did


def draw_charge(c: Canvas, layout: Layout, box: Box, game: GameData) -> None:
    """The worked charge's dice, bonus added, sorted and paired; the lower die of each pair is shaded (it
    costs its side 1 strength)."""
    s = Ink(c, layout)
    col = layout.colours
    _, result = charge_example(game)
    rows = (("Attacker", [p.attacker for p in result.pairs] + list(result.attacker_unpaired), "attacker"),
            ("Defender", [p.defender for p in result.pairs] + list(result.defender_unpaired), "defender"))
    left = box.x + 22.0
    for k, (name, dice, side) in enumerate(rows):
        y = box.y + 2.0 + k * (DIE + 8.0)
        label(s, Box(box.x, y, 20.0, DIE), name, "cell_bold")
        for i, value in enumerate(dice):
            _die(s, left + i * (DIE + DIE_GAP), y, DIE, value, i < len(result.pairs) and result.pairs[i].loser == side)
    for i, pair in enumerate(result.pairs):
        x = left + i * (DIE + DIE_GAP) + DIE / 2
        c.line(x, box.y + 2.0 + DIE + 0.8, x, box.y + 2.0 + DIE + 8.0 - 0.8, stroke=col["rule"], width=0.5)
        verdict = {"attacker": "attacker \u22121", "defender": "defender \u22121", "": "tie"}[pair.loser]
        label(s, Box(x + 0.8, box.y + 2.0 + DIE + 1.0, DIE_GAP + DIE - 1.0, 6.0), verdict, "small")
    label(s, Box(left, box.y + 2.0 + 2 * DIE + 9.0, box.right - left, 5.0),
          "dice with the bonus added, highest against highest; the shaded die of a pair loses", "small")


EXAMPLE_FIRE = (2, 5, 1, 3)     # the worked volley's dice


def fire_example(game: GameData) -> tuple[str, FireResult]:
    """The worked volley: Infantry in Line fires across Wheat Fields, the hit number from game.toml and
    terrain.csv, the hits counted by the engine's own ranged_fire."""
    infantry = next(u for u in game.table("units") if u.uses_formations)
    line = next(f for f in game.table("formations") if f.id == "line")
    wheat = next(t for t in game.table("terrain") if t.fire_line_modifier)
    r = game.rules
    hit = r.hit_max + wheat.fire_line_modifier
    result = ranged_fire(EXAMPLE_FIRE[:infantry.strength], hit)
    text = (f"**Example.** {infantry.name} in {line.name}, at full strength, fires {infantry.strength} dice at an "
            f"enemy {infantry.range} hexes away, the line of fire crossing {wheat.name} "
            f"({signed(wheat.fire_line_modifier)}): each die of {hit} or less hits. The dice "
            f"{', '.join(map(str, result.dice))} score {result.hits} hits: the target loses {result.losses} strength.")
    return text, result


def draw_fire(c: Canvas, layout: Layout, box: Box, game: GameData) -> None:
    """The worked volley's dice, the hits shaded."""
    s = Ink(c, layout)
    _, result = fire_example(game)
    left = box.x + 22.0
    label(s, Box(box.x, box.y + 1.0, 20.0, DIE), "Fire", "cell_bold")
    for i, value in enumerate(result.dice):
        _die(s, left + i * (DIE + DIE_GAP), box.y + 1.0, DIE, value, value <= result.hit_max)
    label(s, Box(left, box.y + DIE + 2.0, box.right - left, 5.0),
          f"shaded: a hit (the die is {result.hit_max} or less)", "small")
