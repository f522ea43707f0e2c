"""The table page reads the position as its viewer may know it (issue 28): `TableContext.state` is the viewer's
information set re-dealt (`State.resample`), never the table's real position, so whatever a panel reads of it
cannot show a card or pick hidden from that viewer."""

from __future__ import annotations

import json
import random

from companion.table_context import TableContext
from companion.store import TableInfo
from companion.tables import Tables
from engine.core import Match

OPTIONS = {"imperial_power": [3, 3], "gold": [2, 1], "reinforcements": [1, 1]}


def test_a_page_reads_the_same_position_whatever_the_opponent_picked_face_down(service: Tables) -> None:
    """Two tables alike but for Ann's face-down pick: Bob's page reads the same position on both, his own view
    as it really is; Ann's page keeps her own pick."""
    game = service.game("imperial")
    match, rng = Match(game, "twin", OPTIONS), random.Random(2)
    while not (picks := [a for a in match.state.legal_actions(0) if a.kind == "play"]) or \
            1 not in match.state.players_to_act():
        match.apply(rng.choice(match.state.legal_actions()))
    assert len({a["type"] for a in picks}) >= 2
    tables = []
    for pick in picks[:2]:
        table = service.create("imperial", ["Ann", "Bob"], OPTIONS, seed="twin")
        for action in [*match.log, pick]:
            service.act(table, action.player, action)
        tables.append(table)

    def page(table: TableInfo, seat: int) -> TableContext:
        info = service.store.table(table.id)
        return TableContext(service, info, info.seats[seat], service.snapshot(info))

    def read(ctx: TableContext) -> str:
        return json.dumps([ctx.state.view(v) for v in (None, 0, 1)], sort_keys=True, default=str)

    bob = [page(t, 1) for t in tables]
    assert read(bob[0]) == read(bob[1])
    assert all(ctx.view() == ctx.snap.state.view(1) for ctx in bob)
    ann = [page(t, 0) for t in tables]
    assert ann[0].view() != ann[1].view() and all(ctx.view() == ctx.snap.state.view(0) for ctx in ann)
