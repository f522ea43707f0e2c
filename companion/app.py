"""The companion's entry script (`muster app` runs it with Streamlit): routes by query parameters.

`?table=CODE[&seat=TOKEN][&host=TOKEN][&join=1]` is a table (join: offer the free seats), `?game=G&card|combo|rule|section|sheet=…` a look-up
page (the printed QR codes carry these), `?page=lookup` the search, `?page=balance` the latest balance reports, `?page=record` a game record's replay, anything else the lobby.
"""

from __future__ import annotations

import logging

import streamlit as st

from companion import context, faults, links, page_styles, paths, lobby, lookup_page, replay, table_page
from companion.store import StoreError, StoreUnavailable, for_phones
from companion.tables import Tables

LOG = logging.getLogger("muster.companion")


def main() -> None:
    context.configure_page()
    if not paths.installed():  # else the page Streamlit served links them (`page_styles`)
        for sheet in page_styles.STYLE_SHEETS:  # styles only: no Markdown (and no raw-HTML parser) to load
            st.html(sheet)
    try:
        service = context.tables()
    except StoreUnavailable as err:  # logged where it arose, with the path or URL the phone is not shown
        st.error(f"The table store cannot be opened. {faults.trouble(err)}")
        st.button("Try again", key="store-retry", width="stretch")
        faults.until_back()
        return
    except (OSError, StoreError) as err:
        LOG.warning("the table store cannot be opened: %s", getattr(err, "full", err))
        st.error(f"The table store cannot be opened: {faults.trouble(err)}")
        st.button("Try again", key="store-retry", width="stretch")
        return
    if service.store.notice:
        st.warning(for_phones(service.store.notice, service.store.location))
    faults.shielded(lambda: route(service))  # busy, full, deleted, a bug: a plain message and a retry


def route(service: Tables) -> None:
    """The page a link asks for (see the module docstring)."""
    params = links.query()
    if "table" in params:
        table_page.render(service, params["table"], params.get("seat"), params.get("host"), "join" in params)
    elif "game" in params and lookup_page.is_deep_link(params):
        lookup_page.render_entry(params)
    elif params.get("page") == "lookup":
        lookup_page.render_search()
    elif params.get("page") == "balance":
        # Imported here, not above: its charts load pandas and Altair (about 0.3 s), which no table or lobby
        # page needs, and the first phone after a start must not wait for them (tests/test_surface.py).
        from companion import balance_page
        balance_page.render()
    elif params.get("page") == "record":
        replay.render_record(service)
    else:
        lobby.render(service)


main()
