"""Seat names (issue 29): NFC-normalised, nothing invisible or reordering, one alphabet, no two alike at a table.

Each class of character that lets "Ann" and "An\u200bn" sit at one table is refused with the seat and the
character named; emoji sequences that use a joiner or a variation selector stay allowed.
"""

from __future__ import annotations

import pytest

from companion.names import NAME_LIMIT, clean, skeleton
from engine.core import Refusal

INVISIBLE = {
    "zero width space": ("\u200b", "U+200B ZERO WIDTH SPACE"),
    "zero width non-joiner": ("\u200c", "U+200C ZERO WIDTH NON-JOINER"),
    "zero width joiner between letters": ("\u200d", "U+200D ZERO WIDTH JOINER"),
    "word joiner": ("\u2060", "U+2060 WORD JOINER"),
    "byte-order mark": ("\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    "soft hyphen": ("\u00ad", "U+00AD SOFT HYPHEN"),
    "left-to-right mark": ("\u200e", "U+200E LEFT-TO-RIGHT MARK"),
    "right-to-left mark": ("\u200f", "U+200F RIGHT-TO-LEFT MARK"),
    "arabic letter mark": ("\u061c", "U+061C ARABIC LETTER MARK"),
    "right-to-left override": ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    "left-to-right embedding": ("\u202a", "U+202A LEFT-TO-RIGHT EMBEDDING"),
    "first strong isolate": ("\u2068", "U+2068 FIRST STRONG ISOLATE"),
    "hangul filler": ("\u3164", "U+3164 HANGUL FILLER"),
    "combining grapheme joiner": ("\u034f", "U+034F COMBINING GRAPHEME JOINER"),
    "variation selector after a letter": ("\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
    "tag character": ("\U000e0041", "U+E0041 TAG LATIN CAPITAL LETTER A"),
    "private use": ("\ue000", "U+E000 an unnamed character"),
    "control": ("\x07", "U+0007 an unnamed character"),
}


@pytest.mark.parametrize("kind", list(INVISIBLE))
def test_a_name_with_an_invisible_or_reordering_character_is_refused_naming_it(kind: str) -> None:
    char, named = INVISIBLE[kind]
    with pytest.raises(Refusal) as err:
        clean(["Bob", f"An{char}n"])
    assert str(err.value) == f"Seat 2's name contains an invisible character ({named}); type it again."


LOOK_ALIKE = {
    "case": ("Ann", "ANN"),
    "the same name composed and decomposed": ("Jos\u00e9", "Jose\u0301"),
    "an accent": ("Jose", "José"),
    "Cyrillic letters that print as Latin": ("Pop", "\u0420\u043e\u0440"),
    "Greek letters that print as Latin": ("Kato", "\u039a\u03b1\u03c4\u03bf"),
    "capital I for l": ("Bill", "BiII"),
    "digit 0 for O": ("Otto", "0tt0"),
    "rn for m": ("Amie", "Arnie"),
    "full-width letters": ("Ann", "\uff21\uff4e\uff4e"),
    "a non-breaking space or a line separator": ("Ann Lee", "Ann\u00a0\u2028Lee"),
    "punctuation": ("Ann-Lee", "Ann Lee"),
}


@pytest.mark.parametrize("kind", list(LOOK_ALIKE))
def test_two_names_that_look_alike_cannot_sit_at_one_table(kind: str) -> None:
    first, second = LOOK_ALIKE[kind]
    assert skeleton(first) == skeleton(second)
    with pytest.raises(Refusal, match=r"^Seat 1's and seat 3's names look alike \("):
        clean([first, "Zed", second])


def test_a_name_mixing_alphabets_is_refused() -> None:
    with pytest.raises(Refusal, match="^Seat 1's name mixes Cyrillic and Latin letters, which look alike; "):
        clean(["\u0410nn", "Bob"])  # a Cyrillic А before Latin nn


def test_names_are_stored_nfc_with_white_space_made_one_space() -> None:
    assert clean(["  Jose\u0301   Lee ", "Zoë", "Ann\u2003Lee"]) == ["Jos\u00e9 Lee", "Zoë", "Ann Lee"]


def test_names_that_differ_to_the_eye_and_emoji_sequences_are_accepted() -> None:
    names = ["Ann", "Anna", "Bob \U0001f468\u200d\U0001f469\u200d\U0001f467", "Cy \u2764\ufe0f", "Олег", "Δήμος",
             "李", "B" * NAME_LIMIT]
    assert clean(names) == names


@pytest.mark.parametrize("blank", ["", "   ", "\u00a0\u2028"])
def test_a_seat_without_a_name_is_refused_naming_the_seat(blank: str) -> None:
    with pytest.raises(Refusal) as err:
        clean(["Ann", blank])
    assert str(err.value) == "Seat 2 needs a name."
