"""Napoleonic Warfare: two players, one shared 97-card deck, troop points worn down by attacks.

A turn runs Deploy (draw, then optional card powers), Attack (declare, Blunder check, units,
counters, support), Casualty (total, Morale) and Maneuver (exchange, hand limit). Every
decision is one action, so the defender's replies (Blunder, counters, Morale) are actions of
the defender in the middle of the attacker's turn. Rulings R1… are in docs/rules/warfare.md.

Actions (`kind` {args}, card values are physical card ids), by step (`view()["step"]`):
  deploy   (attacker)  draw {card}  scout {card}  harass {card}  attack {}  hold {}
  blunder  (defender)  blunder {card}  allow {}  yield {}
  units    (attacker)  units {cards: [ids]}
  counter  (defender)  counter {card, target}  stand {}  yield {}   (stand: no more counters)
  support  (attacker)  support {cards: [ids]}   (possibly empty)
  morale   (defender)  morale {card}  take {}    (take: accept the casualties)
  exchange (attacker)  exchange {cards: [ids]}  (0 to rules.maneuver_max_exchange)
  discard  (attacker)  discard {card}            (down to rules.hand_limit)
`yield` (R20, "Take the attack") is offered at every defender step whatever the hand holds: it
passes that step and every later one of this attack in one tap.
Option: `first_player` (0 or 1; default: a coin flip from the seed).
Companion helpers: `casualties`, `with_morale`, `halve`, and `verify_units` / `verify_support` /
`verify_counter` with their `can_*` twins, all taking card rows and `data.rules`; and
`WarfareState.picks`, the hand at a units, support or exchange step with each card's short
reason (a `PickRefusal`'s) when it cannot join the cards chosen so far, for the attack builder.

Cards are held as small ints (positions in `GameData.deck()`) so random playouts are cheap;
actions and views use the physical card ids.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from itertools import chain, combinations, product, repeat
from typing import Any, NamedTuple, Protocol

from cards.load import GameData
from cards.schemas.warfare import TYPE_NAMES
from engine.core import Action, Game, Refusal, State, Told, redeal, seat

DEPLOY = "deploy"
BLUNDER = "blunder"
UNITS = "units"
COUNTER = "counter"
SUPPORT = "support"
MORALE = "morale"
EXCHANGE = "exchange"
DISCARD = "discard"
OVER = "over"

DEFENDER_STEPS = frozenset({BLUNDER, COUNTER, MORALE})
OPTION_KEYS = ("first_player", "turn_limit")


class CardLike(Protocol):
    """What the rule helpers need from a card: the schema's `Card` row fits."""

    name: str
    type: str
    force: int


# ---------------------------------------------------------------- helpers for the companion

class Casualties(NamedTuple):
    """The casualty arithmetic of one attack, spelled out for display (R11, R12).

    A named tuple rather than a dataclass: one is built per attack in every playout.
    """

    forces: int        # sum of the forces of the cards that count
    cards: int         # how many cards count
    extra_cards: int   # cards beyond rules.free_cards_per_attack
    bonus: int         # extra_cards * rules.bonus_per_extra_card
    total: int         # forces + bonus
    halved: bool       # the defender spent a Morale card
    inflicted: int     # what the defender loses before the floor at 0

    def to_json(self) -> dict[str, Any]:
        return self._asdict()


def halve(total: int, rules: Any) -> int:
    """Casualties after a Morale card: divided by rules.morale_divisor, rounded as rules.morale_rounding (R12)."""
    if rules.morale_rounding == "up":
        return int(-(-total // rules.morale_divisor))
    return int(total // rules.morale_divisor)


def casualties(cards: Sequence[CardLike], rules: Any, halved: bool = False) -> Casualties:
    """Casualties from the cards that count in an attack (surviving units plus support, R9, R11)."""
    return _tally(sum(card.force for card in cards), len(cards), rules, halved)


def _tally(forces: int, count: int, rules: Any, halved: bool = False) -> Casualties:
    """`casualties` from the sum of the forces and the number of cards: the engine keeps forces in a table."""
    extra = max(0, count - rules.free_cards_per_attack)
    bonus = extra * rules.bonus_per_extra_card
    total = forces + bonus
    return Casualties(forces, count, extra, bonus, total, halved, halve(total, rules) if halved else total)


def with_morale(result: Casualties, rules: Any) -> Casualties:
    """The same attack after the defender spends a Morale card."""
    return result._replace(halved=True, inflicted=halve(result.total, rules))


def _type_name(code: str) -> str:
    return TYPE_NAMES.get(code, code)


def _named(card: CardLike) -> str:
    """A card as refusals name it: its name and type; built only when refusing."""
    return f"{card.name} ({_type_name(card.type)})"


def _names(codes: Iterable[str]) -> str:
    names = [_type_name(c) for c in codes]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


class PickRefusal(Refusal):
    """A refusal caused by one card of a chosen set, with the few words a disabled card shows beside it."""

    def __init__(self, message: str, short: str) -> None:
        super().__init__(message)
        self.short = short


def verify_units(cards: Sequence[CardLike], rules: Any) -> None:
    """Refuse an attack force that is empty, holds a non-unit, or mixes unit types (R7)."""
    if not cards:
        raise Refusal("Play at least one Unit card to attack.")
    for card in cards:
        if card.type not in rules.unit_types:
            raise PickRefusal(f"{card.name} ({_type_name(card.type)}) cannot attack: attacks are made with Unit cards only.",
                              "not a Unit")
    types = sorted({card.type for card in cards}, key=rules.unit_types.index)
    if len(types) > 1:
        raise PickRefusal(f"All the units in one attack must be of one type; you chose "
                          f"{_names(types).replace(' or ', ' and ')}.", "one unit type per attack")


def verify_support(unit_type: str, cards: Sequence[CardLike], rules: Any) -> None:
    """Refuse support cards that do not match the attacking units, or too many Strategies of a type (R10)."""
    tactic = rules.tactic_for_unit[unit_type]
    seen: dict[str, list[str]] = {}
    for card in cards:
        if card.type == tactic:
            continue
        if card.type not in rules.strategy_types:
            raise PickRefusal(f"{card.name} ({_type_name(card.type)}) cannot back an attack of "
                              f"{_type_name(unit_type)}s: only {_type_name(tactic)} and Strategy cards can.",
                              f"cannot back {_type_name(unit_type)}s")
        seen.setdefault(card.type, []).append(card.name)
        if len(seen[card.type]) > rules.strategy_per_type:
            limit = rules.strategy_per_type
            raise PickRefusal(f"Only {limit} {_type_name(card.type)} card{'' if limit == 1 else 's'} may back one attack; "
                              f"you chose {' and '.join(seen[card.type])}.", f"{limit} {_type_name(card.type)} per attack")


def verify_counter(counter: CardLike, target: CardLike, rules: Any) -> None:
    """Refuse a counter-discard whose card cannot remove that attacking unit (R8)."""
    allowed = rules.counters.get(counter.type)
    if not allowed:
        raise Refusal(f"{counter.name} ({_type_name(counter.type)}) cannot counter an attack; "
                      f"counters are {_names(rules.counters)} cards.")
    if target.type not in allowed:
        raise Refusal(f"{counter.name} ({_type_name(counter.type)}) can only remove "
                      f"{_names(allowed)} cards, not {target.name} ({_type_name(target.type)}).")


def can_units(cards: Sequence[CardLike], rules: Any) -> bool:
    """Whether these cards may start an attack (for an attack builder that greys out choices)."""
    return _passes(verify_units, cards, rules)


def can_support(unit_type: str, cards: Sequence[CardLike], rules: Any) -> bool:
    """Whether these cards may back an attack by units of `unit_type`."""
    return _passes(verify_support, unit_type, cards, rules)


def can_counter(counter: CardLike, target: CardLike, rules: Any) -> bool:
    """Whether discarding `counter` may remove the attacking unit `target`."""
    return _passes(verify_counter, counter, target, rules)


def _passes(check: Any, *args: Any) -> bool:
    try:
        check(*args)
    except Refusal:
        return False
    return True


# ---------------------------------------------------------------- the game

class WarfareGame(Game["WarfareState"]):
    """Rules and the physical deck; shared, never mutated, by every state of a match."""

    id = "warfare"

    def __init__(self, data: GameData) -> None:
        self.data = data
        self.rules = data.rules
        self.cards = data.deck("cards")
        self.ids: list[str] = [c.id for c in self.cards]
        self.index: dict[str, int] = {cid: i for i, cid in enumerate(self.ids)}
        self.rows: list[Any] = [c.design for c in self.cards]
        self.types: list[str] = [row.type for row in self.rows]
        self.forces: list[int] = [row.force for row in self.rows]
        r = self.rules
        self.unit_types = frozenset(r.unit_types)
        self.strategy_types = frozenset(r.strategy_types)
        self.draw_types = frozenset(r.draw_types)
        self.scout_types = frozenset(r.scout_types)
        self.harass_types = frozenset(r.harass_types)
        self.blunder_types = frozenset(r.blunder_types)
        self.morale_types = frozenset(r.morale_types)
        self.counters: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in r.counters.items()}
        self.unit_cards = frozenset(c for c, t in enumerate(self.types) if t in self.unit_types)
        self.unit_type: list[str] = [t if t in self.unit_types else "" for t in self.types]  # "" for non-units
        # Each seat's Deploy moves per card, without and with the harass power (an opponent with cards to
        # lose), built once: listing a Deploy step is then one += per card held (a search lists thousands).
        plain = [tuple(k for k, kinds in (("draw", self.draw_types), ("scout", self.scout_types)) if t in kinds)
                 for t in self.types]
        harass = [kinds + (("harass",) if t in self.harass_types else ()) for kinds, t in zip(plain, self.types)]
        self.deploy_moves: list[list[list[tuple[Action, ...]]]] = [
            [[tuple(Action(k, p, {"card": self.ids[c]}) for k in table[c]) for c in range(len(self.cards))]
             for p in (0, 1)] for table in (plain, harass)]
        self.closing_moves: list[tuple[Action, Action]] = [(Action("attack", p), Action("hold", p)) for p in (0, 1)]

    def check_options(self, options: Mapping[str, Any]) -> None:
        unknown = sorted(set(options) - set(OPTION_KEYS))
        if unknown:
            raise Refusal(f"Napoleonic Warfare has no option {', '.join(unknown)} (options: {', '.join(OPTION_KEYS)}).")
        first = options.get("first_player")
        if first is not None and (isinstance(first, bool) or first not in (0, 1)):
            raise Refusal("first_player must be 0 or 1 (or left out for a coin flip).")
        if not isinstance(options.get("turn_limit", False), bool):
            raise Refusal(f"turn_limit is true or false (not {options['turn_limit']!r}).")

    def new_state(self, rng: random.Random, options: Mapping[str, Any]) -> WarfareState:
        """Shuffle, deal the opening hands, flip for the first player, who then draws (R1, R2)."""
        self.check_options(options)
        deck = list(range(len(self.cards)))
        rng.shuffle(deck)
        hands: list[list[int]] = [[], []]
        for _ in range(self.rules.opening_hand):
            for hand in hands:
                hand.append(deck.pop())
        first = options.get("first_player")
        if first is None:
            first = rng.randrange(2)
        state = WarfareState(self, deck, hands, limits=bool(options.get("turn_limit")))
        state._begin_turn(int(first), rng)
        return state


class WarfareState(State):
    """One position of a Napoleonic Warfare game."""

    def __init__(self, game: WarfareGame, deck: list[int], hands: list[list[int]], limits: bool = False) -> None:
        self.game = game
        # The game ends on troops alone unless the table asked for the turn and action limits (R17).
        self.turn_limit: int | None = game.rules.turn_limit if limits else None
        self.action_limit: int | None = game.rules.action_limit if limits else None
        self.deck = deck                  # top of the deck is the end of the list
        self.hands = hands
        self.discard: list[int] = []      # face up (R18); top is the end of the list
        self.units: list[int] = []        # attacking units on the table
        self.support: list[int] = []      # tactics and strategies backing them
        self.troops = [game.rules.starting_troops] * 2
        self.active = 0
        self.step = DEPLOY
        self.turn = 0
        self.actions = 0
        self.attacked = False
        self.peek = False
        # The cards of the other hand each player saw with a scout (R5) and knows are still there: a card leaves
        # the set only when a reshuffle could bring it back unseen (`resample` keeps the rest where they are).
        self.looked: list[frozenset[int]] = [frozenset(), frozenset()]
        self.yielded = False              # the defender took this attack without further replies (R20)
        self.morale_used = 0
        self.pending: Casualties | None = None
        self.last: dict[str, Any] | None = None
        self.winner_: int | None = None
        self.end_reason = ""

    # -------------------------------------------------------------- contract

    @property
    def current_player(self) -> int | None:
        if self.step == OVER:
            return None
        return 1 - self.active if self.step in DEFENDER_STEPS else self.active

    def players_to_act(self) -> list[int]:
        player = self.current_player
        return [] if player is None else [player]

    @property
    def is_terminal(self) -> bool:
        return self.step == OVER

    @property
    def winner(self) -> int | None:
        return self.winner_

    def clone(self) -> WarfareState:
        """A copy without deepcopy: the game is shared, only the piles and counters are copied."""
        other = object.__new__(WarfareState)
        fields = self.__dict__.copy()
        fields["deck"] = self.deck[:]
        fields["hands"] = [self.hands[0][:], self.hands[1][:]]
        fields["discard"] = self.discard[:]
        fields["units"] = self.units[:]
        fields["support"] = self.support[:]
        fields["troops"] = self.troops[:]
        fields["looked"] = self.looked[:]
        other.__dict__ = fields
        return other

    # -------------------------------------------------------------- legal actions

    def legal_actions(self, player: int | None = None) -> list[Action]:
        who = self.current_player
        if who is None or (player is not None and player != who):
            return []
        g = self.game
        ids = g.ids
        hand = self.hands[who]
        # Deploy and Maneuver make nine actions listed in ten: built straight from the hand, skipping `_moves`.
        if self.step == DEPLOY:
            table = g.deploy_moves[1 if self.hands[1 - who] else 0][who]
            out: list[Action] = []
            for held in hand:
                out += table[held]
            attack, hold = g.closing_moves[who]
            if not g.unit_cards.isdisjoint(hand):
                out.append(attack)
            out.append(hold)
            return out
        if self.step == EXCHANGE:
            held_ids = [ids[c] for c in hand]
            return [_new_action("exchange", who, {"cards": [held_ids[p] for p in combo]})
                    for combo in _subsets(len(hand), g.rules.maneuver_max_exchange)]
        out = []
        for kind, payload in self._moves():
            # JSON-ready args: card positions become card ids.
            if payload is None:
                args: dict[str, Any] = {}
            elif kind in _LIST_KINDS:
                args = {"cards": [ids[c] for c in payload]}
            elif kind == "counter":
                args = {"card": ids[payload[0]], "target": ids[payload[1]]}
            else:
                args = {"card": ids[payload]}
            out.append(_new_action(kind, who, args))
        return out

    def _moves(self) -> list[tuple[str, Any]]:
        """Legal moves as (kind, payload) with card positions, in the order `legal_actions` lists them.

        Not for Deploy or Maneuver, which `legal_actions` lists straight from the hand."""
        g = self.game
        step = self.step
        who = 1 - self.active if step in DEFENDER_STEPS else self.active
        hand = self.hands[who]
        types = g.types
        out: list[tuple[str, Any]] = []
        if step == BLUNDER:
            out = [("blunder", c) for c in hand if types[c] in g.blunder_types]
            out += _PASS_OR_YIELD["allow"]
        elif step == UNITS:
            for group in self._unit_groups():
                out.extend(("units", tuple(map(group.__getitem__, combo))) for combo in _nonempty(len(group)))
        elif step == COUNTER:
            for c in hand:
                allowed = g.counters.get(types[c])
                if allowed:
                    out.extend(("counter", (c, u)) for u in self.units if types[u] in allowed)
            out += _PASS_OR_YIELD["stand"]
        elif step == SUPPORT:
            out = [("support", tuple(chain.from_iterable(parts))) for parts in product(*(
                [tuple(map(cards.__getitem__, combo)) for combo in combos] for cards, combos in self._support_pools()))]
        elif step == MORALE:
            out = [("morale", c) for c in hand if types[c] in g.morale_types]
            out.append(("take", None))
        elif step == DISCARD:
            out = list(zip(repeat("discard"), hand))
        return out

    def _unit_groups(self) -> list[list[int]]:
        """The attacker's Unit cards by type, types in hand order: any non-empty set of one group may attack (R7)."""
        unit_type = self.game.unit_type
        by_type: dict[str, list[int]] = {}
        for c in self.hands[self.active]:
            t = unit_type[c]
            if t:
                if t in by_type:
                    by_type[t].append(c)
                else:
                    by_type[t] = [c]
        return list(by_type.values())

    def _support_pools(self) -> list[tuple[list[int], tuple[tuple[int, ...], ...]]]:
        """Each part of a support set (matching tactics, then each Strategy type in hand order) with its
        legal picks as positions: any tactics, up to rules.strategy_per_type of a Strategy type (R10).
        A legal support set is one pick per part, so the sets are the product of the parts."""
        g = self.game
        types = g.types
        tactic = g.rules.tactic_for_unit[types[self.units[0]]]
        strategies = g.strategy_types
        tactics: list[int] = []
        per_type: dict[str, list[int]] = {}
        for c in self.hands[self.active]:
            t = types[c]
            if t == tactic:
                tactics.append(c)
            elif t in strategies:
                per_type.setdefault(t, []).append(c)
        limit = g.rules.strategy_per_type
        return [(tactics, _subsets(len(tactics), len(tactics)))] + [
            (cards, _subsets(len(cards), limit)) for cards in per_type.values()]

    # -------------------------------------------------------------- verify

    def verify(self, action: Action) -> None:
        if self.step == OVER:
            raise Refusal("The game is over.")
        if action.kind not in _VERBS:
            raise Refusal(f"There is no move called '{action.kind}' in Napoleonic Warfare.")
        who = self.current_player
        if action.player != who:
            raise Refusal(f"It is not your turn to act: the other player is deciding ({_PHRASES[self.step]}).")
        expected = _KINDS[self.step]
        if action.kind not in expected:
            raise Refusal(f"You cannot {_VERBS[action.kind]} now: this is {_PHRASES[self.step]} "
                          f"(you may {' or '.join(_VERBS[k] for k in expected)}).")
        g = self.game
        rules = g.rules
        hand = self.hands[who]
        kind = action.kind
        if kind in _CARD_KINDS:
            card = self._card_in(hand, action.get("card"), "your hand")
            t = g.types[card]
            row = g.rows[card]
            if kind == "draw" and t not in g.draw_types:
                raise Refusal(f"{_named(row)} cannot be discarded to draw cards: only {_names(rules.draw_types)} cards can.")
            if kind == "scout" and t not in g.scout_types:
                raise Refusal(f"{_named(row)} cannot be discarded to look at your opponent's hand: "
                              f"only {_names(rules.scout_types)} cards can.")
            if kind == "harass":
                if t not in g.harass_types:
                    raise Refusal(f"{_named(row)} cannot make your opponent discard: only {_names(rules.harass_types)} cards can.")
                if not self.hands[1 - who]:
                    raise Refusal("Your opponent has no cards left to discard.")
            if kind == "blunder" and t not in g.blunder_types:
                raise Refusal(f"{_named(row)} cannot call off an attack: only {_names(rules.blunder_types)} cards can.")
            if kind == "morale" and t not in g.morale_types:
                raise Refusal(f"{_named(row)} cannot reduce casualties: only {_names(rules.morale_types)} cards can.")
            if kind == "counter":
                target = self._card_in(self.units, action.get("target"), "the attack")
                verify_counter(row, g.rows[target], rules)
        elif kind == "attack":
            if g.unit_cards.isdisjoint(hand):
                raise Refusal("You have no Unit card to attack with.")
        elif kind in ("units", "support", "exchange"):
            chosen = self._cards_in(hand, action.get("cards"))
            rows = [g.rows[c] for c in chosen]
            if kind == "units":
                verify_units(rows, rules)
            elif kind == "support":
                verify_support(g.types[self.units[0]], rows, rules)
            elif len(chosen) > rules.maneuver_max_exchange:
                raise PickRefusal(f"You may exchange at most {rules.maneuver_max_exchange} cards.",
                                  f"{rules.maneuver_max_exchange} cards at most")

    def picks(self, chosen: Sequence[str]) -> list[tuple[str, str | None]]:
        """The acting player's hand at a step that picks a set of cards (units, support, exchange), for a
        builder laid out as the cards: each card with None when tapping it keeps the set legal (a chosen card
        can always be tapped off), else the few words its disabled button shows. `verify` decides, so the
        builder offers exactly what the engine accepts."""
        who = self.current_player
        if self.step not in (UNITS, SUPPORT, EXCHANGE) or who is None:
            return []
        out: list[tuple[str, str | None]] = []
        for card in (self.game.ids[c] for c in self.hands[who]):
            reason = None
            if card not in chosen:
                try:
                    self.verify(Action(self.step, who, {"cards": [*chosen, card]}))
                except PickRefusal as err:
                    reason = err.short
            out.append((card, reason))
        return out

    def _card_in(self, pile: list[int], card_id: Any, where: str) -> int:
        card = self.game.index.get(card_id) if isinstance(card_id, str) else None
        if card is None:
            raise Refusal(f"There is no card '{card_id}' in this game.")
        if card not in pile:
            raise Refusal(f"{self.game.rows[card].name} is not in {where}.")
        return card

    def _cards_in(self, hand: list[int], card_ids: Any) -> list[int]:
        if not isinstance(card_ids, list | tuple):
            raise Refusal("Choose the cards as a list.")
        chosen = [self._card_in(hand, cid, "your hand") for cid in card_ids]
        if len(set(chosen)) != len(chosen):
            raise Refusal("You chose the same card twice.")
        return chosen

    # -------------------------------------------------------------- apply

    def _apply(self, action: Action, rng: random.Random) -> None:
        index = self.game.index
        kind = action.kind
        payload: Any = None
        if kind in _LIST_KINDS:
            payload = tuple(index[cid] for cid in action["cards"])
        elif kind == "counter":
            payload = (index[action["card"]], index[action["target"]])
        elif "card" in action.args:
            payload = index[action["card"]]
        self._do(kind, payload, rng)

    def _do(self, kind: str, payload: Any, rng: random.Random) -> None:
        """Carry out a legal move given as card positions."""
        g = self.game
        a = self.active
        d = 1 - a
        self.actions += 1
        if kind == "draw":
            self._to_discard(a, payload)
            drawn = self._draw(a, g.forces[payload], rng)
            self.last = {"event": "draw", "player": a, "card": g.ids[payload], "drawn": drawn}
            self._tell_drawn(a, drawn)
        elif kind == "scout":
            self._to_discard(a, payload)
            self.peek = True
            self.looked[a] = frozenset(self.hands[d])
            self.last = {"event": "scout", "player": a, "card": g.ids[payload]}
            if self.telling is not None:
                self.tell(f"{seat(a)} looked at {seat(d)}'s hand",
                          {a: f"{seat(a)} looked at {seat(d)}'s hand: {self._card_names(self.hands[d])}"},
                          reveals="your opponent's hand")
        elif kind == "harass":
            self._to_discard(a, payload)
            victim = self.hands[d]
            lost = victim.pop(rng.randrange(len(victim)))
            self.discard.append(lost)
            self.last = {"event": "harass", "player": a, "card": g.ids[payload], "lost": g.ids[lost]}
            self.tell(f"{seat(d)} discarded {g.rows[lost].name}, drawn at random", reveals="a card from a hand")
        elif kind == "attack":
            self.last = {"event": "attack", "player": a}
            self.step = BLUNDER if self.hands[d] else UNITS
        elif kind == "hold":
            self.last = {"event": "hold", "player": a}
            self._maneuver(rng)
        elif kind == "blunder":
            self._to_discard(d, payload)
            self.last = {"event": "blunder", "player": d, "card": g.ids[payload]}
            self._maneuver(rng)
        elif kind == "units":
            self.attacked = True
            self.units = self._take(a, payload)
            self.last = {"event": "units", "player": a, "cards": [g.ids[c] for c in payload]}
            if self.hands[d] and not self.yielded:
                self.step = COUNTER
            else:
                self._to_support(rng)
        elif kind == "counter":
            card, target = payload
            self._to_discard(d, card)
            self.units.remove(target)
            self.discard.append(target)
            self.last = {"event": "counter", "player": d, "card": g.ids[card], "target": g.ids[target],
                         "repulsed": not self.units}
            if not self.units:
                self.tell("The attack is repulsed")
                self._maneuver(rng)
            elif not self.hands[d]:
                self._to_support(rng)
        elif kind == "allow":
            self.step = UNITS
        elif kind == "stand":
            self._to_support(rng)
        elif kind == "yield":
            self.yielded = True
            self.last = {"event": "yield", "player": d}
            if self.step == BLUNDER:
                self.step = UNITS
            else:
                self._to_support(rng)
        elif kind == "take":
            self._inflict(rng)
        elif kind == "support":
            self.support = self._take(a, payload)
            self._resolve(rng)
        elif kind == "morale":
            self._morale(payload, rng)
        elif kind == "exchange":
            for c in payload:
                self._to_discard(a, c)
            drawn = self._draw(a, len(payload), rng)
            self.last = {"event": "exchange", "player": a, "discarded": [g.ids[c] for c in payload], "drawn": drawn}
            self._tell_drawn(a, drawn)
            self._hand_limit(rng)
        elif kind == "discard":
            self._to_discard(a, payload)
            self._hand_limit(rng)
        if self.step != OVER and self.action_limit is not None and self.actions >= self.action_limit:
            self._decide_on_troops("action limit")

    def _morale(self, card: int, rng: random.Random) -> None:
        """The defender spends a Morale card: halve the casualties (again), then inflict them once
        no more Morale may be played (R12)."""
        rules = self.game.rules
        d = 1 - self.active
        self._to_discard(d, card)
        self.morale_used += 1
        assert self.pending is not None
        if not self.pending.halved:
            self.pending = with_morale(self.pending, rules)
        else:
            self.pending = self.pending._replace(inflicted=halve(self.pending.inflicted, rules))
        if self.morale_used >= rules.morale_per_attack or not self.hands[d]:
            self._inflict(rng)

    def _to_discard(self, player: int, card: int) -> None:
        self.hands[player].remove(card)
        self.discard.append(card)

    def _take(self, player: int, cards: Sequence[int]) -> list[int]:
        hand = self.hands[player]
        for card in cards:
            hand.remove(card)
        return list(cards)

    def _draw(self, player: int, count: int, rng: random.Random) -> int:
        """Draw up to `count`, reshuffling the discard pile into an empty deck; stop if both are empty (R3)."""
        hand = self.hands[player]
        deck = self.deck
        if count <= len(deck):
            # One card at a time from the top, in one slice: the usual case, and on every playout's hot path.
            top = deck[len(deck) - count:]
            del deck[len(deck) - count:]
            top.reverse()
            hand += top
            return count
        drawn = 0
        while drawn < count:
            if not deck:
                if not self.discard:
                    break
                self.looked = [seen.difference(self.discard) for seen in self.looked]
                deck.extend(self.discard)
                self.discard.clear()
                rng.shuffle(deck)
            hand.append(deck.pop())
            drawn += 1
        return drawn

    def _to_support(self, rng: random.Random) -> None:
        if self.hands[self.active]:
            self.step = SUPPORT
        else:
            self._resolve(rng)

    def _resolve(self, rng: random.Random) -> None:
        """Total the casualties; the defender may answer with Morale if they hold any cards (R12)."""
        g = self.game
        cards = self.units + self.support
        self.pending = _tally(sum(map(g.forces.__getitem__, cards)), len(cards), g.rules)
        if self.pending.total > 0 and self.hands[1 - self.active] and g.rules.morale_per_attack > 0 and not self.yielded:
            self.step = MORALE
        else:
            self._inflict(rng)

    def _inflict(self, rng: random.Random) -> None:
        """Apply casualties (never below 0, R13), clear the table, then Maneuver or the end of the game."""
        g = self.game
        assert self.pending is not None
        d = 1 - self.active
        loss = min(self.pending.inflicted, self.troops[d])
        self.troops[d] -= loss
        if self.telling is not None:
            halved = " (halved by Morale)" if self.pending.halved else ""
            self.tell(f"{seat(d)} lost {loss} troop points{halved}; troops now {seat(0)} {self.troops[0]}, "
                      f"{seat(1)} {self.troops[1]}")
        self.last = {"event": "casualties", "player": self.active,
                     "units": [g.ids[c] for c in self.units], "support": [g.ids[c] for c in self.support],
                     "casualties": self.pending.to_json(), "lost": loss}
        self.discard.extend(self.units)
        self.discard.extend(self.support)
        self.units = []
        self.support = []
        if self.troops[d] == 0:
            self._finish(self.active, "troops")
        else:
            self._maneuver(rng)

    def _maneuver(self, rng: random.Random) -> None:
        """A player who did not attack may exchange cards (R15); then the hand limit (R16)."""
        if not self.attacked and self.hands[self.active] and self.game.rules.maneuver_max_exchange > 0:
            self.step = EXCHANGE
        else:
            self._hand_limit(rng)

    def _hand_limit(self, rng: random.Random) -> None:
        """Discard down to the hand limit (R16); then the turn ends, and the next begins unless it was the last (R17)."""
        if len(self.hands[self.active]) > self.game.rules.hand_limit:
            self.step = DISCARD
        elif self.turn_limit is not None and self.turn >= self.turn_limit:
            self._decide_on_troops("turn limit")
        else:
            self._begin_turn(1 - self.active, rng)

    def _begin_turn(self, player: int, rng: random.Random) -> None:
        self.active = player
        self.turn += 1
        self.attacked = False
        self.peek = False
        self.yielded = False
        self.morale_used = 0
        self.pending = None
        self.step = DEPLOY
        drawn = self._draw(player, self.game.rules.draw_per_turn, rng)
        if self.telling is not None:
            self.tell(f"Turn {self.turn}: {seat(player)}'s turn")
            self._tell_drawn(player, drawn)

    def _tell_drawn(self, player: int, drawn: int) -> None:
        """The last `drawn` cards of a hand came from the deck: counted for everyone, named for their owner."""
        if self.telling is not None and drawn:
            cards = self._card_names(self.hands[player][len(self.hands[player]) - drawn:])
            self.tell(f"{seat(player)} drew {drawn} card{'s' if drawn > 1 else ''}",
                      {player: f"{seat(player)} drew {cards}"}, reveals="cards from the deck")

    def _card_names(self, cards: Sequence[int]) -> str:
        return ", ".join(self.game.rows[c].name for c in cards) or "nothing"

    def _decide_on_troops(self, reason: str) -> None:
        """At a limit the side with more troop points wins; equal troops is a draw (R17)."""
        a, b = self.troops
        self._finish(0 if a > b else 1 if b > a else None, reason)

    def _finish(self, winner: int | None, reason: str) -> None:
        self.discard.extend(self.units)
        self.discard.extend(self.support)
        self.units, self.support = [], []
        self.winner_ = winner
        self.end_reason = reason
        self.step = OVER
        self.tell(f"The game is over ({reason}): " + ("a draw" if winner is None else f"{seat(winner)} wins"))

    def resample(self, viewer: int | None, rng: random.Random) -> WarfareState:
        """The deck and every hand hidden from `viewer` dealt again from the cards it has not seen (the discard
        pile and the attack lie face up, R18); cards it saw in the other hand with a scout stay there, in the
        order it saw them (R5)."""
        new = self.clone()
        hidden = [p for p in (0, 1) if p != viewer]
        seen = {p: self.looked[1 - p] if viewer is not None else frozenset() for p in hidden}
        dealt = [[c for c in self.hands[p] if c not in seen[p]] for p in hidden]
        redeal([new.deck, *dealt], rng)
        for p, cards in zip(hidden, dealt):
            new.hands[p] = [c for c in self.hands[p] if c in seen[p]] + cards
            if viewer is None:  # a scout's look is hidden from a spectator too: the scout saw the cards dealt
                new.looked[1 - p] = frozenset(new.hands[p][:sum(c in self.looked[1 - p] for c in self.hands[p])])
        return new

    # -------------------------------------------------------------- views

    def view(self, player: int | None) -> dict[str, Any]:
        """Public information for everyone; a player also sees their hand, and the opponent's after a scout (R5)."""
        ids = self.game.ids
        out: dict[str, Any] = {
            "game": "warfare",
            "turn": self.turn,
            "active": self.active,
            "step": self.step,
            "to_act": self.players_to_act(),
            "troops": list(self.troops),
            "hand_counts": [len(self.hands[0]), len(self.hands[1])],
            "deck_count": len(self.deck),
            "discard": [ids[c] for c in self.discard],
            "attack": {
                "attacked": self.attacked,
                "units": [ids[c] for c in self.units],
                "support": [ids[c] for c in self.support],
                "casualties": self.pending.to_json() if self.pending else None,
                "yielded": self.yielded,
            },
            "last": dict(self.last) if self.last else None,
            "over": self.step == OVER,
            "winner": self.winner_,
            "end_reason": self.end_reason,
        }
        if player is not None:
            out["you"] = player
            out["hand"] = [ids[c] for c in self.hands[player]]
            if self.peek and player == self.active and self.step != OVER:
                out["opponent_hand"] = [ids[c] for c in self.hands[1 - player]]
        return out

    def snapshot(self) -> dict[str, Any]:
        """Everything, hidden order included: for tests, golden games and undo checks."""
        ids = self.game.ids
        out = self.view(None)
        out.pop("last")
        out.update(hands=[[ids[c] for c in h] for h in self.hands], deck=[ids[c] for c in self.deck],
                   peek=self.peek, morale_used=self.morale_used, actions=self.actions)
        return out

    def narrate(self, action: Action) -> list[Told]:
        """Warfare's moves are face up (discards, attacks, counters): everyone reads the same line.

        Only what a move draws from the deck or shows of a hand is private, and `_do` tells that.
        """
        g = self.game
        kind, p = action.kind, action.player
        who = seat(p)

        def name(cid: str) -> str:
            return str(g.rows[g.index[cid]].name)

        def names(cids: Sequence[str]) -> str:
            return ", ".join(name(c) for c in cids) or "nothing"

        other = seat(1 - p)
        text = {
            "draw": lambda: f"{who} discarded {name(action['card'])} to draw cards",
            "scout": lambda: f"{who} discarded {name(action['card'])} to look at {other}'s hand",
            "harass": lambda: f"{who} discarded {name(action['card'])}: {other} discards a card at random",
            "attack": lambda: f"{who} declared an attack",
            "hold": lambda: f"{who} did not attack this turn",
            "blunder": lambda: f"{who} discarded {name(action['card'])}: Enemy Blunder, the attack is called off",
            "allow": lambda: f"{who} played no Enemy Blunder",
            "units": lambda: f"{who} attacked with {names(action['cards'])}",
            "counter": lambda: f"{who} discarded {name(action['card'])} to remove {name(action['target'])}",
            "stand": lambda: f"{who} played no more counters",
            "yield": lambda: f"{who} took the attack: " + ("no Enemy Blunder, no counters, no Morale" if self.step == BLUNDER
                                                           else "no more counters, no Morale"),
            "support": lambda: f"{who} backed the attack with {names(action['cards'])}",
            "morale": lambda: f"{who} discarded {name(action['card'])} to halve the casualties",
            "take": lambda: f"{who} took the casualties",
            "exchange": lambda: (f"{who} exchanged {names(action['cards'])}" if action["cards"]
                                 else f"{who} kept their hand"),
            "discard": lambda: f"{who} discarded {name(action['card'])} to the hand limit",
        }[kind]()
        return [Told(text)]

    def opening(self) -> list[Told]:
        dealt = {p: f"{seat(p)} holds {self._card_names(self.hands[p])}" for p in (0, 1)}
        return [Told(f"{seat(self.active)} plays first"), Told("Both players hold their opening hands", dealt)]

    def task(self, player: int) -> str:
        return _TASKS[self.step]

    def label(self, action: Action) -> str:
        g = self.game

        def card(cid: str) -> str:
            i = g.index.get(cid)
            return cid if i is None else f"{g.rows[i].name} ({g.types[i]} {g.forces[i]})"

        def cards(cids: Sequence[str]) -> str:
            return ", ".join(card(c) for c in cids) or "nothing"

        kind = action.kind
        if kind == "draw":
            i = g.index.get(action.get("card"))
            return f"Discard {card(action['card'])} to draw {g.forces[i] if i is not None else '?'} cards"
        if kind == "scout":
            return f"Discard {card(action['card'])} to look at your opponent's hand"
        if kind == "harass":
            return f"Discard {card(action['card'])}: your opponent discards a random card"
        if kind == "attack":
            return "Attack"
        if kind == "hold":
            return "Do not attack this turn"
        if kind == "blunder":
            return f"Discard {card(action['card'])}: Enemy Blunder, the attack is called off"
        if kind == "units":
            return f"Attack with {cards(action['cards'])}"
        if kind == "counter":
            return f"Discard {card(action['card'])} to remove {card(action['target'])}"
        if kind == "support":
            return f"Back the attack with {cards(action['cards'])}" if action["cards"] else "No support: attack with the units alone"
        if kind == "morale":
            return f"Discard {card(action['card'])} to halve the casualties"
        if kind == "exchange":
            return f"Exchange {cards(action['cards'])}" if action["cards"] else "Keep your hand"
        if kind == "discard":
            return f"Discard {card(action['card'])} (hand limit {g.rules.hand_limit})"
        if kind == "allow":
            return "No Enemy Blunder: let the attack go ahead"
        if kind == "stand":
            return "No more counters"
        if kind == "take":
            return "Take the casualties"
        if kind == "yield":
            return "Take the attack: no more replies to it"
        return str(action)


def _new_action(kind: str, player: int, args: dict[str, Any]) -> Action:
    """The same `Action` as `Action(kind, player, args)` at half the cost: the frozen dataclass's
    `__init__` sets each field through `object.__setattr__`, and `legal_actions` lists several a decision."""
    action = _object_new(Action)
    fields = action.__dict__
    fields["kind"] = kind
    fields["player"] = player
    fields["args"] = args
    return action


_object_new = object.__new__


@cache
def _nonempty(size: int) -> tuple[tuple[int, ...], ...]:
    """Positions of every non-empty choice from `size` cards, in the order `units` moves are listed."""
    return _subsets(size, size)[1:]


@cache
def _subsets(size: int, most: int) -> tuple[tuple[int, ...], ...]:
    """Positions of every choice of at most `most` of `size` cards, smallest first, in `combinations` order.

    The order the legal moves list them in, cached per hand size so listing them is one lookup.
    """
    return tuple(combo for n in range(min(most, size) + 1) for combo in combinations(range(size), n))


_CARD_KINDS = frozenset({"draw", "scout", "harass", "blunder", "morale", "discard", "counter"})
_LIST_KINDS = frozenset({"units", "support", "exchange"})
_YIELD = ("yield", None)
_PASS_OR_YIELD: dict[str, list[tuple[str, Any]]] = {"allow": [("allow", None), _YIELD], "stand": [("stand", None), _YIELD]}
"""What closes the defender's Blunder and counter steps, in the order they are listed: pass this step, or
take the attack without any further reply (R20). Listed whatever the hand holds, so the choice tells nothing."""

_KINDS: dict[str, tuple[str, ...]] = {
    DEPLOY: ("draw", "scout", "harass", "attack", "hold"),
    BLUNDER: ("blunder", "allow", "yield"),
    UNITS: ("units",),
    COUNTER: ("counter", "stand", "yield"),
    SUPPORT: ("support",),
    MORALE: ("morale", "take"),
    EXCHANGE: ("exchange",),
    DISCARD: ("discard",),
    OVER: (),
}

_PHRASES: dict[str, str] = {
    DEPLOY: "the Deploy phase",
    BLUNDER: "the defender's chance to play an Enemy Blunder",
    UNITS: "the choice of attacking units",
    COUNTER: "the defender's counter-discards",
    SUPPORT: "the choice of Tactics and Strategy cards for the attack",
    MORALE: "the defender's chance to play a Morale card",
    EXCHANGE: "the Maneuver phase",
    DISCARD: "discarding down to the hand limit",
    OVER: "the end of the game",
}

_TASKS: dict[str, str] = {
    DEPLOY: "deploy: use card powers, attack or hold back",
    BLUNDER: "decide whether to play an Enemy Blunder",
    UNITS: "choose the attacking units",
    COUNTER: "decide whether to counter-discard",
    SUPPORT: "choose Tactics and Strategy cards to back the attack",
    MORALE: "decide whether to play a Morale card",
    EXCHANGE: "decide whether to exchange cards",
    DISCARD: "discard down to the hand limit",
    OVER: "wait",
}

_VERBS: dict[str, str] = {
    "draw": "discard a card to draw", "scout": "scout", "harass": "harass", "attack": "attack",
    "hold": "hold back", "blunder": "play an Enemy Blunder", "allow": "let the attack go ahead",
    "stand": "stop countering", "take": "take the casualties", "yield": "take the attack without replying", "units": "choose attacking units",
    "counter": "counter-discard", "support": "add support cards", "morale": "play a Morale card",
    "exchange": "exchange cards", "discard": "discard to the hand limit",
}


WarfareState.ARGS = {**{kind: {"card": str} for kind in _CARD_KINDS}, "counter": {"card": str, "target": str},
                     **{kind: {"cards": list[str]} for kind in _LIST_KINDS},
                     **{kind: {} for kind in _VERBS if kind not in _CARD_KINDS | _LIST_KINDS}}
"""Each move's arguments (engine.core.check_args): a card id, a list of them, or nothing."""


def make_game(data: GameData) -> WarfareGame:
    """The Napoleonic Warfare engine for loaded data."""
    return WarfareGame(data)
