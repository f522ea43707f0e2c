"""A table's page drawn on a phone: the `companion.page.Page` backend over Streamlit and the table part's surface.

Sheets and pads become blocks of the open surface (`companion.components.surface`: few elements per
redraw, a tap sent as the element's trigger), or elements of their own where no surface is open; a
fold is Streamlit's lazy expander (`companion.folds`); the escape hatch sends what was gathered so far,
so a panel's own Streamlit widget shows in its place.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from types import ModuleType

import streamlit as st

from companion import folds
from companion.components import surface
from companion.page import PadData, TapHandler
from companion.render import Sheet


class StreamlitPage:
    """The page a phone sees (see the module docstring)."""

    def sheet(self) -> AbstractContextManager[Sheet]:
        return Sheet()

    def pad(self, key: str, data: PadData, on_tap: TapHandler) -> None:
        block = {"key": key, "pad": data}
        if not surface.add(block, on_tap):
            with surface.drawing(key):
                surface.add(block, on_tap)

    def fold(self, label: str, key: str) -> tuple[AbstractContextManager[object], bool]:
        return folds.folded(label, key)

    def group(self, key: str) -> AbstractContextManager[None]:
        return surface.group(key)

    def widgets(self) -> ModuleType:
        surface.flush()
        return st
