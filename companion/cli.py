"""The `muster` command: check and list the data, build printables, run the companion.

Every user mistake (bad data, bad arguments) ends in a clear message and exit
status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from cards import DataError, GameData, load_all, load_game
from cards.load import CARDS_ENV


class UsageError(Exception):
    """A bad argument the user can fix; the message says how."""


def _cards_dir(value: str | None) -> Path | None:
    if value is None:
        return None
    path = Path(value)
    if not path.is_dir():
        raise UsageError(f"--cards: '{value}' is not a folder")
    return path


@contextlib.contextmanager
def _cards_in_use(value: str | None) -> Iterator[None]:
    """`--cards DIR` is the cards folder of the whole command, its layouts.toml and profiles.toml included
    (cards.load.shared_file), and of the companion's process: set for the command, then put back, as
    main() also runs inside tests. Each command checks the folder itself, after its other arguments."""
    before = os.environ.get(CARDS_ENV)
    if value is not None and Path(value).is_dir():
        os.environ[CARDS_ENV] = str(Path(value).resolve())
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(CARDS_ENV, None)
        else:
            os.environ[CARDS_ENV] = before


def cmd_check(args: argparse.Namespace) -> int:
    """Schemas first, then what build and play would run (companion.trial): data that passes is usable."""
    from companion.trial import trial
    from generator.build import check as print_check

    games = load_all(_cards_dir(args.cards))
    problems, warnings = print_check(games)
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if problems:
        raise DataError(problems)
    problems = [p for game in games.values() for p in trial(game)]
    if problems:
        raise DataError(problems)
    for game in games.values():
        counts = ", ".join(f"{name}: {len(rows)}" for name, rows in game.tables.items())
        print(f"ok  {game.id:<10} {game.name} ({counts})")
    print(f"All {len(games)} games are valid.")
    return 0


def deck_entries(game: GameData) -> list[dict[str, object]]:
    """One entry per physical card, with every field of its design."""
    entries = []
    tables = game.card_tables()
    for card in game.all_cards():
        entry: dict[str, object] = {"id": card.id, "name": card.name, "type": card.type}
        if len(tables) > 1:
            entry["table"] = card.table
        for key, value in card.design.model_dump().items():
            if key not in ("id", "name", "type", "copies"):
                entry[key] = value
        entry["design"] = card.design.id
        entries.append(entry)
    return entries


def cmd_cards(args: argparse.Namespace) -> int:
    game = load_game(args.game, _cards_dir(args.cards))
    entries = deck_entries(game)
    if args.format == "json":
        print(json.dumps(entries, indent=2, ensure_ascii=False))
        return 0
    columns = list(dict.fromkeys(k for e in entries for k in e))
    if args.format == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(entries)
        sys.stdout.write(out.getvalue())
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{game.name}: {len(entries)} cards")
    for col in columns:
        table.add_column(col)
    for e in entries:
        table.add_row(*(str(e.get(c, "")) for c in columns))
    Console().print(table)
    return 0


def _app_args(args: argparse.Namespace) -> tuple[int, Path]:
    """The checked port (free at --address) and data folder for `app` and `start`, or a UsageError saying what to fix."""
    from companion.server import check_port, resolve_data_dir
    from companion.store import StoreError

    try:
        port, data_dir = check_port(args.port, args.address), resolve_data_dir(args.data_dir)
        _use_database(args.database, data_dir)
    except StoreError as err:  # the terminal is the operator's: where the store is, and why
        raise UsageError(err.full) from None
    return port, data_dir


def _use_database(value: str | None, data_dir: Path) -> None:
    """--database (else MUSTER_DATABASE_URL, else the data folder's file), handed to the companion's process
    through the environment; a PostgreSQL database is opened once here, so a bad URL, an unreachable server or
    a database of a newer Muster is said before the server starts."""
    from companion.store import database_target, is_postgres_url, open_store

    target = database_target(value, data_dir)
    if is_postgres_url(target):  # an SQLite file is opened by the app, which shows any notice about it
        open_store(target).close()
    if value or os.environ.get("MUSTER_DATABASE_URL"):
        os.environ["MUSTER_DATABASE_URL"] = target


def cmd_db_copy(args: argparse.Namespace) -> int:
    """Copy every table, seat, log entry and result from one database into an empty one (SQLite <-> PostgreSQL)."""
    from companion.store import StoreError, copy_store, is_postgres_url, open_store

    if not is_postgres_url(args.source) and not Path(args.source.removeprefix("sqlite://")).is_file():
        raise UsageError(f"--from: there is no database file at '{args.source}'")
    try:
        source, target = open_store(args.source), open_store(args.target)
        counts = copy_store(source, target)
    except StoreError as err:  # the terminal is the operator's: where the store is, and why
        raise UsageError(err.full) from None
    print(f"Copied {counts['tables']} tables, {counts['seats']} seats, {counts['actions']} log entries and "
          f"{counts['results']} results from {source.location} to {target.location}.")
    source.close()
    target.close()
    return 0


def _use_cards(value: str | None) -> None:
    """`--cards DIR` for the companion, checked before it starts (_cards_in_use hands it to its process)."""
    folder = _cards_dir(value)
    if folder is not None:
        load_all(folder)


def _public_url(value: str | None, port: int, address: str = "0.0.0.0") -> str:
    """The address phones are given (seat links, QR codes): --public-url, else $MUSTER_PUBLIC_URL (a reverse
    proxy's address), else this machine's network address (or the one --address listens on) and port, under
    the path Streamlit serves the companion under (`server.base_path`), which a public address must end with."""
    from companion.server import ANY_ADDRESS, PUBLIC_URL_ENV, base_path, companion_url
    from generator.build import BuildError, web_address

    try:
        base = base_path()
    except ValueError as err:
        raise UsageError(str(err)) from None
    source = "--public-url" if value is not None else f"${PUBLIC_URL_ENV}"
    url = value if value is not None else os.environ.get(PUBLIC_URL_ENV) or None
    if url is None:
        host = None if address in (ANY_ADDRESS, "::") else (f"[{address}]" if ":" in address else address)
        return companion_url(port, host, base)
    try:
        url = web_address(url, source).rstrip("/")
    except BuildError as err:
        raise UsageError(str(err)) from None
    if base and not urlsplit(url).path.endswith(f"/{base}"):
        raise UsageError(f"{source} '{url}' does not end with /{base}, the path Streamlit serves the companion "
                         f"under (server.baseUrlPath in its config.toml), so its links would miss the companion; "
                         f"give the address phones open it at, like {url}/{base}")
    return url


def cmd_app(args: argparse.Namespace) -> int:
    from companion.server import run_app

    port, data_dir = _app_args(args)
    url = _public_url(args.public_url, port, args.address)
    _use_cards(args.cards)
    if args.debug:
        os.environ["MUSTER_DEBUG"] = "1"  # companion.context.DEBUG_ENV, read by the server it starts
    return run_app(port, data_dir, url, args.address)


def cmd_start(args: argparse.Namespace) -> int:
    """Build every printable with QR codes pointing at this machine's companion, then start it."""
    from companion.server import run_app
    from generator.build import BuildError, build_all

    port, data_dir = _app_args(args)
    url = _public_url(args.public_url, port, args.address)
    print(f"Building every printable into {args.output}/ with QR codes for {url} …", flush=True)
    try:
        written = build_all(out=Path(args.output), url=url)
    except BuildError as err:
        raise UsageError(str(err)) from None
    except OSError as err:
        raise UsageError(_unwritable(args.output, err)) from None
    print(f"{len(written)} printable files are ready in {args.output}/.", flush=True)
    return run_app(port, data_dir, url, args.address)


def cmd_build(args: argparse.Namespace) -> int:
    """Build printables with a progress bar, then say what was written where."""
    from generator.build import BuildError, build_with_progress, offset_warnings, plan, summary

    def listed(value: str | None) -> list[str] | None:
        return [v.strip() for v in value.split(",") if v.strip()] if value else None

    offset = _offset(args.back_offset)
    if args.save_back_offset and offset is None:
        raise UsageError("--save-back-offset needs --back-offset X,Y")
    try:
        if args.calibration:
            return _calibration(args, offset)
        jobs = plan(args.games or None, listed(args.format) or [], args.paper, listed(args.profile),
                    _cards_dir(args.cards))
        for warning in offset_warnings(jobs, offset):
            print(f"warning: {warning}", file=sys.stderr)
        written = build_with_progress(games=args.games or None, formats=listed(args.format) or [],
                                      paper=args.paper, profiles=listed(args.profile), out=Path(args.out),
                                      url=args.companion_url, backs=args.backs, force=args.force,
                                      back_offset=offset, tts_url=args.tts_url, ink=args.ink,
                                      svg_text=args.svg_text,
                                      cards_root=_cards_dir(args.cards))
        if args.save_back_offset and offset is not None:
            _save_offset(args, offset, listed(args.profile))
    except BuildError as err:
        raise UsageError(str(err)) from None
    except OSError as err:
        raise UsageError(_unwritable(args.out, err)) from None
    for line in summary(written):
        print(line)
    print(f"{len(written)} files in {args.out}/.")
    return 0


def _unwritable(out: str, err: OSError) -> str:
    """A failed write during a build (a full disk, a folder made read-only): what happened and where."""
    where = err.filename or out
    return f"cannot write the printables to '{out}' ({err.strerror or err}: {where}); free some space or choose another --out"


def _offset(value: str | None) -> tuple[float, float] | None:
    """--back-offset X,Y in mm, checked like the build checks it."""
    from generator.build import check_offset

    if value is None:
        return None
    parts = value.split(",")
    try:
        x, y = (float(p) for p in parts)
    except ValueError:
        raise UsageError(f"--back-offset '{value}' must be two numbers in mm, X,Y (e.g. 0.8,-1.5)") from None
    try:
        return check_offset((x, y))
    except ValueError as err:
        raise UsageError(str(err)) from None


def _calibration(args: argparse.Namespace, offset: tuple[float, float] | None) -> int:
    """The duplex calibration sheets (per paper, or --paper's), their backs moved by --back-offset."""
    from cards.layout import load_profiles
    from generator import calibration
    from generator.build import writable

    papers = list(load_profiles().papers)
    if args.paper is not None and args.paper not in papers:
        raise UsageError(f"unknown paper '{args.paper}' (papers: {', '.join(papers)})")
    written = calibration.build(writable(Path(args.out)), [args.paper] if args.paper else papers, offset or (0.0, 0.0))
    for path in written:
        print(path)
    return 0


def _save_offset(args: argparse.Namespace, offset: tuple[float, float], profiles: list[str] | None) -> None:
    """Keep --back-offset in cards/profiles.toml for the chosen home-printing profiles."""
    from cards.layout import SheetProfile, load_profiles
    from generator import calibration

    library = load_profiles()
    names = profiles or [n for n, p in library.profiles.items() if isinstance(p, SheetProfile)
                         and (args.paper is None or p.paper == args.paper)]
    try:
        path = calibration.store_offset(names, offset)
    except (ValueError, DataError) as err:
        raise UsageError(f"--save-back-offset: {err}") from None
    print(f"back offset {offset[0]:g},{offset[1]:g} mm saved for {', '.join(names)} in {path}")


def _add_app_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=int, default=8501, metavar="N", help="port to serve on (default 8501)")
    p.add_argument("--address", default="0.0.0.0", metavar="IP",
                   help="the address to listen on: 127.0.0.1 for this machine only (default 0.0.0.0, every network)")
    p.add_argument("--data-dir", metavar="DIR",
                   help="folder for the table store (default: $MUSTER_DATA_DIR, else ~/.local/share/muster)")
    p.add_argument("--database", metavar="URL",
                   help="postgresql://user@host/db to share tables between servers, or an SQLite file "
                        "(default: $MUSTER_DATABASE_URL, else muster.sqlite3 in the data folder)")
    p.add_argument("--public-url", metavar="URL",
                   help="the address phones use, for seat links and QR codes, when the server sits behind a "
                        "reverse proxy, e.g. https://muster.example.org (default: $MUSTER_PUBLIC_URL, else "
                        "http://<this machine's network address>:<port>)")


def cmd_duel(args: argparse.Namespace) -> int:
    """Bots against each other (engine.bots.duel): win rates with 95% intervals, draws, decision times."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from engine import GAME_IDS, make_game
    from engine.bots.duel import play_duel, wilson
    from engine.core import Refusal

    if args.game not in GAME_IDS:
        raise UsageError(f"there is no game called '{args.game}' (games: {', '.join(GAME_IDS)})")
    players = [p.strip() for p in args.players.split(",")]
    if args.games < 1:
        raise UsageError(f"--games must be 1 or more, not {args.games}")
    if args.json is not None and not Path(args.json).resolve().parent.is_dir():
        raise UsageError(f"--json: the folder of '{args.json}' does not exist")
    game = make_game(load_game(args.game))
    console = Console(stderr=True)
    with Progress(TextColumn(f"{args.game}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("games", total=args.games)
        try:
            duel = play_duel(game, players, args.games, args.seed, lambda done: bar.update(task, completed=done))
        except Refusal as err:
            raise UsageError(f"--players: {err}") from None
    report = duel.to_json()
    print(f"{args.game}: {args.games} games, seed {args.seed}, seats rotated")
    print(f"{'player':<8} {'wins':>5} {'win rate':>8}  {'95% interval':<13} {'decision p50':>12} {'p95':>9}")
    for name in players:
        tally, row = duel.tallies[name], report["players"][name]
        p, low, high = wilson(tally.wins, duel.games)
        print(f"{name:<8} {tally.wins:>5} {p:>8.1%}  {low:>5.1%}-{high:<6.1%} "
              f"{row['decision_ms_p50']:>9.1f} ms {row['decision_ms_p95']:>6.1f} ms")
    print(f"draws: {duel.draws}")
    if args.json is not None:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


def cmd_balance(args: argparse.Namespace) -> int:
    """Thousands of games with rotating seats: balance.json and balance.html in --out (balance/)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from balance.command import BalanceUsage, execute, plan, replay, summary
    from balance.run import ClusterError

    cards = _cards_dir(args.cards)
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if workers < 1:
        raise UsageError(f"--workers must be 1 or more, not {workers}")
    try:
        run = plan(args.game, args.players, args.games, args.seed, cards, args.removal_games, args.remove)
    except BalanceUsage as err:
        raise UsageError(str(err)) from None
    if args.replay is not None:
        if args.replay < 0:
            raise UsageError(f"--replay: games are numbered from 0, not {args.replay}")
        replay(run, args.replay, print)
        return 0
    if args.out is None:
        raise UsageError("--out DIR is needed: the folder for balance.json, balance.html and the shards")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(_unwritable(args.out, err)) from None
    console = Console(stderr=True)
    with Progress(TextColumn(f"{args.game} shards"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("shards", total=None)
        try:
            report = execute(run, out, workers, args.scheduler,
                             lambda done, total: bar.update(task, completed=done, total=total))
        except ClusterError as err:
            raise UsageError(str(err)) from None
    for line in summary(report):
        print(line)
    print(f"Report: {out / 'balance.html'} (figures in {out / 'balance.json'})")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="muster", description="Print-and-play kit and table companion for five war games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("check", help="validate the game data in cards/")
    p.add_argument("--cards", metavar="DIR", help="a cards folder to check instead of the shipped one")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("cards", help="list a game's expanded deck, one entry per physical card")
    p.add_argument("game", metavar="GAME")
    p.add_argument("--format", choices=["json", "csv", "table"], default="table")
    p.add_argument("--cards", metavar="DIR", help="a cards folder to read instead of the shipped one")
    p.set_defaults(run=cmd_cards)

    p = sub.add_parser("build", help="draw the print-and-play files (PDF, SVG, PNG) into output/")
    p.add_argument("games", nargs="*", metavar="GAME", help="games to build (default: all)")
    p.add_argument("--format", default="pdf,svg,png",
                   help="comma-separated formats: pdf, svg, png, tts (Tabletop Simulator; default: pdf,svg,png)")
    p.add_argument("--paper", help="only the home-printing profile for this paper (a4 or letter)")
    p.add_argument("--profile", help="comma-separated print profiles from cards/profiles.toml (default: all)")
    p.add_argument("--out", default="output", metavar="DIR", help="output folder (default output/)")
    p.add_argument("--companion-url", metavar="URL",
                   help="base URL the QR codes open (default: $MUSTER_COMPANION_URL; neither = no QR codes)")
    p.add_argument("--backs", action=argparse.BooleanOptionalAction, default=True, help="print card backs")
    p.add_argument("--force", action="store_true", help="rebuild even when nothing changed")
    p.add_argument("--ink", choices=("normal", "low"), default="normal",
                   help="low: playtest cards with light frames and outlines instead of fills (cheap to print, "
                        "easy to write on)")
    p.add_argument("--svg-text", choices=("fonts", "paths"), default="fonts",
                   help="paths: SVG text as glyph outlines, for renderers that ignore embedded fonts (librsvg, "
                        "Inkscape's import); default: text with its fonts embedded (selectable, smaller)")
    p.add_argument("--cards", metavar="DIR", help="a cards folder to build instead of the shipped one")
    p.add_argument("--tts-url", metavar="URL",
                   help="where the TTS sheet images will be hosted (default: file:// paths on this machine)")
    p.add_argument("--back-offset", metavar="X,Y",
                   help="mm to move every back page, right and down as seen on the back (read it off --calibration)")
    p.add_argument("--save-back-offset", action="store_true",
                   help="also store --back-offset in cards/profiles.toml for the home-printing profiles built")
    p.add_argument("--calibration", action="store_true",
                   help="print only the two-page duplex calibration sheet (per paper, or --paper's)")
    p.set_defaults(run=cmd_build)

    p = sub.add_parser("app", help="run the phone companion on this machine's network address")
    _add_app_options(p)
    p.add_argument("--cards", metavar="DIR", help="a cards folder to play instead of the shipped one")
    p.add_argument("--debug", action="store_true",
                   help="developer mode: every seat may also type a move by hand (off by default)")
    p.set_defaults(run=cmd_app)

    p = sub.add_parser("start", help="build every printable for this machine's companion address, then run the companion")
    _add_app_options(p)
    p.add_argument("--output", metavar="DIR", default="output", help="where the printables go (default output/)")
    p.set_defaults(run=cmd_start)

    p = sub.add_parser("duel", help="play bots against each other and report win rates (seats rotated)")
    p.add_argument("game", metavar="GAME")
    p.add_argument("--players", required=True, metavar="P1,P2[,...]",
                   help="one per seat: random, greedy, easy, normal or hard (or ceiling, which sees hidden cards: "
                        "for measuring how much a game's luck leaves to skill)")
    p.add_argument("--games", type=int, default=100, metavar="N", help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the same seed gives the same games (default 0)")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    p.set_defaults(run=cmd_duel)

    p = sub.add_parser("balance", help="simulate many games and report seat, length, drama and per-card balance")
    p.add_argument("game", metavar="GAME")
    p.add_argument("--games", type=int, default=1000, metavar="N", help="games to play (default 1000)")
    p.add_argument("--players", default="random,random", metavar="P1,P2[,...]",
                   help="one per seat, rotated every game: random, greedy, easy, normal or hard (default random,random)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the same seed and data give the same report")
    p.add_argument("--workers", type=int, metavar="K", help="local processes (default: every core)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="play on a running Dask cluster instead, e.g. tcp://10.0.0.5:8786 (pip install 'muster[cluster]')")
    p.add_argument("--cards", metavar="DIR", help="an edited copy of the cards folder to measure")
    p.add_argument("--removal-games", type=int, metavar="M",
                   help="games per card in the removal test, the run's first M seeds (default 200; 0: no removal test)")
    p.add_argument("--remove", metavar="ID[,ID...]", help="only these designs in the removal test (default: all)")
    p.add_argument("--replay", type=int, metavar="K", help="play game K of this run again, printing every move")
    p.add_argument("--out", metavar="DIR", help="folder for balance.json, balance.html and the shards (resumable)")
    p.set_defaults(run=cmd_balance)

    p = sub.add_parser("db", help="database tools")
    db = p.add_subparsers(dest="db_command", required=True, metavar="TOOL")
    p = db.add_parser("copy", help="copy every table, log and record from one database into an empty one")
    p.add_argument("--from", dest="source", required=True, metavar="URL", help="an SQLite file or postgresql://… URL")
    p.add_argument("--to", dest="target", required=True, metavar="URL", help="an SQLite file or postgresql://… URL")
    p.set_defaults(run=cmd_db_copy)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with _cards_in_use(getattr(args, "cards", None)):
            return int(args.run(args) or 0)
    except DataError as err:
        print(f"muster: {len(err.problems)} problem(s) in the game data:", file=sys.stderr)
        for problem in err.problems:
            print(f"  {problem}", file=sys.stderr)
        return 2
    except UsageError as err:
        print(f"muster: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader stopped early (`muster cards warfare | head -1`): not an error, and nothing to say.
        # Later writes (the interpreter's own flush at exit) go nowhere instead of failing again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
