"""Before/after images of every game's deck for docs/img and the README (issue 15's redesign).

Builds each game's home-a4 deck PDF from an older source tree and from this one, renders one front
page of each with pdftoppm and puts them side by side:

    git archive aa186ec | (mkdir -p /tmp/before && tar -x -C /tmp/before)
    python scripts/before_after.py /tmp/before docs/img

aa186ec is the last commit before the card redesign. Writes docs/img/<game>-before-after.png and
docs/img/cards-before-after.png (warfare and medieval, the first pair shown).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
DECKS = {"waterloo": ("cards", 1), "warfare": ("cards", 3), "hexbattle": ("bonus_cards", 1),
         "imperial": ("military", 1), "medieval": ("cards", 1)}
"""Game -> (deck set, which front sheet): warfare's third sheet shows three arms and the inline icons."""
DPI = 60
BUILD = ("import sys; from pathlib import Path; from generator.build import build_all; "
         "build_all(sys.argv[1:-1], ['pdf'], profiles=['home-a4'], out=Path(sys.argv[-1]), force=True)")


def build(source: Path, out: Path) -> None:
    """Every game's home-a4 PDFs, built by the code in `source` (its own generator and data)."""
    subprocess.run([sys.executable, "-c", BUILD, *DECKS, str(out)], cwd=source, check=True,
                   env={"PYTHONPATH": str(source), "PATH": "/usr/bin:/bin"})


def front_page(pdf: Path, sheet: int, stem: Path) -> Image.Image:
    """Front sheet `sheet` (1-based) of a deck PDF whose fronts and backs alternate."""
    page = 2 * sheet - 1
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-f", str(page), "-l", str(page), str(pdf), str(stem)],
                   check=True)
    [png] = stem.parent.glob(f"{stem.name}-*.png")
    return Image.open(png).convert("RGB")


def side_by_side(pairs: list[tuple[str, Image.Image]]) -> Image.Image:
    """Labelled pages in one row."""
    label = 24
    width = sum(image.width for _, image in pairs) + 20 * (len(pairs) - 1)
    height = max(image.height for _, image in pairs) + label
    out = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(out)
    x = 0
    for text, image in pairs:
        draw.text((x + 6, 6), text, fill="black")
        out.paste(image, (x, label))
        x += image.width + 20
    return out


def main(before_source: Path, folder: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        build(before_source, work / "before")
        build(ROOT, work / "after")
        pages: dict[str, tuple[Image.Image, Image.Image]] = {}
        for game, (deck, sheet) in DECKS.items():
            pdf = f"{game}/{game}-{deck}-home-a4.pdf"
            pages[game] = (front_page(work / "before" / pdf, sheet, work / f"{game}-before"),
                           front_page(work / "after" / pdf, sheet, work / f"{game}-after"))
            side_by_side([(f"before: {game}", pages[game][0]), (f"after: {game}", pages[game][1])]).save(
                folder / f"{game}-before-after.png", optimize=True)
        side_by_side([(f"{when}: {game}", pages[game][k]) for game in ("warfare", "medieval")
                      for k, when in enumerate(("before", "after"))]).save(folder / "cards-before-after.png",
                                                                            optimize=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
