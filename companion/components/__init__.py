"""Streamlit custom components of the companion (their frontends ship with them; no build step)."""

import re
from pathlib import Path

SIGHT = Path(__file__).parent / "sight.js"
"""The rule every control that takes taps follows (a tap decides only what its player saw): set before each
component's own code, so the surface's pads and the hexbattle board share one implementation of it."""
COMMENT_LINE = re.compile(r"^[ \t]*//.*\n", re.MULTILINE)


def frontend(script: Path, sight: bool = True, parts: tuple[Path, ...] = ()) -> str:
    """A component's JavaScript as the browser gets it: the shared tap rule (`SIGHT`, for a component that takes
    taps), the files of its own code `parts` (functions it uses), then its own code, without the lines that are
    only comments. Streamlit sends a component's code inside every element it draws, at every redraw: the
    comments, which say why in the files, would be a third of each message."""
    files = ([SIGHT] if sight else []) + list(parts) + [script]
    return COMMENT_LINE.sub("", "\n".join(f.read_text(encoding="utf-8") for f in files))
