"""Hexbattle under random play: invariants, determinism, undo, legal-action counts and golden games."""

from __future__ import annotations

import hashlib
import heapq
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from test_hexbattle_setup import GAME, battle, u

from balance.play import MOVE_CAPS
from cards import load_game
from engine.core import Action, Match, Refusal, act
from engine.hexbattle import HexbattleState, Unit, make_game
from engine.hexbattle_move import reach

GOLDEN = Path(__file__).parent / "golden"
RESULTS = {"annihilation", "breakthrough", "turn_limit", "concede"}
CARDS = len(GAME.data.deck("bonus_cards"))
TILES = len(GAME.data.deck("terrain"))


def no_concede(state: HexbattleState, legal: list[Action], rng: random.Random) -> Action:
    """Uniform random play that never gives up, so battles run to a real end."""
    return rng.choice([a for a in legal if a.kind != "concede"])


def aggressive(state: HexbattleState, legal: list[Action], rng: random.Random) -> Action:
    """Random play that seeks battle: attacks first, reveals ground, plays cards, marches on the enemy row."""
    by_kind: dict[str, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    for kind, chance in (("attack", 0.9), ("place_tile", 1.0), ("draw_terrain", 0.25), ("play_card", 0.3),
                         ("draw_bonus", 0.1)):
        if kind in by_kind and rng.random() < chance:
            return rng.choice(by_kind[kind])
    moves = by_kind.get("move", [])
    if moves and rng.random() < 0.8:
        goal = GAME.goal_row[state.current]
        return min(moves, key=lambda a: (abs(int(a["to"].split(",")[1]) - goal), rng.random()))
    return no_concede(state, legal, rng)


def check_invariants(state: HexbattleState) -> None:
    on_board = 0
    for unit in state.units.values():
        assert 0 <= unit.strength <= state.max_strength(unit), unit
        if unit.destroyed:
            assert unit.hex is None
            continue
        if unit.hex is None:
            assert state.phase == "deploy"
            continue
        on_board += 1
        terrain = state.terrain_at(unit.hex)
        assert terrain is not None and not terrain.impassable, unit
        assert not terrain.infantry_only or state.unit_type(unit).enters_infantry_only_terrain, unit
        assert state.at[unit.hex] == unit.id
        if unit.formation is not None:
            assert unit.formation in GAME.formations
    assert len(state.at) == on_board, "one unit per hex, and every occupied hex holds a live unit"
    assert_cells_coded(state)
    assert 0 <= state.actions_left <= GAME.rules.max_actions
    assert all(len(hand) <= GAME.rules.bonus_hand_limit for hand in state.hands)
    cards = len(state.bonus_deck) + len(state.discard) + sum(map(len, state.hands)) + len(state.guards)
    assert cards == CARDS, "bonus cards are neither lost nor copied"
    placed = len(state.terrain) - 2 * GAME.columns
    assert len(state.tile_deck) + placed + (state.pending_tile is not None) == TILES


def play(seed: int, options: dict[str, Any] | None = None, checks: bool = True, policy=no_concede) -> Match:
    match = Match(GAME, seed, options if options is not None else {"quick_start": True, "turn_limit": True})
    rng = random.Random(seed)
    while not match.state.is_terminal:
        match.apply(policy(match.state, match.state.legal_actions(), rng))
        if checks:
            check_invariants(match.state)
    return match


@pytest.mark.parametrize("block", range(4))
def test_random_battles_keep_every_invariant_and_end(block: int) -> None:
    results: Counter[str] = Counter()
    for seed in range(block * 8, block * 8 + 8):
        match = play(seed, {"quick_start": True, "turn_limit": True} if seed % 2 else {"turn_limit": True},
                     policy=no_concede if block < 2 else aggressive)
        state = match.state
        assert state.result in RESULTS and state.result != "concede"
        assert state.turn <= GAME.rules.turn_limit
        assert (state.winner is None) == (state.result == "turn_limit")
        results[state.result] += 1
    assert sum(results.values()) == 8


def test_every_legal_action_verifies_and_refusals_change_nothing() -> None:
    match = Match(GAME, 99, {"quick_start": True})
    rng = random.Random(99)
    junk = [act("move", 0, unit="french-infantry-1", to="0,0", facing=9), act("attack", 1, unit="nobody"),
            act("play_card", 0, card="charge"), act("fly", 0), act("place_tile", 0, hex="99,99"),
            act("repair", 1, unit="french-infantry-1"), act("pivot", 0, unit="french-heavy-artillery", facing=1)]
    for _ in range(300):
        state = match.state
        if state.is_terminal:
            break
        legal = state.legal_actions()
        for action in legal:
            assert state.can(action), action
        before = json.dumps(state.view(None), sort_keys=True)
        for action in junk:
            if action not in legal:
                with pytest.raises(Refusal):
                    state.apply(action, random.Random(0))
        assert json.dumps(state.view(None), sort_keys=True) == before
        match.apply(no_concede(state, legal, rng))


def test_same_seed_same_battle() -> None:
    one, two = play(5, checks=False), play(5, checks=False)
    assert one.log == two.log
    assert one.state.view(0) == two.state.view(0)


def test_undo_back_to_the_start_restores_the_start() -> None:
    match = Match(GAME, 12, {})
    start = json.dumps(match.state.view(None), sort_keys=True)
    rng = random.Random(12)
    for _ in range(40):
        match.apply(no_concede(match.state, match.state.legal_actions(), rng))
    middle = json.dumps(match.state.view(0), sort_keys=True)
    log = list(match.log)
    while match.log:
        match.undo()
    assert json.dumps(match.state.view(None), sort_keys=True) == start
    for action in log:
        match.apply(action)
    assert json.dumps(match.state.view(0), sort_keys=True) == middle


def kinds(state: HexbattleState) -> dict[str, int]:
    return dict(sorted(Counter(a.kind for a in state.legal_actions()).items()))


def test_legal_action_counts_on_fixed_positions() -> None:
    """A perft-like table: the number of legal actions by kind in positions that must not drift."""
    deploy = GAME.new_state(random.Random(0), {})
    assert kinds(deploy) == {"concede": 1, "deploy": 88, "quick_start": 1}
    opening = GAME.new_state(random.Random(0), {"quick_start": True})
    assert kinds(opening) == {"concede": 1, "draw_bonus": 1, "draw_terrain": 1, "end_turn": 1,
                              "formation": 6, "move": 31, "pivot": 25}
    # Blue Line infantry faces Red Column infantry; a light gun sits behind; two cards in hand.
    skirmish = battle({"french-infantry-1": u("4,5", formation="line"), "french-light-artillery": u("4,7"),
                       "french-light-cavalry": u("6,6", 5), "british-infantry-1": u("4,4", 3),
                       "british-heavy-artillery": u("2,2", 3)}, {"3,6": "woods", "5,6": "mud"},
                      hands=[["rally", "cannon-blast"], []])
    assert kinds(skirmish) == {"attack": 3, "concede": 1, "discard_card": 2, "draw_bonus": 1, "end_turn": 1,
                               "formation": 2, "move": 44, "pivot": 10, "play_card": 1}
    lone = battle({"french-heavy-artillery": u("0,8"), "british-infantry-1": u("10,0", 3)})
    assert kinds(lone) == {"concede": 1, "draw_bonus": 1, "end_turn": 1, "move": 1}


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("hexbattle_*.json")), ids=lambda p: p.stem)
def test_golden_battle_replays_to_its_recorded_end(path: Path) -> None:
    golden = json.loads(path.read_text())
    match = Match(GAME, golden["seed"], golden["options"], [Action.from_json(a) for a in golden["log"]])
    assert summary(match.state) == golden["final"]


def summary(state: HexbattleState) -> dict[str, Any]:
    """The parts of a final position a golden file pins down."""
    view = state.view(None)
    return {"phase": view["phase"], "turn": view["turn"], "winner": view["winner"], "result": view["result"],
            "revealed": len(view["map"]["terrain"]),
            "units": {x["id"]: [x["hex"], x["facing"], x["strength"], x["formation"], x["destroyed"]]
                      for x in view["units"]}}


def skirmish_options(seed: int) -> dict[str, Any]:
    """A random small battle on a fully revealed random map: a few units each, random state and cards."""
    rng = random.Random(seed)
    tiles = [c.design for c in GAME.data.deck("terrain")]
    hexes = sorted(GAME.ids.values())
    terrain = {h: rng.choice(tiles) for h in hexes}
    units: dict[str, dict[str, Any]] = {}
    free = [h for h in hexes if not terrain[h].impassable]
    rng.shuffle(free)
    for player in (0, 1):
        for uid, type_id in rng.sample(GAME.roster[player], rng.randint(1, 4)):
            kind = GAME.unit_types[type_id]
            spot = next(h for h in free if kind.enters_infantry_only_terrain or not terrain[h].infantry_only)
            free.remove(spot)
            units[uid] = {"hex": spot, "facing": rng.randrange(6), "strength": rng.randint(0, kind.strength),
                          "formation": rng.choice(sorted(GAME.formations)) if kind.uses_formations else None}
    cards = [c.design.id for c in GAME.data.deck("bonus_cards") if c.design.kind != "nothing"]
    rng.shuffle(cards)
    hands = [[cards.pop() for _ in range(rng.randint(0, 3))] for _ in (0, 1)]
    return {"scenario": {"terrain": {h: t.id for h, t in terrain.items()}, "units": units, "hands": hands,
                         "current_player": rng.randrange(2)}}


@pytest.mark.parametrize("block", range(4))
def test_thousand_random_skirmishes_keep_every_invariant(block: int) -> None:
    """1,000 seeded skirmishes (250 per block), 40 decisions each at most, checked after every action."""
    outcomes: Counter[str] = Counter()
    for seed in range(block * 250, block * 250 + 250):
        rng = random.Random(seed)
        state = GAME.new_state(rng, skirmish_options(seed))
        for _ in range(40):
            if state.is_terminal:
                break
            state.apply(aggressive(state, state.legal_actions(), rng), rng)
            check_invariants_skirmish(state)
        outcomes[state.result or "running"] += 1
    assert outcomes["annihilation"] > 0 and outcomes["running"] > 0


def check_invariants_skirmish(state: HexbattleState) -> None:
    """The invariants of `check_invariants` that do not assume a full army or a full tile count."""
    for unit in state.units.values():
        assert 0 <= unit.strength <= state.max_strength(unit)
        if unit.on_board:
            terrain = state.terrain_at(unit.hex)
            assert not terrain.impassable
            assert not terrain.infantry_only or state.unit_type(unit).enters_infantry_only_terrain
            assert state.at[unit.hex] == unit.id
    assert len(state.at) == sum(u.on_board for u in state.units.values())
    assert_cells_coded(state)
    assert all(len(hand) <= GAME.rules.bonus_hand_limit for hand in state.hands)
    assert len(state.bonus_deck) + len(state.discard) + sum(map(len, state.hands)) + len(state.guards) == CARDS


def assert_cells_coded(state: HexbattleState) -> None:
    """The cell codes the move search and sight lines read say what the terrain and the units say, on every cell."""
    assert state.codes == [GAME.code_of(state.terrain.get(h), h in state.at) for h in GAME.cells]


def test_cached_move_options_match_a_fresh_search() -> None:
    """The move cache forgets exactly enough: after every action, cached paths equal a fresh search."""
    for seed in (1, 2):
        match = Match(GAME, seed, {"quick_start": True})
        rng = random.Random(seed)
        for _ in range(250):
            state = match.state
            if state.is_terminal:
                break
            cached = {u.id: dict(state.reachable(u)) for u in state.alive(state.current)}
            state._reach_cache.clear()
            assert cached == {u.id: state.reachable(u) for u in state.alive(state.current)}
            match.apply(aggressive(state, state.legal_actions(), rng))


def position_digest(state: HexbattleState) -> str:
    """Everything a position holds (board, units, piles, counters, turn effects), as one hash."""
    units = [(u.id, u.hex, u.facing, u.formation, u.strength, u.destroyed) for u in state.units.values()]
    fx = state.effects
    parts = (state.phase, state.current, state.turn, state.actions_left, state.actions_granted, state.last_unit,
             state.last_was_draw, state.double_time_ready, state.result, state.winner, units,
             sorted(state.terrain.items()), state.tile_deck, state.pending_tile, state.bonus_deck, state.discard,
             state.hands, [(g.card, g.owner, g.effect, g.amount, g.unit) for g in state.guards], state.fog,
             sorted(state.moved_points.items()), fx.free_moves, fx.charge, sorted(fx.barrage), sorted(fx.double_time))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def test_a_seeded_battle_to_the_end_is_the_same_move_for_move() -> None:
    """Pins what a balance game plays (deployment, no turn limit, uniform choices but conceding, through `play`
    with a clone now and then as the bots take): its length and final position, so a change to how moves are
    found or carried out that changes any game shows here, not only as a drift in the balance report. Every 97th
    position is also listed by a copy with every cache emptied: the caches keep nothing a long game makes stale."""
    rng = random.Random(2026)
    state = GAME.new_state(rng, {})
    chosen = hashlib.sha256()
    moves = 0
    while not state.is_terminal and moves < 10_000:  # twice the pinned length: a change that never ends fails here
        if moves % 97 == 0:
            fresh = state.clone()
            fresh._reach_cache.clear()
            fresh._attack_cache.clear()
            fresh._segments.clear()
            assert fresh.legal_actions() == state.legal_actions(), moves
        legal = [a for a in state.legal_actions() if a.kind != "concede"]
        action = legal[rng.randrange(len(legal))]
        chosen.update(f"{len(legal)} {action}".encode())
        if moves % 500 == 0:
            state = state.clone()
        state.play(action, rng)
        moves += 1
    assert (moves, state.turn, state.result, state.winner) == (4823, 355, "breakthrough", 0)
    assert (chosen.hexdigest()[:16], position_digest(state)) == ("944f08bb538b01a0", "f01450dcdde517a7")


def test_random_action_picks_what_the_listing_picks() -> None:
    """`random_action` counts the choices instead of listing them, and picks what a uniform pick from the listing
    without concede picks with the same random source: the same battle, move for move (deployment, tiles, cards,
    double time and all), to its end."""
    for seed in (2026, 7):
        listed, counted = GAME.new_state(random.Random(seed), {}), GAME.new_state(random.Random(seed), {})
        by_list, by_count = random.Random(seed), random.Random(seed)
        kinds: Counter[str] = Counter()
        while not listed.is_terminal and sum(kinds.values()) < MOVE_CAPS["hexbattle"]:  # ends, or fails below
            legal = [a for a in listed.legal_actions() if a.kind != "concede"]
            action = legal[by_list.randrange(len(legal))]
            assert counted.random_action(by_count) == action, (seed, sum(kinds.values()))
            kinds[action.kind] += 1
            listed.play(action, by_list)
            counted.play(action, by_count)
        assert counted.is_terminal and position_digest(counted) == position_digest(listed)
        assert {"deploy", "place_tile", "play_card", "move", "attack", "end_turn"} <= set(kinds)


def heap_search(state: HexbattleState, unit: Unit, mp: int) -> list[tuple[int, int]]:
    """The move search as a textbook Dijkstra over a heap of (cost, place), turns tried before steps: the places a
    unit may end on, with their costs, in the order first reached, which `hexbattle_move.reach` must give."""
    game, codes = state.game, state.codes
    _, steps, free_turns = game.mover[unit.type]
    price, takes_all, turn_cost = game.price[unit.type], game.takes_all_code, game.rules.turn_cost
    start = 6 * game.cell[state.hex_of(unit)] + unit.facing
    best = {start: 0}
    ends: dict[int, int] = {}
    heap = [(0, start)]
    while heap:
        cost, place = heapq.heappop(heap)
        if best[place] < cost:  # reached more cheaply since it was queued
            continue
        cell, f = divmod(place, 6)
        tried = [(cost + turn_cost, 6 * cell + (f + d) % 6, False) for d in (1, 5) if cost + turn_cost <= mp]
        for j in range(0, len(steps), 2):
            step = game.ahead[place - f + (f + steps[j]) % 6]
            paid = price[codes[step]] if step >= 0 else None
            if paid is not None:
                nc = mp if takes_all[codes[cell]] or takes_all[codes[step]] else cost + steps[j + 1] * paid
                tried += [(nc, 6 * step + f, True)] if nc <= mp else []
        for nc, to, stepped in tried:
            # A gun ends only where a step brought it, off its own hex; a unit that may pivot anywhere but its start.
            if to != start if free_turns else stepped and to // 6 != start // 6:
                ends[to] = min(nc, ends.get(to, nc))
            if nc < best.get(to, mp + 1):
                best[to] = nc
                if nc < mp:
                    heapq.heappush(heap, (nc, to))
    return list(ends.items())


@pytest.mark.parametrize("turn_cost", [0, 1])
def test_move_search_takes_places_as_a_heap_would(turn_cost: int) -> None:
    """The move search queues places in lists per cost instead of a heap; every unit's moves come out in the order
    and at the costs a heap search gives, also when turning is free (a turn at the cost being taken, R9-R11)."""
    game = make_game(load_game("hexbattle"))
    game.rules = game.rules.model_copy(update={"turn_cost": turn_cost})
    rng = random.Random(11)
    state, searched = game.new_state(rng, {}), 0
    for move in range(3000):
        if state.phase == "battle" and state.pending_tile is None and move % 7 == 0:
            for unit in state.alive(state.current):
                mp = state.movement_points(unit)
                found = reach(state, unit, mp)
                assert (list(found.ends.items()) if found else []) == (heap_search(state, unit, mp) if mp > 0 else [])
                searched += found is not None
        action = state.random_action(rng)
        assert action is not None
        state.play(action, rng)
    assert searched > 1000
