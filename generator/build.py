"""`muster build`: every printable of every game, per print profile and format, rebuilt only when its inputs change.

Output goes to `<out>/<game>/`: sheet PDFs `<game>-<set>-<profile>.pdf`, SVG pages under
`svg/`, print-shop PDFs and PNGs under `png/<profile>/<set>/`. Each (format, profile) job
of a game stores a content hash of its inputs in `<out>/<game>/.build-hash` and is skipped
while the hash is unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from PIL import Image
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from cards import markup
from cards.layout import (
    MAX_BACK_OFFSET,
    FoldProfile,
    SheetProfile,
    SingleProfile,
    layouts_file,
    load_profiles,
    profiles_file,
)
from cards.layout import check as layout_check
from cards.load import CARDS_ROOT, GameData, game_ids, load_game
from cards.problems import DataError, Problem
from generator import booklet, deck, fold, hexbattle_parts, icons, pdfx, pieces, reference, trackers, tts, tuckbox
from generator.canvas import RGB, Document, PdfDocument, RecordingDocument, SvgDocument, glyphs_used
from generator.printable import AnySet, BuildContext, PageSet, PieceSet, SheetSet
from generator.sheets import Piece, draw_sheets, draw_singles, product_for, runs, shared_sides, sharing

FORMATS = ("pdf", "svg", "png", "tts")
DEFAULT_FORMATS = ("pdf", "svg", "png")  # tts only when asked for: it is one export, not a print profile
TTS_PROFILE = "tts"  # the profile name of a game's Tabletop Simulator job
URL_ENV = "MUSTER_COMPANION_URL"
HASH_FILE = ".build-hash"
GENERATOR_DIR = Path(__file__).resolve().parent
PNG_COMPRESSION = 3  # zlib level: level 9 files are barely smaller and take far longer
SHOP_BLEED_TOLERANCE = 1.0  # mm: a shop profile fits pieces whose own bleed is within this of the shop's


class BuildError(ValueError):
    """A build request that cannot be met (unknown game, format or profile, unwritable folder)."""


INKS = ("normal", "low")
SVG_TEXTS = ("fonts", "paths")  # SVG text with its fonts embedded (@font-face), or as glyph outlines


@dataclass(frozen=True)
class Options:
    """What every job of one build shares besides its game and profile."""

    url: str | None = None                          # QR codes' base URL (None: no QR codes)
    backs: bool = True                              # print card backs
    back_offset: tuple[float, float] | None = None  # mm on every back page; None: each profile's own
    tts_url: str | None = None                      # where TTS images will be hosted (None: file:// paths)
    ink: str = "normal"                             # "low": playtest cards, light frames and outlines
    svg_text: str = "fonts"                         # "paths": SVG text as glyph outlines (librsvg and the like)


Make = Callable[[GameData, BuildContext], list[AnySet]]


Preview = Callable[[GameData, str, str], str | None]
"""preview(game, table, design_id) -> the SVG of that design's printed front, or None."""


@dataclass(frozen=True)
class Printable:
    """A kind of printable; `claims` names, per game, the card tables it draws itself, and
    `preview` draws one of those designs alone (the companion's look-up shows it)."""

    name: str
    make: Make
    claims: Mapping[str, frozenset[str]] = field(default_factory=dict)
    preview: Preview | None = None
    check: Callable[[GameData], list[Problem]] | None = None


def _decks(game: GameData, ctx: BuildContext) -> list[AnySet]:
    return list(deck.piece_sets(game, ctx.companion_url, ctx.claimed, ctx.low_ink))


PRINTABLES: tuple[Printable, ...] = (
    Printable("cards", _decks, preview=deck.design_svg),
    Printable("hexbattle-parts", hexbattle_parts.printables, hexbattle_parts.CLAIMS, hexbattle_parts.preview,
              hexbattle_parts.check),
    Printable("reference", reference.printables),
    Printable("trackers", trackers.printables),
    Printable("pieces", pieces.printables),
    Printable("rules", booklet.printables, check=booklet.check),
    Printable("tuck-boxes", tuckbox.printables),
)


@dataclass(frozen=True)
class Job:
    """One output of one game: a format for a profile."""

    game: str
    fmt: str
    profile: str

    @property
    def key(self) -> str:
        return f"{self.fmt}:{self.profile}"


MAX_URL = 200
"""Longer base URLs make QR codes too dense to scan off a card (and past ~2,900 bytes none can hold them)."""


def companion_url(explicit: str | None) -> str | None:
    """The QR codes' base URL: --companion-url, else $MUSTER_COMPANION_URL, else none (no QR codes)."""
    source = "--companion-url" if explicit is not None else f"${URL_ENV}"
    url = explicit if explicit is not None else os.environ.get(URL_ENV) or None
    return None if url is None else web_address(url, source)


def web_address(url: str, source: str) -> str:
    """`url` if a phone can open it and a QR code can carry it (http or https, a host, no query), else a
    BuildError naming `source` (the option or variable it came from) and what is wrong."""
    shown = url if len(url) <= 60 else f"{url[:60]}…"
    if len(url) > MAX_URL:
        raise BuildError(f"{source} is {len(url):,} characters long; a QR code on a card holds at most {MAX_URL}")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number from 0 to 65535
    except ValueError as err:
        raise BuildError(f"{source} '{shown}' is not a valid URL ({err})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in url):
        raise BuildError(f"{source} '{shown}' must start with http:// or https://, then a host name, "
                         "like http://192.168.1.20:8501")
    if parts.query or parts.fragment:
        raise BuildError(f"{source} '{shown}' must not have a query or #fragment: links add their own "
                         "(?table=…), so give the address only, like https://muster.example.org")
    return url


def tts_base(url: str | None) -> str | None:
    """--tts-url: where the Tabletop Simulator images will be hosted, or BuildError if it is no web address."""
    if url is None:
        return None
    try:
        parts = urlsplit(url)
    except ValueError as err:
        raise BuildError(f"--tts-url '{url}' is not a valid URL ({err})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BuildError(f"--tts-url '{url}' must start with http:// or https://, then a host name")
    return url


def check_offset(offset: tuple[float, float] | None) -> tuple[float, float] | None:
    """A --back-offset within what a printer's duplex shift can be, or BuildError."""
    if offset is not None and any(not -MAX_BACK_OFFSET <= v <= MAX_BACK_OFFSET for v in offset):
        raise BuildError(f"back offset {offset[0]:g},{offset[1]:g} mm is more than {MAX_BACK_OFFSET:g} mm; "
                         "print the calibration sheet (muster build --calibration) and read it again")
    return offset


def offset_warnings(jobs: Sequence[Job], offset: tuple[float, float] | None) -> list[str]:
    """What a back offset costs on the duplex sheets the jobs print: no ink lies nearer the paper's edge than
    the profile's margin, and the back pages move by the offset, so an offset larger than the margin less
    the printer's blank edge (`printer_edge`) pushes the backs' cut marks and bleed where printers cannot
    print. One line per profile so affected (its own stored offset when `offset` is None)."""
    library = load_profiles()
    warnings = []
    for name in dict.fromkeys(j.profile for j in jobs if j.fmt in ("pdf", "svg")):
        profile = library.profiles[name]
        if not isinstance(profile, SheetProfile) or isinstance(profile, FoldProfile):
            continue  # shop pages and fold-over sheets have no back page to move
        dx, dy = offset if offset is not None else profile.back_offset
        nearest = profile.margin - max(abs(dx), abs(dy))
        if nearest < profile.printer_edge:
            warnings.append(f"back offset {dx:g},{dy:g} mm moves the back pages' outermost cut marks and bleed "
                            f"to {max(nearest, 0):g} mm from the paper's edge on {name} (ink keeps "
                            f"{profile.margin:g} mm away; most printers leave {profile.printer_edge:g} mm blank): "
                            "they may not print; check the offset on the calibration sheet "
                            "(muster build --calibration)")
    return warnings


def plan(games: Sequence[str] | None = None, formats: Sequence[str] = DEFAULT_FORMATS, paper: str | None = None,
         profiles: Sequence[str] | None = None, cards_root: Path | None = None) -> list[Job]:
    """The jobs a build request means, or BuildError saying what is wrong with it."""
    known_games = game_ids(cards_root)
    chosen = list(games) if games else known_games
    unknown = [g for g in chosen if g not in known_games]
    if unknown:
        raise BuildError(f"unknown game {', '.join(unknown)} (games: {', '.join(known_games)})")
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        raise BuildError(f"unknown format {', '.join(bad) or '(none)'} (formats: {', '.join(FORMATS)})")
    library = load_profiles()
    names = list(profiles) if profiles else list(library.profiles)
    missing = [p for p in names if p not in library.profiles]
    if missing:
        raise BuildError(f"unknown profile {', '.join(missing)} (profiles: {', '.join(library.profiles)})")
    if paper is not None and paper not in library.papers:
        raise BuildError(f"unknown paper '{paper}' (papers: {', '.join(library.papers)})")
    jobs = []
    for game in chosen:
        for name in names if set(formats) - {"tts"} else ():
            profile = library.profiles[name]
            sheet = isinstance(profile, SheetProfile)
            if sheet and paper is not None and profile.paper != paper:
                continue
            rgb = sheet or profile.colour == "rgb"
            for fmt in formats:
                if fmt == "pdf" or (fmt == "svg" and sheet) or (fmt == "png" and not sheet and rgb):
                    jobs.append(Job(game, fmt, name))
        if "tts" in formats:
            jobs.append(Job(game, "tts", TTS_PROFILE))
    if any(j.fmt in ("png", "tts") for j in jobs) and shutil.which("pdftoppm") is None:
        raise BuildError("PNG and TTS export need pdftoppm (install poppler-utils), or leave them out of --format")
    if any(j.fmt == "pdf" and getattr(library.profiles[j.profile], "colour", "rgb") == "cmyk" for j in jobs):
        try:
            pdfx.icc_path()
        except pdfx.IccMissing as err:
            raise BuildError(f"{err}, or leave the CMYK profiles out of --profile") from None
    if not jobs:
        papers = f"--paper {paper} keeps only sheet profiles on {paper} paper; " if paper else ""
        raise BuildError(f"nothing to build: {papers}SVG is made for sheet profiles and PNG for print-shop "
                         f"profiles ({', '.join(f'{n}: {p.kind}' for n, p in library.profiles.items())})")
    return jobs


def writable(out: Path) -> Path:
    """The output folder, created, or BuildError if it cannot be written."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".muster-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as err:
        raise BuildError(f"cannot write to output folder '{out}': {err.strerror or err}") from None
    return out


def build_all(games: Sequence[str] | None = None, formats: Sequence[str] = DEFAULT_FORMATS, *,
              paper: str | None = None, profiles: Sequence[str] | None = None, out: Path = Path("output"),
              url: str | None = None, backs: bool = True, force: bool = False,
              back_offset: tuple[float, float] | None = None, tts_url: str | None = None,
              ink: str = "normal", svg_text: str = "fonts", cards_root: Path | None = None,
              on_job: Callable[[Job, bool], None] | None = None) -> list[Path]:
    """Build the requested printables and return every file written or already up to date.

    `url` overrides $MUSTER_COMPANION_URL; `back_offset` (mm) overrides every sheet profile's own;
    `tts_url` is where TTS sheets will be hosted; `on_job(job, skipped)` is called after each job
    (the CLI's progress bar). Jobs whose inputs are unchanged since the last build (same
    hash in `<out>/<game>/.build-hash`, files present) are skipped unless `force`; the rest
    run in parallel on every core."""
    jobs = plan(games, formats, paper, profiles, cards_root)
    writable(out)
    if ink not in INKS:
        raise BuildError(f"unknown ink '{ink}' (inks: {', '.join(INKS)})")
    if svg_text not in SVG_TEXTS:
        raise BuildError(f"unknown SVG text '{svg_text}' (choices: {', '.join(SVG_TEXTS)})")
    opts = Options(companion_url(url), backs, check_offset(back_offset), tts_base(tts_url), ink, svg_text)
    ids = list(dict.fromkeys(job.game for job in jobs))
    loaded = {g: load_game(g, cards_root) for g in ids}
    problems = layout_check(loaded) + icons.check(list(loaded.values()))  # before any worker starts
    if problems:
        raise DataError(problems)
    digests = {g: _inputs_hash(loaded[g], opts) for g in ids}
    manifests = {g: _read_manifest(out / g) for g in ids}
    written: list[Path] = []
    todo: list[Job] = []
    for job in jobs:
        folder = out / job.game
        entry = manifests[job.game].get(job.key, {})
        old = [folder / str(f) for f in entry.get("files", [])]  # type: ignore[union-attr]
        if not force and entry.get("hash") == digests[job.game] and all(p.is_file() for p in old):
            written.extend(old)
            if on_job:
                on_job(job, True)
            continue
        todo.append(job)
    for job, files in _run(todo, out, opts, cards_root):
        folder = out / job.game
        entry = manifests[job.game].get(job.key, {})
        for stale in {folder / str(f) for f in entry.get("files", [])} - set(files):  # type: ignore[union-attr]
            stale.unlink(missing_ok=True)  # files are rewritten in place; what the job no longer makes goes
        manifests[job.game][job.key] = {"hash": digests[job.game], "files": [str(p.relative_to(folder)) for p in files]}
        (folder / HASH_FILE).write_text(json.dumps(manifests[job.game], indent=1, sort_keys=True) + "\n",
                                        encoding="utf-8")
        written.extend(files)
        if on_job:
            on_job(job, False)
    return sorted(set(written))  # a screen PDF is written by each sheet profile of its game


def _run(todo: Sequence[Job], out: Path, opts: Options,
         cards_root: Path | None) -> Iterator[tuple[Job, list[Path]]]:
    """Each job's files, as jobs finish; in worker processes when there is more than one job and core."""
    workers = min(os.cpu_count() or 1, len(todo))
    if workers <= 1:
        cache: dict[str, list[AnySet]] = {}
        for job in todo:
            yield job, run_one(job, out, opts, cards_root, cache)
        return
    with ProcessPoolExecutor(workers, initializer=_WORKER_SETS.clear) as pool:
        futures = {pool.submit(run_one, job, out, opts, cards_root): job for job in todo}
        for future in as_completed(futures):
            yield futures[future], future.result()


_WORKER_SETS: dict[str, list[AnySet]] = {}
"""A worker's printables per game, made once per build (the pool's initializer empties it)."""


def run_one(job: Job, out: Path, opts: Options, cards_root: Path | None,
            cache: dict[str, list[AnySet]] | None = None) -> list[Path]:
    """One job, from loading its game to the files written."""
    cache = _WORKER_SETS if cache is None else cache
    if job.game not in cache:
        game = load_game(job.game, cards_root)
        ctx = BuildContext(opts.url, _claimed(game.id), low_ink=opts.ink == "low")
        cache[job.game] = [PieceSet(s.name, shared_sides(s.pieces)) if isinstance(s, PieceSet) else s
                           for p in PRINTABLES for s in p.make(game, ctx)]
    folder = out / job.game
    if job.fmt == "tts":
        return tts.export(job.game, cache[job.game], folder / "tts", opts.tts_url, opts.backs)
    profiles = load_profiles()
    profile = profiles.profiles[job.profile]
    paper = profiles.paper(profile) if isinstance(profile, SheetProfile) else (0.0, 0.0)
    folder.mkdir(parents=True, exist_ok=True)
    return run_job(job.game, job, profile, cache[job.game], folder, opts, paper)


def check(games: Mapping[str, GameData]) -> tuple[list[Problem], list[Problem]]:
    """What `muster check` adds for printing: (errors in layouts and profiles, warnings about cards that
    print badly: missing glyphs, text shrunk below its min_size)."""
    problems = layout_check(dict(games)) + icons.check(list(games.values())) + markup.check(games)
    problems += [p for printable in PRINTABLES if printable.check for g in games.values() for p in printable.check(g)]
    claimed = {g: _claimed(g) for g in games}
    return problems, ([] if problems else deck.check(games, claimed))


def preview_svg(game: GameData, design_id: str) -> str | None:
    """A card design's printed front as SVG, drawn by whichever printable prints its table."""
    table = next((t for t in game.card_tables() if any(r.id == design_id for r in game.table(t))), None)
    if table is None:
        return None
    owner = next((p for p in PRINTABLES if table in p.claims.get(game.id, ())), PRINTABLES[0])
    return owner.preview(game, table, design_id) if owner.preview else None


def _claimed(game_id: str) -> frozenset[str]:
    """The card tables of a game that a printable other than the decks draws."""
    return frozenset(t for p in PRINTABLES for t in p.claims.get(game_id, ()))


def build_with_progress(**kwargs: object) -> list[Path]:
    """build_all with a progress bar on the terminal (arguments as for build_all)."""
    jobs = plan(kwargs.get("games"), kwargs.get("formats", DEFAULT_FORMATS), kwargs.get("paper"),  # type: ignore[arg-type]
                kwargs.get("profiles"), kwargs.get("cards_root"))  # type: ignore[arg-type]
    with Progress(TextColumn("{task.description:<28}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), transient=True) as progress:
        task = progress.add_task("building", total=len(jobs))

        def advance(job: Job, skipped: bool) -> None:
            state = "up to date" if skipped else "built"
            progress.update(task, advance=1, description=f"{job.game} {job.fmt} {job.profile} {state}")

        return build_all(**kwargs, on_job=advance)  # type: ignore[arg-type]


def summary(files: Sequence[Path]) -> list[str]:
    """One line per folder: its PDFs by name, SVG and PNG files counted."""
    folders: dict[Path, list[Path]] = {}
    for path in files:
        folders.setdefault(path.parent, []).append(path)
    lines = []
    for folder, paths in sorted(folders.items()):
        pdfs = sorted(p.name for p in paths if p.suffix == ".pdf")
        others: dict[str, int] = {}
        for p in paths:
            if p.suffix != ".pdf":
                others[p.suffix[1:].upper()] = others.get(p.suffix[1:].upper(), 0) + 1
        counted = ", ".join(f"{n} {kind} files" for kind, n in sorted(others.items()))
        lines.append(f"{folder}/: " + ", ".join(pdfs + ([counted] if counted else [])))
    return lines


def _inputs_hash(game: GameData, opts: Options) -> str:
    """Everything a game's printables depend on: its data, the loader and its schema, layouts, profiles, generator code."""
    digest = hashlib.sha256()
    files = sorted(p for p in game.folder.rglob("*") if p.is_file())
    files += [CARDS_ROOT / "schemas" / f"{game.id}.py", CARDS_ROOT / "load.py", CARDS_ROOT / "layout.py",
              layouts_file(game.folder.parent), profiles_file(game.folder.parent), icons.ICON_FILE]
    files += sorted(GENERATOR_DIR.rglob("*.py")) + sorted((GENERATOR_DIR / "fonts").glob("*"))
    for path in files:
        digest.update(str(path.name).encode())
        digest.update(path.read_bytes() if path.is_file() else b"")
    digest.update(json.dumps({"url": opts.url, "backs": opts.backs, "back_offset": opts.back_offset,
                              "tts_url": opts.tts_url, "ink": opts.ink, "svg_text": opts.svg_text}).encode())
    return digest.hexdigest()


def _read_manifest(folder: Path) -> dict[str, dict[str, object]]:
    try:
        return json.loads((folder / HASH_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _shop_fits(piece_set: PieceSet, profile: SingleProfile) -> bool:
    width, height = profile.size_mm
    return bool(piece_set.pieces) and all(
        abs((width - p.width) / 2 - p.bleed) <= SHOP_BLEED_TOLERANCE
        and abs((height - p.height) / 2 - p.bleed) <= SHOP_BLEED_TOLERANCE for p in piece_set.pieces)


def shop_groups(piece_set: AnySet,
                profile: SingleProfile) -> list[tuple[str, SingleProfile, list[Piece]]]:
    """What a print shop makes of a set: its cards at the shop's card size (product name ""), or each piece on
    the shop's product for it (`sheets.product_for`: tiles, chits, tokens), with that product's profile;
    nothing when the set is pages or the shop sells no product for one of its pieces (half a set is no use)."""
    if not isinstance(piece_set, PieceSet) or not piece_set.pieces:
        return []
    if _shop_fits(piece_set, profile):
        return [("", profile, piece_set.pieces)]
    groups: dict[str, list[Piece]] = {}
    for piece in piece_set.pieces:
        product = product_for(piece, profile)
        if product is None:
            return []
        groups.setdefault(product, []).append(piece)
    return [(name, profile.product_profile(name), pieces) for name, pieces in groups.items()]


def run_job(game: str, job: Job, profile: SheetProfile | SingleProfile, sets: Sequence[AnySet],
            folder: Path, opts: Options, paper: tuple[float, float]) -> list[Path]:
    """Draw every set for one (format, profile) and return the files written."""
    files: list[Path] = []
    svgs: list[SvgDocument] = []
    for piece_set in shared(sets, profile, paper):
        stem = f"{game}-{piece_set.name}-{job.profile}"
        if job.fmt == "png":
            if isinstance(profile, SingleProfile):
                for name, product, pieces in shop_groups(piece_set, profile):  # a folder per product to upload
                    files.extend(export_png(PieceSet(piece_set.name, pieces), product,
                                            folder / "png" / job.profile / piece_set.name / name, opts.backs))
            continue
        if isinstance(profile, SingleProfile):
            if isinstance(piece_set, PieceSet) and shop_groups(piece_set, profile):
                files.extend(shop_pdfs(game, piece_set, job.profile, profile, folder, opts.backs))
            continue
        offset = opts.back_offset if opts.back_offset is not None else profile.back_offset
        if isinstance(piece_set, SheetSet):
            if job.fmt == "pdf":
                files.extend(draw_sheet_set(piece_set, profile, paper, folder, stem, game))
            continue
        if job.fmt == "svg":
            svg = SvgDocument(folder / "svg", stem, back_offset=offset, text_paths=opts.svg_text == "paths")
            if draw_set(svg, piece_set, profile, paper, opts.backs):
                svgs.append(svg)
            continue
        doc = PdfDocument(folder / f"{stem}.pdf", stem, back_offset=offset)
        if draw_set(doc, piece_set, profile, paper, opts.backs):
            files.extend(doc.save())
    # One font subset per font for all of the job's SVGs: subsetting costs far more than the bytes saved.
    subsets = glyphs_used(svgs)
    for svg in svgs:
        files.extend(svg.save(subsets))
    return files


def shared(sets: Sequence[AnySet], profile: SheetProfile | SingleProfile,
           paper: tuple[float, float]) -> list[AnySet]:
    """The sets as a duplex sheet profile prints them: a piece set that fits whole on an earlier set's
    short last sheet is drawn there, in that set's file (`sheets.sharing`); other profiles print
    every set on its own."""
    if not isinstance(profile, SheetProfile) or isinstance(profile, FoldProfile):
        return list(sets)
    pieces = [s for s in sets if isinstance(s, PieceSet)]
    groups = sharing([s.pieces for s in pieces], profile, paper)
    hosts = {id(pieces[g[0]]): PieceSet(pieces[g[0]].name, [p for i in g for p in pieces[i].pieces]) for g in groups}
    return [hosts.get(id(s), s) if isinstance(s, PieceSet) else s for s in sets
            if not isinstance(s, PieceSet) or id(s) in hosts]


def shop_pdfs(game: str, piece_set: PieceSet, name: str, profile: SingleProfile, folder: Path,
              backs: bool) -> list[Path]:
    """A print shop's PDFs of one set: one, or one per deck; CMYK PDF/X-1a when the shop asks for it."""
    decks = piece_set.decks() if profile.per_deck else {"": piece_set.pieces}
    files = []
    for deck_name, pieces in decks.items():
        stem = "-".join(filter(None, (game, piece_set.name, deck_name, name)))
        cmyk = profile.colour == "cmyk"
        doc = PdfDocument(folder / f"{stem}.pdf", stem, paint=pdfx.CmykPaint(profile.max_ink) if cmyk else RGB)
        for _, product, group in shop_groups(PieceSet(piece_set.name, pieces), profile):
            draw_singles(doc, group, product, backs)  # a page per side, each the size of its product
        files.extend(doc.save())
    return files


def draw_sheet_set(sheet_set: SheetSet, profile: SheetProfile, paper: tuple[float, float], folder: Path,
                   stem: str, game: str) -> list[Path]:
    """A profile-dependent set's PDF, and its reading-order PDF for screens when it has one. Every sheet
    profile writes the screen PDF (so `--paper` or `--profile` alone still gives it); they write the same
    bytes, so jobs running at once cannot leave it half one and half the other."""
    files = []
    doc = PdfDocument(folder / f"{stem}.pdf", stem)
    if sheet_set.draw(doc, profile, paper):
        files.extend(doc.save())
    if sheet_set.screen is not None:
        name = f"{game}-{sheet_set.name}-screen"
        screen = PdfDocument(folder / f"{name}.pdf", name)
        sheet_set.screen(screen)
        files.extend(screen.save())
    return files


def draw_set(doc: Document, piece_set: AnySet, profile: SheetProfile | SingleProfile,
             paper: tuple[float, float], backs: bool) -> bool:
    """Draw one set as `profile` prints it; False when the profile does not print this set."""
    if isinstance(piece_set, SheetSet):
        return isinstance(profile, SheetProfile) and piece_set.draw(doc, profile, paper)
    if isinstance(profile, SheetProfile):
        if isinstance(piece_set, PageSet):
            for draw in piece_set.pages:
                with doc.page(*paper) as c:
                    draw(c, *paper)
        else:
            if isinstance(profile, FoldProfile):
                for group in runs(piece_set.pieces):
                    fold.draw_folded(doc, group, profile, paper, backs)
            else:
                draw_sheets(doc, piece_set.pieces, profile, paper, backs)
        return True
    groups = shop_groups(piece_set, profile)
    for _, product, pieces in groups:
        draw_singles(doc, pieces, product, backs)
    return bool(groups)


REHEARSAL_URL = "http://192.0.2.1:8501"
"""A companion address for laying pieces out in memory, so the QR codes are drawn as a build draws them."""


def rehearse(game: GameData) -> None:
    """Lay out every printable of a game for every profile on a recording canvas: what `muster build`
    draws, without writing a file, so `muster check` finds data that would crash the build."""
    ctx = BuildContext(REHEARSAL_URL, _claimed(game.id))
    sets = [s for p in PRINTABLES for s in p.make(game, ctx)]
    library = load_profiles()
    papers: set[tuple[float, float]] = set()
    for profile in library.profiles.values():
        paper = library.paper(profile) if isinstance(profile, SheetProfile) else (0.0, 0.0)
        for piece_set in shared(sets, profile, paper):
            if isinstance(piece_set, PageSet) and paper in papers:
                continue  # full pages depend on the paper alone
            draw_set(RecordingDocument(), piece_set, profile, paper, backs=True)
        papers.add(paper)


PIECES_FILE = ".pieces.json"
"""Per shop PNG folder: each image's drawing fingerprint, so a rebuild renders only the pieces that changed."""


def export_png(piece_set: PieceSet, profile: SingleProfile, folder: Path, backs: bool) -> list[Path]:
    """One PNG per physical card (and per distinct back) at the shop's exact pixel size.

    Each distinct design is drawn once on a recording canvas (hashed: its fingerprint), the
    changed ones replayed into a temporary PDF, rasterised by pdftoppm on every core, and
    copied for their other copies. A design whose drawing is the same as when its PNG was
    made is not rasterised again: renaming one card rewrites that card's files only."""
    unique: dict[str, Piece] = {}
    for piece in piece_set.pieces:
        unique.setdefault(piece.design or piece.name, piece)
    folder.mkdir(parents=True, exist_ok=True)
    recording = RecordingDocument()
    stems = draw_singles(recording, list(unique.values()), profile, backs)
    prints = {stem: _fingerprint(page.calls, profile) for stem, page in zip(stems, recording.pages)}
    manifest = folder / PIECES_FILE
    try:
        known = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    stale = {stem for stem in stems if known.get(stem) != prints[stem] or not (folder / f"{stem}.png").is_file()}
    if stale:
        with tempfile.TemporaryDirectory() as tmp:
            doc = PdfDocument(Path(tmp) / "sides.pdf")
            drawn = [stem for stem in stems if stem in stale]
            for stem, recorded in zip(stems, recording.pages):  # the fingerprinted drawing, not drawn again
                if stem in stale:
                    with doc.page(recorded.width, recorded.height, trim=recorded.trim, bleed=recorded.bleed) as c:
                        recorded.replay(c)
            doc.save()
            for stem, page in zip(drawn, _rasterise(doc.path, len(drawn), profile)):
                shutil.move(page, folder / f"{stem}.png")
    files = [folder / f"{stem}.png" for stem in stems]
    names = {p.name for p in unique.values()}
    for piece in piece_set.pieces:
        first = unique[piece.design or piece.name]
        target = folder / f"{piece.name}.png"
        if piece.name not in names:
            if first.name in stale or not target.is_file():
                shutil.copyfile(folder / f"{first.name}.png", target)
            files.append(target)
    manifest.write_text(json.dumps(prints, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    return sorted(files)


def _fingerprint(calls: Sequence[object], profile: SingleProfile) -> str:
    """What one PNG depends on: every drawing call of its page and the shop's pixel size."""
    return hashlib.sha256((repr(calls) + profile.model_dump_json()).encode()).hexdigest()[:32]


def _rasterise(pdf: Path, count: int, profile: SingleProfile) -> list[Path]:
    """Every page of the PDF as a PNG of exactly the profile's pixel size.

    pdftoppm renders page ranges on every core as raw PPM (its own PNG encoder is several
    times slower than Pillow's), then Pillow writes the PNGs."""
    workers = max(1, min(os.cpu_count() or 1, count))
    chunk = -(-count // workers)
    procs = []
    for k in range(workers):
        first, last = k * chunk + 1, min((k + 1) * chunk, count)
        if first > last:
            continue
        procs.append(subprocess.Popen(
            ["pdftoppm", "-r", str(profile.dpi), "-scale-to-x", str(profile.width_px),
             "-scale-to-y", str(profile.height_px), "-f", str(first), "-l", str(last),
             str(pdf), str(pdf.parent / f"part{k}")], stderr=subprocess.PIPE))
    for proc in procs:
        _, err = proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError(f"pdftoppm failed: {err.decode(errors='replace').strip()}")
    pages = sorted(pdf.parent.glob("part*-*.ppm"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    if len(pages) != count:
        raise RuntimeError(f"pdftoppm wrote {len(pages)} pages of {count}")
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(_to_png, pages))


def _to_png(ppm: Path) -> Path:
    png = ppm.with_suffix(".png")
    with Image.open(ppm) as image:
        image.save(png, optimize=False, compress_level=PNG_COMPRESSION)
    ppm.unlink()
    return png
