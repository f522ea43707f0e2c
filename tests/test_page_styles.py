"""The page's styles (`companion.page_styles`): linked from each HTML page Streamlit serves, else sent by
each run as `st.html` of the style sheets."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from apptest_helpers import page

from companion import launch, page_styles, server

HREF = "/_muster/styles.css"
LINK = f'<link rel="stylesheet" href="{HREF}?v={page_styles.VERSION}">'.encode()


def served(status: int, headers: dict[bytes, bytes], chunks: list[bytes], method: str = "GET") -> list[Any]:
    """What the middleware sends for a response of an app that answers with `chunks`."""
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": status, "headers": list(headers.items())})
        for i, chunk in enumerate(chunks):
            await send({"type": "http.response.body", "body": chunk, "more_body": i < len(chunks) - 1})

    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> Any:
        return {"type": "http.request"}

    asyncio.run(page_styles.LinkStyles(app, HREF)({"type": "http", "method": method}, receive, send))
    return sent


@pytest.fixture(autouse=True)
def linkable() -> Any:
    page_styles._unlinked.clear()
    yield
    page_styles._unlinked.clear()


HTML = {b"content-type": b"text/html; charset=utf-8", b"content-length": b"40", b"etag": b'"x"'}


def test_a_page_gets_the_link_closing_its_body_and_loses_its_validators() -> None:
    start, body = served(200, HTML, [b"<html><head><title>S</title></head>", b"<body><div></div></body></html>"])
    assert body["body"] == b"<html><head><title>S</title></head><body><div></div>" + LINK + b"</body></html>"
    assert dict(start["headers"]) == {b"content-type": b"text/html; charset=utf-8",
                                      b"content-length": str(len(body["body"])).encode()}
    assert page_styles.linked(True) and not page_styles.linked(False)


def test_anything_else_passes_as_it_is() -> None:
    script = [b"let a = '</body>';"]
    assert served(200, {b"content-type": b"text/javascript"}, script)[1]["body"] == script[0]
    assert served(304, HTML, [b""])[0]["status"] == 304
    assert served(200, HTML, [b"<body></body>"], method="POST")[1]["body"] == b"<body></body>"
    assert page_styles.linked(True)


@pytest.mark.parametrize(("headers", "body"), [({**HTML, b"content-encoding": b"gzip"}, b"\x1f\x8b..."),
                                               (HTML, b"<html><head></head>no body")])
def test_a_page_that_cannot_take_the_link_is_sent_unchanged_and_the_runs_send_the_styles(
        headers: dict[bytes, bytes], body: bytes) -> None:
    assert served(200, headers, [body])[-1]["body"] == body
    assert not page_styles.linked(True)


def test_without_the_routes_each_run_sends_the_style_sheets() -> None:
    """The AppTest harness has no routes, as a server whose pages could not take the link: a run sends each
    style sheet as a style element."""
    sent = [e.proto.body for e in page().get("html")]
    assert [f"<style>{sheet.read_text(encoding='utf-8')}</style>" in sent for sheet in page_styles.STYLE_SHEETS] == [
        True, True]


def test_only_the_companions_own_pages_link_its_styles() -> None:
    """The benchmarks' bare page, served by the same launcher, gets Streamlit's page as it ships."""
    [link] = launch.middleware(server.APP_SCRIPT, "/muster")
    assert link.cls is page_styles.LinkStyles and link.kwargs == {"href": "/muster/_muster/styles.css"}
    assert launch.middleware(server.APP_SCRIPT.parent.parent / "bench" / "bare_app.py", "") == []
