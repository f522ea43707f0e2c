"""What a balance run reads off a position, per game: the only game-specific code of the balance report.

Everything else (playing, counting, merging, the report) goes through the engine's public API. Each
game says here which card designs a seat holds (its own hand, the cards it may still play; hexbattle's
unit types on the board too, so its units are counted like cards), which
counter is the game's round (warfare's turns, imperial's battle rounds, medieval's battles, waterloo's
hands, hexbattle's turns), whether the game ended on its own turn or action limit (a rules gap for the
report: no side won the game on the board), and, for waterloo, the showdown in progress. The lead in
the drama figures is the bots' position score (engine.bots.scores: troop points, chips, cards left,
strength on the board), one definition for bots and report.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Game, State


@dataclass(frozen=True)
class Observer:
    """How one game's positions are read: `held(state, seat)` the designs the seat holds (with repeats),
    `round(state)` the game's own round counter, `capped(state)` whether a finished game ended on a limit."""

    held: Callable[[State, int], list[str]]
    round: Callable[[State], int]
    capped: Callable[[State], bool]
    showdowns: bool = False
    """Whether the game has showdowns to watch (waterloo): `showdown(state)` is read after every move then."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Ids a move may name that are no card of the data, with their design (hexbattle: unit -> unit type)."""
    has: Callable[[State, int, str], bool] | None = None
    """`has(state, seat, design)`: whether the seat holds the design, `design in held(state, seat)`, answered without
    listing them all: asked for every move that names a design, most of hexbattle's 7,600 (None: through `held`)."""


REMOVAL_TABLES = {"warfare": "cards", "imperial": "military", "medieval": "cards", "waterloo": "cards",
                  "hexbattle": "units"}
"""Per game, the table whose designs the removal test takes a copy out of (hexbattle: its unit types)."""


def _designs(game: Game[Any]) -> dict[str, str]:
    """Physical card id -> design id, over every card table of the game's data."""
    data = getattr(game, "data", None)
    if data is None:  # imperial keeps its data in a Config: its physical ids are "<type>-<n>"
        return {}
    return {cid: card.design.id for cid, card in data.card_index.items()}


def observer(game: Game[Any]) -> Observer:
    """The observer for a game engine (by its id)."""
    design = _designs(game)
    gid = game.id
    if gid == "warfare":
        ids = getattr(game, "ids")
        by_index = [design[c] for c in ids]
        return Observer(lambda s, p: [by_index[c] for c in s.hands[p]],  # type: ignore[attr-defined]
                        lambda s: s.turn,  # type: ignore[attr-defined]
                        lambda s: s.end_reason in ("turn limit", "action limit"),  # type: ignore[attr-defined]
                        )
    if gid == "imperial":
        # imperial's Military designs are its three types (military.csv: id = type)
        return Observer(lambda s, p: [t for t, cards in s.hands[p].items() for _ in cards],  # type: ignore[attr-defined]
                        lambda s: s.battle_round,  # type: ignore[attr-defined]
                        lambda s: False)
    if gid == "medieval":
        ids = getattr(game, "ids")
        by_index = [design[c] for c in ids]
        return Observer(lambda s, p: [by_index[c] for c in s.hands[p]],  # type: ignore[attr-defined]
                        lambda s: s.battle,  # type: ignore[attr-defined]
                        lambda s: "battle limit" in s.end_reason,  # type: ignore[attr-defined]
                        )
    if gid == "waterloo":
        return Observer(lambda s, p: [design[c] for c in (*s.hands[p], *s.reserves[p].values())],  # type: ignore[attr-defined]
                        lambda s: s.hand_number,  # type: ignore[attr-defined]
                        lambda s: False, showdowns=True)
    if gid == "hexbattle":  # its bonus cards in hand, and its unit types on the board
        roster: list[list[tuple[str, str]]] = getattr(game, "roster")
        return Observer(lambda s, p: [design[c] for c in s.hands[p]]  # type: ignore[attr-defined]
                        + [u.type for u in s.alive(p)],  # type: ignore[attr-defined]
                        lambda s: s.turn,  # type: ignore[attr-defined]
                        lambda s: s.result == "turn_limit",  # type: ignore[attr-defined]
                        names={unit: kind for army in roster for unit, kind in army},
                        has=_hexbattle_has(design, roster))
    raise ValueError(f"no balance observer for {gid!r}")


def _hexbattle_has(design: dict[str, str], roster: list[list[tuple[str, str]]]) -> Callable[[State, int, str], bool]:
    """Hexbattle's `Observer.has`: a unit type is held while one of the seat's units of that type is on the board
    (its one to three copies looked at, not the army listed), a card's design while a card of it is in hand."""
    units_of: list[dict[str, list[str]]] = [{} for _ in roster]
    for p, army in enumerate(roster):
        for unit, kind in army:
            units_of[p].setdefault(kind, []).append(unit)

    def has(s: Any, p: int, wanted: str) -> bool:
        units = s.units
        for uid in units_of[p].get(wanted, ()):
            unit = units[uid]
            if unit.hex is not None and not unit.destroyed:
                return True
        return any(design[c] == wanted for c in s.hands[p])
    return has


def showdown(state: State) -> dict[str, Any] | None:
    """Waterloo's showdown in progress (seat -> combo id, and the winners), else None."""
    shown = getattr(state, "showdown", None)
    if not shown:
        return None
    return shown  # type: ignore[no-any-return]
