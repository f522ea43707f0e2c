"""Hostile requests against every route the companion adds to Streamlit's server (issue 29): a body sent to a
route that takes none (of any size, declared or chunked), another method, junk paths. Each gets a 4xx in
Muster's words, the server keeps serving, and its log holds no traceback (`Server.stop` checks). (A tap is no
request of the companion's own: it is a components-v2 trigger on Streamlit's websocket, issue 34.)
"""

from __future__ import annotations

import gzip
import json
import socket
import urllib.request
from collections.abc import Iterator

import pytest
from test_browser import Server

from companion import components, heads, page_styles, paths, routes
from companion.components import hexboard, surface


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("hostile") / "data")
    srv.start()
    yield srv
    srv.stop()


def _request(server: Server, head: str, body: bytes = b"") -> tuple[int, dict]:
    """Send raw HTTP, the head then the body; the status and JSON reply."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as conn:
        conn.sendall(head.encode() + b"\r\n\r\n" + body)
        reply = b""
        while chunk := conn.recv(65536):
            reply += chunk
    status = int(reply.split(b" ", 2)[1]) if reply else 0
    text = reply.partition(b"\r\n\r\n")[2]
    return status, json.loads(text) if text.startswith(b"{") else {}


def _alive(server: Server) -> None:
    assert _request(server, "GET /_stcore/health HTTP/1.1\r\nHost: x\r\nConnection: close")[0] == 200


def test_junk_on_the_other_routes_is_a_4xx(server: Server) -> None:
    assert _request(server, f"GET /_muster/art/{'v' * 5000} HTTP/1.1\r\nHost: x\r\nConnection: close")[0] == 404
    assert _request(server, "GET /_muster/art/no-such-version HTTP/1.1\r\nHost: x\r\nConnection: close") == (
        404, {"error": "No such board artwork; reload the page."})
    for query, status in ((f"page={'p' * 5000}&head=0", 400), (f"page={'p' * 20}&head={'9' * 5000}", 400),
                          (f"page={'p' * 20}&head=0", 404)):  # a page this server never drew
        assert _request(server, f"GET /{heads.PATH}?{query} HTTP/1.1\r\nHost: x\r\nConnection: close")[0] == status
    for junk in ("no-such.js", "muster_surface", "x" * 5000):
        assert _request(server, f"GET /{components.SCRIPTS_PATH}/{junk} HTTP/1.1\r\nHost: x\r\nConnection: close") == (
            404, {"error": "No such script; reload the page."})
    body = b"x" * 1000
    head = f"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\nConnection: close"
    assert 400 <= _request(server, head, body)[0] < 500
    _alive(server)
    assert server.problems() == []


GET_ROUTES = {"styles": f"/{page_styles.PATH}", "board artwork": f"/{hexboard.ART_PATH}/1",
              "moves": f"/{heads.PATH}?page={'p' * 20}&head=0", "components' code": f"/{surface.ELEMENT.file}"}


def test_a_components_code_is_served_as_a_script_kept_a_year_and_gzipped(server: Server) -> None:
    """What the elements' stub imports (`components.Frontend`): the code itself, for a phone that takes gzip."""
    for frontend in (surface.ELEMENT, hexboard.BOARD):
        head = f"GET /{frontend.file} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close"
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as conn:
            conn.sendall(head.encode() + b"\r\n\r\n")
            reply = b""
            while chunk := conn.recv(65536):
                reply += chunk
        top, _, body = reply.partition(b"\r\n\r\n")
        status, *lines = top.decode().split("\r\n")
        headers = dict(line.lower().split(": ", 1) for line in lines)
        assert status.split()[1] == "200" and headers["content-type"].startswith("text/javascript")
        assert headers["cache-control"] == paths.KEEP and headers["content-encoding"] == "gzip"
        assert gzip.decompress(body).decode() == frontend.code
        # another version's address (an older page's, after an upgrade; one not released yet): today's code, kept by
        # no cache, so no address ever holds another version's content
        older = f"/{frontend.file}".replace(frontend.version, "0" * len(frontend.version))
        with urllib.request.urlopen(f"{server.url}{older}", timeout=30) as reply:
            assert reply.read() == frontend.code.encode() and reply.headers["Cache-Control"] == "no-store"
    with urllib.request.urlopen(f"{server.url}/{page_styles.PATH}?v=older", timeout=30) as reply:
        assert reply.read() == page_styles.CSS and reply.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("route", list(GET_ROUTES))
@pytest.mark.parametrize("length", [1, 64 * 1024, 10**9])
def test_a_get_route_refuses_a_body_unread(server: Server, route: str, length: int) -> None:
    """Refused from the head alone, before a byte of the body is sent: what the body holds (deep JSON, unknown
    fields), how large it is, how slowly it comes and whether the client hangs up cannot matter."""
    head = f"GET {GET_ROUTES[route]} HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\nConnection: close"
    assert _request(server, head) == (400, {"error": routes.NO_BODY})
    chunked = f"GET {GET_ROUTES[route]} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close"
    assert _request(server, chunked) == (400, {"error": routes.NO_BODY})
    _alive(server)
    assert server.problems() == []


@pytest.mark.parametrize(("method", "path"), [("POST", "/"), ("PUT", f"/{hexboard.ART_PATH}/1"),
                                              ("DELETE", f"/{hexboard.ART_PATH}/1")])
def test_a_route_asked_with_another_method_is_a_405(server: Server, method: str, path: str) -> None:
    assert _request(server, f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close")[0] == 405
    _alive(server)
