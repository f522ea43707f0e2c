"""Compile hexbattle's rules with mypyc (`engine.native` says why and how the build is guarded).

Run by scripts/start and scripts/test: `python scripts/build_native.py` builds only when the sources changed
since the last build (`--force`: always; `--check`: only say whether a fresh build is present, exit 1 if not). It
compiles in a scratch folder (a copy of `engine/` and `cards/`, which the type check reads), so a failed build
leaves the working tree as it was, then puts the compiled modules beside their sources and writes the stamp of
every source it type-checked. Needs mypy (the `native` extra), a C compiler and Python's headers; without them it
says what is missing and the rules run as plain Python.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import native  # noqa: E402  (the repository's engine, wherever this is run from)

SETUP = """
from setuptools import setup
from mypyc.build import mypycify
setup(name="muster-native", script_args=["build_ext", "--inplace", "-q"],
      ext_modules=mypycify({paths!r} + ["--config-file", "mypy.ini"], group_name={group!r}, opt_level="3"))
"""

MYPY_INI = "[mypy]\npython_version = 3.11\nstrict = True\nplugins = pydantic.mypy\n"
"""pyproject.toml's [tool.mypy] (the scratch folder has no pyproject.toml: setuptools would read the project's)."""


def missing() -> str | None:
    """What the build needs and this machine lacks, in words; None when nothing is missing."""
    lacks = []
    try:
        import mypyc  # noqa: F401
    except ImportError:
        lacks.append("mypy (pip install -e '.[native]')")
    if shutil.which(sysconfig.get_config_var("CC").split()[0] if sysconfig.get_config_var("CC") else "cc") is None:
        lacks.append("a C compiler (apt-get install gcc)")
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        lacks.append("Python's headers (apt-get install python3-dev)")
    return ", ".join(lacks) or None


def build() -> None:
    sources = native.digests()
    with tempfile.TemporaryDirectory(prefix="muster-native-") as scratch:
        work = Path(scratch)
        for package in native.TREES:
            shutil.copytree(ROOT / package, work / package,
                            ignore=shutil.ignore_patterns("__pycache__", "*.so", "native_build.json"))
        (work / "mypy.ini").write_text(MYPY_INI)
        paths = [f"engine/{name}.py" for name in native.MODULES]
        (work / "setup.py").write_text(SETUP.format(paths=paths, group=native.GROUP))
        run = subprocess.run([sys.executable, "setup.py"], cwd=work, capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"build_native: mypyc failed; the rules run as plain Python.\n{run.stdout}{run.stderr}")
        if native.digests() != sources:
            raise SystemExit("build_native: the sources changed during the build; run it again.")
        native.STAMP.unlink(missing_ok=True)  # no stamp while the compiled files are replaced: the guard uses none
        for old in native.HERE.glob("*.so"):
            old.unlink()
        for made in (work / "engine").glob("*.so"):
            shutil.copy2(made, native.HERE / made.name)
        native.STAMP.write_text(json.dumps(sources, indent=1, sort_keys=True) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="build even when the build present is fresh")
    parser.add_argument("--check", action="store_true", help="only say whether a fresh build is present")
    args = parser.parse_args()
    fresh = native.built() and not native.stale()
    if args.check:
        print("the compiled build is fresh" if fresh else "no fresh compiled build")
        raise SystemExit(0 if fresh else 1)
    if fresh and not args.force:
        return
    lacks = missing()
    if lacks is not None:
        raise SystemExit(f"hexbattle runs as plain Python: compiling its rules needs {lacks}.")
    print("Compiling hexbattle's rules (mypyc, about a minute)...", flush=True)
    build()


if __name__ == "__main__":
    main()
