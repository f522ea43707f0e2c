"""Deep links into the companion: the printed QR codes and the look-up pages share this scheme."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlsplit


def card_link(base_url: str, game: str, card: str) -> str:
    """Link to one card design's page (`card` is the design id from the CSV)."""
    return _link(base_url, game=game, card=card)


def sheet_link(base_url: str, game: str, sheet: str) -> str:
    """Link to a reference sheet's page, e.g. sheet='reference'."""
    return _link(base_url, game=game, sheet=sheet)


def rule_link(base_url: str, game: str, rule: str) -> str:
    """Link to one ruling, e.g. rule='R3'."""
    return _link(base_url, game=game, rule=rule)


def parse_link(url: str) -> dict[str, str]:
    """The look-up target of a link (or of a scanned QR code), as {'game':…, 'card'|'sheet'|'rule':…}."""
    query = parse_qs(urlsplit(url).query)
    return {key: values[0] for key, values in query.items() if values}


def _link(base_url: str, **params: str) -> str:
    return f"{base_url.rstrip('/')}/?{urlencode(params)}"
