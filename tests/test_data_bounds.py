"""Every field of the card data has a bound, and fitting text costs O(log n) wraps of about one measure
per word (issue 29): a 200,000-character name took `muster check` minutes, one character and 0.25 pt at a time.

Costs are counted (wraps, width measurements), never timed.
"""

from __future__ import annotations

import csv
import io
import json
import math
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.load import CARDS_ROOT, MAX_DEPTH, MAX_NAME, MAX_NUMBER, MAX_TEXT, NAME_FIELDS, load_game
from cards.problems import DataError
from generator import fonts, text
from generator.canvas import Box

GAMES = ("waterloo", "warfare", "hexbattle", "imperial", "medieval")
QUICK = settings(max_examples=40, derandomize=True, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _toml(value: Any) -> str:
    """A value as TOML inline text (JSON's string escapes are TOML's)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)


def _leaves(value: Any, where: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, (*where, k))]
    if isinstance(value, list):
        return [leaf for k, v in enumerate(value) for leaf in _leaves(v, (*where, str(k)))]
    return [where]


def _set(data: Any, where: tuple[str, ...], value: Any) -> None:
    for part in where[:-1]:
        data = data[int(part)] if isinstance(data, list) else data[part]
    if isinstance(data, list):
        data[int(where[-1])] = value
    else:
        data[where[-1]] = value


TOML_FIELDS = [(game, leaf) for game in GAMES
               for leaf in _leaves(tomllib.loads((CARDS_ROOT / game / "game.toml").read_text(encoding="utf-8")))]


def _csv_columns() -> list[tuple[str, str, str]]:
    out = []
    for game in GAMES:
        for path in sorted((CARDS_ROOT / game).glob("*.csv")):
            header = next(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
            out.extend((game, path.name, column.strip()) for column in header)
    return out


CSV_COLUMNS = _csv_columns()


def _oversize(old: Any, field: str, over: int) -> Any:
    """A value `over` beyond the bound of a field whose shipped value is `old`."""
    if isinstance(old, bool) or not isinstance(old, (int, float)):
        return "x" * ((MAX_NAME if field in NAME_FIELDS else MAX_TEXT) + over)
    return (MAX_NUMBER + over) * (-1 if over % 2 else 1)


def _copy(tmp: Path, game: str) -> Path:
    root = tmp / "cards"
    shutil.copytree(CARDS_ROOT / game, root / game)
    return root


@QUICK
@given(where=st.sampled_from(TOML_FIELDS), over=st.integers(1, 5_000))
def test_every_game_toml_field_beyond_its_bound_is_refused_naming_file_field_and_limit(
        tmp_path_factory: pytest.TempPathFactory, where: tuple[str, tuple[str, ...]], over: int) -> None:
    game, leaf = where
    root = _copy(tmp_path_factory.mktemp("bounds"), game)
    path = root / game / "game.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    old = data
    for part in leaf:
        old = old[int(part)] if isinstance(old, list) else old[part]
    bad = _oversize(old, leaf[-1], over)
    _set(data, leaf, bad)
    path.write_text("\n".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in data.items()) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_game(game, root)
    limit = MAX_NAME if isinstance(bad, str) and leaf[-1] in NAME_FIELDS else MAX_TEXT if isinstance(bad, str) else MAX_NUMBER
    named = [p for p in err.value.problems if p.file == str(path) and p.field == ".".join(leaf)]
    assert named and f"{limit:,}" in named[0].message, [str(p) for p in err.value.problems]


@QUICK
@given(where=st.sampled_from(CSV_COLUMNS), over=st.integers(1, 1_500))
def test_every_csv_column_beyond_its_bound_is_refused_naming_file_line_field_and_limit(
        tmp_path_factory: pytest.TempPathFactory, where: tuple[str, str, str], over: int) -> None:
    game, filename, column = where
    root = _copy(tmp_path_factory.mktemp("bounds"), game)
    path = root / game / filename
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    index = [c.strip() for c in rows[0]].index(column)
    limit = MAX_NAME if column in NAME_FIELDS else MAX_TEXT
    rows[1][index] = "x" * (limit + over)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_game(game, root)
    named = [p for p in err.value.problems if p.file == str(path) and p.field == column and p.line == 2]
    assert named and str(limit) in named[0].message, [str(p) for p in err.value.problems]


def test_toml_nested_past_the_parser_is_refused_in_words(tmp_path: Path) -> None:
    root = _copy(tmp_path, "waterloo")
    path = root / "waterloo" / "game.toml"
    path.write_text(path.read_text(encoding="utf-8") + "deep = " + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_game("waterloo", root)
    assert [p.message for p in err.value.problems] == [f"not valid TOML here: values nested more than {MAX_DEPTH} deep"]


class Counted:
    """Counts calls of a real function (it still runs)."""

    def __init__(self, function: Any) -> None:
        self.function, self.calls = function, 0

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        return self.function(*args)


WORDS = st.one_of(st.text("abcWi", min_size=1, max_size=12), st.text("NW", min_size=30, max_size=3_000),
                  st.just(text.icon_token("sword") + "x"), st.just("\n"))


@settings(max_examples=60, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(WORDS, max_size=200), w=st.floats(2, 80), h=st.floats(2, 60), size=st.sampled_from([6.0, 9.5, 14.0, 30.0]))
def test_fitting_costs_log_n_wraps_of_about_one_measure_per_word(
        monkeypatch: pytest.MonkeyPatch, words: list[str], w: float, h: float, size: float) -> None:
    """At most ⌈log2 sizes⌉ + 2 wraps, and per wrap a few width measurements per word and per line,
    never one per character of a long word (a 3,000-character word is cut by running sums)."""
    body, box = " ".join(words), Box(0, 0, w, h)
    most_lines = len(text.wrap(body, "DejaVuSans", text.FLOOR, w)) + len(text.wrap(body, "DejaVuSans", size, w))
    wraps, widths = Counted(text.wrap), Counted(fonts.width)
    monkeypatch.setattr(text, "wrap", wraps)
    monkeypatch.setattr(fonts, "width", widths)
    fitted = text.fit.__wrapped__(body, "DejaVuSans", size, 4.0, box)
    steps = len(text._sizes(size))
    assert wraps.calls <= math.ceil(math.log2(steps)) + 2
    pieces = sum(1 for word in body.split()) + most_lines
    assert widths.calls <= wraps.calls * (3 * pieces + 4)
    assert fitted.size >= text.FLOOR or size < text.FLOOR


@settings(max_examples=40, derandomize=True, deadline=None, database=None)
@given(words=st.lists(WORDS, max_size=60), w=st.floats(2, 80), h=st.floats(2, 60), size=st.sampled_from([6.0, 9.5, 14.0]))
def test_the_fit_is_the_largest_size_that_fits_and_every_line_fits(words: list[str], w: float, h: float, size: float) -> None:
    """Halving finds what stepping down 0.25 pt at a time found: the first size that fits, or FLOOR."""
    body, box = " ".join(words), Box(0, 0, w, h)
    fitted = text.fit.__wrapped__(body, "DejaVuSans", size, 4.0, box)
    sizes = text._sizes(size)
    first = next((s for s in sizes if text._at(body, "DejaVuSans", s, box)[1]), sizes[-1])
    assert fitted.size == first
    assert fitted.lines == tuple(text.wrap(body, "DejaVuSans", first, w))

