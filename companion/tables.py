"""Tables in play: the engines behind them, replayed state, and who may do what.

The page code calls only this module to change a table, so every rule about seats
(a seat acts only for itself and only from the phone that holds it, spectators never
act, undo only when the engine's `undo_refusal` allows it) lives here once, and every
rule of the game lives in `engine/`. The log is append-only: an undo and a table notice
(a seat re-issued, a seat moved to another phone) are entries like any action, and
`Match.replay` replays each with its own sequence number as its chance step.

Replayed matches are cached per process by (table, last seq, last action id). A
cached match is never mutated after it is published: an action is applied to a
copy, which replaces the cache entry once the database has committed it, so a page
rendering in another thread always sees one consistent position.
"""

from __future__ import annotations

import copy
import json
import random
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import engine
from cards import DataError, GameData, load_game
from companion import bot_seats, bounded
from companion.names import clean
from companion.store import LogEntry, Seat, Store, StoreError, TableInfo, Tx
from engine.bots import hints as bot_hints
from engine.core import LEAVE, POSITION_KEEPING, Action, Game, Line, Match, Refusal, check_args, seat as placeholder


CACHED_TABLES = 64
STALE = "The table moved on; here is the new position."
REISSUED = ("{p}'s seat was re-issued by the host: its old link no longer works, and the host holds the new link, "
            "so the host can see {p}'s cards until {p} opens it on their own phone.")
ELSEWHERE = "This seat is now played on another phone, so this phone no longer acts for it."
UNNAMED = ("This phone has not yet said which phone it is, and another phone holds this seat; wait a moment and "
           "tap again (a browser that blocks scripts or storage cannot hold a seat).")


@dataclass(frozen=True)
class GameEntry:
    """A game the companion knows: its data and engine, or why it cannot be played yet."""

    id: str
    data: GameData | None
    game: Game[Any] | None
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
    _lines: dict[int | None, list[Line]] = field(default_factory=dict, compare=False, repr=False)
    _seen: dict[int | None, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def state(self) -> Any:
        return self.match.state

    def moved_on_since(self, offered: tuple[int, int] | None) -> bool:
        """Whether the game's position changed after the log head `offered` (a page's state id).

        Entries that leave the position as it was (a timer tap, a table notice) do not count, so
        a move tapped while another phone starts the clock or moves its seat still means what
        its player saw. An `offered` head this log never had (a replaced file) counts as moved on.
        """
        if offered is None or tuple(offered) == tuple(self.head):
            return False
        if offered[0] and not any((e.seq, e.id) == tuple(offered) for e in self.entries):
            return True
        return any(e.action.get("kind") not in POSITION_KEEPING for e in self.entries if e.seq > offered[0])

    @property
    def moves(self) -> int:
        """How many moves the log holds: not timer taps, notices (`POSITION_KEEPING`) or undos."""
        return sum(e.action.get("kind") not in POSITION_KEEPING | {"undo"} for e in self.entries)

    def seen_by(self, viewer: int | None) -> Any:
        """The position as `viewer` (a seat, or None for a spectator) may know it: the real one re-dealt from the
        viewer's information set (`State.resample`), from a source fixed by the log's length, so every redraw reads
        the same deal. Everything a page reads of a position comes from here, so no page can show a card or pick
        hidden from its viewer whatever it reads; tests/test_information_sets.py proves a re-deal leaves all the
        viewer may read as it was. Moves are applied to the real position (`Tables.act`)."""
        seen = self._seen.get(viewer)
        if seen is None:
            seen = self._seen[viewer] = self.state.resample(viewer, random.Random(f"page:{self.head[0]}"))
        return seen

    def history(self, viewer: int | None) -> list[Line]:
        """`Match.history` for a viewer, worked out once per position: every redraw of every phone at
        the table reads it, and it walks the whole game (a published match never changes)."""
        lines = self._lines.get(viewer)
        if lines is None:
            lines = self._lines[viewer] = self.match.history(viewer)
        return lines


class Stale(Refusal):
    """A tap offered at an older position of the table: refused, so a move always means what its player saw."""

    def __init__(self) -> None:
        super().__init__(STALE)


CONSEQUENCES_KEPT = 4096  # answers of `Tables.consequence` kept (a few positions' buttons at every table)
DEALS_KEPT = 32  # positions whose re-deals `Tables.consequence` keeps (a seat's newest at each busy table)


class Tables:
    """Acting on tables: create, replay, act, undo, concede — with seat checks."""

    def __init__(self, store: Store, games: Mapping[str, Game[Any]] | None = None) -> None:
        self.store = store
        self._games = dict(games) if games is not None else None
        self._cache: dict[int, Snapshot] = {}
        self._lock = threading.Lock()
        # (table, log head, seat, action) -> why it could not be taken back: a position's answers do not change,
        # and each phone asks for every button it draws (a trial move each), and once more when one is tapped.
        self._consequences: dict[tuple[int, tuple[int, int], int, str], str | None] = {}
        # (table, log head, seat) -> the positions its questions try moves on (`Match.ahead_deals`), dealt once
        # for all the buttons a page draws there: the re-deals are most of a question's cost.
        self._deals: dict[tuple[int, tuple[int, int], int], list[Any]] = {}

    # -- games ---------------------------------------------------------------------------

    def game(self, game_id: str) -> Game[Any]:
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
               seed: str | None = None, scripted: bool = False, bots: Mapping[int, str] | None = None) -> TableInfo:
        """Check the options with the engine (a Refusal explains), then open the table.

        Options from the app go through `Game.table_options` (types, ranges, seat count; options
        for tests only are refused). `scripted` tables (tests, lessons; never the app) may use
        those options, such as scripted dice. The table's own options (`TABLE_OPTIONS`: hints) are
        checked here and kept beside the engine's. `bots` maps a seat to the level of the bot that
        plays it from the start (`companion.bot_seats`).
        """
        game = self.game(game_id)
        names = clean(seat_names)
        own, engine_opts = split_options(options)
        holders = {int(s): bot_seats.holder(level) for s, level in (bots or {}).items()}
        if any(not 0 <= s < len(names) for s in holders):
            raise Refusal(f"A bot can only take one of the table's {len(names)} seats.")
        try:
            if scripted:
                opts = dict(engine_opts)
                game.check_options(opts)
            else:
                opts = game.table_options(engine_opts, len(names))
            Match(game, seed or "check", opts)  # the opening position must build with these options
        except Refusal:
            raise
        except Exception as err:  # options of a shape the engine never expected
            raise Refusal(f"The game cannot be set up with these options ({err}); check each option's "
                          "type and value.") from None
        return self.store.create_table(game_id, names, {**opts, **own}, seed, holders)

    # -- reading -----------------------------------------------------------------------------

    def snapshot(self, table: TableInfo, conn: Tx | None = None, head: tuple[int, int] | None = None) -> Snapshot:
        """The table's current position, from cache when the log has not changed; `head`, when the caller
        has just read it (an append's check, in its transaction; a page, in the signature it marks), saves asking
        again."""
        head = head or self.store.head(table.id, conn)
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
        snap = self.position(table, self.store.log(table.id, 0, conn))
        self._publish(table.id, snap)
        return snap

    def position(self, table: TableInfo, entries: Sequence[LogEntry], history: bool = False) -> Snapshot:
        """The position after `entries` (the start of a table's log), replayed from the table's seed and options:
        a replay's step, never cached. With `history` its history is recorded as the entries replay, for a caller
        that reads it (`Snapshot.history`), which would otherwise replay the whole log a second time to record it."""
        match = Match(self.game(table.game), table.seed, split_options(table.options)[1])
        if history:
            match.record()
        return self._extend(table, Snapshot(match, (0, 0), ()), list(entries))

    def steps(self, table: TableInfo, entries: Sequence[LogEntry]) -> Iterator[Snapshot]:
        """The position before `entries` and after each of them in turn, replayed once from the table's seed with
        the history recorded as it goes (a game record's frames, `companion.replay`): each a snapshot of its own,
        never cached, whose history is read without another replay."""
        snap = self.position(table, (), history=True)
        yield snap
        for entry in entries:
            snap = self._extend(table, snap, [entry])
            yield snap

    def _extend(self, table: TableInfo, snap: Snapshot, entries: list[LogEntry]) -> Snapshot:
        if not entries:
            return snap
        match = copy.copy(snap.match)  # a fork: the published snapshot is never advanced in place
        for entry in entries:
            reason = _set_aside(match, entry)
            if reason is None:
                continue
            who = entry.action.get("player")
            by = f" by {placeholder(who)}" if isinstance(who, int) and 0 <= who < len(table.seats) else ""
            match.notice(f"Stored move {entry.seq}{by} was set aside: {reason} The game goes on without it; "
                         "the log keeps it as it was.", entry.seq)
        last = entries[-1]
        return Snapshot(match, (last.seq, last.id), snap.entries + tuple(entries))

    def _publish(self, table_id: int, snap: Snapshot) -> None:
        """Cache a snapshot; any snapshot is safe to cache, since readers check its head against the database."""
        with self._lock:
            bounded.keep(self._cache, table_id, snap, CACHED_TABLES)  # the least recently changed table goes first

    # -- acting -----------------------------------------------------------------------------

    def act(self, table: TableInfo, seat: int | None, action: Action, offered: tuple[int, int] | None = None,
            request_id: str | None = None, device: str | None = None) -> Snapshot:
        """Apply `action` for `seat`, verified against the newest log under the write lock.

        `offered` is the log head the move was offered at (the page's state id): if the table
        has moved on since, the move is refused as `Stale`, so a late or repeated tap never
        does something the player did not see; the same `request_id` twice is stored once and
        also answered as `Stale`. `device` is the phone asking: only the seat's holder acts.
        Raises Refusal (engine or seat rule) or StoreError (table ended); either way nothing changes.
        """
        if seat is None:
            raise Refusal("Spectators cannot act; open your own seat's link to play.")
        if action.player != seat:
            raise Refusal("You can only act for your own seat.")
        _holder(table, seat, device)
        result: dict[str, Snapshot] = {}

        def check(tx: Tx, head: tuple[int, int]) -> None:
            current = self.snapshot(table, tx, head)
            if current.moved_on_since(offered):
                raise Stale()
            match = copy.copy(current.match)
            try:
                match.apply(action, head[0] + 1)  # verify first; a refusal leaves everything unchanged
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

        entry = self.store.append(table.id, seat, action.to_json(), check, then, request_id)
        if "snap" not in result:  # that request was stored before: a repeated tap does nothing more
            raise Stale()
        prior = result["snap"]
        snap = Snapshot(prior.match, (entry.seq, entry.id), prior.entries + (entry,))
        self._publish(table.id, snap)
        return snap

    def consequence(self, table: TableInfo, seat: int, action: Action, snap: Snapshot | None = None) -> str | None:
        """Why `action` is asked about first: what it gives up (`State.forfeits`: a fold, a turn's actions left)
        and why it could not be taken back once made (it reveals, draws chance or ends the game); or None.

        Asked before a tap is carried out, so such a move is confirmed first; an action the
        engine refuses has no consequence here (`act` gives the refusal). `snap` is the position the move is
        offered at (a page's, which asks for each button it draws: none of them reads the log's head again);
        without it, the table's newest (a tap being carried out).
        """
        snap = self.snapshot(table) if snap is None else snap
        key = (table.id, snap.head, seat, json.dumps(action.to_json(), sort_keys=True))
        if key in self._consequences:
            return self._consequences[key]
        reason = snap.match.ahead_refusal(seat, action, snap.head[0] + 1, self._ahead_deals(table, seat, snap))
        if snap.state.can(action):  # what the move gives up (a fold, a turn's actions left), asked first too
            reason = " ".join(filter(None, (snap.state.forfeits(action), reason))) or None
        with self._lock:
            bounded.keep(self._consequences, key, reason, CONSEQUENCES_KEPT)
        return reason

    def _ahead_deals(self, table: TableInfo, seat: int, snap: Snapshot) -> list[Any]:
        """The re-dealt positions `seat`'s questions at `snap` try its moves on, dealt at its first question."""
        key = (table.id, snap.head, seat)
        deals = self._deals.get(key)
        if deals is None:
            deals = snap.match.ahead_deals(seat)
            with self._lock:
                bounded.keep(self._deals, key, deals, DEALS_KEPT)  # the oldest position's go first
        return deals

    def undo(self, table: TableInfo, seat: int | None, offered: tuple[int, int] | None = None,
             device: str | None = None) -> LogEntry:
        """Take back this seat's last action, if the engine allows it (nothing revealed, no chance, nobody acted since).

        The undo is an appended entry naming the seq it takes back; `offered` makes a second
        tap on the same undo button stale instead of taking back one more action.
        """
        if seat is None:
            raise Refusal("Spectators cannot undo.")
        _holder(table, seat, device)
        undo: dict[str, Any] = {"kind": "undo", "player": seat, "args": {}}

        def check(tx: Tx, head: tuple[int, int]) -> None:
            current = self.snapshot(table, tx, head)
            if current.moved_on_since(offered):
                raise Stale()
            match = current.match
            reason = match.undo_refusal(seat)
            if reason:
                raise Refusal(reason)
            undo["args"]["seq"] = match.steps[-1]  # decided under the write lock, before the store writes it

        try:
            return self.store.append(table.id, seat, undo, check)
        except StoreError as err:
            raise Refusal(str(err)) from None

    def notice(self, table: TableInfo, text: str) -> None:
        """A line every phone reads in the log (`{pN}` for a seat's name); an ended table takes no notices."""
        try:
            self.store.append(table.id, -1, {"kind": "notice", "player": -1, "args": {"text": text}})
        except StoreError:
            if self.store.table(table.id).playing:
                raise

    def timer(self, table: TableInfo, seat: int | None, run: bool, offered: tuple[int, int] | None = None,
              device: str | None = None) -> LogEntry:
        """Any seat starts (`run`) or pauses the round timer: a `timer` entry stamped with the server's time.

        Never an action of the game: it cannot be taken back, reveals nothing and leaves every
        move's undo as it was. The entry names the round it times (`State.clock_round`, read under
        the write lock), so a new round starts the timer afresh (`companion.clock`). The same tap
        at the same position (`offered`) is stored once.
        """
        if seat is None:
            raise Refusal("Spectators cannot start or pause the timer; a seat can.")
        _holder(table, seat, device)
        entry: dict[str, Any] = {"kind": "timer", "player": seat, "args": {"run": bool(run)}}

        def check(tx: Tx, head: tuple[int, int]) -> None:
            entry["args"]["round"] = self.snapshot(table, tx).state.clock_round()

        tap = None if offered is None else f"t{table.id}-{offered[0]}-{offered[1]}-timer-{int(bool(run))}"
        try:
            return self.store.append(table.id, seat, entry, check, request_id=tap)
        except StoreError as err:
            raise Refusal(str(err)) from None

    def reissue(self, table: TableInfo, seat: int, host: str | None) -> Seat:
        """The host gives a seat a new link (the old one dies, its phone stops acting); every phone is told, in
        plain words, that the host now holds that link and so can see the seat's cards.

        Why not the table's consent instead: a seat is re-issued because its phone was lost or its player
        walked away, so the one player whose consent matters is the one who cannot give it, and a vote would
        stall the table. The host is trusted to hand the link on; the notice (and the next one, when a phone
        opens the new link) lets every player see that trust being used."""
        fresh = self.store.reissue_seat(table.id, seat, host)
        self.notice(table, REISSUED.format(p=placeholder(seat)))
        return fresh

    def give_to_bot(self, table: TableInfo, seat: int, level: str, host: str | None) -> None:
        """The host hands a seat to a bot (a player who left, a practice game): the bot plays it from its next
        turn on the server (`companion.bot_seats.Runner`), the seat's phone stops acting, and every phone is told.
        The host takes it back by re-issuing the seat."""
        device = bot_seats.holder(level)
        if not table.is_host(host):
            raise Refusal("Only the host's link can hand a seat to a bot.")
        if not 0 <= seat < len(table.seats):
            raise Refusal("This table has no such seat.")
        if not table.playing:
            raise Refusal("This table has ended; its seats stay as they were.")
        self.store.hold_seat(table.id, table.seats[seat].token, device)
        self.notice(table, f"The host handed {placeholder(seat)}'s seat to a bot ({level}), which plays it from now "
                           "on.")

    def hints(self, table: TableInfo, seat: int | None, device: str | None = None) -> list[Any]:
        """"What would the bot do?" for this seat now (`engine.bots.hints`: from the seat's information set only),
        where the table allows hints and the seat is to act."""
        if seat is None:
            raise Refusal("Spectators have no moves to ask about.")
        if not allows_hints(table):
            raise Refusal("This table does not allow hints; the host chooses that when creating it.")
        _holder(table, seat, device)
        snap = self.snapshot(table)
        if snap.state.is_terminal or seat not in snap.state.players_to_act():
            raise Refusal("You have no move to make now, so there is nothing to hint at.")
        return bot_hints(snap.match, seat)

    def hold(self, table: TableInfo, seat: Seat, device: str) -> None:
        """This phone opened the seat's link: it holds the seat now; if another phone held it, or the link was a
        re-issued one the host held, every phone is told."""
        if self.store.hold_seat(table.id, seat.token, device) is not None:
            self.notice(table, f"{placeholder(seat.seat)}'s seat was opened on another phone, which now plays it.")
        elif seat.reserved:
            self.notice(table, f"{placeholder(seat.seat)}'s re-issued seat was opened on a phone, which now plays it.")

    def concede(self, table: TableInfo, seat: int | None, device: str | None = None) -> None:
        """The seat gives up. At a table of more than two whose game lets a player leave (`engine.core.LEAVE`),
        the player drops out and the others play on: the game's own move, in the log, so the game ends (and
        every seat gets its result) when its rules say. Otherwise the table ends here, the seat losing."""
        if seat is None:
            raise Refusal("Spectators cannot concede on a player's behalf.")
        _holder(table, seat, device)
        try:
            if self.plays_on(table):
                self.act(table, seat, Action(LEAVE, seat), device=device)
            else:
                self.store.concede(table.id, seat)
        except StoreError as err:
            raise Refusal(str(err)) from None

    def plays_on(self, table: TableInfo, snap: Snapshot | None = None) -> bool:
        """Whether the others play on when a player of this table concedes (see `concede`); `snap`: the table's
        position as the caller has it (a page's), else its newest."""
        return len(table.seats) > 2 and LEAVE in (self.snapshot(table) if snap is None else snap).state.ARGS

    def seated(self, table: TableInfo, seat: int, snap: Snapshot) -> bool:
        """Whether the seat still plays at `snap` (a page's position: a page asks at each draw, and reads the log's
        head no more for it): it has not conceded and left a game that goes on."""
        return not self.plays_on(table, snap) or snap.state.can(Action(LEAVE, seat))


TABLE_OPTIONS = {"hints": ("Allow hints", "Each seat may ask \"What would the bot do?\" on its turn: the bot's best "
                                          "moves, with its estimated chance of winning after each. Leave it off for "
                                          "a competitive game.")}
"""The table's own options, beside the engine's (kept in the same stored options, never shown to the engine): a
switch each, off unless chosen, with the new-table form's label and help."""


def split_options(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the table's own options that are on, the engine's): a switch of the table's must be true or false."""
    own: dict[str, Any] = {}
    for key in TABLE_OPTIONS:
        value = options.get(key, False)
        if not isinstance(value, bool):
            raise Refusal(f"The table option {key!r} ({TABLE_OPTIONS[key][0]}) is on (true) or off (false), "
                          f"not {value!r}.")
        if value:
            own[key] = True
    return own, {k: v for k, v in options.items() if k not in TABLE_OPTIONS}


def allows_hints(table: TableInfo) -> bool:
    return bool(table.options.get("hints"))


def _set_aside(match: Match[Any], entry: LogEntry) -> str | None:
    """Replay one stored entry (an action, an undo, a notice or a timer tap, at its own step); None if it
    replayed, else why it is set aside, in words for every phone: what is wrong with a malformed row, but not why
    the position refuses a well-formed one (that may hang on cards some phones may not see).

    A row the gate refuses today (stored before every path checked a move's arguments, or under older rules)
    or that cannot be read at all leaves the position as it was, so the table opens and goes on from before
    it; an undo of a move that was set aside is set aside with it."""
    action = entry.action
    if action.get("kind") == "undo" and (not match.steps or action.get("args", {}).get("seq", match.steps[-1])
                                         != match.steps[-1]):
        return "it took back a move that was set aside."
    try:
        if action.get("kind") not in ("undo", "notice", "timer"):  # the row's own shape: said to every phone
            check_args(match.state.ARGS, Action.from_json(action))
        try:
            match.replay(action, entry.seq)
        except Refusal:  # why this position refuses it may hang on cards hidden from some phones: not said
            return "the rules refuse it in this position."
    except Refusal as err:
        return f"the rules refuse it now: {str(err).rstrip('.')}."
    except Exception as err:  # noqa: BLE001 — a damaged row: say what could not be read
        return f"it cannot be read ({type(err).__name__}: {err})."
    return None


def _holder(table: TableInfo, seat: int, device: str | None) -> None:
    """Refuse a phone that does not hold the seat another phone holds: a newer phone opened its link, or this
    session never said which phone it is (it cannot be told apart from any other)."""
    held = table.seats[seat].device if 0 <= seat < len(table.seats) else None
    if held is not None and held != device:
        raise Refusal(ELSEWHERE if device is not None else UNNAMED)


def _described(action: Action) -> str:
    args = ", ".join(f"{key} = {value!r}" for key, value in action.args.items())
    return f"{action.kind}: {args}" if args else action.kind


__all__ = ["ELSEWHERE", "GameEntry", "STALE", "Snapshot", "Stale", "StoreError", "Tables", "catalogue"]
