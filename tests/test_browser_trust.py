"""A table players can trust, in a real browser (Playwright + system Chromium, 390x844) against one `muster app`.

For each card game, two seat phones and a spectator: the actor taps a move that is chosen
or drawn face down; its card names must then be absent from the opponent's and the
spectator's page text, DOM and every websocket frame they received, while the actor's
page shows them; where the game reveals them next, they appear on all three pages.
Tables are created through the service with a fixed seed, and the opening moves (public
ones) are played through it too, so the hidden move is reached quickly. Hexbattle's hidden
move is a guard card played face down on a unit, revealed when the unit is charged.
Also: undo refused after a reveal, a double tap that makes one action, a name shown literally.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from test_browser import Server, lay_placement, settle
from test_browser_cardgames import app, wait_for  # noqa: F401  (the module's server, shared)

from companion.store import DB_NAME, open_store
from companion.tables import Tables, TableInfo
from engine.medieval import expected_outcomes

SEED = "trust"
SEATS = ["Ann", "Bob"]


@pytest.fixture(scope="module")
def tables(app: Server) -> Tables:
    return Tables(open_store(app.data_dir / DB_NAME))


class Phone:
    """One page, with every websocket frame it received kept as bytes: the one way the server speaks to a
    phone about a table."""

    def __init__(self, new_phone: Callable[[], Any], url: str, who: str) -> None:
        self.frames: list[bytes] = []
        self.page = new_phone()
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._keep))
        self.page.goto(url)
        self.page.get_by_text(who).first.wait_for()

    def received(self) -> list[bytes]:
        """Every websocket frame, as bytes."""
        return list(self.frames)

    def _keep(self, payload: str | bytes) -> None:
        self.frames.append(payload.encode() if isinstance(payload, str) else payload)

    def seen(self) -> str:
        """Everything this phone holds so far: its DOM and its frames."""
        return str(self.page.content()) + "".join(f.decode("latin-1") for f in self.received())

    def text(self) -> str:
        return str(self.page.locator("body").inner_text())

    def assert_never_saw(self, secret: str, who: str) -> None:
        assert secret not in self.text(), f"{secret!r} is on {who}'s page"
        dom = self.page.content()
        at = dom.find(secret)
        assert at < 0, f"{secret!r} is in {who}'s DOM: {dom[max(at - 300, 0):at + 100]!r}"
        raw, received = secret.encode(), self.received()
        assert not any(raw in frame for frame in received), f"{secret!r} reached {who}'s websocket"
        assert not any(secret in frame.decode("latin-1") for frame in received)


def tap(page: Any, name: str, tables: Tables, table: TableInfo, within: str = ".st-key-moves") -> None:
    """Tap the move button `name` (in the page's list of moves, unless `within` says where) and wait until the
    table has one more action; a move that cannot be taken back asks first, in a dialog (which a busy machine
    may take a while to draw): say yes."""
    done = len(tables.snapshot(table).match.log)
    button = page.locator(within).get_by_role("button", name=name, exact=True).first
    button.click()
    yes = page.get_by_role("button", name="Yes, do it")
    for tick in range(600):
        if len(tables.snapshot(table).match.log) > done:
            return
        if tick % 50 == 49 and not yes.count() and button.is_enabled():
            # Under a full suite's load a tap landing while the page was being redrawn once came to nothing
            # (no move, no message); a player taps again, and the same tap again is kept once at most.
            button.click()
        if yes.count():
            try:
                yes.click(timeout=2_000)
            except PlaywrightError:  # the dialog went in a redraw; look again
                pass
        page.wait_for_timeout(100)
    raise AssertionError(f"the move {name!r} was not made")


def play_first_moves(tables: Tables, table: TableInfo, n: int) -> None:
    """The opening moves through the service: each time, the first legal move of the first seat to act."""
    for _ in range(n):
        state = tables.snapshot(table).state
        seat = state.players_to_act()[0]
        tables.act(table, seat, state.legal_actions(seat)[0])


def hidden_names(tables: Tables, game: str, table: TableInfo, actor: int) -> list[str]:
    """The card names in the actor's newest history line that the public line does not carry."""
    match = tables.snapshot(table).match
    mine, public = match.history(actor)[-1], match.history(None)[-1]
    cards = {c.design.name for c in tables.entries()[game].data.card_index.values()}
    return sorted(n for n in cards if n in mine.text and n not in public.text
                  and not any(n != m and n in m and m in mine.text for m in cards))


@dataclass(frozen=True)
class Case:
    game: str
    before: int  # public opening moves played through the service
    reveal: str | None  # the public line that shows the hidden choice, after the opponent's next move


CASES = [
    Case("imperial", 6, "Battle round 3: cards revealed"),
    Case("medieval", 0, "Reenforcements revealed"),
    Case("waterloo", 2, None),
    Case("warfare", 3, None),
]


def seat_phones(new_phone: Callable[[], Any], app: Server, table: TableInfo, actor: int) -> tuple[Phone, Phone, Phone]:
    """The actor's phone, the opponent's and a spectator's, open on the table and settled."""
    base = f"{app.url}/?table={table.code}"
    phones = (Phone(new_phone, f"{base}&seat={table.seats[actor].token}", f"You are {SEATS[actor]}"),
              Phone(new_phone, f"{base}&seat={table.seats[1 - actor].token}", f"You are {SEATS[1 - actor]}"),
              Phone(new_phone, base, "You are watching as a spectator"))
    for phone in phones:
        settle(phone.page)
    return phones


def assert_only_the_actor_sees(tables: Tables, table: TableInfo, actor: int, phones: tuple[Phone, Phone, Phone],
                               secrets: list[str], before: tuple[str, str]) -> str:
    """After the hidden move: the actor's page reads its own line; the opponent's and the spectator's pages have
    caught up with the public line but never held the actor's line, nor any secret they did not hold before
    the move (a card name a phone already showed, in its own hand or a card list, proves nothing there).
    Returns the actor's line."""
    me, other, watcher = phones
    line = tables.snapshot(table).match.history(actor)[-1].format(SEATS)
    me.page.get_by_text(line).first.wait_for(state="attached")  # the actor reads what they chose
    public = tables.snapshot(table).match.history(None)[-1].format(SEATS)
    for phone, who, held in ((other, "the opponent", before[0]), (watcher, "the spectator", before[1])):
        phone.page.get_by_text(public).first.wait_for(state="attached")  # the page has caught up with the move
        for secret in (s for s in secrets if s not in held):
            phone.assert_never_saw(secret, who)
        phone.assert_never_saw(line, who)
    return line


def assert_revealed_for_good(tables: Tables, table: TableInfo, phones: tuple[Phone, Phone, Phone], reveal: str,
                             secrets: list[str]) -> None:
    """After the opponent's revealing move: every phone shows the reveal line, naming the secrets; the move
    cannot be taken back (the engine says why) and the opponent's undo button is off."""
    for phone in phones:
        shown = phone.page.get_by_text(reveal).first
        shown.wait_for(state="attached")
        revealed = shown.text_content() or ""
        assert all(secret in revealed for secret in secrets), revealed
    refusal = tables.snapshot(table).match.undo_refusal(tables.snapshot(table).match.log[-1].player)
    assert refusal is not None and refusal.startswith("That move cannot be taken back: it revealed")
    undo = phones[1].page.get_by_role("button", name="↩ Undo my last move")
    undo.wait_for()
    assert undo.is_disabled()


def plain_move(tables: Tables, table: TableInfo, seat: int) -> str:
    """The label of the seat's first legal move that its page shows as it is: medieval marks the engine's
    suggested placement "★ Suggested: …", so another placement is taken there."""
    snap = tables.snapshot(table)
    legal = snap.state.legal_actions(seat)
    if table.game == "medieval":
        best = expected_outcomes(snap.seen_by(seat), seat)[0].action
        legal = [a for a in legal if a != best]
    return str(snap.state.label(legal[0]))


def take(page: Any, label: str, tables: Tables, table: TableInfo, seat: int) -> None:
    """Take the move `label` (`plain_move`) as its player does: a button's tap, or medieval's placement laid card by
    card (each card of the hand, then its column)."""
    if table.game != "medieval":
        tap(page, label, tables, table)
        return
    snap = tables.snapshot(table)
    [action] = [a for a in snap.state.legal_actions(seat) if snap.state.label(a) == label]
    names = {c.id: c.design.name for c in tables.entries()["medieval"].data.card_index.values()}
    columns = tables.game("medieval").column_names  # type: ignore[attr-defined]
    done = len(snap.match.log)
    lay_placement(page, [(names[c], columns[i]) for i, c in enumerate(action["cards"][:2])])
    wait_for(lambda: len(tables.snapshot(table).match.log) > done, page)


@pytest.mark.parametrize("case", CASES, ids=[c.game for c in CASES])
def test_hidden_choice_reaches_only_its_owner_until_revealed(app: Server, new_phone: Callable[[], Any], tables: Tables,
                                                              case: Case) -> None:
    table = tables.create(case.game, SEATS, {}, seed=SEED)
    play_first_moves(tables, table, case.before)
    state = tables.snapshot(table).state
    actor = state.players_to_act()[0]
    label = plain_move(tables, table, actor)
    phones = me, other, watcher = seat_phones(new_phone, app, table, actor)
    before = other.seen(), watcher.seen()

    take(me.page, label, tables, table, actor)
    secrets = hidden_names(tables, case.game, table, actor)
    assert secrets, f"the move {label!r} hid no card name"
    assert_only_the_actor_sees(tables, table, actor, phones, secrets, before)

    if case.reveal is None:
        return
    take(other.page, plain_move(tables, table, 1 - actor), tables, table, 1 - actor)
    assert_revealed_for_good(tables, table, phones, case.reveal, secrets)


# Hexbattle: Ann holds Entrench; her infantry and Bob's face each other across one hexside.
GUARD_SCENARIO = {"terrain": {f"{c},{r}": "open" for c in range(2, 9) for r in range(2, 8)}, "current_player": 0,
                  "hands": [["entrench"], []],
                  "units": {"french-infantry-1": {"hex": "5,5", "facing": 0},
                            "british-infantry-1": {"hex": "5,4", "facing": 3}}}


def test_hexbattle_guard_reaches_only_its_owner_until_it_fires(app: Server, new_phone: Callable[[], Any],
                                                               tables: Tables) -> None:
    """A guard is played face down: the others know one is in play, not which card nor on which unit, until it
    fires (R26-R35). The hands come from a scripted scenario (an app-made one may not deal them); Ann plays
    the guard from her card's panel on her phone (▶, then yes); her end of turn and Bob's charge go through the service
    (the board's taps have their own test), and the charge is what reveals the guard."""
    table = tables.create("hexbattle", SEATS, {"scenario": GUARD_SCENARIO}, seed=SEED, scripted=True)
    phones = ann, bob, watcher = seat_phones(new_phone, app, table, 0)
    before = bob.seen(), watcher.seen()
    # Nothing is chosen for her (issue 30): her card's panel has a ▶ for each unit it may go on, and asks once,
    # naming the card and the unit, before it is played.
    ann.page.get_by_role("button", name="▶ Play Entrench on Blue Infantry 1", exact=True).click()
    tap(ann.page, "▶ Yes, play it", tables, table, within="body")
    # "Entrench" alone is on every phone already (the combat roller lists the cards); what is secret is
    # that it is in play, and on which unit.
    secrets = hidden_names(tables, "hexbattle", table, 0)
    line = assert_only_the_actor_sees(tables, table, 0, phones, secrets + ["Entrench on Blue Infantry 1"], before)
    assert line == "Ann played Entrench on Blue Infantry 1 face down"
    for phone in (bob, watcher):
        phone.page.get_by_text("Ann played a guard card face down").first.wait_for(state="attached")
        phone.page.get_by_text("0 bonus card(s), 1 guard(s) in play").first.wait_for(state="attached")
    assert "Entrench on Blue Infantry 1" in ann.page.locator(".st-key-private").inner_text()  # her own, on her phone

    state = tables.snapshot(table).state
    tables.act(table, 0, next(a for a in state.legal_actions(0) if a.kind == "end_turn"))
    state = tables.snapshot(table).state
    tables.act(table, 1, next(a for a in state.legal_actions(1) if a.kind == "attack" and a["mode"] == "melee"
                              and a["target"] == "french-infantry-1"))
    assert_revealed_for_good(tables, table, phones, "Ann's face-down Entrench on Blue Infantry 1 is revealed",
                             ["Entrench on Blue Infantry 1"])


def test_double_tap_makes_one_action(app: Server, new_phone: Callable[[], Any], tables: Tables) -> None:
    table = tables.create("imperial", ["Ann", "Bob"], {}, seed=SEED)
    ann = Phone(new_phone, f"{app.url}/?table={table.code}&seat={table.seats[0].token}", "You are Ann")
    button = ann.page.locator(".st-key-moves").get_by_role("button", name="Keep your hand", exact=True)
    button.dblclick()
    wait_for(lambda: len(tables.snapshot(table).match.log) == 1, ann.page)
    ann.page.get_by_text("Ann kept their hand").first.wait_for(state="attached")
    ann.page.wait_for_timeout(2_000)  # time for a second tap to land, if it were going to
    assert [a.kind for a in tables.snapshot(table).match.log] == [tables.snapshot(table).match.log[0].kind]


# Every log head the page shows, in the order it shows them (its last `span.muster-head`, on each change).
HEADS_SHOWN = """() => {
  window.__heads = [];
  const note = () => {
    const marks = document.querySelectorAll("span.muster-head");
    const head = marks.length ? Number(marks[marks.length - 1].dataset.head) : null;
    if (head !== null && window.__heads[window.__heads.length - 1] !== head) window.__heads.push(head);
  };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, attributes: true});
  note();
}"""


def test_a_phone_never_shows_an_older_position_after_a_newer_one(app: Server, new_phone: Callable[[], Any],
                                                                  tables: Tables) -> None:
    """Ann taps, and while her page is drawing her move the table moves on from outside her phone (as a bot,
    another server or the host's tools move it; no wake, her poll finds it): her page goes 0, 1, 2 or 0, 2, and
    never back to an older position, as the drawing of a tap and Streamlit's runs come in one order on one
    channel (a tap's own reply on a connection of its own once drew the older position over the newer)."""
    table = tables.create("imperial", SEATS, {}, seed=SEED)
    ann = Phone(new_phone, f"{app.url}/?table={table.code}&seat={table.seats[0].token}", "You are Ann")
    settle(ann.page)
    ann.page.evaluate(HEADS_SHOWN)
    ann.page.locator(".st-key-moves").get_by_role("button", name="Keep your hand", exact=True).first.click()
    wait_for(lambda: tables.store.signature(table.id)[0] == 1, ann.page)
    snap = tables.snapshot(tables.store.table(table.id))
    bob = next(a for a in snap.state.legal_actions(1) if snap.state.label(a) == "Keep your hand")
    tables.act(tables.store.table(table.id), 1, bob)
    ann.page.locator('span.muster-head[data-head="2"]').wait_for(state="attached")
    ann.page.wait_for_timeout(2_000)  # a poll's run and any late drawing of the older position, if one came
    shown = ann.page.evaluate("() => window.__heads")
    assert shown == sorted(shown) and shown[0] == 0 and shown[-1] == 2, shown


def test_concede_asks_on_the_phone_and_cancel_sends_nothing(app: Server, new_phone: Callable[[], Any],
                                                            tables: Tables) -> None:
    table = tables.create("imperial", ["Ann", "Bob"], {}, seed=SEED)
    ann = Phone(new_phone, f"{app.url}/?table={table.code}&seat={table.seats[0].token}", "You are Ann")
    tools = ann.page.locator(".st-key-seat-tools")
    question = "Give up this game? It counts as a loss, and it cannot be taken back."
    tools.get_by_role("button", name="Concede", exact=True).click()
    tools.get_by_text(question).wait_for()
    tools.get_by_role("button", name="Cancel", exact=True).click()
    assert tools.get_by_text(question).count() == 0
    ann.page.wait_for_timeout(1_000)  # time for a tap to reach the server, if Cancel had sent one
    assert tables.store.table(table.id).playing and not tables.snapshot(table).entries
    tools.get_by_role("button", name="Concede", exact=True).click()
    tools.get_by_role("button", name="Yes, concede", exact=True).click()
    ann.page.get_by_text("The game ended: Ann conceded, Bob won.").wait_for()
    assert not tables.store.table(table.id).playing and tables.store.table(table.id).winner == 1


def test_markdown_and_html_name_is_shown_literally(app: Server, new_phone: Callable[[], Any], tables: Tables) -> None:
    name = "**Bold** <b>x</b> ![p](http://h/p.png)"
    table = tables.create("imperial", [name, "Bob"], {}, seed=SEED)
    asked: list[str] = []
    watcher = Phone(new_phone, f"{app.url}/?table={table.code}", "You are watching as a spectator")
    watcher.page.context.on("request", lambda r: asked.append(r.url))
    watcher.page.reload()
    watcher.page.get_by_text("You are watching as a spectator").first.wait_for()
    watcher.page.get_by_text(name).first.wait_for(state="attached")
    assert name in (watcher.page.locator("body").text_content() or "")
    assert watcher.page.locator("img[src*='h/p.png']").count() == 0
    assert watcher.page.locator("b", has_text="x").count() == 0
    assert not [u for u in asked if "p.png" in u]
