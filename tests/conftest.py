"""Fixtures shared by the data tests."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from cards.load import CARDS_ROOT

sys.path.insert(0, str(Path(__file__).parent))


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


@pytest.fixture(scope="session")
def postgres_server():
    """One real PostgreSQL server per test session (per xdist worker); fails with the reason if it cannot start."""
    from postgres_server import PostgresServer, PostgresUnavailable

    try:
        server = PostgresServer().start()
    except PostgresUnavailable as err:
        pytest.fail(f"PostgreSQL could not be started for the tests: {err}")
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server, monkeypatch: pytest.MonkeyPatch):
    """A fresh empty database on the session's server; every store opened on it is closed afterwards."""
    from companion.store_postgres import PostgresStore

    opened: list[PostgresStore] = []
    init = PostgresStore.__init__

    def tracked(self: PostgresStore, *args, **kwargs) -> None:
        init(self, *args, **kwargs)
        opened.append(self)

    monkeypatch.setattr(PostgresStore, "__init__", tracked)
    url = postgres_server.new_database()
    yield url
    for store in opened:
        store.close()
    postgres_server.drop_database(url)


@pytest.fixture(params=["sqlite", "postgres"])
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's store lives, once per backend: an SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "muster.sqlite3")
    return request.getfixturevalue("postgres_url")
