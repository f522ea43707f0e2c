"""Fixtures shared by the data tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cards.load import CARDS_ROOT


@pytest.fixture
def cards_copy(tmp_path: Path) -> Path:
    """A private copy of the shipped game data (no Python) that a test may break."""
    root = tmp_path / "cards"
    shutil.copytree(CARDS_ROOT, root, ignore=shutil.ignore_patterns("*.py", "__pycache__", "schemas"))
    return root
