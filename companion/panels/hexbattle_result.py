"""A hexbattle combat's result in a few words, for the banner at the top of the table: no Streamlit here.

The online version the seed describes shows a banner such as "Point-Blank Fire — Double Damage Hit!" in
the combat result; a table's phones need the same at a glance, above the board, where the full
die-by-die account under it is not. Everything comes from the combat's events as the engine's `view`
gives them to one viewer (never the real state), and the banner stands until that viewer moves on
(`moved_on`): a player, by their own next move; a spectator, when the side that fought is answered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
POINT_BLANK = "Point-Blank Fire — Double Damage Hit!"  # the seed's own words for the banner


def dice(rolled: Iterable[int]) -> str:
    """Dice as dice: each die's face and its number ("⚅ 6, ⚀ 1"), never a Python list."""
    return ", ".join(f"{DIE_FACES[d - 1]} {d}" if 1 <= d <= 6 else str(d) for d in rolled) or "none"


@dataclass(frozen=True)
class Line:
    """One line of the banner: `kind` is "text" for a plain line, else it colours the line as a page note does
    (its words and icon say the same without colour)."""

    kind: str
    text: str
    icon: str

    def __post_init__(self) -> None:  # a line may open with a name ("your Red Infantry 1 is broken.")
        object.__setattr__(self, "text", self.text[:1].upper() + self.text[1:])


def banner(events: list[dict[str, Any]], name: Callable[[str], str], card_name: Callable[[str], str]) -> list[Line]:
    """The banner of one action's combat: what fought what, point-blank, hits and losses, rout, broken,
    destroyed, and the guards that fired."""
    lines: list[Line] = []
    for e in events:
        kind = e.get("event")
        if kind == "melee":
            lines.append(Line("text", f"**Close combat: {name(e['attacker'])} charged {name(e['defender'])}.**", "⚔"))
            result = e.get("result")
            if result is None:
                lines.append(Line("warning", f"{name(e['defender'])} was broken and could not reply: the charge "
                                             "finished it.", "⚔"))
            else:
                lines.append(Line("text", f"Dice {dice(result['attacker_dice'])} against "
                                          f"{dice(result['defender_dice'])}: {name(e['attacker'])} loses "
                                          f"{result['attacker_losses']}, {name(e['defender'])} loses "
                                          f"{result['defender_losses']}.", ""))
        elif kind == "fire":
            lines += _fire(e, name, card_name)
        elif kind == "broken":
            lines.append(Line("warning", f"{name(e['unit'])} is broken.", "⚠"))
        elif kind == "destroyed":
            lines.append(Line("error", f"{name(e['unit'])} is destroyed.", "✖"))
        elif kind == "rout":
            routed = name(e["unit"])
            lines.append(Line("warning", f"Rout! {routed[:1].upper() + routed[1:]} falls back to {e.get('to')}.", "↩"))
        elif kind == "guard":
            on = f" on {name(e['unit'])}" if e.get("unit") else ""
            lines.append(Line("info", f"{card_name(e['card'])} fired{on}.", "🛡"))
    return lines


def _fire(e: dict[str, Any], name: Callable[[str], str], card_name: Callable[[str], str]) -> list[Line]:
    who = f"{name(e['attacker'])} fired at {name(e['defender'])}"
    lines = [Line("text", f"**{'Reserve Fire' if e.get('reserve_fire') else 'Ranged fire'}: {who}.**", "◎")]
    result = e.get("result")
    if e.get("screened"):
        lines.append(Line("info", f"{card_name(e['screened'])} stopped the shot.", "🛡"))
    elif e.get("blocked_by"):
        lines.append(Line("info", f"The line of sight was blocked at {e['blocked_by']}: no shot.", "🚫"))
    elif result is not None:
        point_blank = e["modifiers"].get("point_blank") and result["hits"] > 0
        if point_blank:
            lines.append(Line("warning", f"**{POINT_BLANK}**", "💥"))
        hits = (f"{result['hits']} hit{'s' if result['hits'] != 1 else ''}"
                + (f" × {result['multiplier']}" if result["multiplier"] != 1 else ""))
        lines.append(Line("text", f"Dice {dice(result['dice'])}, hit on {result['hit_max']} or less: {hits}, "
                                  f"{name(e['defender'])} loses {result['losses']}.", ""))
    return lines


def moved_on(after: Iterable[int], actor: int, viewer: int | None) -> bool:
    """Whether `viewer` has moved on from a combat made by `actor`, given the players of the actions since:
    a player by a move of their own, a spectator once someone other than the combat's side has moved."""
    return any(p == viewer if viewer is not None else p != actor for p in after)
