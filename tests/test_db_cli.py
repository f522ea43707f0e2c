"""`muster db copy` between SQLite and PostgreSQL, and `--database` for the companion."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from companion_game import RaceGame  # noqa: E402

from companion.cli import main  # noqa: E402
from companion.store import Store, open_store  # noqa: E402
from companion.tables import Tables  # noqa: E402
from engine.core import Action  # noqa: E402


def everything(store: Store) -> dict[str, list[tuple]]:
    return {name: list(store.rows(name)) for name in ("tables", "seats", "actions", "results")}


def test_db_copy_sqlite_to_postgres_and_back(tmp_path: Path, postgres_url: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "muster.sqlite3"
    service = Tables(open_store(source), {"race": RaceGame()})
    first = service.create("race", ["Ann", "Bob"], {"players": 2, "target": 99})
    service.act(first, 0, Action("bank", 0, {"amount": 1}))  # no chance in it, so it may be taken back
    service.undo(first, 0)
    service.store.hold_seat(first.id, first.seats[1].token, "phone-b")
    second = service.create("race", ["Cy", "Di", "Ed"], {"players": 3, "target": 1})
    service.store.append(second.id, 0, {"kind": "roll", "player": 0, "args": {}}, request_id="tap-9")
    service.concede(second, 2)
    assert main(["db", "copy", "--from", str(source), "--to", postgres_url]) == 0
    said = capsys.readouterr().out
    assert said == (f"Copied 2 tables, 5 seats, 3 log entries and 1 results from {source} to {postgres_url}.\n")
    copied = open_store(postgres_url)
    assert everything(copied) == everything(service.store)
    more = copied.create_table("race", ["Fay", "Gil"], {})  # ids carry on after the copied ones
    assert more.id == 3 and copied.append(more.id, 0, {"kind": "roll", "player": 0, "args": {}}).id == 4
    back = tmp_path / "back.sqlite3"
    assert main(["db", "copy", "--from", postgres_url, "--to", f"sqlite:///{back}"]) == 0
    assert "Copied 3 tables, 7 seats, 4 log entries and 1 results" in capsys.readouterr().out
    assert everything(open_store(back)) == everything(copied)


def test_db_copy_refuses_a_target_with_tables_and_a_missing_source_postgres(
        tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    open_store(postgres_url).create_table("race", ["Ann", "Bob"], {})
    source = tmp_path / "muster.sqlite3"
    open_store(source).create_table("race", ["Cy", "Di"], {})
    assert main(["db", "copy", "--from", str(source), "--to", postgres_url]) == 2
    assert capsys.readouterr().err == (f"muster: The target {postgres_url} already has tables; "
                                       "copy only into an empty database.\n")
    assert main(["db", "copy", "--from", str(tmp_path / "none.sqlite3"), "--to", postgres_url]) == 2
    assert "there is no database file at" in capsys.readouterr().err
    assert main(["db", "copy", "--from", str(source), "--to", "mysql://x/y"]) == 2
    assert "is not a database this Muster can use" in capsys.readouterr().err


def test_app_says_when_its_postgres_database_cannot_be_reached(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from postgres_server import free_port

    url = f"postgresql://muster@127.0.0.1:{free_port()}/nowhere"
    assert main(["app", "--port", str(free_port()), "--data-dir", str(tmp_path), "--database", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"muster: The database {url} cannot be reached"), err
