"""Waterloo: play like poker, feel like Waterloo (rulings in docs/rules/waterloo.md).

One `WaterlooState` runs a whole game: hand after hand of ante, deal, betting rounds with
drawing turns between them, reserve swap, showdown and Scout burns, until one player holds every
chip. Bets stay in front of their owners until the hand is settled (R15), raises are capped
so nobody is ever forced short (R4), and the draw pile, reserves and community cards live
across hands (R18, R19). Every physical card is always in exactly one place.

Options: `players` (2-6), `return_after` (one of rules.return_after_options), `button` (seat),
`starting_chips`, `betting_rounds` (one of rules.betting_rounds_options: 4, a round before each
drawing turn and the final one, R4; or 2), `cards` ("app": the engine deals every card; "table":
players hold printed cards and the engine keeps chips, bets and the showdown, R23-R27).
Actions, by phase:
- bet: `pass`, `call`, `raise(amount=chips above the highest bet)`, `fold`
- draw (app cards): `draw`, then `keep` or `exchange(card=hand card id, community=community card id)`
- swap (app cards): `swap(card=hand card id, slot="up"|"down")` or `stand`
- reveal (printed cards, simultaneous): `reveal(cards=[5 design ids], scout_down=bool)`, `retract`
- scout: `burn_scout` or `pay`
- any time, any seat still in: `concede` (the player leaves; the others play on, R30)
With printed cards the hands are the players' own, far too many to list, so `legal_actions`
offers no reveal; the companion builds it from the card designs.
`explain(game_or_data, hand)` and `combo_odds(data)` serve the companion and the generator.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from cards.load import GameData
from cards.schemas.waterloo import Card
from engine.core import LEAVE, Action, Arg, Game, Refusal, State, Told, act, redeal, seat
from engine.kinds import Kind, schema
from engine.waterloo_hands import Evaluator, Explanation, Score
from engine.waterloo_odds import combo_odds

BET, DRAW, SWAP, REVEAL, SCOUT, OVER = "bet", "draw", "swap", "reveal", "scout", "over"
PHASE_HINTS = {
    BET: "betting is under way: pass, call, raise or fold",
    DRAW: "it is the drawing turn: draw, then keep or exchange",
    SWAP: "it is the reserve swap: swap a card or stand",
    REVEAL: "the players still in are revealing their hands",
    SCOUT: "losers are deciding whether to burn a Scout",
}
TASKS = {
    BET: "bet: pass, call, raise or fold",
    DRAW: "draw a card, then keep it or exchange it with the community",
    SWAP: "swap a card with the reserve or stand",
    REVEAL: "enter the printed hand",
    SCOUT: "burn a face-down Scout or pay the full bet",
}
OPTION_KEYS = ("players", "return_after", "button", "starting_chips", "betting_rounds", "cards")
INT_OPTIONS = ("players", "return_after", "button", "starting_chips", "betting_rounds")
CARD_MODES = ("app", "table")
ENTERED = "the hands entered"
"""What the last hand entered with printed cards reveals: the showdown, or that the hands clash (R25)."""


class WaterlooGame(Game["WaterlooState"]):
    """Rules and deck for Waterloo; the evaluator is shared by every state it makes."""

    id = "waterloo"

    def __init__(self, data: GameData) -> None:
        self.data = data
        self.rules = data.rules
        self.evaluator = Evaluator(data)
        self.cards: tuple[str, ...] = tuple(c.id for c in data.deck())
        self.scouts = frozenset(c.id for c in data.deck() if c.design_as(Card).kind == "scout")
        self.officers = frozenset(c.id for c in data.deck() if c.design_as(Card).kind == "officer")
        self.names = {c.id: c.name for c in data.deck()}
        self.design_rows = {row.id: row for row in data.table("cards")}
        self.copies_of: dict[str, list[str]] = {}
        for c in data.deck():
            self.copies_of.setdefault(c.design.id, []).append(c.id)
        self.scout_design = next(row.id for row in self.design_rows.values() if row.kind == "scout")

    def explain(self, hand: list[str]) -> Explanation:
        """A five-card hand's combo, its cards in order of weight, and what each wild card stood for."""
        return self.evaluator.explain(hand)

    def options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options with defaults filled in: 2 players, the first return period, button at seat 0, the
        first betting-round count (the seed's four), app cards."""
        return {"players": int(options.get("players", self.data.min_players)),
                "return_after": int(options.get("return_after", self.rules.return_after_options[0])),
                "button": int(options.get("button", 0)),
                "starting_chips": int(options.get("starting_chips", self.rules.starting_chips)),
                "betting_rounds": int(options.get("betting_rounds", self.rules.betting_rounds_options[0])),
                "cards": options.get("cards", CARD_MODES[0])}

    def check_options(self, options: Mapping[str, Any]) -> None:
        for key in options:
            if key not in OPTION_KEYS:
                raise Refusal(f"Unknown table option '{key}' (known: {', '.join(OPTION_KEYS)}).")
        for key in INT_OPTIONS:
            if key in options and (isinstance(options[key], bool) or not isinstance(options[key], int)):
                raise Refusal(f"The table option '{key}' must be a whole number.")
        if options.get("cards", CARD_MODES[0]) not in CARD_MODES:
            raise Refusal(f"The table option 'cards' is 'app' (the app deals every card) or 'table' "
                          f"(you play with the printed cards), not {options['cards']!r}.")
        opts = self.options(options)
        low, high = self.data.min_players, self.data.max_players
        if not low <= opts["players"] <= high:
            raise Refusal(f"Waterloo is for {low} to {high} players, not {opts['players']}.")
        choices = self.rules.return_after_options
        if opts["return_after"] not in choices:
            raise Refusal(f"Reserves and community cards return after {', '.join(map(str, choices))} hands; "
                          f"{opts['return_after']} is not one of them.")
        rounds = self.rules.betting_rounds_options
        if opts["betting_rounds"] not in rounds:
            raise Refusal(f"A hand has {' or '.join(map(str, rounds))} betting rounds; "
                          f"{opts['betting_rounds']} is not one of them.")
        if not 0 <= opts["button"] < opts["players"]:
            raise Refusal(f"The button must sit at a seat from 0 to {opts['players'] - 1}.")
        if opts["starting_chips"] < 1:
            raise Refusal("Each player needs at least 1 chip to start.")

    def players(self, options: Mapping[str, Any]) -> int:
        return int(self.options(options)["players"])

    def new_state(self, rng: random.Random, options: Mapping[str, Any]) -> WaterlooState:
        self.check_options(options)
        return WaterlooState(self, self.options(options), rng)


SHARED = ("showdown", "last_result")
"""What a copy of a position shares with it: the showdown and the last result are each built whole within one action
and never changed after (a view hands out deep copies of them). So are the settled hands' records in `hand_log` and
the hands entered in `revealed` (each replaced whole, never changed), whose list and dict are copied."""


class WaterlooState(State):
    """A whole game of Waterloo, one decision at a time."""

    def __init__(self, game: WaterlooGame, options: dict[str, Any], rng: random.Random) -> None:
        self.game = game
        self.rules = game.rules
        n = options["players"]
        self.n = n
        self.table = options["cards"] == "table"
        self.return_after = options["return_after"]
        self.betting_rounds = options["betting_rounds"]
        self.button = options["button"]
        self.chips = [options["starting_chips"]] * n
        self.bets = [0] * n
        self.out = [False] * n
        self.left = [False] * n  # conceded and left the game (R30); a seat that left is also out
        self.folded = [False] * n
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.reserves: list[dict[str, str]] = [{} for _ in range(n)]
        self.community: list[str] = []
        self.discard: list[str] = []
        # Cards in the discard pile that went there face down (a folded or unshown hand, a knocked-out player's
        # face-down reserve), with the one seat that saw them; the rest of the pile was shown to everyone.
        self.mucked: dict[str, int] = {}
        self.deck: list[str] = [] if self.table else list(game.cards)
        rng.shuffle(self.deck)
        self.hand_number = 0
        self.hands_since_return = 0
        self.shuffles = 1
        self.phase = BET
        self.round = 1
        self.pending: list[int] = []
        self.raises = 0
        self.turn: int | None = None
        self.drawn: str | None = None
        self.swapped = [False] * n
        self.scout_queue: list[int] = []
        self.saved = [0] * n
        self.showdown: dict[str, Any] | None = None
        self.last_result: dict[str, Any] | None = None
        self.hand_log: list[dict[str, Any]] = []  # every settled hand, oldest first (`_hand_record`)
        self.revealed: dict[int, dict[str, Any]] = {}
        self.clash: str | None = None  # why the hands last entered were cleared (R25), until the showdown
        self.scout_choices: dict[int, str] = {}
        self.return_now = False
        if not self.table:
            self._deal_table()
        self._start_hand(rng)

    def clone(self) -> WaterlooState:
        """A copy without deepcopy: the game and `SHARED` are shared, every list and dict of cards, chips and seats is
        copied (hands and reserves one level down). A re-deal copies the position for each move button's question
        (`Match.ahead_refusal`) and each bot's trial; an attribute added to the class is copied here too if it is
        ever changed in place (tests/test_asked_first.py checks that no list or dict is shared but `SHARED`)."""
        other = object.__new__(WaterlooState)
        fields = self.__dict__.copy()
        fields["chips"] = self.chips[:]
        fields["bets"] = self.bets[:]
        fields["out"] = self.out[:]
        fields["left"] = self.left[:]
        fields["folded"] = self.folded[:]
        fields["hands"] = [hand[:] for hand in self.hands]
        fields["reserves"] = [reserve.copy() for reserve in self.reserves]
        fields["community"] = self.community[:]
        fields["discard"] = self.discard[:]
        fields["mucked"] = self.mucked.copy()
        fields["deck"] = self.deck[:]
        fields["pending"] = self.pending[:]
        fields["swapped"] = self.swapped[:]
        fields["scout_queue"] = self.scout_queue[:]
        fields["saved"] = self.saved[:]
        fields["hand_log"] = self.hand_log[:]
        fields["revealed"] = self.revealed.copy()
        fields["scout_choices"] = self.scout_choices.copy()
        other.__dict__ = fields
        return other

    # -- seats ------------------------------------------------------------------------------
    def _seats_after(self, seat: int) -> list[int]:
        """Every seat in turn order from `seat`'s left, `seat` last."""
        return [*range(seat + 1, self.n), *range(seat + 1)]

    def _live_after(self, seat: int) -> list[int]:
        """The seats still in the hand, in turn order from `seat`'s left (`seat` last, if it is still in)."""
        live = self._live()
        return [p for p in self._seats_after(seat) if p in live]

    def _live(self) -> list[int]:
        """Players in the current hand, in turn order from the left of the button."""
        return [p for p in self._seats_after(self.button) if not self.out[p] and not self.folded[p]]

    def _to_call(self, p: int) -> int:
        return max(self.bets) - self.bets[p]

    def _raise_cap(self) -> tuple[int, int]:
        """The largest raise every live player could match (R4), and the player who limits it."""
        top = max(self.bets)
        poorest = min(self._live(), key=lambda q: self.bets[q] + self.chips[q])
        return self.bets[poorest] + self.chips[poorest] - top, poorest

    # -- setup and hand flow ------------------------------------------------------------------
    def _deal_table(self) -> None:
        """Reserves (one card per slot) for every player still in, and the community cards (R19)."""
        for p in range(self.n):
            self.reserves[p] = {} if self.out[p] else {slot: self.deck.pop() for slot in self.rules.reserve_slots}
        self.community = [self.deck.pop() for _ in range(self.rules.community_cards)]

    def _reshuffle(self, rng: random.Random) -> None:
        self.deck += self.discard
        self.discard = []
        self.mucked = {}
        rng.shuffle(self.deck)
        self.shuffles += 1

    def _start_hand(self, rng: random.Random) -> None:
        """Ante and deal; with printed cards the app only antes and says when the table renews reserves (R26)."""
        self.return_now = self.hands_since_return >= self.return_after
        if self.return_now:
            if not self.table:
                for p in range(self.n):
                    self.deck += self.reserves[p].values()
                self.deck += self.community
                self._reshuffle(rng)
                self._deal_table()
            self.hands_since_return = 0
        self.hand_number += 1
        self.folded = [self.out[p] for p in range(self.n)]
        self.swapped = [False] * self.n
        self.saved = [0] * self.n
        self.showdown = None
        self.revealed, self.scout_choices, self.clash = {}, {}, None
        players = self._live()
        if not self.table and len(self.deck) < self.rules.hand_size * len(players):
            self._reshuffle(rng)
        for p in players:
            ante = min(self.rules.ante, self.chips[p])
            self.chips[p] -= ante
            self.bets[p] = ante
        if not self.table:
            for _ in range(self.rules.hand_cards_dealt):
                for p in players:
                    self.hands[p].append(self.deck.pop())
        if self.telling is not None:
            dealt = {p: f"Hand {self.hand_number} begins: {seat(p)} was dealt {self._card_list(self.hands[p])}" for p in players
                     if not self.table}
            self.tell(f"Hand {self.hand_number} begins", dealt, reveals="the cards dealt" if dealt else None)
        self._start_betting(1)

    def _start_betting(self, number: int) -> None:
        self.phase, self.round, self.raises = BET, number, 0
        self.pending = self._live()
        self.turn = None

    def _after_betting(self) -> None:
        """Each round but the last leads to drawing turns, the last to the reserve swap (R4).

        With printed cards the drawing turns and the swap happen at the table: each round but the
        last leads straight to the next and the last to the reveal (R24).
        """
        final = self.round >= self.betting_rounds
        if self.table:
            if final:
                self.phase, self.turn = REVEAL, None
            else:
                self._start_betting(self.round + 1)
            return
        self.phase = SWAP if final else DRAW
        self.turn = self._live()[0]

    def _draw_target(self) -> int:
        """How many cards each hand holds when the drawing turns after this betting round end: one
        draw each between rounds with four rounds, all three with two (R4, R5)."""
        rules = self.rules
        per_gap = (rules.hand_size - rules.hand_cards_dealt) // (self.betting_rounds - 1)
        return int(min(rules.hand_size, rules.hand_cards_dealt + self.round * per_gap))

    def _next_drawer(self, after: int) -> None:
        target = self._draw_target()
        short = [p for p in self._live_after(after) if len(self.hands[p]) < target]
        self.drawn = None
        if short:
            self.turn = short[0]
        else:
            self._start_betting(self.round + 1)

    def _start_showdown(self, rng: random.Random) -> None:
        live = self._live()
        ev = self.game.evaluator
        scores: dict[int, Score] = {p: ev.score(self.hands[p]) for p in live}
        best = min(s.key for s in scores.values())
        winners = [p for p in live if scores[p].key == best]
        self.showdown = {
            "winners": winners,
            "hands": {p: {"cards": list(self.hands[p]), "combo": scores[p].combo,
                          "name": ev.names[scores[p].combo],
                          "by_weight": [self.hands[p][i] for i, _code, _stands in scores[p].roles]} for p in live},
        }
        if self.table:
            self.showdown["ranking"] = self._ranking(live, scores)
        if self.telling is not None:
            shown = "; ".join(f"{seat(p)} {self._card_list(self.hands[p])} ({ev.names[scores[p].combo]})" for p in live)
            self.tell(f"Showdown: {shown}", reveals=ENTERED if self.table else "the hands at the showdown")
        # Every loser with a face-down reserve card is asked, Scout or not, so being asked reveals nothing (R28).
        self.scout_queue = [p for p in live if p not in winners and (self.table or "down" in self.reserves[p])]
        self.turn = None
        if self.scout_queue:
            self.phase = SCOUT
            self.turn = self.scout_queue[0]
        else:
            self._settle(winners, rng)

    def _scout_down(self, p: int) -> bool:
        """Whether the player has a Scout face down in reserve: dealt by the app, or claimed at the reveal (R25)."""
        if self.table:
            return bool(self.revealed[p]["scout_down"])
        return self.reserves[p].get("down") in self.game.scouts

    def _ranking(self, live: list[int], scores: dict[int, Score]) -> list[dict[str, Any]]:
        """Hands strongest first, each with its explanation and what set it apart from the next hand (R10)."""
        ev = self.game.evaluator
        order = sorted(live, key=lambda q: (scores[q].key, self._seats_after(self.button).index(q)))
        ranking: list[dict[str, Any]] = []
        place = 0
        for k, p in enumerate(order):
            if k == 0 or scores[p].key != scores[order[k - 1]].key:
                place = k + 1
            why = ev.explain(self.hands[p]).to_json()
            entry = {"seat": p, "place": place, **why, "designs": [ev.design_of[c].id for c in why["cards"]],
                     "against_next": None}
            if k + 1 < len(order):
                entry["against_next"] = self._tie_break(p, order[k + 1], scores)
            ranking.append(entry)
        return ranking

    def _tie_break(self, p: int, q: int, scores: dict[int, Score]) -> dict[str, Any]:
        """Why hand p ranks at or above the next hand q, in words: the combo, the first differing card, or a tie."""
        ev = self.game.evaluator
        a, b = scores[p], scores[q]
        if a.key == b.key:
            return {"seat": q, "tie": True, "why": "every card compares equal, so the bets are shared"}
        if a.key[0] != b.key[0]:
            return {"seat": q, "tie": False, "why": f"{ev.names[a.combo]} is above {ev.names[b.combo]} on the combo table"}
        k = next(i for i, (x, y) in enumerate(zip(a.key[1], b.key[1])) if x != y)
        mine, theirs = (self._strength_words(self.hands[p][a.roles[k][0]]),
                        self._strength_words(self.hands[q][b.roles[k][0]]))
        return {"seat": q, "tie": False, "why": f"same combo; card {k + 1} in order of weight decides: "
                                               f"{mine} beats {theirs}"}

    def _strength_words(self, card: str) -> str:
        """A card as a tie-break sees it: troops with their value (lower is stronger), officers by rank."""
        row = self.game.design_rows[self.game.evaluator.design_of[card].id]
        return f"{row.name} {row.value}" if row.value and row.kind != "officer" else row.name

    def _scout_saving(self, p: int) -> int:
        """Chips a Scout burn saves (R17): a share of the bet rounded down, or all of it with an Officer."""
        officer = any(c in self.game.officers for c in self.hands[p])
        percent = self.rules.scout_save_percent_with_officer if officer else self.rules.scout_save_percent
        return int(self.bets[p] * percent // 100)

    def _settle(self, winners: list[int], rng: random.Random) -> None:
        """Winners collect every bet not saved by a Scout; a tie splits it, odd chips from the button's left (R16)."""
        for p in range(self.n):
            self.chips[p] += self.saved[p]
            self.bets[p] -= self.saved[p]
        pot = sum(self.bets)
        share, odd = divmod(pot, len(winners))
        order = [p for p in self._seats_after(self.button) if p in winners]
        won = {p: share + (1 if k < odd else 0) for k, p in enumerate(order)}
        for p, amount in won.items():
            self.chips[p] += amount
        for p in range(self.n):  # a winner who left during the Scout decisions takes nothing away with them (R30)
            if self.left[p]:
                self.chips[p] = 0
        self.last_result = {"hand": self.hand_number, "winners": order, "won": {str(p): w for p, w in won.items()},
                            "chips": list(self.chips),
                            "bets": list(self.bets), "saved": list(self.saved),
                            "showdown": None if self.showdown is None else
                            {"hands": {str(p): h for p, h in self.showdown["hands"].items()}}}
        if self.table and self.showdown is not None:
            self.last_result["showdown"]["ranking"] = copy.deepcopy(self.showdown["ranking"])
            self.last_result["scout"] = {str(p): c for p, c in self.scout_choices.items()}
        self.bets = [0] * self.n
        shown = {} if self.showdown is None else self.showdown["hands"]
        for p in range(self.n):
            if not self.table:
                self._muck(p, [] if p in shown else self.hands[p])
                self.discard += self.hands[p]
            self.hands[p] = []
        self.hands_since_return += 1
        knocked = [p for p in range(self.n) if not self.out[p] and self.chips[p] == 0]
        for p in knocked:
            self.out[p] = True
            self._muck(p, [self.reserves[p]["down"]] if "down" in self.reserves[p] else [])
            self.discard += self.reserves[p].values()
            self.reserves[p] = {}
        if self.table:
            self.last_result["knocked_out"] = knocked
        self.hand_log.append(self._hand_record(order, won, self.last_result["bets"], knocked))
        if self.telling is not None:
            self.tell(f"Hand {self.hand_number}: " + ", ".join(f"{seat(p)} collects {w}" for p, w in won.items())
                      + "".join(f"; {seat(p)} is out of chips" for p in knocked))
        self.pending, self.turn, self.drawn, self.scout_queue = [], None, None, []
        if sum(not o for o in self.out) <= 1:
            self.phase = OVER
            self.tell(f"The game is over: {seat(self.winner)} holds every chip" if self.winner is not None
                      else "The game is over")
            return
        self.button = next(p for p in self._seats_after(self.button) if not self.out[p])
        self._start_hand(rng)

    def _muck(self, p: int, cards: list[str]) -> None:
        """`cards`, seen by seat `p` alone, go to the discard pile face down."""
        self.mucked.update((c, p) for c in cards)

    def _hand_record(self, winners: list[int], won: dict[int, int], bets: list[int], knocked: list[int]) -> dict[str, Any]:
        """One settled hand for the hand history, public once settled: who won, with which shown hand (cards
        in order of weight), and each seat's chips moved. Folded hands were never shown and are not here."""
        shown = None if self.showdown is None else [
            {"seat": p, "name": h["name"], "cards": list(h["by_weight"])} for p, h in self.showdown["hands"].items()]
        return {"hand": self.hand_number, "winners": list(winners), "showdown": shown,
                "moved": {str(p): won.get(p, 0) - bets[p] for p in range(self.n) if won.get(p, 0) or bets[p]},
                "saved": {str(p): s for p, s in enumerate(self.saved) if s}, "knocked_out": list(knocked)}

    # -- the State interface ---------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        if self.phase == OVER:
            return None
        if self.phase == BET:
            return self.pending[0]
        if self.phase == REVEAL:
            waiting = self.players_to_act()
            return waiting[0] if len(waiting) == 1 else None
        return self.turn

    def players_to_act(self) -> list[int]:
        if self.phase == REVEAL:
            return [p for p in self._live() if p not in self.revealed]
        p = self.current_player
        return [] if p is None else [p]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        if self.phase == REVEAL:
            return [act("retract", p) for p in self._live() if p in self.revealed and player in (None, p)]
        p = self.current_player
        if p is None or (player is not None and player != p):
            return []
        if self.phase == BET:
            actions = [act("call", p) if self._to_call(p) else act("pass", p)]
            if self.raises < self.rules.max_raises_per_round:
                most = min(self.rules.max_raise, self._raise_cap()[0], self.chips[p] - self._to_call(p))
                actions += [act("raise", p, amount=a) for a in range(1, most + 1)]
            return actions + [act("fold", p)]
        if self.phase == DRAW:
            if self.drawn is None:
                return [act("draw", p)]
            return [act("keep", p)] + [act("exchange", p, card=c, community=m)
                                       for c in self.hands[p] for m in self.community]
        if self.phase == SWAP:
            return [act("stand", p)] + [act("swap", p, card=c, slot=s)
                                        for c in self.hands[p] for s in self.rules.reserve_slots]
        return [act("burn_scout", p), act("pay", p)] if self._scout_down(p) else [act("pay", p)]

    def verify(self, action: Action) -> None:
        p = action.player
        if self.phase == OVER:
            raise Refusal("The game is over.")
        if not isinstance(p, int) or not 0 <= p < self.n:
            raise Refusal(f"There is no player {p} at this table.")
        if self.left[p]:
            raise Refusal("You have left this game.")
        if self.out[p]:
            raise Refusal("You are out of chips and out of the game.")
        if action.kind == LEAVE:  # any seat still in, at any time, in turn or not (R30)
            return
        if self.folded[p]:
            raise Refusal("You folded this hand; wait for the next one.")
        kind = KINDS.get(action.kind)
        if self.phase == SWAP and self.swapped[p] and kind is not None and SWAP in kind.phases:
            raise Refusal("You have already made your reserve swap.")
        if kind is None:
            raise Refusal(f"There is no action '{action.kind}' in Waterloo.")
        if self.table and (DRAW in kind.phases or SWAP in kind.phases):
            raise Refusal("This table plays with the printed cards: draw, exchange and swap at the table; "
                          "the app keeps the chips, the bets and the showdown.")
        if not self.table and REVEAL in kind.phases:
            raise Refusal("The app deals this table's cards, so there is no hand to reveal: it shows them at the showdown.")
        if (self.phase == REVEAL) != (REVEAL in kind.phases):
            raise Refusal(f"You cannot {action.kind.replace('_', ' ')} now: {PHASE_HINTS[self.phase]}.")
        if self.phase != REVEAL:  # every player still in enters a hand at once; the other phases go in turn
            if p != self.current_player:
                raise Refusal(f"It is not your turn: waiting for P{self.current_player}.")
            if self.phase not in kind.phases:
                raise Refusal(f"You cannot {action.kind.replace('_', ' ')} now: {PHASE_HINTS[self.phase]}.")
        kind.verify(self, action)

    def _verify_reveal(self, action: Action) -> None:
        """A revealed hand must be five printed cards the deck could deal one player, a claimed face-down Scout
        included (R25). It is never checked against the other hands entered, which the player cannot see: that
        would let a player probe them by entering hands; they are checked together once all are in (`_clash`)."""
        p = action.player
        if p in self.revealed:
            raise Refusal("You have already revealed your hand; take it back first if you need to correct it.")
        cards, scout_down = action.get("cards"), action.get("scout_down", False)
        size = self.rules.hand_size
        if not isinstance(cards, list) or len(cards) != size:
            count = len(cards) if isinstance(cards, list) else 0
            raise Refusal(f"Reveal exactly {size} cards; you listed {count}.")
        if not all(isinstance(c, str) for c in cards):
            raise Refusal("Name each card by its design, like 'guard-infantry'.")
        if not isinstance(scout_down, bool):
            raise Refusal("Say yes or no: is a Scout face down in your reserve?")
        rows = self.game.design_rows
        unknown = [c for c in cards if c not in rows]
        if unknown:
            raise Refusal(f"'{unknown[0]}' is not a Waterloo card; pick the cards from the deck's list.")
        mine = Counter(cards)
        if scout_down:
            mine[self.game.scout_design] += 1
        for design, count in mine.items():
            copies = rows[design].copies
            if count > copies:
                where = "your hand and your face-down reserve hold" if design == self.game.scout_design and scout_down \
                    else "your hand lists"
                raise Refusal(f"The deck has only {copies} {rows[design].name} cards; {where} {count}.")

    def _clash(self) -> str | None:
        """Why the hands entered cannot all be right (more copies of a design, a claimed face-down Scout
        included, than the deck prints), in words for the whole table; None when they can (R25)."""
        rows, held = self.game.design_rows, Counter[str]()
        for p in self.revealed:
            held.update(self._claimed(p))
        over = [f"{count} {rows[d].name} (the deck has {rows[d].copies})" for d, count in sorted(held.items())
                if count > rows[d].copies]
        if not over:
            return None
        return (f"Every hand is in, but together they hold {', '.join(over)}: someone entered a card wrongly. "
                "Every hand is cleared; check your cards and enter them again.")

    def _claimed(self, p: int) -> Counter[str]:
        """The designs a revealed player holds: the hand plus a claimed face-down Scout."""
        held = Counter(self.revealed[p]["cards"])
        if self.revealed[p]["scout_down"]:
            held[self.game.scout_design] += 1
        return held

    def _apply(self, action: Action, rng: random.Random) -> None:
        KINDS[action.kind].apply(self, action, rng)

    def _take_revealed_hands(self) -> None:
        """Give each revealed design one of its printed copies, so the showdown scores them like dealt cards."""
        used: Counter[str] = Counter()
        for p in self._live():
            hand = []
            for design in self.revealed[p]["cards"]:
                hand.append(self.game.copies_of[design][used[design]])
                used[design] += 1
            self.hands[p] = hand

    def resample(self, viewer: int | None, rng: random.Random) -> WaterlooState:
        """Every card hidden from `viewer` dealt again from the cards it has not seen: the deck, the other seats'
        hands (until the showdown shows them) and face-down reserves, and the discards that went face down unseen
        by it. With printed cards, the other seats' entered hands are picked again from the designs the deck
        still has beside the viewer's own (R25)."""
        new = self.clone()
        others = [q for q in range(self.n) if q != viewer]
        if self.table:
            new._repick_reveals(others, rng)
            return new
        shown = {} if self.showdown is None else self.showdown["hands"]
        hands = [new.hands[q] for q in others if q not in shown]
        downs = [[new.reserves[q]["down"]] for q in others if "down" in new.reserves[q]]
        slots = [i for i, c in enumerate(new.discard) if new.mucked.get(c, viewer) != viewer]
        unseen = [new.discard[i] for i in slots]
        saw = [new.mucked.pop(c) for c in unseen]
        redeal([new.deck, unseen, *hands, *downs], rng)
        for i, card, p in zip(slots, unseen, saw):
            new.discard[i] = card
            new.mucked[card] = p
        for q, down in zip([q for q in others if "down" in new.reserves[q]], downs):
            new.reserves[q]["down"] = down[0]
        if new.drawn is not None and new.turn in others:
            new.drawn = new.hands[new.turn][-1]
        return new

    def _repick_reveals(self, others: list[int], rng: random.Random) -> None:
        """Printed cards: the hands `others` entered, hidden until everyone has (R27), picked again from the designs
        the deck has beside the ones the viewer entered, a face-down Scout claimed as often as one is left."""
        if self.showdown is not None:
            return
        viewer = [p for p in self.revealed if p not in others]
        left = Counter({d: row.copies for d, row in self.game.design_rows.items()})
        for p in viewer:
            left.subtract(self._claimed(p))
        pool = sorted(left.elements())
        rng.shuffle(pool)
        for q in sorted(p for p in self.revealed if p in others):
            cards, pool = pool[:self.rules.hand_size], pool[self.rules.hand_size:]
            scout = rng.random() < 0.5 and self.game.scout_design in pool
            if scout:
                pool.remove(self.game.scout_design)
            self.revealed[q] = {"cards": cards, "scout_down": scout}

    # -- what players see ----------------------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any]:
        seats = []
        for p in range(self.n):
            mine = player == p
            seats.append({
                "seat": p, "chips": self.chips[p], "bet": self.bets[p], "folded": self.folded[p], "out": self.out[p],
                "left": self.left[p],
                "hand": list(self.hands[p]) if mine else None, "hand_count": len(self.hands[p]),
                "reserve_up": self.reserves[p].get("up"),
                "reserve_down": self.reserves[p].get("down") if mine else None,
                "has_reserve_down": "down" in self.reserves[p],
                "swapped": self.swapped[p],
            })
        view: dict[str, Any] = {
            "game": self.game.id, "phase": self.phase, "round": self.round, "betting_rounds": self.betting_rounds,
            "hand_number": self.hand_number,
            "button": self.button, "current_player": self.current_player, "players_to_act": self.players_to_act(),
            "community": list(self.community), "deck_count": len(self.deck), "discard_count": len(self.discard),
            "hands_until_return": self.return_after - self.hands_since_return,
            "round_timer_minutes": self.rules.round_timer_minutes, "raises": self.raises,
            "players": seats, "winner": self.winner, "last_result": copy.deepcopy(self.last_result),
            "hand_history": copy.deepcopy(self.hand_log),
            "showdown": None if self.showdown is None else
            {"winners": list(self.showdown["winners"]),
             "hands": {str(p): copy.deepcopy(h) for p, h in self.showdown["hands"].items()}},
        }
        if player is not None and 0 <= player < self.n:
            view["to_call"] = self._to_call(player) if self.phase == BET else 0
        if player is not None and player == self.current_player:
            view["drawn"] = self.drawn
            if self.phase == SCOUT and self._scout_down(player):
                view["scout_saves"] = self._scout_saving(player)
        if self.table:
            self._table_view(view, player)
        return view

    def _table_view(self, view: dict[str, Any], player: int | None) -> None:
        """What a printed-card table adds: who has revealed (hands stay hidden until all have), the ranking (R27)."""
        view["cards"] = "table"
        view["return_now"] = self.return_now
        view["clash"] = self.clash
        for seat in view["players"]:
            seat["revealed"] = seat["seat"] in self.revealed
        if player is not None and player in self.revealed:
            view["my_reveal"] = copy.deepcopy(self.revealed[player])
        if self.showdown is not None:
            view["showdown"]["ranking"] = copy.deepcopy(self.showdown["ranking"])

    @property
    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def winner(self) -> int | None:
        if self.phase != OVER:
            return None
        left = [p for p in range(self.n) if not self.out[p]]
        return left[0] if len(left) == 1 else None

    def _card_list(self, cards: list[str]) -> str:
        return ", ".join(self.game.names[c] for c in cards)

    def narrate(self, action: Action) -> list[Told]:
        """Bets, folds, exchanges with the community and face-up swaps are public; a face-down swap and an
        entered hand are the actor's alone until the showdown, which every viewer reads in full (each kind's words)."""
        kind = KINDS.get(action.kind)
        return [] if kind is None else kind.told(self, action)

    def opening(self) -> list[Told]:
        if self.table:
            return [Told("Hand 1 begins")]
        dealt = {p: f"Hand 1 begins: {seat(p)} was dealt {self._card_list(self.hands[p])}" for p in self._live()}
        return [Told("Hand 1 begins", dealt)]

    def task(self, player: int) -> str:
        return TASKS.get(self.phase, "wait")

    def forfeits(self, action: Action) -> str | None:
        """Folding gives up the hand, and every chip bet in it (R30's concede is asked by the companion)."""
        if action.kind != "fold":
            return None
        bet = self.bets[action.player]
        return (f"Folding gives up this hand and the {bet} chip{'s' if bet != 1 else ''} you have bet in it."
                if bet else "Folding gives up this hand.")

    def clock_round(self) -> int:
        """The round timer times a hand (the seed's "Round time: 4 min", R22): a new hand starts it afresh."""
        return self.hand_number

    def label(self, action: Action) -> str:
        kind = KINDS.get(action.kind)
        return str(action) if kind is None else kind.label(self, action)

    # -- for tests and tools ----------------------------------------------------------------------------
    def card_places(self) -> dict[str, str]:
        """Every physical card -> where it is; each card appears exactly once."""
        places: dict[str, str] = {}
        for c in self.deck:
            places[c] = "deck"
        for c in self.discard:
            places[c] = "discard"
        for c in self.community:
            places[c] = "community"
        for p in range(self.n):
            for c in self.hands[p]:
                places[c] = f"hand:{p}"
            for slot, c in self.reserves[p].items():
                places[c] = f"reserve:{p}:{slot}"
        return places

    def card_count(self) -> int:
        """How many card positions are filled (equals the deck size when no card is duplicated)."""
        return (len(self.deck) + len(self.discard) + len(self.community)
                + sum(len(h) + len(r) for h, r in zip(self.hands, self.reserves)))


# ---------------------------------------------------------------- the moves, one place each


def _always(state: WaterlooState, action: Action) -> None:
    """Always allowed once the state has checked the seat, its turn and the phase."""


def _verify_pass(state: WaterlooState, action: Action) -> None:
    owed = state._to_call(action.player)
    if owed:
        raise Refusal(f"You cannot pass: call {owed} more chip{'s' if owed > 1 else ''}, raise or fold.")


def _verify_call(state: WaterlooState, action: Action) -> None:
    if not state._to_call(action.player):
        raise Refusal("There is nothing to call; pass instead.")


def _verify_raise(state: WaterlooState, action: Action) -> None:
    p, owed, rules = action.player, state._to_call(action.player), state.rules
    amount = action.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        raise Refusal("Raise by a whole number of chips, at least 1.")
    if state.raises >= rules.max_raises_per_round:
        raise Refusal(f"This betting round has had {state.raises} raises, the limit: call, pass or fold.")
    if amount > rules.max_raise:
        raise Refusal(f"A raise is at most {rules.max_raise} chips.")
    cost = owed + amount
    if cost > state.chips[p]:
        raise Refusal(f"You have only {state.chips[p]} chips: raising by {amount} would cost {cost}.")
    cap, poorest = state._raise_cap()
    if amount > cap:
        if cap <= 0:
            raise Refusal(f"No raise is possible: P{poorest} has no chips left to match it.")
        raise Refusal(f"P{poorest} could only match a raise of {cap}; raise by at most {cap}.")


def _bet(effect: Callable[[WaterlooState, int, Action, random.Random], bool]
         ) -> Callable[[WaterlooState, Action, random.Random], None]:
    """A betting move: the seat leaves the queue of those still to act, then its effect (True when it ended the
    hand), and the betting round closes once nobody is left to act."""
    def apply(state: WaterlooState, action: Action, rng: random.Random) -> None:
        state.pending.pop(0)
        if not effect(state, action.player, action, rng) and not state.pending:
            state._after_betting()
    return apply


def _passed(state: WaterlooState, p: int, action: Action, rng: random.Random) -> bool:
    return False


def _folded(state: WaterlooState, p: int, action: Action, rng: random.Random) -> bool:
    state.folded[p] = True
    state._muck(p, state.hands[p])
    state.discard += state.hands[p]
    state.hands[p] = []
    live = state._live()
    if len(live) == 1:
        state._settle(live, rng)
        return True
    return False


def _put_in(state: WaterlooState, p: int, action: Action, rng: random.Random) -> bool:
    """A call, or a raise by its amount: what the seat owes, and the raise, never more than its chips."""
    raised = action.kind == "raise"
    cost = min(state.chips[p], state._to_call(p) + (action["amount"] if raised else 0))
    state.chips[p] -= cost
    state.bets[p] += cost
    if raised:
        state.raises += 1
        state.pending = [q for q in state._live_after(p) if q != p]
    return False


def _verify_draw(state: WaterlooState, action: Action) -> None:
    if state.drawn is not None:
        raise Refusal("You have drawn this turn; keep the card or exchange one with the community.")


def _verify_drawn(state: WaterlooState, action: Action) -> None:
    if state.drawn is None:
        raise Refusal("Draw a card first.")


def _verify_exchange(state: WaterlooState, action: Action) -> None:
    _verify_drawn(state, action)
    if action.get("card") not in state.hands[action.player]:
        raise Refusal("That card is not in your hand.")
    if action.get("community") not in state.community:
        raise Refusal("That card is not among the community cards.")


def _draw(state: WaterlooState, action: Action, rng: random.Random) -> None:
    p = action.player
    state.drawn = state.deck.pop()
    state.hands[p].append(state.drawn)
    state.tell(f"{seat(p)} drew a card", {p: f"{seat(p)} drew {state.game.names[state.drawn]}"},
               reveals="the card drawn")


def _exchange(state: WaterlooState, action: Action, rng: random.Random) -> None:
    p = action.player
    hand, slot = state.hands[p].index(action["card"]), state.community.index(action["community"])
    state.hands[p][hand], state.community[slot] = state.community[slot], state.hands[p][hand]
    state._next_drawer(p)


def _verify_swap(state: WaterlooState, action: Action) -> None:
    if action.get("card") not in state.hands[action.player]:
        raise Refusal("That card is not in your hand.")
    if action.get("slot") not in state.rules.reserve_slots:
        raise Refusal("Choose your face-up or face-down reserve card: slot 'up' or 'down'.")


def _swapped(state: WaterlooState, p: int, rng: random.Random) -> None:
    """A seat's reserve swap is made (or declined); the next seat swaps, or the showdown begins."""
    state.swapped[p] = True
    rest = [q for q in state._live_after(p) if not state.swapped[q]]
    if rest:
        state.turn = rest[0]
    else:
        state._start_showdown(rng)


def _swap(state: WaterlooState, action: Action, rng: random.Random) -> None:
    p = action.player
    hand, slot = state.hands[p].index(action["card"]), action["slot"]
    state.hands[p][hand], state.reserves[p][slot] = state.reserves[p][slot], state.hands[p][hand]
    _swapped(state, p, rng)


def _verify_retract(state: WaterlooState, action: Action) -> None:
    if action.player not in state.revealed:
        raise Refusal("You have not revealed a hand, so there is nothing to take back.")


def _reveal(state: WaterlooState, action: Action, rng: random.Random) -> None:
    """An entered hand is kept hidden; once every hand is in, they are checked against the deck together, and
    either scored or, on a clash, cleared for everyone to enter again (R25)."""
    state.revealed[action.player] = {"cards": list(action["cards"]),
                                     "scout_down": bool(action.get("scout_down", False))}
    if not state.players_to_act():
        _hands_in(state, rng)


def _hands_in(state: WaterlooState, rng: random.Random) -> None:
    """Every hand still in is entered (the last one was, or the last seat to enter left, R30): scored at the
    showdown, or, when they clash, told to the whole table and cleared for everyone to enter again (R25)."""
    state.clash = state._clash()
    if state.clash:
        state.revealed = {}
        state.tell(state.clash, reveals=ENTERED)
        return
    state._take_revealed_hands()
    state._start_showdown(rng)


def _retract(state: WaterlooState, action: Action, rng: random.Random) -> None:
    del state.revealed[action.player]


def _leave(state: WaterlooState, action: Action, rng: random.Random) -> None:
    """A player concedes and leaves (R30): their hand folds, their bet stays in the pot, their other chips and
    their reserve leave the table with them, and the hand goes on without them from where it was."""
    p = action.player
    turn = state.current_player == p
    state.left[p] = state.out[p] = state.folded[p] = True
    state.chips[p], state.saved[p] = 0, 0
    state._muck(p, state.hands[p] + ([state.reserves[p]["down"]] if "down" in state.reserves[p] else []))
    state.discard += state.hands[p] + list(state.reserves[p].values())
    state.hands[p], state.reserves[p] = [], {}
    state.revealed.pop(p, None)
    state.pending = [q for q in state.pending if q != p]
    state.scout_queue = [q for q in state.scout_queue if q != p]
    live = state._live()
    if len(live) == 1:
        state._settle(live, rng)
    elif state.phase == BET and not state.pending:
        state._after_betting()
    elif state.phase == DRAW and turn:
        state._next_drawer(p)
    elif state.phase == SWAP and turn:
        _swapped(state, p, rng)
    elif state.phase == REVEAL and not state.players_to_act():
        _hands_in(state, rng)
    elif state.phase == SCOUT and turn:
        if state.scout_queue:
            state.turn = state.scout_queue[0]
        else:
            assert state.showdown is not None
            state._settle(state.showdown["winners"], rng)


def _verify_burn(state: WaterlooState, action: Action) -> None:
    if not state._scout_down(action.player):
        raise Refusal("You have no Scout face down in your reserve: pay the full bet.")


def _scout_decided(state: WaterlooState, rng: random.Random) -> None:
    """The next loser decides about its Scout, or the showdown is settled."""
    state.scout_queue.pop(0)
    if state.scout_queue:
        state.turn = state.scout_queue[0]
    else:
        assert state.showdown is not None
        state._settle(state.showdown["winners"], rng)


def _burn(state: WaterlooState, action: Action, rng: random.Random) -> None:
    """A face-down Scout burned saves part of the bet (R17); with app cards a new card goes face down."""
    p = action.player
    state.scout_choices[p] = "burned"
    state.saved[p] = state._scout_saving(p)
    if not state.table:
        state.discard.append(state.reserves[p]["down"])
        if not state.deck:
            state._reshuffle(rng)
        state.reserves[p]["down"] = state.deck.pop()
        state.tell(f"{seat(p)} put a new card face down in reserve",
                   {p: f"{seat(p)} put {state.game.names[state.reserves[p]['down']]} face down in reserve"},
                   reveals="the replacement card")
    _scout_decided(state, rng)


def _pay(state: WaterlooState, action: Action, rng: random.Random) -> None:
    state.scout_choices[action.player] = "paid"
    _scout_decided(state, rng)


def _said(text: str) -> Callable[[WaterlooState, Action], list[Told]]:
    """A public line: the mover's seat and what it did."""
    return lambda state, action: [Told(f"{seat(action.player)} {text}")]


def _swap_told(state: WaterlooState, action: Action) -> list[Told]:
    """A swap with the face-up reserve is public; with the face-down one, which card went down is the actor's."""
    p, names = action.player, state.game.names
    who, card = seat(p), names[action["card"]]
    if action["slot"] == "up":
        return [Told(f"{who} swapped {card} into their face-up reserve, taking "
                     f"{names[state.reserves[p]['up']]} into their hand")]
    return [Told(f"{who} swapped a card with their face-down reserve",
                 {p: f"{who} swapped {card} into their face-down reserve"})]


def _reveal_told(state: WaterlooState, action: Action) -> list[Told]:
    """An entered hand is the actor's alone until every hand is in (R27)."""
    p, who = action.player, seat(action.player)
    entered = ", ".join(state.game.design_rows[d].name for d in action["cards"])
    scout = " and a face-down Scout" if action.get("scout_down") else ""
    return [Told(f"{who} entered their hand", {p: f"{who} entered {entered}{scout}"})]


def _exchange_label(state: WaterlooState, action: Action) -> str:
    names = state.game.names
    return f"Exchange {names.get(action.get('card'), '?')} for {names.get(action.get('community'), '?')}"


def _swap_label(state: WaterlooState, action: Action) -> str:
    """The swap in the mover's words: the card given and the reserve card taken for it (the mover's own)."""
    side = "face-up" if action.get("slot") == "up" else "face-down"
    p, names = action.player, state.game.names
    taken = state.reserves[p].get(action.get("slot")) if isinstance(p, int) and 0 <= p < state.n else None
    gets = f", taking {names[taken]}" if taken in names else ""
    return f"Swap {names.get(action.get('card'), '?')} into your {side} reserve{gets}"


def _burn_label(state: WaterlooState, action: Action) -> str:
    p = action.player
    return f"Burn the Scout (save {state._scout_saving(p)} chips)" if 0 <= p < state.n else str(action)


KINDS: dict[str, Kind[WaterlooState]] = {
    "pass": Kind({}, _verify_pass, _bet(_passed), lambda s, a: "Pass", _said("passed"), phases=(BET,)),
    "call": Kind({}, _verify_call, _bet(_put_in), lambda s, a: f"Call {s._to_call(a.player)}",
                 lambda s, a: [Told(f"{seat(a.player)} called {min(s.chips[a.player], s._to_call(a.player))}")],
                 phases=(BET,)),
    "raise": Kind({"amount": int}, _verify_raise, _bet(_put_in),
                  lambda s, a: f"Raise by {a.get('amount', 0)} (bet {max(s.bets) + a.get('amount', 0)})",
                  lambda s, a: [Told(f"{seat(a.player)} raised by {a['amount']} (bet {max(s.bets) + a['amount']})")],
                  phases=(BET,)),
    "fold": Kind({}, _always, _bet(_folded), lambda s, a: "Fold", _said("folded"), phases=(BET,)),
    "draw": Kind({}, _verify_draw, _draw, lambda s, a: "Draw a card",
                 lambda s, a: [],  # the card drawn is told by its effect, to the drawer alone
                 phases=(DRAW,)),
    "keep": Kind({}, _verify_drawn, lambda s, a, rng: s._next_drawer(a.player), lambda s, a: "Keep the drawn card",
                 _said("kept the drawn card"), phases=(DRAW,)),
    "exchange": Kind({"card": str, "community": str}, _verify_exchange, _exchange, _exchange_label,
                     lambda s, a: [Told(f"{seat(a.player)} exchanged {s.game.names[a['card']]} for "
                                        f"{s.game.names[a['community']]} from the community")],
                     phases=(DRAW,)),
    "swap": Kind({"card": str, "slot": str}, _verify_swap, _swap, _swap_label, _swap_told, phases=(SWAP,)),
    "stand": Kind({}, _always, lambda s, a, rng: _swapped(s, a.player, rng), lambda s, a: "Keep your reserve",
                  _said("kept their reserve"), phases=(SWAP,)),
    "reveal": Kind({"cards": Arg(list[str], "a list of card designs, like ['guard-infantry', …]"),
                    "scout_down": Arg(bool, "true or false (is a Scout face down in your reserve?)", optional=True)},
                   WaterlooState._verify_reveal, _reveal, lambda s, a: "Reveal the hand", _reveal_told,
                   phases=(REVEAL,)),
    "retract": Kind({}, _verify_retract, _retract, lambda s, a: "Take back the revealed hand",
                    _said("took back their entered hand"), phases=(REVEAL,)),
    "burn_scout": Kind({}, _verify_burn, _burn, _burn_label,
                       lambda s, a: [Told(f"{seat(a.player)} burned their face-down Scout, saving "
                                          f"{s._scout_saving(a.player)} chips")],
                       phases=(SCOUT,)),
    "pay": Kind({}, _always, _pay, lambda s, a: "Pay the full bet", _said("paid the full bet"), phases=(SCOUT,)),
    LEAVE: Kind({}, _always, _leave, lambda s, a: "Concede and leave the game",
                lambda s, a: [Told(f"{seat(a.player)} conceded and left the game; the others play on")]),
}
"""Every move of Waterloo: its arguments, the phase it belongs to, its checks, effect and words."""
WaterlooState.ARGS = schema(KINDS)


def make_game(data: GameData) -> WaterlooGame:
    return WaterlooGame(data)


def explain(data_or_game: GameData | WaterlooGame, hand: list[str]) -> Explanation:
    """The combo of a five-card hand, its cards in order of weight, and what each wild card stood for."""
    game = data_or_game if isinstance(data_or_game, WaterlooGame) else WaterlooGame(data_or_game)
    return game.explain(hand)


__all__ = ["WaterlooGame", "WaterlooState", "combo_odds", "explain", "make_game"]
