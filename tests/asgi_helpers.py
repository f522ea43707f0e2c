"""Running an ASGI app or a coroutine from a test, on an event loop of its own in a thread of its own: a browser
test before it in the same process (an xdist worker runs many files) leaves Playwright's loop running in the test's
thread, where `asyncio.run` refuses to start."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(coroutine)` in a thread of its own."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def asked(app: Any, scope: dict[str, Any]) -> list[Any]:
    """The messages the ASGI `app` sends for a request of `scope` with an empty body."""
    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> Any:
        return {"type": "http.request", "body": b"", "more_body": False}

    apart(app(scope, receive, send))
    return sent
