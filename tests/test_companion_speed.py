"""What the speed work changed, checked for behaviour: the lobby reads only the tables it shows, QR
images are made once, the server runs without Streamlit's full collection after every run, loads
every game before the first phone connects and sends a small reply at once (Nagle's algorithm off).
(How fast these are is measured in bench/bench_browser.py, never asserted here.)"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from companion_game import TallyGame  # noqa: E402

from companion import launch, links, server  # noqa: E402
from companion.store import open_store  # noqa: E402
from companion.tables import Tables  # noqa: E402
from engine import GAME_IDS  # noqa: E402


def test_lobby_reads_the_newest_tables_in_progress_with_their_seats(store_target: str) -> None:
    service = Tables(open_store(store_target), {"tally": TallyGame()})
    made = [service.create("tally", [f"A{i}", f"B{i}"], {"players": 2}) for i in range(8)]
    for table in made[:3]:
        service.store.concede(table.id, 0)
    shown = service.store.tables("playing", limit=4)
    assert [t.code for t in shown] == [t.code for t in reversed(made[4:])]
    assert [[s.name for s in t.seats] for t in shown] == [[f"A{i}", f"B{i}"] for i in (7, 6, 5, 4)]
    assert shown == [service.store.table(t.id) for t in shown]  # the batched read matches the one-table read
    assert len(service.store.tables("playing")) == 5 and len(service.store.tables()) == 8
    assert service.store.tables("playing", limit=0) == []


def test_qr_images_are_made_once_per_link() -> None:
    links.qr_png.cache_clear()
    first = links.qr_png("http://example.test/?table=ABCDE", box=5)
    again = links.qr_png("http://example.test/?table=ABCDE", box=5)
    assert first is again and first.startswith(b"\x89PNG")
    assert links.qr_png.cache_info().hits == 1


def test_the_servers_options_reach_streamlit() -> None:
    """The server's Streamlit options, in Streamlit's script-level config file (companion/.streamlit/config.toml),
    are the ones Streamlit runs with once the launcher built the app: no full collection after every script run
    (it cost more than the polling pages' runs), no file watchers (they took CPU from the runs a tap waits for),
    no origins allowed to steer the page from a parent frame (a phone checked its own messages against 16).
    The port and the address are uvicorn's. (Served under uvicorn, Streamlit reads no command-line flag and, but
    for secret options, no STREAMLIT_* variable.) Run from another folder, as `muster app` may be. The launcher
    builds one `st.App`, mounted after the companion's routes (`App.lifespan`, as Streamlit documents)."""
    command = server.streamlit_command(9000, "127.0.0.1")
    assert command[command.index("run"):][2:] == ["--server.port", "9000", "--server.address", "127.0.0.1"]
    probe = ("import json, sys; import streamlit as st; from companion import launch; built = []; "
             "sys.setprofile(lambda frame, event, _: built.append(1) if event == 'call' and frame.f_code is "
             "st.App.__init__.__code__ else None); _, host, port = launch.configure(sys.argv[1:]); "
             "sys.setprofile(None); "
             "print(json.dumps([host, port, len(built), {k: st.get_option(k) for k in "
             "('runner.postScriptGC', 'server.fileWatcherType', 'client.toolbarMode', 'logger.hideWelcomeMessage', "
             "'server.headless', 'browser.gatherUsageStats', 'client.allowedOrigins')}]))")
    found = subprocess.run([sys.executable, "-c", probe, *command[command.index("run"):]], capture_output=True,
                           text=True, check=True, cwd=Path(server.__file__).parent.parent / "docs",
                           env=dict(os.environ, PYTHONPATH=str(Path(server.__file__).parent.parent)))
    host, port, apps, options = json.loads(found.stdout.strip().splitlines()[-1])
    assert (host, port) == ("127.0.0.1", 9000)
    assert apps == 1  # the one App served (before, a first App was built only to make Streamlit read the options)
    assert options == {"runner.postScriptGC": False, "server.fileWatcherType": "none", "client.toolbarMode": "minimal",
                       "logger.hideWelcomeMessage": True, "server.headless": True, "browser.gatherUsageStats": False,
                       "client.allowedOrigins": []}  # no parent frame steers a phone: its page skips the checks


def test_the_launcher_refuses_an_option_it_does_not_serve() -> None:
    """Any other flag would be silently Streamlit's default under uvicorn: the launcher says where it goes."""
    with pytest.raises(SystemExit, match="companion/.streamlit/config.toml"):
        launch.options(["run", "companion/app.py", "--runner.postScriptGC", "true"])


def test_server_loads_every_game_and_page_before_the_first_phone() -> None:
    command = server.streamlit_command(9000)
    assert command[1:4] == ["-m", "companion.launch", "run"]
    probe = ("import json, sys; from companion import launch; from companion.tables import catalogue; "
             "from companion.components import hexboard; "
             "launch.preload(); print(json.dumps([sorted(sys.modules), catalogue.cache_info().currsize, "
             "sorted(g for g, e in catalogue().items() if e.playable), len(hexboard._ART_JSON)]))")
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                           env=dict(os.environ, PYTHONPATH=str(Path(server.__file__).parent.parent)))
    modules, cached, playable, board_art = json.loads(found.stdout.strip().splitlines()[-1])
    pages = {"companion.lobby", "companion.table_page", "companion.lookup_page", "companion.context"}
    assert pages | {f"companion.panels.{g}" for g in GAME_IDS} <= set(modules)
    assert "streamlit.emojis" in modules  # the page icon worked out by the public st.set_page_config, outside a run
    assert cached == 1 and playable == sorted(GAME_IDS)
    assert board_art == 1  # hexbattle's board artwork, drawn before the first phone opens a table


def nodelay_of_an_accepted_connection(config: Any) -> int:
    """TCP_NODELAY as a uvicorn server with `config` (its app aside) leaves it on a connection it accepts: the
    server's HTTP protocol is replaced by one that reports the option on the accepted socket and hangs up."""
    import uvicorn

    seen: list[int] = []

    class Report(asyncio.Protocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        def connection_made(self, transport: asyncio.BaseTransport) -> None:  # type: ignore[override]
            sock = transport.get_extra_info("socket")
            seen.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    config.http = Report
    config.lifespan = "off"
    served = uvicorn.Server(config)

    async def serve() -> None:
        task = asyncio.create_task(served.serve())
        while not served.started:
            await asyncio.sleep(0.01)
        port = served.servers[0].sockets[0].getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        while not seen:
            await asyncio.sleep(0.01)
        writer.close()
        served.should_exit = True
        await task

    # on a thread of its own: a test before may have left an event loop running on this one
    worker = threading.Thread(target=lambda: asyncio.run(serve()))
    worker.start()
    worker.join(30)
    return seen[0]


async def nothing(scope: Any, receive: Any, send: Any) -> None:
    """An ASGI app that is never called: the probe's protocol answers no request."""


def test_server_sends_a_small_reply_at_once() -> None:
    """With Nagle's algorithm on, each reply after the first on a kept-alive connection held its small body
    until the phone acknowledged the headers, 40 ms later: a first visit fetches some 60 small scripts. The
    companion's server listens by address (`launch.server_config`), so its sockets are TCP and asyncio turns
    the algorithm off; Streamlit's own runner binds a socket of protocol 0, where it stays on."""
    assert nodelay_of_an_accepted_connection(launch.server_config(nothing, "127.0.0.1", 0)) != 0


def test_history_is_worked_out_once_per_position_and_viewer(store_target: str) -> None:
    service = Tables(open_store(store_target), {"tally": TallyGame()})
    table = service.create("tally", ["Ann", "Bob"], {"players": 2})
    state = service.snapshot(table).state
    service.act(table, 0, state.legal_actions(0)[0])
    snap = service.snapshot(table)
    for viewer in (0, 1, None):
        assert snap.history(viewer) == snap.match.history(viewer)
        assert snap.history(viewer) is snap.history(viewer)  # every redraw of the position reads the same lines
    service.act(table, 1, snap.state.legal_actions(1)[0])
    moved = service.snapshot(table)
    assert [line.seq for line in moved.history(0)] == [line.seq for line in snap.history(0)] + [2]
    assert moved.history(0) == moved.match.history(0)
