"""A game's table options as players choose them: named controls and presets, from `[options]` in game.toml.

The engine checks options (`Game.table_options`); this says how a new-table form asks for them, so the
companion draws every game's options from data with one piece of code, and no player ever types a key.
Each field is a control with a label players read (a choice of named values, a number in a range, an
on/off switch, or a number per seat); each preset ("Standard", "Quick game", "Learning") is a named set of
values over the fields' defaults, and says in a sentence what it is for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cards.problems import Problem

MAX_LABEL = 48
MAX_ABOUT = 240


class Choice(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    value: Any = None
    """None (left out in game.toml): the option is not set, and the engine does what its rules say."""
    label: str = Field(min_length=1, max_length=MAX_LABEL)


class OptionField(BaseModel):
    """One control of the new-table form; `key` is the engine's option, never shown to a player."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=MAX_LABEL)
    label: str = Field(min_length=1, max_length=MAX_LABEL)
    kind: Literal["choice", "number", "toggle", "per_seat"]
    help: str = Field(default="", max_length=MAX_ABOUT)
    choices: list[Choice] = Field(default_factory=list)
    choices_from: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_]*$")
    """A `[rules]` list whose entries are the choices (labelled by `choice_label`), so a rule's values live once."""
    choice_label: str = Field(default="{value}", max_length=MAX_LABEL)
    min: int = 0
    max: int = 999
    default: Any = None
    """None: `[rules.default_options]`'s entry of the same key (a game whose rules hold them), else a choice's first."""

    @model_validator(mode="after")
    def _shape(self) -> OptionField:
        if self.kind == "choice" and not (self.choices or self.choices_from):
            raise ValueError(f"the choice '{self.label}' needs choices or choices_from")
        if self.kind != "choice" and (self.choices or self.choices_from):
            raise ValueError(f"only a choice has choices ('{self.label}' is a {self.kind})")
        if self.min > self.max:
            raise ValueError(f"'{self.label}': min is more than max")
        return self


class Preset(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=MAX_LABEL)
    about: str = Field(min_length=1, max_length=MAX_ABOUT)
    values: dict[str, Any] = Field(default_factory=dict)


class TableOptions(BaseModel):
    """`[options]` of a game.toml: its fields in form order, and its presets, the first being the standard game."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    fields: list[OptionField] = Field(default_factory=list)
    presets: list[Preset] = Field(default_factory=list)


def read(raw: Mapping[str, Any] | None) -> TableOptions:
    return TableOptions.model_validate(raw or {})


def choices(spec: OptionField, rules: Any) -> list[Choice]:
    """A choice field's named values: its own, or each entry of the `[rules]` list it names."""
    if spec.choices:
        return spec.choices
    listed = getattr(rules, spec.choices_from or "", None)
    return [Choice(value=v, label=spec.choice_label.format(value=v)) for v in listed] if isinstance(listed, list) else []


def default(spec: OptionField, rules: Any) -> Any:
    if spec.default is not None:
        return spec.default
    kept = getattr(getattr(rules, "default_options", None), spec.key, None)
    if kept is not None or spec.kind != "choice":
        return kept
    return choices(spec, rules)[0].value


def engine_options(values: Mapping[str, Any]) -> dict[str, Any]:
    """A form's values as the engine takes them: a choice that leaves its option out is left out."""
    return {key: value for key, value in values.items() if value is not None}


def preset_values(options: TableOptions, preset: Preset, rules: Any) -> dict[str, Any]:
    """Every field's value under a preset: the preset's own, else the field's default."""
    return {f.key: preset.values.get(f.key, default(f, rules)) for f in options.fields}


def problem(spec: OptionField, value: Any, rules: Any, seats: int) -> str | None:
    """What is wrong with one chosen value, in the words of its control, or None."""
    if spec.kind == "choice":
        named = choices(spec, rules)
        return None if any(c.value == value for c in named) else (
            f"{spec.label} is one of: {', '.join(c.label for c in named)}.")
    if spec.kind == "toggle":
        return None if isinstance(value, bool) else f"{spec.label} is on or off."
    values = value if spec.kind == "per_seat" else [value]
    if spec.kind == "per_seat" and (not isinstance(value, list) or len(value) != seats):
        return f"{spec.label} needs one number for each of the {seats} seats."
    if not all(isinstance(v, int) and not isinstance(v, bool) and spec.min <= v <= spec.max for v in values):
        return f"{spec.label} is a whole number from {spec.min} to {spec.max}."
    return None


def check(options: TableOptions, values: Mapping[str, Any], rules: Any, seats: int) -> list[str]:
    """Every problem of a form's values, each naming its control (an empty list: the engine gets them)."""
    out = [p for f in options.fields if f.key in values and (p := problem(f, values[f.key], rules, seats))]
    known = {f.key for f in options.fields}
    out += [f"There is no option called {key!r} on this form." for key in values if key not in known]
    return out


def data_problems(options: TableOptions, rules: Any, seats: int, where: str) -> list[Problem]:
    """A game.toml's options checked against its rules: every field has a default, every preset's and every
    default's value is one its control can show, and preset names differ."""
    out: list[Problem] = []
    for spec in options.fields:
        if spec.kind == "choice" and not choices(spec, rules):
            out.append(Problem(where, f"the option '{spec.label}' takes its choices from '{spec.choices_from}', "
                                      "which is not a list of [rules]", field=f"options.fields.{spec.key}"))
            continue
        if spec.default is None and getattr(getattr(rules, "default_options", None), spec.key, None) is not None:
            continue  # a default `[rules.default_options]` holds: the game's schema checks it (`check(data)`)
        value = default(spec, rules)
        if value is None and spec.kind != "choice":
            out.append(Problem(where, f"the option '{spec.label}' has no default (give `default`)",
                               field=f"options.fields.{spec.key}"))
        elif (wrong := problem(spec, value, rules, seats)) is not None:
            out.append(Problem(where, f"the default is not valid: {wrong}", field=f"options.fields.{spec.key}",
                               value=value))
    names = [p.name for p in options.presets]
    for preset in options.presets:
        if names.count(preset.name) > 1:
            out.append(Problem(where, f"two presets are called '{preset.name}'", field="options.presets"))
        out += [Problem(where, f"preset '{preset.name}': {wrong}", field="options.presets", value=preset.values)
                for wrong in check(options, preset.values, rules, seats)]
    return out
