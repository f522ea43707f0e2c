"""Fixtures shared by the tests: game data, table stores, PostgreSQL and the headless Chromium phones."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from cards.load import CARDS_ROOT

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def cards_copy(tmp_path: Path) -> Path:
    """A private copy of the shipped game data (no Python) that a test may break."""
    root = tmp_path / "cards"
    shutil.copytree(CARDS_ROOT, root, ignore=shutil.ignore_patterns("*.py", "__pycache__", "schemas"))
    return root


@pytest.fixture(scope="session")
def imperial_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """Imperial (the smallest full game: one deck, tokens, reference, booklet, tuck box) built as PDF
    for every profile, once per session (per xdist worker): the print tests that only read a whole
    build share it. Returns the game's folder and the files the build listed."""
    from generator.build import build_all

    out = tmp_path_factory.mktemp("imperial-build")
    return out / "imperial", build_all(["imperial"], ["pdf"], out=out)


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


CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
TIMEOUT = 60_000  # ms, generous: CI machines run the AppTest suite alongside


@pytest.fixture(scope="session")
def launch_chromium() -> Iterator[Callable[..., Any]]:
    """Launches the system Chromium headless with the flags every test needs (containers have no sandbox;
    no background traffic; no GPU); extra launch options such as `env` pass through. One Playwright driver
    for the session; every browser launched is closed at its end. Skips when Chromium is not installed."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"system Chromium ({CHROMIUM}) is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched: list[Any] = []

        def launch(**options: Any) -> Any:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-background-networking", "--disable-gpu"], **options)
            launched.append(browser)
            return browser

        yield launch
        for browser in launched:
            browser.close()


@pytest.fixture(scope="session")
def chromium(launch_chromium: Callable[..., Any]) -> Any:
    """The one headless Chromium of the session (starting a browser costs seconds); tests open phones in it."""
    return launch_chromium()


@pytest.fixture
def new_phone(chromium: Any) -> Iterator[Callable[[], Any]]:
    """Opens a phone: a page at 390x844 in a browser context of its own (its own cookies and storage, as a
    separate device), with TIMEOUT as its default wait. Every phone a test opened is closed after it, so no
    page keeps polling a server that is gone."""
    contexts: list[Any] = []

    def open_phone() -> Any:
        context = chromium.new_context(viewport=PHONE)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        return page

    yield open_phone
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def one_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The server behind `shared_server`, started once per session (per xdist worker): here, not in the browser
    harness (tests/test_browser.py), so that every module finds the one instance."""
    from test_browser import Server

    srv = Server(tmp_path_factory.mktemp("shared") / "data")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def shared_server(one_server: Any) -> Iterator[Any]:
    """A `muster app` shared by the tests that need a server but not a fresh one (each works on tables of its own):
    a start costs a server's import and first page, seconds on a loaded machine, and a page scan or a bot's game
    does not care what else the server holds. Checked as a server of the test's own (`sharing`)."""
    with sharing(one_server) as srv:
        yield srv


@contextmanager
def sharing(srv: Any) -> Iterator[Any]:
    """The session's server (`one_server`) for a test, or a module's tests (a module fixture of their own): they fail
    on a traceback or error line their run left in its log, as with a server of their own when it stopped; what they
    `expect` is forgotten after them. One that stopped or killed the server finds it started again."""
    if srv.proc is None or srv.proc.poll() is not None:
        srv.proc = None
        srv.start()
    since, expected = srv.mark(), list(srv.expected)
    yield srv
    problems = srv.problems(since)
    srv.expected, srv.checked = expected, srv.mark()
    assert not problems, f"the server's log ({srv.log}) has lines the test did not expect:\n" + "\n".join(problems[:20])
