"""Hexbattle's compiled build (`engine.native`, `scripts/build_native.py`): the same moves as the plain Python, and
never used once its sources changed.

Both tests need a build (scripts/test and scripts/start make it); without one they are skipped, saying so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import native

ROOT = Path(__file__).resolve().parent.parent

needs_build = pytest.mark.skipif(not native.built() or bool(native.stale()),
                                 reason="no fresh compiled build of hexbattle (python scripts/build_native.py)")

BATTLE = """
import hashlib, json, random, sys
import cards
from engine import make_game, native
from balance.play import game_rng, options_for
game = make_game(cards.load_game("hexbattle"))
digest = hashlib.sha256()
for k in (0, 1):
    rng = game_rng(0, k)
    state = game.new_state(rng, options_for(game, 2))
    for n in range(1500):
        if state.is_terminal:
            break
        seat = state.current
        digest.update(repr(state.legal_actions()).encode())
        if n % 100 == 0:  # what bots and pages read: a re-dealt copy, its moves and the seat's view
            other = state.resample(seat, random.Random(n))
            digest.update(repr(other.legal_actions()).encode())
            digest.update(json.dumps(other.view(seat), sort_keys=True, default=str).encode())
        action = state.random_action(rng, seat)
        digest.update(repr(action).encode())
        state.play(action, rng)
    digest.update(json.dumps(state.view(None), sort_keys=True, default=str).encode())
print(native.compiled(), digest.hexdigest())
"""


def _run(code: str, cwd: Path, pure: bool) -> str:
    env = {**os.environ, "PYTHONPATH": str(cwd), "MUSTER_PURE": "1" if pure else "0"}
    run = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


@needs_build
def test_compiled_and_plain_python_list_and_play_the_same_moves() -> None:
    """3,000 decisions of two balance battles: every listing, every pick, a re-dealt copy's moves and view every
    100 decisions, and the final view, compiled and plain."""
    compiled, plain = _run(BATTLE, ROOT, pure=False), _run(BATTLE, ROOT, pure=True)
    assert compiled.split()[0] == "True" and plain.split()[0] == "False"
    assert compiled.split()[1] == plain.split()[1]


@needs_build
def test_a_build_of_older_sources_is_not_used(tmp_path: Path) -> None:
    """A copy of the engine with its build: compiled as built; with one source changed, every module plain."""
    shutil.copytree(ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "cards", tmp_path / "cards", ignore=shutil.ignore_patterns("__pycache__"))
    probe = "import engine.hexbattle, engine.hexgrid as g; from engine import native; print(native.compiled(), g.__file__)"
    assert _run(probe, tmp_path, pure=False).startswith("True ")
    source = tmp_path / "engine" / "hexbattle_move.py"
    source.write_text(source.read_text() + "\n# changed after the build\n")
    used = _run(probe, tmp_path, pure=False).split()
    assert used == ["False", str(tmp_path / "engine" / "hexgrid.py")]
