"""The one place the companion reaches into Streamlit beyond its public API, each use with a public fallback.

Why a module of its own: an upgrade of Streamlit may move any private name. Every such use is here, checked
against the Streamlit version the companion was tested with (`TESTED`), so a test names what moved
(tests/test_streamlit_public.py fails on a private name anywhere else), and a server on another version logs
once that it takes the public path, which is slower but right.
"""

from __future__ import annotations

import logging

import streamlit as st

LOG = logging.getLogger("muster.companion")
TESTED = ("1.67",)  # the Streamlit releases (major.minor) whose internals this module was checked against


def tested() -> bool:
    """Whether this Streamlit is one whose internals this module was checked against; logged once when not."""
    release = ".".join(st.__version__.split(".")[:2])
    if release in TESTED:
        return True
    if not _warned:
        _warned.append(release)
        LOG.warning("Streamlit %s is not one the companion was tested with (%s): it uses only Streamlit's public "
                    "API, and its first page may take a little longer", st.__version__, ", ".join(TESTED))
    return False


_warned: list[str] = []


def warm_up(page_icon: str) -> None:
    """Read Streamlit's emoji catalogue once, at start-up, rather than in the first page's run (0.15 s there):
    `st.set_page_config` reads it to tell an emoji icon from a file name. Public fallback: nothing, and the
    first page reads it."""
    if not tested():
        return
    try:
        from streamlit.string_util import is_emoji
    except ImportError:
        LOG.warning("Streamlit's emoji catalogue moved; the first page reads it itself")
        return
    is_emoji(page_icon)
