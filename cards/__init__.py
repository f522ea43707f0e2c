"""The five games as data: `game.toml` and CSV files per game, with typed schemas."""

from cards.load import CardRow, GameData, PhysicalCard, Row, game_ids, load_all, load_game
from cards.problems import DataError, Problem

__all__ = ["CardRow", "DataError", "GameData", "PhysicalCard", "Problem", "Row", "game_ids", "load_all", "load_game"]
