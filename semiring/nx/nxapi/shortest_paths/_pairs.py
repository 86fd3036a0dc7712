"""The memory check of the all-pairs results (a dict entry for every ordered pair of nodes),
shared by Floyd-Warshall and Johnson."""

from __future__ import annotations

from ...._memory import require

#: Bytes per (source, target) entry of a dict-of-dicts result (key, value and dict slot).
DICT_ENTRY_BYTES = 120


def require_pairs(n, what):
    """OutOfMemory before building a result with an entry for every ordered pair of n nodes."""
    require(n * n * DICT_ENTRY_BYTES, f"{what}: a dict entry for each of {n} x {n} node pairs")
