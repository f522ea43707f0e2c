"""Icons from the game-icons.net set (CC BY 3.0), kept in cards/icons/game-icons.json, drawn as vector paths.

The data names icons (an `icon` column in card tables, `*icon` keys in game.toml [layout]);
scripts/extract_icons.py copies just those out of the npm package `@iconify-json/game-icons`.
Each icon's SVG path is parsed by svgelements and flattened once into closed polygons, which
both canvas backends paint the same way (non-zero fill), so a PDF and an SVG stay identical.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any

from svgelements import Close, Line, Move, Path

from cards.load import CARDS_ROOT, GameData
from cards.problems import Problem
from generator.canvas import Box, Canvas, Point

ICON_FILE = CARDS_ROOT / "icons" / "game-icons.json"
CREDITS_FILE = CARDS_ROOT / "icons" / "CREDITS.md"
CREDIT = ("Icons by Lorc, Delapouite and contributors, game-icons.net, "
          "CC BY 3.0 (creativecommons.org/licenses/by/3.0)")
"""The credit line printed on reference sheets (the licence asks for attribution where the icons appear)."""

STEP = 6.0  # flattening: one polygon point per this many icon units (512 per side) along a curve


@cache
def _library() -> dict[str, Any]:
    return json.loads(ICON_FILE.read_text(encoding="utf-8"))


def known() -> frozenset[str]:
    """The icon names cards/icons/game-icons.json holds."""
    return frozenset(_library()["icons"])


@cache
def rings(name: str) -> tuple[tuple[Point, ...], ...]:
    """The icon as closed polygons in a unit square (0..1 both ways), or KeyError for an unknown name."""
    library = _library()
    if name not in library["icons"]:
        raise KeyError(f"unknown icon '{name}' (not in {ICON_FILE.name}; run scripts/extract_icons.py)")
    size = float(max(library["size"]))
    out: list[tuple[Point, ...]] = []
    for d in re.findall(r'\sd="([^"]+)"', library["icons"][name]):
        ring: list[Point] = []
        for seg in Path(d):
            if isinstance(seg, Move):
                if len(ring) > 2:
                    out.append(tuple(ring))
                ring = [(seg.end.x / size, seg.end.y / size)]
            elif isinstance(seg, (Line, Close)):
                if seg.end is not None:
                    ring.append((seg.end.x / size, seg.end.y / size))
            else:
                n = max(2, min(24, math.ceil(_rough_length(seg) / STEP)))
                ring.extend((p.x / size, p.y / size) for p in (seg.point(k / n) for k in range(1, n + 1)))
        if len(ring) > 2:
            out.append(tuple(ring))
    return tuple(out)


def _rough_length(seg: Any) -> float:
    """A curve's length from four chords: enough to pick how many points it needs, and far
    cheaper than svgelements' exact arc length."""
    pts = [seg.point(k / 4) for k in range(5)]
    return sum(math.dist((a.x, a.y), (b.x, b.y)) for a, b in zip(pts, pts[1:]))


def draw_icon(c: Canvas, name: str, box: Box, ink: str) -> None:
    """The named icon, as large as fits in `box` (square), centred, filled with `ink`."""
    s = min(box.w, box.h)
    c.polygons(_placed(name, box.cx - s / 2, box.cy - s / 2, s), fill=ink)


@cache
def _placed(name: str, x0: float, y0: float, s: float) -> tuple[tuple[Point, ...], ...]:
    """The icon's rings at one place and size, cached: every copy of a card puts its icons at the same
    place (in the card's own coordinates), so the canvases can cache the path they write too."""
    return tuple(tuple((x0 + x * s, y0 + y * s) for x, y in ring) for ring in rings(name))


def _layout_icons(value: object, key: str = "layout") -> Iterator[tuple[str, str]]:
    """(field, icon name) in a game.toml [layout] table: values of keys named or ending in `icon(s)`, at any depth."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _layout_icons(v, f"{key}.{k}")
    elif isinstance(value, list):
        for v in value:
            yield from _layout_icons(v, key)
    elif isinstance(value, str) and key.rsplit(".", 1)[-1].endswith(("icon", "icons")):
        yield key, value


def named(game: GameData) -> Iterator[tuple[str, str, str]]:
    """(file, field, icon name) for every icon a game's data names."""
    for table, rows in game.tables.items():
        for row in rows:
            icon = getattr(row, "icon", None)
            if icon:
                yield str(game.files.get(table, game.folder)), f"{row.id}.icon", icon
    for field, icon in _layout_icons(game.layout):
        yield str(game.folder / "game.toml"), field, icon


def names_in_data(games: Iterable[GameData]) -> set[str]:
    return {icon for game in games for _, _, icon in named(game)}


def check(games: Sequence[GameData]) -> list[Problem]:
    """Icons the data names that cards/icons/game-icons.json lacks, each located in its file."""
    have = known()
    return [Problem(where, f"unknown icon '{icon}' (add it with scripts/extract_icons.py)", field=field, value=icon)
            for game in games for where, field, icon in named(game) if icon not in have]
