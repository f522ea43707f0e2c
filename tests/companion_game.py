"""A tiny two-to-four-player dice race with a hidden card per player, for testing the companion without a real game.

It follows `engine.core` exactly: seeded chance, verify/apply, a private view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.core import Action, Game, Refusal, State


class RaceState(State):
    """Players take turns rolling a die; the first to `target` wins. Each holds a secret card."""

    def __init__(self, players: int, target: int, secrets: list[str]) -> None:
        self.players = players
        self.target = target
        self.scores = [0] * players
        self.secrets = secrets
        self.turn = 0
        self.rolls: list[int] = []

    @property
    def current_player(self) -> int | None:
        return None if self.is_terminal else self.turn

    def players_to_act(self) -> list[int]:
        return [] if self.is_terminal else [self.turn]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        if self.is_terminal or (player is not None and player != self.turn):
            return []
        return [Action("roll", self.turn), Action("bank", self.turn, {"amount": 1})]

    def verify(self, action: Action) -> None:
        if self.is_terminal:
            raise Refusal("The race is over.")
        if action.player != self.turn:
            raise Refusal("It is not your turn.")
        if action.kind == "roll":
            return
        if action.kind == "bank":
            if action.get("amount") not in (1,):
                raise Refusal("You can bank exactly 1 point.")
            return
        raise Refusal(f"There is no move called '{action.kind}'.")

    def _apply(self, action: Action, rng: random.Random) -> None:
        gain = rng.randint(1, 6) if action.kind == "roll" else 1
        self.rolls.append(gain)
        self.scores[action.player] += gain
        if not self.is_terminal:
            self.turn = (self.turn + 1) % self.players

    def view(self, player: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"scores": list(self.scores), "turn": self.turn, "rolls": list(self.rolls)}
        if player is not None:
            out["your_card"] = self.secrets[player]
        return out

    @property
    def is_terminal(self) -> bool:
        return max(self.scores) >= self.target

    @property
    def winner(self) -> int | None:
        return self.scores.index(max(self.scores)) if self.is_terminal else None

    def label(self, action: Action) -> str:
        return "Roll the die" if action.kind == "roll" else "Bank 1 point"


class RaceGame(Game[RaceState]):
    id = "race"

    def check_options(self, options: Mapping[str, Any]) -> None:
        players = options.get("players", 2)
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise Refusal("The race needs 2 to 4 players.")
        target = options.get("target", 20)
        if not isinstance(target, int) or target < 1:
            raise Refusal("The target must be a whole number of points, at least 1.")

    def players(self, options: Mapping[str, Any]) -> int:
        return int(options.get("players", 2))

    def new_state(self, rng: random.Random, options: Mapping[str, Any]) -> RaceState:
        players = int(options.get("players", 2))
        cards = ["Ace of Spades", "Queen of Hearts", "Seven of Clubs", "Two of Diamonds", "King of Clubs"]
        rng.shuffle(cards)
        return RaceState(players, int(options.get("target", 20)), cards[:players])


class TallyState(State):
    """Anyone may add a point at any time (simultaneous moves), for concurrency tests and benchmarks."""

    def __init__(self, players: int) -> None:
        self.counts = [0] * players

    @property
    def current_player(self) -> int | None:
        return None

    def players_to_act(self) -> list[int]:
        return list(range(len(self.counts)))

    def legal_actions(self, player: int | None = None) -> list[Action]:
        seats = range(len(self.counts)) if player is None else [player]
        return [Action("add", p, {"n": sum(self.counts) + 1}) for p in seats]

    def verify(self, action: Action) -> None:
        if action.kind != "add" or not 0 <= action.player < len(self.counts):
            raise Refusal("Only 'add' exists.")
        if action.get("n") != sum(self.counts) + 1:
            raise Refusal(f"That count is stale: the tally is now {sum(self.counts)}.")

    def _apply(self, action: Action, rng: random.Random) -> None:
        self.counts[action.player] += 1

    def view(self, player: int | None) -> dict[str, Any]:
        return {"counts": list(self.counts)}

    @property
    def is_terminal(self) -> bool:
        return False

    @property
    def winner(self) -> int | None:
        return None


class TallyGame(Game[TallyState]):
    id = "tally"

    def players(self, options: Mapping[str, Any]) -> int:
        return int(options.get("players", 6))

    def new_state(self, rng: random.Random, options: Mapping[str, Any]) -> TallyState:
        return TallyState(int(options.get("players", 6)))
