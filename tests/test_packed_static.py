"""Streamlit's static files gzipped once each (`companion.packed_static`), and what passes as it came."""

from __future__ import annotations

import gzip
from typing import Any

import asgi_helpers
import pytest

from companion import launch, packed_static, page_styles, server

SCRIPT = b"export const a = 1;\n" * 500
TYPES = {".js": b"application/javascript", ".css": b"text/css", ".woff2": b"font/woff2"}  # by the name's end


class Streamlit:
    """Stands in for Streamlit's app: answers each path with SCRIPT in two chunks, typed by `TYPES`, else as its
    page (HTML, no-cache: what Streamlit answers for a path it has no file for); a path ending in broken.js fails
    after its first chunk; counts the requests it answered."""

    def __init__(self) -> None:
        self.answered = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.answered += 1
        ranged = any(k == b"range" for k, _ in scope["headers"])
        kind = next((t for end, t in TYPES.items() if scope["path"].endswith(end)), b"text/html")
        cache = b"public, immutable, max-age=31536000" if kind != b"text/html" else b"no-cache"  # as Streamlit
        headers = [(b"content-type", kind), (b"content-length", str(len(SCRIPT)).encode()),
                   (b"etag", b'"e7ae"'), (b"cache-control", cache),
                   (b"accept-ranges", b"bytes")]
        await send({"type": "http.response.start", "status": 206 if ranged else 200, "headers": headers})
        await send({"type": "http.response.body", "body": SCRIPT[:4000], "more_body": True})
        if scope["path"].endswith("/broken.js"):
            raise ConnectionResetError("the file could not be read")
        await send({"type": "http.response.body", "body": SCRIPT[4000:]})


def get(middleware: packed_static.PackedStatic, path: str, encodings: bytes = b"gzip, deflate, br, zstd",
        method: str = "GET", more: list[tuple[bytes, bytes]] | None = None) -> tuple[int, dict[bytes, bytes], bytes]:
    """A phone's request of `path`: the status, headers and whole body it gets."""
    scope = {"type": "http", "method": method, "path": path,
             "headers": [(b"accept", b"*/*"), (b"accept-encoding", encodings), *(more or [])]}
    start, *rest = asgi_helpers.asked(middleware, scope)
    return start["status"], dict(start["headers"]), b"".join(m.get("body", b"") for m in rest)


def packed(packer: packed_static.PackedStatic) -> None:
    """Wait until the packer has packed every file given to it so far (it packs one after the other)."""
    packer.packer.submit(lambda: None).result()


def test_a_script_comes_as_it_is_first_then_gzipped_from_one_compression() -> None:
    """The first phone gets Streamlit's bytes at once, the file is packed meanwhile, the next phones get it gzipped."""
    streamlit = Streamlit()
    packer = packed_static.PackedStatic(streamlit, "")
    status, headers, body = get(packer, "/static/js/index.abc.js")
    assert (status, body, b"content-encoding" in headers) == (200, SCRIPT, False)
    packed(packer)
    for _ in range(3):
        status, headers, body = get(packer, "/static/js/index.abc.js")
        assert status == 200 and gzip.decompress(body) == SCRIPT
        assert headers == {b"content-type": b"application/javascript",
                           b"cache-control": b"public, immutable, max-age=31536000", b"etag": b'"e7ae-gzip"',
                           b"content-encoding": b"gzip", b"vary": b"Accept-Encoding",
                           b"content-length": str(len(body)).encode()}
    assert streamlit.answered == 1  # the next phones got the kept bytes
    get(packer, "/static/css/index.abc.css")
    packed(packer)
    assert gzip.decompress(get(packer, "/static/css/index.abc.css")[2]) == SCRIPT


def test_which_clients_take_gzip() -> None:
    assert [packed_static.takes_gzip(h) for h in (b"gzip, deflate, br, zstd", b"br;q=1.0, GZip;q=0.5", b"gzip;q=0",
                                                   b"gzip;q=0.0", b"br", b"", b"gzip;q=x")] == [
        True, True, False, False, False, False, False]


def test_what_passes_as_it_came() -> None:
    """A client that takes no gzip, a range, a HEAD, a font (compressed already), a path outside /static/, and
    anything once the kept bytes reach the limit: Streamlit's answer, byte for byte."""
    streamlit = Streamlit()
    packer = packed_static.PackedStatic(streamlit, "")
    asked = [get(packer, "/static/js/index.abc.js", b"identity"),
             get(packer, "/static/js/index.abc.js", b"br, gzip;q=0"),
             get(packer, "/static/js/index.abc.js", more=[(b"range", b"bytes=0-99")]),
             get(packer, "/static/js/index.abc.js", method="HEAD"),
             get(packer, "/static/media/font.abc.woff2"),
             get(packer, "/_stcore/health")]
    packed(packer)
    assert [(status, b"content-encoding" in headers, body == SCRIPT) for status, headers, body in asked] == [
        (200, False, True), (200, False, True), (206, False, True), (200, False, True), (200, False, True),
        (200, False, True)]
    assert packer.kept == {}
    packer.size = packed_static.LIMIT
    get(packer, "/static/css/index.abc.css")
    packed(packer)
    assert get(packer, "/static/css/index.abc.css")[2] == SCRIPT and packer.kept == {}


def test_made_up_paths_and_cut_off_files_are_not_kept() -> None:
    """Streamlit's page, answered for any made-up path under /static/ (no-cache), is never kept: a client asking
    for many could fill the limit; a file cut off mid-way is packed when a later phone gets it whole."""
    packer = packed_static.PackedStatic(Streamlit(), "")
    for n in range(3):
        assert get(packer, f"/static/made-up-{n}")[0] == 200
    with pytest.raises(ConnectionResetError):
        get(packer, "/static/js/broken.js")
    packed(packer)
    assert (packer.kept, packer.packing) == ({}, set())


def test_under_a_base_path_only_its_static_files_are_packed() -> None:
    packer = packed_static.PackedStatic(Streamlit(), "/muster")
    for path in ("/muster/static/js/index.abc.js", "/static/js/index.abc.js"):
        get(packer, path)
    packed(packer)
    assert list(packer.kept) == ["/muster/static/js/index.abc.js"]


def test_the_companions_server_packs_streamlits_files() -> None:
    """After the styles' link (`tests/test_page_styles.py` checks that the bare page gets neither)."""
    link, packed = launch.middleware(server.APP_SCRIPT, "/muster")
    assert (link.cls, packed.cls, packed.kwargs) == (page_styles.LinkStyles, packed_static.PackedStatic,
                                                     {"base": "/muster"})
