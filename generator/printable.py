"""What a printable hands the build: sets of cut-out pieces or of full pages, and what it is built with.

These live apart from `generator.build` so that the component modules can name them at import
time while the build imports the components.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from typing import Any

from generator.canvas import Canvas, Document
from generator.sheets import Piece


@dataclass(frozen=True)
class PieceSet:
    """Pieces printed together (one deck, one counter sheet): output files are named after `name`."""

    name: str
    pieces: list[Piece]

    def decks(self) -> dict[str, list[Piece]]:
        """The set's pieces per deck (pieces sharing a back), named by what their back key adds to the
        set's name ("crimson" for medieval's back-crimson-cards; "" when the set is one deck)."""
        decks: dict[str, list[Piece]] = {}
        for piece in self.pieces:
            decks.setdefault(piece.back_key, []).append(piece)
        if len(decks) == 1:
            return {"": self.pieces}
        noise = {"back", *self.name.split("-")}
        return {"-".join(w for w in key.split("-") if w not in noise) or key: group for key, group in decks.items()}


@dataclass(frozen=True)
class PageSet:
    """Full pages (a reference sheet): each is draw(canvas, width, height) on a page of the profile's paper."""

    name: str
    pages: list[Callable[[Canvas, float, float], None]]
    whole: Piece | None = None  # what the pages split, as one piece (a board), for a virtual tabletop


@dataclass(frozen=True)
class SheetSet:
    """Pages that depend on the home profile that prints them, not only on its paper: a rules booklet
    imposed on the profile's paper, tuck boxes sized for its card stock.

    `draw(doc, profile, paper)` adds the pages and says whether it drew any (a booklet needs duplex,
    so fold-over profiles print none); `screen(doc)`, when given, draws the same content in reading
    order at its own page size, written once beside the sheets as `<game>-<name>-screen.pdf`."""

    name: str
    draw: Callable[[Document, Any, tuple[float, float]], bool]
    screen: Callable[[Document], None] | None = None


AnySet = PieceSet | PageSet | SheetSet


@dataclass(frozen=True)
class BuildContext:
    """What a printable needs besides the game: the QR base URL (None = no QR codes) and claimed tables."""

    companion_url: str | None
    claimed: frozenset[str] = frozenset()
    low_ink: bool = False  # `--ink low`: light frames, outlines instead of fills, icons kept
