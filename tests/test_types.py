"""The engines, the card data and the balance report say their types, and a type checker reads them:
`mypy --strict engine cards balance`.

CI runs only the test suite (scripts/test), so the type check is a test; its failure shows mypy's own report.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


STRICT = ["engine", "cards", "balance"]
"""The packages checked whole."""


def test_engine_cards_and_balance_pass_mypy_strict() -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", *STRICT], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, f"mypy --strict {' '.join(STRICT)} found problems:\n{run.stdout}{run.stderr}"


# The companion's modules that pass so far (issue 34 aims at all of `companion/`); the modules they import are
# read for their types but not checked themselves (`--follow-imports=silent`).
COMPANION_TYPED = ["paths", "routes", "launch", "streamlit_adapter", "live", "front_page", "names", "clock"]


def test_the_typed_companion_modules_pass_mypy_strict() -> None:
    files = [f"companion/{name}.py" for name in COMPANION_TYPED]
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", *files], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, f"mypy --strict {' '.join(files)} found problems:\n{run.stdout}{run.stderr}"
