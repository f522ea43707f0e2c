"""The rules booklets' diagrams, each drawn from the game's data where a player reads it in the text.

A diagram is `draw(flow, lead)`: it places itself on the booklet's current page (after `lead`, the
headings that must stay with it), through the flow of generator/booklet.py. `DIAGRAMS` names them
per game; `::: diagram NAME` in cards/<game>/rules.md puts one in the text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cards.layout import Layout, game_layout
from cards.load import GameData
from generator.booklet_flow import Flow, booklet_layout, rich, table
from generator.canvas import Box, Canvas
from generator.combo_cards import CARD, LEGEND, MAKE_UP_WIDTH, make_up
from generator.hex_diagrams import (
    Ink,
    charge_example,
    draw_arcs,
    draw_charge,
    draw_fire,
    draw_sight,
    fire_example,
    label,
)
from generator.reference import (
    Cell,
    Sheet,
    battlefield,
    beats_triangle,
    counter_cycle,
    formation_table,
    terrain_table,
    unit_table,
)

Lead = Callable[[Sheet], None] | None


def _room(flow: Flow, name: str) -> Any:
    assert flow.layout.booklet is not None
    return flow.layout.booklet.diagrams[name]


def _place_box(flow: Flow, lead: Lead, room: str, draw: Callable[[Sheet, Box], None], what: str) -> None:
    def block(s: Sheet) -> None:
        if lead:
            lead(s)
        draw(s, s.diagram(_room(flow, room)))
    flow.place(block, what)


# ---------------------------------------------------------------- waterloo: the combo table

def combos(flow: Flow, lead: Lead) -> None:
    """Every combo, strongest first: its cards drawn, what it takes, and how two of it are compared."""
    game = flow.game
    rows = [[str(k), combo.name, make_up(game, flow.layout, combo.parts), f"{combo.takes}. Ties: {combo.ties}."]
            for k, combo in enumerate(game.rules.combos, start=1)]
    width = MAKE_UP_WIDTH + 2.2
    area = flow.area(2).w
    shares = [0.06, 0.2, width / area, 1 - 0.26 - width / area]
    table(flow, ["#", "Combo", "Cards", "What it takes; ties"], rows, shares, lead, min_row=CARD[1])
    flow.place(lambda s: s.paragraph(LEGEND, "small"), "the combo legend")


SHOWDOWN = {  # an example showdown: what three players hold, not a rule
    "Ann": ("line-infantry", "line-infantry", "lancers", "eight-pounders", "captain"),
    "Bob": ("guard-infantry", "guard-infantry", "hussars", "hussars", "dragoon"),
    "Cleo": ("militia", "militia", "magazine", "six-pounders", "sergeant"),
}


def showdown(flow: Flow, lead: Lead) -> None:
    """The example showdown, scored by the engine's evaluator: each hand's best combo, what a wild card
    stood for, and the order the hands finish in."""
    from engine.waterloo_hands import Evaluator

    game = flow.game
    evaluator = Evaluator(game)
    names = {row.id: row.name for row in game.table("cards")}
    copies: dict[str, int] = {}
    hands: dict[str, list[str]] = {}
    for player, designs in SHOWDOWN.items():
        hand = []
        for design in designs:
            copies[design] = copies.get(design, 0) + 1
            hand.append(f"{design}-{copies[design]}")
        hands[player] = hand
    order = sorted(hands, key=lambda p: evaluator.key(hands[p]))
    rows: list[list[Cell]] = []
    for place, player in enumerate(order, start=1):
        told = evaluator.explain(hands[player])
        wild = "; ".join(f"{names[evaluator.design_of[c].id]} as {what}" for c, what in told.wilds.items())
        rows.append([str(place), player, ", ".join(names[d] for d in SHOWDOWN[player]),
                     told.name + (f" ({wild})" if wild else "")])
    table(flow, ["Place", "Player", "Hand", "Best combo"], rows, [0.09, 0.11, 0.46, 0.34], lead)


# ---------------------------------------------------------------- warfare, imperial, medieval

def counters(flow: Flow, lead: Lead) -> None:
    def draw(s: Sheet, box: Box) -> None:
        counter_cycle(s, box, flow.game)
    _place_box(flow, lead, "beats", draw, "the counter cycle")


def beats(flow: Flow, lead: Lead) -> None:
    _place_box(flow, lead, "beats", lambda s, box: beats_triangle(s, box, flow.game), "who beats whom")


def field(flow: Flow, lead: Lead) -> None:
    _place_box(flow, lead, "battlefield", lambda s, box: battlefield(s, box, flow.game), "the battlefield")


# ---------------------------------------------------------------- hexbattle

def arcs(flow: Flow, lead: Lead) -> None:
    _place_box(flow, lead, "arcs", lambda s, box: draw_arcs(s.c, s.layout, box, flow.game), "the arcs diagram")


def sight(flow: Flow, lead: Lead) -> None:
    _place_box(flow, lead, "sight", lambda s, box: draw_sight(s.c, s.layout, box, flow.game),
               "the line-of-sight diagram")


def _worked(flow: Flow, lead: Lead, text: str, room: str, draw: Callable[[Canvas, Layout, Box, GameData], None],
            what: str) -> None:
    """A worked example: its sentence, then its dice."""
    def sentence(s: Sheet) -> None:
        if lead:
            lead(s)
        rich(s, text)

    flow.place(sentence, what)
    _place_box(flow, None, room, lambda s, box: draw(s.c, s.layout, box, flow.game), f"{what}'s dice")


def charge(flow: Flow, lead: Lead) -> None:
    _worked(flow, lead, charge_example(flow.game)[0], "charge", draw_charge, "the worked charge")


def fire(flow: Flow, lead: Lead) -> None:
    _worked(flow, lead, fire_example(flow.game)[0], "fire", draw_fire, "the worked volley")


def units(flow: Flow, lead: Lead) -> None:
    spec = flow.layout.sheet_settings().hexbattle
    table(flow, *unit_table(flow.game), spec.units, lead)


def formations(flow: Flow, lead: Lead) -> None:
    spec = flow.layout.sheet_settings().hexbattle
    table(flow, *formation_table(flow.game), spec.formations, lead)


def terrain(flow: Flow, lead: Lead) -> None:
    spec = flow.layout.sheet_settings().hexbattle
    caption = flow.layout.fonts["small"].min_size
    table(flow, *terrain_table(flow.game, spec.icon, caption), spec.terrain, lead, min_row=spec.icon)


DIAGRAMS: dict[str, dict[str, Callable[[Flow, Lead], None]]] = {
    "waterloo": {"combos": combos, "showdown": showdown},
    "warfare": {"counters": counters},
    "imperial": {"beats": beats},
    "medieval": {"battlefield": field},
    "hexbattle": {"charge": charge, "fire": fire, "units": units, "formations": formations, "terrain": terrain, "arcs": arcs, "sight": sight},
}
