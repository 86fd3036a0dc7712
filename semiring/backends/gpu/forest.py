"""Union-find on the device: connected components and Borůvka's minimum spanning forest.

- Connected components as ECL-CC computes them (Jaiganesh, Burtscher 2018): every vertex
  starts with a parent pointer to itself or to its first smaller neighbour; one pass over the
  arcs unites the trees of each arc's ends, hooking the larger root under the smaller by a
  compare-and-swap (a failed swap retries from the root it found), with path halving on every
  walk to a root (intermediate pointer jumping); a last pass points every vertex at its root.
  Parents are never larger than their children, so each tree's root is its component's
  smallest vertex: the labelling of the CPU's FastSV. Three launches, no host read.
- Borůvka (1926) on the edges numbered in key order (weight, then tie-break: distinct keys make
  the forest unique): each round every component takes its lightest outgoing edge by
  ``atomicMin`` on the edge's key, hooks onto the component across it (of two components that
  chose the same edge the smaller stays root; distinct keys leave no other cycle), and pointer
  jumping with path halving makes every vertex point at its new root; edges inside a component
  are marked dead. Every round at least halves the components that still have an outgoing
  edge, so there are O(log n). On a matrix's own entries (``spanning_forest``) all rounds run in
  one persistent launch, separated by grid barriers; on a list of ranked edges (``boruvka``)
  each round reads one count (the hooks it made) back to the host.
  As in ECL-MST (Fallin, Gonzalez, Seo, Burtscher 2023), the components are union-find trees
  over the original vertices rather than a contracted graph.

References: J. Jaiganesh, M. Burtscher, "A high-performance connected components implementation
for GPUs", HPDC 2018; O. Borůvka, "O jistém problému minimálním", 1926; A. Fallin, A. Gonzalez,
J. Seo, M. Burtscher, "A high-performance MST implementation for GPUs", SC 2023.
"""

from __future__ import annotations

import numpy as np

from ... import _host
from . import _persistent as _p
from . import compiler
from ._persistent import index_types

#: Threads per block of these kernels.
BLOCK = 256


def _blocks(count, cap=65535):
    return max(1, min(cap, -(-int(count) // BLOCK)))


def _lanes(n, nnz):
    """Lanes per vertex for the hooking pass: the average degree rounded up to a power of two,
    at most a warp."""
    avg = nnz / max(n, 1)
    vw = 1
    while vw < 32 and vw < avg:
        vw *= 2
    return vw


def components(S, symmetric):
    """Weakly connected components of the pattern of S (n x n, on the device).

    Parameters
    ----------
    S : Matrix on the GPU, shape (n, n), n < 2**31
    symmetric : bool
        S is known to be symmetric: each edge is united once (from its larger end).

    Returns
    -------
    cupy int64 array, shape (n,)
        The smallest vertex of each vertex's component.
    """
    import cupy as cp

    n = S.nrows
    ipt, ixt = index_types(S._indptr, S._indices)
    vw = _lanes(n, S._indices.size)
    defs = {"IPT": ipt, "IXT": ixt, "VW": vw}
    parent = cp.empty(max(n, 1), dtype=cp.int32)
    labels = cp.empty(n, dtype=cp.int64)
    if n == 0:
        return labels
    nn = np.int32(n)
    compiler.kernel("forest.cu", "cc_init", defs)((_blocks(n),), (BLOCK,), (S._indptr, S._indices, nn, parent))
    compiler.kernel("forest.cu", "cc_hook", defs)((_blocks(n * vw),), (BLOCK,),
                                                  (S._indptr, S._indices, nn, parent, np.int32(bool(symmetric))))
    compiler.kernel("forest.cu", "cc_flatten", defs)((_blocks(n),), (BLOCK,), (nn, parent))
    compiler.kernel("forest.cu", "cc_labels", defs)((_blocks(n),), (BLOCK,), (nn, parent, labels))
    return labels


def boruvka(n, eu, ev):
    """The minimum spanning forest of the edges ``(eu[k], ev[k])`` numbered in key order.

    Parameters
    ----------
    n : int
        Vertices (< 2**31).
    eu, ev : cupy integer arrays, shape (m,), m < 2**31 - 1
        The ends of edge k; edge k is lighter than edge k + 1 (distinct keys).

    Returns
    -------
    keys : cupy int64 array
        The keys of the forest's edges, increasing.
    reads : int
        Host reads: one per Borůvka round and one for the number of forest edges.
    """
    import cupy as cp

    m = int(eu.size)
    if n == 0 or m == 0:
        return cp.empty(0, dtype=cp.int64), 0
    defs = {"IPT": "int", "IXT": "int", "VW": 1}
    k = {name: compiler.kernel("forest.cu", name, defs)
         for name in ("bv_reset", "bv_lightest", "bv_hook", "bv_jump", "bv_collect")}
    eu = cp.ascontiguousarray(eu, dtype=cp.int32)
    ev = cp.ascontiguousarray(ev, dtype=cp.int32)
    comp = cp.arange(n, dtype=cp.int32)
    parent = cp.empty(n, dtype=cp.int32)
    best = cp.empty(n, dtype=cp.int32)
    dead = cp.zeros(m, dtype=cp.uint8)
    in_forest = cp.zeros(m, dtype=cp.uint8)
    hooked = cp.zeros(1, dtype=cp.int32)
    nn, mm = np.int32(n), np.int32(m)
    rounds = 0
    while True:
        rounds += 1
        hooked.fill(0)
        k["bv_reset"]((_blocks(n),), (BLOCK,), (nn, best))
        k["bv_lightest"]((_blocks(m),), (BLOCK,), (mm, eu, ev, comp, dead, best))
        k["bv_hook"]((_blocks(n),), (BLOCK,), (nn, eu, ev, comp, best, parent, in_forest, hooked))
        k["bv_jump"]((_blocks(n),), (BLOCK,), (nn, parent, comp))
        if _host.read_int(hooked) == 0:
            break
    pos = cp.cumsum(in_forest, dtype=cp.int32)
    keys = cp.empty(_host.read_int(pos[-1:]), dtype=cp.int64)
    k["bv_collect"]((_blocks(m),), (BLOCK,), (mm, in_forest, pos, keys))
    return keys, rounds + 1


def _value_kind(dtype):
    kind = np.dtype(dtype).kind
    return 0 if kind == "f" else 1 if kind == "i" else 2


def spanning_forest(A):
    """The minimum spanning forest of the symmetric Matrix A (on the GPU), as a Matrix.

    Borůvka on A's own entries: edge {u, v} is the entry (u, v) with u < v, ordered by (weight,
    entry position), which is (weight, min end, max end): the keys of
    ``semiring.algorithms.mst``. The forest's entries (both ways) are then cut out of A's CSR
    (each forest edge finds its mirror entry by binary search), so no sort is needed. Every
    round runs in one persistent launch, its steps separated by grid barriers (as in ECL-MST,
    which keeps its rounds on the device): the host reads only the forest's size.

    Returns
    -------
    F : Matrix on the GPU, A's shape and dtype
    reads : int
        Host reads: one (the forest's size), none for an empty graph.

    Raises
    ------
    RuntimeError
        A grid barrier timed out (not every block was resident at once).
    """
    import cupy as cp

    from ...core.matrix import Matrix

    n, nnz = A.nrows, int(A._indices.size)
    rows = A._row_ids()
    ipt, ixt = index_types(A._indptr, A._indices)
    rxt = index_types(rows)[0]
    from .compiler import ctype

    defs = {"IPT": ipt, "IXT": ixt, "VW": 1, "VT": ctype(A.dtype), "VKIND": _value_kind(A.dtype), "RXT": rxt}
    k = {name: _p.kernel("forest.cu", name, **defs) for name in ("msf_rounds", "msf_mirror", "msf_collect")}
    ptr, idx, vals = A._indptr, A._indices, A._values
    # few allocations (each costs the host more than a small graph's rounds): comp and parent,
    # bw and be, dead and in_forest, and the barrier with the counters share one buffer each
    m1 = max(n, 1)
    comp, parent = cp.empty(2 * m1, dtype=cp.int32).reshape(2, m1)
    bw, be = cp.empty(2 * m1, dtype=cp.uint64).reshape(2, m1)
    dead, in_forest = cp.zeros(2 * max(nnz, 1), dtype=cp.uint8).reshape(2, max(nnz, 1))
    words = cp.zeros(64 + 8, dtype=cp.uint32)  # 64 barrier words, then hooked[3] and ctl[2]
    bar, hooked, ctl = words[:64], words[64:67].view(cp.int32), words[67:69].view(cp.int32)
    nn, mm = np.int32(n), np.int64(nnz)
    if n and nnz:
        # every round in one persistent launch (no more blocks than the larger step has items)
        blocks = min(_p.grid_size(k["msf_rounds"], ("msf_rounds",) + tuple(defs.values())),
                     -(-max(n, nnz) // _p.BLOCK))
        k["msf_rounds"]((blocks,), (_p.BLOCK,), (nn, mm, rows, idx, vals, comp, parent, bw, be, dead, in_forest,
                                                 hooked, ctl, bar))
    if nnz:
        k["msf_mirror"]((_blocks(nnz),), (BLOCK,), (mm, ptr, rows, idx, in_forest))
    pos = cp.zeros(nnz + 1, dtype=cp.int64)
    pos[1:] = cp.cumsum(in_forest[:nnz], dtype=cp.int64)
    reads = 0
    total = 0
    if n and nnz:
        # one read: the forest's size and whether every barrier held
        total, failed = (int(x) for x in _host.read(cp.stack((pos[-1], ctl[1].astype(cp.int64)))))
        reads = 1
        if failed:
            raise RuntimeError("minimum_spanning_forest: a grid barrier timed out (not every block was "
                               "resident); no result")
    out_idx = cp.empty(total, dtype=idx.dtype)
    out_vals = cp.empty(total, dtype=vals.dtype)
    if total:
        k["msf_collect"]((_blocks(nnz),), (BLOCK,), (mm, in_forest, pos, idx, vals, out_idx, out_vals))
    indptr = pos[ptr].astype(ptr.dtype)
    return Matrix._from_csr(n, n, A.dtype, indptr, out_idx, out_vals), reads
