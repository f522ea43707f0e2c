"""Reenforcements (Medieval Edition): War in three columns, with one decision per battle.

Each player owns a deck (the same design, different backs). A battle lays three cards
face up a side, follows "play another card" chains, then both players place three
face-down reenforcements, one per column, at the same time: that placement is the only
choice in the game, so the engine waits for both commitments, reveals them together
and resolves everything else (events, ties, piles, reshuffles, the next battle's lay)
inside the action that completes the commitments. Rulings R1… are in
docs/rules/medieval.md; comments cite them.

Cards are small integers (their index in the design's deck) so whole games are cheap
enough to simulate in bulk; ids only appear in actions and views.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.core import Action, Arg, Game, Refusal, State, Told, redeal, seat
from engine.kinds import Kind, schema

PLACE = "place"
"""The one action kind: args {"cards": [card id or None for each column, left to right]}."""

NONE, PLAY_ANOTHER, ADD_COLUMN, ADD_ALL, SUB_COLUMN, SUB_ALL = range(6)
EFFECT_CODES = {"none": NONE, "play_another": PLAY_ANOTHER, "add_column": ADD_COLUMN,
                "add_all_columns": ADD_ALL, "subtract_opposing_column": SUB_COLUMN,
                "subtract_all_opposing": SUB_ALL}

Entry = tuple[int, bool]
"""A card in a column: (card index, active). Inactive means an Event played as a
reenforcement or tie card (or by their chains): it counts zero and does nothing (R4, R5)."""


class MedievalGame(Game["MedievalState"]):
    """The card design and rule constants, flattened into arrays the rules read quickly."""

    id = "medieval"
    test_options = frozenset({"decks"})  # whoever stacked the decks would know every draw (R13)

    def __init__(self, data: Any) -> None:
        self.data = data
        rules = data.rules
        self.columns: int = rules.columns
        self.reenforcements: int = rules.reenforcements
        self.tie_cards: int = rules.tie_cards
        self.max_battles: int = rules.max_battles
        self.min_total: int = rules.min_total
        self.deck_names: list[str] = list(data.layout["deck_names"])  # check() requires one per player
        self.cards = data.deck("cards")
        self.ids: list[str] = [c.id for c in self.cards]
        self.index: dict[str, int] = {cid: i for i, cid in enumerate(self.ids)}
        self.names: list[str] = [c.name for c in self.cards]
        self.value: list[int] = [c.design.value for c in self.cards]
        self.effect: list[int] = [EFFECT_CODES[c.design.effect] for c in self.cards]
        self.amount: list[int] = [c.design.amount for c in self.cards]
        self.beside: list[bool] = [c.design.beside for c in self.cards]
        self.event: list[bool] = [c.design.kind == "event" for c in self.cards]
        # For a hand of k cards, every placement as: column -> position in the hand, or None.
        self.slots: list[list[tuple[int | None, ...]]] = [self._slots(k) for k in range(self.columns + 1)]
        self.column_names: list[str] = (["left", "centre", "right"] if self.columns == 3
                                        else [f"column {c + 1}" for c in range(self.columns)])

    def _slots(self, k: int) -> list[tuple[int | None, ...]]:
        out = []
        for cols in itertools.permutations(range(self.columns), k):
            slots: list[int | None] = [None] * self.columns
            for position, col in enumerate(cols):
                slots[col] = position
            out.append(tuple(slots))
        return out

    def check_options(self, options: Mapping[str, Any]) -> None:
        """The only option is `decks`: stacked draw decks (top card first) for lessons and tests (R13)."""
        unknown = sorted(set(options) - {"decks"})
        if unknown:
            raise Refusal(f"Reenforcements has no option called {', '.join(repr(k) for k in unknown)} "
                          f"(the only option is 'decks').")
        decks = options.get("decks")
        if decks is None:
            return
        if not isinstance(decks, list) or len(decks) != 2 or not all(isinstance(d, list) for d in decks):
            raise Refusal("Stacked decks must be two lists of card ids, one per player, top card first.")
        for p, deck in enumerate(decks):
            if not deck:
                raise Refusal(f"{self.deck_names[p]}'s stacked deck is empty; each player needs at least one card.")
            seen: set[str] = set()
            for cid in deck:
                if cid not in self.index:
                    raise Refusal(f"There is no card '{cid}' in a {self.data.name} deck.")
                if cid in seen:
                    raise Refusal(f"Card '{cid}' appears twice in {self.deck_names[p]}'s stacked deck.")
                seen.add(cid)

    def new_state(self, rng: random.Random, options: Mapping[str, Any]) -> MedievalState:
        self.check_options(options)
        n = len(self.cards)
        stacked = options.get("decks")
        state = MedievalState(self)
        for p in (0, 1):
            if stacked is None:
                deck = list(range(n))
                rng.shuffle(deck)
            else:
                order = [self.index[cid] for cid in stacked[p]]
                listed = set(order)
                state.graveyard[p] = [i for i in range(n) if i not in listed]
                deck = order[::-1]
            state.decks[p] = deck
        state._next_battle(rng)
        return state


class ColumnResult(NamedTuple):
    """How one column of a finished battle ended, kept so players can see what happened."""

    cards: tuple[tuple[Entry, ...], tuple[Entry, ...]]
    totals: tuple[int | None, int | None]
    winner: int | None
    outcome: str  # "won", "unopposed", "deadlock" (R9) or "empty"
    tie_rounds: int
    ties_from: tuple[int, int] | None = None  # each side's first entry laid by a tie round (R8), so a page names them


class BattleReport(NamedTuple):
    """A finished battle: its number, the Events that stood beside it, and each column's result."""

    battle: int
    beside: tuple[tuple[int, ...], tuple[int, ...]]
    columns: tuple[ColumnResult, ...]


Decision = tuple[int | None, str, tuple[int | None, int | None]]
"""How a column was decided: (winner or None, outcome, the totals it was decided on)."""

TieRound = Sequence[Sequence[Sequence[int]]]
"""One tie round laid by hand: [column][player] -> the cards added there, chain cards included."""


def column_outcome(mine: int | None, theirs: int | None, exhausted: bool = False) -> tuple[int | None, str] | None:
    """Who takes a column from its two totals: None while tied (R8), unless neither side can add a card (R9)."""
    if mine is None and theirs is None:
        return None, "empty"
    if mine is None or theirs is None:
        return (0 if theirs is None else 1), "unopposed"  # R10
    if mine != theirs:
        return (0 if mine > theirs else 1), "won"
    return (None, "deadlock") if exhausted else None


class LaidBattle(NamedTuple):
    """A battle of printed cards worked out by `MedievalState.resolve_laid`: the position with every tie card
    laid, each column's decision (None while still tied), the columns still tied, and once all are decided
    the cleared position (`settled`: its Survivors and Graveyards hold this battle's cards)."""

    state: MedievalState
    decided: tuple[Decision | None, ...]
    tied: tuple[int, ...]
    settled: MedievalState | None


class MedievalState(State):
    """One position: always waiting for reenforcement placements, or the war is over."""


    def __init__(self, game: MedievalGame) -> None:
        self.game = game
        cols = game.columns
        self.decks: list[list[int]] = [[], []]          # top of deck is the END of the list
        self.survivors: list[list[int]] = [[], []]
        self.graveyard: list[list[int]] = [[], []]
        self.hands: list[list[int]] = [[], []]
        self.beside: list[list[int]] = [[], []]
        self.table: list[list[list[Entry]]] = [[[], []] for _ in range(cols)]  # [column][player]
        self.pending: list[list[int | None] | None] = [None, None]
        self._legal: list[list[Action] | None] = [None, None]  # this battle's placements, built once
        self.battle = 0
        self.over = False
        self._winner: int | None = None
        self.end_reason = ""
        # Battles fought since the previous decision: usually one, more when late battles need no choice.
        self.reports: list[BattleReport] = []

    def clone(self) -> MedievalState:
        """A copy that shares the game and what never changes in place (cards are ints, entries and battle
        reports tuples, cached placements are never altered); piles and columns are copied."""
        new = object.__new__(MedievalState)
        new.__dict__.update(self.__dict__)
        for name in ("decks", "survivors", "graveyard", "hands", "beside"):
            setattr(new, name, [list(pile) for pile in getattr(self, name)])
        new.table = [[list(side) for side in column] for column in self.table]
        new.pending = [None if p is None else list(p) for p in self.pending]
        new._legal = list(self._legal)
        new.reports = list(self.reports)
        return new

    def resample(self, viewer: int | None, rng: random.Random) -> MedievalState:
        """Every draw deck shuffled again (nobody knows its order), and each hand and face-down placement hidden
        from `viewer` dealt again from its owner's cards that viewer has not seen (deck and hand: everything else
        lies face up), placed in columns as its owner could have placed them (R3)."""
        new = self.clone()
        for p in (0, 1):
            hidden = p != viewer
            redeal([new.decks[p], new.hands[p]] if hidden else [new.decks[p]], rng)
            if hidden:
                new._legal[p] = None
                if new.pending[p] is not None:
                    slots = rng.choice(self.game.slots[len(new.hands[p])])
                    new.pending[p] = [None if slot is None else new.hands[p][slot] for slot in slots]
        return new

    # --- the State interface -------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        acting = self.players_to_act()
        return acting[0] if len(acting) == 1 else None

    def players_to_act(self) -> list[int]:
        if self.over:
            return []
        return [p for p in (0, 1) if self.hands[p] and self.pending[p] is None]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        out: list[Action] = []
        for p in self.players_to_act():
            if player is None or p == player:
                cached = self._legal[p]
                if cached is None:
                    cached = self._legal[p] = [Action(PLACE, p, {"cards": cards}) for cards in self._placements(p)]
                out.extend(cached)
        return out

    def _placements(self, player: int) -> list[list[str | None]]:
        """Every way to put the hand one card per column (R3); a short hand leaves columns empty."""
        ids = self.game.ids
        hand = self.hands[player]
        return [[None if slot is None else ids[hand[slot]] for slot in slots]
                for slots in self.game.slots[len(hand)]]

    def verify(self, action: Action) -> None:
        if self.over:
            raise Refusal("The war is over; there is nothing left to place.")
        kind = KINDS.get(action.kind)
        if kind is None:
            raise Refusal(f"The only move in Reenforcements is placing your reenforcements ('{PLACE}'), "
                          f"not '{action.kind}'.")
        if action.player not in (0, 1):
            raise Refusal(f"There is no player {action.player} in this game; players are 0 and 1.")
        kind.verify(self, action)

    def _verify_place(self, action: Action) -> None:
        """A placement: every reenforcement in hand to exactly one column, committed once a battle."""
        g, p = self.game, action.player
        if not self.hands[p]:
            raise Refusal("You have no reenforcements to place in this battle.")
        if self.pending[p] is not None:
            raise Refusal("You have already committed your reenforcements for this battle.")
        cards = action.get("cards")
        if not isinstance(cards, list) or len(cards) != g.columns:
            raise Refusal(f"Give one entry per column ({g.columns}, left to right): "
                          f"a card from your hand, or nothing.")
        hand = {g.ids[i]: i for i in self.hands[p]}
        placed: set[str] = set()
        for cid in cards:
            if cid is None:
                continue
            if not isinstance(cid, str) or cid not in hand:
                held = ", ".join(g.ids[i] for i in self.hands[p])
                raise Refusal(f"{cid!r} is not one of your reenforcements (you hold {held}).")
            if cid in placed:
                raise Refusal(f"'{cid}' is placed twice; each reenforcement goes to exactly one column.")
            placed.add(cid)
        missing = [cid for cid in hand if cid not in placed]
        if missing:
            raise Refusal(f"Every reenforcement must go to a column; you left out {', '.join(missing)}.")

    def _apply(self, action: Action, rng: random.Random) -> None:
        KINDS[action.kind].apply(self, action, rng)

    def _place(self, action: Action, rng: random.Random) -> None:
        """The placement waits face down; once both are in, they are revealed and the battle resolved."""
        index = self.game.index
        self.pending[action.player] = [None if cid is None else index[cid] for cid in action["cards"]]
        if not self.players_to_act():
            self._reveal_and_resolve(rng)

    @property
    def is_terminal(self) -> bool:
        return self.over

    @property
    def winner(self) -> int | None:
        return self._winner

    def label(self, action: Action) -> str:
        kind = KINDS.get(action.kind)
        return str(action) if kind is None else kind.label(self, action)

    def _place_label(self, action: Action) -> str:
        placed = self._placed(action.get("cards") or [])
        return f"Place {placed}" if placed else "Place nothing"

    def _placed(self, cards: Sequence[str | None]) -> str:
        """'Archers left, Knights right': a placement as a player reads it."""
        g = self.game
        return ", ".join(f"{g.names[g.index[cid]]} {g.column_names[c]}" for c, cid in enumerate(cards) if cid is not None)

    def narrate(self, action: Action) -> list[Told]:
        kind = KINDS.get(action.kind)
        return [] if kind is None else kind.told(self, action)

    def _place_told(self, action: Action) -> list[Told]:
        """The placement is face down: the other player and spectators read only that it was committed."""
        p = action.player
        placed = self._placed(action["cards"]) or "nothing"
        return [Told(f"{seat(p)} placed their reenforcements face down", {p: f"{seat(p)} placed {placed} (face down)"})]

    def opening(self) -> list[Told]:
        names = self.game.names
        held = {p: f"Battle 1 begins: {seat(p)} holds {', '.join(names[i] for i in self.hands[p]) or 'nothing'}"
                for p in (0, 1)}
        return [Told(f"Battle {self.battle} begins", held)] if not self.over else []

    def task(self, player: int) -> str:
        return "place reenforcements face down"

    def _tell_reveal(self) -> None:
        """Both placements turned over: a line everyone reads, naming each card and column."""
        g = self.game
        shown = [self._placed([None if i is None else g.ids[i] for i in self.pending[p] or []]) or "nothing"
                 for p in (0, 1)]
        self.tell(f"Reenforcements revealed: {seat(0)} placed {shown[0]}; {seat(1)} placed {shown[1]}",
                  reveals="both players' reenforcements")

    def _tell_battles(self) -> None:
        """Each battle fought in this action, column by column, then the end of the war if it came."""
        g = self.game
        for report in self.reports:
            parts = []
            for c, r in enumerate(report.columns):
                name = g.column_names[c]
                if r.winner is None:
                    parts.append(f"{name} {'deadlocked' if r.outcome == 'deadlock' else 'empty'}")
                else:
                    totals = "unopposed" if r.outcome == "unopposed" else f"{r.totals[0]}–{r.totals[1]}"
                    parts.append(f"{name} to {seat(r.winner)} ({totals})")
            self.tell(f"Battle {report.battle}: " + ", ".join(parts))
        if self.over:
            won = "no winner" if self._winner is None else f"{seat(self._winner)} wins"
            self.tell(f"The war is over, {self.end_reason}: {won}")

    def view(self, player: int | None) -> dict[str, Any]:
        """Public: the table, piles (Survivors and Graveyards are face up), counts of decks and
        hands. Hidden: deck order, the other player's hand and uncommitted or committed placement."""
        g = self.game
        ids = g.ids
        totals = self.totals()
        players = []
        for p in (0, 1):
            mine = player == p
            players.append({
                "deck_name": g.deck_names[p],
                "deck": len(self.decks[p]),
                "hand": [ids[i] for i in self.hands[p]] if mine else len(self.hands[p]),
                "committed": self.pending[p] is not None,
                "placement": (None if not mine or (pending := self.pending[p]) is None
                              else [None if i is None else ids[i] for i in pending]),
                "survivors": [ids[i] for i in self.survivors[p]],
                "graveyard": [ids[i] for i in self.graveyard[p]],
                "beside": [ids[i] for i in self.beside[p]],
                "cards_left": self.cards_left(p),
            })
        return {
            "game": g.id,
            "battle": self.battle,
            "over": self.over,
            "winner": self._winner,
            "end_reason": self.end_reason,
            "to_act": self.players_to_act(),
            "you": player,
            "players": players,
            "columns": [{"name": g.column_names[c],
                         "cards": [[self._entry_json(e) for e in self.table[c][p]] for p in (0, 1)],
                         "totals": [totals[0][c], totals[1][c]]} for c in range(g.columns)],
            "battles": [{
                "battle": report.battle,
                "beside": [[ids[i] for i in side] for side in report.beside],
                "columns": [{"name": g.column_names[c],
                             "cards": [[{**self._entry_json(e), "tie": r.ties_from is not None and i >= r.ties_from[p]}
                                        for i, e in enumerate(side)] for p, side in enumerate(r.cards)],
                             "totals": list(r.totals), "winner": r.winner, "outcome": r.outcome,
                             "tie_rounds": r.tie_rounds} for c, r in enumerate(report.columns)],
            } for report in self.reports],
        }

    def _entry_json(self, entry: Entry) -> dict[str, Any]:
        card, active = entry
        return {"card": self.game.ids[card], "counts": active or not self.game.event[card]}

    # --- rules ---------------------------------------------------------------------------

    def cards_left(self, player: int) -> int:
        """Cards a player still has in the war (not in the Graveyard)."""
        on_table = sum(len(col[player]) for col in self.table)
        return (len(self.decks[player]) + len(self.survivors[player]) + len(self.hands[player])
                + len(self.beside[player]) + on_table)

    def _draw(self, p: int, rng: random.Random) -> int | None:
        """Top card of the draw deck; an empty deck is rebuilt from shuffled Survivors first (R2)."""
        deck = self.decks[p]
        if not deck:
            if not self.survivors[p]:
                return None
            deck.extend(self.survivors[p])
            self.survivors[p] = []
            rng.shuffle(deck)
        return deck.pop()

    def _play(self, p: int, col: int, card: int, active: bool, rng: random.Random) -> None:
        """Put a card on a column and follow its chain of "play another card" (R1, R4, R5).

        `active` is True for the opening lay and its chains; False for reenforcements, tie
        cards and their chains, where Events are inert. A Beside event leaves the column and
        is replaced by another card (R6)."""
        g = self.game
        stack = self.table[col][p]
        deck = self.decks[p]  # _draw refills this same list, so it stays valid
        owed = 1
        while True:
            owed -= 1
            if g.event[card] and not active:
                stack.append((card, False))
            elif g.beside[card]:
                self.beside[p].append(card)
                owed += 1
            else:
                stack.append((card, True))
                if g.effect[card] == PLAY_ANOTHER:
                    owed += g.amount[card]
            if owed <= 0:
                return
            drawn = deck.pop() if deck else self._draw(p, rng)
            if drawn is None:
                return
            card = drawn

    def totals(self) -> list[list[int | None]]:
        """Each side's total per column (None where that side has no cards), R7."""
        g = self.game
        cols = g.columns
        raw = [[0] * cols, [0] * cols]
        every = [0, 0]
        value, effect, amount, event = g.value, g.effect, g.amount, g.event
        for c in range(cols):
            for p in (0, 1):
                for card, active in self.table[c][p]:
                    if event[card] and not active:
                        continue
                    raw[p][c] += value[card]
                    e = effect[card]
                    if e == ADD_COLUMN:
                        raw[p][c] += amount[card]
                    elif e == ADD_ALL:
                        every[p] += amount[card]
                    elif e == SUB_COLUMN:
                        raw[1 - p][c] -= amount[card]
                    elif e == SUB_ALL:
                        every[1 - p] -= amount[card]
        for p in (0, 1):
            for card in self.beside[p]:
                if effect[card] == ADD_ALL:
                    every[p] += amount[card]
                elif effect[card] == SUB_ALL:
                    every[1 - p] -= amount[card]
        floor = g.min_total
        return [[max(floor, raw[p][c] + every[p]) if self.table[c][p] else None for c in range(cols)]
                for p in (0, 1)]

    def _reveal_and_resolve(self, rng: random.Random) -> None:
        """Both have committed: reveal together, follow chains, resolve, then start the next battle."""
        self.reports = []
        if self.telling is not None:
            self._tell_reveal()
        for p in (0, 1):
            placement = self.pending[p]
            if placement is not None:
                for col, card in enumerate(placement):
                    if card is not None:
                        self._play(p, col, card, False, rng)
            self.hands[p] = []
            self.pending[p] = None
            self._legal[p] = None
        self._resolve(rng)
        self._next_battle(rng)
        if self.telling is not None:
            self._tell_battles()

    def _decide(self, decided: list[Decision | None], totals: list[list[int | None]]) -> list[int]:
        """Decide every open column its totals settle; a decided column stays decided (R8). Returns the tied ones."""
        tied = []
        for c in range(self.game.columns):
            if decided[c] is None:
                pair = (totals[0][c], totals[1][c])
                outcome = column_outcome(*pair)
                if outcome is None:
                    tied.append(c)
                else:
                    decided[c] = (*outcome, pair)
        return tied

    def _resolve(self, rng: random.Random) -> None:
        """Decide every column, breaking ties with more cards (R8, R9), then clear the battlefield."""
        g = self.game
        cols = g.columns
        decided: list[Decision | None] = [None] * cols
        rounds = [0] * cols
        totals = self.totals()
        ties_from = [(len(self.table[c][0]), len(self.table[c][1])) for c in range(cols)]
        while True:
            tied = self._decide(decided, totals)
            if not tied:
                break
            for c in tied:
                rounds[c] += 1
                added = False
                for p in (0, 1):
                    for _ in range(g.tie_cards):
                        card = self._draw(p, rng)
                        if card is None:
                            break
                        self._play(p, c, card, False, rng)
                        added = True
                if not added:
                    decided[c] = (None, "deadlock", (totals[0][c], totals[1][c]))
            totals = self.totals()
        self.settle(decided, rounds, ties_from)

    def settle(self, decided: Sequence[Decision | None], rounds: Sequence[int] | None = None,
               ties_from: Sequence[tuple[int, int]] | None = None) -> BattleReport:
        """Clear a decided battlefield (R11): a column's winner keeps its cards as Survivors, every other
        card there and every Event beside the field goes to its owner's Graveyard. The report is kept, with
        where each column's tie cards begin (`ties_from`) when the engine drew them."""
        g = self.game
        cols = g.columns
        results = []
        for c in range(cols):
            result = decided[c]
            assert result is not None  # callers settle only once every column is decided
            winner, outcome, pair = result
            sides = self.table[c]
            for p in (0, 1):
                pile = self.survivors[p] if winner == p else self.graveyard[p]
                pile.extend([card for card, _ in sides[p]])
            results.append(ColumnResult((tuple(sides[0]), tuple(sides[1])), pair, winner, outcome,
                                        rounds[c] if rounds else 0, ties_from[c] if ties_from else None))
            self.table[c] = [[], []]
        report = BattleReport(self.battle, (tuple(self.beside[0]), tuple(self.beside[1])), tuple(results))
        self.reports.append(report)
        for p in (0, 1):
            self.graveyard[p].extend(self.beside[p])
            self.beside[p] = []
        return report

    def resolve_laid(self, tie_rounds: Sequence[TieRound] = (), exhausted: Sequence[int] = ()) -> LaidBattle:
        """The battle on the table decided with tie cards laid by hand instead of drawn (the printed-card resolver).

        Round by round, each column tied at its start takes that round's cards, face down: an Event
        among them counts zero and does nothing (R5), chain cards are laid as their own entries. Columns
        are re-counted after each round and a decided column stays decided (R8); a column still tied in
        `exhausted` is a deadlock (R9). Cards laid in a column that was not tied are ignored."""
        state = self.clone()
        cols = self.game.columns
        decided: list[Decision | None] = [None] * cols
        rounds = [0] * cols
        tied = state._decide(decided, state.totals())
        for laid in tie_rounds:
            if not tied:
                break
            for c in tied:
                rounds[c] += 1
                for p in (0, 1):
                    state.table[c][p].extend((card, False) for card in laid[c][p])
            tied = state._decide(decided, state.totals())
        totals = state.totals()
        for c in list(tied):
            if c in exhausted:
                decided[c] = (None, "deadlock", (totals[0][c], totals[1][c]))
                tied.remove(c)
        settled = None
        if not tied:
            settled = state.clone()
            settled.settle(decided, rounds)
        return LaidBattle(state, tuple(decided), tuple(tied), settled)

    def _next_battle(self, rng: random.Random) -> None:
        """Check for the end (R12), else lay the opening cards and draw reenforcements (R3).

        A battle in which nobody has reenforcements needs no decision, so it is fought at once."""
        g = self.game
        while True:
            alive = [bool(self.decks[p] or self.survivors[p]) for p in (0, 1)]
            if not alive[0] or not alive[1]:
                self._finish(1 if alive[1] else 0 if alive[0] else None,
                             "both armies are destroyed" if not any(alive)
                             else f"{g.deck_names[1 if alive[0] else 0]} has no forces left")
                return
            if self.battle >= g.max_battles:
                left = [len(self.decks[p]) + len(self.survivors[p]) for p in (0, 1)]
                self._finish(None if left[0] == left[1] else (0 if left[0] > left[1] else 1),
                             f"the battle limit ({g.max_battles}) was reached")
                return
            self.battle += 1
            for p in (0, 1):
                deck = self.decks[p]
                for c in range(g.columns):
                    card = deck.pop() if deck else self._draw(p, rng)
                    if card is None:
                        break
                    self._play(p, c, card, True, rng)
            for p in (0, 1):
                deck = self.decks[p]
                hand = self.hands[p]
                for _ in range(g.reenforcements):
                    card = deck.pop() if deck else self._draw(p, rng)
                    if card is None:
                        break
                    hand.append(card)
            if self.hands[0] or self.hands[1]:
                return
            self._resolve(rng)

    def _finish(self, winner: int | None, reason: str) -> None:
        self.over = True
        self._winner = winner
        self.end_reason = reason


KINDS: dict[str, Kind[MedievalState]] = {
    PLACE: Kind({"cards": Arg(list[str | None], "one entry per column: a card from your hand, or nothing")},
                MedievalState._verify_place, MedievalState._place, MedievalState._place_label,
                MedievalState._place_told),
}
"""The one move of Reenforcements: placing a battle's reenforcements face down."""
MedievalState.ARGS = schema(KINDS)


def make_game(data: Any) -> MedievalGame:
    return MedievalGame(data)


# --- placement policy: the companion's advice and the AI opponent ------------------------


@dataclass(frozen=True)
class Outcome:
    """One placement and how it is expected to fare.

    `expected_cards`: opposing cards expected to fall minus your own (the war is won by
    attrition, so this is what `best_placement` maximises); `expected_columns`: columns
    expected to be won, a tie counting half; `per_column`: each column's chance of winning."""

    action: Action
    expected_cards: float
    expected_columns: float
    per_column: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.to_json(), "expected_cards": self.expected_cards,
                "expected_columns": self.expected_columns, "per_column": list(self.per_column)}


def _chain_mean(game: MedievalGame, pool: Sequence[int]) -> float:
    """Mean points one more card from `pool` brings as a reenforcement, chains included.

    A reenforcement-class card is worth its value plus any own-column bonus; Events are
    inert. If a fraction of cards calls for more, the mean m solves m = base + calls * m."""
    if not pool:
        return 0.0
    base = 0.0
    calls = 0.0
    for card in pool:
        if game.event[card]:
            continue
        base += game.value[card] + (game.amount[card] if game.effect[card] in (ADD_COLUMN, ADD_ALL) else 0)
        if game.effect[card] == PLAY_ANOTHER:
            calls += game.amount[card]
    n = len(pool)
    return (base / n) / max(0.05, 1.0 - calls / n)


def _reenforcement_points(game: MedievalGame, card: int, chain_mean: float) -> tuple[float, int]:
    """(points in its own column, points in every column) a card adds when placed face down."""
    if game.event[card]:
        return 0.0, 0
    e = game.effect[card]
    own = float(game.value[card])
    if e == ADD_COLUMN:
        own += game.amount[card]
    elif e == PLAY_ANOTHER:
        own += game.amount[card] * chain_mean
    return own, game.amount[card] if e == ADD_ALL else 0


def expected_outcomes(state: MedievalState, player: int) -> list[Outcome]:
    """Every legal placement for `player` with its expected result, best first.

    Uses only what the player may know: the table, their own hand, and the make-up (not the
    order) of the opponent's unseen cards. The opponent's face-down cards are modelled as a
    random placement of cards drawn from those unseen cards, so by linearity each column
    faces one uniformly drawn unseen card with probability (their hand size / columns); the
    sums over columns are then exact, with chains counted at their mean and a tie as a coin
    toss."""
    g = state.game
    cols = g.columns
    me, foe = player, 1 - player
    base = state.totals()
    foe_unseen = state.decks[foe] + state.hands[foe]
    foe_chain = _chain_mean(g, foe_unseen)
    foe_values: Counter[float] = Counter()
    for card in foe_unseen:
        own, every = _reenforcement_points(g, card, foe_chain)
        foe_values[own + every] += 1
    foe_n = len(foe_unseen)
    p_card = min(1.0, len(state.hands[foe]) / cols) if foe_n else 0.0
    my_chain = _chain_mean(g, state.decks[me] + state.survivors[me])
    floor = g.min_total
    outcomes = []
    for action in state.legal_actions(me):
        cards = action["cards"]
        own_add = [0.0] * cols
        extra = [0] * cols
        every = 0
        for c, cid in enumerate(cards):
            if cid is not None:
                card = g.index[cid]
                own, all_cols = _reenforcement_points(g, card, my_chain)
                own_add[c] += own
                every += all_cols
                extra[c] = 1 + (g.amount[card] if g.effect[card] == PLAY_ANOTHER and not g.event[card] else 0)
        per_column = []
        balance = 0.0
        for c in range(cols):
            my_cards = len(state.table[c][me]) + extra[c]
            if not my_cards:
                per_column.append(0.0)
                continue
            mine = max(floor, (base[me][c] or 0) + own_add[c] + every)
            foe_base = base[foe][c]
            foe_cards = len(state.table[c][foe])
            # Either no opposing reenforcement arrives and the column is as it stands...
            win = 1.0 if foe_base is None else _compare(mine, float(foe_base))
            chance = (1.0 - p_card) * win
            balance += (1.0 - p_card) * (win * foe_cards - (1.0 - win) * my_cards)
            # ...or one of the opponent's unseen cards joins it.
            if p_card:
                for points, count in foe_values.items():
                    weight = p_card * count / foe_n
                    win = _compare(mine, max(floor, (foe_base or 0) + points))
                    chance += weight * win
                    balance += weight * (win * (foe_cards + 1) - (1.0 - win) * my_cards)
            per_column.append(chance)
        # Rounded so that equal placements compare equal despite float noise.
        outcomes.append(Outcome(action, round(balance, 9), round(sum(per_column), 9),
                                tuple(round(x, 9) for x in per_column)))
    outcomes.sort(key=lambda o: (-o.expected_cards, -o.expected_columns))
    return outcomes


def _compare(mine: float, theirs: float) -> float:
    """1 for a win, 0 for a loss, a half for a tie (ties are settled by the luck of the draw)."""
    if abs(mine - theirs) < 1e-9:
        return 0.5
    return 1.0 if mine > theirs else 0.0


def best_placement(state: MedievalState, player: int) -> Action:
    """The placement with the best expected card balance, then the most columns won (first listed among equals)."""
    outcomes = expected_outcomes(state, player)
    if not outcomes:
        raise Refusal("You have no reenforcements to place in this battle.")
    return outcomes[0].action


def ai_policy(state: State, legal: list[Action], rng: random.Random) -> Action:
    """A `Match.play_out` policy: the first player to act places by `best_placement`."""
    assert isinstance(state, MedievalState)
    return best_placement(state, legal[0].player)
