"""Hexbattle's rules compiled with mypyc, used only when the build was made from exactly these sources.

Why: `muster balance hexbattle` plays random battles of about 7,800 decisions each, and a decision is a dozen
small steps of Python (listing moves, searching them, carrying one out); compiled, the same source plays them
1.6 to 1.7 times as fast (docs/performance.md, "Fifth round"). Nothing is a second copy: `scripts/build_native.py` compiles the
modules in `MODULES` as they are, and the `.py` files stay the reference, the fallback and what every reader
reads. `tests/test_native.py` checks that the compiled and the pure modules list and play the same moves.

The guard (`guard`, run when `engine` is imported): a compiled module sits beside its source as a `.so`, which
Python would import first, so a build left from older sources would play older rules. The build writes the
SHA-256 of each source it compiled into `STAMP`; if any source differs now, or `MUSTER_PURE=1` is set, or the
stamp is missing, every module of `MODULES` is imported from its `.py` (all or none: compiled modules call each
other directly, so a mixture would still run old code). Reading the engine's own sources at import is the one
file read in `engine/`; it happens only when a build is present.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent

MODULES = ("hexgrid", "hexbattle_pieces", "hexbattle_combat", "hexbattle_game", "hexbattle_state",
           "hexbattle_turn", "hexbattle_setup", "hexbattle_move", "hexbattle_sight", "hexbattle_attack",
           "hexbattle_guards", "hexbattle_cards", "hexbattle_orders", "hexbattle_victory", "hexbattle_view",
           "hexbattle_hidden")
"""The modules compiled together (`engine.<name>`): hexbattle's rules and the hex geometry they use."""

GROUP = "engine.native_build"
"""mypyc's name for the build: its shared library is `engine/native_build__mypyc.*.so`."""

STAMP = HERE / "native_build.json"
"""Written by the build: {module: SHA-256 of the source it compiled}."""


def digest(name: str) -> str:
    """The SHA-256 of a module's source as it is now."""
    return hashlib.sha256((HERE / f"{name}.py").read_bytes()).hexdigest()


def built() -> bool:
    """Whether a compiled build of `MODULES` lies beside the sources (fresh or not)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return STAMP.exists() and all((HERE / f"{name}{suffix}").exists() for name in MODULES)


def stale() -> list[str]:
    """The modules whose source differs from what the build compiled (every module when there is no stamp)."""
    try:
        compiled = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return list(MODULES)
    return [name for name in MODULES if compiled.get(name) != digest(name)]


class _Sources(importlib.abc.MetaPathFinder):
    """Imports `engine.<name>` for the names in MODULES from the `.py` beside it, never from a compiled build."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != "engine" or name not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, HERE / f"{name}.py")


def guard() -> None:
    """Import MODULES from their sources unless a fresh build of them is present and wanted (see the module)."""
    if any(isinstance(finder, _Sources) for finder in sys.meta_path):
        return
    if os.environ.get("MUSTER_PURE") == "1" or not built() or stale():
        sys.meta_path.insert(0, _Sources())


def compiled() -> bool:
    """Whether hexbattle's rules run compiled in this process (once `engine.hexbattle` is imported)."""
    module = sys.modules.get("engine.hexbattle_state")
    return module is not None and not str(getattr(module, "__file__", "")).endswith(".py")
