"""One full-page reference sheet per game: what a player looks up at the table, numbers and names from data.

A `Sheet` fills a page top to bottom (title, headings, paragraphs, numbered steps, tables,
diagrams) in the style of the `reference` layout (cards/layouts.toml: fonts, colours, spacing,
column widths, diagram sizes), with a QR code to the sheet's companion page when a companion
URL is set. The prose is ours and follows docs/rules/<game>.md.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any, Literal

from cards import markup
from cards.layout import REFERENCE_LAYOUT, Diagram, Layout, game_layout, resolve
from cards.load import GameData
from engine.waterloo import combo_odds
from generator import fonts, icons
from generator.canvas import Box, Canvas, Point, RecordingCanvas
from generator.combo_cards import LEGEND, SMALL_CARD, make_up
from generator.deck import face_of
from generator.drawing import arrow
from generator.hex_diagrams import draw_arcs, draw_sight
from generator.hexbattle_parts import draw_effect_icon, effects, part_layout, signed, unit_icons
from generator.links import sheet_link
from generator.printable import BuildContext, PageSet
from generator.qr import draw_qr
from generator.symbols import draw_picture
from generator.text import draw_text, fit

SHEET = "reference"
Cell = str | Callable[[Canvas, Box], None]
"""A table cell: text, or a function drawing into the cell's box (e.g. an icon)."""


def sheet_layout(game: GameData) -> Layout:
    """The `reference` layout with the game's colour and font overrides."""
    return resolve(REFERENCE_LAYOUT, game_layout(game))


# ---------------------------------------------------------------- the page writer

def widest_word(text: str, font: str, size: float) -> float:
    """Width in mm of the widest word of `text`: the least a box can be without breaking a word."""
    return max((fonts.width(word, font, size) for word in text.split()), default=0.0)


class SheetOverflow(ValueError):
    """The content does not fit the page."""


def fitted(draw: Callable[..., None], c: Canvas, width: float, height: float, *, game: GameData,
           **kw: Any) -> float:
    """Draw a sheet at full size, or scaled down just enough to fit a shorter paper; returns the scale.

    Each try is drawn on a recording canvas; the one that fits is replayed onto `c`, so the sheet is
    laid out once, not once to measure and again to paint."""
    min_scale = sheet_layout(game).page_settings().min_scale
    scale = 1.0
    while True:
        recording = RecordingCanvas(width / scale, height / scale)
        try:
            draw(recording, width / scale, height / scale, game=game, **kw)
            break
        except SheetOverflow:
            scale = round(scale - 0.02, 4)
            if scale < min_scale:
                raise
    with c.group(scale=scale):
        recording.replay(c)
    return scale


@dataclass
class Sheet:
    """A column of a page being filled from the top; `y` is where the next block starts."""

    c: Canvas
    layout: Layout
    area: Box
    y: float = field(default=0.0)

    def __post_init__(self) -> None:
        self.y = self.y or self.area.y

    def _style(self, name: str, text: str = "", width: float = math.inf) -> tuple[str, float, float]:
        """The style's font, size and least size, the size lowered (never below the least) until the
        widest word of `text` fits `width`: text.fit would rather break a word than shrink it."""
        f = self.layout.fonts[name]
        widest = widest_word(text, f.font, f.size)
        size = f.size if widest <= width else max(f.min_size, math.floor(f.size * width / widest * 100) / 100)
        return f.font, size, f.min_size

    def measure(self, text: str, style: str, width: float) -> float:
        """Height of `text` wrapped to `width` at the style's full size (or as near as whole words allow)."""
        font, size, min_size = self._style(style, text, width)
        return fit(text, font, size, min_size, Box(0, 0, width, 10_000)).height

    def take(self, height: float) -> Box:
        """Reserve the next `height` mm of the column."""
        box = Box(self.area.x, self.y, self.area.w, height)
        if box.bottom > self.area.bottom + 0.01:
            raise SheetOverflow(f"the sheet overflows its page by {box.bottom - self.area.bottom:.1f} mm")
        self.y += height
        return box

    def write(self, box: Box, text: str, style: str, fill: str | None = None,
              align: Literal["start", "middle", "end"] = "start") -> None:
        font, size, min_size = self._style(style, text, box.w)
        draw_text(self.c, box, text, font, size, min_size, fill or self.layout.colours["ink"], align=align,
                  valign="middle")

    def heading(self, text: str) -> None:
        self.y += self.layout.page_settings().gap
        box = self.take(self.measure(text, "heading", self.area.w) + 0.8)
        self.write(box, text, "heading", self.layout.colours["accent"])
        self.c.line(box.x, box.bottom, box.right, box.bottom, stroke=self.layout.colours["rule"], width=0.3)
        self.y += 1.0

    def paragraph(self, text: str, style: str = "body") -> None:
        self.write(self.take(self.measure(text, style, self.area.w)), text, style)
        self.y += 1.0

    def steps(self, items: Sequence[tuple[str, str]], numbered: bool = True) -> None:
        """Numbered (or bulleted) steps, each a bold lead-in and its explanation."""
        indent = self.layout.page_settings().indent
        width = self.area.w - indent
        for k, (lead, text) in enumerate(items, start=1):
            body = f"{lead}. {text}" if lead else text
            box = self.take(self.measure(body, "body", width) + 0.6)
            self.write(Box(box.x, box.y, indent, min(box.h, 4.0)), f"{k}." if numbered else "\u2022", "cell_bold")
            self.write(Box(box.x + indent, box.y, width, box.h), body, "body")

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[Cell]], widths: Sequence[float],
              align: Sequence[Literal["start", "middle", "end"]] | None = None, min_row: float = 0.0) -> None:
        """A table with a header band and striped rows; `widths` are fractions of the column width."""
        col = self.layout.colours
        pad = self.layout.page_settings().cell_pad
        xs = [self.area.x]
        for w in self._column_widths(widths, headers, rows, pad):
            xs.append(xs[-1] + w)
        aligns = list(align or ["start"] * len(headers))

        def height(cells: Sequence[Cell], style: str, least: float) -> float:
            texts = [self.measure(cell, style, xs[i + 1] - xs[i] - 2 * pad)
                     for i, cell in enumerate(cells) if isinstance(cell, str)]
            return max([least, *texts]) + 2 * pad * 0.6

        def row(cells: Sequence[Cell], style: str, fill: str | None, least: float = 0.0) -> None:
            box = self.take(height(cells, style, least))
            if fill:
                self.c.rect(box.x, box.y, box.w, box.h, fill=fill)
            for i, cell in enumerate(cells):
                inner = Box(xs[i] + pad, box.y + pad * 0.4, xs[i + 1] - xs[i] - 2 * pad, box.h - pad * 0.8)
                if isinstance(cell, str):
                    self.write(inner, cell, style, align=aligns[i])
                else:
                    cell(self.c, inner)

        row(headers, "cell_bold", col["band"])
        for k, cells in enumerate(rows):
            row(cells, "cell", col["stripe"] if k % 2 else None, min_row)
        self.c.line(self.area.x, self.y, self.area.right, self.y, stroke=col["rule"], width=0.3)
        self.y += 1.0

    def _column_widths(self, shares: Sequence[float], headers: Sequence[str], rows: Sequence[Sequence[Cell]],
                       pad: float) -> list[float]:
        """Column widths in mm: each its share, but a column too narrow for its longest word (header
        included) is widened, taking the room from what the other columns have to spare."""
        def longest(i: int) -> float:
            cells = [r[i] for r in rows]
            words = [widest_word(headers[i], *self._style("cell_bold")[:2])]
            words += [widest_word(cell, *self._style("cell")[:2]) for cell in cells if isinstance(cell, str)]
            return max(words) + 2 * pad + 0.01  # a hair more, so rounding never breaks the word

        want = [f * self.area.w for f in shares]
        need = [longest(i) for i in range(len(shares))]
        short = sum(max(0.0, n - w) for w, n in zip(want, need))
        spare = sum(max(0.0, w - n) for w, n in zip(want, need))
        if short == 0 or spare < short:
            return want  # nothing to widen, or no room: the words shrink instead (see _style)
        return [n if w < n else w - (w - n) * short / spare for w, n in zip(want, need)]

    def diagram(self, room: Diagram) -> Box:
        """Reserve a diagram's room; returns its box, `room.width` of the column and centred, 1 mm below
        the text above and the page's gap above the text below (its nodes reach its edges)."""
        taken = self.take(room.height)
        gap = self.layout.page_settings().gap
        return Box(taken.x + taken.w * (1 - room.width) / 2, taken.y + 1.0, taken.w * room.width,
                   taken.h - 1.0 - gap)

    def split(self, fractions: Sequence[float]) -> list[Sheet]:
        """Side-by-side columns from here down; call `join` with them when they are filled."""
        gap = self.layout.page_settings().column_gap
        free = self.area.w - gap * (len(fractions) - 1)
        out, x = [], self.area.x
        for f in fractions:
            out.append(Sheet(self.c, self.layout, Box(x, self.area.y, free * f, self.area.h), self.y))
            x += free * f + gap
        return out

    def join(self, columns: Sequence[Sheet]) -> None:
        self.y = max(s.y for s in columns)


CREDIT_HEIGHT = 4.0  # mm at the foot of every sheet for the icon credit (the CC BY licence asks for it)


def start_sheet(c: Canvas, width: float, height: float, game: GameData, subtitle: str,
                ctx: BuildContext | None, sheet: str = SHEET, title: str = "reference") -> Sheet:
    """A page with the game's title band, and a QR code to the sheet's companion page when a URL is set."""
    layout = sheet_layout(game)
    qr = layout.page_settings().qr
    margin = layout.safe
    area = Box(margin, margin, width - 2 * margin, height - 2 * margin - CREDIT_HEIGHT)
    s = Sheet(c, layout, area)
    s.write(Box(area.x, area.bottom + 1.0, area.w, CREDIT_HEIGHT - 1.0), icons.CREDIT, "small")
    url = ctx.companion_url if ctx else None
    text_w = area.w - (qr + 3.0 if url else 0.0)
    s.write(Box(area.x, area.y, text_w, 10.0), f"{game.name} \u2014 {title}", "sheet_title",
            layout.colours["accent"])
    s.write(Box(area.x, area.y + 10.5, text_w, 5.0), subtitle, "subtitle")
    if url:
        draw_qr(c, Box(area.right - qr, area.y - 2.0, qr, qr), sheet_link(url, game.id, sheet),
                layout.colours["qr"], layout.colours["qr_background"])
    s.y = area.y + max(17.0, qr if url else 0.0)
    return s


# ---------------------------------------------------------------- diagrams

@dataclass(frozen=True)
class Node:
    """A diagram box: a picture (the icon its cards show, else a map symbol) and a name."""

    name: str
    symbol: str | None
    icon: str | None = None


def type_icons(game: GameData, table: str) -> dict[str, str]:
    """Card type -> the icon most of its cards show: a diagram draws a type as its cards do."""
    counts: dict[str, Counter[str]] = {}
    for row in game.table(table):
        if row.icon:
            counts.setdefault(row.type, Counter())[row.icon] += 1
    return {t: c.most_common(1)[0][0] for t, c in counts.items()}


def _edge_point(centre: Point, towards: Point, half: tuple[float, float], gap: float) -> Point:
    """Where the line from a box's centre towards a point leaves the box, plus a gap."""
    dx, dy = towards[0] - centre[0], towards[1] - centre[1]
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    t = min(half[0] / abs(ux) if ux else math.inf, half[1] / abs(uy) if uy else math.inf) + gap
    return centre[0] + ux * t, centre[1] + uy * t


def beats_diagram(s: Sheet, box: Box, ring: Sequence[Node], edges: Sequence[tuple[int, int]],
                  centre: Node | None = None, centre_edges: Sequence[int] = ()) -> None:
    """Nodes round an ellipse (the first at the top), an arrow from each winner to what it beats.

    The ellipse is stretched so the nodes span the box's height: a triangle's lower corners sit
    half-way down a circle, which would leave the bottom of the box empty. `edges` index `ring`;
    `centre_edges` are the ring nodes the centre node beats."""
    col = s.layout.colours
    largest = s.layout.sheet_settings().node
    node_w, node_h = min(box.w * 0.3, largest[0]), min(box.h * 0.2, largest[1])
    angles = [2 * math.pi * k / len(ring) for k in range(len(ring))]
    downs = [-math.cos(a) for a in angles]
    low, high = min(downs), max(downs)
    rx = box.w / 2 - node_w / 2
    ry = (box.h - node_h) / (high - low) if high > low else 0.0
    top = box.y + node_h / 2
    places = [(box.cx + rx * math.sin(a), top + (d - low) * ry) for a, d in zip(angles, downs)]
    middle = (box.cx, top - low * ry)
    half = (node_w / 2, node_h / 2)
    head = 3.0

    def link(a: Point, b: Point) -> None:
        arrow(s.c, _edge_point(a, b, half, 1.0), _edge_point(b, a, half, 1.0), col["arrow"], 0.6, head)

    for i, j in edges:
        link(places[i], places[j])
    if centre is not None:
        for j in centre_edges:
            link(middle, places[j])
    for node, (x, y) in [*zip(ring, places), *([(centre, middle)] if centre else [])]:
        b = Box(x - node_w / 2, y - node_h / 2, node_w, node_h)
        s.c.rect(b.x, b.y, b.w, b.h, fill=col["band"], stroke=col["rule"], width=0.3, radius=1.5)
        text_x = b.x + 1.5
        if node.symbol or node.icon:
            draw_picture(s.c, node.icon, node.symbol, Box(b.x + 1.5, b.y + 2.0, b.h * 0.9, b.h - 4.0),
                         col["node_ink"], col["symbol_fill"])
            text_x = b.x + b.h * 0.9 + 3.0
        s.write(Box(text_x, b.y + 1.0, b.right - text_x - 1.0, b.h - 2.0), node.name, "node", col["node_ink"])


def ring_order(beats: dict[str, list[str]], members: Sequence[str]) -> list[str]:
    """Members ordered so each beats the next where the relation allows (a cycle reads round the ring)."""
    order: list[str] = []
    current: str | None = members[0] if members else None
    while current is not None and current not in order:
        order.append(current)
        nxt = [t for t in beats.get(current, []) if t in members and t not in order]
        current = nxt[0] if len(nxt) == 1 else None
    return order + [m for m in members if m not in order]


# ---------------------------------------------------------------- number formats

def percent(p: Fraction) -> str:
    """A probability as a percentage with three significant digits (never in e-notation)."""
    if p <= 0:
        return "0%"
    value = float(p) * 100
    decimals = max(0, 2 - math.floor(math.log10(value)))
    return f"{value:.{decimals}f}%"


def one_in(p: Fraction) -> str:
    """A probability as "1 in N", N to three significant digits."""
    if p <= 0:
        return "never"
    n = 1 / float(p)
    if n < 100:
        return f"1 in {n:.3g}"
    return f"1 in {round(n, 2 - math.floor(math.log10(n))):,.0f}"


def names(codes: Sequence[str], table: dict[str, str]) -> str:
    """"A, B or C" from codes and their display names."""
    words = [table[c] for c in codes]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def card_list(s: Sheet, game: GameData, table: str, value: str = "Value") -> None:
    """Every design of a card table as printed on its face: name, kind, corner value, copies, text."""
    rows = []
    for row in game.table(table):
        face = face_of(game, row)
        rows.append([row.name, face.kind, face.corner or "\u2013", str(row.copies), markup.plain(game, face.text)])
    s.table(["Card", "Kind", value, "Copies", "What it does"], rows, s.layout.sheet_settings().cards,
            ["start", "start", "middle", "middle", "start"])


# ---------------------------------------------------------------- waterloo

_odds: dict[int, tuple[GameData, list[tuple[str, Fraction]]]] = {}


def waterloo_odds(game: GameData) -> list[tuple[str, Fraction]]:
    """The exact combo odds, worked out once per loaded game: a print set draws this sheet for every
    paper and format (12 times), and the odds are a sixth of the build's CPU. The entry keeps its
    `game` alive, so an id is never reused for other data while it is cached."""
    cached = _odds.get(id(game))
    if cached is None or cached[0] is not game:
        cached = _odds[id(game)] = (game, combo_odds(game))
    return cached[1]


def waterloo(c: Canvas, width: float, height: float, *, game: GameData, ctx: BuildContext | None) -> None:
    r = game.rules
    s = start_sheet(c, width, height, game, f"{game.min_players}\u2013{game.max_players} players \u00b7 "
                    f"{r.starting_chips} chips each \u00b7 a {r.deck_size}-card deck \u00b7 lower values are stronger",
                    ctx)
    spec = s.layout.sheet_settings().waterloo
    left, right = s.split(spec.split)
    left.heading("Combo table, strongest first")
    odds = waterloo_odds(game)
    left.table(["#", "Combo", "Chance", "Odds"],
               [[str(k), name, percent(p), one_in(p)] for k, (name, p) in enumerate(odds, start=1)],
               spec.combos, ["middle", "start", "end", "end"])
    left.paragraph(f"Chance: how often a {r.hand_size}-card hand dealt from the full deck has this as its best "
                   "combo (exact, counting every hand). Magazines and Dragoons are wild; ties share the chips.",
                   "small")
    right.heading("A hand, in order")
    right.steps([
        ("Ante", f"Everyone still playing puts {r.ante} chip in front of them. Bets stay in front of "
                 "their owner until the showdown; there is no central pot."),
        ("Deal", f"Each player gets {r.hand_cards_dealt} hand cards."),
        ("Bet", "From the button's left: pass, call, raise or fold. A raise matches the bet and adds 1 to "
                f"{r.max_raise} chips; at most {r.max_raises_per_round} raises a round. Folding gives up your "
                "bets."),
        ("Draw", "Round the table, draw the top card, then keep it or swap one hand card for a community "
                 "card."),
        ("Bet again", f"Bet and draw in turn until every hand holds {r.hand_size} cards, then bet once more: "
                      f"{r.betting_rounds_options[0]} betting rounds in all"
                      + (f" ({' or '.join(map(str, r.betting_rounds_options[1:]))} if the table agrees)."
                         if len(r.betting_rounds_options) > 1 else ".")),
        ("Reserve swap", "Once, if you like: trade one hand card for one of your reserve cards; it takes "
                         "that card's place, face up or face down."),
        ("Showdown", "The best combo takes every chip bet this hand. A loser with a Scout face down in "
                     f"reserve may burn it to keep {r.scout_save_percent}% of the bet, rounded down "
                     f"({r.scout_save_percent_with_officer}% with an Officer in the hand)."),
        ("Next hand", "The button moves left. Reserves and community cards are renewed every "
                      f"{' / '.join(str(n) for n in r.return_after_options)} hands, as agreed."),
    ])
    right.heading("The table")
    right.paragraph(f"Each player: {len(r.reserve_slots)} reserve cards ({' and '.join(r.reserve_slots)}). "
                    f"In the middle: {r.community_cards} community cards. Reserves and community cards stay "
                    "from hand to hand. A player with no chips is out; the last player with chips wins.")
    s.join([left, right])
    s.heading("The deck")
    card_list(s, game, "cards")


def waterloo_combos(c: Canvas, width: float, height: float, *, game: GameData, ctx: BuildContext | None) -> None:
    """The second page: every combo's make-up and the order its ties are decided in, and the wild cards."""
    s = start_sheet(c, width, height, game, "Every combo, strongest first: what it takes, and how two of it compare",
                    ctx, title="combos and ties")
    s.heading("What each combo takes")
    s.table(["#", "Combo", "Cards", "It takes", "Two of it compare, in order"],
            [[str(k), combo.name, make_up(game, s.layout, combo.parts, SMALL_CARD), combo.takes, combo.ties]
             for k, combo in enumerate(game.rules.combos, start=1)],
            s.layout.sheet_settings().waterloo.makeup, ["middle", "start", "start", "start", "start"],
            min_row=SMALL_CARD[1])
    s.paragraph(LEGEND, "small")
    s.paragraph("Cards match when they are the same troop card: the same kind and the same value. Officers and "
                "special cards never form sets, and a set counts at its full size (three matching cards are Trips, "
                "not a Pair). A hand scores the highest row it satisfies.")
    s.heading("Ties")
    s.steps([
        ("", "Compare the cards in the order given for the combo, then any other cards strongest first; the first "
             "card that differs decides."),
        ("", "A troop card's strength is its value (1 is strongest), an Officer's its rank (General 1 to Sergeant "
             "4). A card with no value (Fix Bayonets, Grenadiers, Rockets, the Scout, an unused wild) is weaker "
             "than any 4."),
        ("", "A set made with a wild card ranks below every natural set of the same size, whatever its value."),
        ("", "Kinds never rank against each other. Hands still equal share the bets; chips that will not divide "
             "go one at a time to the tied winners from the button's left."),
    ], numbered=False)
    s.heading("Wild cards")
    s.steps([
        ("Magazine", "Pairs with exactly one Artillery card of any value, making an Artillery pair. It never "
                     "enlarges a set of two or more natural cards."),
        ("Dragoon", "Pairs with exactly one Infantry card other than Militia, only while the hand holds an Officer "
                    "(who may also serve in the combo). It never enlarges a set."),
    ], numbered=False)


# ---------------------------------------------------------------- warfare

def warfare(c: Canvas, width: float, height: float, *, game: GameData, ctx: BuildContext | None) -> None:
    from cards.schemas.warfare import TYPE_NAMES

    r = game.rules
    s = start_sheet(c, width, height, game, f"2 players \u00b7 {r.starting_troops} troop points each \u00b7 "
                    f"one shared {r.deck_size}-card deck \u00b7 {r.opening_hand} cards to start", ctx)
    s.heading("A turn: four phases")
    s.steps([
        ("Deploy", f"Draw {r.draw_per_turn} cards (reshuffle the discards when the deck runs out). You may "
                   f"discard {names(r.draw_types, TYPE_NAMES)} cards to draw cards equal to their force, "
                   f"{names(r.scout_types, TYPE_NAMES)} cards to look at your opponent's hand, and "
                   f"{names(r.harass_types, TYPE_NAMES)} cards to make your opponent discard a random card each."),
        ("Attack", "If you attack, your opponent may first call it off with "
                   f"{names(r.blunder_types, TYPE_NAMES)}. Otherwise lay one or more unit cards of one type face "
                   "up; your opponent may counter-discard them (below). If any attackers remain you may add "
                   f"Tactics of their type and up to {r.strategy_per_type} Strategy card of each type."),
        ("Casualty", "Add up the force of every card you played (see below); your opponent loses that many "
                     "troop points."),
        ("Maneuver", f"If you did not attack, you may discard up to {r.maneuver_max_exchange} cards and draw "
                     f"replacements. Then discard down to {r.hand_limit} cards."),
    ])
    s.heading("Counter-discards: an arrow points from the defender's discard to the attacker it removes")
    spec = s.layout.sheet_settings().warfare
    centre = counter_cycle(s, s.diagram(spec.diagram), game)
    s.paragraph("Each discard removes one attacking card just played. "
                + (f"{TYPE_NAMES[centre]} removes an attacker of any type." if centre else ""))
    s.heading("Casualties")
    example = [3, 3, 2, 2, 1, 2, 1]
    total = sum(example)
    extra = max(0, len(example) - r.free_cards_per_attack)
    hit = total + extra * r.bonus_per_extra_card
    div = hit // r.morale_divisor if r.morale_rounding == "down" else -(-hit // r.morale_divisor)
    s.steps([
        ("", "Add the force of every card the attack played: units, tactics and strategy."),
        ("", f"Add {r.bonus_per_extra_card} for each card beyond the first {r.free_cards_per_attack}."),
        ("", f"The defender may discard {r.morale_per_attack} {names(r.morale_types, TYPE_NAMES)} card to "
             f"divide the total by {r.morale_divisor}, rounding {r.morale_rounding}."),
        ("", f"Example: {len(example)} cards of force {' + '.join(map(str, example))} = {total}; "
             f"{extra} extra card{'s' if extra != 1 else ''} add {extra * r.bonus_per_extra_card}: {hit} "
             f"casualties, or {div} with Morale."),
    ], numbered=False)
    s.paragraph(f"The first player to bring the opponent to 0 troop points wins. Track troops on the "
                f"troop-point track (0\u2013{r.starting_troops}).")
    s.heading("The deck by type")
    uses = {"draw_types": "Deploy: discard to draw its force in cards", "scout_types": "Deploy: discard to see "
            "the opponent's hand", "harass_types": "Deploy: discard, the opponent discards at random",
            "blunder_types": "Defence: calls an attack off", "morale_types": "Defence: divides casualties"}
    rows = []
    for code, label in TYPE_NAMES.items():
        cards = [card for card in game.table("cards") if card.type == code]
        if not cards:
            continue
        forces = sorted({card.force for card in cards})
        role = [text for key, text in uses.items() if code in getattr(r, key)]
        if code in r.counters:
            role.insert(0, "Counter-discard")
        rows.append([code, label, str(sum(card.copies for card in cards)),
                     f"{forces[0]}\u2013{forces[-1]}" if len(forces) > 1 else str(forces[0]), "; ".join(role)])
    s.table(["Code", "Type", "Cards", "Force", "Also"], rows, spec.types,
            ["start", "start", "middle", "middle", "start"])


def counter_cycle(s: Sheet, box: Box, game: GameData) -> str | None:
    """Warfare's counter-discards as a ring of unit types, an arrow from each discard to the attacker it
    removes, and the type that removes any attacker in the middle; returns that type's code."""
    from cards.schemas.warfare import SYMBOLS, TYPE_NAMES

    r = game.rules
    beats = {d: list(a) for d, a in r.counters.items()}
    ring = ring_order(beats, list(r.unit_types))
    outer = [d for d in beats if d not in ring]
    centre = outer[0] if outer else None
    edges = [(ring.index(d), ring.index(a)) for d in ring for a in beats.get(d, []) if a in ring]
    pictures = type_icons(game, "cards")
    beats_diagram(s, box, [Node(TYPE_NAMES[u], SYMBOLS[u], pictures.get(u)) for u in ring], edges,
                  Node(TYPE_NAMES[centre], SYMBOLS[centre], pictures.get(centre)) if centre else None,
                  [ring.index(a) for a in beats.get(centre, [])] if centre else [])
    return centre


# ---------------------------------------------------------------- hexbattle

def unit_table(game: GameData) -> tuple[list[str], list[list[Cell]]]:
    """Hexbattle's units: headers and a row per unit type, as the reference sheet and the booklet print them."""
    return ["Unit", "Str", "Move", "Range", "CC", "Notes"], [
        [u.name, str(u.strength), "formation" if u.uses_formations else str(u.movement),
         str(u.range) if u.range else "\u2013", "formation" if u.uses_formations else signed(u.melee_bonus), u.text]
        for u in game.table("units")]


def formation_table(game: GameData) -> tuple[list[str], list[list[Cell]]]:
    """Hexbattle's infantry formations: headers and a row each."""
    def vs(f: Any) -> str:
        parts = [f"{signed(f.defence_vs_cavalry)} vs cavalry" if f.defence_vs_cavalry is not None else "",
                 f"{signed(f.defence_vs_infantry)} vs infantry" if f.defence_vs_infantry is not None else ""]
        return ", ".join(p for p in parts if p)

    return ["Formation", "Move", "CC attack", "CC defence", "Fire dice", "Notes"], [
        [f.name, str(f.movement), signed(f.melee_attack_bonus), vs(f) or signed(f.melee_defence_bonus),
         "1 per strength" if f.full_volley else str(f.fire_dice), f.text] for f in game.table("formations")]


def terrain_table(game: GameData, icon: float, caption: float = 0.0) -> tuple[list[str], list[list[Cell]]]:
    """Hexbattle's terrain: headers and a row per terrain, with the tiles' effect icons `icon` mm high, their
    labels at least `caption` pt (a page printed smaller than its drawing needs them larger than a tile's)."""
    tile = part_layout(game, "tile_layout")
    pictures = unit_icons(game)
    label = tile.fonts["icon"]
    if caption > label.min_size:
        bigger = label.model_copy(update={"size": max(label.size, caption), "min_size": caption})
        tile = tile.model_copy(update={"fonts": {**tile.fonts, "icon": bigger}})

    def icons(t: Any) -> Cell:
        def draw(cv: Canvas, box: Box) -> None:
            size = min(box.h, icon)
            for k, e in enumerate(effects(t, pictures)):
                draw_effect_icon(cv, e, Box(box.x + k * (size + 0.8), box.cy - size / 2, size, size), tile)
        return draw

    return ["Terrain", "Tiles", "Icons", "Effects"], [
        [t.name, str(t.copies), icons(t), "; ".join(e.meaning for e in effects(t)) or "No effect"]
        for t in game.table("terrain")]


def hexbattle(c: Canvas, width: float, height: float, *, game: GameData, ctx: BuildContext | None) -> None:
    r = game.rules
    d = r.die_sides
    s = start_sheet(c, width, height, game, f"2 players \u00b7 {r.actions_per_turn} actions a turn (never more "
                    f"than {r.max_actions}) \u00b7 {r.map_columns} \u00d7 {r.map_rows} hex map", ctx)
    spec = s.layout.sheet_settings().hexbattle
    s.heading("Units (counter: strength \u00b7 range \u00b7 movement; the notch shows the facing)")
    s.table(*unit_table(game), spec.units, ["start", "middle", "middle", "middle", "middle", "start"])
    left, right = s.split(spec.split)
    left.heading("Close combat")
    left.steps([
        ("", "The target must be in the attacker's front hex. Both sides roll one d"
             f"{d} per strength point and add their bonus to every die."),
        ("", "Pair the dice highest with highest: the lower die of each pair costs its side 1 strength. "
             "Unpaired dice do nothing."),
        ("", f"The defender's dice lose {r.front_flank_penalty} when attacked from a front flank, "
             f"{r.side_flank_penalty} from a side flank, {r.rear_penalty} from the rear"
             + "".join(f" ({f.name} is immune)" for f in game.table("formations") if f.facing_immune) + "."),
    ], numbered=False)
    right.heading("Ranged fire")
    right.steps([
        ("", f"Each d{d} at or under {r.hit_max} is a hit (artillery firing at artillery: {r.counter_battery_hit_max}"
             "). Terrain moves the hit number (see the tiles)."),
        ("", f"Artillery within {r.point_blank_range} hex: every hit costs {r.point_blank_multiplier} strength."),
        ("", "Artillery rolls a die per strength; infantry by formation. Fire needs range and line of sight."),
    ], numbered=False)
    s.join([left, right])
    s.heading("Formations (infantry)")
    s.table(*formation_table(game), spec.formations, ["start", "middle", "middle", "middle", "middle", "start"])
    s.heading("Terrain tiles")
    s.table(*terrain_table(game, spec.icon), spec.terrain, ["start", "middle", "start", "start"], min_row=spec.icon)
    left, right = s.split(spec.split)
    left.heading("Actions (a unit never acts twice in a row)")
    left.steps([
        ("", "Move a unit (turning costs movement too), pivot it, attack, change an infantry formation or "
             "repair 1 strength of a damaged unit."),
        ("", f"Draw a terrain tile and place it at once, or draw a bonus card (hold up to {r.bonus_hand_limit})."),
    ], numbered=False)
    right.heading("Victory")
    right.steps([
        ("", "Destroy every enemy unit, or"),
        ("", "move an infantry unit onto the enemy's starting row."),
    ], numbered=False)
    s.join([left, right])


def hexbattle_field(c: Canvas, width: float, height: float, *, game: GameData, ctx: BuildContext | None) -> None:
    """The second page: deployment, facing and arcs, pivots, line of sight, and Broken units."""
    r = game.rules
    armies = list(game.table("armies"))
    start = next(f for f in game.table("formations") if f.id == r.start_formation)
    s = start_sheet(c, width, height, game, "Deployment, facing and arcs, line of sight, Broken units", ctx,
                    title="the field")
    spec = s.layout.sheet_settings().hexbattle
    left, right = s.split(spec.split)
    left.heading("Deployment")
    left.steps([
        ("", f"{armies[0].name} deploys on the bottom row, {armies[1].name} on the top row; both rows are "
             "open ground, every other hex is hidden."),
        ("", f"Taking turns, place one unit on an empty hex of your row, facing the enemy. Infantry start in "
             f"{start.name}. When one side is done, the other places the rest."),
        ("", "Quick Start: drop all your remaining units at random on your row."),
        ("", f"{armies[0].name} takes the first turn."),
    ], numbered=False)
    right.heading("Pivots and turns")
    right.steps([
        ("", "Pivot (an action): turn a unit to face any side, without moving. Artillery never pivots."),
        ("", f"Moving, each 60\u00b0 turn costs {r.turn_cost} movement point; a unit ends facing any side it can "
             "pay for."),
        ("", "A gun turns only as it fires (to face its target, one step at most) or to step on; it may back "
             "into the hex behind it."),
    ], numbered=False)
    s.join([left, right])
    s.heading("Facing and arcs: where a unit may attack, and how an attack from each side hurts it")
    draw_arcs(c, s.layout, s.diagram(spec.arcs), game)
    s.steps([
        ("", "A charge needs the enemy in the hex straight ahead. The defender's dice lose "
             f"{r.front_flank_penalty} from a front flank, {r.side_flank_penalty} from a side flank, "
             f"{r.rear_penalty} from the rear (Square: no penalty)."),
        ("", "Fire reaches the 120\u00b0 cone ahead (the shaded hexes, out to the unit's range); guns fire into "
             "the same cone. Infantry in Square or holding a Farm fire all round."),
    ], numbered=False)
    s.heading("Line of sight: centre to centre")
    draw_sight(c, s.layout, s.diagram(spec.sight), game)
    s.steps([
        ("", "Woods, Hills, hidden hexes and any unit in between block it; Ponds and other terrain do not."),
        ("", "Split hexes: a line running exactly along the edge between two hexes checks each of them that "
             f"would block on its own: roll a die for each, 1\u2013{r.split_block_max} blocks."),
        ("", "A gun on a hill sees over units, but not over Hills, Woods or hidden hexes."),
    ], numbered=False)
    s.heading("Broken units")
    s.paragraph("A unit at strength 0 is Broken (a gun at 1, by its first hit): put a Broken marker on it. It "
                "cannot attack or change formation, and its next loss destroys it. Repair, Rally! and Supply Run "
                "bring strength back, up to the printed strength; a repaired unit is no longer Broken.")


# ---------------------------------------------------------------- imperial

def imperial(c: Canvas, width: float, height: float, *, game: GameData, ctx: BuildContext | None) -> None:
    from cards.schemas.imperial import CAVALRY, MUSKETEERS, PIKEMEN, TYPE_NAMES

    r = game.rules
    beats = r.beats.as_dict()
    s = start_sheet(c, width, height, game, f"2 sides \u00b7 a shared supply of {r.supply_size} Military "
                    f"cards \u00b7 up to {r.max_draw} cards a side", ctx)
    start = r.default_options
    first = start.initiative[0] + 1
    s.heading("Starting a battle")
    s.paragraph(f"The empire game sets each side's Imperial Power, Gold and Reinforcements. A battle played on its "
                f"own starts with {start.imperial_power[0]} Imperial Power, {start.gold[0]} Gold and "
                f"Reinforcements {start.reinforcements[0]} for each side; player {first} holds the initiative "
                "marker and acts first wherever the rules say \u201cin initiative order\u201d (exchanging, buying).")
    s.heading("Who beats whom: an arrow points from the winner to the card it beats")
    spec = s.layout.sheet_settings().imperial
    beats_triangle(s, s.diagram(spec.diagram), game)
    s.paragraph("Both sides lay one card face down and turn them up together. The same type: both are lost. "
                "Otherwise the beaten card is lost and the winner goes back to its owner's hand.")
    left, right = s.split(spec.split)
    left.heading("A battle, in order")
    left.steps([
        ("Compare", f"A side with {r.auto_win_ratio} times the other's Imperial Power (and more) wins "
                    "without a fight."),
        ("Draw", f"One Military card per Imperial Power, at most {r.max_draw}; the rest is Reserve."),
        ("Exchange", f"In initiative order, discard {r.exchange_count} cards to your discard pile and draw "
                     f"{r.exchange_count} new ones, or keep your hand."),
        ("Buy", f"Pay {r.gold_cost} Gold per extra card of the type you choose."),
        ("Fight", "Play rounds until a side routs."),
        ("Reinforce", f"{r.reinforcement_calls} time{'s' if r.reinforcement_calls != 1 else ''} a battle, after a "
                      "round: take cards back from your discard pile, up to your Reinforcement marker."),
    ])
    right.heading("Routs")
    right.steps([
        ("", f"{TYPE_NAMES[PIKEMEN]} beat {TYPE_NAMES[beats[PIKEMEN]]}: that side may not play "
             f"{TYPE_NAMES[CAVALRY]} next round, and routs at once if its hand holds only {TYPE_NAMES[CAVALRY]}."),
        ("", f"{TYPE_NAMES[CAVALRY]} beat {TYPE_NAMES[beats[CAVALRY]]}: that side also loses "
             f"{r.cavalry_infantry_discards} infantry of its choice, or routs if it cannot."),
        ("", f"Then, if the {TYPE_NAMES[CAVALRY]} side holds {r.rout_ratio} times as many cards, the "
             f"{TYPE_NAMES[beats[CAVALRY]]} side routs."),
        ("", "A side with no cards left routs. Both rout at once: the battle is Inconclusive."),
        ("", f"Advanced Rifling ({r.default_options.rifling_rounds_of} rounds "
             f"{', '.join(map(str, r.rifling_rounds))}): {TYPE_NAMES[MUSKETEERS]} "
             f"beating {TYPE_NAMES[beats[MUSKETEERS]]} also take a card of a type they name."),
    ], numbered=False)
    s.join([left, right])
    s.heading("Military cards and tokens")
    card_list(s, game, "military", "Value")
    card_list(s, game, "tokens", "Value")


def beats_triangle(s: Sheet, box: Box, game: GameData) -> None:
    """Imperial's Military types round a triangle, an arrow from each to the type it beats."""
    from cards.schemas.imperial import SYMBOLS, TYPE_NAMES, TYPES

    beats = game.rules.beats.as_dict()
    ring = ring_order({k: [v] for k, v in beats.items()}, list(TYPES))
    pictures = type_icons(game, "military")
    beats_diagram(s, box, [Node(TYPE_NAMES[t], SYMBOLS[t], pictures.get(t)) for t in ring],
                  [(ring.index(w), ring.index(l)) for w, l in beats.items()])


# ---------------------------------------------------------------- medieval

def medieval(c: Canvas, width: float, height: float, *, game: GameData, ctx: BuildContext | None) -> None:
    r = game.rules
    cols = r.columns
    s = start_sheet(c, width, height, game, f"2 players \u00b7 a {r.deck_size}-card deck each \u00b7 "
                    f"{cols} battle columns", ctx)
    s.heading("The battlefield")
    battlefield(s, s.take(s.layout.sheet_settings().medieval.battlefield), game)
    s.heading("A battle, step by step")
    s.steps([
        ("Lay out", f"Both players turn up {cols} cards from their own deck, one per column, facing the "
                    "opponent's cards."),
        ("Play another", "A card that says \u201cplay another\u201d is covered at once by the next card of your deck, "
                         "overlapping so the values below still show. Keep going until none is left."),
        ("Reenforce", f"Draw {r.reenforcements} cards into your hand and put them face down, at most one per "
                      "column. When both players have placed theirs, turn them up together."),
        ("Events", "Event cards add to or take from your columns; some stay beside the battlefield for this "
                   "battle. An Event drawn as a reenforcement or in a tie counts 0 and does nothing."),
        ("Resolve", "In each column the higher total wins: the winner's cards go face up to its owner's "
                    "Survivors pile, the loser's to its owner's Graveyard."),
        ("Ties", f"Each side adds {r.tie_cards} card from its deck to the tied column (playing another if it "
                 "says so) and compares again, as often as needed."),
        ("Next battle", "When the battlefield is clear, start again. An empty deck is replaced by the "
                        "shuffled Survivors pile."),
    ])
    s.heading("Winning")
    s.paragraph("The last player with fighters left wins. When your deck runs low, play what you have "
                "wherever you can.")
    s.heading("The cards (each deck)")
    card_list(s, game, "cards")


def battlefield(s: Sheet, box: Box, game: GameData) -> None:
    """Both players' rows of columns facing each other, with each player's deck and piles."""
    col = s.layout.colours
    cols = game.rules.columns
    decks = game_layout(game).deck_names or ["Player 1", "Player 2"]
    spec = s.layout.sheet_settings().medieval
    card_w, card_h = spec.card
    gap = spec.card_gap
    row_w = cols * card_w + (cols - 1) * gap
    piles_w = 3 * card_w + 6 * gap  # Survivors, Deck and Graveyard to the left of the columns
    x0 = box.cx - (row_w + piles_w) / 2 + piles_w
    for y, label in ((box.y + 1.0, decks[0]), (box.bottom - card_h - 1.0, decks[-1])):
        for k in range(cols):
            x = x0 + k * (card_w + gap)
            s.c.rect(x, y, card_w, card_h, fill=col["band"], stroke=col["rule"], width=0.3, radius=1.0)
            s.write(Box(x, y, card_w, card_h), f"Column {k + 1}", "small", align="middle")
        piles = (("Survivors", x0 - gap * 6 - card_w * 3), ("Deck", x0 - gap * 4 - card_w * 2),
                 ("Graveyard", x0 - gap * 2 - card_w))
        for name, x in piles:
            s.c.rect(x, y, card_w, card_h, stroke=col["ink"], width=0.3, radius=1.0)
            s.write(Box(x, y, card_w, card_h), name, "small", align="middle")
        s.write(Box(x0 + row_w + gap * 2, y, box.right - (x0 + row_w + gap * 2), card_h),
                label, "cell_bold")


# ---------------------------------------------------------------- build entry point

SHEETS: dict[str, Callable[..., None]] = {"waterloo": waterloo, "warfare": warfare, "hexbattle": hexbattle,
                                          "imperial": imperial, "medieval": medieval}


MORE_PAGES: dict[str, list[Callable[..., None]]] = {"waterloo": [waterloo_combos], "hexbattle": [hexbattle_field]}
"""Pages after the first, for games whose table needs more than one page to play without a phone."""


def printables(game: GameData, ctx: BuildContext) -> list[PageSet]:
    """The game's reference sheet as a page set (nothing for a game without one)."""
    draw = SHEETS.get(game.id)
    if draw is None:
        return []
    return [PageSet(SHEET, [partial(fitted, page, game=game, ctx=ctx) for page in [draw, *MORE_PAGES.get(game.id, [])]])]
