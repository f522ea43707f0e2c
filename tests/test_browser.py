"""The companion in a real browser (Playwright + system Chromium) at phone size, against a real `muster app` process.

Three phones: the host (creates the table, then plays Ann on the same phone), Bob who
joins by the table's code and takes his seat, and a spectator who joins by the code and
watches. They play a few moves of Napoleonic Warfare, the spectator is checked for no
moves and no private cards, then a refresh and a server restart must lose nothing.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import TIMEOUT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PROBLEM = re.compile(r"Traceback|\bERROR\b|\bCRITICAL\b|\bException\b|Error:")
"""A line of the server's log that says something went wrong: a test fails on one it did not expect."""


class Server:
    """`muster app` as a child process; restartable on the same port and data folder.

    Its log (stdout and stderr) is kept in `log`; `stop` fails the test on any traceback or error line in
    it that the test did not `expect`, so a fault the phones never show still fails the test."""

    def __init__(self, data_dir: Path, *options: str, prefix: Sequence[str] = (), base: str = "") -> None:
        self.prefix = list(prefix)  # a command the server runs under (as `setpriv …` to run as a plain owner)
        self.base = base  # the path the companion is served under (Streamlit's server.baseUrlPath), if any
        self.port = free_port()
        self.data_dir = data_dir
        self.options = options  # more `muster app` options
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir.parent / f"server-{self.port}.log"
        self.expected: list[re.Pattern[str]] = []
        self.checked = 0  # the log's bytes a test sharing this server has read for problems (`shared_server`)

    def expect(self, *patterns: str) -> None:
        """Lines of the log matching any of these are what the test provokes (a fault it injects)."""
        self.expected += [re.compile(p) for p in patterns]

    def problems(self, since: int = 0) -> list[str]:
        """The log's traceback and error lines the test did not expect, from byte `since` of the log on."""
        if not self.log.exists():
            return []
        with self.log.open("rb") as log:
            log.seek(since)
            lines = log.read().decode("utf-8", errors="replace").splitlines()
        return [line for line in lines if PROBLEM.search(line) and not any(p.search(line) for p in self.expected)]

    def mark(self) -> int:
        """Where the log ends now: `problems(since=…)` reads what came after."""
        return self.log.stat().st_size if self.log.exists() else 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}" + (f"/{self.base}" if self.base else "")

    def start(self) -> None:
        env = dict(os.environ, MUSTER_RULES_DIR=os.environ.get("MUSTER_RULES_DIR", ""))
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen([*self.prefix, sys.executable, "-m", "companion.cli", "app", "--port",
                                          str(self.port), "--data-dir", str(self.data_dir), *self.options],
                                         env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError("the companion did not start within 60 s")

    def stop(self) -> None:
        """Stop the server, failing on a problem in its log that no test has read yet (`checked`)."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        problems = self.problems(self.checked)
        assert not problems, f"the server's log ({self.log}) has lines the test did not expect:\n" + "\n".join(problems[:20])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "data")
    srv.start()
    yield srv
    srv.stop()


def moves_so_far(page: object) -> int:
    label = page.get_by_text(re.compile(r"Moves so far \(\d+\)"))  # type: ignore[attr-defined]
    if label.count() == 0:
        return 0
    return int(re.search(r"\((\d+)\)", label.first.inner_text()).group(1))  # type: ignore[union-attr]


def wait_moves(page: object, n: int, within: float = TIMEOUT / 1000, at_least: bool = False) -> None:
    """Wait until `page` shows `n` moves so far (`at_least`: n or more, where another seat may move meanwhile): a
    loaded machine may take long, and nothing here is timed."""
    deadline = time.time() + within
    while time.time() < deadline:
        shown = moves_so_far(page)
        if shown == n or (at_least and shown > n):
            return
        page.wait_for_timeout(200)  # type: ignore[attr-defined]
    raise AssertionError(f"expected {n} moves on the page, saw {moves_so_far(page)}")


def settle(page: object) -> None:
    """Wait until the app has finished its current run, so the next tap is not lost in a redraw."""
    page.wait_for_timeout(300)  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        "() => !document.querySelector('[data-testid=stStatusWidget]')"
        " || !document.querySelector('[data-testid=stStatusWidget]').innerText.includes('Running')",
        timeout=TIMEOUT)
    page.wait_for_timeout(300)  # type: ignore[attr-defined]


def choose(page: object, key: str, option: str) -> None:
    """Pick an option of a Streamlit selectbox: type to filter, then click it (retried if a redraw closes the list)."""
    for _ in range(5):
        box = page.locator(f".st-key-{key} input")  # type: ignore[attr-defined]
        box.click()
        box.fill(option)
        try:
            page.get_by_role("option", name=option).click(timeout=5_000)  # type: ignore[attr-defined]
        except Exception:  # the list closed under a redraw; open it again
            continue
        if box.input_value() == option:
            return
    raise AssertionError(f"could not choose {option!r} in {key}")


def tap_move(page: object, button: object) -> None:
    """Tap a move; a move that cannot be taken back asks first, in a dialog: say yes."""
    before = moves_so_far(page)
    button.click()  # type: ignore[attr-defined]
    yes = page.get_by_role("button", name="Yes, do it")  # type: ignore[attr-defined]
    deadline = time.time() + TIMEOUT / 1000  # a loaded machine may take long; nothing is timed
    while time.time() < deadline and moves_so_far(page) == before:
        if yes.count():
            yes.click()
            break
        page.wait_for_timeout(200)  # type: ignore[attr-defined]
    settle(page)


def lay_placement(page: Any, laid: list[tuple[str, str]]) -> None:
    """Medieval: lay reenforcements as a player does, each (card, column) by tapping the card in the hand, then its
    column, until the column tapped settles the whole placement: that tap is the move (asked about first when it
    reveals)."""
    for card, column in laid:
        hand = page.locator(".st-key-medieval-hand .mp-btn:enabled")
        hand.filter(has_text=re.compile(rf"^(✓ )?{re.escape(card)}( ·|$)")).first.click()
        settle(page)
        slot = page.locator(".st-key-moves .mp-btn:enabled").filter(
            has_text=re.compile(rf"^(★ )?{re.escape(column.capitalize())}$")).first
        slot.wait_for(timeout=TIMEOUT)
        if page.locator(".st-key-move-list").count():
            tap_move(page, slot)
            return
        slot.click()
        page.locator(".st-key-medieval-field .mp-btn", has_text=f"{column.capitalize()}: {card}").wait_for(timeout=TIMEOUT)
        settle(page)
    raise AssertionError(f"laying {laid} settled no placement")


def player_taps(page: Any, wanted: str | None = None) -> None:
    """Ann takes a move as a player would: the move `wanted` (picked at random, so the game ends as a random one
    does) where its button or hexbattle's list of every move offers it, else the first button; else a list's
    first entry; else a card of a move being built (warfare's attack) first, medieval's placement laid card by card
    (a column for the card chosen, else a card), or medieval's "On to battle N" after the battle just fought."""
    for _ in range(8):
        settle(page)
        yes = page.get_by_role("button", name="Yes, do it")
        if yes.count():  # a question still open from a tap a redraw interrupted: answered, as a player would
            yes.first.click()
            settle(page)
            return
        if listed_move(page, wanted):
            return
        laying = page.locator(".st-key-medieval-field .mp-btn:enabled, .st-key-medieval-hand .mp-btn:enabled")
        if laying.count() and not page.locator(".st-key-move-list .mp-btn:enabled").count():
            laying.first.click()  # medieval: a column for the card chosen, else a card of the hand, laid on the phone
            continue
        # a move's button (a card of warfare's attack builder is none)
        plain = page.locator(".st-key-moves .sf-block:not(.st-key-builder) .mp-btn:enabled").all()
        if plain:
            named = [b for b in plain if b.inner_text().strip() == wanted]
            tap_move(page, named[0] if named else plain[0])
            return
        listed = page.locator(".st-key-moves .mp-select")
        if listed.count():
            listed.first.select_option(index=1)
            tap_move(page, page.locator(".st-key-moves .mp-group .mp-btn").first)
            return
        card = page.locator(".st-key-builder .mp-btn:enabled")  # warfare: a card for the attack being built
        if card.count():
            card.first.click()
            continue
        onward = page.locator(".st-key-medieval-result .mp-btn:enabled")  # the battle fought, read: on to the next
        if onward.count():
            onward.first.click()
            continue
    raise AssertionError("Ann's phone offers no move to take")


def listed_move(page: Any, label: str | None) -> bool:
    """Hexbattle: the move labelled `label` from the board's list of every legal move, opened first (a player
    on the board picks among the units' moves; always the first move of the list never ends a battle)."""
    every = page.locator(".st-key-all-moves-box")
    if not every.count() or label is None:
        return False
    if not every.locator(".mp-select").count():
        every.get_by_text("All legal moves (by unit)").click()
        settle(page)
    for group in every.locator(".mp-group").all():
        picks = group.locator(".mp-select")
        if label in [o.strip() for o in picks.locator("option").all_inner_texts()]:
            picks.select_option(label=label)
            tap_move(page, group.locator(".mp-btn").first)
            return True
    raise AssertionError(f"the list of every move has no {label!r}")


def join(new_phone: Callable[[], Any], server: Server, code: str) -> Any:
    """A new phone opens the lobby and joins the table by its code; it is left on the seat chooser."""
    page = new_phone()
    page.goto(server.url)
    page.locator(".st-key-join-code input").wait_for(timeout=TIMEOUT)
    page.locator(".st-key-join-code input").fill(code)
    settle(page)
    page.get_by_role("button", name="Join").click()
    page.get_by_role("button", name="Watch as spectator").wait_for(timeout=TIMEOUT)
    settle(page)
    return page


def test_three_phones_play_refresh_and_restart(server: Server, new_phone: Callable[[], Any]) -> None:
    host = new_phone()
    host.goto(server.url)
    host.get_by_text("New table").wait_for(timeout=TIMEOUT)
    choose(host, "new-game", "Napoleonic Warfare")
    settle(host)
    host.locator(".st-key-seat-warfare-0 input").fill("Ann")
    host.locator(".st-key-seat-warfare-1 input").fill("Bob")
    settle(host)
    host.get_by_role("button", name="Create table").click()
    host.get_by_text("Host: hand out the seats").wait_for(timeout=TIMEOUT)
    host.locator("a", has_text="open this seat").nth(1).wait_for(timeout=TIMEOUT)
    links = [a.get_attribute("href") for a in host.locator("a", has_text="open this seat").all()]
    assert len(links) == 2
    code = re.search(r"table=([A-Z0-9]+)", links[0]).group(1)  # type: ignore[union-attr]
    assert "host=" in host.url
    host.locator('[data-testid="stImage"]').first.hover()  # a seat's QR code: no full-screen icon over it
    assert not host.locator('[data-testid="stElementToolbarButton"]').first.is_visible()

    ann = host
    settle(ann)
    ann.get_by_role("button", name="I am Ann: play on this phone").click()
    ann.get_by_text("You are Ann.").wait_for(timeout=TIMEOUT)
    bob = join(new_phone, server, code)
    assert bob.get_by_role("button", name="Take seat: Ann").count() == 0  # Ann's seat is taken
    bob.get_by_role("button", name="Take seat: Bob").click()
    bob.get_by_text("You are Bob.").wait_for(timeout=TIMEOUT)
    watcher = join(new_phone, server, code)
    assert watcher.get_by_role("button", name=re.compile("Take seat")).count() == 0  # both seats are taken
    watcher.get_by_role("button", name="Watch as spectator").click()
    for page, who in ((ann, "You are Ann."), (bob, "You are Bob."), (watcher, "watching as a spectator")):
        page.get_by_text(who).wait_for(timeout=TIMEOUT)
    assert "host=" in ann.url and links[0].split("?")[1] in ann.url

    played = 0
    for n in range(5):
        if n == 4:  # the log is a folded box of the table's surface: opened, it stays open as moves come in
            watcher.locator("details[data-fold=log] > summary").click()
        mover = None
        deadline = time.time() + TIMEOUT / 1000  # a loaded machine may take long; nothing is timed
        while mover is None and time.time() < deadline:
            for page in (ann, bob):  # a seat offered anything to tap: a move, a list, or an attack being built
                if page.locator(".st-key-moves button:enabled, .st-key-moves .mp-select").count():
                    mover = page
                    break
            else:
                ann.wait_for_timeout(200)
        assert mover is not None, "neither seat was offered a move"
        player_taps(mover)
        played += 1
        wait_moves(watcher, played)  # the spectator's phone follows without a reload
        wait_moves(ann, played)
        wait_moves(bob, played)
    log = watcher.locator("details[data-fold=log]")
    assert log.evaluate("d => d.open") and log.locator("summary").inner_text() == "Moves so far (5)"
    assert not ann.locator("details[data-fold=log]").evaluate("d => d.open")  # folded unless opened

    assert watcher.locator(".st-key-moves").count() == 0
    assert watcher.get_by_role("button", name=re.compile("Undo|Concede")).count() == 0
    assert watcher.locator(".st-key-private").count() == 0
    assert ann.locator(".st-key-private").count() == 1 and bob.locator(".st-key-private").count() == 1
    ann_secret = ann.locator(".st-key-private").inner_text()
    bob_secret = bob.locator(".st-key-private").inner_text()
    assert ann_secret != bob_secret
    assert bob_secret not in ann.locator("body").inner_text()

    ann.reload()
    ann.get_by_text("You are Ann.").wait_for(timeout=TIMEOUT)
    wait_moves(ann, played)

    server.stop()
    server.start()
    for page in (ann, bob, watcher):
        page.reload()
    ann.get_by_text("You are Ann.").wait_for(timeout=TIMEOUT)
    for page in (ann, bob, watcher):
        wait_moves(page, played)
    assert ann.locator(".st-key-private").inner_text() == ann_secret
