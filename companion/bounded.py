"""One rule for the companion's bounded caches: the newest entry last, the oldest dropped first.

The companion keeps many small caches in a long-running server (snapshots of tables, questions' answers and
re-deals, what each page drew, each table's newest head); each must stay bounded whatever phones ask. A dict keeps
the order entries came in, so an entry put again moves to the end, and the oldest is always the first.
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def keep(cache: dict[K, V], key: K, value: V, limit: int) -> list[K]:
    """Put `value` under `key` as `cache`'s newest entry and drop its oldest beyond `limit` entries; the keys dropped
    (a cache whose entries have company elsewhere, `heads`, lets it go too). The caller holds the cache's lock."""
    cache.pop(key, None)
    cache[key] = value
    dropped: list[K] = []
    while len(cache) > limit:
        oldest = next(iter(cache))
        del cache[oldest]
        dropped.append(oldest)
    return dropped
