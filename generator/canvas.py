"""The one small drawing interface every printable is drawn against, with PDF, SVG and recording backends.

Units are millimetres, the origin is the top-left corner and y grows downwards, so a
component is written once in the way designers measure paper. Colours are "#rrggbb"
strings (None = no paint); font sizes are points; `text` puts its baseline at y.
A `Document` hands out one `Canvas` per page and writes the files on `save()`.
"""

from __future__ import annotations

import io
import math
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

import svgwrite
from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas as PdfCanvas

from generator import fonts, svgfonts
from generator.fonts import PT

Point = tuple[float, float]
Rect = tuple[float, float, float, float]
Anchor = Literal["start", "middle", "end"]


def _fmt(v: float) -> str:
    """Numbers rounded to 1/1000 mm so files are small and stable."""
    if type(v) is int:
        return str(v)
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class Box:
    """A rectangle in millimetres: left, top, width, height."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def inset(self, d: float) -> Box:
        """The box shrunk by d on every side (grown when d < 0)."""
        return Box(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)


class Canvas(ABC):
    """What a component may draw; every backend implements exactly these calls."""

    @abstractmethod
    def rect(self, x: float, y: float, w: float, h: float, *, fill: str | None = None,
             stroke: str | None = None, width: float = 0.25, radius: float = 0.0) -> None:
        """A rectangle, optionally with rounded corners of `radius`."""

    @abstractmethod
    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = "#000000",
             width: float = 0.25, dash: Sequence[float] = ()) -> None:
        """A straight line; `dash` alternates on/off lengths in mm."""

    @abstractmethod
    def polygons(self, rings: Sequence[Sequence[Point]], *, fill: str | None = None,
                 stroke: str | None = None, width: float = 0.25) -> None:
        """Closed rings painted as ONE shape (non-zero fill), e.g. all modules of a QR code."""

    @abstractmethod
    def rects(self, boxes: Sequence[Rect], *, fill: str) -> None:
        """Many filled axis-aligned rectangles (x, y, w, h) painted as ONE shape, e.g. a QR code's modules."""

    def polygon(self, points: Sequence[Point], *, fill: str | None = None,
                stroke: str | None = None, width: float = 0.25) -> None:
        """One closed polygon."""
        self.polygons([points], fill=fill, stroke=stroke, width=width)

    @abstractmethod
    def circle(self, cx: float, cy: float, r: float, *, fill: str | None = None,
               stroke: str | None = None, width: float = 0.25) -> None:
        """A circle centred on (cx, cy)."""

    @abstractmethod
    def text(self, x: float, y: float, s: str, *, font: str, size: float,
             fill: str = "#000000", anchor: Anchor = "start") -> None:
        """One line of text with its baseline at y; `font` is a name from generator.fonts
        (measure with generator.fonts.width: the same metrics for every backend)."""

    @abstractmethod
    @contextmanager
    def group(self, dx: float = 0.0, dy: float = 0.0, *, rotate: float = 0.0, scale: float = 1.0,
              clip: Box | None = None) -> Iterator[None]:
        """Draw the block moved by (dx, dy), then rotated clockwise by `rotate` degrees and scaled;
        `clip` (in the new coordinates) hides what falls outside it."""


class Document(ABC):
    """A set of pages written to one or more files.

    `back_offset` (mm, right and down as seen on the back) moves everything drawn on back pages:
    it undoes a duplex printer's misregistration, measured with `muster build --calibration`."""

    back_offset: Point = (0.0, 0.0)

    @abstractmethod
    @contextmanager
    def page(self, width: float, height: float, *, trim: Box | None = None, bleed: Box | None = None,
             back: bool = False) -> Iterator[Canvas]:
        """A new page of the given size in mm. `trim` is where the page is cut (PDF TrimBox, default the
        whole page), `bleed` how far its artwork runs (BleedBox); `back` pages are moved by `back_offset`."""

    @abstractmethod
    def save(self) -> list[Path]:
        """Write the files and return their paths."""


def write_if_changed(path: Path, data: bytes) -> None:
    """Write a file only if its bytes differ, so a rebuild leaves unchanged pieces' files (and their
    times, and whatever syncs them) alone."""
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


@contextmanager
def _moved(canvas: Canvas, offset: Point) -> Iterator[None]:
    """A back page's drawing shifted by the document's back offset (nothing added when it is zero)."""
    if offset == (0.0, 0.0):
        yield
        return
    with canvas.group(*offset):
        yield


# ---------------------------------------------------------------- PDF (reportlab)

rl_config.useA85 = 0  # binary streams: ASCII85 only makes the files bigger and slower to write


KAPPA = 0.5522847498  # Bezier handle length of a quarter circle, as a fraction of the radius


@cache
def _pdf_rgb(hex_colour: str, op: str) -> str:
    """The PDF colour operator for "#rrggbb" (op "rg" fills, "RG" strokes)."""
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return f"{r:.4g} {g:.4g} {b:.4g} {op}"


class Paint:
    """How a colour becomes a PDF colour operator: DeviceRGB here; `generator.pdfx.CmykPaint` converts
    through an ICC profile for print shops that take CMYK only."""

    def fill(self, hex_colour: str) -> str:
        return _pdf_rgb(hex_colour, "rg")

    def stroke(self, hex_colour: str) -> str:
        return _pdf_rgb(hex_colour, "RG")

    def text(self, hex_colour: str, size: float = 0.0) -> str:
        """The fill of glyphs of `size` pt (a print shop wants black and small dark text in one ink)."""
        return self.fill(hex_colour)

    def finish(self, pdf: bytes, title: str) -> bytes:
        """The written file with what its colour space requires declared (nothing for RGB)."""
        return pdf


RGB = Paint()


@cache
def _pdf_rects(boxes: tuple[Rect, ...]) -> str:
    """PDF path operators for rectangles, cached: the same QR code goes into every paper size."""
    return " ".join(f"{_fmt(x)} {_fmt(y)} {_fmt(w)} {_fmt(h)} re" for x, y, w, h in boxes)


def _frozen(rings: Sequence[Sequence[Point]]) -> tuple[tuple[Point, ...], ...]:
    """Rings as nested tuples (a cache key); icons already come so from generator.icons."""
    return rings if isinstance(rings, tuple) and all(isinstance(r, tuple) for r in rings) else (
        tuple(tuple(r) for r in rings))


@cache
def _pdf_rings(rings: tuple[tuple[Point, ...], ...]) -> str:
    """PDF path operators for closed rings, cached: an icon is drawn at the same place on every copy
    of a card, on every paper and in every format, and formatting its points is most of its cost."""
    ops = []
    for ring in rings:
        ops.append(f"{_fmt(ring[0][0])} {_fmt(ring[0][1])} m")
        ops.extend(f"{_fmt(x)} {_fmt(y)} l" for x, y in ring[1:])
        ops.append("h")
    return " ".join(ops)


@cache
def _svg_rings(rings: tuple[tuple[Point, ...], ...]) -> str:
    return " ".join("M" + " L".join(f"{_fmt(x)} {_fmt(y)}" for x, y in ring) + "Z" for ring in rings)


@cache
def _svg_rects(boxes: tuple[Rect, ...]) -> str:
    return "".join(f"M{_fmt(x)} {_fmt(y)}h{_fmt(w)}v{_fmt(h)}h{_fmt(-w)}Z" for x, y, w, h in boxes)


class PdfPageCanvas(Canvas):
    """Draws onto a reportlab canvas whose user space has been flipped to mm, top-left origin.

    Geometry is written as PDF operators directly (reportlab formats numbers in slow pure
    Python); text goes through reportlab, which subsets and embeds the fonts."""

    def __init__(self, pdf: PdfCanvas, paint: Paint = RGB) -> None:
        self._pdf = pdf
        self._paint = paint

    def _emit(self, path: str, fill: str | None, stroke: str | None, width: float) -> None:
        ops = [path]
        if fill is not None:
            ops.insert(0, self._paint.fill(fill))
        if stroke is not None:
            ops.insert(0, f"{self._paint.stroke(stroke)} {_fmt(width)} w")
        ops.append({(True, False): "f", (False, True): "S", (True, True): "B", (False, False): "n"}
                   [fill is not None, stroke is not None])
        self._pdf.addLiteral(" ".join(ops))

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str | None = None,
             stroke: str | None = None, width: float = 0.25, radius: float = 0.0) -> None:
        if radius > 0:
            r = min(radius, w / 2, h / 2)
            k = r * (1 - KAPPA)
            x2, y2 = x + w, y + h
            path = (f"{_fmt(x + r)} {_fmt(y)} m {_fmt(x2 - r)} {_fmt(y)} l "
                    f"{_fmt(x2 - k)} {_fmt(y)} {_fmt(x2)} {_fmt(y + k)} {_fmt(x2)} {_fmt(y + r)} c "
                    f"{_fmt(x2)} {_fmt(y2 - r)} l "
                    f"{_fmt(x2)} {_fmt(y2 - k)} {_fmt(x2 - k)} {_fmt(y2)} {_fmt(x2 - r)} {_fmt(y2)} c "
                    f"{_fmt(x + r)} {_fmt(y2)} l "
                    f"{_fmt(x + k)} {_fmt(y2)} {_fmt(x)} {_fmt(y2 - k)} {_fmt(x)} {_fmt(y2 - r)} c "
                    f"{_fmt(x)} {_fmt(y + r)} l "
                    f"{_fmt(x)} {_fmt(y + k)} {_fmt(x + k)} {_fmt(y)} {_fmt(x + r)} {_fmt(y)} c h")
        else:
            path = f"{_fmt(x)} {_fmt(y)} {_fmt(w)} {_fmt(h)} re"
        self._emit(path, fill, stroke, width)

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = "#000000",
             width: float = 0.25, dash: Sequence[float] = ()) -> None:
        path = f"{_fmt(x1)} {_fmt(y1)} m {_fmt(x2)} {_fmt(y2)} l"
        if dash:
            self._pdf.addLiteral(f"[{' '.join(_fmt(d) for d in dash)}] 0 d")
        self._emit(path, None, stroke, width)
        if dash:
            self._pdf.addLiteral("[] 0 d")

    def polygons(self, rings: Sequence[Sequence[Point]], *, fill: str | None = None,
                 stroke: str | None = None, width: float = 0.25) -> None:
        self._emit(_pdf_rings(_frozen(rings)), fill, stroke, width)

    def rects(self, boxes: Sequence[Rect], *, fill: str) -> None:
        self._emit(_pdf_rects(tuple(boxes)), fill, None, 0.0)

    def circle(self, cx: float, cy: float, r: float, *, fill: str | None = None,
               stroke: str | None = None, width: float = 0.25) -> None:
        k = r * KAPPA
        path = (f"{_fmt(cx + r)} {_fmt(cy)} m "
                f"{_fmt(cx + r)} {_fmt(cy + k)} {_fmt(cx + k)} {_fmt(cy + r)} {_fmt(cx)} {_fmt(cy + r)} c "
                f"{_fmt(cx - k)} {_fmt(cy + r)} {_fmt(cx - r)} {_fmt(cy + k)} {_fmt(cx - r)} {_fmt(cy)} c "
                f"{_fmt(cx - r)} {_fmt(cy - k)} {_fmt(cx - k)} {_fmt(cy - r)} {_fmt(cx)} {_fmt(cy - r)} c "
                f"{_fmt(cx + k)} {_fmt(cy - r)} {_fmt(cx + r)} {_fmt(cy - k)} {_fmt(cx + r)} {_fmt(cy)} c h")
        self._emit(path, fill, stroke, width)

    def text(self, x: float, y: float, s: str, *, font: str, size: float,
             fill: str = "#000000", anchor: Anchor = "start") -> None:
        fonts.register_pdf(font)
        self._pdf.saveState()
        # Flip y back so glyphs stand upright, with the origin on the baseline.
        self._pdf.addLiteral(f"1 0 0 -1 {_fmt(x)} {_fmt(y)} cm {self._paint.text(fill, size)}")
        self._pdf.setFont(font, size * PT)
        draw = {"start": self._pdf.drawString, "middle": self._pdf.drawCentredString,
                "end": self._pdf.drawRightString}[anchor]
        draw(0, 0, s)
        self._pdf.restoreState()


    @contextmanager
    def group(self, dx: float = 0.0, dy: float = 0.0, *, rotate: float = 0.0, scale: float = 1.0,
              clip: Box | None = None) -> Iterator[None]:
        ops = ["q"]
        if dx or dy:
            ops.append(f"1 0 0 1 {_fmt(dx)} {_fmt(dy)} cm")
        if rotate:
            # y points down, so this turns clockwise on paper, as in SVG.
            c, s = math.cos(math.radians(rotate)), math.sin(math.radians(rotate))
            ops.append(f"{_fmt(c)} {_fmt(s)} {_fmt(-s)} {_fmt(c)} 0 0 cm")
        if scale != 1.0:
            ops.append(f"{_fmt(scale)} 0 0 {_fmt(scale)} 0 0 cm")
        if clip is not None:
            ops.append(f"{_fmt(clip.x)} {_fmt(clip.y)} {_fmt(clip.w)} {_fmt(clip.h)} re W n")
        self._pdf.addLiteral(" ".join(ops))
        try:
            yield
        finally:
            self._pdf.addLiteral("Q")


class PdfDocument(Document):
    """One multi-page PDF; byte-identical for the same drawing (invariant mode, no dates or ids)."""

    def __init__(self, path: Path, title: str = "", *, paint: Paint = RGB, back_offset: Point = (0.0, 0.0)) -> None:
        self.path = path
        self.paint = paint
        self.back_offset = back_offset
        self._buffer = io.BytesIO()
        # The initial font would otherwise be the base-14 Helvetica, which is never embedded.
        fonts.register_pdf(fonts.DEFAULT)
        self._pdf = PdfCanvas(self._buffer, invariant=1, pageCompression=1, initialFontName=fonts.DEFAULT)
        self._title = title
        self._pdf.setTitle(title)
        self._pdf.setAuthor("Muster")
        self._pdf.setCreator("Muster")
        self._pdf.setProducer("Muster")
        self._pages = 0

    @contextmanager
    def page(self, width: float, height: float, *, trim: Box | None = None, bleed: Box | None = None,
             back: bool = False) -> Iterator[Canvas]:
        self._pdf.setPageSize((width * mm, height * mm))
        for setter, box in ((self._pdf.setTrimBox, trim), (self._pdf.setBleedBox, bleed)):
            box = box or Box(0, 0, width, height)
            # PDF boxes are in points from the bottom-left corner.
            setter(tuple(v * mm for v in (box.x, height - box.bottom, box.right, height - box.y)))
        self._pdf.saveState()
        self._pdf.translate(0, height * mm)
        self._pdf.scale(mm, -mm)
        canvas = PdfPageCanvas(self._pdf, self.paint)
        with _moved(canvas, self.back_offset if back else (0.0, 0.0)):
            yield canvas
        self._pdf.restoreState()
        self._pdf.showPage()
        self._pages += 1

    def bookmark(self, title: str) -> None:
        """An entry in the PDF's outline (the reader's side panel) for the page being drawn."""
        key = f"p{self._pages}-{title}"
        self._pdf.bookmarkPage(key)
        self._pdf.addOutlineEntry(title, key, level=0)

    def save(self) -> list[Path]:
        self._pdf.save()
        write_if_changed(self.path, self.paint.finish(self._buffer.getvalue(), self._title))
        return [self.path]


# ---------------------------------------------------------------- SVG (svgwrite)

class SvgPageCanvas(Canvas):
    """Builds one SVG drawing in mm user units; clip paths get sequential ids (no random ids)."""

    def __init__(self, drawing: svgwrite.Drawing, text_paths: bool = False) -> None:
        self._dwg = drawing
        self._stack: list[Any] = [drawing]
        self._clips = 0
        self._text_paths = text_paths  # text as glyph outlines (renderers that ignore @font-face)
        self.chars: dict[str, set[str]] = {}  # font -> characters drawn with it (embedded on save)

    def _add(self, element: Any) -> None:
        self._stack[-1].add(element)

    @staticmethod
    def _paint(fill: str | None, stroke: str | None, width: float) -> dict[str, str]:
        attrs = {"fill": fill or "none"}
        if stroke is not None:
            attrs["stroke"] = stroke
            attrs["stroke_width"] = _fmt(width)
        return attrs

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str | None = None,
             stroke: str | None = None, width: float = 0.25, radius: float = 0.0) -> None:
        extra = {"rx": _fmt(radius), "ry": _fmt(radius)} if radius > 0 else {}
        self._add(self._dwg.rect((_fmt(x), _fmt(y)), (_fmt(w), _fmt(h)),
                                 **self._paint(fill, stroke, width), **extra))

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = "#000000",
             width: float = 0.25, dash: Sequence[float] = ()) -> None:
        extra = {"stroke_dasharray": " ".join(_fmt(d) for d in dash)} if dash else {}
        self._add(self._dwg.line((_fmt(x1), _fmt(y1)), (_fmt(x2), _fmt(y2)), stroke=stroke,
                                 stroke_width=_fmt(width), **extra))

    def polygons(self, rings: Sequence[Sequence[Point]], *, fill: str | None = None,
                 stroke: str | None = None, width: float = 0.25) -> None:
        self._add(self._dwg.path(d=_svg_rings(_frozen(rings)), **self._paint(fill, stroke, width)))

    def rects(self, boxes: Sequence[Rect], *, fill: str) -> None:
        self._add(self._dwg.path(d=_svg_rects(tuple(boxes)), fill=fill))

    def circle(self, cx: float, cy: float, r: float, *, fill: str | None = None,
               stroke: str | None = None, width: float = 0.25) -> None:
        self._add(self._dwg.circle((_fmt(cx), _fmt(cy)), _fmt(r), **self._paint(fill, stroke, width)))

    def text(self, x: float, y: float, s: str, *, font: str, size: float,
             fill: str = "#000000", anchor: Anchor = "start") -> None:
        if self._text_paths:
            d, advance, em = svgfonts.outline(font, s)
            k = size * PT / em
            left = x - {"start": 0, "middle": advance / 2, "end": advance}[anchor] * k
            if d:
                self._add(self._dwg.path(d=d, fill=fill, aria_label=s,
                                         transform=f"translate({_fmt(left)} {_fmt(y)}) scale({k:.6g} {-k:.6g})"))
            return
        face = fonts.face(font)
        self.chars.setdefault(font, set()).update(s)
        self._add(self._dwg.text(s, insert=(_fmt(x), _fmt(y)), fill=fill,
                                 font_family=f"'{svgfonts.family(font)}', {face.family}",
                                 font_weight=face.weight,
                                 font_size=_fmt(size * PT), text_anchor=anchor))


    @contextmanager
    def group(self, dx: float = 0.0, dy: float = 0.0, *, rotate: float = 0.0, scale: float = 1.0,
              clip: Box | None = None) -> Iterator[None]:
        parts = []
        if dx or dy:
            parts.append(f"translate({_fmt(dx)} {_fmt(dy)})")
        if rotate:
            parts.append(f"rotate({_fmt(rotate)})")
        if scale != 1.0:
            parts.append(f"scale({_fmt(scale)})")
        outer = self._dwg.g(transform=" ".join(parts)) if parts else self._dwg.g()
        self._add(outer)
        self._stack.append(outer)
        if clip is not None:
            self._clips += 1
            clip_id = f"c{self._clips}"
            clip_path = self._dwg.clipPath(id=clip_id)
            clip_path.add(self._dwg.rect((_fmt(clip.x), _fmt(clip.y)), (_fmt(clip.w), _fmt(clip.h))))
            self._dwg.defs.add(clip_path)
            inner = self._dwg.g(clip_path=f"url(#{clip_id})")
            outer.add(inner)
            self._stack.append(inner)
        try:
            yield
        finally:
            if clip is not None:
                self._stack.pop()
            self._stack.pop()


class SvgDocument(Document):
    """One SVG file per page: `<stem>-p01.svg`, `<stem>-p02.svg`, … (a single page is `<stem>.svg`)."""

    def __init__(self, folder: Path, stem: str, *, back_offset: Point = (0.0, 0.0), text_paths: bool = False) -> None:
        self.folder = folder
        self.stem = stem
        self.back_offset = back_offset
        self.text_paths = text_paths  # every text as its glyphs' outlines instead of <text> with embedded fonts
        self._drawings: list[svgwrite.Drawing] = []
        self._canvases: list[SvgPageCanvas] = []

    @contextmanager
    def page(self, width: float, height: float, *, trim: Box | None = None, bleed: Box | None = None,
             back: bool = False) -> Iterator[Canvas]:
        drawing = svgwrite.Drawing(size=(f"{_fmt(width)}mm", f"{_fmt(height)}mm"), profile="full", debug=False)
        drawing.viewbox(0, 0, width, height)
        canvas = SvgPageCanvas(drawing, self.text_paths)
        with _moved(canvas, self.back_offset if back else (0.0, 0.0)):
            yield canvas
        self._drawings.append(drawing)
        self._canvases.append(canvas)

    def strings(self, subsets: Mapping[str, frozenset[str]] | None = None) -> list[str]:
        """Each page as SVG text (for embedding in a web page instead of writing files), carrying the
        glyphs it uses: one subset per font for the whole document, so its pages share the work
        (`subsets` may name larger ones, shared by several documents)."""
        if subsets is None:
            subsets = glyphs_used([self])
        pages = []
        for drawing, canvas in zip(self._drawings, self._canvases):
            css = "".join(svgfonts.font_face(font, subsets[font]) for font in sorted(canvas.chars))
            text = drawing.tostring()
            if css:  # first thing inside <svg ...>, before anything that uses it
                cut = text.index(">") + 1
                # geometricPrecision: browsers otherwise round tiny font sizes (mm user units) to whole pixels
                text = f"{text[:cut]}<style>{css}text{{text-rendering:geometricPrecision}}</style>{text[cut:]}"
            pages.append(text + "\n")
        return pages

    def save(self, subsets: Mapping[str, frozenset[str]] | None = None) -> list[Path]:
        self.folder.mkdir(parents=True, exist_ok=True)
        paths = []
        pages = self.strings(subsets)
        for number, text in enumerate(pages, start=1):
            name = f"{self.stem}.svg" if len(pages) == 1 else f"{self.stem}-p{number:02d}.svg"
            path = self.folder / name
            write_if_changed(path, text.encode("utf-8"))
            paths.append(path)
        return paths


def glyphs_used(docs: Sequence[SvgDocument]) -> dict[str, frozenset[str]]:
    """Per font, every character the documents' pages draw with it: the subset their SVGs embed."""
    used: dict[str, set[str]] = {}
    for doc in docs:
        for canvas in doc._canvases:
            for font, chars in canvas.chars.items():
                used.setdefault(font, set()).update(chars)
    return {font: frozenset(chars) for font, chars in used.items()}


# ---------------------------------------------------------------- recording (tests)

@dataclass
class Call:
    """One recorded drawing call; `origin` is the sum of the enclosing groups' (dx, dy)."""

    op: str
    args: dict[str, Any]
    origin: Point = (0.0, 0.0)


@dataclass
class RecordingCanvas(Canvas):
    """Records calls instead of drawing, so tests can check layout logic exactly (Squib style)."""

    width: float = 0.0
    height: float = 0.0
    trim: Box | None = None
    bleed: Box | None = None
    back: bool = False
    calls: list[Call] = field(default_factory=list)
    _origins: list[Point] = field(default_factory=lambda: [(0.0, 0.0)])

    def _record(self, op: str, **args: Any) -> None:
        self.calls.append(Call(op, args, self._origins[-1]))

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str | None = None,
             stroke: str | None = None, width: float = 0.25, radius: float = 0.0) -> None:
        self._record("rect", x=x, y=y, w=w, h=h, fill=fill, stroke=stroke, width=width, radius=radius)

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = "#000000",
             width: float = 0.25, dash: Sequence[float] = ()) -> None:
        self._record("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, width=width, dash=tuple(dash))

    def polygons(self, rings: Sequence[Sequence[Point]], *, fill: str | None = None,
                 stroke: str | None = None, width: float = 0.25) -> None:
        self._record("polygons", rings=rings if isinstance(rings, tuple) else [list(r) for r in rings], fill=fill,
                     stroke=stroke, width=width)

    def rects(self, boxes: Sequence[Rect], *, fill: str) -> None:
        self._record("rects", boxes=list(boxes), fill=fill)

    def circle(self, cx: float, cy: float, r: float, *, fill: str | None = None,
               stroke: str | None = None, width: float = 0.25) -> None:
        self._record("circle", cx=cx, cy=cy, r=r, fill=fill, stroke=stroke, width=width)

    def text(self, x: float, y: float, s: str, *, font: str, size: float,
             fill: str = "#000000", anchor: Anchor = "start") -> None:
        self._record("text", x=x, y=y, s=s, font=font, size=size, fill=fill, anchor=anchor)


    @contextmanager
    def group(self, dx: float = 0.0, dy: float = 0.0, *, rotate: float = 0.0, scale: float = 1.0,
              clip: Box | None = None) -> Iterator[None]:
        self._record("group", dx=dx, dy=dy, rotate=rotate, scale=scale, clip=clip)
        ox, oy = self._origins[-1]
        self._origins.append((ox + dx, oy + dy))
        try:
            yield
        finally:
            self._origins.pop()
            self._record("end")

    def ops(self, op: str) -> list[Call]:
        return [c for c in self.calls if c.op == op]

    def replay(self, target: Canvas) -> None:
        """Make the recorded calls again on another canvas: what was drawn once to measure or fingerprint
        it is then written without drawing it a second time (the same calls, so the same bytes)."""
        with ExitStack() as stack:
            groups: list[ExitStack] = []
            for call in self.calls:
                if call.op == "group":
                    groups.append(stack.enter_context(ExitStack()))
                    groups[-1].enter_context(target.group(**call.args))
                elif call.op == "end":
                    groups.pop().close()
                else:
                    getattr(target, call.op)(**call.args)


class RecordingDocument(Document):
    """Pages of recorded calls."""

    def __init__(self, *, back_offset: Point = (0.0, 0.0)) -> None:
        self.pages: list[RecordingCanvas] = []
        self.back_offset = back_offset

    @contextmanager
    def page(self, width: float, height: float, *, trim: Box | None = None, bleed: Box | None = None,
             back: bool = False) -> Iterator[Canvas]:
        canvas = RecordingCanvas(width, height, trim=trim, bleed=bleed, back=back)
        with _moved(canvas, self.back_offset if back else (0.0, 0.0)):
            yield canvas
        self.pages.append(canvas)

    def save(self) -> list[Path]:
        return []
