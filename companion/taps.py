"""What a tap changes in the store: a move, undo, concede, taking, re-issuing and holding a seat.

Each is a button's or a pad's callback: it runs before the page is drawn again, wakes the other phones
(`live.waking`), and leaves what it has to say (a refusal, a stale tap) as a message for that draw
(`companion.flashes`), never a traceback (`faults.calmly`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import streamlit as st

from companion import asking, devices, faults, flashes, links, live
from companion.components import movepad
from companion.render import plain
from companion.store import StoreError
from companion.tables import Stale, Tables
from engine.core import Action, Refusal

HINT = "table-hint"  # session key: ((table, head, seat), [(move, chance of winning)]) of the last hint asked


def request_id(table_id: int, offered: tuple[int, int], action: dict[str, Any]) -> str:
    """The same tap (this table, this position, this action) always gets the same id, so the store keeps it once."""
    digest = hashlib.sha1(json.dumps(action, sort_keys=True).encode()).hexdigest()[:16]
    return f"t{table_id}-{offered[0]}-{offered[1]}-{digest}"


@live.waking
@faults.calmly
def act(service: Tables, table_id: int, seat: int | None, action: dict[str, Any], offered: tuple[int, int],
        label: str | None = None, confirmed: bool = False, where: str | None = None) -> None:
    """Carry out a move as offered at `offered` (every move button and panel comes here, in a callback).

    A move that could not be taken back waits for "Yes" in a dialog (`asking.confirm`); refusals and
    a stale position become messages on the next draw, beside the control `where` (the tapped
    button's key, `flashes.show_beside`) when it is given.
    """
    table = service.store.table(table_id)
    move = Action.from_json(action)
    try:
        if not confirmed and seat is not None:
            reason = asking.question(service, table, seat, move)
            if reason:
                asking.park({"table": table_id, "seat": seat, "action": action, "where": where,
                             "offered": tuple(offered), "label": label, "reason": reason})
                return
        asking.drop()
        service.act(table, seat, move, (offered[0], offered[1]), request_id(table_id, offered, action), devices.this_device())
    except Stale as err:
        flashes.flash("warning", str(err), where)
    except (Refusal, StoreError) as err:
        faults.refuse(err, where)


def answered(service: Tables, pending: asking.Pending) -> None:
    """The player said yes to the parked move (`asking.confirm`): carry it out."""
    act(service, pending["table"], pending["seat"], pending["action"], pending["offered"], pending["label"], True,
        pending.get("where"))


def play_tap(service: Tables, table_id: int, seat: int | None, pad: str, tap: movepad.Tap,
             before: Callable[[], None] | None = None) -> None:
    """A pad's tap: the action it carries, as offered at the position the phone showed; a refusal is shown
    under the button tapped ("PAD:ITEM", `flashes.take_beside`)."""
    if before is not None:
        before()
    where = f"{pad}:{tap.id}"
    if tap.head is None or not _is_action(tap.value):
        flashes.flash("error", "That tap could not be read as a move; nothing was done.", where)
        return
    act(service, table_id, seat, tap.value, tap.head, tap.label, confirmed=tap.sure, where=where)


def _is_action(value: Any) -> bool:
    return (isinstance(value, dict) and isinstance(value.get("kind"), str) and type(value.get("player")) is int
            and isinstance(value.get("args", {}), dict))


@live.waking
@faults.calmly
def undo(service: Tables, table_id: int, seat: int | None, offered: tuple[int, int]) -> None:
    try:
        service.undo(service.store.table(table_id), seat, (offered[0], offered[1]), devices.this_device())
    except Stale as err:
        flashes.flash("warning", str(err), "seat-tools")
    except (Refusal, StoreError) as err:
        faults.refuse(err, "seat-tools")


@live.waking
@faults.calmly
def concede(service: Tables, table_id: int, seat: int | None) -> None:
    try:
        service.concede(service.store.table(table_id), seat, devices.this_device())
    except (Refusal, StoreError) as err:
        faults.refuse(err, "seat-tools")


@live.waking
@faults.calmly
def claim(service: Tables, table_id: int, seat: int, host: str | None) -> None:
    """Button callback: take a free seat, then open its private link on this phone."""
    try:
        taken = service.store.claim_seat(table_id, seat)
    except StoreError as err:
        faults.refuse(err)
        return
    table = service.store.table(table_id)
    links.go(table=table.code, seat=taken.token, host=host)


@live.waking
@faults.calmly
def reissue(service: Tables, table_id: int, seat: int, host: str | None) -> None:
    """Button callback (host only): a new link for a seat whose phone was lost; the old link stops working."""
    try:
        fresh = service.reissue(service.store.table(table_id), seat, host)
    except StoreError as err:
        faults.refuse(err)
        return
    flashes.flash("success", f"{plain(fresh.name)}'s seat has a new link (below); the old one no longer works. "
                             "Every phone at the table has been told.")


@live.waking
@faults.calmly
def to_bot(service: Tables, table_id: int, seat: int, level: str, host: str | None) -> None:
    """Button callback (host only): a bot plays this seat from now on; every phone is told."""
    try:
        service.give_to_bot(service.store.table(table_id), seat, level, host)
    except (Refusal, StoreError) as err:
        faults.refuse(err)


@live.waking
@faults.calmly
def hold(service: Tables, table_id: int, token: str) -> None:
    """Button callback: play this seat on this phone again (the other phone is told and stops acting)."""
    table = service.store.table(table_id)
    seat = table.seat_by_token(token)
    device = devices.this_device()
    if seat is not None and device is not None:
        service.hold(table, seat, device)


def seat_tool(service: Tables, table_id: int, seat: int | None, tap: movepad.Tap) -> None:
    if tap.id == "undo" and tap.head is not None:
        undo(service, table_id, seat, tap.head)
    elif tap.id == "concede":
        concede(service, table_id, seat)
    elif tap.id == "hint":
        hint(service, table_id, seat)


@faults.calmly
def hint(service: Tables, table_id: int, seat: int | None) -> None:
    """"What would the bot do?": the answer is kept for this position and drawn under the seat tools (`HINT`)."""
    table = service.store.table(table_id)
    try:
        found = service.hints(table, seat, devices.this_device())
    except (Refusal, StoreError) as err:
        faults.refuse(err, "seat-tools")
        return
    st.session_state[HINT] = ((table_id, service.snapshot(table).head, seat), [(h.label, h.win) for h in found])
