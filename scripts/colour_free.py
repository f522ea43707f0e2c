"""Before/after images for issue 33 (a kit that reads without colour) in docs/img and the README.

Renders pieces drawn by an older source tree and by this one, each alone through PDF and pdftoppm,
and shows them as a player with normal vision, a deuteranope and a black-and-white printer see them
(the simulation of tests/test_print_colour.py):

    git archive 8ff8ead | (mkdir -p /tmp/before && tar -x -C /tmp/before)
    python scripts/colour_free.py /tmp/before docs/img

8ff8ead is the last commit before issue 33's colour-free indices. Writes docs/img/fanned-hand-*.png
(one card of each kind, fanned: what a hand shows), docs/img/hexbattle-armies-before-after.png and
docs/img/card-fixes-before-after.png.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.test_print_colour import simulate  # noqa: E402  (the one simulation, shared with the test)

DPI = 100
FAN = 17.0  # mm of each card a fanned hand leaves in view (tests/test_print_colour.FAN)
VISIONS = (("as printed", None), ("deuteranopia", "deuteranopia"), ("greyscale", "greyscale"))

# Run inside a source tree: draw the named pieces' fronts, one page each, into a PDF.
DRAW = """
import sys
from pathlib import Path
from cards import load_game
from generator import deck, hexbattle_parts
from generator.canvas import PdfDocument
doc = PdfDocument(Path(sys.argv[1]), "pieces")
for spec in sys.argv[2:]:
    game_id, kind, a, b = spec.split(":")
    game = load_game(game_id)
    if kind == "counter":
        piece = hexbattle_parts.counter_piece(game, a, b)
    else:
        d = next(d for d in deck.decks(game) if d.table == a)
        card = next(c for c in game.deck(a) if c.design.id == b)
        piece = deck.card_piece(game, d, card, None)
    with doc.page(piece.width, piece.height) as c:
        piece.front(c, 0.0)
doc.save()
"""

HANDS = {
    "waterloo": ["cards:guard-infantry", "cards:cuirassiers", "cards:twelve-pounders", "cards:general",
                 "cards:fix-bayonets", "cards:grenadiers", "cards:rockets", "cards:scout", "cards:magazine"],
    "warfare": ["cards:grenadiers", "cards:riflemen", "cards:cuirassier", "cards:horse-artillery",
                "cards:volley-fire", "cards:musicians", "cards:blocking-terrain", "cards:lost-cohesion"],
}
ARMIES = [f"hexbattle:counter:{army}:{unit}" for army in ("french", "british")
          for unit in ("infantry", "light-cavalry", "heavy-artillery")]
FIXES = ["waterloo:cards:cards:grenadiers", "hexbattle:cards:bonus_cards:volley-fire",
         "hexbattle:cards:bonus_cards:entrench", "imperial:cards:military:cavalry",
         "imperial:cards:military:musketeers"]


def render(source: Path, specs: list[str], folder: Path) -> list[np.ndarray]:
    """The pieces drawn by `source`'s own code, as RGB arrays at DPI."""
    pdf = folder / "pieces.pdf"
    subprocess.run([sys.executable, "-c", DRAW, str(pdf), *specs], cwd=source, check=True,
                   env={"PYTHONPATH": str(source), "PATH": "/usr/bin:/bin"})
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(pdf), str(folder / "p")], check=True)
    pngs = sorted(folder.glob("p-*.png"), key=lambda p: int(p.stem.split("-")[1]))
    arrays = [np.asarray(Image.open(p).convert("RGB")) for p in pngs]
    for p in pngs:
        p.unlink()
    return arrays


def fanned(cards: list[np.ndarray]) -> np.ndarray:
    """Cards overlapped left to right, each showing FAN mm of its left edge, the last one whole."""
    step = round(FAN * DPI / 25.4)
    h, w = cards[0].shape[:2]
    out = np.full((h, step * (len(cards) - 1) + w, 3), 255, np.uint8)
    for k, card in enumerate(cards):
        out[:, k * step:k * step + w] = card
    return out[: round(h * 0.35)]  # the top of the hand: where the indices are


def compared(title: str, pair: list[np.ndarray]) -> list[tuple[str, list[tuple[str, np.ndarray]]]]:
    """A row per vision: the before and after images as that viewer sees them."""
    return [(f"{title}, {label}", [(name, image if vision is None else simulate(image, vision))
                                   for name, image in zip(("before", "after"), pair)])
            for label, vision in VISIONS]


def grid(rows: list[tuple[str, list[tuple[str, np.ndarray]]]]) -> Image.Image:
    """Labelled rows of labelled images."""
    label, gap = 18, 12
    width = max(sum(i.shape[1] for _, i in cells) + gap * (len(cells) - 1) for _, cells in rows)
    height = sum(max(i.shape[0] for _, i in cells) + 2 * label + gap for _, cells in rows)
    out = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(out)
    y = 0
    for title, cells in rows:
        draw.text((4, y + 2), title, fill="black")
        x = 0
        for text, image in cells:
            draw.text((x + 4, y + label + 2), text, fill="#555555")
            out.paste(Image.fromarray(image), (x, y + 2 * label))
            x += image.shape[1] + gap
        y += max(i.shape[0] for _, i in cells) + 2 * label + gap
    return out


def strip(images: list[np.ndarray], gap: int = 8) -> np.ndarray:
    h = max(i.shape[0] for i in images)
    out = np.full((h, sum(i.shape[1] for i in images) + gap * (len(images) - 1), 3), 255, np.uint8)
    x = 0
    for image in images:
        out[:image.shape[0], x:x + image.shape[1]] = image
        x += image.shape[1] + gap
    return out


def main(before: Path, target: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for game, cards in HANDS.items():
            specs = [f"{game}:cards:{c}" for c in cards]
            hands = [fanned(render(source, specs, folder)) for source in (before, ROOT)]
            grid(compared(f"{game}: a fanned hand", hands)).save(target / f"fanned-hand-{game}.png")
        armies = []
        for source in (before, ROOT):
            drawn = render(source, ARMIES, folder)
            top = strip(drawn[:3])
            armies.append(np.vstack([top, np.full((8, top.shape[1], 3), 255, np.uint8), strip(drawn[3:])]))
        grid(compared("hexbattle counters: French above, British below", armies)).save(
            target / "hexbattle-armies-before-after.png")
        fixes = [(name, [("", strip(render(source, FIXES, folder)))]) for name, source in
                 (("before: Grenadiers, Volley Fire, Entrench, imperial Cavalry and Musketeers", before),
                  ("after", ROOT))]
        grid(fixes).save(target / "card-fixes-before-after.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
