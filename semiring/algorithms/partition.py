"""Graph partitioning: k parts of nearly equal size joined by few (light) edges.

- ``method="multilevel"``: the multilevel k-way scheme of METIS (Karypis and Kumar 1998;
  Hendrickson and Leland 1995), in three phases.

  1. *Coarsening* by heavy-edge matching, in parallel rounds: every unmatched vertex proposes
     to its heaviest unmatched neighbour and mutual proposals match (the handshaking matching
     of Fagginger Auer and Bisseling 2012). The proposal is one ``max.plus`` product over a key
     matrix that holds each edge weight's (float32) bits above a random rank of the neighbour,
     so the maximum names the neighbour as well as the weight. Left-over vertices without
     neighbours pair with each other; when more than a tenth of the graph is left over, the
     others pair with a left-over vertex of the same heaviest neighbour (METIS's two-hop
     matching). Vertices heavier than half of ``1.5 n / target`` stay single. With C the
     n x n_c 0/1 matrix of the merge, the coarse graph is ``C' (W C)`` over ``plus.times``
     (weights of merged parallel edges add up; the diagonal, inside the merged pairs, is
     dropped) and the coarse vertex weights are ``vw plus.times C``.
  2. *Initial partition* of the coarsest graph (about 30 vertices per part, at least 60, or
     where matching stops shrinking the graph; a graph of at most twice that is not coarsened)
     by recursive bisection: greedy graph growing from INIT_TRIES random starts, each refined
     by Fiduccia-Mattheyses, the lowest cut kept.
  3. *Uncoarsening*: each finer level takes its coarse vertex's part (``p = C any.second p_c``)
     and is refined. First parallel greedy rounds: the connection of every vertex to every
     part is one product ``conn = W plus.times P`` (P the n x k part indicator); each vertex
     with a positive gain towards a neighbouring part proposes the best one, rounds alternate
     between moves to higher and to lower part ids (two neighbours never swap past each
     other), each part accepts proposals best first while it stays under its cap, and a round
     that made the cut worse (adjacent vertices moving together) is undone. Then
     Fiduccia-Mattheyses passes (:mod:`._partition_host`, sequential, on the host) in which the
     heavier side moves, as METIS's two-way FM does: from the boundary until a pass gains
     nothing, then from every vertex, so that, as in Kernighan-Lin, an interior vertex leaving
     the heavier side can make room for better moves back (this is what finds the
     core/periphery cuts of power-law graphs).

  Balance: every part weighs at most ``cap = max(ceil(n/k), floor((1 + imbalance) n/k))``
  vertices; vertices leave any part still above it at each level (cheapest first), so the
  result has ``balance(parts, k) <= cap / (n/k)``.
- ``method="bfs"``: BFS-grown parts (as in the level-structure partitioner of Farhat 1988): a BFS by level from a pseudo-peripheral vertex of
  each component (the last vertex reached by a first BFS, George and Liu 1979), each level
  ordered by its vertices' earliest parent (a ``min.second`` product over the parents' places,
  as Cuthill-McKee orders), and that order cut into k runs of ``floor``/``ceil(n/k)`` vertices.
  Fast and exactly balanced; its cut is what the multilevel method improves on.
- :func:`kernighan_lin_bisection`: Kernighan-Lin passes (single moves, alternating sides) from
  a random or given bisection; the gains are ``-s .* (W plus.times s)`` with ``s = +-1``.

On the GPU (a graph on device "gpu", k up to ``semiring.backends.gpu.partition.MAX_PARTS``) the
multilevel method is resident on the device (:mod:`semiring.backends.gpu.partition`): heavy-edge
matching and contraction by sorting on the device, the initial partition of the coarsest graph
on the host as above (a graph of at most DEVICE_SMALL vertices is not coarsened, and its
bisections also try KL_TRIES random starts improved by Kernighan-Lin; a coarsened graph split
into at most DEVICE_BOUNDARY_FM_K parts gets FM passes from its boundary only), then Jet
refinement (Gilbert, Madduri, Boman, Rajamanickam 2023: label propagation with an afterburner,
and exact rebalancing) on every level, and one more V-cycle that keeps the partition; the
refinement's choices and its stop are made on the device, so the host reads about once per
level. Kernighan-Lin's bisection of a graph of more than DEVICE_SMALL vertices is the same
refinement with each side's cap equal to its starting size, in V-cycles that keep the bisection
(coarsening merges vertices of one side only): the sides keep their sizes and the cut never
rises. On NY roads (264,346 vertices, 3 percent imbalance) its cuts are below METIS's for k = 2,
8 and 64 (``python -m benchmarks run --suite partition-gpu --quality``).

The graph must be undirected (a symmetric matrix). Values are edge weights (a bool pattern
weighs 1 per edge; explicit zeros are edges of weight 0); they must be non-negative and not
NaN. Self-loops are never cut and are ignored.

References
----------
G. Karypis, V. Kumar, "A fast and high quality multilevel scheme for partitioning irregular
graphs", SIAM J. Sci. Comput. 20(1), 1998; "Multilevel k-way partitioning scheme for irregular
graphs", J. Parallel Distrib. Comput. 48(1), 1998. B. Hendrickson, R. Leland, "A multilevel
algorithm for partitioning graphs", Supercomputing 1995. B. O. Fagginger Auer, R. H. Bisseling,
"A GPU algorithm for greedy graph matching", Facing the Multicore Challenge II, LNCS 7174,
2012. B. W. Kernighan, S. Lin, "An efficient heuristic procedure for partitioning graphs",
Bell System Technical Journal 49(2), 1970. C. M. Fiduccia, R. M. Mattheyses, "A linear-time
heuristic for improving network partitions", DAC 1982. C. Farhat, "A simple and efficient
automatic FEM domain decomposer", Computers and Structures 28(5), 1988. A. George, J. W. H.
Liu, "An implementation of a pseudoperipheral node finder", ACM TOMS 5(3), 1979. M. S.
Gilbert, K. Madduri, E. G. Boman, S. Rajamanickam, "Jet: multilevel graph partitioning on GPUs",
arXiv:2304.13194, 2023.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _checks
from .. import core as _core
from .._host import read as _read
from ..backends._xp import asnumpy
from ..core import _validate as _v
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..exceptions import DomainMismatch, InvalidValue
from ..ops import binary, indexunary, monoid, semiring, unary
from . import _partition_host as _host
from ._partition_coarsen import (  # noqa: F401 (the coarsening's constants and WEIGHT_KEY: importable here too)
    COARSEN_MIN, COARSEN_MIN_SHRINK, COARSEN_PER_PART, MATCH_ROUNDS, MATCH_STOP, TWO_HOP_FRACTION, WEIGHT_KEY,
    _coarsen, _Level, _project,
)
from ._partition_refine import (  # noqa: F401 (the refinement's constants: importable here too)
    FM_PASSES, GREEDY_ROUNDS, INIT_MIN_TRIES, INIT_TRIES, INIT_WORK, KL_TRY_PASSES, _initial, _initial_graph,
    _refine,
)
from .components import connected_components
from .graph import as_graph, on_graph_backend

_METHODS = ("multilevel", "bfs")
#: On the GPU, a graph of at most this many vertices is partitioned whole on the host (then
#: refined on the device), with KL_TRIES random starts improved by KL_TRY_PASSES Kernighan-Lin
#: passes besides the INIT_TRIES grown ones.
DEVICE_SMALL = 600
KL_TRIES = 8
#: On the GPU, a coarsened graph split into at most this many parts gets FM passes from its
#: boundary only in its initial partition (about half the host time; on NY roads at k = 8 the
#: device's refinement makes up for the rest: mean cut 270 against 277 over 16 seeds, while at
#: k = 64 the passes from every vertex gain about 1 percent).
DEVICE_BOUNDARY_FM_K = 8


# ---------------------------------------------------------------------------------------------
# input
# ---------------------------------------------------------------------------------------------

def _weights(A, what):
    """(Graph, W): W is A's weights as float64 without the diagonal, cached on the Graph."""
    G = as_graph(A, what)
    if G.kind != "undirected":
        raise InvalidValue(f"{what}: the graph must be undirected (a symmetric matrix, values included); "
                           "given a matrix that differs from its transpose")
    return G, G.partition_weights(what)


def _build_weights(G, what):
    """W = offdiag(A) as float64, its weights checked (bool, integer or float; no NaN; >= 0)."""
    A = G.A
    if A.dtype.kind not in "biuf":
        raise DomainMismatch(f"{what}: expected bool, integer or float edge weights; given dtype {A.dtype}")
    if A.dtype.kind == "f" and A.nvals:
        vals = A.to_coo()[2]
        if bool((vals != vals).any()):
            raise InvalidValue(f"{what}: edge weights must not be NaN; given a matrix with NaN values")
    if A.dtype.kind in "if" and _core.select(A, indexunary.valuelt, 0).nvals:
        raise InvalidValue(f"{what}: edge weights must be non-negative; given a matrix with negative values")
    # W = offdiag(A) as float64   (a pattern weighs 1)
    return _core.select(_core.apply(A, unary.identity).dup("float64"), indexunary.offdiag)


def _parts_array(parts, n, k, what):
    """Host int64 array of a part-id Vector (or array) of size n with every vertex present and
    values in 0..k-1 (k=None: any non-negative)."""
    if isinstance(parts, Vector):
        if parts.size != n:
            raise InvalidValue(f"{what}: parts must have one entry per vertex ({n}); given a Vector of size "
                               f"{parts.size}")
        if parts.nvals != n:
            raise InvalidValue(f"{what}: every vertex needs a part; given {n - parts.nvals} vertices without one")
        if parts.dtype.kind not in "biu":
            raise InvalidValue(f"{what}: part ids must be integers; given dtype {parts.dtype}")
        p = asnumpy(parts.to_dense())
    else:
        p = np.asarray(asnumpy(parts) if hasattr(parts, "get") else parts)
        if p.ndim != 1 or p.shape[0] != n:
            raise InvalidValue(f"{what}: parts must have one entry per vertex ({n}); given shape {p.shape}")
        if n and p.dtype.kind not in "biu":
            raise InvalidValue(f"{what}: part ids must be integers; given dtype {p.dtype}")
    p = p.astype(np.int64)
    if n and (p.min() < 0 or (k is not None and p.max() >= k)):
        bad = int(p[(p < 0) | (p >= (k if k is not None else np.iinfo(np.int64).max))][0])
        raise InvalidValue(f"{what}: part ids must be in 0..{'k-1' if k is None else k - 1}; given {bad}")
    return p


def _cap(n, k, imbalance):
    """Largest allowed part weight: max(ceil(n/k), floor((1 + imbalance) n/k))."""
    return max(-(-n // k), math.floor((1 + imbalance) * n / k + 1e-9))


# ---------------------------------------------------------------------------------------------
# multilevel: the three phases (_partition_coarsen, _partition_refine)
# ---------------------------------------------------------------------------------------------

def _multilevel(W, n, k, imbalance, seed):
    rng = np.random.default_rng(seed)
    cap = _cap(n, k, imbalance)
    levels = [_Level(W, np.ones(n, dtype=np.int64))]
    tol = 1e-9 * max(1.0, levels[0].total)
    target = max(COARSEN_PER_PART * k, COARSEN_MIN)
    maxvw = max(1, math.ceil(1.5 * n / target))
    while levels[-1].n > target and n > 2 * target:
        nxt = _coarsen(levels[-1], maxvw, rng)
        if nxt is None:
            break
        levels.append(nxt)
    parts = _initial(levels[-1], k, imbalance, rng, tol)
    parts = _refine(levels[-1], parts, k, cap, rng, tol, len(levels) == 1)
    for i in range(len(levels) - 2, -1, -1):
        parts = _refine(levels[i], _project(levels[i], parts), k, cap, rng, tol, i == 0)
    return parts


# ---------------------------------------------------------------------------------------------
# multilevel and Kernighan-Lin on the GPU (semiring.backends.gpu.partition)
# ---------------------------------------------------------------------------------------------

def _device_path(W, k):
    """The GPU's resident scheme runs for a graph on the GPU with k parts that fit its kernels
    (and whose matching keys, (hub * k + part) * n + v, fit in int64)."""
    if W.device != "gpu":
        return False
    from ..backends.gpu import partition as _gpu

    n = W.nrows
    return k <= _gpu.MAX_PARTS and (n + 1) * (k + 1) * n < 2**62


def _weight_summary(W):
    """(uniform, total) of the weights W: every edge weighs the same; the sum of the weights
    (one read from the device)."""
    w = W._values
    if not W.nvals:
        return True, 0.0
    xp = _v.xp_for(W.device)
    lo, hi, tot = (float(x) for x in _read(xp.stack((w.min(), w.max(), w.sum()))))
    return lo == hi, tot


def _device_arrays(G, W):
    """(indptr, indices, weights, uniform, total) of W, the graph's partition weights, on the
    device; uniform and total as :func:`_weight_summary` (kept on the Graph: read once)."""
    uniform, total = G.partition_weight_summary()
    return W._indptr, W._indices, W._values, uniform, total


def _multilevel_device(G, W, n, k, imbalance, seed):
    """Parts (device int64 array) of the multilevel scheme with Jet refinement on the GPU."""
    from ..backends.gpu import partition as _gpu

    ops = _gpu.CupyOps(k)
    indptr, indices, w, uniform, total = _device_arrays(G, W)
    tol = 1e-9 * max(1.0, total)

    def initial(hp, hi, hw, hvw, rng):
        # FM from every vertex too, except on a coarsened graph split into few parts
        interior = hvw.shape[0] == n or k > DEVICE_BOUNDARY_FM_K
        return _initial_graph(_host.HostGraph(hp, hi, hw, hvw), k, imbalance, rng, tol, KL_TRIES, interior)

    target = max(COARSEN_PER_PART * k, COARSEN_MIN)
    part = _gpu.multilevel(ops, indptr, indices, w, n, k, _cap(n, k, imbalance), seed, initial, target, uniform,
                           whole=DEVICE_SMALL)
    pw = ops.to_host(ops.part_weights(part, ops.xp.ones(n, dtype=np.int64), k))
    if (pw == 0).any():  # an empty part (tiny or edgeless graphs): give it a vertex on the host
        g = _host.HostGraph.from_matrix(W, np.ones(n, dtype=np.int64))
        plist = ops.to_host(part).tolist()
        _host.fill_empty(g, plist, pw.tolist(), k)
        return ops.xp.asarray(np.asarray(plist, dtype=np.int64))
    return part.astype(np.int64)


def _kl_device(G, W, n, side, max_iter, seed):
    """Kernighan-Lin's bisection (fixed side sizes) by Jet refinement in a V-cycle on the GPU."""
    from ..backends.gpu import partition as _gpu

    ops = _gpu.CupyOps(2)
    indptr, indices, w, uniform, _ = _device_arrays(G, W)
    start = ops.xp.asarray(side.astype(np.int32))
    part = _gpu.bisection(ops, indptr, indices, w, n, start, uniform, max_iter * _gpu.KL_ROUNDS_PER_PASS, seed)
    return part.astype(np.int64)


# ---------------------------------------------------------------------------------------------
# BFS-grown parts
# ---------------------------------------------------------------------------------------------

def _bfs_places(S, sources, n, dev):
    """BFS by level from all ``sources`` (host array, in the order given) at once; returns each
    vertex's place (host array): sources first, then each level ordered by (earliest parent's
    place, id). The places stay on the graph's device until the end: a level costs no copy
    between host and device."""
    xp = _v.xp_for(dev)
    sources = xp.asarray(sources, dtype=np.int64)
    place = xp.full(n, -1, dtype=np.int64)
    place[sources] = xp.arange(sources.size, dtype=np.int64)
    nxt = int(sources.size)
    frontier = Vector.from_coo(sources, place[sources], size=n, dtype="int64", device=dev)
    seen = frontier.dup("bool")
    while True:
        # frontier<!seen.S, replace> = S min.second frontier   (each new vertex: its earliest parent's place)
        frontier = _core.mxv(S, frontier, semiring.min_second, mask=~seen.S, replace=True)
        if not frontier.nvals:
            return asnumpy(place)
        idx, par = frontier.to_coo()
        idx = idx[xp.lexsort(xp.stack((idx, par)))]
        place[idx] = xp.arange(nxt, nxt + idx.size, dtype=np.int64)
        nxt += int(idx.size)
        frontier = Vector.from_coo(idx, place[idx], size=n, dtype="int64", device=dev)
        # seen<frontier.S> = true
        _core.assign(seen, True, None, mask=frontier.S)


def _bfs_parts(G, W, n, k):
    dev = W.device
    comp = asnumpy(connected_components(G).to_dense())
    roots = np.flatnonzero(comp == np.arange(n))  # the smallest vertex of each component
    place = _bfs_places(W, roots, n, dev)
    # pseudo-peripheral start of each component: the last vertex its first BFS reached
    last = np.zeros(n, dtype=np.int64)
    np.maximum.at(last, comp, place)
    by_place = np.empty(n, dtype=np.int64)
    by_place[place] = np.arange(n)
    starts = by_place[last[roots]]
    place = _bfs_places(W, starts, n, dev)
    order = np.lexsort((place, comp))  # component by component, each in BFS order
    parts = np.empty(n, dtype=np.int64)
    parts[order] = np.arange(n) * k // n
    return parts


# ---------------------------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------------------------

@on_graph_backend
def partition(A, k, *, method="multilevel", seed=0, imbalance=0.03):
    """Partition the vertices into k parts of nearly equal size with a small edge cut.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        An undirected graph (symmetric matrix). Values are edge weights: bool (each edge
        weighs 1), integer or float, non-negative, not NaN; explicit zeros are edges of weight
        0. Self-loops are ignored.
    k : int
        Number of parts, 1 <= k <= n (any k >= 1 when n = 0).
    method : {"multilevel", "bfs"}
        "multilevel": METIS-style multilevel k-way partitioning (heavy-edge matching, recursive
        bisection of the coarsest graph, greedy and Fiduccia-Mattheyses refinement at each
        level). "bfs": consecutive runs of a BFS order (exactly balanced, larger cut).
    seed : int
        Random choices (matching ranks, growing starts, tie orders); the result is
        deterministic for a given seed (on the GPU, for integer weights: sums of float weights
        may round differently from run to run). The GPU runs the device scheme of the module
        docstring, so its parts differ from the CPU's (its cuts are about equal or lower).
    imbalance : float
        Allowed excess of the largest part over n/k, as a fraction (0.03: 3 percent). Parts
        hold at most ``max(ceil(n/k), floor((1 + imbalance) n/k))`` vertices ("bfs" ignores it:
        its parts hold ``floor(n/k)`` or ``ceil(n/k)``).

    Returns
    -------
    Vector of int64, size n
        The part of every vertex, in 0..k-1; every part is non-empty.

    Raises
    ------
    InvalidValue
        A directed (non-symmetric) matrix, negative or NaN weights, k outside 1..n, an
        unknown method, a negative imbalance, or A not a Matrix or Graph.
    DimensionMismatch
        A is not square.
    DomainMismatch
        Weights that are not bool, integer or float.

    See Also
    --------
    edge_cut, balance, kernighan_lin_bisection

    References
    ----------
    Karypis, Kumar, "Multilevel k-way partitioning scheme for irregular graphs", J. Parallel
    Distrib. Comput. 48(1), 1998 (and the module docstring).

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.generators.grid(8, 8)
    >>> p = sr.algorithms.partition(A, 2)
    >>> sr.algorithms.edge_cut(A, p), sr.algorithms.balance(p, 2)
    (8, 1.0)
    """
    what = "partition"
    if method not in _METHODS:
        raise InvalidValue(f"{what}: method must be one of {_METHODS}; given {method!r}")
    G, W = _weights(A, what)
    n = G.n
    k = _checks.integer(k, what, "k", low=1)
    if n and k > n:
        raise InvalidValue(f"{what}: k must be at most the number of vertices ({n}); given {k}")
    imbalance = _checks.real(imbalance, what, "imbalance", low=0, finite=True)
    _checks.integer(seed, what, "seed", low=0)
    dev = W.device
    if n == 0 or k == 1:
        return Vector.from_dense(np.zeros(n, dtype=np.int64), device=dev)
    if method == "bfs":
        parts = _bfs_parts(G, W, n, k)
    elif _device_path(W, k):
        parts = _multilevel_device(G, W, n, k, imbalance, seed)
    else:
        parts = _multilevel(W, n, k, imbalance, seed)
    return Vector.from_dense(parts, device=dev)


@on_graph_backend
def edge_cut(A, parts):
    """Total weight of the edges whose ends lie in different parts (each undirected edge once).

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        An undirected graph, as for :func:`partition`.
    parts : Vector or array of int, size n
        A part id (>= 0) for every vertex.

    Returns
    -------
    int or float
        An int for bool or integer weights (a bool pattern counts edges), else a float.

    Raises
    ------
    InvalidValue
        As for :func:`partition`; ``parts`` of the wrong size, with a missing vertex, or with a
        negative or non-integer id.

    Notes
    -----
    With P the n x K part indicator, the weight each vertex keeps inside its part is
    ``(W plus.times P)(i, parts[i])``; the cut is half of (all weight - kept weight).
    """
    what = "edge_cut"
    G, W = _weights(A, what)
    n = G.n
    p = _parts_array(parts, n, None, what)
    exact = G.A.dtype.kind in "biu"
    if n == 0 or not W.nvals:
        return 0 if exact else 0.0
    if exact:  # integer arithmetic: exact for any size
        W = _core.apply(W, unary.identity).dup("int64")
    kk = int(p.max()) + 1
    P = Matrix.from_coo(np.arange(n), p, 1, nrows=n, ncols=kk, dtype=W.dtype, device=W.device)
    # kept = W plus.times P, restricted to (i, parts[i])   (weight inside each vertex's part)
    kept = _core.ewise_mult(_core.mxm(W, P, semiring.plus_times), P, binary.first)
    total = _core.reduce_scalar(W, monoid.plus)
    inside = _core.reduce_scalar(kept, monoid.plus) if kept.nvals else 0
    return int(total - inside) // 2 if exact else float(total - inside) / 2


def balance(parts, k):
    """The largest part's size over the average size: ``max_q |part q| / (n / k)``.

    Parameters
    ----------
    parts : Vector or array of int, size n >= 1
        A part id in 0..k-1 for every vertex.
    k : int
        Number of parts (>= 1).

    Returns
    -------
    float
        1.0 for perfectly equal parts; k when one part holds everything.

    Raises
    ------
    InvalidValue
        k < 1, no vertices, a missing vertex, or an id outside 0..k-1.
    """
    what = "balance"
    k = _checks.integer(k, what, "k", low=1)
    n = parts.size if isinstance(parts, Vector) else len(parts)
    if n == 0:
        raise InvalidValue(f"{what}: balance needs at least one vertex; given an empty partition")
    p = _parts_array(parts, n, k, what)
    return float(np.bincount(p, minlength=k).max() * k / n)


@on_graph_backend
def kernighan_lin_bisection(A, *, partition=None, max_iter=10, seed=0):
    """A bisection improved by Kernighan-Lin passes.

    Each pass moves one vertex at a time, alternately the unmoved vertex of side 0 and of side
    1 whose move lowers the cut most (gains updated after each move), then keeps the prefix of
    those pairs with the largest total gain; passes repeat while they gain, up to ``max_iter``.
    Both sides keep their sizes. On the GPU, a graph of more than DEVICE_SMALL vertices is
    refined on the device instead (module docstring: Jet rounds in V-cycles that keep the
    bisection, at most ``max_iter`` times KL_ROUNDS_PER_PASS rounds per level), with the same
    guarantees: the sides keep their sizes and the cut never rises.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        An undirected graph, as for :func:`partition`.
    partition : Vector or array of 0/1, size n, optional
        The starting bisection. Default: a random one with ``n // 2`` vertices on side 1
        (drawn from ``seed``).
    max_iter : int
        Most passes (>= 0); 0 returns the start.
    seed : int
        Random starting bisection when ``partition`` is None.

    Returns
    -------
    Vector of int64, size n
        0 or 1 for every vertex.

    Raises
    ------
    InvalidValue
        As for :func:`partition`; a ``partition`` with ids other than 0 and 1, of the wrong
        size or with missing vertices; a negative ``max_iter``.

    References
    ----------
    Kernighan, Lin, "An efficient heuristic procedure for partitioning graphs", Bell System
    Technical Journal 49(2), 1970; the single-move form is networkx's
    ``kernighan_lin_bisection``.

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 1, 1, 2, 2, 3, 3, 4], [1, 0, 2, 1, 3, 2, 4, 3], nrows=5, ncols=5)
    >>> p = sr.algorithms.kernighan_lin_bisection(A, partition=[0, 1, 0, 1, 0])
    >>> sr.algorithms.edge_cut(A, p)
    1
    """
    what = "kernighan_lin_bisection"
    G, W = _weights(A, what)
    n = G.n
    max_iter = _checks.integer(max_iter, what, "max_iter", low=0)
    if partition is None:
        _checks.integer(seed, what, "seed", low=0)
        side = np.zeros(n, dtype=np.int64)
        side[np.random.default_rng(seed).permutation(n)[: n // 2]] = 1
    else:
        side = _parts_array(partition, n, 2, what)
    dev = W.device
    if n > DEVICE_SMALL and max_iter and _device_path(W, 2):
        return Vector.from_dense(_kl_device(G, W, n, side, max_iter, seed), device=dev)
    g = _host.HostGraph.from_matrix(W, np.ones(n, dtype=np.int64)) if n else None
    for _ in range(max_iter if n else 0):
        s = (2 * side - 1).astype(np.float64)
        # t = W plus.times s   (s = +1 on side 1, -1 on side 0);  gain = -s .* t = external - internal
        t = _core.mxv(W, Vector.from_dense(s, device=dev), semiring.plus_times)
        gain = -s * asnumpy(t.to_dense(0.0))
        _, pairs = _host.kl_sweep(g, side.tolist(), gain.tolist())
        if not pairs:
            break
        a, b = np.asarray(pairs, dtype=np.int64).T
        side[a], side[b] = 1, 0
    return Vector.from_dense(side, device=dev)


__all__ = ["partition", "edge_cut", "balance", "kernighan_lin_bisection"]
