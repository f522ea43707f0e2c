"""The parts of a table's page around the table itself: who this phone is, the free seats, the host's seat
links, moving a seat to another phone and inviting spectators.

A move does not redraw these (they sit outside the table part, `table_page._table`); each QR code is
made only while its fold is open (`folds.folded`).
"""

from __future__ import annotations

import streamlit as st

from companion import bot_seats, folds, links, taps
from companion import render as draw
from companion.components import movepad, surface
from companion.render import plain
from companion.store import Seat, TableInfo
from companion.tables import Tables


def header(service: Tables, table: TableInfo, seat: Seat | None, hosting: bool, bad_seat_link: bool,
            bad_host_link: bool) -> None:
    """The game and code, a link that did not work, and who this phone is: one element (a surface), where
    Markdown elements cost a phone's first visit a Markdown renderer's work for each."""
    with surface.drawing("head"), draw.Sheet() as head:
        head.markdown(f"### {plain(service.game_name(table.game))} · `{table.code}`")
        if bad_seat_link:
            head.note("warning", "This seat link no longer works here (the host may have re-issued the seat, or the "
                      "link is wrong); you are watching as a spectator. Ask the host for the seat's new link, or "
                      "take a free seat.")
        if bad_host_link:
            head.note("warning", "This host link is not valid for this table; you are watching as a spectator.")
        if seat is not None:
            head.caption(f"You {'are' if table.playing else 'played'} **{plain(seat.name)}**.")
        elif hosting:
            head.caption("You are the host: this phone watches until you take a seat below.")
        else:
            head.caption("You are watching as a spectator.")


LOBBY = movepad.Choice("lobby", "⬅ Lobby", None)


def take_seat(service: Tables, table: TableInfo, joining: bool) -> None:
    """Joining by code: the seats nobody has claimed yet, and watching; a spectator's page keeps the offer folded.
    One element (a surface, its buttons a pad), as the page's foot is (`foot` says why)."""
    free = table.free_seats
    if not free and not joining:
        return
    seats = {f"take-{s.seat}": s.seat for s in free}
    items = [movepad.Choice(f"take-{s.seat}", f"Take seat: {s.name}", s.seat, primary=True) for s in free]
    if joining:
        items.append(movepad.Choice("watch", "Watch as spectator", None))

    def tapped(tap: movepad.Tap) -> None:
        if tap.id == "watch" and joining:
            links.go(table=table.code)
        elif tap.id in seats:  # the seat as this server drew it, never a number the phone sent
            taps.claim(service, table.id, seats[tap.id], None)

    box = surface.group("join-seats") if joining else surface.group("free-seats", fold=f"Free seats ({len(free)})")
    with surface.drawing("seats"), box:
        if not free:
            with draw.Sheet() as sheet:
                sheet.note("info", "Every seat is taken. If yours was lost with a phone, ask the host to re-issue it.")
        surface.pad(movepad.pad(items, "take-seat", movepad.NO_POSITION, title="Which seat is yours?" if joining else None,
                                boxed=joining), tapped)


def host_tools(service: Tables, table: TableInfo, host: str | None, expanded: bool) -> None:
    """The creator's phone: each seat's link and QR code until a phone claims it (never after), and re-issuing a seat.

    A claimed seat's link is never shown again, so the host cannot look at another player's hand or act
    for them through it. A seat whose phone was lost gets a new link instead, which the host holds: whoever
    opens it sees that seat's cards, the host included. So re-issuing is said plainly to every phone
    (`Tables.reissue`, `REISSUED`), and so is the new link being opened (`Tables.hold`).
    """
    with st.expander("Host: hand out the seats", expanded=expanded):
        st.write("Each player scans their own seat's code (or opens its link, or joins by the code and takes "
                 "a free seat). Once a phone has taken a seat, its link is not shown here again.")
        st.caption("Keep this page's address: it is the host link, the only way back to the seats not taken yet.")
        for s in table.seats:
            if bot_seats.level_of(s):
                st.markdown(f"**{plain(bot_seats.shown_name(s))}** · played by a bot on the server")
            elif s.claimed:
                st.markdown(f"**{plain(s.name)}** · taken")
            else:
                url = links.link(table=table.code, seat=s.token)
                state = f"re-issued: give {plain(s.name)} this new link" if s.reserved else "free"
                st.markdown(f"**{plain(s.name)}** · {state} — [open this seat]({url})")
                st.image(links.qr_png(url, box=5), width=200, alt=f"QR code of {plain(s.name)}'s seat link")
                if table.playing and not s.reserved:
                    st.button(f"I am {plain(s.name)}: play on this phone", on_click=taps.claim, width="stretch",
                              args=(service, table.id, s.seat, host), key=f"host-take-{s.seat}")
            if table.playing and (s.claimed or s.reserved):
                with st.popover(f"Re-issue {plain(s.name)}'s seat", width="stretch"):
                    st.write(f"Give {plain(s.name)}'s seat a new link? The old link stops working at once (for a "
                             "phone that was lost or handed to the wrong player). You will hold the new link, so "
                             f"you could see {plain(s.name)}'s cards: every phone is told so.")
                    st.button("Yes, re-issue it", key=f"reissue-{s.seat}", on_click=taps.reissue,
                              args=(service, table.id, s.seat, host), width="stretch")
            if table.playing and not bot_seats.level_of(s):
                with st.popover(f"Hand {plain(s.name)}'s seat to a bot", width="stretch"):
                    st.write(f"A bot plays {plain(s.name)}'s seat from its next turn (a player who left, or practice); "
                             "every phone is told. Re-issue the seat to take it back.")
                    for level in bot_seats.LEVELS:
                        st.button(f"Bot ({level})", key=f"to-bot-{s.seat}-{level}", on_click=taps.to_bot,
                                  args=(service, table.id, s.seat, level, host), width="stretch")


def foot(table: TableInfo, seat: Seat | None) -> None:
    """The page's foot, under the table: moving this seat to another phone, inviting spectators (both folded), and
    back to the lobby, as one element (a surface) rather than two expanders and a button. A button is the page's
    only `st.button` at a seat, and on a phone's first visit Streamlit shows none of a page's elements that load a
    script of their own (the surfaces, the button) until all of theirs have come and run: the table waited for
    the button's script, fetched last (docs/performance.md, "The lobby's first screen")."""
    with surface.drawing("foot"):
        if seat is not None:
            move_seat(table, seat)
        share(table)
        surface.pad(movepad.pad([LOBBY], "to-lobby", movepad.NO_POSITION), lambda tap: links.go() if tap.id == LOBBY.id else None)


def move_seat(table: TableInfo, seat: Seat) -> None:
    """This seat's own link as a QR code, to carry the seat to another phone (the link is the seat).

    Folded lazily (`folds.folded`): its image is made, sent and laid out only when opened."""
    box, opened = folds.folded("Move this seat to another phone", "seat-move-box")
    if not opened:
        return
    with box:
        url = links.link(table=table.code, seat=seat.token)
        st.write("Scan this on the other phone, or open the link there. Keep it private: it plays your seat.")
        st.image(links.qr_png(url, box=5), width=220, alt="QR code of your seat's link")
        st.code(url, language=None)


def share(table: TableInfo) -> None:
    """The table's spectator link and QR code, folded lazily like `move_seat`."""
    box, opened = folds.folded("Invite spectators", "share-box")
    if not opened:
        return
    with box:
        url = links.link(table=table.code)
        st.write(f"Join code **{table.code}**, or scan:")
        st.image(links.qr_png(url), width=220, alt="QR code of the table's spectator link")
        st.code(url, language=None)
