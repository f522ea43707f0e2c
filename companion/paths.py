"""Where the companion's own routes (`companion.routes`) are on this server, for the pages that link to them.

A leaf module, so the pages (the surface, the hexbattle board) can ask without importing the
routes, which import those pages' handlers. `companion.launch` records the base path when it builds the
server; without that (the AppTest harness) `installed()` is False and the pages send everything through
Streamlit.
"""

from __future__ import annotations

_base: str | None = None  # the base path (`server.baseUrlPath`) the routes are served under; None: no routes


def serve_under(base_url: str) -> None:
    """The routes are served under `base_url` on this server (`companion.launch` calls this as it builds it)."""
    global _base
    _base = base_url


def installed() -> bool:
    """Whether this server has the companion's own routes."""
    return _base is not None


def here(path: str) -> str:
    """`path` on this server, under the base path the routes are served under."""
    return url(_base or "", path)


def url(base_url: str, path: str) -> str:
    """`path` ("_muster/…") on a server whose Streamlit is served under `base_url` (`server.baseUrlPath`)."""
    base = base_url.strip("/")
    return f"/{base}/{path}" if base else f"/{path}"


KEEP = "public, max-age=31536000, immutable"
"""How a file of the routes whose address names its version (the styles, the components' code, the board's
artwork) is kept: a year, never asked for again, as no other content may ever come under that address."""


def kept(asked: str | None, version: str) -> str:
    """The Cache-Control of today's `version` of a file served to an address naming the version `asked`: kept a
    year (`KEEP`) only when the two agree. Any other address (an older page's, after an upgrade; a version not
    released yet, asked for ahead) gets today's content, so the page still works, but kept by nobody: a phone's
    cache or a proxy's must never hold one version's address with another's content, for a year."""
    return KEEP if asked == version else "no-store"
