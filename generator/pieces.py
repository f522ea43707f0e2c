"""Pieces a table without a phone needs, from each game's `[layout]`: a track card (imperial's player
card, hexbattle's action and turn track) and round markers (waterloo's dealer button, imperial's
track, round and initiative markers, hexbattle's action and turn markers).

Which tracks and markers a game has is data (`[layout.track_card]`, `[[layout.markers]]`,
validated in cards/layout.py); this module only draws them.
"""

from __future__ import annotations

from functools import partial

from cards.layout import Marker, Track, TrackCard, game_layout, resolve
from cards.load import CardFace, GameData
from generator.canvas import Box, Canvas
from generator.deck import Look, draw_back, draw_front
from generator.icons import draw_icon
from generator.printable import BuildContext, PageSet, PieceSet
from generator.reference import Sheet, fitted, start_sheet
from generator.sheets import Piece

MARKER_LAYOUT = "token-round"
ROW = 16.0        # mm: the height of one track row, its name above the boxes included
MAX_BOX = 15.0    # mm: the widest a track box gets
BLOCK_GAP = 8.0   # mm between two players' blocks


def _track(s: Sheet, track: Track) -> None:
    """The track's icon and name, then its numbered boxes in as many rows as the column needs."""
    col = s.layout.colours
    count = track.last - track.first + 1
    per_row = min(count, max(1, int((s.area.w - 12.0) // 8.0)))
    rows = -(-count // per_row)
    side = min(MAX_BOX, (s.area.w - 12.0) / per_row)
    head = s.take(5.5)
    draw_icon(s.c, track.icon, Box(head.x, head.y, 5.0, 5.0), col["ink"])
    label = track.name + (f" \u2014 {track.note}" if track.note else "")
    s.write(Box(head.x + 7.0, head.y, head.w - 7.0, 5.0), label, "cell_bold", align="start")
    box = s.take(rows * side + 1.5)
    for k in range(count):
        r, i = divmod(k, per_row)
        cell = Box(box.x + 12.0 + i * side, box.y + r * side, side, side)
        value = track.first + k
        strong = value % 5 == 0
        s.c.rect(cell.x, cell.y, cell.w, cell.h, fill=col["band"] if strong else None, stroke=col["ink"],
                 width=0.35 if strong else 0.2)
        s.write(cell.inset(side * 0.18), str(value), "track" if strong else "track_light", align="middle")


def _card_page(c: Canvas, width: float, height: float, *, game: GameData, card: TrackCard) -> None:
    s = start_sheet(c, width, height, game, card.subtitle, None, title=card.title.lower())
    players = game.max_players if card.per_player else 1
    for p in range(players):
        if card.per_player:
            if p:
                s.y += BLOCK_GAP
                s.c.line(s.area.x, s.y - BLOCK_GAP / 2, s.area.right, s.y - BLOCK_GAP / 2,
                         stroke=s.layout.colours["rule"], width=0.3, dash=(2.0, 1.5))
            s.heading(f"Player {p + 1}")
        for track in card.tracks:
            _track(s, track)
            s.y += 1.5


def markers(game: GameData, low_ink: bool = False) -> list[Piece]:
    """Every marker of the game's [[layout.markers]], round, with its icon and name on both sides
    (`low_ink`: the playtest look of the cards, white with the marker's colour in outlines)."""
    settings = game_layout(game)
    layout = resolve(MARKER_LAYOUT, settings)
    out = []
    for marker in settings.markers:
        face = CardFace(title=marker.name, kind="", icon=marker.icon)
        front = partial(draw_front, layout=layout, face=face, link=None, look=Look(frame=marker.colour, low_ink=low_ink))
        back = partial(draw_back, layout=layout, title=marker.name, subtitle="", colour=marker.colour,
                       emblem=marker.icon, low_ink=low_ink)
        out.extend(Piece(name=f"marker-{_slug(marker)}-{k}", width=layout.width, height=layout.height,
                         bleed=layout.bleed, front=front, back=back, back_key=f"marker-{_slug(marker)}",
                         design=f"marker-{_slug(marker)}", title=marker.name, shape=layout.shape)
                   for k in range(1, marker.copies + 1))
    return out


def _slug(marker: Marker) -> str:
    return marker.name.lower().replace(" ", "-")


def printables(game: GameData, ctx: BuildContext) -> list[PieceSet | PageSet]:
    """The track card (a page) and the markers (a sheet of pieces), for the games whose data has them."""
    settings = game_layout(game)
    out: list[PieceSet | PageSet] = []
    if settings.track_card is not None:
        name = settings.track_card.title.lower().replace(" ", "-")
        out.append(PageSet(name, [partial(fitted, _card_page, game=game, card=settings.track_card)]))
    if settings.markers:
        out.append(PieceSet("table-markers", markers(game, ctx.low_ink)))
    return out
