"""Imperial battles at the table: each side's Imperial Power, Gold, Reinforcement marker and cards, the simultaneous
face-down picks (each on its own phone), and how the last round resolved — routs, Advanced Rifling and
reinforcements all as `engine.imperial` decided them. The battle's inputs are the table options (ruling R2)."""

from __future__ import annotations

from typing import Any

from companion.panels.common import news
from companion.render import Sheet
from companion.render import private as render_private
from companion.table_context import TableContext, move_key
from engine.core import Action

PHASES = {"exchange": "Exchanging", "buy": "Buying", "play": "Choosing face down",
          "infantry_loss": "Losing infantry", "rifling": "Advanced Rifling: naming a unit type", "over": "Battle over"}
"""Each of the engine's phases in words (tests/test_lookup_words.py checks every phase has them)."""
RESULTS = {"rout": "rout", "automatic": "automatic win (twice the Imperial Power)", "inconclusive": "inconclusive"}


def _counts(pile: dict[str, int] | None) -> str:
    if not pile:
        return "none"
    shown = [f"{n} {t.capitalize()}" for t, n in pile.items() if n]
    return ", ".join(shown) or "none"


def render(ctx: TableContext) -> None:
    news(ctx)
    view = ctx.view()
    rifling = " · **Advanced Rifling**" if view["advanced_rifling"] else ""
    with ctx.page.sheet() as sheet:  # what no one taps, as one element
        sheet.markdown(f"Game round {view['game_round']}{rifling} · battle round {view['battle_round']} · "
                       f"{PHASES[view['phase']]} · supply {view['supply_count']}")
        for p, side in enumerate(view["sides"]):
            pick = "picked face down" if side["has_chosen"] else ("choosing" if p in view["to_act"] else "")
            with sheet.box():
                sheet.markdown(f"**{ctx.name(p)}**" + (f" — *{pick}*" if pick else "") + "  \n"
                               f"IP {side['imperial_power']} · Gold {side['gold']} · Reinforcement marker "
                               f"{side['reinforcement_marker']} ({side['reinforcement_calls_left']} call(s) left)  \n"
                               f"{side['hand_count']} cards in hand · {side['reserves']} in reserve · lost: "
                               f"{_counts(side['discard'])}"
                               + (" · cavalry banned this round" if side["cavalry_banned"] else "")
                               + (f"  \nreinforcements shown: {', '.join(side['reinforcements_shown'])}"
                                  if side["reinforcements_shown"] else ""))
        _last_round(ctx, view, sheet)
        if view["result"]:
            routed = ", ".join(ctx.name(p) for p in view["routed"])
            sheet.note("success", f"{RESULTS[view['result']].capitalize()}"
                       + (f": {routed} routed" if routed else "")
                       + (f" — {ctx.name(view['winner'])} wins." if view["winner"] is not None else "."))
        me = ctx.player
        if me is not None:
            side = view["sides"][me]
            secret = {"your_hand": _counts(side["hand"])}
            if side["choice"]:
                secret["your_face_down_pick"] = side["choice"].capitalize()
            render_private(me, secret, ctx.names, sheet=sheet)
    ctx.moves(_round if view["phase"] == "play" else None)


def _round(ctx: TableContext, legal: list[Action]) -> None:
    """A round is one tap: a button per card type in hand. A call for reinforcements, when the engine offers
    it (from open information only, ruling R20), waits folded below: not calling costs no tap."""
    label = ctx.state.label
    ctx.pad([ctx.choice(label(action), action, move_key(action)) for action in legal if action.kind == "play"],
            "imperial-cards", title="Your card for this round (face down until both have chosen)")
    calls = [a for a in legal if a.kind == "reinforce"]
    if calls:
        with ctx.page.group("imperial-calls-box", fold="Call for reinforcements first (once per battle)"):
            with ctx.page.sheet() as sheet:
                sheet.caption("Take cards back from your discard pile into your hand before you choose; your "
                              "opponent sees which. If their card is already down, they take it back and choose again.")
            ctx.pad([ctx.choice(label(action), action, move_key(action)) for action in calls], "imperial-calls")


def _last_round(ctx: TableContext, view: dict[str, Any], sheet: Sheet) -> None:
    rnd = view.get("last_round")
    if not rnd:
        return
    lines = [f"**Round {rnd['number']}:** " + " vs ".join(
        f"{ctx.name(p)} {t.capitalize() if t else 'nothing'}" for p, t in enumerate(rnd["played"]))]
    for p, lost in enumerate(rnd["lost"]):
        if lost:
            lines.append(f"- {ctx.name(p)} lost {', '.join(x.capitalize() for x in lost)}")
    for p, back in enumerate(rnd["returned"]):
        if back:
            lines.append(f"- {ctx.name(p)}'s {back.capitalize()} returns to hand")
    for p in rnd["lacked"]:
        lines.append(f"- {ctx.name(p)} had no card to play")
    if rnd.get("cavalry_banned") is not None:
        lines.append(f"- {ctx.name(rnd['cavalry_banned'])} may not play Cavalry next round")
    sheet.markdown("\n".join(lines))
