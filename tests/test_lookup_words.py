"""Look-ups read as a rulebook (issue 30): no look-up entry, card, combo, rules section or ruling, shows a
developer's word: no snake_case key, no code span, no field shown as "Also:" or with the value "none"."""

from __future__ import annotations

import re

import pytest
from apptest_helpers import page, page_text

from companion import lookup

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")  # infantry_loss, turn_limit, move_cost
CODE = re.compile(r"`[^`]+`")  # a code span: a key, a file, a function


def test_no_look_up_entry_shows_a_developers_word() -> None:
    found = []
    for entry in lookup.index():
        for text in (entry.title, entry.subtitle, entry.text, *(f"{k}: {v}" for k, v in entry.extra)):
            found += [(entry.game, entry.key, m.group(0)) for m in (*SNAKE.finditer(text), *CODE.finditer(text))]
        found += [(entry.game, entry.key, f"{k}: {v}") for k, v in entry.extra
                  if v.casefold() in ("none", "true", "false") or k.casefold() in ("also", "target", "symbol")]
    assert found == []
    assert {e.kind for e in lookup.index()} == {"card", "combo", "rule", "section"}, "every kind was scanned"


def test_developer_notes_and_designers_sections_stay_in_the_file_only() -> None:
    text = "**R1 — One.** *Muster:* 4 minutes <!-- round_timer_minutes\nin game.toml -->, said once.\n\n" \
           "## Effect vocabulary (for card designers)\n\n| `play_another` | more cards |\n"
    [ruling] = lookup.rule_entries("waterloo", text)
    assert ruling.text == "*Muster:* 4 minutes, said once."


@pytest.mark.parametrize(("game", "card", "shown"), [
    ("hexbattle", "farm", ["- **Infantry leaving take this formation**: Column", "- Only infantry may enter"]),
    ("medieval", "plague", ["- Placed beside the battlefield, not in a column", "- **Copies in each deck**: 2"]),
    ("hexbattle", "swift-march", ["- **Copies**: 2"]),
])
def test_a_card_look_up_names_its_facts_in_words(service: object, game: str, card: str, shown: list[str]) -> None:
    text = page_text(page(game=game, card=card))
    assert all(line in text for line in shown), text
    assert "Also" not in text and "Target" not in text and "none" not in text.split()


def test_every_imperial_phase_and_result_has_words_on_the_page() -> None:
    """`infantry_loss` once showed as it is: the panel's words cover every phase and result the engine has."""
    from companion.panels import imperial as panel
    from engine import imperial

    assert set(panel.PHASES) == {imperial.EXCHANGE, imperial.BUY, imperial.PLAY, imperial.INFANTRY_LOSS,
                                 imperial.RIFLING, imperial.OVER}
    assert set(panel.RESULTS) == {imperial.AUTOMATIC, imperial.ROUT, imperial.INCONCLUSIVE}
    assert not [w for w in (*panel.PHASES.values(), *panel.RESULTS.values()) if SNAKE.search(w)]
