"""A communication model of 1D (and 2D) distributed direction-optimizing BFS.

Counts what :func:`semiring.distributed.bfs` sends, per level and per rank, as a function of
the graph (n vertices, m stored entries), the rank count P, each level's direction and
frontier, and the bytes of a vertex id; then prices it with a latency-bandwidth (alpha-beta)
model next to the local work, and does the same for a 2D partition on a sqrt(P) x sqrt(P)
grid, to find where 2D wins.

1D, as implemented (rank r owns n/P vertices and their rows):

- push level: each rank sends one (vertex, parent) pair per *distinct* remote target of its
  frontier's out-edges: ``U (1 - exp(-E/(P U))) (P - 1)/P`` pairs, E the frontier's out-edges,
  U the unvisited vertices (distinct targets among E/P random draws); P - 1 messages.
- pull level: the frontier bitmap is allgathered: each rank sends its n/P bits to P - 1 ranks
  and receives ``n (P - 1) / P`` bits, whatever P is. This is what stops 1D from scaling.

2D (Buluc and Madduri's layout; not implemented here): the frontier goes to the sqrt(P)
ranks of a processor column (expand) and the discovered vertices are combined along a row
(fold): a pull level moves about ``2 n / (8 sqrt(P))`` bytes per rank, a push level about
``(E/P + frontier/sqrt(P)) id_bytes``, each in sqrt(P) - 1 messages.

References
----------
Buluc, Madduri, "Parallel breadth-first search on distributed memory systems", SC 2011.
Beamer, Buluc, Asanovic, Patterson, "Distributed memory breadth-first search revisited:
enabling bottom-up search", IPDPSW 2013.
Hockney, "The communication challenge for MPP: Intel Paragon and Meiko CS-2", Parallel
Computing 20, 1994 (the alpha-beta model).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Link models: (alpha: seconds per message, beta: bytes per second per rank).
LINKS = {
    "nvlink": (10e-6, 150e9),      # GPUs of one H100/H200 node through NCCL (about half the NVLink4 peak)
    "infiniband": (20e-6, 25e9),   # one 200 Gb/s NDR port per GPU across nodes
}
#: Edges one GPU traverses per second: Graph500 edges (undirected input edges in the searched
#: component, the TEPS numerator) per second of local work. Fitted by :func:`fit_time` on the
#: 32 measured Kronecker scale-25 and scale-26 searches (8 roots each on 1 and on 2 H200s,
#: benchmarks/results/distributed-nvidia-h200-x2-20261122).
EDGE_RATE = 60e9
#: Fixed seconds per level and search (kernel launches, the per-level host synchronization and the
#: MPI agreement on the direction), fitted with EDGE_RATE.
LEVEL_OVERHEAD = 0.6e-3
#: Fraction of a Kronecker graph's input edges in the component a search reaches (measured: 0.98 at
#: scale 26, 16 x 2^26 input edges, 1,051,905,527 in the giant component).
REACHED = 0.98

@dataclass
class Level:
    """One BFS level: direction, frontier vertices, frontier out-edges, unvisited vertices before it,
    and the edges the pull examines (in-edges of the unvisited, up to the first hit)."""

    direction: str
    frontier: float
    frontier_edges: float
    unvisited: float
    pull_edges: float = 0.0


def push_bytes_per_rank(n, P, frontier_edges, unvisited, id_bytes=4, parents=True):
    """Bytes one rank sends in a 1D push level (distinct remote targets, one id or (id, parent) each)."""
    if P == 1 or frontier_edges <= 0 or unvisited <= 0:
        return 0.0
    per_rank = frontier_edges / P
    distinct = unvisited * (1.0 - math.exp(-per_rank / unvisited))
    return distinct * (P - 1) / P * id_bytes * (2 if parents else 1)


def pull_bytes_per_rank(n, P):
    """Bytes one rank sends in a 1D pull level: its bitmap words to each of the P - 1 others.

    >>> pull_bytes_per_rank(2**26, 2)
    4194304.0
    """
    if P == 1:
        return 0.0
    words = math.ceil(math.ceil(n / P) / 32)
    return 4.0 * words * (P - 1)


def level_bytes(n, P, level, id_bytes=4, parents=True, layout="1d"):
    """Bytes one rank sends in a level, 1D or 2D."""
    if P == 1:
        return 0.0
    if layout == "1d":
        if level.direction == "pull":
            return pull_bytes_per_rank(n, P)
        return push_bytes_per_rank(n, P, level.frontier_edges, level.unvisited, id_bytes, parents)
    q = math.sqrt(P)
    if level.direction == "pull":
        return 2.0 * n / 8.0 / q * (q - 1) / q
    per = (2 if parents else 1) * id_bytes
    return per * (level.frontier_edges / P * (q - 1) / q + level.frontier / q * (q - 1) / q)


def level_time(n, P, level, link="nvlink", id_bytes=4, parents=True, layout="1d", overhead=None):
    """Seconds a level costs beyond its local edge work: overhead + messages x alpha + bytes / beta
    (default overhead :data:`LEVEL_OVERHEAD`)."""
    overhead = LEVEL_OVERHEAD if overhead is None else overhead
    alpha, beta = LINKS[link]
    msgs = (P - 1) if layout == "1d" else 2 * (math.sqrt(P) - 1)
    return overhead + (msgs * alpha + level_bytes(n, P, level, id_bytes, parents, layout) / beta if P > 1 else 0.0)


def search_time(n, P, levels, edges, link="nvlink", id_bytes=4, parents=True, layout="1d", edge_rate=None,
                overhead=None):
    """Seconds of one search: its levels (:func:`level_time`) plus ``edges`` (Graph500 edges of the
    reached component) spread over P ranks at ``edge_rate`` (default :data:`EDGE_RATE`)."""
    edge_rate = EDGE_RATE if edge_rate is None else edge_rate
    t = sum(level_time(n, P, lv, link, id_bytes, parents, layout, overhead) for lv in levels)
    return t + edges / P / edge_rate


#: The level shape of a measured search: Kronecker scale 26, root 20659437 (the median of 8 roots
#: on one H200, 21.77 ms; ``profile_from_trace`` of its levels). Per level: direction, frontier
#: as a fraction of n (None: the root alone), its out-edges and the pulled edges as fractions of
#: the stored entries. Three pull levels, as in every measured root; push levels are short.
MEASURED_PROFILE = [("push", None, 9.51e-10, 0.0), ("push", 2.98e-08, 2.58e-05, 0.0), ("pull", 7.97e-04, 0.0, 0.852),
                    ("pull", 0.286, 0.0, 0.0158), ("pull", 0.200, 0.0, 5.42e-05), ("push", 1.37e-03, 4.39e-05, 0.0),
                    ("push", 3.74e-06, 1.19e-07, 0.0)]


def kronecker_profile(scale, edge_factor=16, fractions=None):
    """A Graph500 Kronecker BFS level profile, from the fractions of vertices and edges that a
    direction-optimizing search reaches per level (default :data:`MEASURED_PROFILE`).

    Returns a list of :class:`Level` for n = 2**scale and m = 2 * edge_factor * n stored entries.
    """
    n = 2.0 ** scale
    m = 2.0 * edge_factor * n
    # (direction, frontier as a fraction of n, its out-edges as a fraction of m, pulled edges / m)
    shape = fractions or [(d, 1 / n if f is None else f, e, pe) for d, f, e, pe in MEASURED_PROFILE]
    out, seen = [], 0.0
    for d, f, e, pe in shape:
        out.append(Level(d, f * n, e * m, n - seen, pe * m))
        seen += f * n
    return out


def profile_from_trace(levels, n, m):
    """The level shape (fractions of n and m) of a measured search, for :func:`kronecker_profile`.

    ``levels`` are the per-level records of ``python -m benchmarks.distributed``'s JSON (or
    :class:`~semiring.distributed.bfs.DistLevelTrace` objects): direction, frontier,
    edges_examined. A push level's examined edges are its frontier's out-edges; a pull
    level's are the pulled edges (an upper bound, as the trace counts them).
    """
    out = []
    for lv in levels:
        get = (lambda k: lv[k]) if isinstance(lv, dict) else (lambda k: getattr(lv, k))
        d, f, e = get("direction"), get("frontier"), get("edges_examined")
        out.append((d, f / n, e / m if d == "push" else 0.0, e / m if d == "pull" else 0.0))
    return out


def bfs_prediction(scale, P, link="nvlink", edge_factor=16, id_bytes=4, parents=True, layout="1d", levels=None):
    """Predicted (bytes per rank, seconds) of one BFS on a Kronecker graph of ``scale`` over P ranks.

    >>> b, t = bfs_prediction(26, 2)
    >>> round(b / 2**20, 1)   # MiB one rank sends: 3 pull levels of 4 MiB, the push levels 0.3 MiB
    12.3
    >>> round(t * 1e3, 1)     # ms (measured on 2 H200s: 13.79, the median of 8 roots)
    13.1
    """
    n = 2 ** scale
    levels = levels or kronecker_profile(scale, edge_factor)
    b = sum(level_bytes(n, P, lv, id_bytes, parents, layout) for lv in levels)
    return b, search_time(n, P, levels, REACHED * edge_factor * n, link, id_bytes, parents, layout)


def trace_levels(levels, n):
    """:class:`Level` records of a measured search (``python -m benchmarks.distributed``'s JSON levels or
    :class:`~semiring.distributed.bfs.DistLevelTrace` objects), with the unvisited count before each."""
    out, seen = [], 1.0
    for lv in levels:
        get = (lambda k: lv[k]) if isinstance(lv, dict) else (lambda k: getattr(lv, k))
        d, e = get("direction"), float(get("edges_examined"))
        out.append(Level(d, float(get("frontier")), e if d == "push" else 0.0, n - seen, e if d == "pull" else 0.0))
        seen += float(get("discovered"))
    return out


def fit_time(searches, link="nvlink"):
    """Least-squares ``(edge_rate, level_overhead)`` from measured searches.

    ``searches``: (n, P, levels, seconds, edges) per search, ``levels`` as for
    :func:`trace_levels`, ``edges`` the Graph500 edges of the reached component. The model of a
    search is :func:`search_time`; the communication (priced by :data:`LINKS`) is subtracted
    first, and searches on at least two rank counts separate the two fitted terms.
    """
    import numpy as np

    rows, rhs = [], []
    for n, P, levels, seconds, edges in searches:
        lv = trace_levels(levels, n)
        comm = search_time(n, P, lv, 0.0, link, overhead=0.0)
        rows.append((len(lv), edges / P))
        rhs.append(seconds - comm)
    (c, inv_rate), *_ = np.linalg.lstsq(np.array(rows, dtype=float), np.array(rhs, dtype=float), rcond=None)
    return 1.0 / inv_rate, c


def crossover(scale, link="infiniband", P_max=1 << 16):
    """The smallest power-of-4 rank count at which the 2D layout's predicted BFS time beats 1D's
    (None if it does not up to ``P_max``)."""
    P = 4
    while P <= P_max:
        if bfs_prediction(scale, P, link, layout="2d")[1] < bfs_prediction(scale, P, link, layout="1d")[1]:
            return P
        P *= 4
    return None


def table(scales=(30, 32, 34, 36), gpus=(8, 64, 1024)):
    """Rows (scale, P, link, MiB per rank 1D, ms 1D, MiB per rank 2D, ms 2D, GTEPS 1D) of the model."""
    rows = []
    for s in scales:
        for P in gpus:
            link = "nvlink" if P <= 8 else "infiniband"
            b1, t1 = bfs_prediction(s, P, link)
            b2, t2 = bfs_prediction(s, P, link, layout="2d")
            m = 16 * 2 ** s  # Graph500 counts undirected input edges
            rows.append((s, P, link, b1 / 2**20, 1e3 * t1, b2 / 2**20, 1e3 * t2, m / t1 / 1e9))
    return rows


__all__ = ["Level", "LINKS", "EDGE_RATE", "LEVEL_OVERHEAD", "REACHED", "trace_levels", "fit_time", "search_time", "profile_from_trace", "push_bytes_per_rank", "pull_bytes_per_rank", "level_bytes",
           "level_time", "kronecker_profile", "bfs_prediction", "crossover", "table"]
