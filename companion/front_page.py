"""The page a phone opens first: Streamlit's own front page (`index.html`), with the companion's styles in it.

Why: the styles (`context.PHONE_CSS`) were an `st.html` element at the top of every run. On a first visit that
element cost the phone a script fetched late (Streamlit's HTML element and its sanitiser), React and styling
work, and the page showed unstyled until it arrived; every full redraw sent it again. In the front page, the
phone reads the styles once, before Streamlit's scripts run, and the tab title reads "Muster" from the start.
They close the body, where the element had them: after the styles Streamlit adds to the head as it draws, so a
rule of ours wins a tie with one of Streamlit's as it did.

`companion.routes` serves this for the app's address (`/`, or the base path); every other path is Streamlit's
as before, and Streamlit answers any path with its own front page (`/index.html`, a mistyped `/tables`), so a
phone that opened one of those did not get the styles. The app draws them as an element, as it did, wherever
the phone's page was not ours (`styles_in_page`): another path, a Streamlit front page that cannot take them
(no `</body>` in it), or no route at all (the AppTest harness).
"""

from __future__ import annotations

import functools
import html
from typing import Any
from urllib.parse import urlsplit

import streamlit as st

from companion import context, paths, streamlit_adapter

NO_CACHE = "no-cache"  # as Streamlit serves its front page: the scripts it names change with each release


@functools.cache
def markup() -> str | None:
    """Streamlit's front page with the companion's title and styles, or None where it has no body to add them to
    (the app then draws the styles itself)."""
    index = streamlit_adapter.index_html()
    page = index.read_text(encoding="utf-8") if index is not None else ""
    if "</body>" not in page:
        return None
    page = page.replace("<title>Streamlit</title>", f"<title>{html.escape(context.PAGE_TITLE)}</title>", 1)
    return page.replace("</body>", f"{context.PHONE_CSS.strip()}\n</body>", 1)


def styles_in_page() -> bool:
    """Whether this phone got the page's styles with the front page, so the app need not draw them: the route
    answers the app's own address only (a proxy that serves the app under a path of its own makes the phone's
    address another; there the app draws them too, once more than needed)."""
    if not paths.installed() or markup() is None:
        return False
    url = st.context.url  # the phone's address, without its query and its last "/"
    return url is not None and urlsplit(url).path.rstrip("/") == paths.here("").rstrip("/")


async def serve(request: Any) -> Any:
    """GET the front page: Streamlit's, with the styles (`companion.routes` serves it only where `markup()`
    has one; elsewhere Streamlit answers with its own)."""
    from starlette.responses import HTMLResponse

    return HTMLResponse(markup(), headers={"Cache-Control": NO_CACHE})
