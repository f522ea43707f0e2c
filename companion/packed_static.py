"""Streamlit's scripts and styles sent gzipped, each compressed once per server: an ASGI middleware of the
companion's server (`companion.launch`).

A first visit fetches some 70 scripts and styles from Streamlit's `/static/` path, 2.9 MB that Streamlit sends
uncompressed on purpose: its own gzip middleware would compress them again for every phone, on the event loop
(Streamlit's comment in `starlette_gzip_middleware`: "Production usually sits behind a reverse proxy / CDN that
compresses and caches these responses"). A table's server has no proxy in front of it, and its phones are on
Wi-Fi, where 2.9 MB is most of a first visit's wait: at 50 Mbit/s, half a second. Gzipped they are 0.8 MB.
The files are named by their content's hash and served as immutable, so each is compressed once and kept (`LIMIT`
bytes in all): the first phone to ask for a file gets it as Streamlit sent it, at once, while a thread of the
middleware's own (the packer) compresses it for every later phone (compressing first made the first phone after a
start wait 0.2-0.4 s more; level 6, a visit's scripts take 43 ms of CPU).

What passes unchanged: anything but a GET of `/static/…` by a client that takes gzip, a request for a range,
an answer that is not a whole 200 of text (scripts, styles, JSON, SVG) served as immutable, one that is compressed
already, a file not packed yet, and, once `LIMIT` bytes are kept, every file not kept. The compressed answer keeps Streamlit's
headers but its length and validators: its ETag is Streamlit's with "-gzip" (a different body, so a different
tag), and `Vary` says the body depends on `Accept-Encoding`.
"""

from __future__ import annotations

import gzip
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from companion import paths

Message = MutableMapping[str, Any]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Message, Callable[[], Awaitable[Message]], Send], Awaitable[None]]

LIMIT = 16_000_000  # bytes of compressed files kept (Streamlit's scripts that phones fetch: about 1 MB gzipped)
LEVEL = 6  # zlib's default: a first visit's 60 scripts (2.1 MB) in 43 ms of CPU to 508 KB; level 9, 58 ms to 506 KB
PACKED = (b"text/", b"application/javascript", b"application/json", b"image/svg+xml")
DROPPED = {b"content-length", b"etag", b"accept-ranges", b"vary"}


def takes_gzip(accepted: bytes) -> bool:
    """Whether an `Accept-Encoding` header takes gzip (named, and not with a weight of 0: "gzip;q=0" refuses it)."""
    for part in accepted.split(b","):
        name, *params = [p.strip() for p in part.split(b";")]
        if name.lower() == b"gzip":
            weight = next((p[2:] for p in params if p.startswith(b"q=")), b"1")
            try:
                return float(weight) > 0
            except ValueError:
                return False
    return False


class PackedStatic:
    """ASGI middleware: Streamlit's `/static/` files, gzipped once each, for the phones that take gzip."""

    def __init__(self, app: App, base: str) -> None:
        self.app = app
        self.prefix = paths.url(base, "static/")
        self.kept: dict[str, tuple[list[tuple[bytes, bytes]], bytes]] = {}  # path -> (headers, gzipped body)
        self.size = 0
        self.packing: set[str] = set()  # paths given to the packer, kept or not
        self.lock = threading.Lock()
        self.packer = ThreadPoolExecutor(1, thread_name_prefix="muster-pack")  # one file after the other

    async def __call__(self, scope: Message, receive: Callable[[], Awaitable[Message]], send: Send) -> None:
        if not self._wanted(scope):
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        found = self.kept.get(path)
        if found is not None:
            await send({"type": "http.response.start", "status": 200, "headers": found[0]})
            await send({"type": "http.response.body", "body": found[1]})
            return
        held: list[Message] = []  # the file as it goes out, to be packed for the next phones

        async def relay(message: Message) -> None:
            if message["type"] == "http.response.start" and self._packable(path, message):
                held.append(message)
            elif held and message["type"] == "http.response.body":
                held.append(message)
                if not message.get("more_body"):
                    self.packer.submit(self._pack, path, held[0], b"".join(m.get("body", b"") for m in held[1:]))
            await send(message)

        try:
            await self.app(scope, receive, relay)
        finally:
            if held and held[-1].get("more_body", True):  # cut off before its last part: the next phone packs it
                with self.lock:
                    self.packing.discard(path)

    def _wanted(self, scope: Message) -> bool:
        """A GET of a static file by a client that takes gzip, and not of a range of it."""
        if scope["type"] != "http" or scope["method"] != "GET" or not scope["path"].startswith(self.prefix):
            return False
        asked = dict(scope.get("headers", []))
        return takes_gzip(asked.get(b"accept-encoding", b"")) and b"range" not in asked

    def _packable(self, path: str, start: Message) -> bool:
        """A whole text file, served as immutable, not yet given to the packer, while `LIMIT` allows (and now it is
        given). Immutable only: Streamlit answers any other path under `/static/` with its page (no-cache), and a
        client asking for made-up paths would otherwise fill `LIMIT` with copies of it."""
        headers = {k.lower(): v for k, v in start.get("headers", [])}
        if (start["status"] != 200 or b"content-encoding" in headers
                or not headers.get(b"content-type", b"").startswith(PACKED)
                or b"immutable" not in headers.get(b"cache-control", b"")):
            return False
        with self.lock:
            if path in self.packing or self.size >= LIMIT:
                return False
            self.packing.add(path)
            return True

    def _pack(self, path: str, start: Message, body: bytes) -> None:
        """On the packer's thread: keep the file gzipped, with Streamlit's headers but its length and validators,
        unless gzip would not make it smaller or `LIMIT` bytes are kept already."""
        packed = gzip.compress(body, LEVEL, mtime=0)
        if len(packed) >= len(body):
            return
        kept = [(k, v) for k, v in start.get("headers", []) if k.lower() not in DROPPED]
        tag = next((v for k, v in start.get("headers", []) if k.lower() == b"etag"), None)
        if tag is not None:
            kept.append((b"etag", tag[:-1] + b'-gzip"' if tag.endswith(b'"') else tag + b"-gzip"))
        headers = [*kept, (b"content-encoding", b"gzip"), (b"vary", b"Accept-Encoding"),
                   (b"content-length", str(len(packed)).encode())]
        with self.lock:
            if self.size + len(packed) <= LIMIT:
                self.kept[path] = (headers, packed)
                self.size += len(packed)
