"""Rules engines for the five Muster games: pure Python, no I/O, seeded chance."""

from __future__ import annotations

import importlib
from typing import Any

from engine import native

native.guard()  # before any of hexbattle's modules is imported: a stale compiled build must not be

from engine.core import Action, Game, Line, Match, Refusal, State, Told, act, chance

__all__ = ["Action", "Game", "Line", "Match", "Refusal", "State", "Told", "act", "chance", "make_game", "GAME_IDS"]

GAME_IDS = ("waterloo", "warfare", "hexbattle", "imperial", "medieval")


def make_game(data: object) -> Game[Any]:
    """The engine for a loaded game (`cards.load.GameData`); each module exposes `make_game`."""
    game_id = getattr(data, "id")
    if game_id not in GAME_IDS:
        raise Refusal(f"There is no engine for a game called '{game_id}'.")
    module = importlib.import_module(f"engine.{game_id}")
    game: Game[Any] = module.make_game(data)
    return game
