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
import socket
import sys

LOG = logging.getLogger("muster.companion")


def preload() -> None:
    """Import the pages and load every game (data, engine, panel, and what its first page works out: hexbattle's
    board artwork) once, for the whole process; then do the one-time work Streamlit does when it draws its first
    page: reading its emoji catalogue (the page icon is one) and looking at the call stack (`inspect` indexes
    every loaded module's file the first time). The first page a server drew took 0.3-0.4 s more than the next
    ones before (a hexbattle table's 0.4 s more again)."""
    from streamlit.string_util import is_emoji

    from companion import lobby, lookup_page, panels, table_page  # noqa: F401  (imported for their cost)
    from companion.tables import catalogue

    for game_id, entry in catalogue().items():
        panels.module_for(game_id)
        prepare = panels.prepare_for(game_id)
        if prepare is not None and entry.data is not None:
            prepare(entry.data)
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


def send_small_replies_at_once() -> None:
    """Turn off Nagle's algorithm on every connection the server accepts, as asyncio means to.

    Streamlit binds its listening socket itself, and a socket made that way reports protocol 0; asyncio
    sets `TCP_NODELAY` only on accepted sockets that report TCP (uvicorn issue #3149). Without it, each
    reply after the first on a kept-alive connection sends its headers, then holds a small body until the
    phone acknowledges them, which a phone delays by 40 ms. A first load fetches some 60 small scripts over
    six connections, so it waited 0.4 s on that alone; small websocket messages wait the same way. This
    wraps Streamlit's binding so the listener says it is TCP, which its accepted sockets inherit."""
    from streamlit.web.server.starlette import starlette_server

    bind = starlette_server._bind_socket

    def bind_as_tcp(address: str, port: int, backlog: int) -> socket.socket:
        sock = bind(address, port, backlog)
        if sock.proto:
            return sock
        tcp = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
        tcp.setblocking(False)
        return tcp

    starlette_server._bind_socket = bind_as_tcp


def log_with_levels() -> None:
    """The companion's log lines on the server's terminal with their time and level ("WARNING", "ERROR"), as
    the operator reads them and the browser tests scan them; without a handler Python printed bare messages."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    LOG.addHandler(handler)
    LOG.setLevel(logging.INFO)
    LOG.propagate = False
    # psycopg's pool logs each failed reconnection (a dozen a minute while the database is down); the store's
    # own line (`store.unavailable`) says it once, with its cause, and once more when the database is back.
    logging.getLogger("psycopg.pool").setLevel(logging.ERROR)


def main() -> None:
    log_with_levels()
    try:
        preload()
    except Exception:  # the pages report a broken game or module themselves, in plain words, when opened
        LOG.exception("loading the games before the server starts failed; the pages will load them")
    try:
        serve_own_routes()
    except Exception:  # a Streamlit without this server module: everything goes through Streamlit
        LOG.warning("the companion's own routes are off: this Streamlit builds its server differently")
    try:
        send_small_replies_at_once()
    except Exception:  # a Streamlit that binds differently: pages load as fast as its server serves them
        LOG.warning("could not turn off Nagle's algorithm on this Streamlit's server; pages load more slowly")
    from streamlit.web import cli

    sys.argv[0] = "streamlit"
    cli.main(prog_name="streamlit")


if __name__ == "__main__":
    main()
