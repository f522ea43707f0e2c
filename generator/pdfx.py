"""CMYK print files: colours converted through an ICC profile, total ink limited, PDF/X-1a:2003 keys.

DriveThruCards (and most offset printers) take only CMYK PDF/X-1a. Muster's drawings use a
handful of flat "#rrggbb" colours, so each colour is converted once: neutral greys and dark
text or lines become pure K (one plate, no registration fringes), every other colour goes
through Little CMS (Pillow's ImageCms) from sRGB to the press profile, and any colour whose
inks add up to more than the profile's `max_ink` is replaced by the inks within the limit that
print closest to it (`within_limit`: lightness counts less than hue and chroma), so dark backs stay
blue or purple instead of turning black. Small dark text (the kind line) prints in K alone.
`finish` then adds what PDF/X-1a:2003 asks of the file with pikepdf.

The press profile is Ghostscript's "Artifex CMYK SWOP Profile" (`default_cmyk.icc`, shipped
with every Ghostscript by libgs-common or the ghostscript package). It is AGPL-licensed, so
Muster does not copy it into its own (MIT) tree: it is read from the Ghostscript install,
or from the file named by $MUSTER_CMYK_ICC (e.g. a FOGRA39 or GRACoL profile a print shop
supplies). The free alternatives were worse: colord's FOGRA/SWOP profiles are not packaged
by Debian, and the ECI profiles may only be passed on unchanged with their own licence.
"""

from __future__ import annotations

import glob
import io
import os
from functools import cache
from pathlib import Path

import pikepdf
from PIL import Image, ImageCms

from generator.canvas import Paint

ICC_ENV = "MUSTER_CMYK_ICC"
ICC_PLACES = (
    "/usr/share/color/icc/ghostscript/default_cmyk.icc",   # Debian, Ubuntu (libgs-common)
    "/usr/share/ghostscript/*/iccprofiles/default_cmyk.icc",  # Fedora, Arch, source installs
    "/usr/local/share/ghostscript/*/iccprofiles/default_cmyk.icc",
    "/opt/homebrew/share/ghostscript/*/iccprofiles/default_cmyk.icc",  # macOS Homebrew
)
PDFX_VERSION = "PDF/X-1a:2003"
DARK = 0x40  # text and lines no channel of which exceeds this print as 100 % K
NEUTRAL = 6  # channels within this of each other are a grey: K only
SMALL_TEXT = 9.0  # pt: text this small or smaller that is near-black prints in K alone (no registration fringe)
NEAR_BLACK = 0x60  # the luma (Rec. 601) at or under which small text counts as near-black
LIGHTNESS_WEIGHT = 0.5  # on dL^2 in matching an over-limit colour: plain dE (1) greys dark colours, CMC 2:1 (0.25) lightens them
FIXED_DATE = "D:20000101000000+00'00'"  # PDF/X needs dates; a fixed one keeps builds byte-identical


class IccMissing(RuntimeError):
    """No CMYK profile to convert through (Ghostscript not installed and $MUSTER_CMYK_ICC unset)."""


@cache
def icc_path() -> Path:
    """The CMYK press profile: $MUSTER_CMYK_ICC, else Ghostscript's default CMYK profile."""
    explicit = os.environ.get(ICC_ENV)
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise IccMissing(f"${ICC_ENV} names '{path}', which is not a file")
        return path
    for place in ICC_PLACES:
        found = sorted(glob.glob(place))
        if found:
            return Path(found[-1])
    raise IccMissing("CMYK output needs an ICC press profile: install Ghostscript (its default_cmyk.icc "
                     f"is used) or set ${ICC_ENV} to a CMYK .icc file")


@cache
def _transform() -> ImageCms.ImageCmsTransform:
    cmyk = ImageCms.getOpenProfile(str(icc_path()))
    if cmyk.profile.xcolor_space.strip() != "CMYK":
        raise IccMissing(f"ICC profile '{icc_path()}' is {cmyk.profile.xcolor_space.strip()}, not CMYK")
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), cmyk, "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)


@cache
def to_cmyk(hex_colour: str, max_ink: float, line: bool = False) -> tuple[float, float, float, float]:
    """A "#rrggbb" colour as press inks 0..1: greys (and dark text or lines) in K alone, the rest
    converted through the ICC profile and, over `max_ink`, replaced by the nearest inks within it."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    if line and max(r, g, b) <= DARK:
        return 0.0, 0.0, 0.0, 1.0
    if max(r, g, b) - min(r, g, b) <= NEUTRAL:
        return 0.0, 0.0, 0.0, round(1 - (r + g + b) / 765, 4)
    pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), (r, g, b)), _transform())
    inks: tuple[float, float, float, float] = tuple(v / 255 for v in pixel.getpixel((0, 0)))  # type: ignore[assignment,union-attr]
    if sum(inks) <= max_ink - 0.02:
        return inks
    # A little under the limit, so rasterising to 8 bits per ink cannot round over it.
    return within_limit((r, g, b), inks, max_ink - 0.02)


def _lab(image: Image.Image, transform: ImageCms.ImageCmsTransform) -> list[tuple[float, float, float]]:
    """Each pixel in CIELAB (Pillow stores L as 0..255 and a, b offset by 128)."""
    return [(v[0] * 100 / 255, v[1] - 128, v[2] - 128)
            for v in ImageCms.applyTransform(image, transform).get_flattened_data()]  # type: ignore[union-attr]


@cache
def _to_lab() -> tuple[ImageCms.ImageCmsTransform, ImageCms.ImageCmsTransform]:
    lab = ImageCms.createProfile("LAB")
    intent = ImageCms.Intent.RELATIVE_COLORIMETRIC
    return (ImageCms.buildTransform(ImageCms.createProfile("sRGB"), lab, "RGB", "LAB", renderingIntent=intent),
            ImageCms.buildTransform(ImageCms.getOpenProfile(str(icc_path())), lab, "CMYK", "LAB",
                                    renderingIntent=intent))


TILTS = tuple((tm, ty) for tm in (0.85, 1.0, 1.15) for ty in (0.85, 1.0, 1.15))
"""Magenta and yellow against cyan in `within_limit`'s candidates: scaling the three inks alike keeps the
profile's balance, which the ink limit bends (navy came out 11 degrees too green)."""


def within_limit(rgb: tuple[int, int, int], inks: tuple[float, float, float, float],
                 max_ink: float) -> tuple[float, float, float, float]:
    """The inks of total at most `max_ink` that print nearest the sRGB colour (in CIELAB through the press
    profile, dL^2 weighted by LIGHTNESS_WEIGHT): the colour's C, M and Y less some of their shared grey,
    scaled, with any K. Moving all the shared grey into K instead keeps the lightness but greys a dark colour out."""
    c, m, y, _ = inks
    candidates = []
    for gi in range(11):
        grey = min(c, m, y) * gi / 10
        # Scaled up to the strongest ink at 100 % too: a dark blue's cyan must be able to grow as its grey
        # goes to K, or the nearest colour within the limit is a grey (navy lost 3/4 of its chroma).
        most = 1 / max(c - grey, m - grey, y - grey, 1e-6)
        for si in range(1, 21):
            for ki in range(21):
                f = si / 20 * most
                for tm, ty in TILTS:  # the inks' balance a little either way, for the hue the limit bends
                    cand = (f * (c - grey), min(1.0, tm * f * (m - grey)), min(1.0, ty * f * (y - grey)), ki / 20)
                    if sum(cand) <= max_ink:
                        candidates.append(cand)
    image = Image.new("CMYK", (len(candidates), 1))
    image.putdata([tuple(round(v * 255) for v in cand) for cand in candidates])
    srgb, press = _to_lab()
    (target,) = _lab(Image.new("RGB", (1, 1), rgb), srgb)

    def distance(lab: tuple[float, float, float]) -> float:
        return LIGHTNESS_WEIGHT * (lab[0] - target[0]) ** 2 + (lab[1] - target[1]) ** 2 + (lab[2] - target[2]) ** 2

    scores = [distance(lab) for lab in _lab(image, press)]
    best = candidates[min(range(len(candidates)), key=scores.__getitem__)]
    return tuple(round(v, 4) for v in best)  # type: ignore[return-value]


@cache
def text_cmyk(hex_colour: str, size: float, max_ink: float) -> tuple[float, float, float, float]:
    """Glyph inks: small near-black text in K alone, at the grey of its luma (four inks would fringe)."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    luma = 0.299 * r + 0.587 * g + 0.114 * b
    if size <= SMALL_TEXT and luma <= NEAR_BLACK and max(r, g, b) > DARK:
        return 0.0, 0.0, 0.0, round(1 - luma / 255, 4)
    return to_cmyk(hex_colour, max_ink, True)


class CmykPaint(Paint):
    """DeviceCMYK operators for every colour (no DeviceRGB reaches the file)."""

    def __init__(self, max_ink: int) -> None:
        self.max_ink = max_ink / 100

    def _op(self, hex_colour: str, op: str, line: bool) -> str:
        inks = to_cmyk(hex_colour, self.max_ink, line)
        return " ".join(f"{v:.4g}" for v in inks) + f" {op}"

    def fill(self, hex_colour: str) -> str:
        return self._op(hex_colour, "k", False)

    def stroke(self, hex_colour: str) -> str:
        return self._op(hex_colour, "K", True)

    def text(self, hex_colour: str, size: float = 0.0) -> str:
        return " ".join(f"{v:.4g}" for v in text_cmyk(hex_colour, size, self.max_ink)) + " k"

    def finish(self, pdf: bytes, title: str) -> bytes:
        return finish(pdf, title)


def finish(data: bytes, title: str) -> bytes:
    """Make a CMYK PDF written by reportlab a PDF/X-1a:2003 file: the press profile as GTS_PDFX output
    intent, the PDF/X version, Trapped, title and dates in the Info dictionary, PDF 1.4 and a
    document ID (every page already has its TrimBox and BleedBox)."""
    icc = icc_path().read_bytes()
    description = ImageCms.getProfileDescription(ImageCms.getOpenProfile(str(icc_path()))).strip()
    with pikepdf.open(io.BytesIO(data)) as pdf:
        profile = pikepdf.Stream(pdf, icc)
        profile.N = 4
        pdf.Root.OutputIntents = pikepdf.Array([pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String("Custom"), OutputCondition=pikepdf.String(description),
            RegistryName=pikepdf.String("http://www.color.org"), Info=pikepdf.String(description),
            DestOutputProfile=profile)])
        info = pdf.docinfo
        info.Title = pikepdf.String(title or "Muster")
        info.GTS_PDFXVersion = pikepdf.String(PDFX_VERSION)
        info.Trapped = pikepdf.Name("/False")
        info.CreationDate = info.ModDate = pikepdf.String(FIXED_DATE)
        out = io.BytesIO()
        pdf.save(out, force_version="1.4", deterministic_id=True)
    return out.getvalue()
