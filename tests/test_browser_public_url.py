"""`muster app --public-url`: behind a reverse proxy, the seat links and QR codes a phone is handed carry
the proxy's address, not the server's own (a real server, a real browser, the QR decoded by zbarimg)."""

from __future__ import annotations

import shutil
import subprocess
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urljoin

import pytest
from test_browser import Server

from companion.store import open_store
from companion.tables import Tables

PUBLIC = "https://muster.example.org/club"


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg (zbar-tools) is not installed")
def test_seat_links_and_qr_codes_use_the_public_url(tmp_path: Path, new_phone: Callable[[], object]) -> None:
    server = Server(tmp_path / "data", "--public-url", PUBLIC + "/")  # a trailing slash is dropped
    store = open_store(tmp_path / "data" / "muster.sqlite3")
    table = Tables(store).create("warfare", ["Ann", "Bob"], {})
    server.start()
    try:
        host = new_phone()
        host.goto(f"{server.url}/?table={table.code}&host={table.host_token}")  # type: ignore[attr-defined]
        links = host.locator("a", has_text="open this seat")  # type: ignore[attr-defined]
        qrs = host.locator("img")  # type: ignore[attr-defined]  # each seat's QR code, below its link
        links.nth(1).wait_for()
        qrs.nth(1).wait_for()
        seat_urls = [f"{PUBLIC}/?table={table.code}&seat={s.token}" for s in table.seats]
        assert [a.get_attribute("href") for a in links.all()] == seat_urls
        decoded = []
        for n, qr in enumerate(qrs.all()):
            with urllib.request.urlopen(urljoin(host.url, qr.get_attribute("src"))) as answer:
                (tmp_path / f"seat{n}.png").write_bytes(answer.read())
            decoded.append(subprocess.run(["zbarimg", "--quiet", "--raw", str(tmp_path / f"seat{n}.png")],
                                          capture_output=True, text=True, check=True).stdout.strip())
        assert decoded == seat_urls
    finally:
        server.stop()
        store.close()
