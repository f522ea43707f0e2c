"""The imperial data: the shared Military supply, the tokens, rule constants and the schema's checks."""

from __future__ import annotations

from pathlib import Path

from data_helpers import problems_of, rewrite_csv

from cards import load_game
from cards.schemas.imperial import TYPES, face


def test_r1_supply_is_sixty_cards_twenty_of_each_type() -> None:
    data = load_game("imperial")
    deck = data.deck("military")
    assert len(deck) == data.rules.supply_size == 60
    assert {t: sum(1 for c in deck if c.type == t) for t in TYPES} == {t: 20 for t in TYPES}
    assert len({c.id for c in deck}) == 60


def test_rule_constants_match_the_seed() -> None:
    r = load_game("imperial").rules
    assert (r.max_draw, r.auto_win_ratio, r.exchange_count, r.gold_cost) == (12, 2, 2, 1)
    assert r.rifling_rounds == [4, 5]
    assert (r.cavalry_infantry_discards, r.rout_ratio, r.reinforcement_calls) == (2, 2, 1)


def test_tokens_cover_every_kind_with_one_marker_per_side() -> None:
    tokens = load_game("imperial").table("tokens")
    copies: dict[str, int] = {}
    for row in tokens:
        copies[row.kind] = copies.get(row.kind, 0) + row.copies
    assert set(copies) == {"imperial_power", "gold", "reserve", "reinforcement"}
    assert copies["reserve"] >= 2 and copies["reinforcement"] >= 2


def test_faces_use_the_shared_symbols() -> None:
    data = load_game("imperial")
    symbols = {face(row).symbol for row in data.table("military")}
    assert symbols == {"pike", "musket", "cavalry"}
    assert {face(row).symbol for row in data.table("tokens")} == {"token"}
    pikemen = face(data.by_id("military")["pikemen"])
    assert (pikemen.title, pikemen.kind, pikemen.corner) == ("Pikemen", "Military", "P")
    assert face(data.by_id("tokens")["gold-5"]).corner == "5"


def test_supply_size_mismatch_is_reported(cards_copy: Path) -> None:
    path = cards_copy / "imperial" / "military.csv"
    rewrite_csv(path, lambda rows: rows[3].__setitem__(4, "19"))  # Cavalry copies
    assert problems_of(cards_copy, "imperial") == [
        f"{path}: [copies = 59] the supply has 59 cards but rules.supply_size says 60"]


def test_missing_type_and_missing_token_are_reported_together(cards_copy: Path) -> None:
    military = cards_copy / "imperial" / "military.csv"
    tokens = cards_copy / "imperial" / "tokens.csv"
    rewrite_csv(military, lambda rows: rows[2].__setitem__(4, "0"))  # no Musketeers
    rewrite_csv(tokens, lambda rows: rows[6].__setitem__(5, "1"))   # one Reinforcement Marker
    assert problems_of(cards_copy, "imperial") == [
        f"{military}: [copies = 40] the supply has 40 cards but rules.supply_size says 60",
        f"{military}: [type = 'musketeers'] no Musketeers in the supply: every type needs copies",
        f"{tokens}: [copies = 1] each side needs its own Reinforcement token: print at least 2",
    ]


def test_supply_too_small_for_two_draws(cards_copy: Path) -> None:
    toml = cards_copy / "imperial" / "game.toml"
    text = toml.read_text().replace("max_draw = 12", "max_draw = 40")
    toml.write_text(text)
    assert problems_of(cards_copy, "imperial") == [
        f"{toml}:14: [rules.max_draw = 40] two sides may draw 84 cards (max_draw and exchange_count) "
        "but the supply holds 60"]


def test_bad_default_initiative_and_unknown_type(cards_copy: Path) -> None:
    toml = cards_copy / "imperial" / "game.toml"
    toml.write_text(toml.read_text().replace("initiative = [0, 1]", "initiative = [1, 1]"))
    assert problems_of(cards_copy, "imperial") == [
        f"{toml}:36: [rules.default_options.initiative = [1, 1]] initiative must list both sides once: [0, 1] or [1, 0]"]
    military = cards_copy / "imperial" / "military.csv"
    rewrite_csv(military, lambda rows: rows[1].__setitem__(2, "archers"))
    [message] = problems_of(cards_copy, "imperial")
    assert message.startswith(f"{military}:2: [type = 'archers'] Input should be 'pikemen', 'musketeers' or 'cavalry'")


def beats_edit(root: Path, old: str, new: str) -> Path:
    """Rewrite one line of game.toml's [rules.beats] table; returns the file."""
    toml = root / "imperial" / "game.toml"
    text = toml.read_text()
    assert old in text
    toml.write_text(text.replace(old, new))
    return toml


def line_of(toml: Path, start: str) -> int:
    return next(n for n, line in enumerate(toml.read_text().splitlines(), 1) if line.startswith(start))


def test_matchups_are_data_and_read_round_the_triangle() -> None:
    beats = load_game("imperial").rules.beats.as_dict()
    assert beats == {"pikemen": "cavalry", "musketeers": "pikemen", "cavalry": "musketeers"}


def test_unknown_types_in_the_matchups_are_located(cards_copy: Path) -> None:
    toml = beats_edit(cards_copy, 'cavalry = "musketeers"', 'cavalry = "archers"\narchers = "pikemen"')
    assert problems_of(cards_copy, "imperial") == [
        f"{toml}:{line_of(toml, 'cavalry =')}: [rules.beats.cavalry = 'archers'] "
        "Input should be 'pikemen', 'musketeers' or 'cavalry'",
        f"{toml}:{line_of(toml, 'archers =')}: [rules.beats.archers = 'pikemen'] unknown field"]


def test_matchups_must_give_every_type_one_winner_and_one_loser(cards_copy: Path) -> None:
    toml = beats_edit(cards_copy, 'musketeers = "pikemen"', 'musketeers = "cavalry"')
    table = line_of(toml, "[rules.beats]")
    assert problems_of(cards_copy, "imperial") == [
        f"{toml}:{table}: [rules.beats] Pikemen is beaten by nothing: every type must be beaten by exactly one other",
        f"{toml}:{table}: [rules.beats] Cavalry is beaten by Pikemen and Musketeers: every type must be beaten "
        "by exactly one other"]


def test_a_type_may_not_beat_itself(cards_copy: Path) -> None:
    toml = beats_edit(cards_copy, 'pikemen = "cavalry"', 'pikemen = "pikemen"')
    [itself, nothing] = problems_of(cards_copy, "imperial")
    assert itself == (f"{toml}:{line_of(toml, 'pikemen =')}: [rules.beats.pikemen = 'pikemen'] Pikemen cannot "
                      "beat itself: two cards of one type are both lost")
    assert nothing.endswith("[rules.beats] Cavalry is beaten by nothing: every type must be beaten by exactly one other")
