"""The hexbattle board on a phone without a browser: which hex a tap lands on at each zoom level,
what a tap means with a unit selected, and what the board marks (reach with costs, targets, sight)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from apptest_helpers import html_bodies, html_text, pad_buttons, pads, page, page_text, tap_element

from companion.components.hexboard import ZOOMS, hex_at
from companion.panels import hexbattle_board as board
from companion.panels import hexbattle_result as results
from companion.panels.hexbattle_board import Selection
from companion.tables import STALE, Tables, catalogue
from engine.core import Match, act
from generator.hexbattle_parts import board_geometry

DATA = catalogue()["hexbattle"].data
GEO = board_geometry(DATA)
PHONE_WIDTH = 364.0  # the board's drawn width at 1x on a 390 px phone (the page keeps a small margin)
CORNERS = [(0, 0), (GEO.columns - 1, 0), (0, GEO.rows - 1), (GEO.columns - 1, GEO.rows - 1)]


def on_screen(col: int, row: int, zoom: float, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float, float]:
    """Where a point (board mm from the hex centre) is drawn, in CSS px, at `zoom`."""
    width = PHONE_WIDTH * zoom
    scale = width / GEO.width
    cx, cy = GEO.centre(col, row)
    return (cx + dx) * scale, (cy + dy) * scale, width


@pytest.mark.parametrize("zoom", ZOOMS)
def test_a_tap_on_any_hex_centre_finds_that_hex(zoom: float) -> None:
    for col in range(GEO.columns):
        for row in range(GEO.rows):
            assert hex_at(GEO, *on_screen(col, row, zoom)) == (col, row)


@pytest.mark.parametrize("zoom", ZOOMS)
@pytest.mark.parametrize("corner", CORNERS)
def test_a_tap_near_a_corner_hexs_edge_stays_in_it(zoom: float, corner: tuple[int, int]) -> None:
    """Just inside each of the six sides of the corner hexes (a finger lands off centre)."""
    inside = 0.45
    for dx, dy in [(-inside * GEO.hex_w, 0), (inside * GEO.hex_w, 0), (0, -inside * GEO.hex_h),
                   (0, inside * GEO.hex_h), (-0.3 * GEO.hex_w, -0.3 * GEO.hex_h), (0.3 * GEO.hex_w, 0.3 * GEO.hex_h)]:
        assert hex_at(GEO, *on_screen(*corner, zoom, dx, dy)) == corner, (dx, dy)


@pytest.mark.parametrize("zoom", ZOOMS)
def test_a_tap_beside_the_map_is_no_hex(zoom: float) -> None:
    width = PHONE_WIDTH * zoom
    scale = width / GEO.width
    assert hex_at(GEO, 1.0, 1.0, width) is None  # the margin at the top-left corner
    assert hex_at(GEO, GEO.width * scale - 1, GEO.height * scale - 1, width) is None
    # Beyond the left point of a first-column hex, and above the top side of the last column's top hex.
    assert hex_at(GEO, *on_screen(0, 4, zoom, -0.55 * GEO.hex_w)) is None
    assert hex_at(GEO, *on_screen(GEO.columns - 1, 0, zoom, 0, -0.55 * GEO.hex_h)) is None
    assert hex_at(GEO, 10.0, 10.0, 0.0) is None


@pytest.mark.parametrize("zoom", ZOOMS)
def test_a_tap_between_two_neighbours_goes_to_the_nearer(zoom: float) -> None:
    # Column 3 is odd: it sits half a hex lower. Between 2,4 and 3,4 the shared side lies halfway.
    (ax, ay), (bx, by) = GEO.centre(2, 4), GEO.centre(3, 4)
    near_a = (ax + (bx - ax) * 0.45 - ax, ay + (by - ay) * 0.45 - ay)
    near_b = (ax + (bx - ax) * 0.55 - bx, ay + (by - ay) * 0.55 - by)
    assert hex_at(GEO, *on_screen(2, 4, zoom, *near_a)) == (2, 4)
    assert hex_at(GEO, *on_screen(3, 4, zoom, *near_b)) == (3, 4)


SCENARIO = {"terrain": {f"{c},{r}": "open" for c in range(2, 9) for r in range(2, 8)} | {"6,4": "woods"},
            "current_player": 0,
            "units": {"french-infantry-1": {"hex": "3,7", "facing": 0},
                      "french-infantry-2": {"hex": "5,5", "facing": 0},
                      "french-light-artillery": {"hex": "7,6", "facing": 0},
                      "british-infantry-1": {"hex": "5,4", "facing": 3, "strength": 2},
                      "british-light-cavalry": {"hex": "5,3", "facing": 3}}}


def hex_at_centre(x: float, y: float) -> str:
    col, row = hex_at(GEO, x, y, GEO.width) or (-1, -1)
    return f"{col},{row}"


def position(**extra: Any) -> Any:
    return Match(catalogue()["hexbattle"].game, "board", {"scenario": SCENARIO, **extra}).state


def test_tapping_a_unit_then_a_hex_then_a_neighbour_moves_with_that_facing() -> None:
    state = position()
    sel, action = board.tap(state, 0, Selection(), "3,7")
    assert (sel, action) == (Selection(unit="french-infantry-1"), None)
    sel, action = board.tap(state, 0, sel, "3,6")
    assert (sel, action) == (Selection(unit="french-infantry-1", dest="3,6"), None)
    sel, action = board.tap(state, 0, sel, "4,6")  # north-east of 3,6: odd column 3 sits half a hex lower
    assert sel == Selection() and action is not None
    assert (action.kind, dict(action.args)) == ("move", {"unit": "french-infantry-1", "to": "3,6", "facing": 1})


def test_tapping_the_chosen_hex_again_keeps_the_facing() -> None:
    state = position()
    sel = Selection(unit="french-infantry-1", dest="3,6")
    _, action = board.tap(state, 0, sel, "3,6")
    assert action is not None and dict(action.args) == {"unit": "french-infantry-1", "to": "3,6", "facing": 0}


def test_an_enemy_open_to_charge_and_fire_asks_which() -> None:
    state = position()
    sel, action = board.tap(state, 0, Selection(unit="french-infantry-2"), "5,4")
    assert action is None and sel == Selection(unit="french-infantry-2", target="british-infantry-1")
    # The artillery can only fire: one tap attacks.
    _, action = board.tap(state, 0, Selection(unit="french-light-artillery"), "5,4")
    assert action is not None and dict(action.args) == {"unit": "french-light-artillery",
                                                        "target": "british-infantry-1", "mode": "fire"}


def test_the_opponent_and_a_spectator_only_select() -> None:
    state = position()
    assert board.tap(state, 1, Selection(), "5,4") == (Selection(unit="british-infantry-1"), None)
    assert board.tap(state, None, Selection(unit="french-infantry-2"), "5,4") == (
        Selection(unit="british-infantry-1"), None)
    assert board.tap(state, 0, Selection(unit="french-infantry-2"), None) == (Selection(), None)


def test_the_overlay_marks_reach_with_costs_arc_and_targets() -> None:
    state = position()
    art = board.overlay(state, GEO, 0, Selection(unit="french-infantry-2"), 1.0)
    at = {(round(x, 3), round(y, 3)): kind for x, y, kind in art["marks"] if kind != "arc"}
    label = {(round(x, 3), round(y, 3)): text for x, y, text, _ in art["labels"]}

    def mark(hex_id: str) -> tuple[float, float]:
        x, y = GEO.centre(*(int(v) for v in hex_id.split(",")))
        return round(x, 3), round(y, 3)

    assert at[mark("5,4")] == "both" and label[mark("5,4")] == "⚔◎"
    # 4,5 is north-west of 5,5: a turn and a step, the 2 movement points of infantry in column.
    assert at[mark("4,5")] == "reach" and label[mark("4,5")] == "2"
    assert mark("5,6") not in at  # behind it: three turns and a step, more than its 2 points
    arcs = sorted(hex_at_centre(x, y) for x, y, kind in art["marks"] if kind == "arc")
    # Infantry fires ahead, range 2: the cone 60 degrees either side of north from 5,5, edges included.
    assert arcs == ["3,4", "4,4", "4,5", "5,3", "5,4", "6,4", "6,5", "7,4"]


def test_a_split_line_of_sight_is_marked_as_such() -> None:
    """From the guns at 7,6 the cavalry at 5,3 is seen past the woods at 6,4 and the infantry at 5,4:
    both split hexes need a die, so the target is marked split; the infantry itself is in clear sight."""
    state = position()
    gun = state.units["french-light-artillery"]
    assert state.sight(gun.hex, state.units["british-light-cavalry"].hex).contested == ("6,4", "5,4")
    art = board.overlay(state, GEO, 0, Selection(unit=gun.id), 1.0)
    kinds = {(round(x, 3), round(y, 3)): kind for x, y, kind in art["marks"] if kind != "arc"}

    def mark(hex_id: str) -> tuple[float, float]:
        x, y = GEO.centre(*(int(v) for v in hex_id.split(",")))
        return round(x, 3), round(y, 3)

    assert (kinds[mark("5,3")], kinds[mark("5,4")]) == ("split", "fire")


def test_the_combat_result_names_the_offensive_cards_that_changed_it(service: Tables) -> None:
    """Ann's Charge! gives her cavalry 2 more dice (5 against 4): the engine's record names the card and
    Bob's phone shows it with its name and effect text, beside the dice."""
    scenario = {"fill": "open", "terrain": {}, "hands": [["charge"], []], "current_player": 0,
                "units": {"french-light-cavalry": {"hex": "4,4", "facing": 0},
                          "british-infantry-1": {"hex": "4,3", "facing": 3},
                          "british-infantry-2": {"hex": "8,1", "facing": 3}}}
    table = service.create("hexbattle", ["Ann", "Bob"], {"scenario": scenario, "dice": [6] * 5 + [1] * 4},
                           seed="charge-shown", scripted=True)
    [charge] = service.snapshot(table).state.hands[0]
    service.act(table, 0, act("play_card", 0, card=charge))
    service.act(table, 0, act("attack", 0, unit="french-light-cavalry", target="british-infantry-1", mode="melee"))
    melee = next(e for e in service.snapshot(table).state.events if e["event"] == "melee")
    assert (melee["cards"], melee["modifiers"]["attacker_dice"], melee["result"]["defender_losses"]) == (
        [charge], 5, 4)
    shown = page_text(page(table=table.code, seat=table.seats[1].token)).splitlines()
    combat = shown[shown.index("Last combat: Blue Light Cavalry → Red Infantry 1"):]
    assert combat[1] == ("🃏 Charge! played by Ann: This turn your cavalry roll 2 extra dice when they attack "
                         "in close combat.")
    assert combat[2].startswith("Close combat: attacker 5 dice +")


def test_a_tap_on_a_board_the_table_has_moved_on_from_does_nothing(service: Tables) -> None:
    """The board reports the position it showed with each tap: a tap on an outdated board is refused and
    forgotten (nothing is deployed, the selection is cleared), a tap on the board as it stands deploys."""
    table = service.create("hexbattle", ["Ann", "Bob"], {}, seed="stale-board")
    ann = page(table=table.code, seat=table.seats[0].token)
    [(board_id, drawn)] = [(e.proto.id, json.loads(e.proto.json)) for e in ann.get("bidi_component")
                           if e.proto.id.endswith("-hexboard")]
    shown = drawn[1]["head"]
    deploys = [a for a in service.snapshot(table).state.legal_actions(0) if a.kind == "deploy"]
    service.act(table, 0, deploys[0])  # Ann's other phone was quicker
    col, row = (int(v) for v in deploys[1]["hex"].split(","))
    x, y, width = on_screen(col, row, 1.0)
    tap_element(ann, board_id, {"x": x, "y": y, "w": width, "n": 1, "head": shown})
    assert not ann.exception and [w.value for w in ann.warning] == [STALE]
    assert [e.action["kind"] for e in service.snapshot(table).entries] == ["deploy"]
    # Bob, whose turn it is now, taps one of his hexes on the board as it stands: that deploys.
    bob = page(table=table.code, seat=table.seats[1].token)
    [(board_id, drawn)] = [(e.proto.id, json.loads(e.proto.json)) for e in bob.get("bidi_component")
                           if e.proto.id.endswith("-hexboard")]
    mine = next(a for a in service.snapshot(table).state.legal_actions(1) if a.kind == "deploy")
    x, y, width = on_screen(*(int(v) for v in mine["hex"].split(",")), 1.0)
    tap_element(bob, board_id, {"x": x, "y": y, "w": width, "n": 1, "head": drawn[1]["head"]})
    assert not bob.exception and [w.value for w in bob.warning] == []
    assert [e.action["kind"] for e in service.snapshot(table).entries] == ["deploy", "deploy"]


def test_a_move_is_named_in_words_and_the_selected_units_facts_show_over_the_board() -> None:
    """The question before a move that cannot be taken back names it ("Fire at … at 5,4 with …"), and the
    selected unit's facts stand over the board: type, formation, strength, facing, what it can do now."""
    state = position()
    fire = next(a for a in state.legal_actions(0) if a.kind == "attack" and a["unit"] == "french-light-artillery"
                and a["target"] == "british-infantry-1")
    assert board.words(state, fire) == "Fire at Red Infantry 1 at 5,4 with Blue Light Artillery"
    charge = next(a for a in state.legal_actions(0) if a.kind == "attack" and a["mode"] == "melee")
    assert board.words(state, charge) == "Charge Red Infantry 1 at 5,4 with Blue Infantry 2"
    mine = board.overlay(state, GEO, 0, Selection(unit="french-infantry-2"), 1.0)["facts"]
    assert mine == ("Blue Infantry 2 (Infantry) · Column · strength 4/4 · facing N · 2 movement points · "
                    "can move to 3 hexes, attack 1 enemy; 6 actions left")
    theirs = board.overlay(state, GEO, 0, Selection(unit="british-infantry-1"), 1.0)["facts"]
    assert theirs == "Red Infantry 1 (Infantry) · Column · strength 2/4 · facing S · 2 movement points"
    assert board.overlay(state, GEO, 0, Selection(), 1.0)["facts"] == ""


POINT_BLANK = {"fill": "open", "terrain": {}, "current_player": 0,
               "units": {"french-light-artillery": {"hex": "5,5", "facing": 0},
                         "french-infantry-2": {"hex": "8,5", "facing": 0},
                         "british-infantry-1": {"hex": "5,4", "facing": 3, "strength": 2},
                         "british-infantry-2": {"hex": "8,4", "facing": 3}}}


def banner(at: Any) -> list[str]:
    """The result banner's lines (`hexbattle._banner`), or [] when the page shows none."""
    return next((html_text(body).splitlines() for body in html_bodies(at) if "st-key-hx-result" in body), [])


def test_the_result_banner_tells_each_viewer_until_they_move_on(service: Tables) -> None:
    """Ann's guns fire point-blank (range 1: double damage, the seed's banner) and break Bob's infantry, then her
    infantry's shot misses: Bob's phone and a spectator's read both at the top, in their own words; Ann's the
    last (her shot moved her on from the first), until she moves on again (Bob and the spectator later:
    `moved_on` below)."""
    table = service.create("hexbattle", ["Ann", "Bob"], {"scenario": POINT_BLANK, "dice": [1, 6, 6]},
                           seed="point-blank", scripted=True)
    service.act(table, 0, act("attack", 0, unit="french-light-artillery", target="british-infantry-1", mode="fire"))
    service.act(table, 0, act("attack", 0, unit="french-infantry-2", target="british-infantry-2", mode="fire"))
    told = ["◎ Ranged fire: {a} Blue Light Artillery fired at {b} Red Infantry 1.",
            "💥Point-Blank Fire — Double Damage Hit!",
            "Dice ⚀ 1, ⚅ 6, hit on 3 or less: 1 hit × 2, {b} Red Infantry 1 loses 2.",
            "⚠{B} Red Infantry 1 is broken.",
            "◎ Ranged fire: {a} Blue Infantry 2 fired at {b} Red Infantry 2.",
            "Dice ⚅ 6, hit on 3 or less: 0 hits, {b} Red Infantry 2 loses 0.",
            "Every die and modifier of the last: Last combat, under the board."]

    def words(a: str, b: str) -> list[str]:
        return [line.format(a=a, b=b, B=b[:1].upper() + b[1:]) for line in told]

    ann, bob, watcher = (page(table=table.code, seat=table.seats[0].token),
                         page(table=table.code, seat=table.seats[1].token), page(table=table.code))
    assert (banner(ann), banner(bob), banner(watcher)) == (words("your", "Bob's")[4:], words("Ann's", "your"),
                                                           words("Ann's", "Bob's"))
    service.act(table, 0, act("end_turn", 0))
    assert banner(ann.run()) == []  # she moved on; Bob and the spectator have not (`moved_on`, below)


def test_the_banner_words_a_finished_charge_a_rout_a_guard_and_shots_that_never_landed() -> None:
    """The engine's other combat outcomes, as the banner words them (`hexbattle_result.banner`)."""
    def name(uid: str) -> str:
        return {"a": "your Blue Hussars", "d": "Bob's Red Infantry 1"}[uid]

    def said(events: list[dict[str, Any]]) -> list[str]:
        return [f"{line.icon} {line.text}" for line in results.banner(events, name, lambda card: f"{card} card")]

    shot = {"event": "fire", "attacker": "a", "defender": "d", "modifiers": {"point_blank": True}, "result": None}
    assert said([{"event": "melee", "attacker": "a", "defender": "d", "result": None, "broken_defender": True},
                 {"event": "destroyed", "unit": "d"}]) == [
        "⚔ **Close combat: your Blue Hussars charged Bob's Red Infantry 1.**",
        "⚔ Bob's Red Infantry 1 was broken and could not reply: the charge finished it.",
        "✖ Bob's Red Infantry 1 is destroyed."]
    assert said([{"event": "rout", "unit": "d", "to": "5,3"}, {"event": "guard", "card": "Entrench", "unit": "d"}]) == [
        "↩ Rout! Bob's Red Infantry 1 falls back to 5,3.", "🛡 Entrench card fired on Bob's Red Infantry 1."]
    assert said([{**shot, "reserve_fire": True, "screened": "Skirmisher Screen"}, {**shot, "blocked_by": "6,4"}]) == [
        "◎ **Reserve Fire: your Blue Hussars fired at Bob's Red Infantry 1.**",
        "🛡 Skirmisher Screen card stopped the shot.",
        "◎ **Ranged fire: your Blue Hussars fired at Bob's Red Infantry 1.**",
        "🚫 The line of sight was blocked at 6,4: no shot."]


def test_a_viewer_moves_on_from_a_combat_by_a_move_of_their_own() -> None:
    """A player by their own next move; a spectator once the other side has moved (the turn has passed)."""
    assert [results.moved_on(after, 0, viewer) for after in ([0], [0, 1]) for viewer in (0, 1, None)] == [
        True, False, False, True, True, True]
    assert not any(results.moved_on([], 0, viewer) for viewer in (0, 1, None))


def test_a_bonus_card_is_played_or_discarded_by_name_after_asking(service: Tables) -> None:
    """The card panel: ▶ plays the card, ✕ discards it, each asked about first by the card's name."""
    table = service.create("hexbattle", ["Ann", "Bob"], {"scenario": {**POINT_BLANK, "hands": [["charge"], []]}},
                           seed="card-panel", scripted=True)
    [card] = service.snapshot(table).state.hands[0]
    ann = page(table=table.code, seat=table.seats[0].token)
    text = "This turn your cavalry roll 2 extra dice when they attack in close combat."
    played, dropped = (next(b for b in pad_buttons(ann) if b.pad_id == f"hx-card-{card}" and b.key == key)
                       for key in ("play-0", "discard"))
    assert (played.label, played.ask) == ("▶ Play Charge!", {
        "question": f"Play Charge! now? {text} The card is spent once played.", "yes": "▶ Yes, play it"})
    assert (dropped.label, dropped.ask) == ("✕ Discard Charge!", {
        "question": "Discard Charge! with no effect? It goes to the discard pile.", "yes": "✕ Yes, discard it"})
    assert pads(ann)[f"hx-card-{card}"][1]["note"] == text
    played.run()  # the phone sends it once its player said yes: it is not asked a second time
    assert [e.action["kind"] for e in service.snapshot(table).entries] == ["play_card"]
    assert not any(b.pad_id.startswith("hx-card-") for b in pad_buttons(ann))
