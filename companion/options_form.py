"""The new-table form's options, drawn from the game's `[options]` data (cards/options.py): a preset first,
then each option as a control that names it. Players never see an option's key or type a value."""

from __future__ import annotations

from typing import Any

import streamlit as st

from cards import GameData
from cards import options as table_options
from cards.options import OptionField, Preset


def preset(data: GameData) -> Preset | None:
    """The preset the host picks (outside the form, so its values fill the fields at once); None: no options."""
    presets = data.options.presets
    if not presets:
        return None
    names = [p.name for p in presets]
    picked = st.radio("Game options", names, captions=[p.about for p in presets], key=f"preset-{data.id}",
                      horizontal=False)
    return presets[names.index(picked)] if picked in names else presets[0]


def fields(data: GameData, chosen: Preset | None, seats: int) -> dict[str, Any]:
    """Each option's control, filled with the preset's values; the values picked, by option key."""
    if chosen is None or not data.options.fields:
        return {}
    values = table_options.preset_values(data.options, chosen, data.rules)
    at = data.options.presets.index(chosen)
    with st.expander(f"Change the {chosen.name} options"):
        return {spec.key: _control(data, spec, values[spec.key], f"opt-{data.id}-{at}-{spec.key}", seats)
                for spec in data.options.fields}


def _control(data: GameData, spec: OptionField, value: Any, key: str, seats: int) -> Any:
    helptext = spec.help or None
    if spec.kind == "toggle":
        return st.toggle(spec.label, value=bool(value), key=key, help=helptext)
    if spec.kind == "number":
        return int(st.number_input(spec.label, min_value=spec.min, max_value=spec.max, value=int(value), step=1,
                                   key=key, help=helptext))
    if spec.kind == "per_seat":
        return [int(st.number_input(f"{spec.label}, seat {p + 1}", min_value=spec.min, max_value=spec.max,
                                    value=int(value[p]), step=1, key=f"{key}-{p}", help=helptext))
                for p in range(seats)]
    named = table_options.choices(spec, data.rules)
    labels = [c.label for c in named]
    now = next((i for i, c in enumerate(named) if c.value == value), 0)
    picked = st.radio(spec.label, labels, index=now, key=key, help=helptext)
    return named[labels.index(picked)].value


def problems(data: GameData, values: dict[str, Any], seats: int) -> list[str]:
    """The form's values checked against their controls, each problem naming its control."""
    return table_options.check(data.options, values, data.rules, seats)
