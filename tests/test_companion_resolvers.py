"""The companion's printed-card tools, against their engines: Medieval ties in the battle resolver, Hexbattle bonus
cards in the combat roller. Engine functions are tested directly, then the panels through AppTest."""

from __future__ import annotations

import random
from typing import Any

from apptest_helpers import page, page_text

from companion.tables import Tables, catalogue
from engine.core import act
from engine.hexbattle_combat import card_modifiers
from engine.medieval import MedievalState, column_outcome

# --- Medieval: ties ---------------------------------------------------------------------------------


def medieval() -> Any:
    return catalogue()["medieval"].game


def copies(game: Any, *designs: str) -> list[int]:
    """Distinct physical cards of these designs (a design named twice gives two copies)."""
    out: list[int] = []
    for design in designs:
        out.append(next(i for i, c in enumerate(game.cards) if c.design.id == design and i not in out))
    return out


def laid(game: Any, columns: list[tuple[list[str], list[str]]]) -> MedievalState:
    state = MedievalState(game)
    for c, (mine, theirs) in enumerate(columns):
        state.table[c] = [[(i, True) for i in copies(game, *mine)], [(i, True) for i in copies(game, *theirs)]]
    return state


def test_column_outcome() -> None:
    assert column_outcome(5, 3) == (0, "won") and column_outcome(2, 3) == (1, "won")
    assert column_outcome(None, 0) == (1, "unopposed") and column_outcome(None, None) == (None, "empty")
    assert column_outcome(4, 4) is None and column_outcome(4, 4, exhausted=True) == (None, "deadlock")


def test_resolve_laid_matches_the_engine_drawing_the_same_tie_cards() -> None:
    """The resolver's hand-laid tie round and the engine's own drawn one end in the same piles."""
    game = medieval()
    state = laid(game, [(["pikeman"], ["crossbowman"]), (["knight"], ["archer"]), ([], [])])
    ambush, archer = copies(game, "ambush")[0], copies(game, "archer", "archer")[1]
    result = state.resolve_laid([[[[ambush], [archer]], [[], []], [[], []]]])
    assert result.tied == () and result.decided[0] == (1, "won", (5, 8))  # the Ambush tie card counts zero (R5)
    assert result.decided[1] == (0, "won", (7, 3)) and result.decided[2] == (None, "empty", (None, None))
    drawn = state.clone()
    drawn.decks = [[ambush], [archer]]
    drawn._resolve(random.Random(1))
    settled = result.settled
    assert settled is not None
    for p in (0, 1):
        assert sorted(settled.survivors[p]) == sorted(drawn.survivors[p])
        assert sorted(settled.graveyard[p]) == sorted(drawn.graveyard[p])
    assert [game.cards[i].design.id for i in settled.survivors[1]] == ["crossbowman", "archer"]


def test_a_decided_column_stays_decided_and_deadlocks() -> None:
    game = medieval()
    state = laid(game, [(["pikeman"], ["crossbowman"]), (["archer"], ["man-at-arms"]), ([], [])])
    queen, peasant = copies(game, "queen")[0], copies(game, "peasant-levy")[0]
    result = state.resolve_laid([[[[queen], [peasant]], [[], []], [[], []]]])
    assert result.decided[0] == (0, "won", (9, 6))  # the Queen is no Event: +3 here and +1 everywhere
    assert result.decided[1] == (1, "won", (3, 4))  # decided before the tie round, so it stays lost (R8)
    still = state.resolve_laid([], exhausted=[0])
    assert still.decided[0] == (None, "deadlock", (5, 5)) and still.settled is not None
    assert sorted(still.settled.graveyard[0]) == sorted(copies(game, "pikeman", "archer"))
    assert state.resolve_laid().tied == (0,) and state.resolve_laid().settled is None


def test_medieval_resolver_breaks_ties_round_by_round(service: Tables) -> None:
    table = service.create("medieval", ["Ann", "Bob"], {}, seed="ties")
    at = page(table=table.code, seat=table.seats[0].token)

    def group(key: str):  # an AppTest element
        return next(p for p in at.get("button_group") if p.key == key or p.key.startswith(f"{key}-"))  # a fresh chips widget per tap

    def tap(side: int, design: str) -> None:
        group("resolver-side").set_value(side).run()
        group("resolver-pick").set_value(design).run()

    tap(0, "pikeman")
    tap(1, "crossbowman")
    group("resolver-col").set_value(1).run()
    tap(0, "knight")
    tap(1, "archer")
    assert "Pikeman **5** vs **5** Crossbowman — reenforcements still to lay" in page_text(at)  # no verdict yet
    at.toggle(key="resolver-revealed").set_value(True).run()  # this battle has no reenforcements
    assert "Pikeman **5** vs **5** Crossbowman — **tied**" in page_text(at)
    group("resolver-place").set_value("tie").run()
    tap(0, "peasant-levy")  # the centre is not tied
    assert "The centre column is not tied" in page_text(at)
    group("resolver-col").set_value(0).run()
    tap(0, "ambush")
    tap(1, "rain-of-arrows")
    assert "Pikeman, Ambush (tie card) **5** vs **5** Crossbowman, Rain of Arrows (tie card) — **tied**" in page_text(at)
    at.button(key="resolver-next-round").click().run()
    tap(0, "squire")
    tap(0, "peasant-levy")  # the Squire says "play another"
    tap(1, "archer")
    assert "**8** vs **8**" in page_text(at) and "resolver-piles" not in str(at)
    at.toggle(key="resolver-out-0").set_value(True).run()
    assert not at.exception, at.exception
    text = page_text(at)
    assert "— deadlock: both sides lose their cards" in text and "— I win" in text
    assert ("**Me**: Survivors Knight · Graveyard Pikeman, Ambush, Squire, Peasant Levy" in text
            and "**Opponent**: Survivors none · Graveyard Crossbowman, Rain of Arrows, Archer, Archer" in text), text
    at.toggle(key="resolver-out-0").set_value(False).run()
    tap(1, "queen")  # one more card for the opponent in the same round: 8 vs 12
    assert "— they win" in page_text(at) and "**Opponent**: Survivors Crossbowman" in page_text(at)
    at.button(key="resolver-clear").click().run()
    assert "**tied**" not in page_text(at) and not at.exception


# --- Hexbattle: bonus cards on a roll ----------------------------------------------------------------


def test_card_modifiers_apply_each_card_only_where_it_fits() -> None:
    cards = [("charge_dice", 2), ("volley_fire", 2), ("cannon_blast", 2), ("entrench", 1), ("swift_march", 1)]
    cavalry = card_modifiers(cards, "melee", "cavalry")
    assert (cavalry.attacker_dice, cavalry.dice_multiplier, cavalry.defender_dice) == (2, 1, 1)
    assert card_modifiers(cards, "melee", "infantry").attacker_dice == 0
    guns = card_modifiers(cards, "fire", "artillery")
    assert (guns.attack_dice(3), guns.defender_dice) == (3 * 2 + 2, 0)
    assert card_modifiers(cards, "fire", "infantry").attack_dice(3) == 3
    assert not card_modifiers(cards, "fire", "artillery").ignore_terrain
    assert card_modifiers([("ambush", 0)], "fire", "infantry").ignore_terrain
    heroic = card_modifiers([("heroic_defence", 1)])
    assert (heroic.losses(3), heroic.losses(0)) == (2, 0)


def test_the_engine_counts_the_same_cards_through_card_modifiers() -> None:
    """Given cards explicitly, the engine's modifiers change exactly as `card_modifiers` says; None is the turn's cards."""
    state = hexbattle_position()
    cav, foot, gun, foe = (state.units[u] for u in ("french-light-cavalry", "french-infantry-1",
                                                     "french-light-artillery", "british-infantry-1"))
    plain = state.melee_modifiers(cav, foe, cards=[])
    charged = state.melee_modifiers(cav, foe, cards=[("charge_dice", 2), ("entrench", 1)])
    assert charged["attacker_dice"] == plain["attacker_dice"] + 2
    assert charged["defender_dice"] == plain["defender_dice"] + 1
    assert state.melee_modifiers(foot, foe, cards=[("charge_dice", 2)])["attacker_dice"] == foot.strength
    assert state.melee_modifiers(cav, foe) == plain  # no card has been played this turn
    volley = state.fire_modifiers(gun, foe, cards=[("volley_fire", 2), ("cannon_blast", 2)])
    assert volley["dice"] == state.fire_modifiers(gun, foe, cards=[])["dice"] * 2 + 2
    state.effects.charge = 2
    assert state.melee_modifiers(cav, foe) == charged | {"defender_dice": plain["defender_dice"]}


def hexbattle_position() -> Any:
    """A Quick Start battle where the first player has cavalry, infantry and artillery facing an enemy infantry."""
    from engine.core import Match

    game = catalogue()["hexbattle"].game
    match = Match(game, "cards", {"quick_start": True})
    state = match.state
    assert state.units["british-infantry-1"].hex is not None
    return state


def test_hexbattle_roller_counts_the_cards_toggled_on(service: Tables) -> None:
    table = service.create("hexbattle", ["Ann", "Bob"], {"quick_start": True}, seed="roller")
    state = service.snapshot(table).state
    at = page(table=table.code, seat=table.seats[0].token)
    at.radio(key="roll-kind").set_value("Close combat").run()
    at.selectbox(key="roll-att").set_value("french-light-cavalry").run()
    at.selectbox(key="roll-def").set_value("british-infantry-1").run()
    cav, foe = state.units["french-light-cavalry"], state.units["british-infantry-1"]
    plain = state.melee_modifiers(cav, foe, cards=[])
    assert f"attacker {plain['attacker_dice']} dice" in page_text(at)
    at.toggle(key="roll-card-french-light-cavalry-charge").set_value(True).run()
    at.toggle(key="roll-card-french-light-cavalry-entrench").set_value(True).run()
    at.toggle(key="roll-card-french-light-cavalry-heroic-defence").set_value(True).run()
    assert not at.exception, at.exception
    text = page_text(at)
    assert (f"attacker {plain['attacker_dice'] + 2} dice" in text
            and f"defender {plain['defender_dice'] + 1} dice" in text), text
    assert "Cards: +2 attacker dice, +1 defender dice, the defender ignores its first 1 loss(es)" in text
    assert at.toggle(key="roll-card-french-light-cavalry-volley-fire").disabled  # no artillery in a close combat of cavalry
    at.button(key="roll-go").click().run()
    dice = next(m.value for m in at.markdown if "Dice: attacker" in m.value)
    rolled = dice.split("Dice: attacker ")[1].split("\n")[0].split(", defender ")
    assert len(rolled[0].split(",")) == plain["attacker_dice"] + 2
    assert len(rolled[1].strip().split(",")) == plain["defender_dice"] + 1
    assert "Losses: attacker" in dice and service.store.head(table.id) == (0, 0)  # a roll is not a move


def test_hexbattle_roller_fire_cards_and_infantry(service: Tables) -> None:
    table = service.create("hexbattle", ["Ann", "Bob"], {"quick_start": True}, seed="roller")
    state = service.snapshot(table).state
    at = page(table=table.code, seat=table.seats[0].token)
    at.radio(key="roll-kind").set_value("Ranged fire").run()
    at.selectbox(key="roll-att").set_value("french-light-artillery").run()
    at.selectbox(key="roll-def").set_value("british-infantry-1").run()
    gun, foe = state.units["french-light-artillery"], state.units["british-infantry-1"]
    plain = state.fire_modifiers(gun, foe, cards=[])
    at.toggle(key="roll-card-french-light-artillery-volley-fire").set_value(True).run()
    at.toggle(key="roll-card-french-light-artillery-cannon-blast").set_value(True).run()
    assert f"Ranged fire: {plain['dice'] * 2 + 2} dice" in page_text(at), page_text(at)
    at.button(key="roll-go").click().run()
    assert not at.exception
    assert any(m.value.startswith("Ranged fire:") and "strength lost" in m.value for m in at.markdown)
    at.selectbox(key="roll-att").set_value("french-infantry-1").run()
    assert at.toggle(key="roll-card-french-infantry-1-cannon-blast").disabled
    assert at.toggle(key="roll-card-french-infantry-1-ambush").disabled is False
    assert "Cards:" not in page_text(at)


def test_hexbattle_roller_starts_with_the_attackers_cards_in_play(service: Tables) -> None:
    """A Charge! played this turn is on the roll already; the opponent's units start with nothing toggled."""
    scenario = {"fill": "open", "terrain": {}, "hands": [["charge"], []], "current_player": 0,
                "units": {"french-light-cavalry": {"hex": "4,4", "facing": 0},
                          "british-infantry-1": {"hex": "4,3", "facing": 3}}}
    table = service.create("hexbattle", ["Ann", "Bob"], {"scenario": scenario}, seed="charge", scripted=True)
    state = service.snapshot(table).state
    [charge] = state.hands[0]
    service.act(table, 0, act("play_card", 0, card=charge))
    at = page(table=table.code, seat=table.seats[0].token)
    at.radio(key="roll-kind").set_value("Close combat").run()
    at.selectbox(key="roll-att").set_value("french-light-cavalry").run()
    assert at.toggle(key="roll-card-french-light-cavalry-charge").value is True
    assert "Cards: +2 attacker dice" in page_text(at)
    at.selectbox(key="roll-att").set_value("british-infantry-1").run()
    assert at.toggle(key="roll-card-british-infantry-1-charge").value is False
