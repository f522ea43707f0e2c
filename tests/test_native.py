"""Hexbattle's compiled build (`engine.native`, `scripts/build_native.py`): the same moves as the plain Python,
never used once the sources it was made from changed or when its library does not load, and never needed to start.

The tests of a build need one (scripts/test and scripts/start make it); without one they are skipped, saying so.
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
    return _run_logged(code, cwd, pure)[0]


def _run_logged(code: str, cwd: Path, pure: bool) -> tuple[str, str]:
    """What `code` printed, and what it logged (stderr)."""
    env = {**os.environ, "PYTHONPATH": str(cwd), "MUSTER_PURE": "1" if pure else "0"}
    run = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip(), run.stderr.strip()


def _copy(to: Path) -> None:
    """The engine with its build, and the cards it type-checked against, in `to`."""
    for tree in native.TREES:
        shutil.copytree(ROOT / tree, to / tree, ignore=shutil.ignore_patterns("__pycache__"))


PROBE = "import engine.hexbattle, engine.hexgrid as g; from engine import native; print(native.compiled(), g.__file__)"

PLAY = """
import cards
from engine import make_game, native
from balance.play import game_rng, options_for
game = make_game(cards.load_game("hexbattle"))
rng = game_rng(0, 0)
state = game.new_state(rng, options_for(game, 2))
for n in range(300):
    state.play(state.random_action(rng, state.current), rng)
import engine.hexgrid as g
print(native.compiled(), g.__file__)
"""


@needs_build
def test_compiled_and_plain_python_list_and_play_the_same_moves() -> None:
    """3,000 decisions of two balance battles: every listing, every pick, a re-dealt copy's moves and view every
    100 decisions, and the final view, compiled and plain."""
    compiled, plain = _run(BATTLE, ROOT, pure=False), _run(BATTLE, ROOT, pure=True)
    assert compiled.split()[0] == "True" and plain.split()[0] == "False"
    assert compiled.split()[1] == plain.split()[1]


@needs_build
@pytest.mark.parametrize("changed", ["engine/hexbattle_move.py", "engine/core.py", "cards/schemas/hexbattle.py"])
def test_a_build_of_older_sources_is_not_used(tmp_path: Path, changed: str) -> None:
    """A copy of the engine with its build: compiled as built; with one source changed, every module plain. That
    holds for a module the build compiled and for one whose types it compiled against (engine.core, the schema)."""
    _copy(tmp_path)
    assert _run(PROBE, tmp_path, pure=False).startswith("True ")
    source = tmp_path / changed
    source.write_text(source.read_text() + "\n# changed after the build\n")
    used = _run(PROBE, tmp_path, pure=False).split()
    assert used == ["False", str(tmp_path / "engine" / "hexgrid.py")]


@needs_build
@pytest.mark.parametrize("broken", ["removed", "not a library"])
def test_a_build_whose_library_is_missing_or_does_not_load_plays_as_plain_python(tmp_path: Path,
                                                                                  broken: str) -> None:
    """The build's shared library, which every compiled module calls into, gone or unloadable: hexbattle imports
    and plays 300 decisions as plain Python; an unloadable one is said once on the `muster.engine` logger."""
    _copy(tmp_path)
    (library,) = (tmp_path / "engine").glob("native_build__mypyc.*.so")
    if broken == "removed":
        library.unlink()
    else:
        library.write_bytes(b"not a shared library\n")
    (tmp_path / "balance").symlink_to(ROOT / "balance")
    printed, logged = _run_logged(PLAY, tmp_path, pure=False)
    assert printed.split() == ["False", str(tmp_path / "engine" / "hexgrid.py")]
    if broken == "removed":
        assert logged == ""
    else:
        assert logged.startswith("hexbattle's compiled build does not load (")
        assert logged.endswith("); its rules run as plain Python") and len(logged.splitlines()) == 1


def test_start_goes_on_as_plain_python_where_no_compiler_can_be_had(tmp_path: Path) -> None:
    """scripts/start's compiler step on a machine without gcc and without apt-get to install it: it says nothing
    and start goes on (`set -euo pipefail`); the build then says in one line that hexbattle runs as plain Python."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    (bin_ / "python3").symlink_to(sys.executable)
    env = {**os.environ, "PATH": str(bin_)}
    start = (ROOT / "scripts" / "start").read_text()
    assert "\ntry_compiler_tools" in start and "gcc" not in start
    steps = "set -euo pipefail; source scripts/system-tools; try_compiler_tools; echo went on"
    run = subprocess.run(["/bin/bash", "-c", steps], cwd=ROOT, env=env, capture_output=True, text=True)
    assert (run.returncode, run.stdout, run.stderr) == (0, "went on\n", "")
    run = subprocess.run([sys.executable, "scripts/build_native.py", "--force"], cwd=ROOT, env=env,
                         capture_output=True, text=True)
    assert (run.returncode, run.stdout, run.stderr.count("\n")) == (1, "", 1)
    assert run.stderr.startswith("hexbattle runs as plain Python: compiling its rules needs ")
    assert "a C compiler (apt-get install gcc)" in run.stderr
