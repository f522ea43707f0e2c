"""Table options as players choose them (issue 30): named controls and presets from each game's `[options]`,
checked against their controls, and every preset a table the engine accepts."""

from __future__ import annotations

import pytest
from apptest_helpers import page

from cards import load_game
from cards import options as table_options
from companion.tables import Tables, catalogue
from engine.core import Match

GAMES = ["waterloo", "warfare", "hexbattle", "imperial", "medieval"]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_preset_is_a_table_the_engine_accepts(game_id: str) -> None:
    entry = catalogue()[game_id]
    data, game = entry.data, entry.game
    assert data is not None and game is not None
    seats = data.min_players
    for preset in data.options.presets:
        values = table_options.preset_values(data.options, preset, data.rules)
        assert table_options.check(data.options, values, data.rules, seats) == []
        options = game.table_options(table_options.engine_options(values), seats)
        Match(game, "preset", options)
    # the first preset is the standard game: the engine's own defaults, so a table made with it plays as before
    if data.options.presets:
        standard = table_options.preset_values(data.options, data.options.presets[0], data.rules)
        assert Match(game, "s", table_options.engine_options(standard)).state.view(None) == \
            Match(game, "s", {}).state.view(None)


def test_a_wrong_value_is_named_by_its_control() -> None:
    data = load_game("waterloo")
    check = table_options.check
    assert check(data.options, {"starting_chips": 5}, data.rules, 2) == [
        "Starting chips is a whole number from 10 to 10000."]
    assert check(data.options, {"betting_rounds": 3}, data.rules, 2) == [
        "Betting rounds in a hand is one of: 4 rounds, 2 rounds."]
    assert check(data.options, {"colour": "red"}, data.rules, 2) == ["There is no option called 'colour' on this form."]
    imperial = load_game("imperial")
    assert check(imperial.options, {"gold": [1]}, imperial.rules, 2) == ["Gold needs one number for each of the 2 seats."]


def test_a_preset_a_control_cannot_show_is_a_data_problem() -> None:
    data = load_game("waterloo")
    broken = table_options.read({"fields": [f.model_dump(exclude_none=True) for f in data.options.fields],
                                 "presets": [{"name": "Tiny", "about": "a few chips", "values": {"starting_chips": 1}}]})
    [problem] = table_options.data_problems(broken, data.rules, 2, "game.toml")
    assert problem.message == "preset 'Tiny': Starting chips is a whole number from 10 to 10000."


def test_a_preset_fills_the_form_and_makes_the_table(service: Tables) -> None:
    at = page()
    at.selectbox(key="new-game").set_value("waterloo").run()
    assert at.radio(key="preset-waterloo").options == ["Standard", "Quick game", "Learning"]
    labels = [w.label for kind in ("radio", "number_input", "toggle") for w in getattr(at, kind)]
    assert "Starting chips" in labels and not [label for label in labels if "_" in label]
    at.radio(key="preset-waterloo").set_value("Quick game").run()
    assert at.number_input(key="opt-waterloo-1-starting_chips").value == 50
    at.button(key="FormSubmitter:new-waterloo-Create table").click().run()
    assert not at.exception, at.exception
    created = service.store.tables()[0]
    assert created.options["starting_chips"] == 50 and created.options["betting_rounds"] == 2


def test_the_coin_flip_leaves_the_option_to_the_engine(service: Tables) -> None:
    at = page()
    at.selectbox(key="new-game").set_value("warfare").run()
    assert at.radio(key="opt-warfare-0-first_player").value == "A coin flip decides"
    at.button(key="FormSubmitter:new-warfare-Create table").click().run()
    assert not at.exception, at.exception
    assert "first_player" not in service.store.tables()[0].options
