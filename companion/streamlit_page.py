"""A table's page drawn on a phone: the `companion.page.Page` backend over Streamlit and the table part's surface.

Sheets and pads become blocks of the open surface (`companion.components.surface`: few elements per
redraw, a tap sent as the element's trigger), or elements of their own where no surface is open (a pad is
`surface.pad` itself, a group `surface.group`); a
shut fold is a block of the surface (its label), built only once opened, then as Streamlit's expander
(`companion.folds`); a container and the escape hatch send what was
gathered so far (a container at its end too), so a panel's own Streamlit container or widget shows in
its place and what is drawn after it comes after it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from types import ModuleType

import streamlit as st

from companion import folds
from companion.components import surface
from companion.render import Sheet


class StreamlitPage:
    """The page a phone sees (see the module docstring)."""

    def sheet(self) -> AbstractContextManager[Sheet]:
        return Sheet()

    # A pad, a group and a fold are the surface's and the fold's own: a panel's call goes straight to them, with
    # nothing of this module between (a tap's path, docs/design.md).
    pad = staticmethod(surface.pad)
    group = staticmethod(surface.group)
    fold = staticmethod(folds.folded)

    @contextmanager
    def container(self, key: str, border: bool = False) -> Iterator[None]:
        surface.flush()  # before the container is made: what was gathered goes above it
        with surface.within(st.container(key=key, border=border)):
            yield

    def widgets(self) -> ModuleType:
        surface.flush()
        return st
