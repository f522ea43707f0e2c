"""The companion's server process: Streamlit, started after the one-time work is done.

`python -m companion.launch run companion/app.py …` takes Streamlit's own command line. Before
the server listens, it imports the pages and loads every game's cards, engine and panel, so the
first phone to open a page does not wait for them (several seconds on a small machine);
a page that then imports them finds them loaded. `companion.server.streamlit_command` runs it.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import sys

LOG = logging.getLogger("muster.companion")


def preload() -> None:
    """Import the pages and load every game (data, engine, panel) once, for the whole process; then do the
    one-time work Streamlit does when it draws its first page: reading its emoji catalogue (the page icon is
    one) and looking at the call stack (`inspect` indexes every loaded module's file the first time). The
    first page a server drew took 0.3-0.4 s more than the next ones before."""
    from streamlit.string_util import is_emoji

    from companion import lobby, lookup_page, panels, table_page  # noqa: F401  (imported for their cost)
    from companion.tables import catalogue

    for game_id in catalogue():
        panels.module_for(game_id)
    context = importlib.import_module("companion.context")
    is_emoji(context.PAGE_ICON)
    inspect.stack()


def serve_own_routes() -> None:
    """Give Streamlit's server the companion's own routes (`companion.routes`), added to its Starlette app as
    it is built: Streamlit has no public hook for a route on `streamlit run`'s server, so this wraps the
    function that builds it; where that moved, the pages send everything through Streamlit as before."""
    from streamlit import config
    from streamlit.web.server.starlette import starlette_server

    from companion import routes

    build = starlette_server.create_starlette_app

    def with_routes(runtime: object) -> object:
        app = build(runtime)
        try:
            routes.install(app, str(config.get_option("server.baseUrlPath") or ""))
        except Exception:
            LOG.exception("the companion's own routes could not be added; the pages go through Streamlit")
        return app

    starlette_server.create_starlette_app = with_routes


def main() -> None:
    try:
        preload()
    except Exception:  # the pages report a broken game or module themselves, in plain words, when opened
        LOG.exception("loading the games before the server starts failed; the pages will load them")
    try:
        serve_own_routes()
    except Exception:  # a Streamlit without this server module: everything goes through Streamlit
        LOG.warning("the companion's own routes are off: this Streamlit builds its server differently")
    from streamlit.web import cli

    sys.argv[0] = "streamlit"
    cli.main(prog_name="streamlit")


if __name__ == "__main__":
    main()
