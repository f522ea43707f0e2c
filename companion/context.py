"""What every page shares: the table service (one per data folder per process) and the page's look.

Pages are thin: they read query parameters (`companion.links`), call `companion.tables`, and draw engine
state. The other things pages share live beside this one, a concern each: the browser's own id
(`companion.device`), links and QR codes (`companion.links`), messages after a tap (`companion.flashes`) and
store faults told in words (`companion.faults`).
"""

from __future__ import annotations

import gc
import os

import streamlit as st

from companion import live
from companion.store import database_target, default_data_dir, open_store
from companion.tables import Tables

PAGE_TITLE = "Muster"
PAGE_ICON = "⚔️"


def configure_page() -> None:
    """The tab's title and icon and the page's layout, at the top of every page run. Called once more at the
    server's start, outside any run (`companion.launch.preload`), where it sends nothing: there Streamlit works
    out the icon, reading its emoji catalogue (0.15 s) before the first phone's page would have to."""
    st.set_page_config(page_title=PAGE_TITLE, page_icon=PAGE_ICON, layout="centered",
                       initial_sidebar_state="collapsed")

DEBUG_ENV = "MUSTER_DEBUG"  # "1" (`muster app --debug`): every seat may also type a move, for developers


def debugging() -> bool:
    """Whether the developers' controls show (`DEBUG_ENV`): the typed move, the lobby's options as JSON."""
    return os.environ.get(DEBUG_ENV) == "1"


@st.cache_resource(show_spinner=False)
def _tables_for(target: str) -> Tables:
    service = Tables(open_store(target))
    service.store.watch_changes(live.teller(service.store))  # another server's move: this server's phones are told
    service.entries()  # every game's data and engine, loaded once for the process
    gc.freeze()  # ...and kept out of every later collection, which then has far fewer objects to walk
    return service


def tables() -> Tables:
    """The table service for this process's database: MUSTER_DATABASE_URL, else the data folder's SQLite file."""
    return _tables_for(database_target(None, default_data_dir()))
