"""SVG text in librsvg (GNOME, Inkscape's import, converters), which ignores @font-face: rendered by rsvg-convert
and by Chromium on a machine without DejaVu, a card drawn with `--svg-text paths` looks the same in both, while
the default SVG (fonts embedded) falls back to another font in librsvg, as README says."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from cards import load_game
from generator import deck
from generator.canvas import Box, SvgDocument
from tests.test_svg_fonts import FONTS_CONF, HIDE_DEJAVU

pytestmark = pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="needs rsvg-convert (librsvg2-bin)")
CSS_DPI = 96
SCALE = 2  # device pixels per CSS pixel in both renderers


def _card_svg(folder: Path, text_paths: bool) -> Path:
    game = load_game("warfare")
    card = deck.card_piece(game, deck.decks(game)[0], game.deck("cards")[0], None)
    doc = SvgDocument(folder, "paths" if text_paths else "fonts", text_paths=text_paths)
    with doc.page(card.width, card.height) as c, c.group(clip=Box(0, 0, card.width, card.height)):
        card.front(c, 0.0)
    (path,) = doc.save()
    return path


def _rsvg(svg: Path, env: dict[str, str]) -> np.ndarray:
    png = svg.with_suffix(".rsvg.png")
    subprocess.run(["rsvg-convert", "-d", str(CSS_DPI * SCALE), "-p", str(CSS_DPI * SCALE), "-b", "white",
                    "-o", str(png), str(svg)], check=True, env=env, timeout=60)
    return np.asarray(Image.open(png).convert("L"), dtype=np.int16)


def _chromium(launch_chromium: Callable[..., Any], svgs: list[Path], env: dict[str, str]) -> list[np.ndarray]:
    browser = launch_chromium(env=env)
    try:
        page = browser.new_page(viewport={"width": 260, "height": 350}, device_scale_factor=SCALE)
        shots = []
        for svg in svgs:
            page.goto(svg.as_uri())
            page.evaluate("document.fonts.ready")
            shot = svg.with_suffix(".chromium.png")
            page.screenshot(path=str(shot))
            shots.append(np.asarray(Image.open(shot).convert("L"), dtype=np.int16))
        return shots
    finally:
        browser.close()


def _differs(a: np.ndarray, b: np.ndarray) -> float:
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    return float((np.abs(a[:h, :w] - b[:h, :w]) > 64).mean())


def test_text_as_paths_renders_the_same_in_librsvg_and_chromium(tmp_path: Path,
                                                                launch_chromium: Callable[..., Any]) -> None:
    config = tmp_path / "fonts.conf"
    config.write_text(FONTS_CONF.format(cache=tmp_path / "fc", hide=HIDE_DEJAVU), encoding="utf-8")
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "FONTCONFIG_FILE": str(config)}
    paths, fonts = _card_svg(tmp_path, True), _card_svg(tmp_path, False)
    assert "<text" not in paths.read_text(encoding="utf-8") and "<text" in fonts.read_text(encoding="utf-8")
    browser = dict(zip(("paths", "fonts"), _chromium(launch_chromium, [paths, fonts], env)))
    rsvg = {"paths": _rsvg(paths, env), "fonts": _rsvg(fonts, env)}
    assert rsvg["paths"].shape[1] == round(63.5 / 25.4 * CSS_DPI * SCALE)  # the card at the size Chromium draws it
    same = _differs(rsvg["paths"], browser["paths"])
    fallback = _differs(rsvg["fonts"], browser["fonts"])
    print(f"paths: {same:.5f} of pixels differ; fonts embedded: {fallback:.5f}")
    assert same < 0.002                # edges anti-aliased a little differently, nothing more
    assert fallback > 5 * max(same, 0.001)  # librsvg without DejaVu: another font, lines of other lengths
    # Chromium draws both the same: outlines are the embedded font's own glyphs.
    assert _differs(browser["paths"], browser["fonts"]) < 0.01
