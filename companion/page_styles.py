"""The page's styles: four CSS files, linked from the page Streamlit serves, or sent by `st.html`.

The files: the surface's own (`components/surface/surface.css`: its blocks and pads, `.sf-*`, `.mp-*`), the
hexbattle board's (`components/hexboard/board.css`, `.hb-*`),
`styles/streamlit.css` (what reaches inside Streamlit's own elements: 44 px tap targets, the page's margins, the
"Reconnecting…" card) and `styles/muster.css` (Muster's own `.muster-*` classes), in that order, so a rule of
Muster's wins a tie. The components' styles come here rather than with their elements: Streamlit sends a
component's CSS inside every element it draws, at every redraw (the surface's 4.4 KB of a tap's 26 KB, the board's
3.5 KB of its 8.5: docs/performance.md), and the page's sheet reaches a phone once.

How they reach the phone. Sent as `st.html(path)` at the top of a page's run (Streamlit documents it for a CSS
file: a `<style>` in the page's event container), they came late on a first visit: Streamlit fetches the code that
draws an `st.html` element only when it meets the first one, so the lobby showed unstyled, then jumped, for
0.2-0.8 s (docs/performance.md). So on a server with the companion's routes, `LinkStyles` (an ASGI middleware of
the companion's server, `companion.launch`) adds one `<link rel="stylesheet">` before the `</body>` of each HTML
page Streamlit serves (at its end where it has none: a parser puts what follows the body into it): the phone reads
the styles before Streamlit's scripts run (a stylesheet the page names holds them back), once per version (`serve`
lets it keep them a year), and no run sends them. It closes the body, after the styles Streamlit adds to the head
as it draws, so a rule of ours wins a tie with one of Streamlit's. The page is Streamlit's own, never read from
its package or copied.

Every page can take the link, so every page's runs leave the styles out: a browser asking for a page (`Accept:
text/html`) is asked for it uncompressed (`Accept-Encoding: identity`, HTTP's own way to refuse a content coding),
as Streamlit already serves its root page, so the page is never gzipped out of the middleware's reach (Streamlit
gzips the page it serves at any other path). Scripts and everything else keep their compression. A page that
comes compressed all the same is sent unchanged and logged; it alone goes without the styles. Without the routes
(the AppTest harness) each run sends them by `st.html`.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from companion import paths

LOG = logging.getLogger("muster.companion")
STYLES = Path(__file__).with_name("styles")
SURFACE_STYLES = Path(__file__).parent / "components" / "surface" / "surface.css"
BOARD_STYLES = Path(__file__).parent / "components" / "hexboard" / "board.css"
STYLE_SHEETS = (SURFACE_STYLES, BOARD_STYLES, STYLES / "streamlit.css", STYLES / "muster.css")
CSS = "\n".join(sheet.read_text(encoding="utf-8") for sheet in STYLE_SHEETS).encode()
VERSION = hashlib.sha256(CSS).hexdigest()[:12]
PATH = "_muster/styles.css"  # under the routes' base path (`companion.routes`)

Message = MutableMapping[str, Any]
Send = Callable[[Message], Awaitable[None]]


async def serve(request: Any) -> Any:
    """GET the styles (whatever version the address names: a phone holding an older page gets today's, kept only
    under today's address: `paths.kept`)."""
    from starlette.responses import Response

    return Response(CSS, media_type="text/css", headers={"Cache-Control": paths.kept(request.query_params.get("v"),
                                                                                        VERSION)})


class LinkStyles:
    """ASGI middleware: each HTML page the app answers a browser's GET with carries `<link rel="stylesheet"
    href=…>` (and a `<link rel="modulepreload">` for each of `scripts`) closing its body, and comes uncompressed; anything else passes as it is. The page loses its validators
    (ETag, Last-Modified): a phone's copy must not be revalidated against the page without the link."""

    def __init__(self, app: Callable[..., Awaitable[None]], href: str, scripts: tuple[str, ...] = ()) -> None:
        self.app = app
        # `scripts`: components' code the page's elements import (`companion.components.Frontend`), fetched while
        # Streamlit's own scripts load rather than once its first element is drawn
        preloads = "".join(f'<link rel="modulepreload" href="{script}">' for script in scripts)
        self.link = f'<link rel="stylesheet" href="{href}?v={VERSION}">{preloads}'.encode()

    async def __call__(self, scope: Message, receive: Callable[[], Awaitable[Message]], send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        asked = dict(scope.get("headers", []))
        browser = b"text/html" in asked.get(b"accept", b"")
        if browser:  # a page: asked for as it is, so the link can go in
            kept = [(k, v) for k, v in scope.get("headers", []) if k != b"accept-encoding"]
            scope = {**scope, "headers": [*kept, (b"accept-encoding", b"identity")]}
        held: list[Message] = []  # the response's start and body, while it is a page to link from

        async def relay(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = {k.lower(): v for k, v in message.get("headers", [])}
                page = headers.get(b"content-type", b"").startswith(b"text/html") and message["status"] == 200
                if page and b"content-encoding" not in headers:
                    held.append(message)
                    return
                if page and browser:  # not what a client that did not ask for a page gets, so not a visitor's to log
                    LOG.warning("Streamlit's page %s came compressed (%s): it goes without the companion's styles",
                                scope.get("path"), headers[b"content-encoding"].decode(errors="replace"))
            elif held and message["type"] == "http.response.body":
                held.append(message)
                if message.get("more_body"):
                    return
                await self.release(held, send)
                return
            await send(message)

        await self.app(scope, receive, relay)

    async def release(self, held: list[Message], send: Send) -> None:
        """Send the held page with the link closing its body (at its end where it has no `</body>`)."""
        start, body = held[0], b"".join(m.get("body", b"") for m in held[1:])
        at = body.rfind(b"</body>")
        body = body[:at] + self.link + body[at:] if at >= 0 else body + self.link
        dropped = {b"content-length", b"transfer-encoding", b"etag", b"last-modified"}
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() not in dropped]
        await send({**start, "headers": [*headers, (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
