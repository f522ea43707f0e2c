"""A phone's own tables (issue 30): the store knows which seats a phone holds, playing or ended."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from companion_game import RaceGame  # noqa: E402

from companion.store import open_store  # noqa: E402
from companion.tables import Tables  # noqa: E402
from companion.your_tables import result  # noqa: E402


def test_held_by_lists_the_tables_of_a_phone_newest_first(store_target: str) -> None:
    service = Tables(open_store(store_target), {"race": RaceGame()})
    first = service.create("race", ["Ann", "Bob"], {"players": 2})
    second = service.create("race", ["Cy", "Di", "Ed"], {"players": 3})
    service.hold(first, first.seats[1], "phone-a")
    service.hold(second, second.seats[0], "phone-a")
    service.hold(second, second.seats[2], "phone-b")
    assert [t.id for t in service.store.held_by("phone-a", 10)] == [second.id, first.id]
    assert [t.id for t in service.store.held_by("phone-b", 10)] == [second.id]
    assert service.store.held_by("phone-c", 10) == []
    assert [t.id for t in service.store.held_by("phone-a", 1)] == [second.id]
    service.concede(service.store.table(first.id), 1, "phone-a")
    ended = service.store.held_by("phone-a", 10)
    assert {t.id: t.playing for t in ended} == {first.id: False, second.id: True}, "an ended table stays the phone's"
    assert result(service.store.table(first.id)) == "Bob conceded, Ann won"
