"""Helpers for tests that break game data on purpose and read the loader's messages."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import pytest

from cards import DataError, load_game
from generator.build import check


def rewrite_csv(path: Path, edit: Callable[[list[list[str]]], object]) -> None:
    """Apply `edit` to the CSV's rows (header included) and write them back."""
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    edit(rows)
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)


def problems_of(root: Path, game: str) -> list[str]:
    """The loader's messages for a game that must fail to load."""
    with pytest.raises(DataError) as info:
        load_game(game, root)
    return [str(p) for p in info.value.problems]


def check_problems(root: Path, game: str) -> list[str]:
    """The checker's messages (`muster check`) for a game that loads but breaks a cross-file rule."""
    errors, _ = check({game: load_game(game, root)})
    return [str(p) for p in errors]
