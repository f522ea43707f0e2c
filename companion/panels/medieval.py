"""Reenforcements (Medieval Edition) at the table: the three columns with totals, the piles, the last battle, and the
engine's suggested placement of your face-down reenforcements (`engine.medieval.expected_outcomes`)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

import streamlit as st

from companion.components import movepad
from companion.page import Page
from companion.panels.common import card_label, card_names, mark_seen, named, news
from companion.render import Sheet, plain
from companion.render import private as render_private
from companion.table_context import TableContext, move_key
from engine.medieval import Decision, LaidBattle, MedievalState, Outcome, expected_outcomes

def render(ctx: TableContext) -> None:
    news(ctx)
    view = ctx.view()
    names = card_names(ctx.data)
    players = view["players"]
    decks = [f"{ctx.name(p)} ({players[p]['deck_name']})" for p in (0, 1)]
    me = ctx.player
    if _result_first(ctx, view):  # the next battle waits until this viewer has taken in the last one
        ctx.moves(lambda ctx, legal: None)
        return
    with ctx.page.sheet() as sheet, sheet.box():  # the field: the opponent's side above, this phone's below
        sheet.markdown(f"**Battle {view['battle']}:** {decks[0]} vs {decks[1]}")
        _grid(ctx, view["columns"], sheet)
    outcomes = _outcomes(ctx, me)  # the ★ and the suggestion in words read the same ranking, worked out once
    # this seat's side of the field and its hand: pads only, so part of the table's one element
    ctx.moves(partial(_placements, view=view, outcomes=outcomes))
    with ctx.page.sheet() as sheet:  # what no one taps, as one element
        rows = []
        for p in (0, 1):
            pl = players[p]
            hand = pl["hand"] if isinstance(pl["hand"], int) else len(pl["hand"])
            state = "placed" if pl["committed"] else "placing"
            rows.append(f"- **{decks[p]}**: {pl['cards_left']} cards left · deck {pl['deck']} · hand {hand} ({state}) · "
                        f"survivors {len(pl['survivors'])} · graveyard {len(pl['graveyard'])}"
                        + (f" · beside: {named(pl['beside'], names)}" if pl["beside"] else ""))
        sheet.markdown("\n".join(rows))
        if me is not None:
            mine = players[me]
            secret = {"your_reenforcements": named(mine["hand"], names)}
            if mine["placement"]:
                secret["you_placed"] = ", ".join(
                    f"{names.get(c, c)} {view['columns'][i]['name']}" for i, c in enumerate(mine["placement"]) if c)
            render_private(me, secret, ctx.names, sheet=sheet)
            _advice(ctx, view, outcomes, sheet)
    if view["battles"] and not view["over"]:
        with ctx.page.sheet() as sheet, sheet.box(key="last-battle", summary=f"Battle {view['battles'][-1]['battle']} result"):
            _results(ctx, view, sheet)


def _result_first(ctx: TableContext, view: dict[str, Any]) -> bool:
    """The battle(s) just fought, at the top with every card that decided them, until this viewer moves on
    ("On to battle N", kept per browser session and seat as the news strip's "Seen" is, or a placement already
    made for the next battle); True while the next battle is held back. The war's last battle stays there for good; a replay shows its step as it stands."""
    if not view["battles"]:
        return False
    key = f"medieval-result-{ctx.table.id}-{ctx.player}"
    last = view["battles"][-1]["battle"]
    moved_on = ctx.player is not None and view["players"][ctx.player]["committed"]  # placed for the next battle
    held = ctx.table.playing and not view["over"] and not moved_on and st.session_state.get(key, 0) < last
    if not (held or view["over"]):
        return False
    with ctx.page.sheet() as sheet, sheet.box(key="battle-result"):
        _results(ctx, view, sheet)
    if held:
        ctx.page.pad(movepad.pad([movepad.Choice("next", f"On to battle {view['battle']}", last, primary=True)],
                                 "medieval-result", ctx.snap.head), partial(mark_seen, key))
    return held


def _results(ctx: TableContext, view: dict[str, Any], sheet: Sheet) -> None:
    """Each battle fought since the last decision: its columns as laid, every card named (tie cards and inert
    Events marked), each column's total and who took it, and the Events that stood beside the field."""
    names = card_names(ctx.data)
    for report in view["battles"]:
        sheet.markdown(f"**Battle {report['battle']}: the result**")
        _grid(ctx, report["columns"], sheet, outcome=True)
        beside = [f"{names.get(c, c)} ({ctx.name(p)})" for p in (0, 1) for c in report["beside"][p]]
        if beside:
            sheet.markdown(f"Beside the field: {', '.join(beside)}")
    sheet.caption("Winning cards go to their owner's Survivors; beaten cards to the Graveyard.")


def _placements(ctx: TableContext, legal: list[Any], view: dict[str, Any], outcomes: list[Outcome]) -> None:
    """The placement as at the table: tap a card of your hand, then the column it goes to (your side of each
    column, facing the opponent's above). Cards laid so far wait on this phone; the tap that settles the whole
    placement is the move, through the seat's move pad (and its question, which names the placement). The
    engine's suggestion is a ★ on the card's suggested column, never a move made for the player."""
    state, me = ctx.state, ctx.player
    if me is None:  # moves are drawn only for a seat
        return
    names = card_names(ctx.data)
    columns = [c["name"] for c in view["columns"]]
    key = f"medieval-draft-{ctx.table.id}-{me}-{view['battle']}"
    draft = _draft(key, view["players"][me]["hand"], legal)
    hand, placed = view["players"][me]["hand"], draft["placed"]
    chosen: str | None = draft["chosen"] or _only([c for c in hand if c not in placed])
    fits = [a for a in legal if all(a["cards"][col] == cid for cid, col in placed.items())]
    best = next((o.action for o in outcomes if o.action in fits), None)  # the ★ follows the cards laid so far
    held = {col: cid for cid, col in placed.items()}
    star = {} if best is None else {cid: col for col, cid in enumerate(best["cards"]) if cid is not None}
    items: list[movepad.Item] = []
    final = False
    for col, name in enumerate(columns):
        mark = "★ " if chosen is not None and star.get(chosen) == col else ""
        label = f"{mark}{name.capitalize()}" + (f": {names.get(held[col], held[col])}" if col in held else "")
        if col in held or chosen is None:
            items.append(movepad.Choice(f"col-{col}", label, None, disabled=True))
            continue
        settled = [a for a in fits if a["cards"][col] == chosen]
        if len(settled) == 1:  # this tap settles the placement: the move, asked about as any move
            final = True
            choice = ctx.choice(label, settled[0], move_key(settled[0]), primary=bool(mark))
            if choice.ask is not None:
                choice = replace(choice, ask=(f"{state.label(settled[0])}. {choice.ask[0]}", choice.ask[1]))
            items.append(choice)
        else:
            items.append(movepad.Choice(f"col-{col}", label, col, primary=bool(mark)))
    lines = [f"Tap the column for {names.get(chosen, chosen)}." if chosen else "Tap a card of your hand, then its column."]
    if final and chosen is not None:  # a placement is settled only by a column tap for a chosen card
        ctx.pad(items, "move-list", title="Your side of the field", columns=len(columns),
                note=f"Tap the column for {names.get(chosen, chosen)}: your placement is then whole and goes face down.")
    else:
        ctx.page.pad(movepad.pad(items, "medieval-field", ctx.snap.head, title="Your side of the field", lines=lines,
                                 columns=len(columns)), partial(_laid, key, chosen))
    cards = [movepad.Choice(f"card-{cid}", ("✓ " if cid == chosen else "") + names.get(cid, cid)
                            + (f" · ★ {columns[star[cid]]}" if cid in star else ""), cid, primary=cid == chosen)
             for cid in hand if cid not in placed]
    if placed:
        cards.append(movepad.Choice("again", "Take the laid cards back", "again"))
    ctx.page.pad(movepad.pad(cards, "medieval-hand", ctx.snap.head, title="Your reenforcements (face down): tap one",
                             columns=min(3, max(1, len(cards)))), partial(_picked, key))


def _only(cards: list[str]) -> str | None:
    """The one card left to lay, which needs no tap to be chosen (its column still does)."""
    return cards[0] if len(cards) == 1 else None


def _draft(key: str, hand: list[str], legal: list[Any]) -> dict[str, Any]:
    """The cards laid so far on this phone for this battle (nothing is sent until the placement is whole); what
    no longer fits the hand is dropped."""
    draft: dict[str, Any] = st.session_state.setdefault(key, {"chosen": None, "placed": {}})
    if draft["chosen"] not in hand:
        draft["chosen"] = None
    draft["placed"] = {c: col for c, col in draft["placed"].items() if c in hand}
    if not any(all(a["cards"][col] == c for c, col in draft["placed"].items()) for a in legal):
        draft["placed"] = {}
    return draft


def _picked(key: str, tap: movepad.Tap) -> None:
    """A card of the hand tapped: it is the one to lay next; "again" takes the laid cards back to the hand."""
    draft = st.session_state.setdefault(key, {"chosen": None, "placed": {}})
    if tap.value == "again":
        draft.update(chosen=None, placed={})
    elif isinstance(tap.value, str):
        draft["chosen"] = tap.value


def _laid(key: str, chosen: str | None, tap: movepad.Tap) -> None:
    """A column tapped with a card chosen: the card waits there, face down, on this phone."""
    draft = st.session_state.setdefault(key, {"chosen": None, "placed": {}})
    if chosen is not None and type(tap.value) is int:
        draft["placed"][chosen] = tap.value
        draft["chosen"] = None


def tools(page: Page, game: Any, data: Any) -> None:
    """Under the table part of the page: the resolver for a battle of printed cards."""
    resolver(page, game, card_names(data), data)


def _outcomes(ctx: TableContext, me: int | None) -> list[Outcome]:
    """This seat's placements ranked best first (`engine.medieval.expected_outcomes`), or none when it has no
    placement to make: asked once a draw, for the ★ (`_placements`) and the suggestion in words (`_advice`)."""
    state = ctx.state_as(MedievalState)
    if me is None or state.is_terminal or me not in state.players_to_act():
        return []
    return expected_outcomes(state, me)


def _advice(ctx: TableContext, view: dict[str, Any], outcomes: list[Outcome], sheet: Sheet) -> None:
    """The engine's best placement for this seat, in words (★ on the cards and columns above)."""
    if not outcomes:
        return
    state, best = ctx.state, outcomes[0]
    chances = ", ".join(f"{c['name']} {p:.0%}" for c, p in zip(view["columns"], best.per_column, strict=False))
    with sheet.box():
        sheet.markdown(f"**Suggested:** {state.label(best.action)}  \n"
                       f"expected columns won {best.expected_columns:.1f} · chance per column: {chances}")
        sheet.caption("A suggestion: ★ marks each card's suggested column above; the choice is yours.")


def _grid(ctx: TableContext, columns: list[dict[str, Any]], sheet: Sheet, outcome: bool = False) -> None:
    """Columns as two rows of cards facing each other: the opponent's row on top, this phone's below (a
    spectator sees the first seat below), each cell with its total and cards; with `outcome`, a last row
    says who took each column."""
    me = ctx.player if ctx.player is not None else 0
    index = ctx.data.card_index

    def card(e: dict[str, Any]) -> str:
        name = plain(index[e["card"]].name if e["card"] in index else e["card"])
        return name + (" (tie card)" if e.get("tie") else "") + ("" if e["counts"] else " (event, counts 0)")

    def cell(column: dict[str, Any], p: int) -> str:
        total = column["totals"][p]
        return f"**{'—' if total is None else total}** {', '.join(card(e) for e in column['cards'][p]) or '—'}"

    def took(column: dict[str, Any]) -> str:
        ties = f" after {column['tie_rounds']} tie round{'s' * (column['tie_rounds'] > 1)}" if column["tie_rounds"] else ""
        if column["winner"] is None:
            return ("deadlock: both lose their cards" if column["outcome"] == "deadlock" else "empty") + ties
        return f"**{ctx.name(column['winner'])}**" + (" unopposed" if column["outcome"] == "unopposed" else "") + ties

    head = "| Side | " + " | ".join(c["name"].capitalize() for c in columns) + " |"
    rows = [f"| {ctx.name(p)} | " + " | ".join(cell(c, p) for c in columns) + " |" for p in (1 - me, me)]
    if outcome:
        rows.append("| Taken by | " + " | ".join(took(c) for c in columns) + " |")
    sheet.markdown("\n".join([head, "|---" * (len(columns) + 1) + "|", *rows]))


PLACES = {"opening": "opening card", "reenforcement": "reenforcement (face down)", "tie": "tie card",
          "beside": "Event beside the field", "hand": "in my hand (for advice)"}
SIDES = ("Me", "Opponent")


def resolver(page: Page, game: Any, names: dict[str, str], data: Any) -> None:
    """A battle of printed cards: tap each card where it lies; the engine totals the columns, breaks ties and advises.

    The taps build an engine position (`MedievalState`): opening cards count with their Events,
    reenforcements are laid inert, Events beside the field act on every column. Tie cards are
    kept round by round and handed to `resolve_laid`, which re-counts, keeps decided columns
    decided and, once every column is decided, clears the field into Survivors and Graveyards.
    """
    box, opened = page.fold("Battle resolver (printed cards)", "resolver-box")
    if not opened:
        return
    with box:
        layout: dict[str, Any] = st.session_state.setdefault("resolver", _empty(game))
        side = _choice("Side", [0, 1], "resolver-side", lambda p: SIDES[p])
        place = _choice("Where", list(PLACES), "resolver-place", PLACES.get)
        column = 0
        if place in ("opening", "reenforcement", "tie"):
            column = _choice("Column", list(range(game.columns)), "resolver-col", lambda c: game.column_names[c])
        labels = {card.design.id: card_label(card, data) for card in game.cards}
        pick = f"resolver-pick-{st.session_state.setdefault('resolver-picks', 0)}"
        st.pills("Tap a card to add it", list(labels), format_func=lambda d: labels.get(d, d), key=pick,
                 on_change=_tap, args=(game, side, place, column, pick))
        note = st.session_state.pop("resolver-note", None)
        if note:
            st.warning(note)
        st.button("Clear the battle", key="resolver-clear", width="stretch", on_click=_clear, args=(game,))
        state = _position(game, layout)
        open_laid = state.resolve_laid(layout["ties"])
        exhausted = [c for c in open_laid.tied if st.session_state.get(f"resolver-out-{c}")]
        laid = state.resolve_laid(layout["ties"], exhausted) if exhausted else open_laid
        _draw_battle(game, names, layout, laid)
        if open_laid.tied:
            _tie_tools(game, layout, open_laid.tied)
        if laid.settled is not None and any(laid.state.table[c][p] for c in range(game.columns) for p in (0, 1)):
            _piles(game, names, laid.settled)
        if state.hands[0]:
            best = expected_outcomes(state, 0)[0]
            st.success(f"Best placement for your hand: {state.label(best.action)} "
                       f"(expected columns won {best.expected_columns:.1f})")


def _choice(label: str, options: list[Any], key: str, words: Any) -> Any:
    """A segmented choice that always holds one option: tapping the selected one again keeps it (Streamlit
    would clear it, and a card would then go somewhere the player did not see chosen)."""
    st.session_state.setdefault(key, options[0])
    st.session_state.setdefault(f"{key}-kept", options[0])
    st.segmented_control(label, options, format_func=words, key=key, on_change=_keep, args=(key,))
    return st.session_state[key]


def _keep(key: str) -> None:
    if st.session_state.get(key) is None:
        st.session_state[key] = st.session_state[f"{key}-kept"]
    st.session_state[f"{key}-kept"] = st.session_state[key]


def _draw_battle(game: Any, names: dict[str, str], layout: dict[str, Any], laid: LaidBattle) -> None:
    """Each column as laid, with the totals it was decided on (or stands at) and, once every reenforcement is
    laid and turned up (or the player says a side had fewer to lay), its verdict."""
    state = laid.state
    totals = state.totals()
    ties = [{card for rnd in layout["ties"] for col in rnd for card in col[p]} for p in (0, 1)]
    laid_all = all(sum(not active and i not in ties[p] for c in range(game.columns) for i, active in state.table[c][p])
                   >= game.reenforcements for p in (0, 1))
    if not laid_all:
        laid_all = st.toggle("Every reenforcement is laid and turned up (a side may have had fewer)",
                             key="resolver-revealed")
    lines = []
    for c in range(game.columns):
        decision = laid.decided[c]
        pair = decision[2] if decision is not None else (totals[0][c], totals[1][c])
        cells = []
        for p in (0, 1):
            cards = ", ".join(names.get(game.ids[i], game.ids[i])
                              + ("" if active else " (tie card)" if i in ties[p] else " (reenforcement)")
                              for i, active in state.table[c][p]) or "—"
            cells.append((cards, "—" if pair[p] is None else str(pair[p])))
        lines.append(f"- **{game.column_names[c].capitalize()}**: {cells[0][0]} **{cells[0][1]}** vs "
                     f"**{cells[1][1]}** {cells[1][0]}" + _verdict(decision, game, laid_all))
    beside = [names.get(game.ids[i], game.ids[i]) for p in (0, 1) for i in state.beside[p]]
    st.markdown("Me vs opponent:\n" + "\n".join(lines) + (f"\n\nBeside: {', '.join(beside)}" if beside else ""))


def _verdict(decision: Decision | None, game: Any, laid_all: bool) -> str:
    """The column's result, once both sides' reenforcements are laid; before that only who leads."""
    if not laid_all:
        return " — reenforcements still to lay"
    if decision is None:
        return (f" — **tied**: each side adds {game.tie_cards} card(s) from its deck; tap them in as tie cards "
                "(a tie card that says \"play another\" brings its next card: tap that too)")
    winner, outcome, _ = decision
    if outcome == "empty":
        return ""
    if outcome == "deadlock":
        return " — deadlock: both sides lose their cards"
    who = "I win" if winner == 0 else "they win"
    return f" — {who}" + (" unopposed" if outcome == "unopposed" else "")


def _tie_tools(game: Any, layout: dict[str, Any], tied: tuple[int, ...]) -> None:
    """For columns still tied: start the next tie round, or say that neither side can add a card (a deadlock)."""
    current = layout["ties"][-1] if layout["ties"] else None
    if current is not None and any(current[c][p] for c in tied for p in (0, 1)):
        st.caption("Still tied after this round's tie cards (and their chains)? Count again, then lay the next round.")
        st.button("Count again: next tie round", key="resolver-next-round", width="stretch",
                  on_click=lambda: layout["ties"].append(_round(game)))
    for c in tied:
        st.toggle(f"Neither side has a card left for the {game.column_names[c]} column", key=f"resolver-out-{c}")


def _piles(game: Any, names: dict[str, str], settled: Any) -> None:
    """Where this battle's cards go, as the engine cleared the field."""
    rows = [f"- **{SIDES[p]}**: Survivors {named([game.ids[i] for i in settled.survivors[p]], names)} · "
            f"Graveyard {named([game.ids[i] for i in settled.graveyard[p]], names)}" for p in (0, 1)]
    with st.container(border=True, key="resolver-piles"):
        st.markdown("**The battle is decided.** The cards go to:\n" + "\n".join(rows))


def _empty(game: Any) -> dict[str, Any]:
    return {"table": [[[], []] for _ in range(game.columns)], "beside": [[], []], "hand": [[], []], "ties": []}


def _round(game: Any) -> list[list[list[int]]]:
    return [[[], []] for _ in range(game.columns)]


def _clear(game: Any) -> None:
    st.session_state["resolver"] = _empty(game)
    st.session_state["resolver-revealed"] = False
    for c in range(game.columns):
        st.session_state.pop(f"resolver-out-{c}", None)


def _tap(game: Any, side: int, place: str, column: int, pick: str) -> None:
    """Add the next unused copy of the tapped design to the chosen place (each side has its own deck).

    Each tap gets a fresh chips widget (`resolver-picks` counts them): a chip cleared in place stays
    chosen in the browser, which sent it again with the next Side/Where/Column tap, and the card was
    laid a second time where the previous choice had been."""
    design = st.session_state.pop(pick, None)
    st.session_state["resolver-picks"] = st.session_state.get("resolver-picks", 0) + 1
    if not design:
        return
    layout = st.session_state.setdefault("resolver", _empty(game))
    used = ({i for col in layout["table"] for i, _ in col[side]} | set(layout["beside"][side])
            | set(layout["hand"][side]) | {i for rnd in layout["ties"] for col in rnd for i in col[side]})
    card = next((i for i, c in enumerate(game.cards) if c.design.id == design and i not in used), None)
    if card is None:
        st.session_state["resolver-note"] = f"Every copy of that card is already laid for {SIDES[side]}."
        return
    if place == "tie":
        # A tie card joins the round under way; the columns it may go to are those tied when that round began.
        state = _position(game, layout)
        tied = state.resolve_laid(layout["ties"][:-1]).tied
        if column not in tied:
            st.session_state["resolver-note"] = (f"The {game.column_names[column]} column is not tied; "
                                                 "tie cards go only to tied columns.")
            return
        if not layout["ties"]:
            layout["ties"].append(_round(game))
        layout["ties"][-1][column][side].append(card)
    elif place == "beside":
        layout["beside"][side].append(card)
    elif place == "hand":
        layout["hand"][side].append(card)
    else:
        layout["table"][column][side].append((card, place == "opening"))


def _position(game: Any, layout: dict[str, Any]) -> MedievalState:
    """The engine position the taps describe (tie cards apart); unseen cards stand in for the decks (the advice needs their make-up)."""
    state = MedievalState(game)
    state.table = [[list(map(tuple, side)) for side in col] for col in layout["table"]]
    state.beside = [list(b) for b in layout["beside"]]
    state.hands = [list(h[: game.reenforcements]) for h in layout["hand"]]
    ties = [{i for rnd in layout["ties"] for col in rnd for i in col[p]} for p in (0, 1)]
    for p in (0, 1):
        seen = {i for col in state.table for i, _ in col[p]} | set(state.beside[p]) | set(state.hands[p]) | ties[p]
        state.decks[p] = [i for i in range(len(game.ids)) if i not in seen]
    if state.hands[0]:
        state.hands[1] = state.decks[1][: game.reenforcements]
    return state
