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
        link = host.locator("a", has_text="open this seat").first  # type: ignore[attr-defined]
        link.wait_for()
        seat_url = f"{PUBLIC}/?table={table.code}&seat={table.seats[0].token}"
        assert link.get_attribute("href") == seat_url
        qr = host.locator("img").first  # type: ignore[attr-defined]  # the first seat's QR code, below its link
        with urllib.request.urlopen(urljoin(host.url, qr.get_attribute("src"))) as answer:  # type: ignore[attr-defined]
            (tmp_path / "seat.png").write_bytes(answer.read())
        decoded = subprocess.run(["zbarimg", "--quiet", "--raw", str(tmp_path / "seat.png")],
                                 capture_output=True, text=True, check=True).stdout.strip()
        assert decoded == seat_url
    finally:
        server.stop()
        store.close()
