"""Each game's table page with its real engine, run with AppTest: seats, spectators, and the panels' tools."""

from __future__ import annotations

import random
import re

import pytest
from apptest_helpers import carry_out, html_bodies, lay_until_move, offered, pad_buttons, page, page_text, tap_pad
from streamlit.testing.v1 import AppTest

from companion import lookup
from companion.tables import Tables, catalogue

GAMES = {"waterloo": {"players": 3}, "warfare": {}, "hexbattle": {"quick_start": True},
         "imperial": {"imperial_power": [6, 5], "gold": [2, 1]}, "medieval": {}}


def panel_ok(at: AppTest) -> bool:
    """No exception escaped and the game's panel drew (the page falls back to a plain view if it fails)."""
    return not at.exception and not any("panel could not be drawn" in e.value for e in at.error)


def play(service: Tables, game: str, moves: int, seed: int = 5):
    names = ["Ann", "Bob", "Cy"][: GAMES[game].get("players", 2)]
    table = service.create(game, names, GAMES[game], seed="companion-test")
    rng = random.Random(seed)
    for _ in range(moves):
        state = service.snapshot(table).state
        if state.is_terminal or not state.players_to_act():
            break
        seat = state.players_to_act()[0]
        legal = [a for a in state.legal_actions(seat) if a.kind != "concede"] or state.legal_actions(seat)
        service.act(table, seat, rng.choice(legal))
    return table


def no_raw_ids(at: AppTest) -> list[str]:
    """The page's words (text and move buttons) that are an engine's or a file's ids (`infantry_loss`): none."""
    words = page_text(at) + "\n" + "\n".join(b.label for b in pad_buttons(at))
    return re.findall(r"\b[a-z]+(?:_[a-z0-9]+)+\b", words)


def test_every_game_is_playable_here() -> None:
    assert all(entry.playable for entry in catalogue().values()), {g: e.problem for g, e in catalogue().items()}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_table_page_for_seats_and_spectator(service: Tables, game: str) -> None:
    table = play(service, game, 25)
    for seat in table.seats:
        at = page(table=table.code, seat=seat.token)
        for onward in [b for b in pad_buttons(at) if b.key == "next"]:  # medieval: past the last battle's result
            onward.click().run()
        assert panel_ok(at), (at.exception, [e.value for e in at.error])
        assert "Only you can see this" in page_text(at)
        assert no_raw_ids(at) == []
    watcher = page(table=table.code)
    assert panel_ok(watcher), (watcher.exception, [e.value for e in watcher.error])
    assert "Only you can see this" not in page_text(watcher)
    assert no_raw_ids(watcher) == []
    assert not any(b.key and (b.key.startswith(("move-", "do-", "build-go", "medieval-"))) for b in watcher.button)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_move_through_the_page(service: Tables, game: str) -> None:
    table = play(service, game, 3)
    state = service.snapshot(table).state
    if state.is_terminal:
        pytest.skip("the short random game already ended")
    seat = state.players_to_act()[0]
    at = page(table=table.code, seat=table.seats[seat].token)
    onward = [b for b in pad_buttons(at) if b.key == "next"]
    if onward:  # medieval: the battle just fought stays on screen until the player moves on
        onward[0].click().run()
    before = service.store.head(table.id)[0]
    lay_until_move(at)
    carry_out(at, next(b for b in pad_buttons(at) if b.key.startswith(("move-", "pick-"))))
    assert not at.exception, at.exception
    assert service.store.head(table.id)[0] == before + 1


def test_warfare_builder_disables_the_cards_that_cannot_attack(service: Tables) -> None:
    table = service.create("warfare", ["Ann", "Bob"], {"first_player": 0}, seed="builder")
    state = service.snapshot(table).state
    service.act(table, 0, next(a for a in state.legal_actions(0) if a.kind == "attack"))
    state = service.snapshot(table).state
    if state.step == "blunder":  # the defender lets the attack go ahead
        service.act(table, 1, next(a for a in state.legal_actions(1) if a.kind == "allow"))
        state = service.snapshot(table).state
    assert state.step == "units"
    at = page(table=table.code, seat=table.seats[0].token)
    hand = state.view(0)["hand"]
    index = service.game("warfare").data.card_index  # type: ignore[attr-defined]
    non_unit = next(c for c in hand if index[c].design.type not in ("IU", "LU", "CU", "AU"))
    card = offered(at, f"card-{non_unit}")
    assert card.disabled and card.label.endswith(" — not a Unit")  # the engine's reason, beside the card
    assert card.pad_id == "builder" and not card.primary
    assert "build-go-units" not in {b.key for b in pad_buttons(at)}
    assert "Tap the units to attack with." in page_text(at)
    unit = next(a for a in state.legal_actions(0) if a.kind == "units")
    # a phone's crafted taps: on the greyed-out card (no tap at all), and on a card naming another as its value
    # (the card drawn under the button counts, never the value sent)
    tap_pad(at, "builder", {"id": f"card-{non_unit}", "value": non_unit, "head": card.head})
    assert offered(at, f"card-{non_unit}").label == card.label and card.disabled
    tap_pad(at, "builder", {"id": f"card-{unit.args['cards'][0]}", "value": non_unit, "head": card.head})
    assert offered(at, f"card-{unit.args['cards'][0]}").label.startswith("✓ ")
    assert not offered(at, f"card-{non_unit}").label.startswith("✓ ")
    tap_pad(at, "builder", {"id": f"card-{unit.args['cards'][0]}", "value": None, "head": card.head})  # un-chosen
    for chosen in unit.args["cards"]:
        offered(at, f"card-{chosen}").click().run()
        assert offered(at, f"card-{chosen}").label.startswith("✓ ") and offered(at, f"card-{chosen}").primary
    assert "Would inflict" in page_text(at)
    assert service.snapshot(table).state.step == "units"  # choosing cards sends nothing to the table
    offered(at, "build-go-units").click().run()
    assert not at.exception
    assert service.snapshot(table).state.step != "units"


def test_hexbattle_units_box_is_a_pad_per_army_and_a_tap_selects_the_unit(service: Tables) -> None:
    table = play(service, "hexbattle", 12)
    state = service.snapshot(table).state
    at = page(table=table.code, seat=table.seats[0].token)  # every folded box open
    units = {b.key: b for b in pad_buttons(at) if b.pad_id in ("hx-units-0", "hx-units-1")}
    view = state.view(0)
    assert len(units) == len(view["units"])  # one button a unit, in both armies' pads
    assert not any(b.key.startswith("hx-unit-") for b in at.button)  # no Streamlit button a unit
    mine = next(u for u in view["units"] if u["player"] == 0 and not u["destroyed"])
    button = units[f"unit-{mine['id']}"]
    assert button.pad_id == "hx-units-0" and button.label.startswith(f"{mine['name']} · ") and not button.disabled
    head = service.store.head(table.id)
    button.click().run()
    assert at.session_state[f"hx-sel-{table.id}"].unit == mine["id"]  # selected on the board; nothing sent
    assert service.store.head(table.id) == head and panel_ok(at)


def test_a_card_in_the_private_box_opens_its_look_up_beside_the_table(service: Tables) -> None:
    table = service.create("warfare", ["Ann", "Bob"], {"first_player": 0}, seed="links")
    at = page(table=table.code, seat=table.seats[0].token)
    hand = service.snapshot(table).state.view(0)["hand"]
    design = service.game("warfare").data.card_index[hand[0]].design.id  # type: ignore[attr-defined]
    links = re.findall(r"<a [^>]*>", "".join(html_bodies(at)))
    [link] = [a for a in links if f"card={design}" in a.replace("&amp;", "&")][:1]
    assert 'target="_blank"' in link and 'rel="noopener noreferrer"' in link  # a new tab: the table stays open


def test_waterloo_scorer_names_and_ranks_hands(service: Tables) -> None:
    table = service.create("waterloo", ["Ann", "Bob"], {"players": 2}, seed="scorer")
    at = page(table=table.code, seat=table.seats[0].token)
    for design in ["guard-infantry"] * 3 + ["line-infantry"] * 2:
        at.get("button_group")[0].set_value(design).run()
    for design in ["guard-infantry", "line-infantry", "light-infantry", "militia", "line-infantry"]:
        next(p for p in at.get("button_group") if p.key == "scorer-hand-1-pick").set_value(design).run()
    assert not at.exception, at.exception
    text = page_text(at)
    assert "1. **Hand 1: Full House**" in text
    assert "2. **Hand 2: Pair**" in text


def test_medieval_placement_is_tapped_card_then_column_with_the_suggestion_a_highlight(service: Tables) -> None:
    """A placement is laid as at the table: tap a card of the hand, then its column; the tap that settles the whole
    placement is the move. The engine's suggestion is a ★ on the chosen card's column (and beside each card),
    which follows what is laid; no tap before the last sends anything. The question asked first (Bob's placement
    reveals both) names the whole placement."""
    from engine.medieval import expected_outcomes
    table = service.create("medieval", ["Ann", "Bob"], {}, seed="advice")
    best = expected_outcomes(service.snapshot(table).seen_by(0), 0)[0].action
    columns = service.game("medieval").column_names  # type: ignore[attr-defined]
    at = page(table=table.code, seat=table.seats[0].token)
    assert "Suggested:" in page_text(at)
    buttons = pad_buttons(at)
    assert not [b for b in buttons if b.key.startswith("move-") and not b.disabled]  # nothing to play in one tap
    assert all(b.disabled for b in buttons if b.key.startswith("col-"))  # no card chosen yet
    cards = [b for b in buttons if b.key.startswith("card-")]
    assert len(cards) == 3 and not any(b.primary for b in cards)
    for laid in range(2):
        card = next(b for b in pad_buttons(at) if b.key == f"card-{best['cards'][laid]}")
        assert card.label.endswith(f"★ {columns[laid]}")
        card.click().run()
        [marked] = [b for b in pad_buttons(at) if b.label.startswith("★ ")]
        assert marked.label == f"★ {columns[laid].capitalize()}" and marked.primary
        if laid == 0:
            assert marked.key == "col-0"
            marked.click().run()
            assert service.store.head(table.id)[0] == 0  # laid on the phone only
    assert marked.key.startswith("move-place") and marked.ask is None
    carry_out(at, marked)
    assert service.store.head(table.id)[0] == 1
    assert service.snapshot(table).state.view(0)["players"][0]["placement"] == best["cards"]
    bob = lay_until_move(page(table=table.code, seat=table.seats[1].token))
    last = next(b for b in pad_buttons(bob) if b.key.startswith("move-place") and not b.disabled)
    assert last.ask is not None and last.ask["question"].startswith("Place ")


def test_medieval_battle_result_stays_until_the_player_moves_on(service: Tables) -> None:
    """Seed "tie1": battle 1's right column ties and takes one tie card a side. Every phone shows the result with
    every card named, tie cards marked, and who took each column; the next battle and its placements wait until
    this phone taps "On to battle 2"."""
    table = service.create("medieval", ["Ann", "Bob"], {}, seed="tie1")
    for p in (0, 1):
        service.act(table, p, service.snapshot(table).state.legal_actions(p)[0])
    report = service.snapshot(table).state.view(None)["battles"][-1]
    names = {c.id: c.design.name for c in service.entries()["medieval"].data.card_index.values()}
    ties = [names[e["card"]] for c in report["columns"] for side in c["cards"] for e in side if e["tie"]]
    assert ties == ["Archer", "Rain of Arrows"]
    for token in (table.seats[0].token, table.seats[1].token, None):
        at = page(table=table.code, **({"seat": token} if token else {}))
        text = page_text(at)
        assert "Battle 1: the result" in text and "Battle 2:" not in text
        assert "Archer (tie card)" in text and "Rain of Arrows (tie card)" in text
        assert "Taken by" in text and "Ann after 1 tie round" in text
        for column in report["columns"]:
            for side in column["cards"]:
                assert all(names[e["card"]] in text for e in side), "every card that decided it is named"
        assert [b.label for b in pad_buttons(at) if b.key == "next"] == ["On to battle 2"]
        assert not [b for b in pad_buttons(at) if b.key.startswith("move-")], "the next battle waits"
        next(b for b in pad_buttons(at) if b.key == "next").click().run()
        assert "Battle 2:" in page_text(at) and not [b for b in pad_buttons(at) if b.key == "next"]
        if token:
            assert [b for b in pad_buttons(at) if b.key.startswith("card-")], "now the placements"


def test_imperial_options_form_creates_the_battle(service: Tables) -> None:
    at = page()
    at.selectbox(key="new-game").set_value("imperial").run()
    at.number_input(key="opt-imperial-0-imperial_power-0").set_value(9)
    at.button(key="FormSubmitter:new-imperial-Create table").click().run()
    assert not at.exception, at.exception
    table = service.store.tables()[0]
    assert table.game == "imperial" and table.options["imperial_power"] == [9, 6]


def test_rulings_of_every_game_are_searchable() -> None:
    rules = {e.game for e in lookup.index() if e.kind == "rule"}
    assert rules == set(GAMES)
    hit = lookup.find({"game": "warfare", "rule": "R1"})
    assert hit is not None and hit.title.startswith("R1 ") and hit.text
    combos = [e for e in lookup.index() if e.kind == "combo"]
    assert combos[0].title == "Fix Bayonets 4" and "1 in" in dict(combos[0].extra)["odds of being dealt"]


def test_card_deep_link_from_a_printed_qr_code(service: Tables) -> None:
    from generator.links import card_link, parse_link

    link = card_link("http://192.0.2.1:8501", "medieval", "knight")
    at = page(**parse_link(link))
    assert not at.exception
    assert "Knight" in page_text(at)
    [picture] = [h for h in html_bodies(at) if "<img" in h]
    assert picture.startswith('<img alt="Knight"') and "data:image/svg+xml;base64," in picture


def test_card_page_lists_the_rulings_that_name_it(service: Tables) -> None:
    at = page(game="waterloo", card="dragoon")
    assert "Rulings that mention it" in page_text(at)
    assert any(b.label.startswith("R12 ") for b in at.button)


def test_medieval_resolver_totals_printed_cards_and_advises(service: Tables) -> None:
    table = service.create("medieval", ["Ann", "Bob"], {}, seed="resolver")
    at = page(table=table.code, seat=table.seats[0].token)

    def group(key: str):  # noqa: ANN202 - an AppTest element
        return next(p for p in at.get("button_group") if p.key == key or p.key.startswith(f"{key}-"))  # a fresh chips widget per tap

    group("resolver-pick").set_value("knight").run()  # me, opening card, left column
    group("resolver-side").set_value(1).run()
    group("resolver-pick").set_value("pikeman").run()
    assert not at.exception, at.exception
    text = page_text(at)
    data = service.game("medieval").data  # type: ignore[attr-defined]
    knight, pikeman = data.by_id("cards")["knight"], data.by_id("cards")["pikeman"]
    assert f"Knight **{knight.value}** vs **{pikeman.value}** Pikeman" in text
    group("resolver-side").set_value(0).run()
    group("resolver-place").set_value("hand").run()
    for design in ("archer", "squire", "bishop"):
        group("resolver-pick").set_value(design).run()
    assert panel_ok(at), [e.value for e in at.error]
    assert "Best placement for your hand: Place" in page_text(at)


def test_printed_card_qr_code_is_read_from_a_photo() -> None:
    import qrcode

    from companion.panels.common import read_card_code
    from generator.links import card_link

    photo = qrcode.make(card_link("http://192.0.2.1:8501", "waterloo", "militia")).convert("RGB")
    assert read_card_code(photo, "waterloo") == ("militia", None)
    design, problem = read_card_code(photo, "warfare")
    assert design is None and problem and "not a warfare card" in problem
    blank = qrcode.make("x").convert("RGB").resize((40, 40))
    assert read_card_code(blank, "waterloo")[0] is None


def test_sheet_deep_link_lists_that_games_rules(service: Tables) -> None:
    at = page(game="warfare", sheet="reference")
    assert panel_ok(at)
    labels = [b.label for b in at.button]
    assert any(label.startswith("R1 ") for label in labels)
