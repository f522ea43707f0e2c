"""Short names for waterloo's card designs, so test hands read like 'I2 I2 C3 A4 GEN'."""

from __future__ import annotations

import random
from collections import Counter

from engine.core import Action, act
from engine.waterloo import WaterlooState

SHORT = {
    "I1": "guard-infantry", "I2": "line-infantry", "I3": "light-infantry", "I4": "militia",
    "C1": "cuirassiers", "C2": "lancers", "C3": "hussars", "C4": "chasseurs",
    "A1": "twelve-pounders", "A2": "eight-pounders", "A3": "six-pounders", "A4": "howitzers",
    "GEN": "general", "CPT": "captain", "LT": "lieutenant", "SGT": "sergeant",
    "FB": "fix-bayonets", "GR": "grenadiers", "RK": "rockets", "SC": "scout", "MG": "magazine", "DG": "dragoon",
}


def designs(text: str) -> list[str]:
    """'I2 I2 C3' -> design ids, as a player taps them in."""
    return [SHORT[token] for token in text.split()]


def physical(text: str, used: Counter[str] | None = None) -> list[str]:
    """'I2 I2 C3' -> physical card ids, numbering the copies of each design (across calls sharing `used`)."""
    used = Counter() if used is None else used
    out = []
    for design in designs(text):
        used[design] += 1
        out.append(f"{design}-{used[design]}")
    return out


def rarely_fold(legal: list[Action], rng: random.Random, chance: float = 0.05) -> Action:
    """A random legal action that folds only now and then: with four betting rounds a hand (R4), a
    uniform choice folds so often that hardly any hand reaches the showdown."""
    folds = [a for a in legal if a.kind == "fold"]
    rest = [a for a in legal if a.kind != "fold"]
    if folds and (not rest or rng.random() < chance):
        return folds[0]
    return rng.choice(rest)


def entered_hand(state: WaterlooState, rng: random.Random) -> Action:
    """With printed cards, in the reveal: a hand entered by a seat still to reveal, five cards really drawn from
    the deck the hands already entered left (it reads them: it plays the table, it is no phone), or now and then
    an entered hand taken back."""
    deck = list(state.game.cards)
    for claimed in state.revealed.values():
        for design in claimed["cards"] + (["scout"] if claimed["scout_down"] else []):
            deck.remove(next(c for c in deck if c.rsplit("-", 1)[0] == design))
    if state.revealed and rng.random() < 0.1:
        return act("retract", rng.choice(sorted(state.revealed)))
    p = rng.choice(state.players_to_act())
    rng.shuffle(deck)
    designs = [c.rsplit("-", 1)[0] for c in deck[:5]]
    scout_left = any(c.startswith("scout-") for c in deck[5:])
    return act("reveal", p, cards=designs, scout_down=scout_left and rng.random() < 0.4)
