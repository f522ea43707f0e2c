"""Seat names as every phone at a table sees them: one form per name, nothing hidden, no two alike.

A name is read by the other players to know whose turn it is and whose seat link to pass on, so
what a name *looks like* is what counts. Names are NFC-normalised (an "é" typed two ways is one
name); characters that print nothing or reorder the text around them (zero-width spaces and joiners,
left-to-right and right-to-left marks, bidi embeddings and isolates, fillers, variation selectors
outside an emoji) are refused, as are names that mix Latin, Greek and Cyrillic letters; and two names
of one table may not look alike (`skeleton`).

The look-alike test is a small skeleton in the manner of Unicode's UTS #39, kept here rather than taken
from a library: the maintained Python packages answer "is this one string suspicious", not "do these two
names look alike", and a seat name needs only the look-alikes of the letters people type: NFKC and case
folding, accents dropped, the Greek and Cyrillic letters that look Latin, and 0/O, 1/l/I, rn/m.
"""

from __future__ import annotations

import unicodedata

from engine.core import Refusal

NAME_LIMIT = 40
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Controls, format characters (zero-width, LRM/RLM, bidi embeddings and isolates), private use, unassigned."""
BLANKS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800\u3164\uffa0")
"""Letters and marks that print nothing: combining grapheme joiner, Hangul fillers, Mongolian selectors, blank braille."""
VARIATION_SELECTORS = frozenset(chr(c) for c in [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
ZWJ = "\u200d"
SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")
LOOK_LATIN = str.maketrans({
    # Greek and Cyrillic letters (after case folding) that print like Latin ones
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "γ": "y", "μ": "u",
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "і": "i", "ї": "i", "ј": "j", "к": "k", "м": "m",
    "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "ԁ": "d",
    "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l",
    # characters that look alike within Latin
    "0": "o", "1": "l", "i": "l", "|": "l", "!": "l",
})


def clean(names: list[str]) -> list[str]:
    """Seat names as stored: NFC, runs of white space made one space; refused (a Refusal naming the seat and
    what is wrong) when empty, too long, holding an invisible or reordering character, mixing alphabets, or
    looking like another seat's name."""
    out = [" ".join(unicodedata.normalize("NFC", str(n)).split()) for n in names]
    seen: dict[str, int] = {}
    for i, name in enumerate(out, start=1):
        if not name:
            raise Refusal(f"Seat {i} needs a name.")
        if len(name) > NAME_LIMIT:
            raise Refusal(f"Seat {i}'s name has {len(name)} characters; a name may have at most {NAME_LIMIT}.")
        hidden = invisible(name)
        if hidden is not None:
            raise Refusal(f"Seat {i}'s name contains an invisible character ({hidden}); type it again.")
        scripts = sorted({s for c in name if c.isalpha() and (s := _script(c)) in SCRIPTS})
        if len(scripts) > 1:
            raise Refusal(f"Seat {i}'s name mixes {' and '.join(s.title() for s in scripts)} letters, which look "
                          "alike; write it in one alphabet.")
        twin = seen.setdefault(skeleton(name) or name, i)
        if twin != i:
            raise Refusal(f"Seat {twin}'s and seat {i}'s names look alike ({out[twin - 1]!r} and {name!r}); "
                          "give each seat a name the table can tell apart.")
    return out


def invisible(name: str) -> str | None:
    """The first character of `name` that prints nothing or reorders the text, as "U+200B ZERO WIDTH SPACE";
    None when there is none. A zero-width joiner between two emoji and a variation selector after an
    emoji are part of how the emoji is drawn, and are kept."""
    for k, c in enumerate(name):
        before = name[k - 1] if k else ""
        after = name[k + 1] if k + 1 < len(name) else ""
        if c == ZWJ and _emoji(before) and _emoji(after):
            continue
        if c in VARIATION_SELECTORS and _emoji(before):
            continue
        if unicodedata.category(c) in INVISIBLE_CATEGORIES or c in BLANKS or c in VARIATION_SELECTORS:
            return f"U+{ord(c):04X} {unicodedata.name(c, 'an unnamed character')}"
    return None


def skeleton(name: str) -> str:
    """What a name looks like: two names with one skeleton are too alike to sit at one table."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(c for c in unicodedata.normalize("NFD", folded) if not unicodedata.combining(c))
    plain = "".join(c for c in bare if c.isalnum() or c in "|!").translate(LOOK_LATIN)
    return plain.replace("rn", "m")


def _script(c: str) -> str:
    return unicodedata.name(c, "").split(" ")[0]


def _emoji(c: str) -> bool:
    return bool(c) and unicodedata.category(c) == "So"
