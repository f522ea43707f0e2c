"""The engines, the card data, the balance report and the companion say their types, and a type checker reads them:
`mypy --strict engine cards balance`, and `companion` (its imports from elsewhere read, not checked).

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


def test_the_companion_passes_mypy_strict() -> None:
    """All of `companion/` (issue 34); the modules it imports from elsewhere (the generator's) are read for their
    types but not checked here (`--follow-imports=silent`)."""
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "companion"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, f"mypy --strict companion found problems:\n{run.stdout}{run.stderr}"
