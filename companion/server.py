"""Starting the companion: the LAN address phones use, a terminal QR code of it, and the Streamlit process.

The server runs as a child process (`python -m companion.launch run companion/app.py` with Streamlit's options:
the app as an `st.App` served by uvicorn, after the games are loaded) so the `muster` command stays a plain CLI; the data folder, public address and cards folder reach
the app through MUSTER_DATA_DIR, MUSTER_URL and MUSTER_CARDS_DIR. The child dies with its parent.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import io
import os
import signal
import socket
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import qrcode

from companion.store import StoreError, check_data_dir, database_target, default_data_dir, redact

APP_SCRIPT = Path(__file__).resolve().parent / "app.py"
DEFAULT_PORT = 8501
PUBLIC_URL_ENV = "MUSTER_PUBLIC_URL"  # `muster app --public-url`'s variable: the address behind a reverse proxy
BASE_PATH_ENV = "STREAMLIT_SERVER_BASE_URL_PATH"  # Streamlit's variable for the option, read by `streamlit run` only


def lan_ip() -> str:
    """This machine's address on the local network (the interface a UDP 'connect' would use); 127.0.0.1 offline."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # no packet is sent: connect on UDP only picks a route
        address = str(probe.getsockname()[0])
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


def companion_url(port: int, host: str | None = None, base: str = "") -> str:
    """The companion's address on this machine: its front page under the base path `base` (`base_path`), if any."""
    return f"http://{host or lan_ip()}:{port}" + (f"/{base}/" if base else "")


def base_path() -> str:
    """The path the companion is served under (Streamlit's `server.baseUrlPath`, as "club/muster"; "" for none),
    so the address printed and put in QR codes carries it. Streamlit reads it, as the server does (`companion.launch`:
    an App names the script, so the script's folder's config.toml is read too), when one of those config files sets
    it; when none does, there is none, and Streamlit is not imported to say so (half a second, and a process's
    options are read once: a test's would keep the companion's file). Refused (ValueError) with what to do: a config
    file that is not TOML, which Streamlit would skip with a traceback in its log, and Streamlit's variable for the
    option, which a proxy's guide may give but Streamlit reads only under `streamlit run`; either way the companion
    would be served at the root while the phones are sent to the path."""
    asked = os.environ.get(BASE_PATH_ENV, "")
    if asked.strip("/"):  # "/" names no path, as the root
        raise ValueError(f"${BASE_PATH_ENV} is not read by the companion's server; set the path in Streamlit's "
                         f"config file instead: [server] baseUrlPath = \"{asked.strip('/')}\" in "
                         ".streamlit/config.toml in the folder you start muster from (or in ~/.streamlit/config.toml)")
    based = False  # whether a config file sets the option: if none does, Streamlit need not be asked (nor imported)
    for file in (Path.home() / ".streamlit" / "config.toml", Path(".streamlit", "config.toml").absolute(),
                 APP_SCRIPT.parent / ".streamlit" / "config.toml"):  # Streamlit's, for the server's App
        if not file.is_file():
            continue
        try:
            options = tomllib.loads(file.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            raise ValueError(f"Streamlit's config file {file} is not valid TOML ({err}); fix it, or remove it") from None
        section = options.get("server")
        based = based or (isinstance(section, dict) and "baseUrlPath" in section)
    if not based:
        return ""
    import streamlit as st

    st.App(APP_SCRIPT)  # before any option is read, as the server's own App is
    return str(st.get_option("server.baseUrlPath") or "").strip("/")


def terminal_qr(text: str) -> str:
    """A QR code drawn with text blocks, for phones to scan off the terminal."""
    code = qrcode.QRCode(border=1)
    code.add_data(text)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


ANY_ADDRESS = "0.0.0.0"  # `muster app --address`'s default: every interface of this machine


def check_port(port: int, address: str = ANY_ADDRESS) -> int:
    """The port, if it is in range and free to listen on at `address`; otherwise say what to do instead."""
    if not 1 <= port <= 65535:
        raise StoreError(f"--port {port} is out of range; use a number from 1 to 65535 (default {DEFAULT_PORT})")
    try:
        family = socket.getaddrinfo(address, port, type=socket.SOCK_STREAM)[0][0]
    except (socket.gaierror, UnicodeError):
        raise StoreError(f"--address {address} is not an address of this machine; use an IP address such as "
                         f"127.0.0.1 (this machine only) or {ANY_ADDRESS} (every network, the default)") from None
    probe = socket.socket(family, socket.SOCK_STREAM)
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does: a closing port is free
    try:
        probe.bind((address, port))
    except PermissionError:
        raise StoreError(f"--port {port} needs administrator rights here; use a port above 1023") from None
    except OSError as err:
        if err.errno == 99:  # EADDRNOTAVAIL
            raise StoreError(f"--address {address} is not an address of this machine; use one of its own, "
                             f"127.0.0.1 or {ANY_ADDRESS}") from None
        raise StoreError(f"--port {port} is already in use (is the companion already running?); "
                         "choose another with --port") from None
    finally:
        probe.close()
    return port


def resolve_data_dir(value: str | None) -> Path:
    """--data-dir, else MUSTER_DATA_DIR, else the user's data folder; created and proven writable."""
    return check_data_dir(Path(value).expanduser() if value else default_data_dir())


def streamlit_command(port: int, address: str = ANY_ADDRESS) -> list[str]:
    """The server's command; Streamlit's other options are in companion/.streamlit/config.toml (`companion.launch`)."""
    return [sys.executable, "-m", "companion.launch", "run", str(APP_SCRIPT), "--server.port", str(port),
            "--server.address", address]


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with(parent: int) -> Callable[[], None]:
    """A `preexec_fn` asking the kernel to send the child SIGTERM when `parent` dies, even by kill -9
    (Linux prctl PR_SET_PDEATHSIG), so a killed `muster app` never leaves Streamlit holding the port.
    Elsewhere it does nothing: there, only Ctrl-C and SIGTERM stop the child."""
    name = ctypes.util.find_library("c")  # looked up here: between fork and exec only the call is safe
    prctl = getattr(ctypes.CDLL(name), "prctl", None) if name else None

    def preexec() -> None:
        if prctl is None:
            return
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent died before the request took effect
            os._exit(1)
    return preexec


def run_app(port: int, data_dir: Path, url: str, address: str = ANY_ADDRESS) -> int:
    """Print where to connect, then run Streamlit until it stops or Ctrl-C."""
    print(f"Muster companion: {url}")
    print(f"Tables are kept in {redact(database_target(None, data_dir))}")
    print("Scan with a phone on the same network:")
    print(terminal_qr(url))
    sys.stdout.flush()
    env = dict(os.environ, MUSTER_DATA_DIR=str(data_dir), MUSTER_URL=url)
    child = subprocess.Popen(streamlit_command(port, address), env=env, preexec_fn=die_with(os.getpid()))
    # Stopping `muster` (a service manager, a test harness) must stop the server it started.
    signal.signal(signal.SIGTERM, lambda *_: child.terminate())
    try:
        return child.wait()
    except KeyboardInterrupt:
        child.terminate()
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
        return 130
