"""CMYK print files: colours converted through an ICC profile, total ink limited, PDF/X-1a:2003 keys.

DriveThruCards (and most offset printers) take only CMYK PDF/X-1a. Muster's drawings use a
handful of flat "#rrggbb" colours, so each colour is converted once: neutral greys and dark
text or lines become pure K (one plate, no registration fringes), every other colour goes
through Little CMS (Pillow's ImageCms) from sRGB to the press profile, and any colour whose
inks add up to more than the profile's `max_ink` gets its grey component moved into K and
the rest scaled down. `finish` then adds what PDF/X-1a:2003 asks of the file with pikepdf.

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


def limit_ink(cmyk: tuple[float, float, float, float], max_ink: float) -> tuple[float, float, float, float]:
    """Inks (0..1 each) brought to at most `max_ink` (e.g. 2.4 for 240 %): the grey that cyan, magenta
    and yellow share moves into black (it looks nearly the same), then the colours scale down."""
    c, m, y, k = cmyk
    excess = c + m + y + k - max_ink
    if excess <= 0:
        return cmyk
    # Replacing g of each of C, M, Y by g of K saves 2g of ink.
    g = min(excess / 2, min(c, m, y), 1 - k)
    c, m, y, k = c - g, m - g, y - g, k + g
    excess = c + m + y + k - max_ink
    if excess > 0:
        scale = max(0.0, (max_ink - k) / (c + m + y))
        c, m, y = c * scale, m * scale, y * scale
    return c, m, y, k


@cache
def to_cmyk(hex_colour: str, max_ink: float, line: bool = False) -> tuple[float, float, float, float]:
    """A "#rrggbb" colour as press inks 0..1: greys (and dark text or lines) in K alone, the rest
    converted through the ICC profile and limited to `max_ink`."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    if line and max(r, g, b) <= DARK:
        return 0.0, 0.0, 0.0, 1.0
    if max(r, g, b) - min(r, g, b) <= NEUTRAL:
        return 0.0, 0.0, 0.0, round(1 - (r + g + b) / 765, 4)
    pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), (r, g, b)), _transform())
    inks = tuple(v / 255 for v in pixel.getpixel((0, 0)))  # type: ignore[union-attr]
    # A little under the limit, so rasterising to 8 bits per ink cannot round over it.
    return limit_ink(inks, max_ink - 0.02)  # type: ignore[arg-type]


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

    def text(self, hex_colour: str) -> str:
        return self._op(hex_colour, "k", True)

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
