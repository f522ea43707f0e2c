"""A back offset large enough to push the back pages' cut marks and bleed into the edge printers leave blank is
built, but said: no ink lies nearer the edge than the margin (5 mm), and most printers leave 3 mm blank."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from generator.build import offset_warnings, plan


@pytest.mark.parametrize(("offset", "warned"), [((2.5, 0.0), True), ((0.0, -2.01), True), ((1.5, -2.0), False),
                                                ((0.0, 0.0), False), ((-10.0, 10.0), True)])
def test_offsets_beyond_margin_less_printer_edge_are_warned_about_per_duplex_profile(
        offset: tuple[float, float], warned: bool) -> None:
    jobs = plan(["waterloo"], ["pdf", "svg"], profiles=["home-a4", "home-letter", "home-fold-a4", "tgc", "dtc"])
    warnings = offset_warnings(jobs, offset)
    if not warned:
        assert warnings == []
        return
    # Once per duplex sheet profile (fold-over and shop files have no back page to move), naming it.
    assert len(warnings) == 2
    assert [w.split(" on ")[1].split(" ")[0] for w in warnings] == ["home-a4", "home-letter"]
    nearest = 5.0 - max(abs(v) for v in offset)
    assert f"back offset {offset[0]:g},{offset[1]:g} mm" in warnings[0]
    assert f"to {max(nearest, 0):g} mm from the paper's edge" in warnings[0]


def test_the_build_command_prints_the_warning_and_still_builds(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "companion.cli", "build", "waterloo", "--profile", "home-a4",
                           "--format", "pdf", "--back-offset", "3,0.5", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "warning: back offset 3,0.5 mm moves the back pages' outermost cut marks and bleed to 2 mm" in done.stderr
    assert (tmp_path / "waterloo" / "waterloo-cards-home-a4.pdf").is_file()
