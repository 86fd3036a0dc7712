"""The named BFS strategies in NumPy: the work organization of each GPU kernel of
``semiring.backends.gpu.bfs_strategies``, one vectorized step per kernel launch.

A GPU thread's loop over its edges becomes a gather over the same edges; an ``atomicCAS``
claim becomes "the first candidate edge in the kernel's order wins" (``np.unique`` on the
targets); a plain idempotent store becomes a fancy-index assignment (the last writer wins,
every writer being on the same level); a queue append becomes a concatenation in the order
the GPU would reserve the slots. What each strategy sweeps is the same as on the GPU:

- ``vertex_push``: every vertex's level every level (``level == depth``), no frontier.
- ``vertex_pull``: every unvisited vertex scans its in-edges and stops at the first one on the
  current level (scanned in rounds of 1, 2, 4, ... edges, so a vertex found early stops early).
- ``edge``: every edge every level (a COO row array built once per graph).
- ``queue_atomic``: a frontier queue; claims appended in edge order (one global append each).
- ``queue_privatized``: the frontier cut into blocks of :data:`BLOCK` vertices; each block's
  first :data:`LOCAL_CAP` claims go to its block-local queue, the rest straight to the global
  queue, then the local queues are flushed (one reservation per block).
- ``single_block``: while the frontier has at most :data:`SB_CAP` vertices, one "launch" runs
  levels until a level discovers more; then ``queue_privatized`` levels.
- ``degree_bucketed``: three queues by out-degree (thread / warp / block buckets), expanded
  bucket after bucket, each claim appended to its bucket of the next frontier.
- ``node_split``: virtual nodes of at most :data:`SPLIT_K` edges (built once per graph); per
  level the frontier's virtual nodes (a scan over their counts) are the work items.

``launches`` counts the steps that stand for GPU launches, plus the GPU's init and finish
launches: the GPU module's count for the same search (frontier sizes, hence launches, do not
depend on which parent wins), so the CPU tests can check, for instance, that ``single_block``
needs fewer launches than levels. See the GPU module for the references.
"""

from __future__ import annotations

import numpy as np

from ..strategies import BFS_STRATEGIES as STRATEGIES
from ...exceptions import InvalidValue
from ..results import TraversalResult

#: The GPU module's constants (kept equal: the CPU formulation follows the same organization).
BLOCK = 256
LOCAL_CAP = 2048
SB_CAP = 2048
WARP_DEGREE = 32
BLOCK_DEGREE = 1024
SPLIT_K = 32


# -- shared steps ------------------------------------------------------------------------------

def gather(indptr, indices, q):
    """The out-edges of the vertices ``q`` in queue order: (source, target, position of the
    source in q) per edge."""
    q = np.asarray(q, dtype=np.int64)
    starts = indptr[q]
    deg = indptr[q + 1] - starts
    total = int(deg.sum())
    if total == 0:
        e = np.zeros(0, dtype=np.int64)
        return e, e, e
    pos = np.repeat(np.arange(q.shape[0], dtype=np.int64), deg)
    first = np.cumsum(deg) - deg
    edge = np.arange(total, dtype=np.int64) - first[pos] + starts[pos]
    return q[pos], indices[edge].astype(np.int64, copy=False), pos


def claim(level, parent, src, dst, nd):
    """``atomicCAS(level[w], -1, nd)`` for each candidate edge in order: the first candidate of
    each unvisited target wins and records its source as parent. Returns (winners in claim
    order, index of the winning candidate)."""
    fresh = np.flatnonzero(level[dst] == -1)
    if fresh.shape[0] == 0:
        return fresh, fresh
    _, first = np.unique(dst[fresh], return_index=True)
    win = fresh[np.sort(first)]
    won = dst[win]
    level[won] = nd
    if parent is not None:
        parent[won] = src[win]
    return won, win


def split(indptr, k=SPLIT_K):
    """The node split ``(vfirst, vptr)`` (int64): vertex u owns virtual nodes
    ``vfirst[u] .. vfirst[u + 1] - 1`` (ceil(out-degree / k)), virtual node j covers edges
    ``vptr[j] .. vptr[j + 1] - 1`` (at most k). A Graph keeps it (``Graph.node_split``)."""
    deg = np.diff(indptr).astype(np.int64)
    c = (deg + (k - 1)) // k
    vfirst = np.concatenate([[0], np.cumsum(c)]).astype(np.int64)
    owner = np.repeat(np.arange(deg.shape[0], dtype=np.int64), c)
    local = np.arange(owner.shape[0], dtype=np.int64) - vfirst[owner]
    vptr = np.concatenate([indptr[owner] + local * k, indptr[-1:]]).astype(np.int64)
    return vfirst, vptr


def bucket_of(degree):
    """Bucket of each out-degree: 0 (a thread per vertex), 1 (a warp), 2 (a block)."""
    return np.where(degree < WARP_DEGREE, 0, np.where(degree < BLOCK_DEGREE, 1, 2))


def steps_from_histogram(strategy, count, out_edges, in_edges, depth, nnz):
    """The trace of a search that ran ``depth`` levels: per level (direction, frontier,
    edges examined, discovered), from the per-level vertex counts ``count[l]`` and their
    out-edge (``out_edges[l]``) and, for ``vertex_pull``, in-edge sums.

    Edges examined: the frontier's out-edges (push), every edge (``edge``), or the in-edges of
    the vertices still unvisited (``vertex_pull``; an upper bound, the scan stops early)."""
    count, out_edges = np.asarray(count, dtype=np.int64), np.asarray(out_edges, dtype=np.int64)

    def at(a, i):
        return int(a[i]) if i < a.shape[0] else 0

    steps = []
    seen_in = 0
    for d in range(depth):
        if strategy == "vertex_pull":
            seen_in += at(in_edges, d)
            direction, examined = "pull", nnz - seen_in
        elif strategy == "edge":
            direction, examined = "edge", nnz
        else:
            direction, examined = "push", at(out_edges, d)
        steps.append((direction, at(count, d), examined, at(count, d + 1)))
    return steps


# -- the strategies ----------------------------------------------------------------------------

def _go_on(nq, depth, max_depth):
    return nq > 0 and (max_depth is None or depth < max_depth)


def _vertex_push(st):
    level, parent, optr, oidx = st["level"], st["parent"], st["optr"], st["oidx"]
    depth = 0
    while st["max_depth"] is None or depth < st["max_depth"]:
        st["launches"] += 1
        f = np.flatnonzero(level == depth)  # every vertex checks its own level
        src, dst, _ = gather(optr, oidx, f)
        new = np.flatnonzero(level[dst] == -1)
        level[dst[new]] = depth + 1  # plain stores: every writer stores the same level
        if parent is not None:
            parent[dst[new]] = src[new]
        depth += 1
        if new.shape[0] == 0:
            break
    return depth


def _vertex_pull(st):
    level, parent = st["level"], st["parent"]
    iptr, iidx = st["in_edges"]()
    depth = 0
    while st["max_depth"] is None or depth < st["max_depth"]:
        st["launches"] += 1
        v = np.flatnonzero(level == -1)  # a thread per unvisited vertex
        pos, end = iptr[v], iptr[v + 1]
        found_v, found_u = [], []
        step = 1
        while v.shape[0]:
            # the next `step` in-edges of every vertex still looking
            take = np.minimum(step, end - pos)
            live = take > 0
            v, pos, end, take = v[live], pos[live], end[live], take[live]
            if v.shape[0] == 0:
                break
            seg = np.repeat(np.arange(v.shape[0], dtype=np.int64), take)
            first = np.cumsum(take) - take
            e = np.arange(int(take.sum()), dtype=np.int64) - first[seg] + pos[seg]
            u = iidx[e]
            hit = np.flatnonzero(level[u] == depth)
            hs, hi = np.unique(seg[hit], return_index=True)  # the first hit of each vertex
            found_v.append(v[hs])
            found_u.append(u[hit[hi]])
            keep = np.ones(v.shape[0], dtype=bool)
            keep[hs] = False
            v, pos, end = v[keep], pos[keep] + take[keep], end[keep]
            step *= 2
        new = np.concatenate(found_v) if found_v else np.zeros(0, dtype=np.int64)
        level[new] = depth + 1
        if parent is not None and new.shape[0]:
            parent[new] = np.concatenate(found_u)
        depth += 1
        if new.shape[0] == 0:
            break
    return depth


def edge_rows(optr):
    """Row id of every entry (int64; the COO rows of the ``edge`` strategy). A Graph keeps it
    (``Graph.edge_rows``)."""
    return np.repeat(np.arange(optr.shape[0] - 1, dtype=np.int64), np.diff(optr))


def _edge(st):
    level, parent, oidx = st["level"], st["parent"], st["oidx"]
    rows = st["rows"]()
    depth = 0
    while st["max_depth"] is None or depth < st["max_depth"]:
        st["launches"] += 1
        hit = np.flatnonzero((level[rows] == depth) & (level[oidx] == -1))  # a thread per edge
        level[oidx[hit]] = depth + 1
        if parent is not None:
            parent[oidx[hit]] = rows[hit]
        depth += 1
        if hit.shape[0] == 0:
            break
    return depth


def _queue_atomic_level(st, q, depth):
    st["launches"] += 1
    src, dst, _ = gather(st["optr"], st["oidx"], q)
    won, _ = claim(st["level"], st["parent"], src, dst, depth + 1)
    return won  # appended in claim order, one global atomic each


def _queue_privatized_level(st, q, depth):
    st["launches"] += 1
    src, dst, pos = gather(st["optr"], st["oidx"], q)
    won, win = claim(st["level"], st["parent"], src, dst, depth + 1)
    if won.shape[0] == 0:
        return won
    block = pos[win] // BLOCK  # the block of the claiming thread (claims are in block order)
    start = np.flatnonzero(np.concatenate([[True], block[1:] != block[:-1]]))
    rank = np.arange(won.shape[0]) - np.repeat(start, np.diff(np.concatenate([start, [won.shape[0]]])))
    local = rank < LOCAL_CAP
    # overflow claims reach the global queue first, then each block's flush of its local queue
    return np.concatenate([won[~local], won[local]])


def _queue(level_fn):
    def run(st):
        q, depth = np.array([st["source"]], dtype=np.int64), 0
        while _go_on(q.shape[0], depth, st["max_depth"]):
            q = level_fn(st, q, depth)
            depth += 1
        return depth
    return run


def _single_block(st):
    q, depth = np.array([st["source"]], dtype=np.int64), 0
    md = st["max_depth"]
    while _go_on(q.shape[0], depth, md):
        if q.shape[0] <= SB_CAP:
            st["launches"] += 1  # one launch: levels until the frontier outgrows the block's queue
            while _go_on(q.shape[0], depth, md):
                src, dst, _ = gather(st["optr"], st["oidx"], q)
                q, _ = claim(st["level"], st["parent"], src, dst, depth + 1)
                depth += 1
                if q.shape[0] > SB_CAP:
                    break
        else:
            q = _queue_privatized_level(st, q, depth)
            depth += 1
    return depth


def _degree_bucketed(st):
    optr, oidx = st["optr"], st["oidx"]
    deg = np.diff(optr)
    src0 = np.array([st["source"]], dtype=np.int64)
    buckets = [src0[bucket_of(deg[src0]) == b] for b in range(3)]
    depth = 0
    while _go_on(sum(b.shape[0] for b in buckets), depth, st["max_depth"]):
        nxt = []
        for q in buckets:  # thread, warp and block kernels in turn; each appends by degree
            if q.shape[0] == 0:
                continue
            st["launches"] += 1
            src, dst, _ = gather(optr, oidx, q)
            won, _ = claim(st["level"], st["parent"], src, dst, depth + 1)
            nxt.append(won)
        won = np.concatenate(nxt) if nxt else np.zeros(0, dtype=np.int64)
        b = bucket_of(deg[won])
        buckets = [won[b == k] for k in range(3)]
        depth += 1
    return depth


def _node_split(st):
    vfirst, vptr = st["splits"](SPLIT_K)
    q, depth = np.array([st["source"]], dtype=np.int64), 0
    while _go_on(q.shape[0], depth, st["max_depth"]):
        c = vfirst[q + 1] - vfirst[q]  # virtual nodes per frontier vertex (a kernel)
        items = int(c.sum())  # the scan's total
        if items == 0:
            depth += 1
            break
        st["launches"] += 3  # counts, scan, expand
        owner = np.repeat(q, c)
        j = np.repeat(vfirst[q], c) + (np.arange(items) - np.repeat(np.cumsum(c) - c, c))
        # each work item: virtual node j's at most SPLIT_K edges
        _, dst, pos = gather(vptr, st["oidx"], j)
        q, _ = claim(st["level"], st["parent"], owner[pos], dst, depth + 1)
        depth += 1
    return depth


_RUNNERS = {"vertex_push": _vertex_push, "vertex_pull": _vertex_pull, "edge": _edge,
            "queue_atomic": _queue(_queue_atomic_level), "queue_privatized": _queue(_queue_privatized_level),
            "single_block": _single_block, "degree_bucketed": _degree_bucketed, "node_split": _node_split}


def bfs(strategy, optr, oidx, source, *, parents=False, max_depth=None, in_edges=None, rows=None, splits=None):
    """Run one BFS with the named strategy in NumPy.

    Parameters
    ----------
    strategy : str
        One of :data:`STRATEGIES`.
    optr, oidx : numpy int64 arrays
        CSR of the out-edges (``indptr``, shape (n + 1,); ``indices``, shape (nnz,)).
    source : int
        0 <= source < n (checked by the caller).
    parents : bool
    max_depth : int or None
        Run at most this many levels.
    in_edges : callable, optional
        Returns the CSR ``(indptr, indices)`` of the in-edges (A^T); ``vertex_pull`` calls it.
    rows : callable, optional
        Returns the row of every entry, as :func:`edge_rows` (the ``edge`` strategy calls it);
        default: :func:`edge_rows` of ``optr``, built for this search.
    splits : callable, optional
        ``splits(k)`` returns the node split of :func:`split` (the ``node_split`` strategy
        calls it); default: :func:`split` of ``optr``. A Graph passes the ones it keeps
        (``Graph.edge_rows``, ``Graph.node_split``).

    Returns
    -------
    TraversalResult
        As the GPU module's, with NumPy arrays (int64 level and parent, 0 where absent; bool
        presence) and ``host_syncs`` None.

    Raises
    ------
    InvalidValue
        Unknown strategy.
    """
    if strategy not in _RUNNERS:
        raise InvalidValue(f"bfs: strategy must be one of {STRATEGIES}; given {strategy!r}")
    optr = np.asarray(optr, dtype=np.int64)
    oidx = np.asarray(oidx, dtype=np.int64)
    n = optr.shape[0] - 1
    level = np.full(n, -1, dtype=np.int64)
    level[source] = 0
    parent = np.zeros(n, dtype=np.int64) if parents else None
    if parents:
        parent[source] = source

    got = []

    def ins():
        if not got:
            ip, ix = in_edges()
            got.append((np.asarray(ip, dtype=np.int64), np.asarray(ix, dtype=np.int64)))
        return got[0]

    st = {"level": level, "parent": parent, "optr": optr, "oidx": oidx, "source": int(source),
          "max_depth": max_depth, "in_edges": ins, "launches": 2,  # init and finish
          "rows": rows or (lambda: edge_rows(optr)), "splits": splits or (lambda k: split(optr, k))}
    depth = _RUNNERS[strategy](st)
    present = level >= 0
    lv = level[present]
    count = np.bincount(lv, minlength=depth + 1)
    deg = np.diff(optr)
    out_edges = np.bincount(lv, weights=deg[present], minlength=depth + 1).astype(np.int64)
    in_sums = None
    if strategy == "vertex_pull":
        ip, _ = st["in_edges"]()
        in_sums = np.bincount(lv, weights=np.diff(ip)[present], minlength=depth + 1).astype(np.int64)
    steps = steps_from_histogram(strategy, count, out_edges, in_sums, depth, int(oidx.shape[0]))
    out_parent = np.where(present, parent, 0) if parents else None
    return TraversalResult.from_rows(np.where(present, level, 0), present, out_parent, int(present.sum()), steps,
                                     st["launches"], None)


__all__ = ["bfs", "STRATEGIES", "gather", "claim", "split", "edge_rows", "bucket_of", "steps_from_histogram"]
