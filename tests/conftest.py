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


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A fresh table store for the five real games, installed where the pages look for it."""
    from companion import context
    from companion.store import open_store
    from companion.tables import Tables

    svc = Tables(open_store(tmp_path / "muster.sqlite3"))
    monkeypatch.setattr(context, "tables", lambda: svc)
    return svc
