"""Links to the companion's pages (the QR codes printed and shown carry them) and moving between pages.

Navigation changes query parameters in place (no page reload), so a phone keeps its session; every
URL is also a deep link that works when opened cold.
"""

from __future__ import annotations

import functools
import io
import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode, urlsplit

import qrcode
import streamlit as st


def base_url() -> str:
    """The address printed in QR codes: MUSTER_URL (set by `muster app`), else what the browser used, with its path
    (the companion is one page, so the path is where it is served: a base path or a proxy's prefix)."""
    env = os.environ.get("MUSTER_URL")
    if env:
        return env.rstrip("/")
    try:
        url = st.context.url or ""
    except Exception:  # outside a browser session (AppTest) there is no URL
        url = ""
    if url:
        parts = urlsplit(url)
        if parts.scheme and parts.netloc:
            return f"{parts.scheme}://{parts.netloc}{parts.path}".rstrip("/")
    return "http://localhost:8501"


def link(**params: Any) -> str:
    """An absolute link to a companion page with these query parameters."""
    clean = {k: str(v) for k, v in params.items() if v is not None}
    return f"{base_url()}/?{urlencode(clean)}"


@functools.lru_cache(maxsize=512)
def qr_png(text: str, box: int = 8) -> bytes:
    """A QR code as PNG bytes, for st.image and for scanning from another phone."""
    code = qrcode.QRCode(border=2, box_size=box, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(text)
    code.make(fit=True)
    out = io.BytesIO()
    code.make_image(fill_color="black", back_color="white").save(out, format="PNG")
    return out.getvalue()


def go(**params: Any) -> None:
    """Move to another page of the app by replacing the query parameters (keeps the session)."""
    st.query_params.clear()
    st.query_params.update({k: str(v) for k, v in params.items() if v is not None})


def query() -> Mapping[str, str]:
    return {k: st.query_params[k] for k in st.query_params}
