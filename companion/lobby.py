"""The home page, after the hexbattle seed's online lobby: tables in progress, players' wins and losses, new table, join by code."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from cards import options as table_options
from companion import bot_seats, context, devices, flashes, links, options_form, paths, your_tables
from companion.names import NAME_LIMIT
from companion.render import ago, plain
from companion.store import StoreError
from companion.tables import TABLE_OPTIONS, Tables
from engine.core import Refusal


LOBBY_TABLES = 30  # the most recently active tables in progress; the lobby reads only these

PERSON = "player"
SEAT_KINDS = [PERSON, *bot_seats.LEVELS]
"""Who plays a seat, in the new-table form: a person (the first, chosen unless changed), or a bot of a level."""

DRAWN = "lobby-drawn"  # session key: this session has drawn the lobby's first screen (`_form_now`)

OPTIONS_LIMIT = 2_000  # characters of a table's advanced options (real ones are a few dozen); Streamlit cuts
# a longer value sent for the box to this length, so a forged form gets "not valid JSON"


def render(service: Tables) -> None:
    st.title("⚔️ Muster")
    flashes.show_flashes()
    mine = your_tables.render(service)
    _join_form(service)
    st.button("Look up a card, combo or rule", on_click=links.go, kwargs={"page": "lookup"}, width="stretch",
              key="to-lookup")
    st.button("Balance reports", on_click=links.go, kwargs={"page": "balance"}, width="stretch", key="to-balance")
    st.button("Replay a game record", on_click=links.go, kwargs={"page": "record"}, width="stretch",
              key="to-record")
    _tables_in_progress(service, mine)
    _finished_tables(service, mine)
    _records(service)
    _new_table_form(service)
    devices.device_probe()  # last: which seats are this phone's (`your_tables`); its report redraws the lobby
    st.session_state[DRAWN] = True


def _form_now() -> bool:
    """Whether this run draws the new-table form's widgets. A phone's first run of the lobby does not, on a server
    that serves it to a browser (`paths.installed`; the AppTest harness has none): the form's widgets are four
    kinds of element that nothing above it uses (select box, radio, number input, toggle), and on a first visit a
    phone fetches and runs each kind's scripts as it meets it, while Streamlit shows none of the page's widgets
    until every one's scripts have run (a grey skeleton each till then). So the form, at the foot of the page, held
    back every button of the first screen (docs/performance.md, "The lobby's first screen"). The device probe's
    report, which every first visit makes at once, runs the page again, and from that run on the form is drawn
    (also from any run after the first: a tap on the first screen)."""
    return not paths.installed() or devices.device() is not None or bool(st.session_state.get(DRAWN))


def _join_form(service: Tables) -> None:
    with st.form("join", border=True):
        code = st.text_input("Join a table by its code", max_chars=12, placeholder="e.g. K7MPQ", key="join-code")
        if st.form_submit_button("Join", type="primary", width="stretch"):
            table = service.store.table_by_code(code)
            if table is None:
                st.error(f"No table has the code '{code.strip()}'. Codes are five letters and digits, "
                         "shown on the table's page.")
            else:
                links.go(table=table.code, join=1)
                st.rerun()


def _tables_in_progress(service: Tables, mine: set[int]) -> None:
    st.header("Tables in progress")
    playing = [t for t in service.store.tables("playing", limit=LOBBY_TABLES) if t.id not in mine]
    if not playing:
        st.caption("No other tables in progress. Start one below." if mine else "No tables in progress. Start one below.")
    your_tables.table_buttons("lobby-playing", [
        (f"watch-{table.code}", f"{service.game_name(table.game)} · {table.code} — "
         f"{', '.join(s.name for s in table.seats)} · active {ago(table.last_activity)}", {"table": table.code}, False)
        for table in playing])


def _finished_tables(service: Tables, mine: set[int]) -> None:
    """Ended tables with their results, most recent first; each opens as the table it was."""
    ended = [t for t in service.store.tables("ended", limit=LOBBY_TABLES) if t.id not in mine]
    if not ended:
        return
    st.header("Finished tables")
    your_tables.table_buttons("lobby-ended", [
        (f"ended-{table.code}", f"{service.game_name(table.game)} · {table.code} — "
         f"{', '.join(s.name for s in table.seats)} · {your_tables.result(table)}", {"table": table.code}, False)
        for table in ended])


def _records(service: Tables) -> None:
    """Wins and losses per game, per player named at that game's tables."""
    by_game = service.store.records_by_game()
    if not by_game:
        return
    st.header("Players")
    for game, records in sorted(by_game.items(), key=lambda item: service.game_name(item[0])):
        st.markdown(f"**{plain(service.game_name(game))}**")
        rows = ["| Player | W | L | D |", "|---|---:|---:|---:|"]
        rows += [f"| {plain(r.name)} | {r.wins} | {r.losses} | {r.draws} |" for r in records[:50]]
        st.markdown("\n".join(rows))


def _new_table_form(service: Tables) -> None:
    st.header("New table")
    entries = list(service.entries().values())
    playable = [g for g in entries if g.id in service.game_ids()]
    for g in entries:
        if g.id not in service.game_ids() and g.problem:
            st.caption(f"{g.name}: not playable yet — {g.problem}.")
    if not playable:
        st.info("No game can be played yet.")
        return
    if not _form_now():
        return
    by_id = {g.id: g for g in playable}  # the widget holds the id: Streamlit copies a widget's value on every run
    game = by_id[st.selectbox("Game", list(by_id), format_func=lambda g: by_id[g].name, key="new-game")]
    low = game.data.min_players if game.data else 2
    high = game.data.max_players if game.data else 2
    count = low if low == high else st.number_input("Players", min_value=low, max_value=high, value=low, step=1,
                                                   key=f"new-count-{game.id}")
    preset = options_form.preset(game.data) if game.data else None
    # Who plays each seat is chosen outside the form, so a bot's seat asks for no name (a form redraws on submit only)
    picked = [st.selectbox(f"Seat {i + 1} is played by", SEAT_KINDS, key=f"seat-kind-{game.id}-{i}",
                           format_func=_seat_kind, help="A bot plays on the server, at the level chosen; its seat is "
                           "named after it. One phone against bots is a solo game.") for i in range(int(count))]
    kinds = [None if kind == PERSON else kind for kind in picked]
    with st.form(f"new-{game.id}", border=True):
        names = [st.text_input(f"Seat {i + 1} name", value="", placeholder=f"Player {i + 1}", key=f"seat-{game.id}-{i}",
                               max_chars=NAME_LIMIT) if kind is None else "" for i, kind in enumerate(kinds)]
        chosen = options_form.fields(game.data, preset, int(count)) if game.data else {}
        own = {key: st.toggle(label, value=False, key=f"opt-{key}-{game.id}", help=about)  # the table's own switches
               for key, (label, about) in TABLE_OPTIONS.items()}
        raw = "{}"
        if context.debugging():  # developers only (`muster app --debug`): players use the fields above
            with st.expander("Debug: options (JSON)"):
                raw = st.text_area("Options (JSON)", value="{}", key=f"opts-{game.id}", max_chars=OPTIONS_LIMIT,
                                   help="Engine options, merged over the fields above. Leave {} for the standard game.")
        if st.form_submit_button("Create table", type="primary", width="stretch"):
            wrong = options_form.problems(game.data, chosen, int(count)) if game.data else []
            if wrong:
                st.error(" ".join(wrong))
                return
            _create(service, game.id, names, raw, int(count), low != high,
                    {**table_options.engine_options(chosen), **own}, kinds)


def _seat_kind(kind: str) -> str:
    return "Player" if kind == PERSON else f"Bot ({kind})"


def _create(service: Tables, game_id: str, names: list[str], raw: str, count: int, variable: bool,
            chosen: dict[str, Any], kinds: list[str | None]) -> None:
    seat_names = bot_seats.names(kinds, [n.strip() or f"Player {i + 1}" for i, n in enumerate(names)])
    try:
        options: Any = json.loads(raw or "{}")
    except json.JSONDecodeError as err:
        st.error(f"The options are not valid JSON ({err.msg} at character {err.pos}).")
        return
    except RecursionError:
        st.error("The options nest too deeply; an option is a number, a word, or a short list.")
        return
    if not isinstance(options, dict):
        st.error("The options must be a JSON object, like {\"first_player\": 0}.")
        return
    options = {**chosen, **options}
    if variable:
        options.setdefault("players", count)
    try:
        table = service.create(game_id, seat_names, options, bots={i: k for i, k in enumerate(kinds) if k})
    except (Refusal, StoreError) as err:
        st.error(str(err))
        return
    people = [s for s in table.seats if not bot_seats.level_of(s)]
    if len(people) == 1 and len(table.seats) > 1:  # solo play: the creator's phone goes straight to its seat
        links.go(table=table.code, seat=people[0].token, host=table.host_token)
    else:
        links.go(table=table.code, host=table.host_token)
    st.rerun()
