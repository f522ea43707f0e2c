"""Hex maths for a rectangular board of flat-topped hexes (Red Blob Games' axial and cube formulas).

Positions are axial `(q, r)` tuples inside the engine; players and printed boards use offset
`"col,row"` ids ("odd-q": odd columns sit half a hex lower), with row 0 at the top.
Facing 0 is north (towards row 0) and the numbers go clockwise: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW.
"""

from __future__ import annotations

from functools import lru_cache

Hex = tuple[int, ...]
"""An axial (q, r) pair. Typed as a tuple of any length rather than `tuple[int, int]` for the compiled rules
(`engine.native`): mypyc unpacks a fixed-length tuple into a C struct and builds a new tuple object each time it is
stored, returned or used as a dict key (then hashed anew); as an object it is passed on as it is, which saved a
tenth of the instructions of a compiled random decision (docs/performance.md)."""

DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
FACING_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
_ROOT3 = 3 ** 0.5
# Each direction as a unit vector on the page (x right, y down), for bearings between distant hexes.
_PIXEL = tuple((1.5 * q / _ROOT3, (r + q / 2)) for q, r in DIRECTIONS)


def from_offset(col: int, row: int) -> Hex:
    return col, row - (col - (col & 1)) // 2


def to_offset(h: Hex) -> tuple[int, int]:
    q, r = h
    return q, r + (q - (q & 1)) // 2


def hex_id(h: Hex) -> str:
    col, row = to_offset(h)
    return f"{col},{row}"


def parse_hex(text: object) -> Hex | None:
    """The hex an id like "3,5" names, or None if it is not such an id."""
    if not isinstance(text, str):
        return None
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        return from_offset(int(parts[0]), int(parts[1]))
    except ValueError:
        return None


def hex_from_id(text: str) -> Hex:
    """The hex of an id already checked (a verified action's): a malformed one is a bug, not a player's slip."""
    h = parse_hex(text)
    if h is None:
        raise ValueError(f"{text!r} is not a hex id")
    return h


def neighbour(h: Hex, facing: int) -> Hex:
    dq, dr = DIRECTIONS[facing % 6]
    return h[0] + dq, h[1] + dr


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@lru_cache(maxsize=None)
def disc(reach: int) -> tuple[Hex, ...]:
    """Every offset (dq, dr) at most `reach` hexes from the origin, the origin included."""
    return tuple((dq, dr) for dq in range(-reach, reach + 1)
                 for dr in range(max(-reach, -dq - reach), min(reach, reach - dq) + 1))


def bearing(a: Hex, b: Hex) -> int:
    """The facing from `a` that points most nearly at `b` (for neighbours, exactly at it; ties: lower number)."""
    x, y = 1.5 * (b[0] - a[0]), _ROOT3 * ((b[1] - a[1]) + (b[0] - a[0]) / 2)
    return max(range(6), key=lambda d: (x * _PIXEL[d][0] + y * _PIXEL[d][1], -d))


def turn_steps(a: int, b: int) -> int:
    """Sixty-degree steps between two facings (0..3)."""
    d = (b - a) % 6
    return min(d, 6 - d)


@lru_cache(maxsize=None)
def _wedge(facing: int, dq: int, dr: int) -> tuple[int, int]:
    """An offset as a*left + b*right, the two directions beside a facing that span its 120-degree cone
    (left + right is the facing's own direction); whole numbers, as the two directions' determinant is ±1."""
    lq, lr = DIRECTIONS[(facing - 1) % 6]
    rq, rr = DIRECTIONS[(facing + 1) % 6]
    det = lq * rr - lr * rq
    return (dq * rr - dr * rq) * det, (lq * dr - lr * dq) * det


def in_arc(source: Hex, facing: int, target: Hex) -> bool:
    """Whether `target` lies in the ±60° cone ahead of a unit at `source` facing `facing` (edges included)."""
    if source == target:
        return False
    a, b = _wedge(facing % 6, target[0] - source[0], target[1] - source[1])
    return a >= 0 and b >= 0


def aim(source: Hex, facing: int, target: Hex) -> int | None:
    """The facing a gun at `source` turns to as it fires at `target` (R16): of `facing` and the two beside it,
    the one pointing most nearly at the target, or None if the target is outside `facing`'s cone.

    A target exactly midway between two of them keeps the gun on `facing`: it turns only when it must."""
    if source == target:
        return None
    a, b = _wedge(facing % 6, target[0] - source[0], target[1] - source[1])
    if a < 0 or b < 0:
        return None
    # The angle off `facing` is atan(√3 (b − a) / (a + b)); it passes 30°, half a step, where b = 2a.
    if b > 2 * a:
        return (facing + 1) % 6
    if a > 2 * b:
        return (facing - 1) % 6
    return facing % 6


def _cube_round(x: float, z: float) -> Hex:
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return int(rx), int(rz)


_NUDGE = 1e-6


@lru_cache(maxsize=200_000)
def sight_line(a: Hex, b: Hex) -> tuple[tuple[Hex, ...], ...]:
    """The hexes strictly between `a` and `b` along the straight line of centres.

    Each step is a 1-tuple, or a 2-tuple when the line runs exactly along the edge between
    two hexes (a "split hex"). Found by drawing the line nudged to either side of the edge.
    """
    n = distance(a, b)
    steps: list[tuple[Hex, ...]] = []
    ax, az = a[0], a[1]
    bx, bz = b[0], b[1]
    for i in range(1, n):
        t = i / n
        x = ax + (bx - ax) * t
        z = az + (bz - az) * t
        one = _cube_round(x + _NUDGE, z - 2 * _NUDGE)
        two = _cube_round(x - _NUDGE, z + 2 * _NUDGE)
        steps.append((one,) if one == two else (one, two))
    return tuple(steps)
