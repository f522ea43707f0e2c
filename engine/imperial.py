"""Imperial battles: the battle system of an empire game, after seed 003 and docs/rules/imperial.md.

Two sides (players 0 and 1) draw Military cards (Pikemen, Musketeers, Cavalry) from one
shared supply according to their Imperial Power, may exchange and buy cards, then fight
rounds in which both play a card face down at the same time. Rulings are cited as R1, R2...
Actions name unit types, never physical cards: copies of a type are interchangeable, so the
engine picks which copy moves and a player never has to.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from math import comb, prod
from typing import Any

from cards.load import GameData
from cards.schemas.imperial import CAVALRY, INFANTRY, MUSKETEERS, PIKEMEN, TYPE_NAMES, TYPES, Military
from engine.core import Action, Arg, Game, Refusal, State, Told, seat
from engine.kinds import Kind, schema

LOG = logging.getLogger("muster.engine")

SIDES: tuple[int, int] = (0, 1)
OPTION_KEYS: tuple[str, ...] = ("imperial_power", "gold", "reinforcements", "initiative", "game_round",
                                 "rifling_rounds_of")

EXCHANGE = "exchange"
BUY = "buy"
PLAY = "play"
INFANTRY_LOSS = "infantry_loss"
RIFLING = "rifling"
OVER = "over"

AUTOMATIC = "automatic"
ROUT = "rout"
INCONCLUSIVE = "inconclusive"

TASKS: dict[str, str] = {
    EXCHANGE: "decide whether to exchange cards",
    BUY: "buy cards with Gold or stop buying",
    PLAY: "choose a card to play face down",
    INFANTRY_LOSS: "choose which infantry to lose",
    RIFLING: "name a unit type for Advanced Rifling",
}
WAITING: dict[str, str] = {
    EXCHANGE: "the sides are deciding whether to exchange cards",
    BUY: "the sides are buying cards with Gold",
    PLAY: "both sides are choosing a card to play",
    INFANTRY_LOSS: "the Musketeers side is choosing which infantry to lose",
    RIFLING: "the Musketeers side is naming a unit type for Advanced Rifling",
}


@dataclass(frozen=True)
class Config:
    """The rule constants and the physical supply, read once from the data and shared by every state."""

    max_draw: int
    auto_win_ratio: int
    exchange_count: int
    gold_cost: int
    rifling_rounds: frozenset[int]
    cavalry_infantry_discards: int
    rout_ratio: int
    reinforcement_calls: int
    beats: Mapping[str, str]
    supply: tuple[str, ...]
    supply_by_type: Mapping[str, tuple[str, ...]]
    kind: Mapping[str, str]
    defaults: Mapping[str, Any]


REDEAL_TRIES = 200
"""How often `resample` deals at random before it builds a deal that can stand instead (`_arranged`): in random
battles one was found within 14 tries at worst (3,816 re-deals of positions in play; 1,350 of finished battles
within 1, 2026-11-26), so the built deal is for the rare position whose knowledge few deals meet."""

Pile = dict[str, list[str]]
"""Cards of one place, by type: copies of a type are interchangeable, so only counts matter to play."""


def _pile() -> Pile:
    return {PIKEMEN: [], MUSKETEERS: [], CAVALRY: []}


def _size(pile: Pile) -> int:
    return len(pile[PIKEMEN]) + len(pile[MUSKETEERS]) + len(pile[CAVALRY])


def _counts(pile: Pile) -> dict[str, int]:
    return {PIKEMEN: len(pile[PIKEMEN]), MUSKETEERS: len(pile[MUSKETEERS]), CAVALRY: len(pile[CAVALRY])}


def _names(types: list[str]) -> str:
    """'Pikemen, Musketeers and Cavalry': a list of types as a player reads it."""
    names = [TYPE_NAMES[t] for t in types]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


@lru_cache(maxsize=None)
def _choices(counts: tuple[int, int, int], size: int, allowed: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Every distinct choice of `size` cards by type, given (pikemen, musketeers, cavalry) counts."""
    have = dict(zip(TYPES, counts))
    out: list[tuple[str, ...]] = []

    def walk(i: int, left: int, chosen: tuple[str, ...]) -> None:
        if i == len(allowed) - 1:
            if have[allowed[i]] >= left:
                out.append(chosen + (allowed[i],) * left)
            return
        for n in range(min(left, have[allowed[i]]), -1, -1):
            walk(i + 1, left - n, chosen + (allowed[i],) * n)

    walk(0, size, ())
    return tuple(out)


def _key(pile: Pile) -> tuple[int, int, int]:
    return len(pile[PIKEMEN]), len(pile[MUSKETEERS]), len(pile[CAVALRY])


@lru_cache(maxsize=None)
def _action(kind: str, player: int, what: str | tuple[str, ...] | None = None) -> Action:
    """Shared action objects for legal_actions (actions are values; nobody mutates them)."""
    if what is None:
        return Action(kind, player, {})
    if isinstance(what, str):
        return Action(kind, player, {"type": what})
    return Action(kind, player, {"types": list(what)})


class ImperialState(State):
    """One position of a battle. Every card is in one place: the supply, a side's hand, a side's
    discard pile, or face down on the table; places hold cards by type (`Pile`)."""

    def __init__(self, cfg: Config, options: Mapping[str, Any]) -> None:
        self.cfg = cfg
        self.game_round: int = options["game_round"]
        self.rifling_by_game_round: bool = options["rifling_rounds_of"] == "game"
        first, second = options["initiative"]
        self.initiative: tuple[int, int] = (first, second)
        self.ip: list[int] = list(options["imperial_power"])
        self.gold: list[int] = list(options["gold"])
        self.marker: list[int] = list(options["reinforcements"])
        self.reserves: list[int] = [0, 0]
        self.supply: Pile = {t: list(cards) for t, cards in cfg.supply_by_type.items()}
        self.hands: list[Pile] = [_pile(), _pile()]
        self.discards: list[Pile] = [_pile(), _pile()]
        self.table: list[str | None] = [None, None]
        self.phase: str = EXCHANGE
        self.queue: list[int] = []
        self.battle_round: int = 0
        self.banned: list[bool] = [False, False]
        self.calls_left: list[int] = [cfg.reinforcement_calls] * 2
        self.exchanged: list[bool | None] = [None, None]
        self.bought: list[int] = [0, 0]
        self.called: list[list[str]] = [[], []]
        self.round: dict[str, Any] | None = None
        self.pending: int | None = None
        self.named: list[str] = []
        self.result: str | None = None
        self._winner: int | None = None
        self.routed: list[int] = []
        # What the opponent (and a spectator) knows of each side's hand and face-down card: types known to be there
        # (called back, or won back at a reveal), and types it was seen to lack since (R12). `resample` keeps both.
        self.known: list[list[str]] = [[], []]
        self.lacking: list[list[str]] = [[], []]
        # A side holds infantry the opponent has not seen (none of the cards known to be in its hand is infantry), until
        # the next reveal: its Cavalry lost to Pikemen and it was not routed (R10), or it chose to lose one infantry
        # of each type (R13: it had two of one type, so one is left).
        self.infantry_unseen: list[bool] = [False, False]

    # --- setup -------------------------------------------------------------------------

    def _setup(self, rng: random.Random) -> None:
        """R3-R5: automatic win, then the draw (rest to Reserves), then the exchange step."""
        for p in SIDES:
            mine, theirs = self.ip[p], self.ip[1 - p]
            if mine > theirs and mine >= self.cfg.auto_win_ratio * theirs:
                self._end(AUTOMATIC, [1 - p])
                return
        for p in self.initiative:
            drawn = min(self.ip[p], self.cfg.max_draw)
            self.reserves[p] = self.ip[p] - drawn
            self._draw(p, drawn, rng)
        k = self.cfg.exchange_count
        self.queue = [p for p in self.initiative if k > 0 and _size(self.hands[p]) >= k]
        if not self.queue:
            self._start_buying()

    def _draw(self, p: int, n: int, rng: random.Random) -> None:
        """`n` cards at random from the whole supply, one at a time (each card equally likely)."""
        supply, hand = self.supply, self.hands[p]
        pikes, muskets, horses = supply[PIKEMEN], supply[MUSKETEERS], supply[CAVALRY]
        for _ in range(n):
            r = int(rng.random() * (len(pikes) + len(muskets) + len(horses)))
            if r < len(pikes):
                hand[PIKEMEN].append(pikes.pop())
            elif r < len(pikes) + len(muskets):
                hand[MUSKETEERS].append(muskets.pop())
            else:
                hand[CAVALRY].append(horses.pop())

    def _start_buying(self) -> None:
        self.phase = BUY
        self.queue = list(self.initiative)
        self._skip_buyers()

    def _can_buy(self, p: int) -> bool:
        return self.gold[p] >= self.cfg.gold_cost and _size(self.supply) > 0

    def _skip_buyers(self) -> None:
        """R6-R7: a side with too little Gold, or facing an empty supply, is not asked."""
        while self.queue and not self._can_buy(self.queue[0]):
            self.queue.pop(0)
        if not self.queue:
            self._begin_fight()

    def _begin_fight(self) -> None:
        """R16: a side with no cards when the fight would start has already run out."""
        self.queue = []
        self.battle_round = 1
        empty = [p for p in SIDES if not _size(self.hands[p])]
        if empty:
            self._end(ROUT, empty)
        else:
            self.phase = PLAY

    @property
    def advanced_rifling(self) -> bool:
        """Whether a Musketeers win now costs the Pikemen side an extra card: in battle rounds 4-5 by the
        seed's own use of "round", or in game rounds 4-5 with the `rifling_rounds_of` option (R11)."""
        return (self.game_round if self.rifling_by_game_round else self.battle_round) in self.cfg.rifling_rounds

    # --- the shape every engine shares -------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """None while both sides pick at once (R9) and once the battle is over."""
        if self.phase in (OVER, PLAY):
            return None
        return self.players_to_act()[0]

    def players_to_act(self) -> list[int]:
        phase = self.phase
        if phase == OVER:
            return []
        if phase == PLAY:
            return [p for p in self.initiative if self.table[p] is None]
        if phase in (INFANTRY_LOSS, RIFLING):
            return [] if self.pending is None else [self.pending]
        return self.queue[:1]

    def _may_act(self, p: int) -> bool:
        phase = self.phase
        if phase == PLAY:
            return self.table[p] is None
        if phase in (INFANTRY_LOSS, RIFLING):
            return self.pending == p
        return bool(self.queue) and self.queue[0] == p

    @property
    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def winner(self) -> int | None:
        return self._winner

    def legal_actions(self, player: int | None = None) -> list[Action]:
        if self.phase == PLAY:  # the most frequent step, kept short for bulk simulation
            plays: list[Action] = []
            for p in self.initiative:
                if self.table[p] is None and (player is None or p == player):
                    hand, banned = self.hands[p], self.banned[p]
                    plays.extend(_action("play", p, t) for t in TYPES if hand[t] and not (banned and t == CAVALRY))
                    if self.may_call(p):
                        plays.extend(self._calls(p))
            return plays
        actions: list[Action] = []
        for p in self.players_to_act():
            if player is None or p == player:
                actions.extend(self._legal_for(p))
        return actions

    def _legal_for(self, p: int) -> list[Action]:
        phase = self.phase
        if phase == EXCHANGE:
            choices = _choices(_key(self.hands[p]), self.cfg.exchange_count, TYPES)
            return [_action("pass", p)] + [_action("exchange", p, c) for c in choices]
        if phase == BUY:
            return [_action("buy", p, t) for t in TYPES if self.supply[t]] + [_action("pass", p)]
        if phase == INFANTRY_LOSS:
            choices = _choices(_key(self.hands[p]), self.cfg.cavalry_infantry_discards, INFANTRY)
            return [_action("discard_infantry", p, c) for c in choices]
        return [_action("name_type", p, t) for t in TYPES if t not in self.named]

    def may_call(self, p: int) -> bool:
        """R15, R20: side `p` may call for reinforcements now, before choosing its card. Decided from open
        information only (the round, the side's calls left, its marker, its discard pile and whether its card
        is down), so that a phone offers the call tells the opponent nothing they cannot already see."""
        return (self.phase == PLAY and self.battle_round > 1 and self.table[p] is None
                and self.calls_left[p] > 0 and self.marker[p] > 0 and _size(self.discards[p]) > 0)

    def _calls(self, p: int) -> list[Action]:
        """Every distinct call: 1 to marker cards from the side's own discard pile, by type."""
        pile = self.discards[p]
        key = _key(pile)
        most = min(self.marker[p], _size(pile))
        return [_action("reinforce", p, c) for n in range(1, most + 1) for c in _choices(key, n, TYPES)]

    # --- verify ------------------------------------------------------------------------

    def verify(self, action: Action) -> None:
        p = action.player
        if self.phase == OVER:
            raise Refusal("The battle is over.")
        if p not in SIDES:
            raise Refusal(f"A battle has two sides, 0 and 1; there is no side {p}.")
        kind = KINDS.get(action.kind)
        if kind is None:
            raise Refusal(f"'{action.kind}' is not a move in an Imperial battle "
                          f"(moves: {', '.join(KINDS)}).")
        if self.phase not in kind.phases:
            raise Refusal(f"You cannot {kind.verb} now: {WAITING[self.phase]}.")
        if not self._may_act(p):
            raise Refusal(self._not_your_turn(p, action.kind))
        kind.verify(self, action)

    def _not_your_turn(self, p: int, kind: str) -> str:
        if self.phase == PLAY and kind == "reinforce":
            return "Call for reinforcements before you choose your card: yours is already face down this round."
        if self.phase == PLAY:
            return "You have already chosen a card this round; wait for your opponent."
        if self.phase == BUY and p not in self.queue:
            if self.gold[p] < self.cfg.gold_cost:
                return f"A card costs {self.cfg.gold_cost} Gold and you have {self.gold[p]}."
            return "You have already finished buying."
        if self.phase == EXCHANGE and p not in self.queue:
            if _size(self.hands[p]) < self.cfg.exchange_count:
                return f"You need {self.cfg.exchange_count} cards in hand to exchange."
            return "You have already decided whether to exchange."
        return "It is your opponent's turn."

    @staticmethod
    def _type_arg(action: Action) -> str:
        value = action.get("type")
        if value not in TYPES:
            raise Refusal(f"Choose a unit type: pikemen, musketeers or cavalry (not {value!r}).")
        return str(value)

    @staticmethod
    def _types_arg(action: Action) -> list[str]:
        value = action.get("types")
        if not isinstance(value, list) or any(t not in TYPES for t in value):
            raise Refusal(f'Say which cards as a list of unit types, such as ["pikemen", "cavalry"] (not {value!r}).')
        return value

    @staticmethod
    def _need(pile: Pile, types: list[str], where: str) -> None:
        for t in TYPES:
            wanted, have = types.count(t), len(pile[t])
            if wanted > have:
                raise Refusal(f"You asked for {wanted} {TYPE_NAMES[t]} but your {where} holds {have}.")

    def _verify_pass(self, action: Action) -> None:
        """Declining is always allowed in the steps that offer it."""

    def _verify_exchange(self, action: Action) -> None:
        types = self._types_arg(action)
        k = self.cfg.exchange_count
        if len(types) != k:
            raise Refusal(f"Exchange exactly {k} cards, or pass to keep your hand.")
        self._need(self.hands[action.player], types, "hand")

    def _verify_buy(self, action: Action) -> None:
        t = self._type_arg(action)
        if not self.supply[t]:
            raise Refusal(f"There are no {TYPE_NAMES[t]} left in the supply.")

    def _verify_play(self, action: Action) -> None:
        t = self._type_arg(action)
        p = action.player
        if t == CAVALRY and self.banned[p]:
            raise Refusal("Your Cavalry may not play this round: Pikemen beat it last round.")
        if not self.hands[p][t]:
            raise Refusal(f"You have no {TYPE_NAMES[t]} in your hand.")

    def _verify_discard_infantry(self, action: Action) -> None:
        types = self._types_arg(action)
        k = self.cfg.cavalry_infantry_discards
        if len(types) != k or CAVALRY in types:
            raise Refusal(f"Discard exactly {k} infantry cards (Pikemen or Musketeers).")
        self._need(self.hands[action.player], types, "hand")

    def _verify_name_type(self, action: Action) -> None:
        t = self._type_arg(action)
        if t in self.named:
            raise Refusal(f"Your opponent has already said he has no {TYPE_NAMES[t]}; name another type.")

    def _verify_reinforce(self, action: Action) -> None:
        types = self._types_arg(action)
        p = action.player
        if self.calls_left[p] == 0:
            raise Refusal("You have already called for reinforcements in this battle.")
        if self.marker[p] == 0:
            raise Refusal("Your Reinforcement marker shows 0: you have no reinforcements to call.")
        if self.battle_round == 1:
            raise Refusal("Reinforcements come after a round of battle, and none has been fought yet.")
        if not _size(self.discards[p]):
            raise Refusal("Your discard pile is empty: there is nothing to call back.")
        if not types:
            raise Refusal("Call back at least one card, or just choose your card.")
        if len(types) > self.marker[p]:
            n = self.marker[p]
            raise Refusal(f"Your Reinforcement marker allows at most {n} card{'s' if n != 1 else ''}.")
        self._need(self.discards[p], types, "discard pile")

    # --- apply -------------------------------------------------------------------------

    def _apply(self, action: Action, rng: random.Random) -> None:
        KINDS[action.kind].apply(self, action, rng)

    def _do_pass(self, action: Action, rng: random.Random) -> None:
        if self.phase == EXCHANGE:
            self.exchanged[action.player] = False
        self.queue.pop(0)
        self._next_in_queue()

    def _next_in_queue(self) -> None:
        if self.phase == EXCHANGE:
            if not self.queue:
                self._start_buying()
        else:
            self._skip_buyers()

    def _do_exchange(self, action: Action, rng: random.Random) -> None:
        """R5: the exchanged cards go face up to the side's own discard pile; replacements come from the supply."""
        p = action.player
        hand, pile = self.hands[p], self.discards[p]
        for t in action["types"]:
            pile[t].append(hand[t].pop())
        before = _key(hand)
        self._draw(p, len(action["types"]), rng)
        if self.telling is not None:
            drawn = [t for t, a, b in zip(TYPES, before, _key(hand)) for _ in range(b - a)]
            self.tell(f"{seat(p)} drew {len(drawn)} cards from the supply", {p: f"{seat(p)} drew {_names(drawn)}"})
        self.exchanged[p] = True
        self.queue.pop(0)
        self._next_in_queue()

    def _do_buy(self, action: Action, rng: random.Random) -> None:
        """R6: one card of the buyer's chosen type, for gold_cost Gold; he may keep buying."""
        p, t = action.player, action["type"]
        self.hands[p][t].append(self.supply[t].pop())
        self.gold[p] -= self.cfg.gold_cost
        self.bought[p] += 1
        self._skip_buyers()

    def _do_play(self, action: Action, rng: random.Random) -> None:
        p = action.player
        self.table[p] = self.hands[p][action["type"]].pop()
        if self.table[0] is not None and self.table[1] is not None:
            self._resolve()

    def _resolve(self) -> None:
        """R9-R14: reveal both cards and settle the round; some outcomes wait for a decision."""
        kind = self.cfg.kind
        first, second = self.table
        if first is None or second is None:
            raise ValueError("a round is resolved only once both cards are down")
        cards = [first, second]
        played = [kind[first], kind[second]]
        self.table = [None, None]
        if self.telling is not None:
            a, b = TYPE_NAMES[played[0]], TYPE_NAMES[played[1]]
            if played[0] == played[1]:
                result = "a tie: both cards are lost"
            else:
                w = 0 if self.cfg.beats[played[0]] == played[1] else 1
                result = f"{TYPE_NAMES[played[w]]} beat {TYPE_NAMES[played[1 - w]]}"
            self.tell(f"Battle round {self.battle_round}: cards revealed, {seat(0)} played {a} and "
                      f"{seat(1)} played {b}; {result}", reveals="both face-down cards")
        for p in SIDES:
            self._unknown(p, played[p])
        self.banned = [False, False]
        self.infantry_unseen = [False, False]
        self.round = {"number": self.battle_round, "played": played, "lost": [[], []],
                      "returned": [None, None], "lacked": [], "cavalry_banned": None}
        if played[0] == played[1]:
            self._lose(0, cards[0])
            self._lose(1, cards[1])
            self._finish_round([])
            return
        w = 0 if self.cfg.beats[played[0]] == played[1] else 1
        loser = 1 - w
        self._lose(loser, cards[loser])
        self.hands[w][played[w]].append(cards[w])
        self.known[w].append(played[w])
        self.round["returned"][w] = played[w]
        hand = self.hands[loser]
        if played[w] == PIKEMEN:
            self.banned[loser] = True
            self.round["cavalry_banned"] = loser
            only_cavalry = bool(hand[CAVALRY]) and not hand[PIKEMEN] and not hand[MUSKETEERS]
            if only_cavalry:  # routed at once: everyone now knows the hand held no infantry
                self.lacking[loser] += [t for t in INFANTRY if t not in self.lacking[loser]]
            else:  # a hand left standing held infantry, if it held anything (an empty hand is out, R17)
                self.infantry_unseen[loser] = _size(hand) > 0 and not any(t in INFANTRY for t in self.known[loser])
            self._finish_round([loser] if only_cavalry else [])
        elif played[w] == MUSKETEERS:
            if self.advanced_rifling and _size(hand):
                self.phase, self.pending, self.named = RIFLING, w, []
            else:
                self._finish_round([])
        else:
            need = self.cfg.cavalry_infantry_discards
            if len(hand[PIKEMEN]) + len(hand[MUSKETEERS]) < need:
                self._finish_round([loser])
                return
            choices = _choices(_key(hand), need, INFANTRY)
            if len(choices) == 1:  # open to both: the hand held no other way to lose them (R13)
                self.lacking[loser] += [t for t in INFANTRY if len(set(choices[0])) > 1 or t not in choices[0]]
                self._lose_infantry(loser, choices[0])
            else:
                self.phase, self.pending = INFANTRY_LOSS, loser

    def _unknown(self, p: int, t: str) -> None:
        """A card of type `t` left side `p`'s hand in the open: one fewer of that type is known to be there."""
        if t in self.known[p]:
            self.known[p].remove(t)

    def _this_round(self) -> dict[str, Any]:
        """The record of the round being settled (there is one from the first reveal on)."""
        if self.round is None:
            raise ValueError("no round has been fought yet")
        return self.round

    def _lose(self, p: int, card: str) -> None:
        t = self.cfg.kind[card]
        self.discards[p][t].append(card)
        self._this_round()["lost"][p].append(t)

    def _lose_infantry(self, p: int, types: tuple[str, ...] | list[str]) -> None:
        """R13-R14: the extra infantry go, then the Cavalry side's card count may rout the loser."""
        hand = self.hands[p]
        for t in types:
            self._lose(p, hand[t].pop())
            self._unknown(p, t)
        self.tell(f"{seat(p)} lost {_names(list(types))} to the Cavalry")
        rout = _size(self.hands[1 - p]) >= self.cfg.rout_ratio * _size(hand)
        self._finish_round([p] if rout else [])

    def _do_discard_infantry(self, action: Action, rng: random.Random) -> None:
        """A chosen loss (the hand had more than one way, R13): one of a single type means the other type is in hand;
        one of each means two of one type were there, so an infantry card is left (unseen, unless one is known)."""
        p, types = action.player, action["types"]
        if len(set(types)) == 1:
            self.known[p] += [t for t in INFANTRY if t not in types and t not in self.known[p]]
        self._lose_infantry(p, types)
        if len(set(types)) > 1:
            self.infantry_unseen[p] = not any(t in INFANTRY for t in self.known[p])

    def _do_name_type(self, action: Action, rng: random.Random) -> None:
        self._rifle(1 - action.player, action["type"])

    def _rifle(self, target: int, t: str) -> None:
        """R12: a named type the Pikemen side holds is lost; otherwise he says so and another is named."""
        hand = self.hands[target]
        self.tell(f"{seat(1 - target)} named {TYPE_NAMES[t]}: {seat(target)} "
                  + (f"lost one {TYPE_NAMES[t]}" if hand[t] else f"has no {TYPE_NAMES[t]}"),
                  reveals="what a hand holds")
        if hand[t]:
            self._lose(target, hand[t].pop())
            self._unknown(target, t)
            self._finish_round([])
            return
        self.lacking[target].append(t)
        self.named.append(t)
        self._this_round()["lacked"].append(t)
        left = [u for u in TYPES if u not in self.named]
        if len(left) == 1:
            self._rifle(target, left[0])

    def _finish_round(self, routs: list[int]) -> None:
        """R15-R17, R20: routs and running out are settled at once; otherwise the next round begins, and a
        call for reinforcements is made in it, before a side chooses its card (nobody is asked)."""
        self.pending = None
        out = sorted(set(routs) | {p for p in SIDES if not _size(self.hands[p])})
        if out:
            self._end(ROUT, out)
            return
        self.battle_round += 1
        self.phase = PLAY

    def _do_reinforce(self, action: Action, rng: random.Random) -> None:
        """R15, R20: chosen cards come back from the side's own discard pile to its hand, shown; an opponent
        whose card is already face down takes it back and chooses again, knowing the call."""
        p, o = action.player, 1 - action.player
        types = sorted(action["types"], key=TYPES.index)
        for t in types:
            self.hands[p][t].append(self.discards[p][t].pop())
        self.calls_left[p] -= 1
        self.called[p] = self.called[p] + types
        self.known[p] = self.known[p] + types
        down = self.table[o]
        if down is not None:
            t = self.cfg.kind[down]
            self.hands[o][t].append(down)
            self.table[o] = None
            self.tell(f"{seat(o)} takes their face-down card back to choose again, knowing the reinforcements",
                      {o: f"{seat(o)} takes their {TYPE_NAMES[t]} back to choose again, knowing the reinforcements"})

    def _end(self, result: str, losers: list[int]) -> None:
        """R16-R17: one side out loses; both out at once is Inconclusive (no winner)."""
        if len(losers) == 1:
            self.tell(f"{seat(losers[0])} is routed; {seat(1 - losers[0])} wins the battle")
        else:
            self.tell("Both sides are out: the battle is inconclusive")
        self.phase = OVER
        self.queue = []
        self.pending = None
        self.routed = losers if result == ROUT else []
        if len(losers) == 1:
            self.result, self._winner = result, 1 - losers[0]
        else:
            self.result, self._winner = INCONCLUSIVE, None

    # --- what players see --------------------------------------------------------------

    def cards(self) -> list[str]:
        """Every physical card id, wherever it is (for checks that nothing is lost or doubled)."""
        places = [self.supply, *self.hands, *self.discards]
        out = [card for pile in places for t in TYPES for card in pile[t]]
        return out + [c for c in self.table if c is not None]

    def view(self, player: int | None) -> dict[str, Any]:
        """Hands and face-down picks are shown only to their owner (R8-R9); the rest is public."""
        sides = []
        for p in SIDES:
            own = player == p
            picked = self.table[p]
            sides.append({
                "imperial_power": self.ip[p],
                "reserves": self.reserves[p],
                "gold": self.gold[p],
                "reinforcement_marker": self.marker[p],
                "reinforcement_calls_left": self.calls_left[p],
                "hand_count": _size(self.hands[p]),
                "hand": _counts(self.hands[p]) if own else None,
                "discard": _counts(self.discards[p]),
                "exchanged": self.exchanged[p],
                "bought": self.bought[p],
                "reinforcements_shown": list(self.called[p]),
                "has_chosen": picked is not None,
                "choice": self.cfg.kind[picked] if own and picked is not None else None,
                "cavalry_banned": self.banned[p],
            })
        rnd = self.round
        return {
            "game": "imperial",
            "phase": self.phase,
            "game_round": self.game_round,
            "advanced_rifling": self.advanced_rifling,
            "rifling_rounds_of": "game" if self.rifling_by_game_round else "battle",
            "battle_round": self.battle_round,
            "initiative": list(self.initiative),
            "to_act": self.players_to_act(),
            "supply_count": _size(self.supply),
            "sides": sides,
            "last_round": None if rnd is None else {
                "number": rnd["number"], "played": list(rnd["played"]),
                "lost": [list(x) for x in rnd["lost"]], "returned": list(rnd["returned"]),
                "lacked": list(rnd["lacked"]), "cavalry_banned": rnd["cavalry_banned"]},
            "result": self.result,
            "winner": self._winner,
            "routed": list(self.routed),
        }

    def narrate(self, action: Action) -> list[Told]:
        """The action as each side reads it (each kind's words); losing infantry and naming a type are told as
        they happen."""
        kind = KINDS.get(action.kind)
        return [] if kind is None else kind.told(self, action)

    def opening(self) -> list[Told]:
        if self.phase == OVER and self._winner is not None:
            return [Told(f"{seat(self._winner)} wins automatically: their Imperial Power is overwhelming")]
        drawn = {p: f"{seat(p)} drew {_names([t for t in TYPES for _ in self.hands[p][t]]) or 'nothing'}" for p in SIDES}
        return [Told("Both sides drew their cards from the supply", drawn)]

    def task(self, player: int) -> str:
        if self.may_call(player):  # open information only (R20): the opponent may read it
            return "choose a card to play face down, or call for reinforcements first"
        return TASKS.get(self.phase, "wait")

    def label(self, action: Action) -> str:
        kind = KINDS.get(action.kind)
        return str(action) if kind is None else kind.label(self, action)

    def resample(self, viewer: int | None, rng: random.Random) -> ImperialState:
        """Hands and face-down cards hidden from `viewer` dealt again from the cards it has not seen (the supply and
        those hidden cards), keeping the types known to be there and none of a type seen to be lacking (R12, R13).

        A deal the rules would not have let stand is dealt again (rejection, so every deal that could stand stays as
        likely as before): a side not routed after Pikemen beat its Cavalry held infantry (R10), a side choosing
        which infantry to lose has more than one way to, and one that chose one of each type has infantry left (R13),
        and a face-down card is one its side could play.
        After REDEAL_TRIES random deals the deal is built from the deals that can stand (`_arranged`), so a bot
        never stops a table; the real deal is never read."""
        return self.redeal(viewer, rng, REDEAL_TRIES)

    def redeal(self, viewer: int | None, rng: random.Random, tries: int) -> ImperialState:
        """`resample` with `tries` random deals before the built one (0: built at once, as tests force it)."""
        new = self.clone()
        kind = self.cfg.kind
        order = {t: i for i, t in enumerate(TYPES)}
        hidden = [p for p in SIDES if p != viewer]
        pool = [c for t in TYPES for c in new.supply[t]]
        kept: dict[int, list[str]] = {}
        for p in hidden:
            known = list(new.known[p])
            kept[p] = []
            down = new.table[p]
            for card in [c for t in TYPES for c in new.hands[p][t]] + ([down] if down is not None else []):
                if kind[card] in known:
                    known.remove(kind[card])
                    kept[p].append(card)
                else:
                    pool.append(card)
        pool.sort(key=lambda c: (order[kind[c]], c))  # where the cards lay must not show through
        for _ in range(tries):
            rng.shuffle(pool)
            dealt = self._deal(pool, kept, hidden, rng)
            if dealt is not None:
                break
        else:
            arranged = self._arranged(pool, kept, hidden, rng)
            if arranged is None:
                LOG.error("imperial: no deal of the cards hidden from %s can stand (known %s, lacking %s, phase %s); "
                          "dealt without what is known of the hands", "a spectator" if viewer is None else
                          f"side {viewer}", self.known, self.lacking, self.phase)
                rng.shuffle(pool)
            else:
                pool = arranged
            dealt = self._deal(pool, kept, hidden, rng, checked=arranged is not None)
            assert dealt is not None  # an arranged pool deals a hand that stands; an unchecked deal always deals
        for p, (hand, down) in dealt.items():
            new.hands[p] = _pile()
            for card in hand:
                new.hands[p][kind[card]].append(card)
            new.table[p] = down
        held = {c for hand, down in dealt.values() for c in [*hand, down]}
        new.supply = _pile()
        for card in pool:
            if card not in held:
                new.supply[kind[card]].append(card)
        return new

    def _deal(self, pool: list[str], kept: dict[int, list[str]], hidden: list[int], rng: random.Random,
              checked: bool = True) -> dict[int, tuple[list[str], str | None]] | None:
        """Each hidden side's hand and face-down card, its kept cards and the next of `pool` it may hold; None when
        the deal is one the rules would not have let stand (`_stands`). Unchecked, each side takes the next cards
        of `pool` whatever their type (for knowledge that contradicts itself: `resample`)."""
        kind, order = self.cfg.kind, {t: i for i, t in enumerate(TYPES)}
        taken: set[str] = set()
        dealt: dict[int, tuple[list[str], str | None]] = {}
        for p in hidden:
            down = self.table[p]
            lacking = set(self.lacking[p]) if checked else set()
            want = _size(self.hands[p]) + (down is not None) - len(kept[p])
            free = [c for c in pool if c not in taken and kind[c] not in lacking][:want]
            taken.update(free)
            cards = kept[p] + free
            if checked and (len(free) < want or not self._stands(p, [kind[c] for c in cards], [kind[c] for c in free])):
                return None
            if down is not None:
                playable = [c for c in cards if not (self.banned[p] and kind[c] == CAVALRY)] or cards
                down = rng.choice(sorted(playable, key=lambda c: (order[kind[c]], c)))
                cards = [c for c in cards if c != down]
            dealt[p] = (cards, down)
        return dealt

    def _stands(self, p: int, held: list[str], unseen: list[str]) -> bool:
        """Whether side `p` holding the types `held` (its hand and face-down card), `unseen` of them among the cards
        the viewer has not seen, is a hand the rules would have let stand (`resample`)."""
        if self.infantry_unseen[p] and unseen and all(t == CAVALRY for t in unseen):
            return False  # R10, R13: not routed after Pikemen beat its Cavalry, or left infantry after a chosen loss
        if self.phase == INFANTRY_LOSS and self.pending == p:  # R13: more than one way to lose two infantry
            counts = held.count(PIKEMEN), held.count(MUSKETEERS), held.count(CAVALRY)
            if len(_choices(counts, self.cfg.cavalry_infantry_discards, INFANTRY)) < 2:
                return False
        banned_only = self.banned[p] and all(t == CAVALRY for t in held)
        return not (self.table[p] is not None and banned_only)  # a face-down card its side could play

    def _arranged(self, pool: list[str], kept: dict[int, list[str]],
                  hidden: list[int], rng: random.Random) -> list[str] | None:
        """`pool` in an order from whose front `_deal` deals a hand that stands, drawn among all such deals alike
        (as the rejection draws them, for a seat's view: one hidden side), built from the types each side could be
        dealt, each weighed by the number of ways its cards can be picked; None when no deal stands (what is known of
        the hands contradicts itself)."""
        kind = self.cfg.kind
        by_type = {t: [c for c in pool if kind[c] == t] for t in TYPES}

        def splits(p: int, left: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
            """The type counts side `p`'s unseen cards may have, from `left` of each type, with their ways."""
            allowed = tuple(t for t in TYPES if t not in self.lacking[p])
            want = _size(self.hands[p]) + (self.table[p] is not None) - len(kept[p])
            found = _choices((left[0], left[1], left[2]), want, allowed) if allowed else ((),) if want == 0 else ()
            held = [kind[c] for c in kept[p]]
            return [(counts, prod(comb(n, k) for n, k in zip(left, counts))) for choice in found
                    if self._stands(p, held + list(choice), list(choice))
                    for counts in [tuple(choice.count(t) for t in TYPES)]]

        deals: list[tuple[tuple[tuple[int, ...], ...], int]] = [((), 1)]
        for p in hidden:
            deals = [((*so_far, counts), ways * more) for so_far, ways in deals
                     for counts, more in splits(p, tuple(len(by_type[t]) - sum(c[i] for c in so_far)
                                                         for i, t in enumerate(TYPES)))]
        if not deals:
            return None
        chosen = rng.choices([d for d, _ in deals], [w for _, w in deals])[0]
        for cards in by_type.values():
            rng.shuffle(cards)
        front: list[str] = []
        for counts in chosen:
            for t, n in zip(TYPES, counts):
                front += by_type[t][:n]
                del by_type[t][:n]
        return front + [c for t in TYPES for c in by_type[t]]

    def clone(self) -> ImperialState:
        """A copy sharing only the immutable Config (faster than deepcopy for search and tests)."""
        new = object.__new__(ImperialState)
        new.__dict__.update(self.__dict__)
        for name in ("ip", "gold", "marker", "reserves", "table", "queue", "banned", "infantry_unseen",
                     "calls_left", "exchanged", "bought", "named", "routed"):
            setattr(new, name, list(getattr(self, name)))
        new.supply = {t: list(cs) for t, cs in self.supply.items()}
        new.hands = [{t: list(cs) for t, cs in h.items()} for h in self.hands]
        new.discards = [{t: list(cs) for t, cs in d.items()} for d in self.discards]
        new.called = [list(c) for c in self.called]
        new.known = [list(k) for k in self.known]
        new.lacking = [list(k) for k in self.lacking]
        if self.round is not None:
            new.round = {**self.round, "played": list(self.round["played"]),
                         "lost": [list(x) for x in self.round["lost"]],
                         "returned": list(self.round["returned"]), "lacked": list(self.round["lacked"])}
        return new


def _kept_or_stopped(state: ImperialState, action: Action) -> list[Told]:
    who = seat(action.player)
    return [Told(f"{who} kept their hand" if state.phase == EXCHANGE else f"{who} stopped buying")]


def _bought(state: ImperialState, action: Action) -> list[Told]:
    """Which type was bought is the buyer's alone (R6)."""
    p, who, cost = action.player, seat(action.player), state.cfg.gold_cost
    return [Told(f"{who} bought a card for {cost} Gold",
                 {p: f"{who} bought {TYPE_NAMES[action['type']]} for {cost} Gold"})]


def _chosen(state: ImperialState, action: Action) -> list[Told]:
    """A card laid face down is its owner's alone until both are turned up (R9)."""
    p, who = action.player, seat(action.player)
    return [Told(f"{who} chose a card", {p: f"{who} chose {TYPE_NAMES[action['type']]} (face down)"})]


def _told_later(state: ImperialState, action: Action) -> list[Told]:
    """Told as it happens, by the action's effect."""
    return []


_TYPES_ARG = Arg(list[str], 'a list of unit types, such as ["pikemen", "cavalry"]')
_TYPE_ARG = Arg(str, "a unit type: pikemen, musketeers or cavalry")
KINDS: dict[str, Kind[ImperialState]] = {
    "exchange": Kind(
        {"types": _TYPES_ARG}, ImperialState._verify_exchange, ImperialState._do_exchange,
        lambda state, action: f"Exchange {_names(list(action['types']))}",
        lambda state, action: [Told(f"{seat(action.player)} discarded {_names(list(action['types']))} "
                                    "to exchange them")],
        phases=(EXCHANGE,), verb="exchange cards"),
    "buy": Kind(
        {"type": _TYPE_ARG}, ImperialState._verify_buy, ImperialState._do_buy,
        lambda state, action: f"Buy {TYPE_NAMES[action['type']]} for {state.cfg.gold_cost} Gold", _bought,
        phases=(BUY,), verb="buy cards"),
    "pass": Kind(
        {}, ImperialState._verify_pass, ImperialState._do_pass,
        lambda state, action: "Keep your hand" if state.phase == EXCHANGE else "Stop buying", _kept_or_stopped,
        phases=(EXCHANGE, BUY), verb="pass"),
    "play": Kind(
        {"type": _TYPE_ARG}, ImperialState._verify_play, ImperialState._do_play,
        lambda state, action: f"Play {TYPE_NAMES[action['type']]}", _chosen, phases=(PLAY,), verb="play a card"),
    "discard_infantry": Kind(
        {"types": _TYPES_ARG}, ImperialState._verify_discard_infantry, ImperialState._do_discard_infantry,
        lambda state, action: f"Lose {_names(list(action['types']))}", _told_later,
        phases=(INFANTRY_LOSS,), verb="discard infantry"),
    "name_type": Kind(
        {"type": _TYPE_ARG}, ImperialState._verify_name_type, ImperialState._do_name_type,
        lambda state, action: f"Name {TYPE_NAMES[action['type']]}", _told_later,
        phases=(RIFLING,), verb="name a unit type"),
    "reinforce": Kind(
        {"types": _TYPES_ARG}, ImperialState._verify_reinforce, ImperialState._do_reinforce,
        lambda state, action: f"Call back {_names(list(action['types']))}",
        lambda state, action: [Told(f"{seat(action.player)} called back "
                                    f"{_names(sorted(action['types'], key=TYPES.index))} from their discard pile")],
        phases=(PLAY,), verb="call for reinforcements"),
}
"""Every move of a battle: its arguments (a unit type or a list of them), legality, effect and words."""
ImperialState.ARGS = schema(KINDS)


class ImperialGame(Game[ImperialState]):
    """Rules and supply of Imperial battles; options are the battle's inputs from the empire game."""

    id = "imperial"

    def __init__(self, data: GameData) -> None:
        r = data.rules
        deck = data.deck("military")
        self.cfg = Config(
            max_draw=r.max_draw, auto_win_ratio=r.auto_win_ratio, exchange_count=r.exchange_count,
            gold_cost=r.gold_cost, rifling_rounds=frozenset(r.rifling_rounds),
            cavalry_infantry_discards=r.cavalry_infantry_discards, rout_ratio=r.rout_ratio,
            reinforcement_calls=r.reinforcement_calls, beats=r.beats.as_dict(),
            supply=tuple(c.id for c in deck),
            supply_by_type={t: tuple(c.id for c in deck if c.design_as(Military).type == t) for t in TYPES},
            kind={c.id: c.design_as(Military).type for c in deck}, defaults=r.default_options.model_dump())

    def options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The table's options over the data's defaults, checked."""
        self.check_options(options)
        merged = dict(self.cfg.defaults)
        merged.update(options)
        return merged

    def check_options(self, options: Mapping[str, Any]) -> None:
        for key in options:
            if key not in OPTION_KEYS:
                raise Refusal(f"Unknown battle option '{key}' (known: {', '.join(OPTION_KEYS)}).")
        for key, what in (("imperial_power", "Imperial Power"), ("gold", "Gold"),
                          ("reinforcements", "Reinforcement marker")):
            if key in options and not _pair(options[key]):
                raise Refusal(f"{key} must give each side's {what} as two whole numbers of 0 or more, "
                              f"like [6, 4] (not {options[key]!r}).")
        if "initiative" in options:
            value = options["initiative"]
            if not _pair(value) or sorted(value) != [0, 1]:
                raise Refusal(f"initiative must list the two sides in order, [0, 1] or [1, 0] (not {value!r}).")
        if "game_round" in options:
            value = options["game_round"]
            if not _whole(value) or value < 1:
                raise Refusal(f"game_round must be a whole number of 1 or more (not {value!r}).")
        if options.get("rifling_rounds_of", "battle") not in ("battle", "game"):
            raise Refusal(f"rifling_rounds_of is 'battle' (the seed's reading) or 'game' "
                          f"(not {options['rifling_rounds_of']!r}).")

    def new_state(self, rng: random.Random, options: Mapping[str, Any]) -> ImperialState:
        state = ImperialState(self.cfg, self.options(options))
        state._setup(rng)
        return state


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _pair(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and len(value) == 2 and all(_whole(v) and v >= 0 for v in value)


def make_game(data: GameData) -> ImperialGame:
    return ImperialGame(data)
