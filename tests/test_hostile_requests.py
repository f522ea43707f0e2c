"""Hostile requests against every route the companion adds to Streamlit's server (issue 29): deep JSON, a large
body, a body sent a byte at a time, a client that hangs up mid-body, unknown fields, junk paths. Each gets a
4xx in Muster's words, the server keeps serving, and its log holds no traceback (`Server.stop` checks).
"""

from __future__ import annotations

import json
import select
import socket
from collections.abc import Iterator

import pytest
from test_browser import Server

from companion import courier, routes
from companion.components import hexboard


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("hostile") / "data")
    srv.start()
    yield srv
    srv.stop()


def _request(server: Server, head: str, body: bytes = b"", pause: float = 0, hang_up: bool = False) -> tuple[int, dict]:
    """Send raw HTTP: the head, then the body (a byte per `pause` seconds when given); the status and JSON reply."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as conn:
        conn.sendall(head.encode() + b"\r\n\r\n")
        if pause:  # a byte at a time until the server answers
            for byte in body:
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    break
                if select.select([conn], [], [], pause)[0]:
                    break
        elif hang_up:
            conn.sendall(body[: len(body) // 2])
            conn.shutdown(socket.SHUT_WR)
        else:
            conn.sendall(body)
        reply = b""
        while chunk := conn.recv(65536):
            reply += chunk
    status = int(reply.split(b" ", 2)[1]) if reply else 0
    text = reply.partition(b"\r\n\r\n")[2]
    return status, json.loads(text) if text.startswith(b"{") else {}


def _post(server: Server, body: bytes, **kw: object) -> tuple[int, dict]:
    head = (f"POST /{courier.PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close")
    return _request(server, head, body, **kw)  # type: ignore[arg-type]


def _alive(server: Server) -> None:
    assert _request(server, "GET /_stcore/health HTTP/1.1\r\nHost: x\r\nConnection: close")[0] == 200


def tap(**extra: object) -> bytes:
    return json.dumps({"token": "t", "element": "table-0", "tap": {"pad": "p"}, **extra}).encode()


@pytest.mark.parametrize("body", [
    b'{"token": "t", "element": "e", "tap": ' + b"[" * 20_000 + b"]" * 20_000 + b"}",   # a RecursionError once
    b'{"token": "t", "element": "e", "tap": {"a": ' + b"[" * 40 + b"]" * 40 + b"}}",     # parses, too deep
    tap(extra="field"),
    json.dumps({"token": "t", "element": "e"}).encode(),
    json.dumps({"token": 7, "element": "e", "tap": {}}).encode(),
    json.dumps({"token": "t" * 100, "element": "e", "tap": {}}).encode(),
    json.dumps([1, 2, 3]).encode(),
    b"\xff\xfe not json",
    b"",
], ids=["nested 20,000 deep", "nested 40 deep", "unknown field", "missing field", "token not text",
        "token too long", "not an object", "not UTF-8", "empty"])
def test_a_malformed_tap_is_a_400_in_words(server: Server, body: bytes) -> None:
    assert _post(server, body) == (400, {"error": courier.NOT_A_TAP})
    _alive(server)


def test_a_tap_of_the_right_shape_for_no_session_is_a_404(server: Server) -> None:
    assert _post(server, tap()) == (404, {"error": "This page's session has ended; reload the page."})


def test_a_body_over_the_limit_is_a_413_declared_or_streamed(server: Server) -> None:
    big = b'{"token": "' + b"x" * (courier.BODY_LIMIT + 10) + b'"}'
    assert _post(server, big)[0] == 413
    head = (f"POST /{courier.PATH} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close")
    chunk = b"x" * 8192
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(10)) + b"0\r\n\r\n"
    assert _request(server, head, chunks)[0] == 413
    _alive(server)


def test_a_body_sent_a_byte_at_a_time_is_a_408(server: Server) -> None:
    body = tap()
    status, answer = _post(server, body, pause=(courier.BODY_TIMEOUT_S + 1) / 4)
    assert status == 408 and "took more than" in answer["error"]
    _alive(server)


def test_a_client_that_hangs_up_mid_body_leaves_no_trace(server: Server) -> None:
    for _ in range(3):
        _post(server, tap(), hang_up=True)
    _alive(server)
    assert server.problems() == []


def test_junk_on_the_other_routes_is_a_4xx(server: Server) -> None:
    assert _request(server, f"GET /_muster/art/{'v' * 5000} HTTP/1.1\r\nHost: x\r\nConnection: close")[0] == 404
    body = b"x" * 1000
    head = f"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\nConnection: close"
    assert 400 <= _request(server, head, body)[0] < 500
    _alive(server)
    assert server.problems() == []


GET_ROUTES = {"front page": "/", "board artwork": f"/{hexboard.ART_PATH}/1"}


@pytest.mark.parametrize("route", list(GET_ROUTES))
@pytest.mark.parametrize("length", [1, courier.BODY_LIMIT + 10, 10**9])
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
                                              ("DELETE", f"/{courier.PATH}")])
def test_a_route_asked_with_another_method_is_a_405(server: Server, method: str, path: str) -> None:
    """(A GET of the tap's path is Streamlit's: its catch-all answers any GET with its page.)"""
    assert _request(server, f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close")[0] == 405
    _alive(server)
