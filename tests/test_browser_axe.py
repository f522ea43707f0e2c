"""Accessible (issue 30): an axe-core scan and a tap-target check of the lobby, a card's look-up, the record page,
every game's table page as a seated player and as a spectator, and a table's host view, at 390x844 in Chromium,
against a real `muster app`.

axe-core is vendored in tests/vendor/axe-core (its version, licence and source are in the README there). The test
fails on any violation axe reports, whatever its impact (critical, serious, moderate or minor: the lobby's skipped
heading level and medieval's grid's empty corner header were moderate and minor), naming each rule, its help text and
where it is, but for one minor finding in Streamlit's own file uploader (`STREAMLITS_OWN`); and on any tap target
(link, button, field, select, fold summary) smaller than 44 x 44 px. No rule is turned off.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_browser import Server
from test_browser_table import shot

from companion.store import DB_NAME, open_store
from companion.tables import Tables

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
OPTIONS = {"waterloo": {"players": 2}}  # the rest: each game's defaults
SHOTS = {"the lobby": ("companion-a11y-lobby-form", "[data-testid=stNumberInput]"),  # with MUSTER_SHOTS set
         "waterloo as Ann": ("companion-a11y-waterloo", None)}
IDLE = ("() => !document.querySelector('[data-testid=stStatusWidget]')"  # the page's run is over
        " || !document.querySelector('[data-testid=stStatusWidget]').innerText.includes('Running')")
STREAMLITS_OWN = {"presentation-role-conflict": "[data-testid=stFileUploaderDropzone]"}
"""The one finding left, minor, in Streamlit's own markup that no page of Muster's draws: its file uploader's drop zone
is role="presentation" yet has a label and a tabindex (the record page). Nothing else is let through."""
SCAN = """async (own) => {
  const found = await axe.run(document, { resultTypes: ["violations"] });
  const theirs = (v, n) => own[v.id] && document.querySelector(n.target.join(" "))?.matches(own[v.id]);
  return found.violations.map((v) => [v, v.nodes.filter((n) => !theirs(v, n))]).filter(([, nodes]) => nodes.length)
    .map(([v, nodes]) => `${v.impact} ${v.id}: ${v.help}\\n` + nodes.slice(0, 5).map((n) => `    ${n.target.join(" ")}: `
      + n.failureSummary.replace(/\\s+/g, " ")).join("\\n"));
}"""
SMALL = """() => Array.from(document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab]"))
  .map((el) => (el.type === "radio" || el.type === "checkbox") && el.closest("label") || el)  // its label is tapped
  .filter((el) => {
    const r = el.getBoundingClientRect();
    // shown (a skip link is 1 px until it has the keyboard's focus, and then is drawn at full size)
    return r.width > 1 && r.height > 1 && getComputedStyle(el).visibility !== "hidden" && (r.width < 44 || r.height < 44);
  })
  .map((el) => `${el.tagName.toLowerCase()} "${(el.innerText || el.getAttribute("aria-label") || "").trim().slice(0, 40)}"`
    + ` ${Math.round(el.getBoundingClientRect().width)}x${Math.round(el.getBoundingClientRect().height)}`)"""


@pytest.fixture
def server(shared_server: Server) -> Server:
    """The session's shared server (conftest's `shared_server`): the pages scanned are its tables of this test's."""
    return shared_server


def test_browser_every_page_passes_axe_and_has_44px_tap_targets(server: Server, new_phone: Callable[[], Any]) -> None:
    tables = Tables(open_store(server.data_dir / DB_NAME))
    pages = [("the lobby", server.url, "Join a table by its code"),
             ("a card's look-up", f"{server.url}/?game=warfare&card=howitzers", "Link and QR code"),
             ("the record page", f"{server.url}/?page=record", "Choose a file to replay it here")]
    for game in sorted(tables.entries()):
        table = tables.create(game, ["Ann", "Bob"], OPTIONS.get(game, {}), seed="axe")
        base = f"{server.url}/?table={table.code}"
        pages += [(f"{game} as Ann", f"{base}&seat={table.seats[0].token}", "You are Ann"),
                  (f"{game} as the spectator", base, "watching as a spectator")]
    # the host's view of the last table: each free seat's link, QR code and the host's tools
    pages.append(("the host", f"{base}&host={table.host_token}", "Host: hand out the seats"))
    phones = []
    for _, url, _ in pages:  # all open at once: the server draws them side by side
        phone = new_phone()
        phone.goto(url, wait_until="commit")
        phones.append(phone)
    axe = AXE.read_text(encoding="utf-8")
    problems = []
    for (name, _, shows), phone in zip(pages, phones, strict=True):
        phone.get_by_text(shows).first.wait_for()
        phone.wait_for_function(IDLE)
        phone.add_script_tag(content=axe)
        problems += [f"{name}: {found}" for found in phone.evaluate(SCAN, STREAMLITS_OWN)]
        problems += [f"{name}: a tap target under 44 x 44 px: {small}" for small in phone.evaluate(SMALL)]
        if name in SHOTS:
            shot(phone, *SHOTS[name])
    assert len(pages) == 14 and not problems, "\n".join(problems)
