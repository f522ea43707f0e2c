"""Per-game panels for the table page: each draws its game's view better than the generic lines and
builds moves from the engine's own helpers. A panel never decides a rule; it asks `engine/`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

PANELS = ("waterloo", "warfare", "hexbattle", "imperial", "medieval")


def panel_for(game_id: str) -> Callable[[Any], None] | None:
    """The game's `render(ctx)`, or None when the game has no panel (the generic view is used)."""
    if game_id not in PANELS:
        return None
    try:
        module = importlib.import_module(f"companion.panels.{game_id}")
    except ModuleNotFoundError as err:
        if err.name in (f"companion.panels.{game_id}", f"engine.{game_id}"):
            return None
        raise
    return getattr(module, "render", None)
