"""Streamlit custom components of the companion (their frontends ship with them; no build step).

A components-v2 element carries its type's JavaScript (`js=`) inside every element Streamlit sends, at every
redraw: the surface's 17 KB were three quarters of a tap's 22 KB (docs/performance.md). So on a server with the
companion's routes (`companion.paths`) a component's code is a file of its own (`Frontend`, served by
`companion.routes` under `SCRIPTS_PATH`, by its version, kept a year), and the element carries a stub of a few
lines that imports it: the phone fetches the code once per version, and a redraw carries only the data. Without
the routes (the AppTest harness) the element carries the code itself, as before.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import paths

SIGHT = Path(__file__).parent / "sight.js"
"""The rule every control that takes taps follows (a tap decides only what its player saw): set before each
component's own code, so the surface's pads and the hexbattle board share one implementation of it."""
COMMENT_LINE = re.compile(r"^[ \t]*//.*\n", re.MULTILINE)
SCRIPTS_PATH = "_muster/js"  # each frontend's code as `NAME.js?v=VERSION`, under the routes' base path
# The element's code on a server with the routes: the served module, imported once per page (a module is
# evaluated once per address), drawing each element. A blob module (how Streamlit runs a component's code) has
# no base of its own, so the address is made absolute against the page's. A fetch that fails (the phone's network
# dropped, the server restarting) is tried at once at an address of its own (a browser remembers a failed module's
# address for the page's life, the preload's too), and at each later drawing at a new one; till then the element
# says so in the player's words rather than leaving the table blank. The page's stubs share one load per address
# (`window.__musterCode`), so once one has the code every element draws with that one module: never two copies
# of its state (a table's listener), and an error while drawing is not taken for a failed fetch. While the code
# loads, an element may be drawn again with newer data; only its latest drawing draws when the code is there
# (`window.__musterDrawing`): an older one, finishing later (it waited on the first fetch and its retry), drew the
# older data over the newer, and Streamlit then ended it at once, which stopped the table's listener.
STUB = (  # short: every element carries it at every redraw. u: the code's address; L: the page's loads (l.n: failed
    # tries, l.p: the load); D: each element's latest drawing; s(): the load, tried once more at once when it fails;
    # w.__musterLost: the one box that says the code could not load (the page's first to fail; a box may be a
    # shadow root), emptied when its code loads: said once a page, as a warning, not in every element
    'const u=new URL(__SRC__,location.href).href,w=window,L=(w.__musterCode=w.__musterCode||{}),'
    'D=(w.__musterDrawing=w.__musterDrawing||new WeakMap());\n'
    'function s(){const l=(L[u]=L[u]||{n:0});return(l.p=l.p||import(l.n?u+"&again="+l.n:u)'
    '.catch(e=>{l.n++;l.p=null;if(l.n===1)return s();throw e}))}\n'
    'export default async c=>{const d={},b=c.parentElement;D.set(b,d);let m;'
    'try{m=await s()}catch(e){const o=w.__musterLost;if(!o||o===b||!o.isConnected){w.__musterLost=b;'
    'const p=document.createElement("p");p.className="muster-note muster-note-warning";p.setAttribute("role","alert");'
    'p.textContent=__LOST__;b.replaceChildren(p)}return}if(D.get(b)!==d)return;'
    'if(w.__musterLost===b){w.__musterLost=null;b.replaceChildren()}return m.default(c)};\n')
LOST = "Muster's buttons could not load here: check the connection, then reload the page."


def frontend(script: Path, sight: bool = True, parts: tuple[Path, ...] = ()) -> str:
    """A component's JavaScript as the browser gets it: the shared tap rule (`SIGHT`, for a component that takes
    taps), the files of its own code `parts` (functions it uses), then its own code, without the lines that are
    only comments (they say why in the files; a phone need not fetch them)."""
    files = ([SIGHT] if sight else []) + list(parts) + [script]
    return COMMENT_LINE.sub("", "\n".join(f.read_text(encoding="utf-8") for f in files))


@dataclass
class Frontend:
    """A components-v2 element type whose code is served as a file where the server can (module doc): `name`
    is Streamlit's name for it and the file's, `code` its JavaScript (`frontend`), `options` the rest of
    `st.components.v2.component`'s arguments. Called as that function's result is. Registered with Streamlit at
    its first drawing, not at import: whether the routes are there is known only once the server is built
    (`companion.launch`), after the routes' modules import the components."""

    name: str
    code: str
    options: dict[str, Any] = field(default_factory=dict)
    version: str = field(init=False)  # of the code: the file's address names it, so a phone keeps it a year
    mount: Callable[..., Any] | None = field(default=None, init=False, repr=False)  # Streamlit's, once registered

    def __post_init__(self) -> None:
        self.version = hashlib.sha256(self.code.encode()).hexdigest()[:12]

    @property
    def file(self) -> str:
        """Where the route serves this version of the code, under the routes' base path (`paths.url`)."""
        return f"{SCRIPTS_PATH}/{self.name}.js?v={self.version}"

    def js(self) -> str:
        """What each element carries as its code: the stub importing the served file, or the code itself."""
        if not paths.installed():
            return self.code
        return STUB.replace("__SRC__", json.dumps(paths.here(self.file))).replace("__LOST__", json.dumps(LOST))

    def __call__(self, **kwargs: Any) -> Any:
        if self.mount is None:  # two sessions' first runs may both register it: the same definition, no conflict
            import streamlit as st

            self.mount = st.components.v2.component(self.name, js=self.js(), **self.options)
        return self.mount(**kwargs)


def serving(*frontends: Frontend) -> Callable[[Any], Awaitable[Any]]:
    """The route's handler: GET `SCRIPTS_PATH/NAME.js` is the code of the frontend named NAME (whatever version
    the address names: a phone holding an older page gets today's, kept only under today's address:
    `paths.kept`), anything else a 404."""
    files = {f"{f.name}.js": (f.code.encode(), f.version) for f in frontends}

    async def serve(request: Any) -> Any:
        from starlette.responses import JSONResponse, Response

        found = files.get(request.path_params["file"])
        if found is None:
            return JSONResponse({"error": "No such script; reload the page."}, status_code=404)
        code, version = found
        return Response(code, media_type="text/javascript",
                        headers={"Cache-Control": paths.kept(request.query_params.get("v"), version)})
    return serve
