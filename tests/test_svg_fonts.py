"""SVGs carry their fonts: rendered by Chromium with DejaVu installed and with it hidden, a card looks the same."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from cards import load_game
from generator import deck
from generator.sheets import piece_svg

FONTS_CONF = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>/usr/share/fonts</dir>
  <cachedir>{cache}</cachedir>
  {hide}
</fontconfig>
"""
HIDE_DEJAVU = "<selectfont><rejectfont><glob>*DejaVu*</glob></rejectfont></selectfont>"


def _render(launch_chromium: Callable[..., Any], svgs: list[Path], env: dict[str, str]) -> list[np.ndarray]:
    """Each SVG as Chromium draws it, at twice CSS pixel density, in a browser of its own started with `env`
    (the fonts it may find are fixed when it starts)."""
    browser = launch_chromium(env=env)
    try:
        page = browser.new_page(viewport={"width": 260, "height": 350}, device_scale_factor=2)
        shots = []
        for svg in svgs:
            page.goto(svg.as_uri())
            page.evaluate("document.fonts.ready")
            shot = svg.with_suffix(f".{Path(env['FONTCONFIG_FILE']).stem}.png")
            page.screenshot(path=str(shot))
            shots.append(np.asarray(Image.open(shot).convert("L"), dtype=np.int16))
        return shots
    finally:
        browser.close()


def test_a_card_svg_renders_the_same_without_dejavu_installed(tmp_path: Path,
                                                               launch_chromium: Callable[..., Any]) -> None:
    game = load_game("warfare")
    card = deck.card_piece(game, deck.decks(game)[0], game.deck("cards")[0], None)
    text = piece_svg(card)
    faces = re.findall(r"font-family:'(Muster [^']+)';font-weight:(\w+);src:url\(data:font/woff;base64,", text)
    used = set(re.findall(r"font-family=\"'(Muster [^']+)'[^\"]*\" font-size=\"[^\"]+\" font-weight=\"(\w+)\"", text))
    assert len(used) >= 3 and sorted(faces) == sorted(used)  # one embedded face per font the text uses
    embedded = tmp_path / "embedded.svg"
    embedded.write_text(text, encoding="utf-8")
    bare = tmp_path / "bare.svg"  # the same card naming its fonts only, as SVGs were before
    bare.write_text(re.sub(r"<style>.*?</style>", "", text, flags=re.S), encoding="utf-8")
    env = {}
    for name, hide in (("with", ""), ("without", HIDE_DEJAVU)):  # the same settings but for DejaVu
        config = tmp_path / f"{name}.conf"
        config.write_text(FONTS_CONF.format(cache=tmp_path / f"fc-{name}", hide=hide), encoding="utf-8")
        env[name] = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "FONTCONFIG_FILE": str(config)}
    with_dejavu = _render(launch_chromium, [embedded, bare], env["with"])
    without = _render(launch_chromium, [embedded, bare], env["without"])

    def differs(a: np.ndarray, b: np.ndarray) -> float:
        return float((np.abs(a - b) > 64).mean())

    assert differs(with_dejavu[1], without[1]) > 0.002  # hiding DejaVu does change a bare SVG's text
    assert differs(with_dejavu[0], without[0]) == 0.0    # the embedded subset does not depend on it
    # And it is DejaVu, as the PDF prints: far closer to the installed DejaVu (it differs by hinting and
    # kerning only) than the fallback font a machine without DejaVu substitutes.
    assert differs(with_dejavu[0], with_dejavu[1]) < differs(with_dejavu[1], without[1]) / 2
