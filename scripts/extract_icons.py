"""Copy the icons Muster's data names out of the game-icons.net set into cards/icons/game-icons.json.

Why: the full set is 4,000 icons (several MB); the repository keeps only the ones the cards,
pieces and backs name, with the set's licence. Get the set from the npm registry, then run:

    npm pack @iconify-json/game-icons && tar xzf iconify-json-game-icons-*.tgz
    python scripts/extract_icons.py package/icons.json

Icons already in cards/icons/game-icons.json stay unless no data names them any more.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cards.load import game_ids, load_game
from generator.icons import CREDITS_FILE, ICON_FILE, names_in_data


CREDITS = """# Icon credits

Muster's card and piece pictures are icons from **game-icons.net**, by Lorc, Delapouite and
contributors (https://game-icons.net), licensed under **Creative Commons Attribution 3.0**
(CC BY 3.0, https://creativecommons.org/licenses/by/3.0/). They were taken unchanged (except
for being drawn in the card's colours) from the npm package `@iconify-json/game-icons`.
The credit is also printed on every reference sheet and given in the README.

Icon sets used: game-icons.net (CC BY 3.0).

Icons used (`game-icons.json`, written by scripts/extract_icons.py):

{icons}
"""


def main(source: Path) -> int:
    """Write the icons the data names; say which names the set lacks."""
    full = json.loads(source.read_text(encoding="utf-8"))
    wanted = sorted(names_in_data([load_game(g) for g in game_ids()]))
    missing = [n for n in wanted if n not in full["icons"]]
    if missing:
        print(f"not in {source}: {', '.join(missing)}", file=sys.stderr)
        return 1
    out = {
        "prefix": full["prefix"],
        "source": "npm @iconify-json/game-icons (https://game-icons.net)",
        "licence": "CC BY 3.0 (https://creativecommons.org/licenses/by/3.0/)",
        "size": [full.get("width", 512), full.get("height", 512)],
        "icons": {n: full["icons"][n]["body"] for n in wanted},
    }
    ICON_FILE.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    CREDITS_FILE.write_text(CREDITS.format(icons="\n".join(f"- `{n}`" for n in wanted)), encoding="utf-8")
    print(f"{len(wanted)} icons written to {ICON_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
