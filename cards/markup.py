"""Inline icons in effect text: `[cav]` in a card's text is drawn as a small icon before its word.

A game's `[layout.inline_icons]` maps each markup key to an icon (from cards/icons) and the
word it stands for, e.g. `cav = { icon = "cavalry", word = "Cavalry" }`. The printed card
shows the icon and the word ("knock out one attacking [cav] unit" prints a horse before
"Cavalry"); every other surface (the companion, look-ups, reference tables) reads `plain`
text, the words alone. `muster check` reports unknown keys in the file and row that use them.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping

from cards.layout import game_layout
from cards.load import CardRow, GameData
from cards.problems import DataError, Problem

MARKUP = re.compile(r"\[([a-z][a-z0-9-]*)\]")
"""One inline icon in effect text: its key in square brackets."""


def inline_icons(game: GameData) -> Mapping[str, tuple[str, str]]:
    """The game's markup keys -> (icon name, word)."""
    return {key: (entry.icon, entry.word) for key, entry in game_layout(game).inline_icons.items()}


def plain(game: GameData, text: str) -> str:
    """The text as words: each known `[key]` becomes its word (an unknown one stays as written)."""
    if "[" not in text:
        return text
    icons = inline_icons(game)
    return MARKUP.sub(lambda m: icons[m[1]][1] if m[1] in icons else m[0], text)


def printed(game: GameData, text: str, icon: Callable[[str], str]) -> str:
    """The text with each known `[key]` replaced by `icon(icon name)` and its word: what a card prints."""
    if "[" not in text:
        return text
    icons = inline_icons(game)
    return MARKUP.sub(lambda m: icon(icons[m[1]][0]) + icons[m[1]][1] if m[1] in icons else m[0], text)


def check(games: Mapping[str, GameData]) -> list[Problem]:
    """Markup keys a card's effect text uses that its game's [layout.inline_icons] does not define,
    each located in the card's file and row."""
    problems: list[Problem] = []
    for game in games.values():
        try:
            known = inline_icons(game)
        except DataError:  # a broken [layout] is reported by cards.layout.check
            continue
        face = getattr(importlib.import_module(f"cards.schemas.{game.id}"), "face", None)
        if face is None:
            continue
        for table in game.card_tables():
            for row in game.table(table):
                if not isinstance(row, CardRow):
                    continue
                text = face(row).text
                for key in MARKUP.findall(text):
                    if key not in known:
                        have = ", ".join(f"[{k}]" for k in sorted(known)) or "none"
                        problems.append(Problem(
                            str(game.files.get(table, game.folder)),
                            f"card '{row.id}': unknown inline icon [{key}] in its text (known in "
                            f"{game.folder.name}/game.toml [layout.inline_icons]: {have})",
                            field="text", value=text))
    return problems
