"""Hexbattle's rules compiled with mypyc, used only when the build was made from exactly these sources.

Why: `muster balance hexbattle` plays random battles of about 7,800 decisions each, and a decision is a dozen
small steps of Python (listing moves, searching them, carrying one out); compiled, the same source plays them
1.6 to 1.7 times as fast (docs/performance.md, "Fifth round"). Nothing is a second copy: `scripts/build_native.py` compiles the
modules in `MODULES` as they are, and the `.py` files stay the reference, the fallback and what every reader
reads. `tests/test_native.py` checks that the compiled and the pure modules list and play the same moves.

The guard (`guard`, run when `engine` is imported): a compiled module sits beside its source as a `.so`, which
Python would import first, so a build left from older sources would play older rules. mypyc also bakes in the types
of what the compiled modules import (`engine.core`, `engine.kinds`, `cards.schemas.hexbattle`, ...), so the build
writes into `STAMP` the SHA-256 of every `.py` file of the trees it type-checks (`TREES`, about 45 files, 0.6 MB:
a millisecond or two to hash). If any differs now, one is added or gone, `MUSTER_PURE=1` is set, the stamp or a
compiled file is missing, or the build's shared library does not load (another Python, a broken copy), every
module of `MODULES` is imported from its `.py` (all or none: compiled modules call each other directly, so a
mixture would still run old code). Reading those sources at import is the one file read of the engine; it
happens only when a build is present. The library is loaded when the first of `MODULES` is imported, not at `import
engine`, so processes that never play hexbattle do not pay for it.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

TREES = ("engine", "cards")
"""The packages the build copies and type-checks: their `.py` files are what a build was made from."""

MODULES = ("hexgrid", "hexbattle_pieces", "hexbattle_combat", "hexbattle_game", "hexbattle_state",
           "hexbattle_turn", "hexbattle_setup", "hexbattle_move", "hexbattle_sight", "hexbattle_attack",
           "hexbattle_guards", "hexbattle_cards", "hexbattle_orders", "hexbattle_victory", "hexbattle_view",
           "hexbattle_hidden")
"""The modules compiled together (`engine.<name>`): hexbattle's rules and the hex geometry they use."""

GROUP = "engine.native_build"
"""mypyc's name for the build: its shared library is `engine/native_build__mypyc.*.so`."""

STAMP = HERE / "native_build.json"
"""Written by the build: `digests()` of the sources it was made from."""


def digests() -> dict[str, str]:
    """{path under the repository: SHA-256} of every `.py` file of `TREES` as it is now."""
    import hashlib

    return {path.relative_to(ROOT).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for tree in TREES for path in sorted((ROOT / tree).rglob("*.py")) if "__pycache__" not in path.parts}


def built() -> bool:
    """Whether a compiled build of `MODULES` lies beside the sources (fresh or not): stamp, library, every module."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    files = (*MODULES, f"{GROUP.rpartition('.')[2]}__mypyc")
    return STAMP.exists() and all((HERE / f"{name}{suffix}").exists() for name in files)


def stale() -> list[str]:
    """The sources that differ from what the build was made from, added or gone (all of them without a stamp)."""
    import json

    now = digests()
    try:
        made = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return sorted(now)
    if not isinstance(made, dict):
        return sorted(now)
    return sorted(path for path in now.keys() | made.keys() if now.get(path) != made.get(path))


class _Guard:
    """A meta-path finder: `engine.<name>` for the names in MODULES from the `.py` beside it, unless the build is
    to be tried (`fresh`) and its library loads, checked once, at the first of them imported."""

    def __init__(self, fresh: bool) -> None:
        self.compiled: bool | None = None if fresh else False

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != "engine" or name not in MODULES:
            return None
        if self.compiled is None:
            self.compiled = _loads()
        return None if self.compiled else importlib.util.spec_from_file_location(fullname, HERE / f"{name}.py")


def _loads() -> bool:
    """Whether the build's library imports; when not, says why on the `muster.engine` logger."""
    try:
        importlib.import_module(f"{GROUP}__mypyc")
    except ImportError as error:
        import logging

        logging.getLogger("muster.engine").warning(
            "hexbattle's compiled build does not load (%s); its rules run as plain Python", error)
        return False
    return True


def guard() -> None:
    """Import MODULES from their sources unless a fresh build of them is present, wanted and loads (see the module)."""
    if any(isinstance(finder, _Guard) for finder in sys.meta_path):
        return
    sys.meta_path.insert(0, _Guard(os.environ.get("MUSTER_PURE") != "1" and built() and not stale()))


def compiled() -> bool:
    """Whether hexbattle's rules run compiled in this process (once `engine.hexbattle` is imported)."""
    module = sys.modules.get("engine.hexbattle_state")
    return module is not None and not str(getattr(module, "__file__", "")).endswith(".py")
