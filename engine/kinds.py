"""One action kind in one place: its arguments, when it is legal, what it does and how it reads.

pokerkit gives each action a `verify_x` (raises with the reason), a `can_x` (the same, as a yes or no)
and an `x` (does it); an engine here lists its kinds as `Kind` values the same way, so that adding or
changing a kind touches one entry. `State.can` is the `can_x` of every kind at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.core import Action, Told

S = TypeVar("S")


@dataclass(frozen=True)
class Kind(Generic[S]):
    """An action kind of a game whose positions are `S`."""

    args: Mapping[str, Any]
    """Its arguments, as `engine.core.check_args` reads them (a type or an `Arg` each)."""
    verify: Callable[[S, Action], None]
    """Raise `Refusal`, saying why, unless the action is legal here (its arguments are already well formed)."""
    apply: Callable[[S, Action, random.Random], None]
    """Carry out a verified action."""
    label: Callable[[S, Action], str]
    """The words of its button, for the player who may take it."""
    told: Callable[[S, Action], list[Told]]
    """Its history lines per viewer, written from the position before it is applied."""
    phases: tuple[str, ...] = ()
    """The phases of play it belongs to; the state refuses it in any other (empty: in any phase)."""
    verb: str = ""
    """What it does, for a refusal that names it ("You cannot {verb} now")."""


def schema(kinds: Mapping[str, Kind[Any]]) -> dict[str, Mapping[str, Any]]:
    """The `State.ARGS` of a game: each kind's arguments."""
    return {name: kind.args for name, kind in kinds.items()}
