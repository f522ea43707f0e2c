"""A rules booklet per game: A5 pages that teach the game in order, imposed for a saddle-stitched fold.

The players' text is data, `cards/<game>/rules.md`, in a small Markdown: `# Chapter`, `## Heading`,
paragraphs (`**bold**` runs), `- ` bullets and `1. ` steps, `| tables |`, `> ` tips (consecutive lines join),
and directives on a line of their own: `::: diagram NAME` (drawn here from the game's data),
`::: cards` (the index of cards) and `::: page` (a new page). `{name}` in the text is a rule constant
of `game.toml` (`{default_options.gold.0}` reaches into tables and lists), so a rule changed in the
data is changed in the booklet. The numbered rulings stay in docs/rules/ for developers.

Pages are laid out once in reading order on recording canvases (`lay_out`), in the `booklet` layout's
style (that of the reference sheets, generator/reference.py), then replayed: in order for screens, and
two to a landscape sheet for printing (`impose`): sheet k's front holds pages n-2k and 2k+1, its back
2k+2 and n-2k-1, so the printed stack, folded once, reads 1..n. Print duplex, flipping on the short
edge. On US Letter the A5 pages keep their size and lose 4.4 mm of margin at each side (half-letter
pages); nothing is scaled, so every text keeps its size (6.5 pt at least).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from cards import markup
from cards.layout import SheetProfile, game_layout
from cards.load import GameData
from cards.problems import DataError, Problem
from generator import booklet_diagrams, fonts, icons
from generator.booklet_flow import Flow, Page, booklet_layout, rich, shares_of, table
from generator.canvas import Box, Canvas, Document, PdfDocument, RecordingCanvas
from generator.deck import face_of
from generator.printable import BuildContext, SheetSet
from generator.reference import Cell, Sheet, SheetOverflow
from generator.text import draw_text

NAME = "rules"
CREDITS = 24.0  # mm the credits take at the foot of the last page
NOTE_PITCH = 8.0  # mm between the lines of a notes page
CHAPTER_ROOM = 0.2  # a chapter starts a new page when less than this share of the page is left
RULES_FILE = "rules.md"


# ---------------------------------------------------------------- the text

@dataclass(frozen=True)
class Block:
    """One piece of the text: `kind` is chapter, heading, paragraph, bullets, steps, table, tip,
    diagram, cards or page; `items` are list items (lead, text) or table rows."""

    kind: str
    text: str = ""
    items: tuple[tuple[str, ...], ...] = ()
    line: int = 0


DIRECTIVES = ("diagram", "cards", "page")
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_.]*)\}")


def rules_path(game: GameData) -> Path:
    return game.folder / RULES_FILE


def value_text(value: Any) -> str:
    """A rule constant as a player reads it: lists as "7, 14 or 21"."""
    if isinstance(value, (list, tuple)):
        words = [value_text(v) for v in value]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return str(value)


def _lookup(game: GameData, path: str) -> Any:
    names: dict[str, Any] = {"game": game.name, "min_players": game.min_players, "max_players": game.max_players}
    head, *rest = path.split(".")
    value = names[head] if head in names else getattr(game.rules, head)
    for part in rest:
        if part.isdigit():
            value = value[int(part)]
        else:
            value = value[part] if isinstance(value, dict) else getattr(value, part)
    return value


def fill(game: GameData, text: str, where: str, line: int, problems: list[Problem]) -> str:
    """The text with each `{constant}` replaced by its value; an unknown name is a problem."""
    def one(match: re.Match[str]) -> str:
        try:
            return value_text(_lookup(game, match.group(1)))
        except (AttributeError, KeyError, IndexError, TypeError, ValueError):
            problems.append(Problem(where, f"'{{{match.group(1)}}}' names no rule constant of {game.id}",
                                    line=line, value=match.group(1)))
            return match.group(0)
    return _PLACEHOLDER.sub(one, text)


def parse(game: GameData) -> tuple[list[Block], list[Problem]]:
    """The booklet's blocks from cards/<game>/rules.md, constants filled in, and what is wrong with it."""
    path = rules_path(game)
    where = str(path)
    problems: list[Problem] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        return [], [Problem(where, f"cannot read the rules text: {err.strerror or err}")]
    blocks: list[Block] = []
    para: list[str] = []
    items: list[tuple[str, ...]] = []
    list_kind = ""
    rows: list[tuple[str, ...]] = []
    start = 0

    def flush() -> None:
        nonlocal para, items, rows, list_kind
        if para:
            blocks.append(Block("paragraph", fill(game, " ".join(para), where, start, problems), line=start))
        if items:
            blocks.append(Block(list_kind, items=tuple(items), line=start))
        if rows:
            if len({len(r) for r in rows}) != 1:
                problems.append(Problem(where, "a table's rows have different numbers of cells", line=start))
            else:
                blocks.append(Block("table", items=tuple(rows), line=start))
        para, items, rows, list_kind = [], [], [], ""

    def item(text: str) -> tuple[str]:
        return (fill(game, text.strip(), where, number, problems),)

    comment = False
    tip_line = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        stripped = line.strip()
        if comment or stripped.startswith("<!--"):  # a note for whoever edits the text, never printed
            comment = "-->" not in stripped
            continue
        bullet = re.match(r"^- (.*)$", stripped)
        step = re.match(r"^\d+\. (.*)$", stripped)
        if not stripped:
            flush()
        elif stripped.startswith(":::"):
            flush()
            name, _, arg = stripped[3:].strip().partition(" ")
            if name not in DIRECTIVES:
                problems.append(Problem(where, f"unknown directive '::: {name}' (known: {', '.join(DIRECTIVES)})",
                                        line=number, value=name))
            elif name == "diagram" and arg not in booklet_diagrams.DIAGRAMS.get(game.id, {}):
                known = ", ".join(booklet_diagrams.DIAGRAMS.get(game.id, {})) or "none"
                problems.append(Problem(where, f"no diagram '{arg}' for {game.id} (known: {known})", line=number,
                                        value=arg))
            else:
                blocks.append(Block(name, arg, line=number))
        elif stripped.startswith("#"):
            flush()
            level = len(stripped) - len(stripped.lstrip("#"))
            blocks.append(Block("chapter" if level == 1 else "heading",
                                fill(game, stripped.lstrip("#").strip(), where, number, problems), line=number))
        elif stripped.startswith(">"):
            text = fill(game, stripped.lstrip(">").strip(), where, number, problems)
            if blocks and blocks[-1].kind == "tip" and number == tip_line + 1:
                blocks[-1] = Block("tip", f"{blocks[-1].text} {text}", line=blocks[-1].line)
            else:
                flush()
                blocks.append(Block("tip", text, line=number))
            tip_line = number
        elif stripped.startswith("|"):
            if para or items:
                flush()
            cells = tuple(fill(game, c.strip(), where, number, problems) for c in stripped.strip("|").split("|"))
            if not all(set(c) <= set("-: ") for c in cells):
                start = start if rows else number
                rows.append(cells)
        elif bullet or step:
            kind = "bullets" if bullet else "steps"
            if para or rows or (items and list_kind != kind):
                flush()
            start = start if items else number
            list_kind = kind
            items.append(item((bullet or step).group(1)))  # type: ignore[union-attr]
        elif items and raw.startswith("  "):
            items[-1] = (f"{items[-1][0]} {fill(game, stripped, where, number, problems)}",)
        else:
            if items or rows:
                flush()
            start = start if para else number
            para.append(stripped)
    flush()
    if not any(b.kind == "chapter" for b in blocks) and not problems:
        problems.append(Problem(where, "the rules text has no chapter ('# Title' line)"))
    return blocks, problems


def check(game: GameData) -> list[Problem]:
    """What `muster check` reports about a game's rules text (a game without one has no booklet)."""
    return parse(game)[1] if rules_path(game).is_file() else []


# ---------------------------------------------------------------- laying out pages

def _chapter(s: Sheet, text: str) -> None:
    col = s.layout.colours
    if s.y > s.area.y + 0.01:
        s.y += 4.0
    box = s.take(s.measure(text, "chapter", s.area.w) + 1.5)
    s.write(box, text, "chapter", col["accent"])
    s.c.rect(box.x, box.bottom, 18.0, 0.9, fill=col["accent"])
    s.c.line(box.x + 18.0, box.bottom + 0.45, box.right, box.bottom + 0.45, stroke=col["rule"], width=0.3)
    s.y += 3.0


def _heading(s: Sheet, text: str) -> None:
    s.y += s.layout.page_settings().gap
    box = s.take(s.measure(text, "heading", s.area.w) + 0.6)
    s.write(box, text, "heading", s.layout.colours["accent"])
    s.y += 0.8


def _item(s: Sheet, *, mark: str, text: str) -> None:
    """A list item: its number or bullet in the accent colour, then its text (its `**lead**` in bold)."""
    indent = s.layout.page_settings().indent
    top = s.y
    rich(s, text, indent=indent)
    f = s.layout.fonts["lead"]
    s.c.text(s.area.x, top + fonts.ascent(f.font, f.size) + 0.3, mark, font=f.font, size=f.size,
             fill=s.layout.colours["accent"])
    s.y += 0.9


def _tip(s: Sheet, text: str) -> None:
    """A tinted box with a bar in the accent colour: an example or a tip beside the rules."""
    col = s.layout.colours
    pad = 2.5
    s.y += 1.0
    top = s.y
    inner = Sheet(RecordingCanvas(s.layout.width, s.layout.height), s.layout,
                  Box(s.area.x + pad + 1.5, top + pad, s.area.w - 2 * pad - 1.5, s.area.bottom - top - 2 * pad))
    rich(inner, text)
    box = s.take(inner.y - top + pad)
    s.c.rect(box.x, box.y, box.w, box.h, fill=col["callout"])
    s.c.rect(box.x, box.y, 1.2, box.h, fill=col["accent"])
    inner.c.replay(s.c)  # type: ignore[attr-defined]
    s.y += 2.0


def card_rows(game: GameData, claimed: frozenset[str] = frozenset()) -> list[list[Cell]]:
    """Every card design the game prints, alphabetically; designs printed alike are listed once. Tables
    `claimed` by other printables (hexbattle's tiles and counters) are no cards."""
    seen: dict[tuple[str, str, str, str], int] = {}
    for table in [t for t in game.card_tables() if t not in claimed]:
        for row in game.table(table):
            face = face_of(game, row)
            key = (row.name, face.kind, face.corner or "\u2013", markup.plain(game, face.text))
            seen[key] = seen.get(key, 0) + row.copies
    return [[name, kind, corner, str(copies), text] for (name, kind, corner, text), copies
            in sorted(seen.items(), key=lambda kv: (kv[0][0].lower(), kv[0][1]))]


def _blocks_with_leads(blocks: Sequence[Block]) -> Iterator[tuple[list[Block], Block | None]]:
    """Each block with what must stay on its page: the headings just before it, and for a diagram the
    paragraph that introduces it."""
    pending: list[Block] = []
    for block, after in zip(blocks, [*blocks[1:], None]):
        if block.kind in ("chapter", "heading") or (block.kind == "paragraph" and after and after.kind == "diagram"):
            pending.append(block)
            continue
        yield pending, block
        pending = []
    if pending:
        yield pending, None


def lay_out(game: GameData, blocks: Sequence[Block], claimed: frozenset[str] = frozenset(),
            low_ink: bool = False) -> list[Page]:
    """The booklet's pages in reading order: cover, the text, ruled note pages up to a multiple of four and
    the back cover with the credits (or the credits at the foot of the text's last page, when that page
    is the fourth of four); folios and running heads added once the pages are known."""
    layout = booklet_layout(game)
    flow = Flow(game, layout, claimed=claimed)
    cover = flow.new_page(folio=False)
    _cover(cover, game, low_ink)
    flow.new_page()
    for leads, block in _blocks_with_leads(blocks):
        for b in leads:
            if b.kind == "chapter":
                if not flow.fresh and flow.room() < CHAPTER_ROOM:
                    flow.new_page()
                flow.chapter = b.text
                if flow.fresh:  # a page's running head names the chapter it starts in
                    flow.pages[-1].chapter = b.text

        def lead(s: Sheet, heads: Sequence[Block] = leads) -> None:
            for b in heads:
                if b.kind == "paragraph":
                    rich(s, b.text)
                    s.y += 1.6
                else:
                    (_chapter if b.kind == "chapter" else _heading)(s, b.text)

        flow.placed_on = 0
        _block(flow, block, lead if leads else None)
        # on the page the headings landed on, which is the next one when what follows them did not fit
        start = flow.placed_on or len(flow.pages)
        flow.pages[start - 1].starts.extend(b.text for b in leads if b.kind == "chapter")
    if len(flow.pages) % 4 == 0 and flow.room() * flow.area(1).h >= CREDITS:
        _back_cover(flow.sheet, game)  # the text ends on the back cover: the credits go at its foot
    else:
        chapters = [(title, number) for number, page in enumerate(flow.pages, start=1) for title in page.starts]
        for k in range((-(len(flow.pages) + 1)) % 4):
            if k == 0:  # the first page the fold leaves over lists where each chapter starts
                flow.chapter = "Contents"
                _contents(flow.new_page(), chapters)
            else:
                flow.chapter = "Notes"
                _notes(flow.new_page())
        _back_cover(flow.new_page(folio=False), game)
    for number, page in enumerate(flow.pages, start=1):
        if page.folio:
            _folio(page, number, flow)
    return flow.pages


def _with(lead: Callable[[Sheet], None] | None, draw: Callable[[Sheet], None],
          after: float = 0.0) -> Callable[[Sheet], None]:
    """`draw` preceded by the headings that must stay with it, and followed by `after` mm of space."""
    def block(s: Sheet) -> None:
        if lead:
            lead(s)
        draw(s)
        s.y += after
    return block


def _block(flow: Flow, block: Block | None, lead: Callable[[Sheet], None] | None) -> None:
    if block is None:
        if lead:
            flow.place(lead, "a heading")
        return
    where = f"{RULES_FILE} line {block.line}"
    text = block.text
    if block.kind == "page":
        if lead:
            flow.place(lead, where)
        flow.new_page()
    elif block.kind == "paragraph":
        flow.place(_with(lead, lambda s: rich(s, text), 1.6), where)
    elif block.kind == "tip":
        flow.place(_with(lead, lambda s: _tip(s, text)), where)
    elif block.kind in ("bullets", "steps"):
        for k, (item,) in enumerate(block.items, start=1):
            mark = f"{k}." if block.kind == "steps" else "\u2022"
            last = 0.6 if k == len(block.items) else 0.0
            flow.place(_with(lead if k == 1 else None, partial(_item, mark=mark, text=item), last), where)
    elif block.kind == "table":
        headers, *rows = block.items
        table(flow, headers, rows, shares_of(block.items), lead)
    elif block.kind == "cards":
        table(flow, ["Card", "Kind", "Value", "Copies", "What it does"], card_rows(flow.game, flow.claimed),
              flow.layout.sheet_settings().cards, lead)
    elif block.kind == "diagram":
        booklet_diagrams.DIAGRAMS[flow.game.id][text](flow, lead)


def _contents(s: Sheet, chapters: Sequence[tuple[str, int]]) -> None:
    """Each chapter and the page it starts on, ruled like a table: a folded booklet has no outline."""
    _chapter(s, "Contents")
    col = s.layout.colours
    for title, number in chapters:
        box = s.take(NOTE_PITCH)
        s.write(Box(box.x, box.y, box.w - 12.0, box.h), title, "body")
        s.write(Box(box.right - 12.0, box.y, 12.0, box.h), str(number), "body", align="end")
        s.c.line(box.x, box.bottom, box.right, box.bottom, stroke=col["rule"], width=0.2)


def _notes(s: Sheet) -> None:
    """A page that pads the booklet to a multiple of four: ruled for the players' own notes."""
    _chapter(s, "Notes")
    y = s.y + NOTE_PITCH
    while y < s.area.bottom:
        s.c.line(s.area.x, y, s.area.right, y, stroke=s.layout.colours["rule"], width=0.2)
        y += NOTE_PITCH


def _cover(s: Sheet, game: GameData, low_ink: bool = False) -> None:
    col = s.layout.colours
    look = game_layout(game)
    width, height = s.layout.width, s.layout.height
    panel = Box(10.0, 10.0, width - 20.0, height - 20.0)
    ground = col.get("back", col["cover"])
    ink = col.get("back_ink", col["cover_ink"])
    if low_ink:  # the cover's colour as a frame and as the ink, on white paper
        ground, ink = col["panel"], ground
    s.c.rect(panel.x, panel.y, panel.w, panel.h, fill=None if low_ink else ground, stroke=ink if low_ink else None,
             width=0.8, radius=3.0)
    s.c.rect(panel.x + 3, panel.y + 3, panel.w - 6, panel.h - 6, stroke=ink, width=0.4, radius=2.0)
    emblem = look.back_icon
    if emblem:
        size = 56.0
        icons.draw_icon(s.c, emblem, Box(width / 2 - size / 2, 40.0, size, size), ink)
    title = s.layout.fonts["cover_title"]
    draw_text(s.c, Box(panel.x + 8, 110.0, panel.w - 16, 30.0), game.name, title.font, title.size, title.min_size,
              ink, align="middle", valign="middle")
    sub = s.layout.fonts["cover_subtitle"]
    players = (f"{game.min_players} players" if game.min_players == game.max_players
               else f"{game.min_players}\u2013{game.max_players} players")
    for k, line in enumerate(("Rules of play", players)):
        draw_text(s.c, Box(panel.x + 8, 142.0 + k * 8.0, panel.w - 16, 7.0), line, sub.font, sub.size, sub.min_size,
                  ink, align="middle", valign="middle")


def _back_cover(s: Sheet | None, game: GameData) -> None:
    """The credits at the foot of the last page: what printed the booklet, the icons' licence, the fonts."""
    assert s is not None
    col = s.layout.colours
    s.y = s.area.bottom - CREDITS
    s.c.line(s.area.x, s.y, s.area.right, s.y, stroke=col["rule"], width=0.3)
    s.y += 3.0
    s.paragraph(f"{game.name}: rules of play. Printed by Muster from the game's data: the cards, counters, "
                "reference sheet and this booklet are drawn from the same files, so they always agree.", "small")
    s.paragraph(icons.CREDIT, "small")
    s.paragraph("Fonts: DejaVu (free licence, see generator/fonts).", "small")


def _folio(page: Page, number: int, flow: Flow) -> None:
    """Page number at the outer corner of the foot, the game's name beside it, the chapter at the head."""
    layout = flow.layout
    b = layout.booklet
    assert b is not None
    width, height = flow.size
    area = flow.area(number)
    f = layout.fonts["folio"]
    ink = layout.colours["ink"]
    base = height - b.bottom - 1.0
    right = number % 2 == 1
    c: Canvas = page.canvas
    c.line(area.x, base - f.size * 0.45, area.right, base - f.size * 0.45, stroke=layout.colours["rule"], width=0.25)
    x = area.right if right else area.x
    c.text(x, base + 2.4, str(number), font="DejaVuSansCondensed-Bold", size=f.size, fill=ink,
           anchor="end" if right else "start")
    c.text(area.right - 6.0 if right else area.x + 6.0, base + 2.4, f"{flow.game.name} \u00b7 {page.chapter}"
           if page.chapter else flow.game.name, font=f.font, size=f.size, fill=ink, anchor="end" if right else "start")


# ---------------------------------------------------------------- imposition and output

def sheet_order(pages: int) -> list[tuple[int, int]]:
    """(left, right) page numbers of each printed side in order: sheet 1 front, sheet 1 back, …"""
    if pages % 4:
        raise ValueError(f"a saddle-stitched booklet needs a multiple of 4 pages, not {pages}")
    sides = []
    for k in range(pages // 4):
        sides.append((pages - 2 * k, 2 * k + 1))
        sides.append((2 * k + 2, pages - 2 * k - 1))
    return sides


def impose(doc: Document, pages: Sequence[Page], paper: tuple[float, float]) -> None:
    """Two pages side by side on each landscape side of the paper, at full size. Where half the sheet is
    narrower than a page (A5 on US Letter: 139.7 mm for 148.5), each page loses the excess equally at
    its fold and its outer edge, inside its margins, so no text is ever printed smaller. No ink lies
    nearer the paper's edge than the pages' own margins (no fold marks: the fold is the sheet's middle)."""
    sheet_w, sheet_h = max(paper), min(paper)
    page_w, page_h = pages[0].canvas.width, pages[0].canvas.height
    half = min(page_w, sheet_w / 2)
    shift = (page_w - half) / 2     # drawn this far towards the fold, then clipped to its half
    y0 = max(0.0, (sheet_h - page_h) / 2)
    for left, right in sheet_order(len(pages)):
        with doc.page(sheet_w, sheet_h, trim=Box(sheet_w / 2 - half, y0, 2 * half, min(page_h, sheet_h))) as c:
            for number, x in ((left, sheet_w / 2 - half - shift), (right, sheet_w / 2 - shift)):
                with c.group(x, y0, clip=Box(shift, 0, half, page_h)):
                    pages[number - 1].canvas.replay(c)


def screen(doc: Document, pages: Sequence[Page]) -> None:
    """The pages in reading order; a PDF gets an outline entry for each chapter where it starts."""
    for page in pages:
        with doc.page(page.canvas.width, page.canvas.height) as c:
            page.canvas.replay(c)
            if isinstance(doc, PdfDocument):
                for title in page.starts:
                    doc.bookmark(title)


def pages_of(game: GameData, claimed: frozenset[str] = frozenset(), low_ink: bool = False) -> list[Page]:
    """The game's booklet pages, or a DataError naming what is wrong with its rules text."""
    blocks, problems = parse(game)
    if problems:
        raise DataError(problems)
    return lay_out(game, blocks, claimed, low_ink)


def printables(game: GameData, ctx: BuildContext) -> list[SheetSet]:
    """The game's booklet: imposed on every duplex home profile's paper, and in page order for screens."""
    if not rules_path(game).is_file():
        return []
    pages = pages_of(game, ctx.claimed, ctx.low_ink)

    def draw(doc: Document, profile: Any, paper: tuple[float, float]) -> bool:
        if not isinstance(profile, SheetProfile) or profile.kind != "sheet":
            return False  # fold-over profiles print single-sided: a booklet needs both sides
        impose(doc, pages, paper)
        return True

    return [SheetSet(NAME, draw, lambda doc: screen(doc, pages))]
