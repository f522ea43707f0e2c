"""The companion's own routes on Streamlit's server: the front page with the companion's styles
(`companion.front_page`), taps posted by the phones (`companion.courier`) and the hexbattle board's artwork
(`companion.components.hexboard`).

Streamlit has no public hook for a route on the server `streamlit run` starts, so `companion.launch` wraps
the function that builds its Starlette app and calls `install` on the app (the routes go first, before
Streamlit's catch-all static pages). Without them (the AppTest harness, a Streamlit that builds its server
differently) the pages say so by `installed()` being False, and send everything through Streamlit as before.
"""

from __future__ import annotations

from typing import Any

_base: str | None = None  # the base path (`server.baseUrlPath`) the routes were installed under; None: not installed


def installed() -> bool:
    """Whether this server has the routes (`install` ran)."""
    return _base is not None


def here(path: str) -> str:
    """`path` on this server, under the base path the routes were installed under."""
    return url(_base or "", path)


def url(base_url: str, path: str) -> str:
    """`path` ("_muster/…") on a server whose Streamlit is served under `base_url` (`server.baseUrlPath`)."""
    base = base_url.strip("/")
    return f"/{base}/{path}" if base else f"/{path}"


def install(app: Any, base_url: str) -> None:
    from starlette.routing import Route

    from companion import courier, front_page
    from companion.components import hexboard

    global _base
    routes = [Route(url(base_url, ""), front_page.serve, methods=["GET"]),
              Route(url(base_url, courier.PATH), courier.deliver, methods=["POST"]),
              Route(url(base_url, hexboard.ART_PATH) + "/{version}", hexboard.serve_art, methods=["GET"])]
    app.router.routes[:0] = routes
    _base = base_url
