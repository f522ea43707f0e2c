"""The shape every Muster game shares, after OpenSpiel and pokerkit.

A `Game` holds rules and parameters (from `cards/`); a `State` is one position.
States offer `legal_actions`, `verify` (raises `Refusal` with a reason a player
understands), `can` and `apply`. Chance is explicit: `apply` receives the random
source for that step, derived from the match seed and the action's sequence
number, so replaying a log (or undoing and redoing an action) gives the same
shuffles and dice. A `Match` is a seed, options and an append-only action log;
its state is always a replay of that log.

What each viewer may know is decided here and in the engines, never by a page:
`State.narrate` and `State.tell` write every action's history lines per viewer at the
time of the action (a face-down choice is "{p0} chose a card" to the others; the
reveal is a line everyone reads), `State.prompt` is the status line per viewer, and
`Match.undo_refusal` allows taking back only an action that revealed nothing and drew
no chance, until another player acts (docs/design.md, "Information and undo").
"""

from __future__ import annotations

import copy
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, ClassVar, Generic, Literal, Self, TypeVar, get_args, get_origin, overload

from pydantic import TypeAdapter, ValidationError


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


R = TypeVar("R", bound=random.Random)


@overload
def chance(seed: int | str, step: int) -> random.Random: ...


@overload
def chance(seed: int | str, step: int, source: type[R]) -> R: ...


def chance(seed: int | str, step: int, source: type[random.Random] = random.Random) -> random.Random:
    """The random source for one step of a match: same seed and step, same outcome (from `source`, a
    `random.Random` or a subclass of it, whose type the result has)."""
    return source(f"muster:{seed}:{step}")


class _Watched(random.Random):
    """A step's random source that notes whether anything was drawn from it (undo needs to know), seeded only at its
    first draw: most moves draw nothing, and seeding from a string (a hash, then filling the generator) cost more than
    the rest of a trial move of `Match.ahead_refusal`, a dozen of which each move button asks for.

    Every draw goes through `random` or `getrandbits`, so it gives exactly the outcomes of `chance` from the same seed;
    its state (`getstate`, a copy, a pickle) is the seeded one's too, without counting as a draw."""

    def __init__(self, seed: str = "") -> None:
        self.drawn = False
        self.gauss_next = None
        self._unseeded: str | None = seed

    def _seeded(self) -> None:
        if self._unseeded is not None:
            self.seed(self._unseeded)
            self._unseeded = None

    def _draw(self) -> None:
        self.drawn = True
        self._seeded()

    def getstate(self) -> tuple[Any, ...]:
        self._seeded()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._unseeded = None
        super().setstate(state)

    def __reduce__(self) -> tuple[Any, ...]:
        return _rewatched, (self.getstate(), self.drawn)

    def random(self) -> float:
        self._draw()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self._draw()
        return super().getrandbits(k)


def _rewatched(state: tuple[Any, ...], drawn: bool) -> _Watched:
    """A copied or unpickled `_Watched`: the same state, and whether it was drawn from."""
    watched = _Watched()
    watched.setstate(state)
    watched.drawn = drawn
    return watched


PLACEHOLDER = re.compile(r"\{p(\d)\}")
"""A seat's name in a history line or prompt: {p0} for seat 0 … {p5}."""


def seat(player: int) -> str:
    """The placeholder for a seat's name, filled in by `Line.format` (or `fill`) on the page."""
    return f"{{p{player}}}"


def fill(text: str, names: Sequence[str]) -> str:
    """Put seat names into `{pN}` placeholders in one pass: a name is inserted as a value and never re-read."""
    def name(m: re.Match[str]) -> str:
        n = int(m[1])
        return names[n] if n < len(names) else f"seat {n + 1}"
    return PLACEHOLDER.sub(name, text)


@dataclass(frozen=True)
class Told:
    """One history line as the engine wrote it: `text` for everyone, `seen[p]` instead for seat p.

    `reveals` says, in player words, what hidden thing the line showed to anyone (the
    actor included); an action with such a line can never be taken back.
    """

    text: str
    seen: Mapping[int, str] = field(default_factory=dict)
    reveals: str | None = None

    def read_by(self, viewer: int | None) -> str:
        return self.text if viewer is None else self.seen.get(viewer, self.text)


@dataclass(frozen=True)
class Line:
    """One line of a match's history as one viewer reads it (`kind`: "action", "undo" or "notice").

    `undone` marks the lines of an action that was later taken back.
    """

    seq: int
    actor: int | None
    text: str
    kind: str = "action"
    undone: bool = False

    def format(self, names: Sequence[str]) -> str:
        """The text with seat names in place of {p0}…{p5}, for showing as plain text."""
        return fill(self.text, names)


@dataclass(frozen=True)
class Arg:
    """An action argument's type, with the words a refusal uses for it and whether it may be left out."""

    type: Any
    words: str = ""
    optional: bool = False


Schema = Mapping[str, Mapping[str, Any]]
"""Action kind -> its arguments, each a type (`str`, `int`, `bool`, `list[str]`, `list[str | None]`, a
`Literal`) or an `Arg`; a kind with no arguments maps to {}."""

_WORDS: dict[Any, str] = {str: "a name", int: "a whole number", bool: "true or false",
                          list[str]: "a list of names", list[str | None]: "a list of names or nothing"}


@cache
def _adapter(tp: Any) -> TypeAdapter[Any]:
    return TypeAdapter(tp)


def check_args(schema: Schema, action: Action) -> None:
    """Refuse an action whose arguments do not fit its kind's declared schema (unknown kinds are left
    to the engine's `verify`, which names the moves there are), so `verify` and `_apply` only ever
    meet well-formed arguments."""
    if type(action.player) is not int:
        raise Refusal(f"There is no player {action.player!r}; players are numbered from 0.")
    if not isinstance(action.args, Mapping):
        raise Refusal(f"The details of a move are named values, not {action.args!r}.")
    declared = schema.get(action.kind)
    if declared is None:
        return
    for name in action.args:
        if name not in declared:
            takes = ", ".join(f"'{n}'" for n in declared) or "nothing"
            raise Refusal(f"'{action.kind}' takes no '{name}' (it takes {takes}).")
    for name, spec in declared.items():
        arg = spec if isinstance(spec, Arg) else Arg(spec)
        if name not in action.args:
            if arg.optional:
                continue
            raise Refusal(f"'{action.kind}' needs '{name}'.")
        try:
            _adapter(arg.type).validate_python(action.args[name], strict=True)
        except ValidationError:
            words = arg.words or _WORDS.get(arg.type) or (
                "one of " + ", ".join(map(repr, get_args(arg.type))) if get_origin(arg.type) is Literal else str(arg.type))
            raise Refusal(f"'{name}' of '{action.kind}' must be {words}, not {action.args[name]!r}.") from None


class State(ABC):
    """One position of a game. Subclasses implement the rules.

    `ARGS` declares each action kind's arguments; `check` (used by `can` and `apply`) refuses
    malformed ones before the engine's `verify` sees them, so a bad tap is a refusal, never a crash.
    """

    ARGS: ClassVar[Schema] = {}

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

    def check(self, action: Action) -> None:
        """Raise Refusal if `action` is malformed for its kind or illegal here (the one full test)."""
        check_args(self.ARGS, action)
        self.verify(action)

    def can(self, action: Action) -> bool:
        try:
            self.check(action)
        except Refusal:
            return False
        return True

    def apply(self, action: Action, rng: random.Random) -> None:
        """Check, then carry out. A refused action leaves the state untouched."""
        self.check(action)
        self._apply(action, rng)

    def play(self, action: Action, rng: random.Random) -> None:
        """Carry out an action this position's `legal_actions` has just listed, without checking it again.

        The path of random playouts and bots' searches (engine.bots), where the check would only repeat what
        listing the action found; anything else goes through `apply`."""
        self._apply(action, rng)

    def random_action(self, rng: random.Random, player: int | None = None) -> Action | None:
        """A move of `player` (None: of anyone who may act) drawn uniformly from `playable(legal_actions(player))`,
        or None when there is none: the move of a random playout (engine.bots' search, balance's random player).

        The one public way to play at random, so an engine may make it fast (warfare numbers its moves and builds
        only the one drawn) but never different: an override draws the same move from the same `rng`, consuming
        it alike, as this listing does (tests/test_random_action.py), so a seed gives the same games either way."""
        legal = playable(self.legal_actions(player))
        return legal[rng.randrange(len(legal))] if legal else None

    def label(self, action: Action) -> str:
        """A short phrase for the actor's own button; engines override it. Never shown to other viewers."""
        return str(action)

    telling: list[Told] | None = None
    """While a `Match` records history, the lines of the action being applied; None otherwise."""

    def narrate(self, action: Action) -> list[Told]:
        """The history lines of a verified `action`, per viewer, written from this position before it is applied.

        Engines override it; lines about its outcome (reveals, dice) come from `tell` in `_apply`.
        The default names no detail, so it cannot leak.
        """
        return [Told(f"{seat(action.player)} made a move")]

    def opening(self) -> list[Told]:
        """History lines for the position setup made (who starts, each player's own opening cards); read
        from the opening position, before any action."""
        return []

    def tell(self, text: str, seen: Mapping[int, str] | None = None, reveals: str | None = None) -> None:
        """Add a history line for the action being applied (a no-op unless a Match is recording)."""
        if self.telling is not None:
            self.telling.append(Told(text, seen or {}, reveals))

    def clock_round(self) -> int:
        """Which round the table's round timer is timing now: when it changes, the timer starts afresh.

        The timer is kept by the companion from `timer` log entries (never an action: it cannot be
        undone and reveals nothing); games with timed rounds override this (Waterloo: the hand)."""
        return 0

    def forfeits(self, action: Action) -> str | None:
        """What a legal `action` gives up that its player may not mean to (folding a hand, ending a turn with
        actions left), in words for asking first; None for most moves. From what the mover knows only."""
        return None

    def task(self, player: int) -> str:
        """What `player` must decide now, in words every viewer may read; engines override it."""
        return "make a move"

    def prompt(self, viewer: int | None) -> str:
        """The status line for `viewer` (None: a spectator): whose move it is and what for, never hidden detail."""
        if self.is_terminal:
            won = self.winner
            if won is None:
                return "The game is over: no winner."
            return "The game is over: you won." if viewer == won else f"The game is over: {seat(won)} won."
        acting = self.players_to_act()
        if viewer in acting:
            return f"Your move: {self.task(viewer)}."
        tasks: dict[str, list[int]] = {}
        for p in acting:
            tasks.setdefault(self.task(p), []).append(p)
        return "Waiting for " + "; ".join(" and ".join(map(seat, ps)) + f" to {task}" for task, ps in tasks.items()) + "."

    def clone(self) -> Self:
        return copy.deepcopy(self)

    def resample(self, viewer: int | None, rng: random.Random) -> Self:
        """A copy of this position identical in everything `viewer` (a seat, or None for a spectator) knows, with
        everything hidden from it dealt again consistently with what it knows: unseen cards from the cards that
        viewer has not seen, hidden picks from the picks still possible, what was shown kept as shown.

        This is the one place where each game decides what a viewer may know: every surface a viewer reads (its
        view, prompt, moves and their labels, each move's question, history lines) must come out the same on any
        re-dealt copy (tests/test_information_sets.py). It depends on the viewer's information only, never on the
        hidden arrangement it replaces: the same `rng` gives the same copy from any position the viewer cannot tell
        apart, so foresight worked out on such copies (`Match.ahead_refusal`) cannot give a hidden card away. Games
        with hidden things override it; this default, for a game without any, is a plain copy."""
        return self.clone()


def playable(legal: list[Action]) -> list[Action]:
    """The moves a bot or a random player picks among: every legal move but conceding (LEAVE), unless nothing else
    is left. Giving up is a player's own decision; in a search or a random game it only adds noise. An engine that
    offers it lists it last (hexbattle), so the common case costs one look."""
    if len(legal) < 2 or legal[-1].kind != LEAVE:
        return legal
    return [a for a in legal if a.kind != LEAVE]


def redeal(places: Sequence[list[Any]], rng: random.Random, key: Callable[[Any], Any] | None = None) -> None:
    """Deal the cards of `places` (lists, changed in place) again at random, each keeping its size.

    The cards are pooled in a fixed order first (sorted, by `key` when given), so the outcome depends on which
    cards are pooled and on `rng` only, never on where they lay: `State.resample` needs exactly that."""
    pool = sorted((c for place in places for c in place), key=key)
    rng.shuffle(pool)
    start = 0
    for place in places:
        end = start + len(place)
        place[:] = pool[start:end]
        start = end


S = TypeVar("S", bound=State)


class Game(ABC, Generic[S]):
    """A game's rules and parameters; it makes initial states."""

    id: str = ""

    @abstractmethod
    def new_state(self, rng: random.Random, options: Mapping[str, Any]) -> S:
        """The position after setup (shuffles and deals come from `rng`)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Game[S]:
        """The game itself: a deep copy of a position shares its rules, as each state's `clone` does (a game holds
        nothing a match changes, only its rules and tables filled as matches are played). A compiled game
        (`engine.native`) could not be copied otherwise."""
        return self

    test_options: frozenset[str] = frozenset()
    """Options only tests and lessons may set (scripted dice, stacked decks): refused from the app."""

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Raise Refusal if the table options are unusable; the default accepts anything."""

    def players(self, options: Mapping[str, Any]) -> int:
        """How many seats a table with these (checked) options has."""
        return 2

    def table_options(self, options: Mapping[str, Any], seats: int) -> dict[str, Any]:
        """Options typed into the app, checked (types, ranges, unknown keys, seat count) and returned cleaned.

        Raises Refusal naming what is wrong. Test-only options are refused here; tests still
        pass them to `Match` directly.
        """
        if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
            raise Refusal('Table options must be a JSON object of named options, like {"name": value}.')
        scripted = sorted(set(options) & self.test_options)
        if scripted:
            raise Refusal(f"The option {scripted[0]!r} is for tests only; a table made in the app cannot set it.")
        cleaned = dict(options)
        self.check_options(cleaned)
        wanted = self.players(cleaned)
        if wanted != seats:
            raise Refusal(f"These options make a game for {wanted} players, but the table has {seats} seats.")
        return cleaned


@dataclass(frozen=True)
class _Record:
    """One applied log entry as the history remembers it (built only once somebody asks for history)."""

    seq: int
    kind: str  # "action", "undo" or "notice"
    actor: int | None
    told: tuple[Told, ...]
    reveals: str | None = None
    chance: bool = False
    undone: bool = False
    took_back: _Record | None = None


LEAVE = "concede"
"""The kind of move by which a player concedes and leaves a game that goes on without them (a game of more
than two, such as Waterloo, declares it among its `ARGS`; any seat may make it at any time while it plays).
It stands once made: never taken back, whatever it revealed. A game without it ends when a player concedes
(the companion's table store records that)."""

#: Log entry kinds that leave the game's position as it was: the round timer and table notices.
#: A move offered before one of them still means what its player saw (`Snapshot.moved_on_since`).
POSITION_KEEPING = frozenset({"timer", "notice"})


class Match(Generic[S]):
    """A seed, options and an action log; the state is a replay of the live actions.

    `log` holds the live actions and `steps` their sequence numbers (the step their chance
    comes from). `events` is everything applied, undos and notices included, so the history
    can be rebuilt; the per-viewer history itself is recorded only once `record`, `history` or
    `undo_refusal` is first asked for, so bulk playouts pay nothing for it.
    """

    def __init__(self, game: Game[S], seed: int | str, options: Mapping[str, Any] | None = None,
                 log: list[Action] | None = None) -> None:
        self.game = game
        self.seed = seed
        self.options: dict[str, Any] = dict(options or {})
        game.check_options(self.options)
        self.log: list[Action] = []
        self.steps: list[int] = []
        self.events: list[tuple[str, int, Any]] = []
        self._records: list[_Record] | None = None
        self.state: S = game.new_state(chance(seed, 0), self.options)
        for action in log or []:
            self.apply(action)

    def __copy__(self) -> Match[S]:
        """A fork that can be advanced without touching this match (the state is cloned)."""
        return self._fork(self.state.clone())

    def _fork(self, state: S) -> Match[S]:
        """This match with `state` for its position (a clone or a re-deal of its own), advanced on its own."""
        fork = object.__new__(type(self))
        fork.__dict__.update(self.__dict__)
        fork.options = dict(self.options)
        fork.log, fork.steps, fork.events = list(self.log), list(self.steps), list(self.events)
        fork._records = None if self._records is None else list(self._records)
        fork.state = state
        return fork

    def _next_seq(self) -> int:
        return self.events[-1][1] + 1 if self.events else 1

    def apply(self, action: Action, step: int | None = None) -> S:
        """Apply a player's action; `step` is its stored sequence number (default: one past the live log)."""
        step = len(self.log) + 1 if step is None else step
        if self._records is None:
            self.state.apply(action, chance(self.seed, step))
        else:
            self.state.check(action)
            self._records.append(_Record(step, "action", action.player, *_told(self.state, self.seed, action, step)))
        self.log.append(action)
        self.steps.append(step)
        self.events.append(("action", step, action))
        return self.state

    def undo(self, step: int | None = None) -> S:
        """Take back the last live action by replaying the others with their own steps.

        `step` is the undo entry's own sequence number, for the history. Whether the
        undo is allowed is `undo_refusal`'s question; replaying a stored undo just does it.
        """
        if not self.log:
            raise Refusal("There is nothing to undo.")
        step = self._next_seq() if step is None else step
        taken = self.log[-1]
        kept, kept_steps = self.log[:-1], self.steps[:-1]
        self.state = self.game.new_state(chance(self.seed, 0), self.options)
        for action, at in zip(kept, kept_steps):
            self.state.apply(action, chance(self.seed, at))
        self.log, self.steps = kept, kept_steps
        self.events.append(("undo", step, taken.player))
        if self._records is not None:
            i = max(i for i, r in enumerate(self._records) if r.kind == "action" and not r.undone)
            gone = self._records[i] = replace(self._records[i], undone=True)
            self._records.append(_Record(step, "undo", taken.player, (), took_back=gone))
        return self.state

    def notice(self, text: str, step: int | None = None) -> None:
        """A table notice (seat re-issued, seat moved to another phone): a history line for everyone, state unchanged."""
        step = self._next_seq() if step is None else step
        self.events.append(("notice", step, text))
        if self._records is not None:
            self._records.append(_Record(step, "notice", None, (Told(text),)))

    def replay(self, entry: Mapping[str, Any], step: int) -> S:
        """Replay one stored log entry (`{"kind", "player", "args"}`): an action, an undo or a notice.

        A `timer` entry (the round timer started or paused) changes nothing in the game and is not
        kept here: the companion reads it from the log with its time stamp."""
        kind = entry.get("kind")
        if kind == "timer":
            return self.state
        if kind == "undo":
            return self.undo(step)
        if kind == "notice":
            self.notice(str(entry.get("args", {}).get("text", "")), step)
            return self.state
        return self.apply(Action.from_json(entry), step)

    def _history(self) -> list[_Record]:
        """The recorded history, rebuilt once by replaying every event with recording on."""
        if self._records is None:
            fresh = Match(self.game, self.seed, self.options)
            fresh._records = [_Record(0, "action", None, tuple(opening))] if (opening := fresh.state.opening()) else []
            for kind, step, what in self.events:
                if kind == "action":
                    fresh.apply(what, step)
                elif kind == "undo":
                    fresh.undo(step)
                else:
                    fresh.notice(what, step)
            self._records = fresh._records
        return self._records

    def record(self) -> None:
        """Record the per-viewer history from now on, as this match advances (what it has applied so far is
        recorded at once). A caller that will read the history of a match it is about to advance (a replay's
        frames, `Tables.steps`) asks first, so the history is never rebuilt by a second replay of the log."""
        self._history()

    def history(self, viewer: int | None) -> list[Line]:
        """Every history line as `viewer` (a seat, or None for a spectator) may read it, oldest first."""
        lines: list[Line] = []
        for rec in self._history():
            if rec.kind == "undo":
                gone = rec.took_back
                who = seat(rec.actor or 0)
                what = gone.told[0].read_by(viewer) if gone and gone.told else "their last move"
                what = what.removeprefix(f"{who} ")  # "Ann took back: chose a card", not "Ann took back: Ann chose…"
                lines.append(Line(rec.seq, rec.actor, f"{who} took back: {what}", "undo"))
                continue
            lines.extend(Line(rec.seq, rec.actor, t.read_by(viewer), rec.kind, rec.undone) for t in rec.told)
        return lines

    def ahead_deals(self, player: int) -> list[S]:
        """The AHEAD_DEALS positions `ahead_refusal` tries `player`'s moves on, re-dealt from its information set
        (`State.resample`): the same for every move at this position, so a page asking about each of its buttons
        deals them once and hands them to each question (`deals`)."""
        return [self.state.resample(player, random.Random(f"ahead:{k}")) for k in range(AHEAD_DEALS)]

    def ahead_refusal(self, player: int, action: Action, step: int | None = None,
                      deals: Sequence[S] | None = None) -> str | None:
        """Why `action`, made now by `player`, might not be taken back (it would reveal, leave something to chance
        or end the game), in words for asking first; None when it could be, or when it is refused. `deals`: this
        position's `ahead_deals(player)`, dealt once for all its moves (each question tries the move on copies).

        Worked out on what `player` knows only: the move is tried on AHEAD_DEALS positions re-dealt from its
        information set (`State.resample`, each with a fixed random source and dice of its own), never on the
        real one, so the question is the same whatever the hidden cards are and cannot give one away. What holds
        on every deal is said plainly; what holds on some only is said as a possibility ("it may end the game")."""
        step = len(self.log) + 1 if step is None else step
        outcomes: list[tuple[bool, str | None, bool]] = []
        for k, dealt in enumerate(self.ahead_deals(player) if deals is None else [d.clone() for d in deals]):
            try:
                dealt.check(action)  # the one gate, as every path into `_apply` goes
            except Refusal:
                continue
            # applied as this match applies with its history on, but to the deal and with dice of its own
            _, reveals, drawn = _told(dealt, f"ahead:{k}", action, step)
            outcomes.append((dealt.is_terminal, reveals, drawn))
        return _foreseen(outcomes)

    def undo_refusal(self, player: int) -> str | None:
        """None if `player` may take back the last live action now; otherwise why not, in player words."""
        if not self.log:
            return "There is nothing to take back."
        if self.state.is_terminal:
            return "The game is over; its moves stand."
        if self.log[-1].kind == LEAVE:
            return "Leaving the game cannot be taken back."
        if self.log[-1].player != player:
            return "Only the last move can be taken back, by the player who made it, before anyone else acts."
        last = next(r for r in reversed(self._history()) if r.kind == "action" and not r.undone)
        if last.reveals:
            return f"That move cannot be taken back: it revealed {last.reveals}."
        if last.chance:
            return f"That move cannot be taken back: chance decided part of it {CHANCE_WORDS}."
        return None

    def play_out(self, policy: Callable[[S, list[Action], random.Random], Action],
                 rng: random.Random, max_actions: int = 100_000) -> S:
        """Play to the end with a policy choosing among the legal actions."""
        while not self.state.is_terminal and len(self.log) < max_actions:
            legal = self.state.legal_actions()
            if not legal:
                raise RuntimeError(f"{self.game.id}: no legal action in a live state after {len(self.log)} actions")
            self.apply(policy(self.state, legal, rng))
        return self.state


def _told(state: State, seed: int | str, action: Action, step: int) -> tuple[tuple[Told, ...], str | None, bool]:
    """Carry out a checked `action` on `state` with history on, its chance from `seed` and `step`: the engine's lines,
    what they revealed, and whether the random source was drawn from (a match's step, or a trial of
    `Match.ahead_refusal`)."""
    told = list(state.narrate(action))
    rng = chance(seed, step, _Watched)
    state.telling = told
    try:
        state._apply(action, rng)
    finally:
        state.telling = None
    return tuple(told), next((t.reveals for t in told if t.reveals), None), rng.drawn


AHEAD_DEALS = 12
"""How many re-dealt positions `Match.ahead_refusal` tries a move on: enough to see what a hidden card
usually changes, few enough for a phone asking about each of its buttons."""

CHANCE_WORDS = "(a shuffle, draw or dice roll)"


def _foreseen(outcomes: Sequence[tuple[bool, str | None, bool]]) -> str | None:
    """The question asked before a move, from its outcomes on re-dealt positions: (ends the game, what it
    reveals, whether chance decides part of it). Certain on every deal: said plainly; on some: "may"."""
    if not outcomes:
        return None
    if all(ends for ends, _, _ in outcomes):
        return "This move ends the game; it cannot be taken back."
    reveals = sorted({r for _, r, _ in outcomes if r})
    chance = [c for _, _, c in outcomes]
    may_end = ", and it may end the game" if any(ends for ends, _, _ in outcomes) else ""
    if reveals and all(r for _, r, _ in outcomes):
        return f"This move cannot be taken back: it reveals {reveals[0]}{may_end}."
    if all(chance):
        return f"This move cannot be taken back: chance decides part of it {CHANCE_WORDS}{may_end}."
    maybe = [f"it may reveal {reveals[0]}"] if reveals else []
    maybe += [f"chance may decide part of it {CHANCE_WORDS}"] if any(chance) else []
    maybe += ["it may end the game"] if may_end else []
    if not maybe:
        return None
    return "This move might not be possible to take back: " + ", and ".join(maybe) + "."


def random_policy(state: State, legal: list[Action], rng: random.Random) -> Action:
    return rng.choice(legal)
