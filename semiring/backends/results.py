"""What a traversal backend returns: one result type per traversal, on the CPU and the GPU.

The whole-search engines (``cpu/traversal``, ``gpu/traversal``, ``cpu/paths``, ``gpu/paths``)
and the named strategies (``{cpu,gpu}/bfs_strategies``, ``{cpu,gpu}/sssp_strategies``) return
a :class:`TraversalResult` (BFS) or a :class:`PathsResult` (SSSP); the algorithms read it by
attribute and build their public result from it. Arrays are NumPy on the CPU, CuPy on the GPU.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

#: Direction of each code in :attr:`TraversalResult.trace`.
DIRECTIONS = ("push", "pull", "edge")
PUSH, PULL, EDGE = 0, 1, 2


def trace_columns(rows):
    """The per-level columns ``(codes, frontier, examined, discovered)`` of rows
    ``(direction name, frontier, examined, discovered)``, one row per level."""
    return (np.asarray([DIRECTIONS.index(r[0]) for r in rows], dtype=np.int8),
            np.asarray([r[1] for r in rows], dtype=np.int64), np.asarray([r[2] for r in rows], dtype=np.int64),
            np.asarray([r[3] for r in rows], dtype=np.int64))


@dataclass
class TraversalResult:
    """One BFS run by a backend.

    Attributes
    ----------
    level : int64 array, shape (n,)
        Hop distance from the source; 0 where unreached.
    present : bool array, shape (n,)
        Reached vertices.
    parent : int64 array, shape (n,), or None
        BFS-tree parent (0 where unreached); None without parents.
    nvals : int
        Reached vertices (the count of ``present``).
    trace : tuple of 4 int arrays, each shape (levels,)
        Per level run: direction code (:data:`DIRECTIONS`), frontier size, edges examined,
        vertices discovered.
    launches, host_syncs : int or None
        Kernel launches and device-to-host reads of a GPU run (a CPU strategy reports the
        launches its GPU version makes; None where not counted).
    """

    level: Any
    present: Any
    parent: Any
    nvals: int
    trace: tuple
    launches: int | None = None
    host_syncs: int | None = None

    @classmethod
    def from_rows(cls, level, present, parent, nvals, rows, launches=None, host_syncs=None):
        """A result whose trace is given as rows ``(direction, frontier, examined, discovered)``."""
        return cls(level, present, parent, nvals, trace_columns(rows), launches, host_syncs)


@dataclass
class PathsResult:
    """One SSSP run by a backend.

    Attributes
    ----------
    dist : int64 or float array, shape (n,)
        Distances; the backend's "unreached" value (INT64_MAX or +inf) where no path exists.
    rounds : int
        Relaxation rounds (Bellman-Ford rounds, delta-stepping light rounds, grid barriers).
    launches, host_syncs : int or None
        Kernel launches and device-to-host reads of a GPU run (None on the CPU).
    edges_examined, worklist_entries : int or None
        Strategies: out-edges read and vertices expanded over all rounds (duplicates included).
    splits : int or None
        Bucket advances (near-far and the GPU fused engine).
    relaxations : int or None
        Edges relaxed (the GPU fused engine).
    """

    dist: Any
    rounds: int
    launches: int | None = None
    host_syncs: int | None = None
    edges_examined: int | None = None
    worklist_entries: int | None = None
    splits: int | None = None
    relaxations: int | None = None


__all__ = ["TraversalResult", "PathsResult", "DIRECTIONS", "PUSH", "PULL", "EDGE", "trace_columns"]
