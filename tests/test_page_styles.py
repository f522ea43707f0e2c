"""The page's styles (`companion.page_styles`): linked from each HTML page Streamlit serves; without the routes
sent by each run as `st.html` of the style sheets."""

from __future__ import annotations

import gzip
from typing import Any

import asgi_helpers
import pytest
from apptest_helpers import page
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import HTMLResponse, PlainTextResponse
from starlette.routing import Route

from companion import launch, page_styles, paths, routes, server
from companion.components.surface import ELEMENT

HREF = "/_muster/styles.css"
LINK = f'<link rel="stylesheet" href="{HREF}?v={page_styles.VERSION}">'.encode()


def served(status: int, headers: dict[bytes, bytes], chunks: list[bytes], method: str = "GET") -> list[Any]:
    """What the middleware sends for a response of an app that answers with `chunks`."""
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": status, "headers": list(headers.items())})
        for i, chunk in enumerate(chunks):
            await send({"type": "http.response.body", "body": chunk, "more_body": i < len(chunks) - 1})

    return asked(app, {"type": "http", "method": method, "headers": []})


def asked(app: Any, scope: dict[str, Any]) -> list[Any]:
    """The messages `LinkStyles` in front of `app` sends for a request of `scope`."""
    return asgi_helpers.asked(page_styles.LinkStyles(app, HREF), scope)


HTML = {b"content-type": b"text/html; charset=utf-8", b"content-length": b"40", b"etag": b'"x"'}


def test_a_page_gets_the_link_closing_its_body_and_loses_its_validators() -> None:
    start, body = served(200, HTML, [b"<html><head><title>S</title></head>", b"<body><div></div></body></html>"])
    assert body["body"] == b"<html><head><title>S</title></head><body><div></div>" + LINK + b"</body></html>"
    assert dict(start["headers"]) == {b"content-type": b"text/html; charset=utf-8",
                                      b"content-length": str(len(body["body"])).encode()}


def test_a_page_preloads_the_components_code_its_elements_import() -> None:
    script = "/_muster/js/muster_surface.js?v=1"
    assert page_styles.LinkStyles(served, HREF, scripts=(script,)).link == (
        LINK + f'<link rel="modulepreload" href="{script}">'.encode())


def test_anything_else_passes_as_it_is() -> None:
    script = [b"let a = '</body>';"]
    assert served(200, {b"content-type": b"text/javascript"}, script)[1]["body"] == script[0]
    assert served(304, HTML, [b""])[0]["status"] == 304
    assert served(200, HTML, [b"<body></body>"], method="POST")[1]["body"] == b"<body></body>"


def test_a_page_without_a_body_end_gets_the_link_at_its_end() -> None:
    assert served(200, HTML, [b"<html><head></head>no body"])[-1]["body"] == b"<html><head></head>no body" + LINK


def gzipped_site() -> Starlette:
    """Pages and a script behind Starlette's gzip middleware, which Streamlit's own compresses with (it leaves its
    root page uncompressed, and gzips the page it serves at any other path)."""
    async def page(request: Any) -> Any:
        return HTMLResponse("<html><head></head><body>" + "<p>words</p>" * 100 + "</body></html>")

    async def script(request: Any) -> Any:
        return PlainTextResponse("let a = 1;" * 100, media_type="text/javascript")

    return Starlette(routes=[Route("/table", page), Route("/app.js", script)], middleware=[Middleware(GZipMiddleware)])


def fetch(app: Any, path: str, accept: bytes) -> tuple[dict[bytes, bytes], bytes]:
    """A browser's GET of `path` that takes gzip: the response's headers and body."""
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
             "root_path": "", "scheme": "http", "server": ("127.0.0.1", 80), "http_version": "1.1",
             "headers": [(b"accept", accept), (b"accept-encoding", b"gzip, deflate, br")]}
    start, *rest = asked(app, scope)
    return dict(start["headers"]), b"".join(m.get("body", b"") for m in rest)


def test_a_page_that_would_come_gzipped_is_asked_for_as_it_is_and_takes_the_link() -> None:
    """Every page a browser asks for takes the link, so no page's runs send the styles (before, one page that came
    gzipped turned the link off for every page of the server); a script stays compressed."""
    site = gzipped_site()
    headers, body = fetch(site, "/table", b"text/html,application/xhtml+xml,*/*;q=0.8")
    assert b"content-encoding" not in headers and body.endswith(LINK + b"</body></html>")
    headers, body = fetch(site, "/app.js", b"*/*")
    assert headers[b"content-encoding"] == b"gzip" and gzip.decompress(body) == b"let a = 1;" * 100


def test_a_client_that_asks_for_no_page_gets_it_compressed_and_unlogged(caplog: pytest.LogCaptureFixture) -> None:
    """A GET that does not ask for a page (a script, a probe, a crawler: no text/html in Accept) gets Streamlit's
    answer as it is, and nothing in the server's log: before, each such request logged a warning, so anyone could
    fill the log."""
    with caplog.at_level("DEBUG", logger="muster.companion"):
        for _ in range(3):
            headers, body = fetch(gzipped_site(), "/table", b"*/*")
            assert headers[b"content-encoding"] == b"gzip" and LINK not in gzip.decompress(body)
    assert caplog.records == []


def test_the_styles_come_gzipped_to_a_phone_that_takes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The companion's routes are outside the App whose middleware compresses (`companion.launch`): they compress
    themselves."""
    monkeypatch.setattr(paths, "_base", None)  # building the routes tells the pages they are there: not this process's
    headers, body = fetch(Starlette(routes=routes.build("")), f"/{page_styles.PATH}", b"text/css,*/*;q=0.1")
    assert headers[b"content-encoding"] == b"gzip" and gzip.decompress(body) == page_styles.CSS


def test_without_the_routes_each_run_sends_the_style_sheets() -> None:
    """The AppTest harness has no routes: a run sends each style sheet as a style element."""
    sent = [e.proto.body for e in page().get("html")]
    assert [f"<style>{sheet.read_text(encoding='utf-8')}</style>" in sent for sheet in page_styles.STYLE_SHEETS] == [
        True, True, True, True]


def test_only_the_companions_own_pages_link_its_styles() -> None:
    """The benchmarks' bare page, served by the same launcher, gets Streamlit's page as it ships."""
    link = launch.middleware(server.APP_SCRIPT, "/muster")[0]
    assert link.cls is page_styles.LinkStyles and link.kwargs == {
        "href": "/muster/_muster/styles.css", "scripts": (f"/muster/_muster/js/muster_surface.js?v={ELEMENT.version}",)}
    assert launch.middleware(server.APP_SCRIPT.parent.parent / "bench" / "bare_app.py", "") == []
