"""The companion's server process: the companion's own routes and the app as a public `st.App`, served by uvicorn.

`python -m companion.launch run companion/app.py --server.port P --server.address A` takes Streamlit's
command-line shape (`companion.server.streamlit_command`), so the same command serves plain `streamlit run` in
the benchmarks. The port and the address go to uvicorn; Streamlit's other options are in Streamlit's
script-level config file, `companion/.streamlit/config.toml`, which it reads for an `st.App` as for `streamlit
run` (an `st.App` served by uvicorn reads neither command-line flags nor, but for secret options, `STREAMLIT_*`
variables). The app is a Starlette app with the companion's routes and `st.App(script, lifespan=…)` mounted
after them (`App.lifespan()`, Streamlit's documented way to mount an App), and uvicorn serves it.

Why serve it ourselves rather than `streamlit run` or `App.run()`: those bind the listening socket themselves, as
protocol 0, and asyncio turns Nagle's algorithm off only on accepted sockets that say they are TCP (uvicorn issue
#3149). Without it, each reply after the first on a kept-alive connection holds its small body until the phone
acknowledges the headers, which a phone delays by 40 ms; a first load fetches some 60 small scripts, so it waited
0.4 s on that alone. Given a host and a port, uvicorn listens through `loop.create_server`, whose sockets are TCP.

Before the server listens (the lifespan's start), the pages are imported and every game is loaded, so the first
phone to open a page does not wait for them (several seconds on a small machine); the lifespan also runs the
tables' bots (`companion.bot_seats`) in this process, for as long as it serves.
"""

from __future__ import annotations

import inspect
import logging
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import uvicorn

from companion.heads import HEADS

LOG = logging.getLogger("muster.companion")
WS_PING_S = 30  # as Streamlit's own uvicorn server pings a phone's websocket
SHUTDOWN_S = 3  # a stop does not wait longer for open websockets to close


def preload() -> None:
    """Import the pages and load every game (data, engine, panel, and what its first page works out: hexbattle's
    board artwork) once, for the whole process; then do the one-time work Streamlit does when it draws its first
    page: reading its emoji catalogue (the page icon is one: `context.configure_page` outside a run) and looking at
    the call stack (`inspect` indexes every loaded module's file the first time). The first page a server drew took
    0.3-0.4 s more than the next ones before (a hexbattle table's 0.4 s more again)."""
    from companion import context, lobby, lookup_page, panels, table_page  # noqa: F401  (pages: their cost)
    from companion.tables import catalogue

    for game_id, entry in catalogue().items():
        panels.module_for(game_id)
        prepare = panels.prepare_for(game_id)
        if prepare is not None and entry.data is not None:
            prepare(entry.data)
    logging.disable(logging.WARNING)  # Streamlit warns that a command ran outside a page's run: here it is meant to
    try:
        context.configure_page()
    finally:
        logging.disable(logging.NOTSET)
    inspect.stack()


SERVED_BY_LAUNCHER = ("server.port", "server.address")  # uvicorn's; every other option is in config.toml


def options(argv: Sequence[str]) -> tuple[Path, dict[str, str]]:
    """`run SCRIPT --server.port P --server.address A` (or `--option=value`): the script and those options."""
    if len(argv) < 2 or argv[0] != "run":
        raise SystemExit("usage: python -m companion.launch run SCRIPT [--server.port P] [--server.address A]")
    found: dict[str, str] = {}
    rest = list(argv[2:])
    while rest:
        flag = rest.pop(0)
        name, _, value = flag[2:].partition("=")
        if not flag.startswith("--") or name not in SERVED_BY_LAUNCHER:
            raise SystemExit(f"companion.launch: {flag!r} is not --server.port or --server.address; Streamlit's other "
                             "options are set in companion/.streamlit/config.toml (or ~/.streamlit/config.toml)")
        if not _:
            if not rest:
                raise SystemExit(f"companion.launch: {flag} needs a value")
            value = rest.pop(0)
        found[name] = value
    return Path(argv[1]).resolve(), found


@asynccontextmanager
async def lifespan(_app: object) -> AsyncIterator[None]:
    """The server's start (before it listens): every game and page loaded once; then the bots of the tables
    (`companion.bot_seats.Runner`) move on this server until it stops."""
    try:
        preload()
    except Exception:  # the pages report a broken game or module themselves, in plain words, when opened
        LOG.exception("loading the games before the server starts failed; the pages will load them")
    from companion import bot_seats, context, live

    bots = bot_seats.Runner(context.tables, lambda table_id: live.tell(context.tables().store, table_id))
    bots.start()
    try:
        yield
    finally:
        bots.stop()


def app(script: Path) -> Any:
    """The companion as an ASGI app: the companion's routes, then Streamlit's app (`st.App`, with the lifespan)
    mounted under them, its pages linking the companion's styles; Streamlit's options are those of the script's
    folder's `.streamlit/config.toml`."""
    import streamlit as st
    from starlette.applications import Starlette
    from starlette.routing import Mount

    from companion import routes

    # The process's one App. Streamlit reads the script's own config file once an App has named the script (the
    # App's documented warning: the first one pins the script-level config folder), and the routes need an option
    # (the base path) first; so the routes go on a Starlette app of their own with the App mounted after them,
    # as Streamlit documents for mounting an App on another ASGI app (`App.lifespan`: the App's runtime and our
    # lifespan run as that app starts and stops).
    streamlit = st.App(script, lifespan=lifespan)
    base = str(st.get_option("server.baseUrlPath") or "")
    return Starlette(routes=[*routes.build(base), Mount("", app=streamlit)], middleware=middleware(script, base),
                     lifespan=streamlit.lifespan())


def middleware(script: Path, base: str) -> list[Any]:
    """The companion's pages link its styles (`page_styles` says why) and preload the surface's code (every page
    draws surfaces, `companion.components.Frontend`), and Streamlit's scripts reach its phones gzipped
    (`packed_static`); another script (the benchmarks' bare page) gets Streamlit's page as it ships."""
    from starlette.middleware import Middleware

    from companion import packed_static, page_styles, paths
    from companion.components import surface
    from companion.server import APP_SCRIPT

    if script != APP_SCRIPT:
        return []
    return [Middleware(page_styles.LinkStyles, href=paths.url(base, page_styles.PATH),
                       scripts=(paths.url(base, surface.ELEMENT.file),)),
            Middleware(packed_static.PackedStatic, base=base)]


def server_config(served: Any, host: str, port: int) -> Any:
    """uvicorn's settings for serving `served` on `host:port` as Streamlit's own uvicorn server would (its
    websocket protocol, message size, compression and pings), but listening by address, so on TCP sockets."""
    import streamlit as st

    return uvicorn.Config(served, host=host, port=port, ws="websockets-sansio", lifespan="on",
                          ws_max_size=int(st.get_option("server.maxMessageSize")) * 1_000_000,
                          ws_per_message_deflate=bool(st.get_option("server.enableWebsocketCompression")),
                          ws_ping_interval=WS_PING_S, ws_ping_timeout=WS_PING_S, timeout_graceful_shutdown=SHUTDOWN_S,
                          log_level="warning", access_log=False, use_colors=False)


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


def configure(argv: Sequence[str]) -> tuple[Any, str, int]:
    """The app the command line names, with its Streamlit options, and where to serve it."""
    script, chosen = options(argv)
    return app(script), chosen.get("server.address", "0.0.0.0"), int(chosen.get("server.port", "8501"))


class Server(uvicorn.Server):
    """uvicorn's server that, as it stops, first answers the phones' requests waiting for a move (`companion.heads`):
    uvicorn waits for open requests before it stops, and logs an error for each it has to cut."""

    async def shutdown(self, sockets: Any = None) -> None:
        HEADS.close()
        await super().shutdown(sockets)


def main(argv: Sequence[str] | None = None) -> None:
    log_with_levels()
    served, host, port = configure(sys.argv[1:] if argv is None else argv)
    Server(server_config(served, host, port)).run()


if __name__ == "__main__":
    main()
