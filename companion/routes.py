"""The companion's own routes, served beside Streamlit's by `st.App` (`companion.launch`): the front page with
the companion's styles (`companion.front_page`) and the hexbattle board's artwork (`companion.components.hexboard`).

`st.App` puts them before Streamlit's own routes, so the front page answers the app's address in place of
Streamlit's (where there is one to serve). The pages learn whether the routes are there, and where, from
`companion.paths`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from companion import front_page, paths
from companion.components import hexboard


def build(base_url: str) -> list[BaseRoute]:
    """The routes for a server whose Streamlit is served under `base_url`; the pages are told they are there."""
    paths.serve_under(base_url)
    page = [Route(paths.url(base_url, ""), bodiless(front_page.serve), methods=["GET"])] if front_page.markup() else []
    art = Route(paths.url(base_url, hexboard.ART_PATH) + "/{version}", bodiless(hexboard.serve_art), methods=["GET"])
    return [*page, art]


NO_BODY = "A GET request carries no body."


def bodiless(serve: Callable[[Any], Awaitable[Any]]) -> Callable[[Any], Awaitable[Any]]:
    """A GET route that refuses a request with a body (declared or chunked) with a 400, unread: no browser sends
    one, and a body of any size or speed then neither costs the server nor holds the route open."""
    async def guarded(request: Any) -> Any:
        if request.headers.get("content-length", "0") != "0" or "transfer-encoding" in request.headers:
            return JSONResponse({"error": NO_BODY}, status_code=400)
        return await serve(request)
    return guarded
