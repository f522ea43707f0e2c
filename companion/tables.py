"""Tables in play: the engines behind them, replayed state, and who may do what.

The page code calls only this module to change a table, so every rule about seats
(a seat acts only for itself, spectators never act, undo takes back only your own
last action) lives here once, and every rule of the game lives in `engine/`.

Replayed matches are cached per process by (table, last seq, last action id). A
cached match is never mutated after it is published: an action is applied to a
copy, which replaces the cache entry once the database has committed it, so a page
rendering in another thread always sees one consistent position.
"""

from __future__ import annotations

import copy
import threading
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import engine
from cards import DataError, GameData, load_game
from companion.store import LogEntry, Store, StoreError, TableInfo, Tx
from engine.core import Action, Game, Match, Refusal


CACHED_TABLES = 64
NAME_LIMIT = 40
STALE = "The table moved on; here is the new position."
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass(frozen=True)
class GameEntry:
    """A game the companion knows: its data and engine, or why it cannot be played yet."""

    id: str
    data: GameData | None
    game: Game | None
    problem: str | None = None

    @property
    def name(self) -> str:
        return self.data.name if self.data else self.id

    @property
    def playable(self) -> bool:
        return self.game is not None


@cache
def catalogue() -> dict[str, GameEntry]:
    """Every game of `engine.GAME_IDS`, loaded once per process; a missing piece is reported, not raised."""
    entries: dict[str, GameEntry] = {}
    for game_id in engine.GAME_IDS:
        try:
            data = load_game(game_id)
        except DataError as err:
            entries[game_id] = GameEntry(game_id, None, None, f"its card data has problems: {err.problems[0]}")
            continue
        try:
            game = engine.make_game(data)
        except Exception as err:  # an engine that fails to build must not take the lobby down
            entries[game_id] = GameEntry(game_id, data, None, f"its rules engine failed to start: {err}")
            continue
        entries[game_id] = GameEntry(game_id, data, game)
    return entries


@dataclass(frozen=True)
class Snapshot:
    """A table's position at one point of its log, with the log entries that led there."""

    match: Match[Any]
    head: tuple[int, int]
    entries: tuple[LogEntry, ...]

    @property
    def state(self) -> Any:
        return self.match.state


class ReplayError(Exception):
    """A stored log no longer replays under the current rules; the message names the action."""


class Stale(Refusal):
    """A tap offered at an older position of the table: refused, so a move always means what its player saw."""

    def __init__(self) -> None:
        super().__init__(STALE)


def clean_names(names: list[str]) -> list[str]:
    """Seat names as stored: runs of white space made one space; too long or invisible control characters refused.

    Names are shown as plain text everywhere (`companion.render.plain`), so any printable
    text is fine; the limit keeps a name on one line of a phone.
    """
    clean = [" ".join(str(n).split()) for n in names]
    for i, name in enumerate(clean, start=1):
        if len(name) > NAME_LIMIT:
            raise Refusal(f"Seat {i}'s name has {len(name)} characters; a name may have at most {NAME_LIMIT}.")
        if any(unicodedata.category(c) == "Cc" or c in BIDI_CONTROLS for c in name):
            raise Refusal(f"Seat {i}'s name contains an invisible control character; type it again.")
    return clean


class Tables:
    """Acting on tables: create, replay, act, undo, concede — with seat checks."""

    def __init__(self, store: Store, games: Mapping[str, Game] | None = None) -> None:
        self.store = store
        self._games = dict(games) if games is not None else None
        self._cache: dict[int, Snapshot] = {}
        self._lock = threading.Lock()

    # -- games ---------------------------------------------------------------------------

    def game(self, game_id: str) -> Game:
        if self._games is not None:
            found = self._games.get(game_id)
        else:
            entry = catalogue().get(game_id)
            found = entry.game if entry else None
        if found is None:
            raise Refusal(f"The game '{game_id}' cannot be played here yet.")
        return found

    def entries(self) -> dict[str, GameEntry]:
        """The games this service offers (all five, or the ones it was given), playable or not."""
        if self._games is not None:
            return {gid: GameEntry(gid, getattr(g, "data", None), g) for gid, g in self._games.items()}
        return catalogue()

    def game_ids(self) -> list[str]:
        return [g.id for g in self.entries().values() if g.playable]

    def game_name(self, game_id: str) -> str:
        entry = self.entries().get(game_id)
        return entry.name if entry else game_id

    # -- creating --------------------------------------------------------------------------

    def create(self, game_id: str, seat_names: list[str], options: Mapping[str, Any],
               seed: str | None = None) -> TableInfo:
        """Check the options with the engine (a Refusal explains), then open the table."""
        game = self.game(game_id)
        names = clean_names(seat_names)
        opts = dict(options)
        try:
            game.check_options(opts)
            Match(game, seed or "check", opts)  # the opening position must build with these options
        except Refusal:
            raise
        except Exception as err:  # options of a shape the engine never expected
            raise Refusal(f"The game cannot be set up with these options ({err}); check each option's "
                          "type and value.") from None
        return self.store.create_table(game_id, names, opts, seed)

    # -- reading -----------------------------------------------------------------------------

    def snapshot(self, table: TableInfo, conn: Tx | None = None) -> Snapshot:
        """The table's current position, from cache when the log has not changed."""
        head = self.store.head(table.id, conn)
        with self._lock:
            cached = self._cache.get(table.id)
        if cached is not None and cached.head == head:
            return cached
        if cached is not None and cached.head[0] < head[0]:
            newer = self.store.log(table.id, max(cached.head[0] - 1, 0), conn)
            if cached.head == (0, 0) or (newer and newer[0].id == cached.head[1]):
                snap = self._extend(table, cached, newer if cached.head == (0, 0) else newer[1:])
                self._publish(table.id, snap)
                return snap
        entries = self.store.log(table.id, 0, conn)
        base = Snapshot(Match(self.game(table.game), table.seed, table.options), (0, 0), ())
        snap = self._extend(table, base, entries)
        self._publish(table.id, snap)
        return snap

    def _extend(self, table: TableInfo, snap: Snapshot, entries: list[LogEntry]) -> Snapshot:
        if not entries:
            return snap
        match = _fork(snap.match)
        for entry in entries:
            kind = entry.action.get("kind")
            try:
                if kind == "undo":
                    match.undo()
                elif kind != "notice":  # a notice is for the history only; the state is unchanged
                    match.apply(Action.from_json(entry.action))
            except Refusal as err:
                raise ReplayError(f"Table {table.code}: stored action {entry.seq} no longer replays "
                                  f"under the current rules ({err}).") from None
            except Exception as err:  # a damaged row: say which, keep the log as it is
                raise ReplayError(f"Table {table.code}: stored action {entry.seq} cannot be read "
                                  f"({type(err).__name__}: {err}); the log is kept unchanged.") from None
        last = entries[-1]
        return Snapshot(match, (last.seq, last.id), snap.entries + tuple(entries))

    def _publish(self, table_id: int, snap: Snapshot) -> None:
        """Cache a snapshot; any snapshot is safe to cache, since readers check its head against the database."""
        with self._lock:
            self._cache.pop(table_id, None)
            self._cache[table_id] = snap
            while len(self._cache) > CACHED_TABLES:  # the least recently changed table goes first
                self._cache.pop(next(iter(self._cache)))

    # -- acting -----------------------------------------------------------------------------

    def act(self, table: TableInfo, seat: int | None, action: Action,
            offered: tuple[int, int] | None = None) -> Snapshot:
        """Apply `action` for `seat`, verified against the newest log under the write lock.

        `offered` is the log head the move was offered at (the page's state id): if the table
        has moved on since, the move is refused as `Stale`, so a late or repeated tap never
        does something the player did not see. Raises Refusal (engine or seat rule) or
        StoreError (table ended); either way nothing changes.
        """
        if seat is None:
            raise Refusal("Spectators cannot act; open your own seat's link to play.")
        if action.player != seat:
            raise Refusal("You can only act for your own seat.")
        result: dict[str, Snapshot] = {}

        def check(tx: Tx, head: tuple[int, int]) -> None:
            if offered is not None and tuple(head) != tuple(offered):
                raise Stale()
            current = self.snapshot(table, tx)
            match = _fork(current.match)
            try:
                match.apply(action)  # verify first; a refusal leaves everything unchanged
            except Refusal:
                raise
            except Exception:  # arguments of a shape the engine never expected (a typed move): still a refusal
                raise Refusal(f"The game cannot read that move's details ({_described(action)}); "
                              "check each value against the moves offered.") from None
            result["snap"] = Snapshot(match, head, current.entries)

        def then(tx: Tx) -> None:
            state = result["snap"].state
            if state.is_terminal:
                self.store.finish(table.id, state.winner, "game", tx)

        entry = self.store.append(table.id, seat, action.to_json(), check, then)
        prior = result["snap"]
        snap = Snapshot(prior.match, (entry.seq, entry.id), prior.entries + (entry,))
        self._publish(table.id, snap)
        return snap

    def undo(self, table: TableInfo, seat: int | None) -> LogEntry:
        """Take back the last action, if it was this seat's. Chance is tied to the sequence number, so redoing re-rolls nothing."""
        if seat is None:
            raise Refusal("Spectators cannot undo.")
        undo: dict[str, Any] = {"kind": "undo", "player": seat, "args": {}}

        def check(tx: Tx, head: tuple[int, int]) -> None:
            live = _live(self.snapshot(table, tx).entries)
            if not live:
                raise Refusal("There is nothing to undo.")
            if live[-1].seat != seat:
                raise Refusal("Only the player who took the last action can take it back.")
            undo["args"]["seq"] = live[-1].seq  # decided under the write lock, before the store writes it

        try:
            return self.store.append(table.id, seat, undo, check)
        except StoreError as err:
            raise Refusal(str(err)) from None

    def concede(self, table: TableInfo, seat: int | None) -> None:
        if seat is None:
            raise Refusal("Spectators cannot concede on a player's behalf.")
        try:
            self.store.concede(table.id, seat)
        except StoreError as err:
            raise Refusal(str(err)) from None


def _live(entries: tuple[LogEntry, ...]) -> list[LogEntry]:
    """The actions still in force: each undo entry takes back the last one before it."""
    live: list[LogEntry] = []
    for entry in entries:
        kind = entry.action.get("kind")
        if kind == "undo":
            live.pop()
        elif kind != "notice":
            live.append(entry)
    return live


def _described(action: Action) -> str:
    args = ", ".join(f"{key} = {value!r}" for key, value in action.args.items())
    return f"{action.kind}: {args}" if args else action.kind


def _fork(match: Match[Any]) -> Match[Any]:
    """A copy of a match that can be advanced without touching the original."""
    fork = copy.copy(match)
    fork.state = match.state.clone()
    fork.log = list(match.log)
    fork.options = dict(match.options)
    return fork


__all__ = ["GameEntry", "ReplayError", "STALE", "Snapshot", "Stale", "StoreError", "Tables", "catalogue", "clean_names"]
