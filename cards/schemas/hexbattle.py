"""Hexbattle: armies, unit types, formations, terrain tiles and bonus cards for the hex-map battle.

The generator reads these tables to draw terrain tiles (`symbol` names the art, the numeric
columns give the effect icons), unit counters (`symbol`, `strength`, `movement`, `range`,
a facing mark), formation markers and the bonus cards; the engine reads every number from here.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cards.load import CardFace, CardRow, GameData, Row
from cards.problems import Problem

UnitKind = Literal["infantry", "cavalry", "artillery"]
CardKind = Literal["offensive", "defensive", "nothing"]
Effect = Literal[
    "free_move", "charge_dice", "volley_fire", "forced_march", "rally", "ambush", "entrench",
    "fog_of_war", "extra_action", "artillery_barrage", "regroup", "supply_run", "bold_advance",
    "reserve_fire", "engineers", "skirmisher_screen", "heroic_defence", "double_time",
    "cannon_blast", "rout", "nothing",
]
# What a card asks the player to choose when it is played.
Target = Literal["none", "own_unit", "own_damaged_unit", "own_damaged_units", "own_infantry",
                 "own_artillery", "own_shooter"]
DEFENSIVE_EFFECTS = {"entrench", "reserve_fire", "skirmisher_screen", "heroic_defence"}


class Army(Row):
    """One side; the row order is the seat order (player 0, player 1)."""

    colour: str = Field(min_length=1)
    colour_hex: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    home_edge: Literal["top", "bottom"]
    letter: str = Field(pattern=r"^[A-Z]$")  # printed on its counters and markers: the armies differ without colour


class UnitType(CardRow):
    """A unit counter design; `copies` is how many each army fields."""

    kind: UnitKind
    symbol: str
    strength: int = Field(ge=1, le=6)
    movement: int = Field(ge=0, le=12)
    uses_formations: bool = False        # movement and close-combat bonus come from the formation
    melee_bonus: int = Field(ge=-6, le=6)
    can_melee: bool                      # may start a close combat (artillery always fires instead)
    range: int = Field(ge=0, le=20)      # 0: no ranged fire
    turns_to_fire: bool = False          # ends each shot facing its target, one step at most (R16)
    can_pivot: bool                      # may spend an action to face any direction
    can_reverse: bool                    # may back straight into its rear hex
    movement_per_turn: bool = False      # its movement points last the whole turn, shared by its Moves
    broken_at: int = Field(default=0, ge=0, le=5)  # broken at or below this strength; a loss then destroys it
    enters_infantry_only_terrain: bool
    text: str = ""


class Formation(Row):
    """An infantry formation marker."""

    movement: int = Field(ge=0, le=12)
    melee_attack_bonus: int = Field(ge=-6, le=6)
    melee_defence_bonus: int = Field(ge=-6, le=6)
    defence_vs_cavalry: int | None = Field(default=None, ge=-6, le=12)   # replaces the defence bonus
    defence_vs_infantry: int | None = Field(default=None, ge=-6, le=12)
    can_charge: bool
    full_volley: bool                    # fires a die per strength point
    fire_dice: int = Field(ge=0, le=6)   # dice when not a full volley
    fire_all_round: bool
    facing_immune: bool                  # no flank or rear penalty when defending
    text: str = ""


class Terrain(CardRow):
    """A terrain tile design; `copies` is how many tiles the tile deck holds."""

    symbol: str
    move_cost: int = Field(ge=1, le=6)   # movement points to enter
    takes_all_movement: bool             # entering or leaving ends the move
    infantry_only: bool
    impassable: bool
    blocks_los: bool
    guns_see_over_units: bool            # artillery here sees over units (not over terrain that blocks sight)
    melee_defence_bonus: int = Field(ge=-6, le=6)
    replaces_formation_bonus: bool       # the terrain bonus replaces the defender's formation bonus
    fire_from_modifier: int = Field(ge=-3, le=3)  # added to the hit number of fire from this hex
    fire_into_modifier: int = Field(ge=-3, le=3)  # added to the hit number of fire into this hex
    fire_line_modifier: int = Field(default=0, ge=-3, le=3)  # added once to a shot from, into or through it
    no_combat: bool                      # units inside may not attack or be attacked
    garrison_fire_dice: int | None = Field(default=None, ge=0, le=6)  # infantry here fire this many dice all round
    exit_formation: str | None = None    # infantry leaving take this formation
    text: str = ""


class BonusCard(CardRow):
    kind: CardKind
    effect: Effect
    amount: int = Field(ge=0, le=10)
    target: Target
    text: str = Field(min_length=1)


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")

    map_columns: int = Field(ge=3, le=40)
    map_rows: int = Field(ge=3, le=40)
    start_terrain: str
    start_formation: str
    die_sides: int = Field(ge=2)
    actions_per_turn: int = Field(ge=1)
    max_actions: int = Field(ge=1)
    bonus_hand_limit: int = Field(ge=0)
    turn_limit: int = Field(ge=1)
    turn_cost: int = Field(ge=0)
    reverse_cost: int = Field(ge=0)
    hit_max: int = Field(ge=0)
    counter_battery_hit_max: int = Field(ge=0)
    point_blank_range: int = Field(ge=0)
    point_blank_multiplier: int = Field(ge=1)
    split_block_max: int = Field(ge=0)
    screen_unit: str                     # the unit type a Skirmisher Screen needs on the field
    front_flank_penalty: int = Field(ge=0)
    side_flank_penalty: int = Field(ge=0)
    rear_penalty: int = Field(ge=0)


class Board(BaseModel):
    """`[layout.board]`: the printed map (generator/hexbattle_parts.py), in mm."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    margin: float = Field(ge=0, le=100)        # paper around the hexes, for the army labels
    start_tint: float = Field(ge=0, le=1)      # starting-row hexes: army colour mixed this much with white
    page_margin: float = Field(ge=0, le=50)    # kept clear at the paper edge when the board spans pages
    glue: float = Field(ge=0, le=50)           # strip that goes under the neighbouring page


class Layout(BaseModel):
    """hexbattle's own `[layout]` keys: which layouts the printed parts use, and the board."""

    model_config = ConfigDict(extra="ignore")

    hex_orientation: Literal["flat"]
    offset: Literal["odd-q"]
    tile_layout: str
    counter_layout: str
    marker_layout: str
    board: Board


RULES = Rules
LAYOUT = Layout
TABLES = {"armies": Army, "units": UnitType, "formations": Formation, "terrain": Terrain, "bonus_cards": BonusCard}

CARD_SYMBOLS: dict[str, str | None] = {
    "free_move": "leader", "charge_dice": "cavalry", "volley_fire": "artillery", "forced_march": "leader",
    "rally": "morale", "ambush": "event", "entrench": "infantry", "fog_of_war": "event",
    "extra_action": "leader", "artillery_barrage": "artillery", "regroup": "officer",
    "supply_run": "token", "bold_advance": "infantry", "reserve_fire": "musket", "engineers": "terrain",
    "skirmisher_screen": "cavalry", "heroic_defence": "morale", "double_time": "infantry",
    "cannon_blast": "artillery", "rout": "event", "nothing": "blunder",
}
KIND_NAMES = {"offensive": "Offensive", "defensive": "Defensive", "nothing": "No effect"}


def face(row: CardRow) -> CardFace:
    """The printed face of a bonus card, a terrain tile or a unit counter."""
    if isinstance(row, BonusCard):
        corner = {"offensive": "⚔", "defensive": "♜"}.get(row.kind, "")
        return CardFace(title=row.name, kind=KIND_NAMES[row.kind], corner=corner, text=row.text,
                        symbol=CARD_SYMBOLS[row.effect], icon=row.icon)
    if isinstance(row, Terrain):
        return CardFace(title=row.name, kind="Terrain", corner="", text=row.text, symbol="terrain")
    if isinstance(row, UnitType):
        corner = f"{row.strength}-{row.movement}" + (f"-{row.range}" if row.range else "")
        return CardFace(title=row.name, kind=row.kind.capitalize(), corner=corner, text=row.text, symbol=row.symbol)
    raise TypeError(f"no printed face for {type(row).__name__}")


def check(data: GameData) -> list[Problem]:
    """Cross-table checks: references, army and deck sizes, rule constants that must agree."""
    rules: Rules = data.rules
    where = str(data.folder / "game.toml")
    problems: list[Problem] = []
    terrain = data.by_id("terrain")
    formations = data.by_id("formations")
    if len(data.table("armies")) != 2:
        problems.append(Problem(str(data.files["armies"]), "there must be exactly two armies",
                                field="id", value=len(data.table("armies"))))
    elif {a.home_edge for a in data.table("armies")} != {"top", "bottom"}:
        problems.append(Problem(str(data.files["armies"]), "one army starts at the top edge and one at the bottom",
                                field="home_edge"))
    elif len({a.letter for a in data.table("armies")}) != 2:
        problems.append(Problem(str(data.files["armies"]), "the two armies need different letters (printed on "
                                                           "their pieces, so they differ without colour)",
                                field="letter", value=data.table("armies")[0].letter))
    if rules.start_terrain not in terrain:
        problems.append(Problem(where, f"start_terrain must be a terrain id ({', '.join(terrain)})",
                                field="rules.start_terrain", value=rules.start_terrain))
    elif terrain[rules.start_terrain].impassable or terrain[rules.start_terrain].infantry_only:
        problems.append(Problem(where, "start_terrain must be passable by every unit",
                                field="rules.start_terrain", value=rules.start_terrain))
    if rules.start_formation not in formations:
        problems.append(Problem(where, f"start_formation must be a formation id ({', '.join(formations)})",
                                field="rules.start_formation", value=rules.start_formation))
    for row in data.table("terrain"):
        if row.exit_formation is not None and row.exit_formation not in formations:
            problems.append(Problem(str(data.files["terrain"]), f"exit_formation of {row.id} is not a formation id",
                                    field="exit_formation", value=row.exit_formation))
    hidden = rules.map_columns * (rules.map_rows - 2)
    tiles = len(data.deck("terrain"))
    if tiles < hidden:
        problems.append(Problem(str(data.files["terrain"]),
                                f"the tile deck has {tiles} tiles but the map has {hidden} hexes to reveal",
                                field="copies", value=tiles))
    units = data.table("units")
    per_army = sum(u.copies for u in units)
    if per_army > rules.map_columns:
        problems.append(Problem(str(data.files["units"]),
                                f"an army of {per_army} units does not fit on a starting row of {rules.map_columns} hexes",
                                field="copies", value=per_army))
    for row in units:
        if row.broken_at >= row.strength:
            problems.append(Problem(str(data.files["units"]), f"{row.id} would be broken at full strength "
                                    f"(broken_at {row.broken_at}, strength {row.strength})",
                                    field="broken_at", value=row.broken_at))
    if not any(u.kind == "infantry" and u.copies for u in units):
        problems.append(Problem(str(data.files["units"]), "an army needs infantry to reach the enemy's row",
                                field="kind"))
    for row in data.table("bonus_cards"):
        if (row.kind == "defensive") != (row.effect in DEFENSIVE_EFFECTS):
            problems.append(Problem(str(data.files["bonus_cards"]),
                                    f"{row.id}: effect {row.effect} is {'a guard' if row.effect in DEFENSIVE_EFFECTS else 'not a guard'}"
                                    f" but kind is {row.kind}", field="kind", value=row.kind))
    if rules.screen_unit not in data.by_id("units"):
        problems.append(Problem(where, "screen_unit must be a unit id", field="rules.screen_unit",
                                value=rules.screen_unit))
    if rules.max_actions < rules.actions_per_turn:
        problems.append(Problem(where, "max_actions is less than actions_per_turn",
                                field="rules.max_actions", value=rules.max_actions))
    return problems
