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
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from math import prod
from itertools import chain, combinations, product, repeat
from typing import Any, NamedTuple, Protocol

from cards.load import GameData
from cards.schemas.warfare import TYPE_NAMES
from engine.core import Action, Game, Refusal, State, Told, redeal, seat
from engine.kinds import Kind, schema

DEPLOY = "deploy"
BLUNDER = "blunder"
UNITS = "units"
REDEAL_TRIES = 200
"""How many deals `resample` tries for one the public moves allow; past that it keeps the last (never seen)."""
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
            return self._deploy_moves(who)
        if self.step == EXCHANGE:
            held_ids = [ids[c] for c in hand]
            return [_new_action("exchange", who, {"cards": [held_ids[p] for p in combo]})
                    for combo in _subsets(len(hand), g.rules.maneuver_max_exchange)]
        return [self._action(who, kind, payload) for kind, payload in self._moves()]

    def _deploy_moves(self, who: int) -> list[Action]:
        """Deploy's moves in listing order: each held card's powers in hand order (prebuilt per seat, harass only
        while the opponent holds cards to lose), then attack (with a Unit card in hand) and hold. `legal_actions`
        lists these and `random_action` picks from them: a list of prebuilt actions is cheaper to build and index
        than counting the rows without building them (docs/performance.md)."""
        g = self.game
        hand = self.hands[who]
        table = g.deploy_moves[1 if self.hands[1 - who] else 0][who]
        out: list[Action] = []
        for held in hand:
            out += table[held]
        attack, hold = g.closing_moves[who]
        if not g.unit_cards.isdisjoint(hand):
            out.append(attack)
        out.append(hold)
        return out

    def _action(self, who: int, kind: str, payload: Any) -> Action:
        """One move of `_moves` as its action: card positions become card ids (JSON-ready args)."""
        ids = self.game.ids
        if payload is None:
            args: dict[str, Any] = {}
        elif "cards" in KINDS[kind].args:
            args = {"cards": [ids[c] for c in payload]}
        elif kind == "counter":
            args = {"card": ids[payload[0]], "target": ids[payload[1]]}
        else:
            args = {"card": ids[payload]}
        return _new_action(kind, who, args)

    def random_action(self, rng: random.Random, player: int | None = None) -> Action | None:
        """`State.random_action` without listing: the moves are counted and only the one drawn is built (the same
        draw from the same `rng` as picking from `legal_actions`, which never offers conceding). Deploy's moves are
        prebuilt, so it picks from the very list `legal_actions` gives (`_deploy_moves`): the base method draws the
        same move, but through `legal_actions` and `playable`, at 1.8 µs a Deploy draw against this branch's 1.2-1.3 µs,
        some 6 % of a random game (docs/performance.md, 2026-11-26 15:37 UTC). Maneuver's exchanges and Support's sets (a
        product of each part's picks) are numbered, so the drawn number is read as the set it stands for."""
        who = self.current_player
        if who is None or (player is not None and player != who):
            return None
        g = self.game
        hand = self.hands[who]
        if self.step == DEPLOY:
            deploy = self._deploy_moves(who)
            return deploy[rng.randrange(len(deploy))]
        if self.step == EXCHANGE:
            combos = _subsets(len(hand), g.rules.maneuver_max_exchange)
            combo = combos[rng.randrange(len(combos))]
            return self._action(who, "exchange", tuple(hand[p] for p in combo))
        if self.step == SUPPORT:
            pools = self._support_pools()
            i = rng.randrange(prod(len(combos) for _, combos in pools))
            picked: list[tuple[int, ...]] = []
            for cards, combos in reversed(pools):  # the product's last part varies fastest
                i, k = divmod(i, len(combos))
                picked.append(tuple(cards[p] for p in combos[k]))
            return self._action(who, "support", tuple(chain.from_iterable(reversed(picked))))
        moves = self._moves()
        return self._action(who, *moves[rng.randrange(len(moves))]) if moves else None

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
        """Whose turn and which step, then the kind's own checks."""
        if self.step == OVER:
            raise Refusal("The game is over.")
        kind = KINDS.get(action.kind)
        if kind is None:
            raise Refusal(f"There is no move called '{action.kind}' in Napoleonic Warfare.")
        who = self.current_player
        if action.player != who:
            raise Refusal(f"It is not your turn to act: the other player is deciding ({_PHRASES[self.step]}).")
        if self.step not in kind.phases:
            expected = [k.verb for k in KINDS.values() if self.step in k.phases]
            raise Refusal(f"You cannot {kind.verb} now: this is {_PHRASES[self.step]} "
                          f"(you may {' or '.join(expected)}).")
        kind.verify(self, action)

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
        self.actions += 1
        KINDS[action.kind].apply(self, action, rng)
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
        # An attack declared and not yet made (R7) shows everyone that the attacker holds a Unit card: deal
        # again until it does (a deal is kept or not on what the viewer knows only, so this stays fair).
        attacking = self.active in hidden and self.step in (BLUNDER, UNITS)
        for _ in range(REDEAL_TRIES):
            redeal([new.deck, *dealt], rng)
            held = set(dealt[hidden.index(self.active)]) | set(seen[self.active]) if attacking else set()
            if not attacking or not self.game.unit_cards.isdisjoint(held):
                break
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
        """Every move reads the same to both players (each kind's words): the cards it names are face up.
        Only what a move draws from the deck or shows of a hand is private, and its effect tells that."""
        kind = KINDS.get(action.kind)
        return [] if kind is None else kind.told(self, action)

    def opening(self) -> list[Told]:
        dealt = {p: f"{seat(p)} holds {self._card_names(self.hands[p])}" for p in (0, 1)}
        return [Told(f"{seat(self.active)} plays first"), Told("Both players hold their opening hands", dealt)]

    def task(self, player: int) -> str:
        return _TASKS[self.step]

    def label(self, action: Action) -> str:
        kind = KINDS.get(action.kind)
        return str(action) if kind is None else kind.label(self, action)


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


_YIELD = ("yield", None)
_PASS_OR_YIELD: dict[str, list[tuple[str, Any]]] = {"allow": [("allow", None), _YIELD], "stand": [("stand", None), _YIELD]}
"""What closes the defender's Blunder and counter steps, in the order they are listed: pass this step, or
take the attack without any further reply (R20). Listed whatever the hand holds, so the choice tells nothing."""

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

def _held(state: WarfareState, action: Action) -> int:
    """The card a move discards from the mover's hand (a refusal if it is not there)."""
    return state._card_in(state.hands[action.player], action.get("card"), "your hand")


def _discarded_for(types: Callable[[WarfareGame], frozenset[str]], allowed: Callable[[Any], Iterable[str]],
                   cannot: str) -> Callable[[WarfareState, Action], None]:
    """The check of a card discarded for its power: only the card types the rules give that power may be (R7-R10)."""
    def verify(state: WarfareState, action: Action) -> None:
        card, g = _held(state, action), state.game
        if g.types[card] not in types(g):
            raise Refusal(f"{_named(g.rows[card])} {cannot}: only {_names(allowed(g.rules))} cards can.")
    return verify


_verify_draw = _discarded_for(lambda g: g.draw_types, lambda r: r.draw_types, "cannot be discarded to draw cards")
_verify_scout = _discarded_for(lambda g: g.scout_types, lambda r: r.scout_types,
                               "cannot be discarded to look at your opponent's hand")
_verify_blunder = _discarded_for(lambda g: g.blunder_types, lambda r: r.blunder_types, "cannot call off an attack")
_verify_morale = _discarded_for(lambda g: g.morale_types, lambda r: r.morale_types, "cannot reduce casualties")
_verify_harass_card = _discarded_for(lambda g: g.harass_types, lambda r: r.harass_types,
                                     "cannot make your opponent discard")


def _verify_harass(state: WarfareState, action: Action) -> None:
    _verify_harass_card(state, action)
    if not state.hands[1 - action.player]:
        raise Refusal("Your opponent has no cards left to discard.")


def _verify_counter(state: WarfareState, action: Action) -> None:
    card, g = _held(state, action), state.game
    target = state._card_in(state.units, action.get("target"), "the attack")
    verify_counter(g.rows[card], g.rows[target], g.rules)


def _verify_attack(state: WarfareState, action: Action) -> None:
    if state.game.unit_cards.isdisjoint(state.hands[action.player]):
        raise Refusal("You have no Unit card to attack with.")


def _verify_units(state: WarfareState, action: Action) -> None:
    g = state.game
    verify_units([g.rows[c] for c in state._cards_in(state.hands[action.player], action.get("cards"))], g.rules)


def _verify_support(state: WarfareState, action: Action) -> None:
    g = state.game
    chosen = state._cards_in(state.hands[action.player], action.get("cards"))
    verify_support(g.types[state.units[0]], [g.rows[c] for c in chosen], g.rules)


def _verify_exchange(state: WarfareState, action: Action) -> None:
    most = state.game.rules.maneuver_max_exchange
    if len(state._cards_in(state.hands[action.player], action.get("cards"))) > most:
        raise PickRefusal(f"You may exchange at most {most} cards.", f"{most} cards at most")


def _verify_held(state: WarfareState, action: Action) -> None:
    _held(state, action)


def _always(state: WarfareState, action: Action) -> None:
    """Always allowed in its steps (the state checks whose turn and which step)."""


def _card(state: WarfareState, action: Action) -> int:
    return state.game.index[action["card"]]


def _cards(state: WarfareState, action: Action) -> tuple[int, ...]:
    return tuple(state.game.index[cid] for cid in action["cards"])


def _do_draw(state: WarfareState, action: Action, rng: random.Random) -> None:
    g, a, card = state.game, state.active, _card(state, action)
    state._to_discard(a, card)
    drawn = state._draw(a, g.forces[card], rng)
    state.last = {"event": "draw", "player": a, "card": g.ids[card], "drawn": drawn}
    state._tell_drawn(a, drawn)


def _do_scout(state: WarfareState, action: Action, rng: random.Random) -> None:
    g, a, card = state.game, state.active, _card(state, action)
    d = 1 - a
    state._to_discard(a, card)
    state.peek = True
    state.looked[a] = frozenset(state.hands[d])
    state.last = {"event": "scout", "player": a, "card": g.ids[card]}
    if state.telling is not None:
        state.tell(f"{seat(a)} looked at {seat(d)}'s hand",
                   {a: f"{seat(a)} looked at {seat(d)}'s hand: {state._card_names(state.hands[d])}"},
                   reveals="your opponent's hand")


def _do_harass(state: WarfareState, action: Action, rng: random.Random) -> None:
    g, a, card = state.game, state.active, _card(state, action)
    d = 1 - a
    state._to_discard(a, card)
    victim = state.hands[d]
    lost = victim.pop(rng.randrange(len(victim)))
    state.discard.append(lost)
    state.last = {"event": "harass", "player": a, "card": g.ids[card], "lost": g.ids[lost]}
    state.tell(f"{seat(d)} discarded {g.rows[lost].name}, drawn at random", reveals="a card from a hand")


def _do_attack(state: WarfareState, action: Action, rng: random.Random) -> None:
    a = state.active
    state.last = {"event": "attack", "player": a}
    state.step = BLUNDER if state.hands[1 - a] else UNITS


def _do_hold(state: WarfareState, action: Action, rng: random.Random) -> None:
    state.last = {"event": "hold", "player": state.active}
    state._maneuver(rng)


def _do_blunder(state: WarfareState, action: Action, rng: random.Random) -> None:
    d, card = 1 - state.active, _card(state, action)
    state._to_discard(d, card)
    state.last = {"event": "blunder", "player": d, "card": state.game.ids[card]}
    state._maneuver(rng)


def _do_units(state: WarfareState, action: Action, rng: random.Random) -> None:
    a, chosen = state.active, _cards(state, action)
    state.attacked = True
    state.units = state._take(a, chosen)
    state.last = {"event": "units", "player": a, "cards": [state.game.ids[c] for c in chosen]}
    if state.hands[1 - a] and not state.yielded:
        state.step = COUNTER
    else:
        state._to_support(rng)


def _do_counter(state: WarfareState, action: Action, rng: random.Random) -> None:
    g, d = state.game, 1 - state.active
    card, target = _card(state, action), g.index[action["target"]]
    state._to_discard(d, card)
    state.units.remove(target)
    state.discard.append(target)
    state.last = {"event": "counter", "player": d, "card": g.ids[card], "target": g.ids[target],
                  "repulsed": not state.units}
    if not state.units:
        state.tell("The attack is repulsed")
        state._maneuver(rng)
    elif not state.hands[d]:
        state._to_support(rng)


def _do_allow(state: WarfareState, action: Action, rng: random.Random) -> None:
    state.step = UNITS


def _do_yield(state: WarfareState, action: Action, rng: random.Random) -> None:
    state.yielded = True
    state.last = {"event": "yield", "player": 1 - state.active}
    if state.step == BLUNDER:
        state.step = UNITS
    else:
        state._to_support(rng)


def _do_support(state: WarfareState, action: Action, rng: random.Random) -> None:
    state.support = state._take(state.active, _cards(state, action))
    state._resolve(rng)


def _do_exchange(state: WarfareState, action: Action, rng: random.Random) -> None:
    g, a, chosen = state.game, state.active, _cards(state, action)
    for c in chosen:
        state._to_discard(a, c)
    drawn = state._draw(a, len(chosen), rng)
    state.last = {"event": "exchange", "player": a, "discarded": [g.ids[c] for c in chosen], "drawn": drawn}
    state._tell_drawn(a, drawn)
    state._hand_limit(rng)


def _do_discard(state: WarfareState, action: Action, rng: random.Random) -> None:
    state._to_discard(state.active, _card(state, action))
    state._hand_limit(rng)


# Words: a card in a button names its type and force; in the history, its name.

def _shown(state: WarfareState, cid: str) -> str:
    g = state.game
    i = g.index.get(cid)
    return cid if i is None else f"{g.rows[i].name} ({g.types[i]} {g.forces[i]})"


def _shown_all(state: WarfareState, cids: Sequence[str]) -> str:
    return ", ".join(_shown(state, c) for c in cids) or "nothing"


def _name(state: WarfareState, cid: str) -> str:
    g = state.game
    return str(g.rows[g.index[cid]].name)


def _names_of(state: WarfareState, cids: Sequence[str]) -> str:
    return ", ".join(_name(state, c) for c in cids) or "nothing"


def _said(text: Callable[[WarfareState, Action, str], str]) -> Callable[[WarfareState, Action], list[Told]]:
    """A history line every player reads alike, from the mover's seat placeholder."""
    return lambda state, action: [Told(text(state, action, seat(action.player)))]


def _draw_label(state: WarfareState, action: Action) -> str:
    i = state.game.index.get(action.get("card"))
    return f"Discard {_shown(state, action['card'])} to draw {state.game.forces[i] if i is not None else '?'} cards"


def _yield_told(state: WarfareState, action: Action, who: str) -> str:
    return f"{who} took the attack: " + ("no Enemy Blunder, no counters, no Morale" if state.step == BLUNDER
                                         else "no more counters, no Morale")


_CARD = {"card": str}
_LIST = {"cards": list[str]}
KINDS: dict[str, Kind[WarfareState]] = {
    "draw": Kind(_CARD, _verify_draw, _do_draw, _draw_label,
                 _said(lambda s, a, who: f"{who} discarded {_name(s, a['card'])} to draw cards"),
                 phases=(DEPLOY,), verb="discard a card to draw"),
    "scout": Kind(_CARD, _verify_scout, _do_scout,
                  lambda s, a: f"Discard {_shown(s, a['card'])} to look at your opponent's hand",
                  _said(lambda s, a, who: f"{who} discarded {_name(s, a['card'])} to look at "
                                          f"{seat(1 - a.player)}'s hand"),
                  phases=(DEPLOY,), verb="scout"),
    "harass": Kind(_CARD, _verify_harass, _do_harass,
                   lambda s, a: f"Discard {_shown(s, a['card'])}: your opponent discards a random card",
                   _said(lambda s, a, who: f"{who} discarded {_name(s, a['card'])}: {seat(1 - a.player)} "
                                           "discards a card at random"),
                   phases=(DEPLOY,), verb="harass"),
    "attack": Kind({}, _verify_attack, _do_attack, lambda s, a: "Attack",
                   _said(lambda s, a, who: f"{who} declared an attack"), phases=(DEPLOY,), verb="attack"),
    "hold": Kind({}, _always, _do_hold, lambda s, a: "Do not attack this turn",
                 _said(lambda s, a, who: f"{who} did not attack this turn"), phases=(DEPLOY,), verb="hold back"),
    "blunder": Kind(_CARD, _verify_blunder, _do_blunder,
                    lambda s, a: f"Discard {_shown(s, a['card'])}: Enemy Blunder, the attack is called off",
                    _said(lambda s, a, who: f"{who} discarded {_name(s, a['card'])}: Enemy Blunder, the attack is "
                                            "called off"),
                    phases=(BLUNDER,), verb="play an Enemy Blunder"),
    "allow": Kind({}, _always, _do_allow, lambda s, a: "No Enemy Blunder: let the attack go ahead",
                  _said(lambda s, a, who: f"{who} played no Enemy Blunder"), phases=(BLUNDER,),
                  verb="let the attack go ahead"),
    "units": Kind(_LIST, _verify_units, _do_units, lambda s, a: f"Attack with {_shown_all(s, a['cards'])}",
                  _said(lambda s, a, who: f"{who} attacked with {_names_of(s, a['cards'])}"), phases=(UNITS,),
                  verb="choose attacking units"),
    "counter": Kind({"card": str, "target": str}, _verify_counter, _do_counter,
                    lambda s, a: f"Discard {_shown(s, a['card'])} to remove {_shown(s, a['target'])}",
                    _said(lambda s, a, who: f"{who} discarded {_name(s, a['card'])} to remove "
                                            f"{_name(s, a['target'])}"),
                    phases=(COUNTER,), verb="counter-discard"),
    "stand": Kind({}, _always, lambda s, a, rng: s._to_support(rng), lambda s, a: "No more counters",
                  _said(lambda s, a, who: f"{who} played no more counters"), phases=(COUNTER,),
                  verb="stop countering"),
    "yield": Kind({}, _always, _do_yield, lambda s, a: "Take the attack: no more replies to it", _said(_yield_told),
                  phases=(BLUNDER, COUNTER), verb="take the attack without replying"),
    "support": Kind(_LIST, _verify_support, _do_support,
                    lambda s, a: (f"Back the attack with {_shown_all(s, a['cards'])}" if a["cards"]
                                  else "No support: attack with the units alone"),
                    _said(lambda s, a, who: f"{who} backed the attack with {_names_of(s, a['cards'])}"),
                    phases=(SUPPORT,), verb="add support cards"),
    "morale": Kind(_CARD, _verify_morale, lambda s, a, rng: s._morale(_card(s, a), rng),
                   lambda s, a: f"Discard {_shown(s, a['card'])} to halve the casualties",
                   _said(lambda s, a, who: f"{who} discarded {_name(s, a['card'])} to halve the casualties"),
                   phases=(MORALE,), verb="play a Morale card"),
    "take": Kind({}, _always, lambda s, a, rng: s._inflict(rng), lambda s, a: "Take the casualties",
                 _said(lambda s, a, who: f"{who} took the casualties"), phases=(MORALE,),
                 verb="take the casualties"),
    "exchange": Kind(_LIST, _verify_exchange, _do_exchange,
                     lambda s, a: f"Exchange {_shown_all(s, a['cards'])}" if a["cards"] else "Keep your hand",
                     _said(lambda s, a, who: (f"{who} exchanged {_names_of(s, a['cards'])}" if a["cards"]
                                              else f"{who} kept their hand")),
                     phases=(EXCHANGE,), verb="exchange cards"),
    "discard": Kind(_CARD, _verify_held, _do_discard,
                    lambda s, a: f"Discard {_shown(s, a['card'])} (hand limit {s.game.rules.hand_limit})",
                    _said(lambda s, a, who: f"{who} discarded {_name(s, a['card'])} to the hand limit"),
                    phases=(DISCARD,), verb="discard to the hand limit"),
}
"""Every move of Napoleonic Warfare: its arguments (a card id, a list of them, or nothing), the steps it
belongs to, its checks, effect and words."""
WarfareState.ARGS = schema(KINDS)


def make_game(data: GameData) -> WarfareGame:
    """The Napoleonic Warfare engine for loaded data."""
    return WarfareGame(data)
