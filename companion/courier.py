"""A tap's answer straight back to the phone that tapped: the table part its own run drew, as the reply to the tap.

Why: on a Streamlit page a tap waits for Streamlit's page twice. The page holds the tap back for a
timer before sending it (10-14 ms on a phone-class CPU), and after the script run it lays out the run's
messages in several React passes before a components-v2 element sees its new data (25-35 ms for the
table part). The tapping phone pays both before it sees its move (docs/performance.md, seventh round).

So a tap on the table part (a pad of `companion.components.surface`, the hexbattle board) is posted to this
server's `/_muster/tap`, and the reply is what the run it caused drew into the elements that take posted
taps (`surface.takes_posted_taps`): the phone sets them at once, then Streamlit's own copy of the same run
arrives and changes nothing. Nothing is decided here: the tap is handed to the page's own run (a rerun of
the table part, as `live` wakes a phone), which carries it out through the element's own handler exactly
as a tap sent by Streamlit would be; the reply carries only what that
run drew for this browser session, so it shows no more than the session's page does. The tap names the
session by a token the server gave that session's page (`token`), never sent to anyone else.

When the session is busy with a run of its own, or this server has no such route (`companion.routes`), the
phone sends the tap through Streamlit as before.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import threading
from dataclasses import dataclass
from typing import Any

from companion import live

LOG = logging.getLogger("muster.companion")

PATH = "_muster/tap"
ANSWER_LIMIT_S = 2.0  # a run that takes longer is delivered by Streamlit alone
BODY_LIMIT = 64 * 1024  # a tap is a few hundred bytes
BODY_TIMEOUT_S = 5.0  # a tap's body arrives in one packet; one sent a byte a second is not a phone's
DEPTH_LIMIT = 16  # a tap nests a list in a dict in a dict
TAP_FIELDS = frozenset({"token", "element", "tap"})
NOT_A_TAP = "That was not a tap."
TOKENS_KEPT = 1024  # sessions remembered before those that ended are looked for and forgotten
TOKEN_KEY = "_courier-token"
_lock = threading.Lock()
_session_of: dict[str, str] = {}  # token -> browser session id
_waiting: dict[str, _Tap] = {}  # session id -> the tap its next table-part run carries out


@dataclass
class _Tap:
    element: str  # the element the phone tapped (a surface's stretch, "table-0", or the hexbattle board)
    raw: dict[str, Any]  # what the phone sent, as it would come through Streamlit
    answer: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop
    taken: bool = False  # a run has carried it out: it is that run's to answer


def address(element: str) -> dict[str, str]:
    """Where the phone posts a tap on `element`, and how it names its session: the item an element that takes
    posted taps adds last to its data (`surface.takes_posted_taps`)."""
    return {"path": PATH, "token": token(), "element": element}


def token() -> str:
    """This browser session's token (the page calls this in its run): the phone names its session with it."""
    import streamlit as st

    session_id = live.current_session_id()
    if TOKEN_KEY not in st.session_state:
        st.session_state[TOKEN_KEY] = secrets.token_urlsafe(18)
    mine: str = st.session_state[TOKEN_KEY]
    if session_id is not None:
        with _lock:
            if mine not in _session_of and len(_session_of) >= TOKENS_KEPT:
                _forget_closed_sessions()
            _session_of[mine] = session_id
    return mine


def _forget_closed_sessions() -> None:
    """Drop the tokens of sessions that have ended (their phones closed the page); under `_lock`."""
    for gone in [t for t, s in _session_of.items() if live.session_by_id(s) is None]:
        del _session_of[gone]


def take() -> tuple[str, Any] | None:
    """The tap posted for this session's run, if any: (element, what the phone sent). The run carries it out."""
    session_id = live.current_session_id()
    with _lock:
        tap = _waiting.get(session_id) if session_id is not None else None
        if tap is None or tap.taken:
            return None
        tap.taken = True
    return tap.element, tap.raw


def answer(drawn: dict[str, list[Any]] | None) -> None:
    """This run drew `drawn` (element key -> its data), or nothing whole (None): the reply to the tap it carried out."""
    session_id = live.current_session_id()
    with _lock:
        tap = _waiting.get(session_id) if session_id is not None else None
        if session_id is None or tap is None or not tap.taken:
            return
        del _waiting[session_id]
    tap.loop.call_soon_threadsafe(_settle, tap.answer, drawn)


@dataclass(frozen=True)
class Refused:
    """A request body turned away before it was read whole: the HTTP status and the words for the sender."""

    status: int
    message: str


async def read_json(request: Any, limit: int) -> Any:
    """A request's body as JSON, or `Refused`: too large (413), too slow to arrive (408), cut off by the
    sender (400), not JSON or nested deeper than DEPTH_LIMIT (400). A bound on each, so no request can hold a
    server thread, its memory or its recursion, and none ends in a traceback."""
    from starlette.requests import ClientDisconnect

    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        return Refused(413, f"A request here holds at most {limit:,} bytes.")

    async def body() -> bytes | None:
        got = b""
        async for chunk in request.stream():  # read no further than the limit
            got += chunk
            if len(got) > limit:
                return None
        return got

    try:
        read = await asyncio.wait_for(body(), BODY_TIMEOUT_S)
    except TimeoutError:
        return Refused(408, f"The request took more than {BODY_TIMEOUT_S:.0f} s to arrive; send it again.")
    except ClientDisconnect:
        return Refused(400, "The request was cut off before its end.")
    if read is None:
        return Refused(413, f"A request here holds at most {limit:,} bytes.")
    try:
        sent = json.loads(read)
    except (ValueError, RecursionError):
        return Refused(400, NOT_A_TAP)
    return sent if _depth(sent) <= DEPTH_LIMIT else Refused(400, NOT_A_TAP)


def _depth(value: Any) -> int:
    """How deeply lists and dicts nest in `value` (walked without recursion)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if level <= DEPTH_LIMIT:
                todo.extend((v, level + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def _settle(future: asyncio.Future[Any], value: Any) -> None:
    if not future.done():
        future.set_result(value)


async def deliver(request: Any) -> Any:
    """POST {token, element, tap}: carried out by the session's own run; the reply is what the run drew."""
    from starlette.responses import JSONResponse

    sent = await read_json(request, BODY_LIMIT)
    if isinstance(sent, Refused):
        return JSONResponse({"error": sent.message}, status_code=sent.status)
    if not isinstance(sent, dict) or set(sent) != TAP_FIELDS:
        return JSONResponse({"error": NOT_A_TAP}, status_code=400)
    mine, element, raw = sent["token"], sent["element"], sent["tap"]
    if not (isinstance(mine, str) and len(mine) <= 64 and isinstance(element, str) and len(element) <= 200
            and isinstance(raw, dict)):
        return JSONResponse({"error": NOT_A_TAP}, status_code=400)
    with _lock:
        session_id = _session_of.get(mine)
    session = live.session_by_id(session_id) if session_id else None
    if session_id is None or session is None:
        return JSONResponse({"error": "This page's session has ended; reload the page."}, status_code=404)
    loop = asyncio.get_running_loop()
    tap = _Tap(element, raw, loop.create_future(), loop)
    with _lock:
        if session_id in _waiting:  # one tap at a time: the other goes through Streamlit
            return JSONResponse({"through": "streamlit"})
        _waiting[session_id] = tap
    try:
        asked = live.rerun_part(session)  # False: busy with a run of its own
    except Exception as err:  # the session is closing
        LOG.debug("could not rerun session %s for a posted tap: %r", session_id, err)
        asked = False
    if not asked:  # Streamlit takes the tap
        with _lock:
            _waiting.pop(session_id, None)
        return JSONResponse({"through": "streamlit"})
    try:
        drawn = await asyncio.wait_for(asyncio.shield(tap.answer), ANSWER_LIMIT_S)
    except TimeoutError:
        with _lock:
            if not tap.taken:  # no run took it: Streamlit takes it instead (the phone sends it again)
                _waiting.pop(session_id, None)
                return JSONResponse({"through": "streamlit"})
        drawn = None
    return JSONResponse({"drawn": drawn})
