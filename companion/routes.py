"""The companion's own routes, served before Streamlit's mounted `st.App` (`companion.launch`): the page's styles
(`companion.page_styles`), the hexbattle board's artwork (`companion.components.hexboard`), the components' code
(`companion.components.Frontend`: the surface's, the board's) and the news that a table moved (`companion.heads`).

The pages learn whether the routes are there, and where, from `companion.paths`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from companion import components, heads, page_styles, paths
from companion.components import hexboard, surface


# The styles, the components' code and the board's artwork gzipped for a phone that takes it (the artwork: 381 KB, 89 KB gzipped), as
# Streamlit's own middleware compresses its responses; the routes are outside the App it wraps (`companion.launch`).
COMPRESSED = [Middleware(GZipMiddleware)]


def build(base_url: str) -> list[BaseRoute]:
    """The routes for a server whose Streamlit is served under `base_url`; the pages are told they are there."""
    paths.serve_under(base_url)
    styles = Route(paths.url(base_url, page_styles.PATH), bodiless(page_styles.serve), methods=["GET"],
                   middleware=COMPRESSED)
    art = Route(paths.url(base_url, hexboard.ART_PATH) + "/{version}", bodiless(hexboard.serve_art), methods=["GET"],
                middleware=COMPRESSED)
    code = components.serving(surface.ELEMENT, hexboard.BOARD)
    scripts = Route(paths.url(base_url, components.SCRIPTS_PATH) + "/{file}", bodiless(code), methods=["GET"],
                    middleware=COMPRESSED)
    moved = Route(paths.url(base_url, heads.PATH), bodiless(heads.serve), methods=["GET"])
    return [styles, art, scripts, moved]


NO_BODY = "A GET request carries no body."


def bodiless(serve: Callable[[Any], Awaitable[Any]]) -> Callable[[Any], Awaitable[Any]]:
    """A GET route that refuses a request with a body (declared or chunked) with a 400, unread: no browser sends
    one, and a body of any size or speed then neither costs the server nor holds the route open."""
    async def guarded(request: Any) -> Any:
        if request.headers.get("content-length", "0") != "0" or "transfer-encoding" in request.headers:
            return JSONResponse({"error": NO_BODY}, status_code=400)
        return await serve(request)
    return guarded
