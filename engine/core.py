"""The shape every Muster game shares, after OpenSpiel and pokerkit.

A `Game` holds rules and parameters (from `cards/`); a `State` is one position.
States offer `legal_actions`, `verify` (raises `Refusal` with a reason a player
understands), `can` and `apply`. Chance is explicit: `apply` receives the random
source for that step, derived from the match seed and the action's sequence
number, so replaying a log (or undoing and redoing an action) gives the same
shuffles and dice. A `Match` is a seed, options and an append-only action log;
its state is always a replay of that log.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar


class Refusal(Exception):
    """An illegal action; the message is addressed to the player and the state is unchanged."""


@dataclass(frozen=True)
class Action:
    """One player decision. `args` holds JSON-ready values so logs can be stored."""

    kind: str
    player: int
    args: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.args[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.args.get(key, default)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "args": dict(self.args)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        return cls(str(data["kind"]), int(data["player"]), dict(data.get("args", {})))

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.args.items())
        return f"P{self.player} {self.kind}({args})"


def act(kind: str, player: int, **args: Any) -> Action:
    """Shorthand for building an action in code and tests."""
    return Action(kind, player, args)


def chance(seed: int | str, step: int) -> random.Random:
    """The random source for one step of a match: same seed and step, same outcome."""
    return random.Random(f"muster:{seed}:{step}")


class State(ABC):
    """One position of a game. Subclasses implement the rules."""

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Whose decision it is; None when the game is over or when several players may act."""

    @abstractmethod
    def players_to_act(self) -> list[int]:
        """Every player who may act now (more than one during simultaneous choices)."""

    @abstractmethod
    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Legal actions, for one player or for everyone who may act."""

    @abstractmethod
    def verify(self, action: Action) -> None:
        """Raise Refusal, with a reason for the player, if `action` is illegal here."""

    @abstractmethod
    def _apply(self, action: Action, rng: random.Random) -> None:
        """Carry out a verified action, drawing any chance from `rng`."""

    @abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """What `player` may see (None: a spectator, public information only). JSON-ready."""

    @property
    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game (or battle) is over."""

    @property
    @abstractmethod
    def winner(self) -> int | None:
        """The winning player once terminal, or None for no winner (a draw, or not over)."""

    def can(self, action: Action) -> bool:
        try:
            self.verify(action)
        except Refusal:
            return False
        return True

    def apply(self, action: Action, rng: random.Random) -> None:
        """Verify, then carry out. A refused action leaves the state untouched."""
        self.verify(action)
        self._apply(action, rng)

    def label(self, action: Action) -> str:
        """A short phrase for a button or a log line; engines override it with their own wording."""
        return str(action)

    def clone(self) -> State:
        return copy.deepcopy(self)


S = TypeVar("S", bound=State)


class Game(ABC, Generic[S]):
    """A game's rules and parameters; it makes initial states."""

    id: str = ""

    @abstractmethod
    def new_state(self, rng: random.Random, options: Mapping[str, Any]) -> S:
        """The position after setup (shuffles and deals come from `rng`)."""

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Raise Refusal if the table options are unusable; the default accepts anything."""


class Match(Generic[S]):
    """A seed, options and an action log; the state is a replay of the log."""

    def __init__(self, game: Game[S], seed: int | str, options: Mapping[str, Any] | None = None,
                 log: list[Action] | None = None) -> None:
        self.game = game
        self.seed = seed
        self.options: dict[str, Any] = dict(options or {})
        game.check_options(self.options)
        self.log: list[Action] = []
        self.state: S = game.new_state(chance(seed, 0), self.options)
        for action in log or []:
            self.apply(action)

    def apply(self, action: Action) -> S:
        self.state.apply(action, chance(self.seed, len(self.log) + 1))
        self.log.append(action)
        return self.state

    def undo(self) -> S:
        """Take back the last action by replaying the rest of the log."""
        if not self.log:
            raise Refusal("There is nothing to undo.")
        kept = self.log[:-1]
        self.state = self.game.new_state(chance(self.seed, 0), self.options)
        self.log = []
        for action in kept:
            self.apply(action)
        return self.state

    def play_out(self, policy: Callable[[S, list[Action], random.Random], Action],
                 rng: random.Random, max_actions: int = 100_000) -> S:
        """Play to the end with a policy choosing among the legal actions."""
        while not self.state.is_terminal and len(self.log) < max_actions:
            legal = self.state.legal_actions()
            if not legal:
                raise RuntimeError(f"{self.game.id}: no legal action in a live state after {len(self.log)} actions")
            self.apply(policy(self.state, legal, rng))
        return self.state


def random_policy(state: State, legal: list[Action], rng: random.Random) -> Action:
    return rng.choice(legal)
