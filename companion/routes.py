"""The companion's own routes, served beside Streamlit's by `st.App` (`companion.launch`): the front page with
the companion's styles (`companion.front_page`), taps posted by the phones (`companion.courier`) and the
hexbattle board's artwork (`companion.components.hexboard`).

`st.App` puts them before Streamlit's own routes, so the front page answers the app's address in place of
Streamlit's (where there is one to serve). The pages learn whether the routes are there, and where, from
`companion.paths`.
"""

from __future__ import annotations

from starlette.routing import BaseRoute, Route

from companion import courier, front_page, paths
from companion.components import hexboard


def build(base_url: str) -> list[BaseRoute]:
    """The routes for a server whose Streamlit is served under `base_url`; the pages are told they are there."""
    paths.serve_under(base_url)
    page = [Route(paths.url(base_url, ""), front_page.serve, methods=["GET"])] if front_page.markup() else []
    return [*page, Route(paths.url(base_url, courier.PATH), courier.deliver, methods=["POST"]),
            Route(paths.url(base_url, hexboard.ART_PATH) + "/{version}", hexboard.serve_art, methods=["GET"])]
