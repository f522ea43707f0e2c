"""Presentation as data: card layouts (`cards/layouts.toml`) and print profiles (`cards/profiles.toml`).

Both files come from the cards folder in use (`--cards DIR` or $MUSTER_CARDS_DIR) when it holds them,
else from the shipped cards/ (cards.load.shared_file). A layout may `extends` another; a game's `[layout]` in game.toml picks layouts per card
kind or table, overrides colours and fonts, and may define its own layouts. Everything
is validated here so `muster check` reports a designer's mistake with its file.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from cards.load import CARDS_ROOT, GameData, _line_of, _problems, read_text, read_toml, shared_file
from cards.problems import DataError, Problem

LAYOUTS_FILE = CARDS_ROOT / "layouts.toml"  # the shipped files; layouts_file() and profiles_file() pick
PROFILES_FILE = CARDS_ROOT / "profiles.toml"  # the ones in use
DEFAULT_LAYOUT = "card"
SHEET_LAYOUT = "sheet"          # full pages: reference sheets and trackers
REFERENCE_LAYOUT = "reference"  # the reference sheets' tables and diagrams
BOOKLET_LAYOUT = "booklet"      # the rules booklets' A5 pages
# What the card drawer needs from every card layout (other layouts, e.g. tiles, name their own).
CARD_REGIONS = ("corner", "index", "title", "kind", "symbol", "text", "qr", "game")
CARD_BACK_REGIONS = ("symbol", "title", "subtitle")
CARD_FONTS = ("title", "kind", "corner", "index", "text", "game", "back_title", "back_subtitle")
CARD_COLOURS = ("frame", "panel", "ink", "accent", "accent_ink", "rule", "symbol", "symbol_fill",
                "back", "back_ink", "back_pattern", "qr", "qr_background")

Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]
Length = Annotated[float, Field(ge=0, le=1000)]
Share = Annotated[float, Field(gt=0, le=1)]
MAX_BACK_OFFSET = 10.0  # mm: a duplex shift beyond this is a misfed sheet, not an offset to correct
Offset = Annotated[float, Field(ge=-MAX_BACK_OFFSET, le=MAX_BACK_OFFSET)]


def _whole(shares: list[float]) -> list[float]:
    """Shares of one width must fill it exactly, or a table ends short of (or past) its rule."""
    if not math.isclose(sum(shares), 1.0, abs_tol=1e-6):
        raise ValueError(f"the fractions add up to {sum(shares):g}, not 1")
    return shares


# A width cut into n parts (table columns, side-by-side page columns); n is what the drawing needs.
Split = Annotated[list[Share], Field(min_length=2, max_length=2), AfterValidator(_whole)]
Columns4 = Annotated[list[Share], Field(min_length=4, max_length=4), AfterValidator(_whole)]
Columns5 = Annotated[list[Share], Field(min_length=5, max_length=5), AfterValidator(_whole)]
Columns6 = Annotated[list[Share], Field(min_length=6, max_length=6), AfterValidator(_whole)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


PRINT_MIN_PT = 6.0
"""No printed text is smaller (pt at print size): letters about 1.5 mm tall, the least a player reads
at arm's length on a counter or a fanned card (issue 33; tests/test_print_text.py measures every PDF)."""


class Font(_Strict):
    """A text style: a font from generator/fonts, its preferred size and the smallest it may shrink to (pt)."""

    font: str = Field(pattern=r"^[A-Za-z0-9_-]+$")
    size: float = Field(gt=0, le=200)
    min_size: float = Field(ge=PRINT_MIN_PT, le=200)

    @model_validator(mode="after")
    def _min_below_size(self) -> Font:
        if self.min_size > self.size:
            raise ValueError("min_size is more than size")
        return self


class Region(_Strict):
    """A box in mm from the trim's top-left corner."""

    x: float
    y: float
    w: float
    h: float


def _region(value: Any) -> Region | None:
    if isinstance(value, Region) or value is None:
        return value
    if not isinstance(value, list) or len(value) not in (0, 4):
        raise ValueError("a region is [x, y, width, height] in mm, or [] for none")
    return Region(x=value[0], y=value[1], w=value[2], h=value[3]) if value else None


class Page(_Strict):
    """Full-page sheets (reference sheets, trackers): spacing in mm; the margin is the layout's `safe`."""

    qr: Length = Field(gt=0)          # QR code in the top-right corner, quiet zone included
    gap: Length                       # space above a heading
    column_gap: Length                # between side-by-side columns
    indent: Length                    # room for a step's number or bullet
    cell_pad: Length                  # a table cell's inner margin
    min_scale: float = Field(gt=0, le=1)  # a sheet too long for its paper shrinks, never below this


class Diagram(_Strict):
    """A diagram's room on the page: `height` in mm, `width` a fraction of the column, centred."""

    height: Length = Field(gt=0)
    width: Share


class WaterlooSheet(_Strict):
    split: Split          # combo table | a hand, in order
    combos: Columns4      # #, combo, chance, odds
    makeup: Columns5      # second page: #, combo, its cards, it takes, ties


class WarfareSheet(_Strict):
    diagram: Diagram      # counter-discards
    types: Columns5       # code, type, cards, force, also


class HexbattleSheet(_Strict):
    split: Split          # the side-by-side sections
    units: Columns6       # unit, str, move, range, cc, notes
    formations: Columns6  # formation, move, cc attack, cc defence, fire dice, notes
    terrain: Columns4     # terrain, tiles, icons, effects
    icon: Length = Field(gt=0)  # an effect icon's size, and the least height of a terrain row
    arcs: Diagram         # second page: a unit's sides and fire cone
    sight: Diagram        # second page: line of sight through units and along an edge


class ImperialSheet(_Strict):
    diagram: Diagram      # who beats whom
    split: Split          # a battle, in order | routs


class MedievalSheet(_Strict):
    battlefield: Length = Field(gt=0)                          # height of the battlefield picture
    card: tuple[Annotated[float, Field(gt=0, le=100)], Annotated[float, Field(gt=0, le=100)]]  # w, h
    card_gap: Length                                           # between the pictured cards


class ReferenceSheets(_Strict):
    """The reference sheets' proportions (generator/reference.py); column widths are fractions of the column."""

    cards: Columns5       # every card list: card, kind, value, copies, what it does
    node: tuple[Annotated[float, Field(gt=0, le=200)], Annotated[float, Field(gt=0, le=200)]]  # largest w, h
    waterloo: WaterlooSheet
    warfare: WarfareSheet
    hexbattle: HexbattleSheet
    imperial: ImperialSheet
    medieval: MedievalSheet


class Booklet(_Strict):
    """A rules booklet's pages (generator/booklet.py): margins in mm, inner at the fold; diagram rooms by name."""

    inner: Length
    outer: Length
    top: Length
    bottom: Length
    folio: Length                     # the footer band at the foot of each page
    diagrams: dict[str, Diagram]


class Layout(_Strict):
    """A resolved layout: every field present (`page` and `sheets` only in the layouts of full pages)."""

    width: Length
    height: Length
    bleed: Length
    safe: Length
    border: Length
    radius: Length
    back_symbol: str
    shape: Literal["rect", "circle", "hexagon"] = "rect"  # the cut line of the piece (tokens); cards are rect
    colours: dict[str, Colour]
    fonts: dict[str, Font]
    regions: dict[str, Region | None]
    back_regions: dict[str, Region | None] = Field(default_factory=dict)
    page: Page | None = None
    sheets: ReferenceSheets | None = None
    booklet: Booklet | None = None

    @model_validator(mode="before")
    @classmethod
    def _parse_regions(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = dict(data)
            for key in ("regions", "back_regions"):
                if isinstance(data.get(key), dict):
                    data[key] = {name: _region(v) for name, v in data[key].items()}
        return data

    def region(self, name: str, back: bool = False) -> Region | None:
        return (self.back_regions if back else self.regions).get(name)

    def page_settings(self) -> Page:
        """`page`, which `check` makes sure the sheet layouts have."""
        if self.page is None:
            raise DataError([Problem(str(layouts_file()), "a full-page layout needs a [page] table", field="page")])
        return self.page

    def sheet_settings(self) -> ReferenceSheets:
        """`sheets`, which `check` makes sure the reference layout has."""
        if self.sheets is None:
            raise DataError([Problem(str(layouts_file()), "the reference layout needs a [sheets] table",
                                     field="sheets")])
        return self.sheets


class Track(_Strict):
    """One numbered track of a game's track card (generator/pieces.py): a row of boxes first..last."""

    name: str = Field(min_length=1)
    first: int = Field(ge=-100, le=500)
    last: int = Field(ge=-100, le=500)
    icon: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    note: str = ""

    @model_validator(mode="after")
    def _ordered(self) -> Track:
        if self.last <= self.first:
            raise ValueError("last must be more than first")
        return self


class TrackCard(_Strict):
    """A printed card of tracks for players without a phone: once per player, or once for the table."""

    title: str = Field(min_length=1)
    subtitle: str = ""
    per_player: bool = True
    tracks: list[Track] = Field(min_length=1)


class Marker(_Strict):
    """A round cut-out marker (a dealer button, a round or turn marker), `copies` of it."""

    name: str = Field(min_length=1)
    icon: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    colour: Colour
    copies: int = Field(default=1, ge=1, le=50)


class InlineIcon(_Strict):
    """What `[key]` in a card's effect text stands for (cards/markup.py): an icon printed before its word."""

    icon: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    word: str = Field(min_length=1)


class IndexMark(_Strict):
    """What a card's corner says of its kind beside the value, so a fanned hand reads without colour:
    capital letters, and optionally an icon before them."""

    letters: str = Field(pattern=r"^[A-Z0-9][A-Z0-9 ]{0,4}$")
    icon: str | None = Field(default=None, pattern=r"^[a-z0-9][a-z0-9-]*$")


class GameLayout(BaseModel):
    """A game's `[layout]` table in game.toml; keys not named here belong to other printables (e.g. a board)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    layout: str = DEFAULT_LAYOUT
    kinds: dict[str, str] = Field(default_factory=dict)      # card kind (CardFace.kind) -> layout
    tables: dict[str, str] = Field(default_factory=dict)     # card table -> layout
    deck_names: list[str] = Field(default_factory=list)      # print every card table once per deck…
    deck_colours: list[Colour] = Field(default_factory=list)  # …with this back (and frame) colour
    colours: dict[str, Colour] = Field(default_factory=dict)
    fonts: dict[str, Font] = Field(default_factory=dict)
    layouts: dict[str, dict[str, Any]] = Field(default_factory=dict)  # the game's own layouts
    frames: dict[str, Colour] = Field(default_factory=dict)  # card kind (CardFace.kind) -> frame colour
    index: dict[str, IndexMark] = Field(default_factory=dict)  # card kind (CardFace.kind) -> corner index
    back_icon: str | None = Field(default=None, pattern=r"^[a-z0-9][a-z0-9-]*$")  # emblem on the backs
    deck_icons: list[str] = Field(default_factory=list)      # per deck_names: a mark on backs and fronts
    track_card: TrackCard | None = None                      # tracks for players without a phone
    markers: list[Marker] = Field(default_factory=list)      # round cut-out markers
    inline_icons: dict[Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]*$")], InlineIcon] = Field(
        default_factory=dict)                                # `[key]` in effect text -> icon and word

    @model_validator(mode="after")
    def _decks_match(self) -> GameLayout:
        if len(self.deck_names) != len(self.deck_colours):
            raise ValueError("deck_names and deck_colours must have the same length")
        if self.deck_icons and len(self.deck_icons) != len(self.deck_names):
            raise ValueError("deck_icons must name one icon per deck in deck_names")
        return self


class CutMarks(_Strict):
    length: Length
    offset: Length
    width: Length
    colour: Colour


class FoldLine(_Strict):
    """The dashed line a fold-over sheet is folded on."""

    width: Length
    colour: Colour
    dash: tuple[Annotated[float, Field(gt=0, le=50)], Annotated[float, Field(gt=0, le=50)]]  # on, off (mm)


class SheetProfile(_Strict):
    """Home printing: a centred grid of pieces per page, then a mirrored page of backs."""

    kind: Literal["sheet"]
    label: str
    paper: str
    columns: int | None = Field(default=None, ge=1, le=50)
    rows: int | None = Field(default=None, ge=1, le=50)
    gutter: Length = 0.0
    margin: Length = 5.0
    cut_marks: CutMarks
    # mm, right and down as seen on the back: undoes the printer's duplex shift (muster build --calibration)
    back_offset: tuple[Offset, Offset] = (0.0, 0.0)
    # mm at the paper's edge most printers leave blank: a back offset that moves ink nearer is warned about
    printer_edge: Length = 3.0
    # mm, one printed card as it goes into a box (card stock; two layers glued on fold-over sheets): tuck boxes
    thickness: float = Field(default=0.3, ge=0.1, le=2.0)


class FoldProfile(SheetProfile):
    """Fold-over printing: fronts and their backs side by side on one page, mirrored across a fold
    line; printed single-sided, folded and cut, so no duplex shift can misalign them."""

    kind: Literal["fold"]  # type: ignore[assignment]
    fold_gap: Length = 3.0  # from the fold line to the nearest trim on either side
    fold_line: FoldLine


class Product(_Strict):
    """A print shop's product for pieces other than its cards (a chit, a tile): the image it asks for and the
    cut inside it, centred. A piece goes to the smallest product of its shape and proportions that holds it,
    drawn scaled to the product's cut, so text never shrinks (`generator.sheets.product_for`)."""

    shape: Literal["rect", "circle", "hexagon"]
    width_px: int = Field(ge=16, le=20000)
    height_px: int = Field(ge=16, le=20000)
    trim_px: tuple[Annotated[float, Field(gt=0)], Annotated[float, Field(gt=0)]]  # the cut's box, centred

    @model_validator(mode="after")
    def _trim_inside(self) -> Product:
        if self.trim_px[0] > self.width_px or self.trim_px[1] > self.height_px:
            raise ValueError("trim_px must fit inside width_px x height_px")
        return self


class SingleProfile(_Strict):
    """A print shop: one piece per page or image, trim plus the shop's bleed, in the shop's order."""

    kind: Literal["single"]
    label: str
    dpi: int = Field(ge=72, le=1200)
    width_px: int = Field(ge=16, le=20000)
    height_px: int = Field(ge=16, le=20000)
    order: Literal["backs-first", "fronts-first", "interleaved", "back-front"]
    colour: Literal["rgb", "cmyk"] = "rgb"  # cmyk: PDF/X-1a:2003 through an ICC profile, PDF only
    max_ink: int = Field(default=300, ge=100, le=400)  # total area coverage limit in % (cmyk)
    per_deck: bool = False  # one PDF per deck (pieces sharing a back) instead of per set
    products: dict[str, Product] = {}  # the shop's products for tiles, chits and tokens, by the shop's name
    # set on the profile of one product (`product_profile`): the cut's box, the piece scaled to fit it
    trim_px: tuple[float, float] | None = None

    def product_profile(self, name: str) -> SingleProfile:
        """This shop printing one of its products: the product's image size and cut, the shop's order."""
        product = self.products[name]
        return self.model_copy(update={"label": f"{self.label}: {name}", "width_px": product.width_px,
                                       "height_px": product.height_px, "trim_px": product.trim_px,
                                       "products": {}})

    @property
    def trim_mm(self) -> tuple[float, float] | None:
        return None if self.trim_px is None else (self.trim_px[0] / self.dpi * 25.4, self.trim_px[1] / self.dpi * 25.4)

    @property
    def size_mm(self) -> tuple[float, float]:
        return self.width_px / self.dpi * 25.4, self.height_px / self.dpi * 25.4


Profile = Annotated[SheetProfile | FoldProfile | SingleProfile, Field(discriminator="kind")]


class Profiles(_Strict):
    papers: dict[str, tuple[Length, Length]]
    profiles: dict[str, Profile]

    @model_validator(mode="after")
    def _papers_known(self) -> Profiles:
        for name, profile in self.profiles.items():
            if isinstance(profile, SheetProfile) and profile.paper not in self.papers:
                raise ValueError(f"profile '{name}': unknown paper '{profile.paper}' (known: {', '.join(self.papers)})")
        return self

    def paper(self, profile: SheetProfile) -> tuple[float, float]:
        return self.papers[profile.paper]


def layouts_file(root: Path | None = None) -> Path:
    return shared_file(LAYOUTS_FILE.name, root)


def profiles_file(root: Path | None = None) -> Path:
    return shared_file(PROFILES_FILE.name, root)


def load_profiles(path: Path | None = None) -> Profiles:
    """The print profiles of `path`, or of the cards folder in use."""
    return read_profiles(path or profiles_file())


@cache
def read_profiles(path: Path) -> Profiles:
    raw, text = read_toml(path)
    try:
        return Profiles.model_validate(raw)
    except ValidationError as err:
        raise DataError(_problems(err, str(path), text=text)) from None


def _library(path: Path | None = None) -> tuple[dict[str, dict[str, Any]], str]:
    return _read_library(path or layouts_file())


@cache
def _read_library(path: Path) -> tuple[dict[str, dict[str, Any]], str]:
    raw, text = read_toml(path)
    unknown = sorted(set(raw) - {"layouts"})
    if unknown or not isinstance(raw.get("layouts"), dict):
        raise DataError([Problem(str(path), "the file holds only [layouts.NAME] tables", field=", ".join(unknown) or None)])
    return raw["layouts"], text


def _merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    """Deep merge: tables merge key by key, anything else in `top` replaces."""
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def resolve(name: str, game: GameLayout | None = None, path: Path | None = None) -> Layout:
    """The layout `name` with its `extends` chain and the game's overrides applied."""
    return _resolve(name, (game or GameLayout()).model_dump_json(), path or layouts_file())


@cache
def _resolve(name: str, game_json: str, path: Path) -> Layout:
    game = GameLayout.model_validate_json(game_json)
    library, text = _library(path)
    where = str(path)
    known = {**library, **game.layouts}
    chain: list[dict[str, Any]] = []
    current: str | None = name
    while current is not None:
        if current not in known:
            raise DataError([Problem(where, f"unknown layout '{current}' (known: {', '.join(sorted(known))})",
                                     field="extends" if chain else "layout", value=current)])
        if len(chain) > len(known):
            raise DataError([Problem(where, f"layout '{name}' extends itself in a loop", field="extends")])
        entry = known[current]
        chain.append(entry)
        current = entry.get("extends")
    merged: dict[str, Any] = {}
    for entry in reversed(chain):
        merged = _merge(merged, {k: v for k, v in entry.items() if k != "extends"})
    merged = _merge(merged, {"colours": game.colours,
                             "fonts": {k: v.model_dump() for k, v in game.fonts.items()}})
    try:
        return Layout.model_validate(merged)
    except ValidationError as err:
        problems = _problems(err, where, prefix=f"layouts.{name}")
        line = _line_of(text, f"layouts.{name}")
        raise DataError([Problem(p.file, p.message, line, p.field, p.value) for p in problems]) from None


def game_layout(data: GameData) -> GameLayout:
    """The game's validated `[layout]`."""
    try:
        return GameLayout.model_validate(data.layout)
    except ValidationError as err:
        game_file = data.folder / "game.toml"
        try:
            text: str | None = read_text(game_file)
        except DataError:
            text = None
        raise DataError(_problems(err, str(game_file), prefix="layout", text=text)) from None


def layout_for(data: GameData, table: str, kind: str) -> Layout:
    """The layout a card of `table` with CardFace.kind `kind` is drawn with."""
    game = game_layout(data)
    name = game.kinds.get(kind) or game.tables.get(table) or game.layout
    return resolve(name, game)


def check(games: dict[str, GameData]) -> list[Problem]:
    """Every problem in layouts.toml, profiles.toml and the games' [layout] tables."""
    problems: list[Problem] = []
    for step in (load_profiles, lambda: _library()):
        try:
            step()
        except DataError as err:
            problems.extend(err.problems)
    if problems:
        return problems
    library, _ = _library()
    for name in library:
        problems.extend(_layout_problems(name, None, str(layouts_file()), for_cards=name == DEFAULT_LAYOUT))
    for data in games.values():
        where = str(data.folder / "game.toml")
        try:
            game = game_layout(data)
        except DataError as err:
            problems.extend(err.problems)
            continue
        for_cards = {game.layout, *game.kinds.values(), *game.tables.values()}
        for table in game.tables:
            if table not in data.card_tables():
                problems.append(Problem(where, f"[layout] tables: '{table}' is not a card table of this game",
                                        field="layout.tables", value=table))
        known = {*library, *game.layouts}
        for name in sorted(for_cards | set(game.layouts)):
            if name not in known:
                problems.append(Problem(where, f"unknown layout '{name}' (known: {', '.join(sorted(known))})",
                                        field="layout", value=name))
            else:
                problems.extend(_layout_problems(name, game, where, for_cards=name in for_cards))
    return problems


def _layout_problems(name: str, game: GameLayout | None, where: str, for_cards: bool) -> list[Problem]:
    """A layout that does not resolve; for one that cards use, also regions outside the safe zone and
    regions, fonts or colours the card drawer needs but the layout lacks."""
    try:
        layout = resolve(name, game)
    except DataError as err:
        return err.problems
    if layout.width <= 2 * layout.safe or layout.height <= 2 * layout.safe:
        return [Problem(where, f"layout '{name}': the safe zone leaves no room", field="safe", value=layout.safe)]
    needs = {SHEET_LAYOUT: ("page",), REFERENCE_LAYOUT: ("page", "sheets"),
             BOOKLET_LAYOUT: ("page", "sheets", "booklet")}.get(name, ())
    absent = [Problem(where, f"layout '{name}' draws full pages but has no [{f}] table", field=f"layouts.{name}.{f}")
              for f in needs if getattr(layout, f) is None]
    if absent:
        return absent
    if not for_cards:
        return []
    problems = []
    for group, regions in (("regions", layout.regions), ("back_regions", layout.back_regions)):
        for region_name, r in regions.items():
            if r is not None and not (layout.safe - 1e-6 <= r.x and r.x + r.w <= layout.width - layout.safe + 1e-6
                                      and layout.safe - 1e-6 <= r.y and r.y + r.h <= layout.height - layout.safe + 1e-6):
                problems.append(Problem(where, f"layout '{name}': region leaves the safe zone "
                                               f"({layout.safe} mm inside the trim)", field=f"{group}.{region_name}",
                                        value=[r.x, r.y, r.w, r.h]))
    missing = [f"regions.{r}" for r in CARD_REGIONS if r not in layout.regions]
    missing += [f"back_regions.{r}" for r in CARD_BACK_REGIONS if r not in layout.back_regions]
    missing += [f"fonts.{f}" for f in CARD_FONTS if f not in layout.fonts]
    missing += [f"colours.{c}" for c in CARD_COLOURS if c not in layout.colours]
    return problems + [Problem(where, f"layout '{name}' is used for cards but has no {m}", field=m) for m in missing]
