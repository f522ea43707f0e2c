"""Per-game panels for the table page: each draws its game's view better than the generic lines and
builds moves from the engine's own helpers. A panel never decides a rule; it asks `engine/`.

A panel module offers `render(ctx)` and, optionally, `tools(page, game, data)`: helpers for printed cards
that do not follow the table's position (a battle resolver), drawn under the table part of the page so
that a move does not redraw them. The new-table form's options come from data (companion/options_form.py).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from engine import GAME_IDS

if TYPE_CHECKING:  # a panel's argument; the panels' modules themselves import it
    from companion.page import Page
    from companion.table_context import TableContext


def module_for(game_id: str) -> ModuleType | None:
    """Each of the five games has a panel module named after it; other engines (tests') have none."""
    return importlib.import_module(f"companion.panels.{game_id}") if game_id in GAME_IDS else None


def panel_for(game_id: str) -> Callable[[TableContext], None] | None:
    """The game's `render(ctx)`, or None when the game has no panel (the generic view is used)."""
    return getattr(module_for(game_id), "render", None)


def assets_for(game_id: str) -> Callable[[Any], None] | None:
    """The game's `assets(data)`: what its table part draws from and never changes during a game (hexbattle's
    board artwork), drawn before that part and outside it, so it crosses the wire once per page load; or None."""
    return getattr(module_for(game_id), "assets", None)


def prepare_for(game_id: str) -> Callable[[Any], None] | None:
    """The game's `prepare(data)`: what its first page would otherwise work out while the phone waits (hexbattle's
    board artwork, 0.4 s), done once when the server starts (`companion.launch.preload`); or None."""
    return getattr(module_for(game_id), "prepare", None)


def tools_for(game_id: str) -> Callable[[Page, Any, Any], None] | None:
    """The game's `tools(page, game, data)`, drawn on `page` outside the part of the page a move redraws, or None."""
    return getattr(module_for(game_id), "tools", None)
