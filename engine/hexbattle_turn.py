"""Hexbattle's turn economy, shared by the actions of a turn: which unit acts, what an action costs,
and the bookkeeping every such action does (R6, R7, R27).

Each action kind (its `engine.kinds.Kind`) lives with its concern and calls these for the part all
actions of a turn share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import Action, Arg, Refusal
from engine.hexbattle_pieces import Unit

if TYPE_CHECKING:
    from engine.hexbattle_state import HexbattleState

HEX_ARG: Arg = Arg(str, 'a hex id like "3,5"')
"""The argument of an action that names a hex."""


def need_action(state: HexbattleState) -> None:
    if state.actions_left <= 0:
        raise Refusal("You have no actions left this turn; end your turn.")


def is_free(state: HexbattleState, action: Action) -> bool:
    """Whether the action costs no action: a Move after Swift March, a shot of Artillery Barrage or
    Double Time's attack (R27)."""
    uid = action.get("unit")
    if action.kind == "move":
        return state.effects.free_moves > 0
    if action.kind == "attack":
        return uid in state.effects.barrage or uid == state.double_time_ready
    return False


def own_unit(state: HexbattleState, uid: Any) -> Unit:
    """The acting player's unit on the field named `uid`, or a refusal saying why not."""
    unit = state.units.get(uid) if isinstance(uid, str) else None
    if unit is None:
        raise Refusal(f"There is no unit called {uid!r}.")
    if unit.player != state.current:
        raise Refusal(f"{state.unit_name(unit)} is not yours.")
    if unit.destroyed:
        raise Refusal(f"{state.unit_name(unit)} has been destroyed.")
    if unit.hex is None:
        raise Refusal(f"{state.unit_name(unit)} is not on the field yet.")
    return unit


def acting_unit(state: HexbattleState, action: Action) -> Unit:
    """The unit an activation orders (Move, Pivot, Attack, Formation, Repair): the player's own, with an
    action to spend unless it is free, and not the unit that acted last, except Double Time's attack (R6)."""
    unit = own_unit(state, action.get("unit"))
    if not is_free(state, action):
        need_action(state)
    if unit.id == state.last_unit and not (action.kind == "attack" and unit.id == state.double_time_ready):
        raise Refusal(f"{state.unit_name(unit)} acted last; use a different unit or action first.")
    return unit


def spend(state: HexbattleState, action: Action, activation: bool) -> tuple[bool, str | None]:
    """The bookkeeping of an action of the turn, before its effect: it costs an action unless free, the
    unit it activates (if `activation`) may not act next, and Double Time's follow-up is used or lost.
    Returns whether it was free and the unit Double Time had made ready, if any."""
    free = is_free(state, action)
    follow_up = state.double_time_ready
    state.double_time_ready = None
    state.last_unit = action["unit"] if activation else None
    state.last_was_draw = action.kind == "draw_bonus"
    if not free:
        state.actions_left -= 1
    return free, follow_up
