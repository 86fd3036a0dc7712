"""Community detection: modularity and the Louvain method, as products with a community
indicator matrix.

For an undirected weighted graph and a partition of its vertices into K communities, let ``C``
be the n x K indicator (``C(i, c) = 1`` iff vertex i is in community c). Everything the
method needs is a product with ``C``:

- ``W plus.times C``: ``(W C)(i, c)`` is the weight from vertex i into community c (the
  per-(vertex, community) sums of the local-moving step);
- ``k plus.times C``: ``Sigma(c)``, the total degree of community c;
- ``C' plus.times W plus.times C``: the community graph of the coarsening step, whose
  diagonal is each community's internal weight.

Modularity (Newman and Girvan 2004; with the resolution gamma of Reichardt and Bornholdt 2006)
is then ``Q = sum_c [ (C'WC)(c, c) / 2m - gamma (Sigma(c) / 2m)^2 ]`` with ``k = W 1`` and
``2m = 1'W1``. As in networkx, a self-loop of weight w adds 2w to its vertex's degree and w to
its community's internal weight; the module therefore works on ``W = A + diag(A)``.

Louvain (Blondel, Guillaume, Lambiotte, Lefebvre 2008) alternates *local moving* (vertices
join the neighbouring community of largest modularity gain) and *coarsening* (each community
becomes a vertex of ``C'WC``) until a level gains no more than ``threshold``. Moving vertex i
(degree k_i) from community a to community c changes Q by

    dQ = ((W C)(i, c) - (W C)(i, a) + W(i, i)) / m - gamma k_i (Sigma(c) - Sigma(a) + k_i) / (2 m^2)

(networkx's ``louvain_communities`` docstring derives the same). Here local moving runs in
parallel rounds, as parallel and GPU implementations do: every active vertex scores all its
neighbouring communities at once from the current totals (one ``plus.times`` product of its
rows of ``diag(1 / k) W``, computed once per level, with ``C``, then a column shift by
``gamma Sigma / 2m`` as an ``any.minus`` product with a diagonal matrix), picks the best with a
``max`` reduction and an ``any.eq`` product of ``diag(best)`` with the scores (an argmax, ties
to the smallest community label: the minimum-label heuristic of Lu, Halappanavar and
Kalyanaraman 2015), and all winners move together. Simultaneous moves use stale totals and can
undo each other (two vertices swapping communities forever) or overshoot (many vertices joining
one community at once); two rules keep them in check:

- *Up/Down rounds* (cuGraph's Louvain, after Lu et al. 2015): in even rounds a vertex may
  only move to a community with a smaller label, in odd rounds only to a larger one, so two
  vertices never swap in one round. The label condition is one ``any.gt`` (``any.lt``)
  product of ``diag(labels)`` with the candidates' column indices.
- *Backoff* (a safeguard of this implementation): a round whose moves would lower Q is
  retried with a random half of them, up to ``BACKOFF_TRIES`` times, and otherwise dropped.
  Q is recomputed exactly after each round from the rows of the movers and their neighbours
  (a masked ``plus.times`` product with ``C``), so it never decreases.

A level's local moving ends after two successive rounds (one up, one down) gaining no more
than ``min(threshold, 1e-7)``.

*Vertex dropping* (the "early termination" of Ghosh et al. 2018): a vertex that kept its
community over the last sweep stays active in the next with probability ``P <- P (1 - alpha)``;
one that moved is active again for sure (``P = 1``). A sweep here is an up round and a down
round (the parallel counterpart of one sequential pass over the vertices); the active set is
drawn once per sweep. Inactive vertices keep their community and still count in every total;
only the rows of the active vertices (and, to update Q, of the movers and their neighbours) are
multiplied, so late rounds touch a shrinking part of the graph. ``alpha = deactivation = 0``
keeps every vertex active.

On the GPU, ``louvain`` runs a different formulation, resident on the device
(:mod:`semiring.backends.gpu.louvain`): local moving in the style of GVE-Louvain and
nu-Louvain (Sahu 2023, 2025: one warp per vertex, a per-vertex hash table of the weights into
the neighbouring communities, vertex pruning, atomic updates of Sigma, coarsening by a sort and
a segmented sum) with moves made nearly sequential: the vertices are colored (Jones-Plassmann)
and the vertices of one color class, never adjacent, move together, each only when its gain
beats its share of the cross terms with the other movers into its target and out of its source
(or when it holds both communities' claims), so every step raises Q as a sequential sweep
would. Weights are rounded to 62-bit fixed point, so every sum is exact and a run is
deterministic. After the last level, the final partition is refined level by level from the
top (Rotta and Noack 2011), and graphs of under 2**20 entries run as the disjoint union of up
to 16 copies with different colorings, keeping the best (see that module). Its modularity is at
least the best of networkx's ``louvain_communities`` over seeds 0-4 (seed 0 on the road
network), at the same resolution, on every graph of this collection
(``tests/test_gpu_louvain.py``): networkx's karate_club_graph (weighted),
davis_southern_women_graph, florentine_families_graph and les_miserables_graph; LAGraph's
karate, jagmesh7, bcsstk13 (pattern), test_FW_2003, zenios, ldbc-undirected-example, A and
tree-example; the DIMACS coloring graphs anna, huck, homer, le450_5a, miles250, queen8_8, myciel7
and games120; the DIMACS USA-road-t.NY road network (pattern and travel times); Graph500
Kronecker graphs of scales 10 and 12; and a weighted random geometric graph of 2**11 vertices at
resolutions 0.5, 1 and 2 (against networkx's seeds 0-2).

References
----------
V. D. Blondel, J.-L. Guillaume, R. Lambiotte, E. Lefebvre, "Fast unfolding of communities in
large networks", J. Stat. Mech. P10008, 2008.
M. E. J. Newman, M. Girvan, "Finding and evaluating community structure in networks", Phys.
Rev. E 69, 026113, 2004.
J. Reichardt, S. Bornholdt, "Statistical mechanics of community detection", Phys. Rev. E 74,
016110, 2006.
H. Lu, M. Halappanavar, A. Kalyanaraman, "Parallel heuristics for scalable community
detection", Parallel Computing 47, 2015.
S. Ghosh, M. Halappanavar, A. Tumeo, A. Kalyanaraman, H. Lu, D. Chavarria-Miranda, A. Khan,
A. Gebremedhin, "Distributed Louvain algorithm for graph community detection", IPDPS 2018.
cuGraph, ``cpp/src/community/README.md`` (the Up/Down rule of its GPU Louvain).
S. Sahu, "GVE-Louvain: fast Louvain algorithm for community detection in shared memory
setting", arXiv:2312.04876, 2023; S. Sahu, "CPU vs. GPU for community detection: performance
insights from GVE-Louvain and nu-Louvain", arXiv:2501.19004, 2025. R. Rotta, A. Noack,
"Multilevel local search algorithms for modularity clustering", ACM J. Exp. Algorithmics 16, 2011.
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import core as _core
from ..backends._xp import asnumpy
from ..backends.gpu import louvain as _device_louvain
from ..core import _validate as _v
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..exceptions import DimensionMismatch, DomainMismatch, IndexOutOfBound, InvalidValue
from ..ops import binary, indexunary, monoid, semiring, unary
from ..ops.semiring import Semiring
from .graph import as_graph, on_graph_backend

#: Default probability decay of a vertex that kept its community (``alpha`` of Ghosh et al.).
DEACTIVATION = 0.1
#: A vertex moves only if its best score beats staying by more than this (scores are gains
#: divided by k_i / m, of order 1): equal scores from rounding do not move it.
MOVE_TOLERANCE = 1e-12
#: Local-moving rounds per level at most (a guard: a level ends long before on real graphs).
MAX_ROUNDS = 1000
#: Halvings of a round's moves (a random half kept each time) before giving it up, when the
#: simultaneous moves lowered Q.
BACKOFF_TRIES = 6
#: Successive rounds gaining no more than ``min(threshold, ROUND_GAIN)`` end a level (two: one
#: up round and one down round).
STALL_ROUNDS = 2
#: A round gaining no more than this (or ``threshold`` if smaller) counts toward the end of a level.
ROUND_GAIN = 1e-7

# (a_v) any.gt (c): the candidate community c has a smaller label than v's community a_v
_SMALLER = Semiring(monoid.any, binary.gt)
# (a_v) any.lt (c): a larger label
_LARGER = Semiring(monoid.any, binary.lt)
# score(v, c) any.minus sigma(c): a column shift by a diagonal matrix
_ANY_MINUS = Semiring(monoid.any, binary.minus)
# best(v) any.eq score(v, c): where a row reaches its maximum
_ANY_EQ = Semiring(monoid.any, binary.eq)


# ---------------------------------------------------------------------------------------------
# input
# ---------------------------------------------------------------------------------------------

class _Weights:
    """W = A + diag(A) as float64 with its degrees k = W 1, self weights d = diag(W) and 2m = 1'W1
    (host or device arrays of length n)."""

    def __init__(self, W, k, d, two_m):
        self.W, self.k, self.d, self.two_m = W, k, d, two_m


def _weights(G, what):
    """The checked weights of an undirected graph (computed once per Graph)."""
    return G.community_weights(what)


def _build_weights(G, what):
    A, n = G.A, G.n
    if G.kind != "undirected":
        raise InvalidValue(f"{what}: expected an undirected graph (a symmetric matrix, values included); "
                           f"given a {n}x{n} matrix that differs from its transpose")
    if A.dtype.kind not in "biuf":
        raise DomainMismatch(f"{what}: expected real edge weights (bool, int or float); given dtype {A.dtype}")
    xp = _v.xp_for(A.device)
    # W = A as float64 (a bool pattern weighs 1 per edge)
    W = _core.apply(A, unary.one).dup("float64") if A.dtype.kind == "b" else A.dup("float64")
    vals = W.to_coo()[2]
    if vals.shape[0]:
        bad = ~xp.isfinite(vals)
        if bool(bad.any()):
            raise InvalidValue(f"{what}: expected finite edge weights; given {int(bad.sum())} NaN or infinite")
        low = float(vals.min())
        if low < 0:
            raise InvalidValue(f"{what}: expected non-negative edge weights (modularity needs them); "
                               f"given a weight of {low}")
    # W = W + diag(W)   (a self-loop counts twice in its vertex's degree, as in networkx)
    W = _core.ewise_add(W, _core.select(W, indexunary.diag), binary.plus)
    # k = plus_reduce_rowwise(W);  d = plus_reduce_rowwise(diag(W))
    k = _core.reduce_rowwise(W, monoid.plus).to_dense(0.0)
    d = _core.reduce_rowwise(_core.select(W, indexunary.diag), monoid.plus).to_dense(0.0)
    return _Weights(W, k, d, float(k.sum()))


def _real(x, what, *, low=None, high=None):
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real) or not np.isfinite(float(x)):
        raise InvalidValue(f"{what}: expected a finite real number; given {x!r}")
    x = float(x)
    if (low is not None and x < low) or (high is not None and x >= high):
        raise InvalidValue(f"{what}: expected a number in [{low}, {high}); given {x}")
    return x


def _labels_of(communities, n, device, what):
    """Compact labels (int64 array on the device, values 0..K-1) and K for a partition given as a
    Vector of labels or as an iterable of sets of vertex indices."""
    xp = _v.xp_for(device)
    if isinstance(communities, Vector):
        if communities.size != n:
            raise DimensionMismatch(f"{what}: expected one label per vertex (a Vector of size {n}); "
                                    f"given size {communities.size}")
        if communities.dtype.kind not in "iu":
            raise DomainMismatch(f"{what}: expected integer community labels; given dtype {communities.dtype}")
        if communities.nvals != n:
            raise InvalidValue(f"{what}: every vertex needs a community label; "
                               f"{n - communities.nvals} of {n} are absent")
        labels = xp.asarray(communities.to(device).to_dense()).astype(np.int64)
        return _compact_any(labels, xp)
    if isinstance(communities, (Matrix, str, bytes)) or not hasattr(communities, "__iter__"):
        raise InvalidValue(f"{what}: expected a Vector of labels or an iterable of sets of vertex indices; "
                           f"given {type(communities).__name__}")
    owner = np.full(n, -1, dtype=np.int64)
    K = 0
    for c, part in enumerate(communities):
        if isinstance(part, (str, bytes)) or not hasattr(part, "__iter__"):
            raise InvalidValue(f"{what}: each community must be a set of vertex indices; given {part!r}")
        for v in part:
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
                raise InvalidValue(f"{what}: vertex indices must be integers; given {v!r}")
            if not 0 <= v < n:
                raise IndexOutOfBound(f"{what}: a vertex must be in 0..{n - 1}; given {v}")
            if owner[v] >= 0:
                raise InvalidValue(f"{what}: the communities must be disjoint (a partition); "
                                   f"vertex {v} is in communities {owner[v]} and {c}")
            owner[v] = c
        K = c + 1
    missing = np.flatnonzero(owner < 0)
    if missing.shape[0]:
        raise InvalidValue(f"{what}: the communities must cover every vertex (a partition); "
                           f"{missing.shape[0]} vertices are in none, e.g. {int(missing[0])}")
    return xp.asarray(owner), K


def _compact_any(labels, xp):
    """Labels renumbered 0..K-1 in increasing order of value (a sort and an adjacent difference)."""
    if labels.shape[0] == 0:
        return labels, 0
    order = xp.argsort(labels)
    s = labels[order]
    rank = xp.zeros(labels.shape[0], dtype=np.int64)
    rank[1:] = xp.cumsum(s[1:] != s[:-1])
    out = xp.empty_like(rank)
    out[order] = rank
    return out, int(rank[-1]) + 1


def _compact(a, xp):
    """Labels in 0..n-1 renumbered 0..K-1 (the used ones, in order)."""
    used = xp.zeros(a.shape[0], dtype=bool)
    used[a] = True
    new = xp.cumsum(used) - 1
    return new[a], int(used.sum())


# ---------------------------------------------------------------------------------------------
# matrices of the method
# ---------------------------------------------------------------------------------------------

def _indicator(labels, K, device, rows=None):
    """C(i, labels(i)) = 1.0 (n x K float64); ``rows`` picks a subset of rows (len(rows) x K)."""
    xp = _v.xp_for(device)
    lab = labels if rows is None else labels[rows]
    r = lab.shape[0]
    return Matrix.from_coo(xp.arange(r, dtype=np.int64), lab, xp.ones(r, dtype=np.float64),
                           nrows=r, ncols=K, dtype="float64", device=device)


def _diag(values, device, rows=None, size=None):
    """diag(values) (or values at ``rows`` of a size x size diagonal)."""
    xp = _v.xp_for(device)
    if rows is None:
        size = values.shape[0]
        rows = xp.arange(size, dtype=np.int64)
    return Matrix.from_coo(rows, rows, values, nrows=size, ncols=size, device=device)


def _rows(W, rows):
    """W(rows, :) as the product R any.second W with the selection R(t, rows(t)) = 1 (faster here
    than extract, which also matches every column against the column list)."""
    if rows.shape[0] == W.nrows:
        return W
    # Wr = R any.second W
    return _core.mxm(_indicator(rows, W.nrows, W.device), W, semiring.any_second)


def _quality(Wt, labels, K, gamma):
    """Q of a partition (labels: compact, on the device) by the indicator products."""
    W, two_m = Wt.W, Wt.two_m
    device = W.device
    C = _indicator(labels, K, device)
    # inside<C.S> = W plus.times C     (only the terms into each vertex's own community)
    inside = _core.mxm(W, C, semiring.plus_times, mask=C.S)
    # sigma = k plus.times C           (total degree of each community)
    sigma = _core.vxm(Vector.from_dense(Wt.k, device=device), C, semiring.plus_times)
    # q_in = plus_reduce(inside);  q_tot = plus_reduce(sigma .* sigma)
    q_in = float(_core.reduce_scalar(inside, monoid.plus))
    q_tot = float(_core.reduce_scalar(_core.ewise_mult(sigma, sigma, binary.times), monoid.plus))
    return q_in / two_m - gamma * q_tot / (two_m * two_m)


@on_graph_backend
def modularity(A, communities, *, resolution=1.0):
    """The modularity of a partition of an undirected weighted graph.

    ``Q = sum_c [ L_c / m - resolution * (K_c / 2m)^2 ]`` with ``m`` the total edge weight,
    ``L_c`` the weight of the edges inside community c and ``K_c`` the total degree of its
    vertices; a self-loop of weight w counts w in ``L_c``, ``m`` and 2w in the degree (the
    formula and conventions of ``networkx.community.modularity``). Computed as
    ``(1'(W C .* C)1 - resolution * |k'C|^2 / 2m) / 2m`` with the n x K indicator ``C``
    (see the module docstring).

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        Symmetric, with non-negative finite weights (a bool pattern weighs 1 per edge).
    communities : Vector of int, size n, or iterable of sets of int
        A community label for every vertex (any integers; equal labels, same community), or
        the communities as sets of vertex indices (each vertex in exactly one).
    resolution : float, default 1.0
        The gamma of Reichardt and Bornholdt: above 1 favours smaller communities.

    Returns
    -------
    float

    Raises
    ------
    InvalidValue
        A is not symmetric, has a negative, NaN or infinite weight, or has no edge weight at
        all (m = 0: Q is undefined); ``communities`` is not a partition (a vertex in none or
        two, a label missing); ``resolution`` is not a finite number.
    IndexOutOfBound
        A set holds an index outside 0..n-1.
    DimensionMismatch
        A is not square, or the label Vector is not of size n.
    DomainMismatch
        Labels that are not integers; weights that are not real numbers.

    References
    ----------
    M. E. J. Newman, M. Girvan, Phys. Rev. E 69, 026113, 2004; J. Reichardt, S. Bornholdt,
    Phys. Rev. E 74, 016110, 2006; networkx ``community.modularity``.

    Examples
    --------
    >>> import semiring as sr
    >>> # two triangles joined by the edge 2-3 (networkx's barbell_graph(3, 0))
    >>> r = [0, 0, 1, 2, 3, 3, 4]
    >>> c = [1, 2, 2, 3, 4, 5, 5]
    >>> A = sr.Matrix.from_coo(r + c, c + r, nrows=6, ncols=6, dtype="bool")
    >>> round(sr.algorithms.modularity(A, [{0, 1, 2}, {3, 4, 5}]), 6)   # 35 * 2 / 14**2
    0.357143
    """
    what = "modularity"
    G = as_graph(A, what)
    gamma = _real(resolution, f"{what}: resolution")
    Wt = _weights(G, what)
    labels, K = _labels_of(communities, G.n, G.A.device, what)
    if Wt.two_m == 0:
        raise InvalidValue(f"{what}: undefined for a graph without edge weight (m = 0); given {G.n} vertices "
                           f"and {G.nedges} stored entries, all of weight 0")
    return _quality(Wt, labels, K, gamma)


# ---------------------------------------------------------------------------------------------
# Louvain
# ---------------------------------------------------------------------------------------------

class _Level:
    """One level's graph: weights W (n x n), degrees k, self weights d (device arrays), and the
    rows of W divided by the degrees (Wk)."""

    def __init__(self, W, k, d):
        self.W, self.k, self.d = W, k, d
        self.n = W.nrows
        self.kvec = Vector.from_dense(k, device=W.device)
        xp = _v.xp_for(W.device)
        kinv = xp.where(k > 0, 1.0 / xp.where(k > 0, k, 1.0), 0.0)
        # Wk = diag(1 / k) any.times W    (0 for the rows of vertices without weight)
        self.Wk = _core.mxm(_diag(kinv, W.device), W, semiring.any_times)


def _best_moves(L, C, a, act, own_in, sigma, two_m, gamma, smaller):
    """(vertices, new communities) of the active vertices ``act`` whose best neighbouring
    community (among smaller labels, or larger ones) beats staying."""
    device = L.W.device
    xp = _v.xp_for(device)
    r = act.shape[0]
    # S = Wk(act, :) plus.times C    (S(v, c): the weight from active vertex v into community c, over k_v)
    S = _core.mxm(_rows(L.Wk, act), C, semiring.plus_times)
    # X = colindex(S)    (each entry's community label)
    X = _core.apply(S, indexunary.colindex)
    # allowed = diag(a(act)) any.gt X   (a smaller label; any.lt: a larger one)
    allowed = _core.mxm(_diag(a[act], device), X, _SMALLER if smaller else _LARGER)
    # cand<allowed.V> = S
    cand = _core.apply(S, unary.identity, mask=allowed.V)
    # score = cand any.minus diag(gamma sigma / 2m)    (score(v, c) = S(v, c) - gamma sigma(c) / 2m:
    #         the gain of moving v to c, over k_v / m, but for the part that does not depend on c)
    score = _core.mxm(cand, _diag(gamma * sigma / two_m, device), _ANY_MINUS)
    # best = max_reduce_rowwise(score)
    best = _core.reduce_rowwise(score, monoid.max)
    bi, bv = best.to_coo()
    if not bi.shape[0]:
        return bi, bi
    v = act[bi]
    # stay(v) = (weight into its own community, self-loop aside) / k_v - gamma (sigma(a_v) - k_v) / 2m
    stay = (own_in[v] - L.d[v]) / L.k[v] - gamma * (sigma[a[v]] - L.k[v]) / two_m
    win = xp.flatnonzero(bv - stay > MOVE_TOLERANCE)
    if not win.shape[0]:
        return win, win
    rows = bi[win]
    # E = diag(best(rows)) any.eq score   (the entries reaching each winner's best score)
    E = _core.mxm(_diag(bv[win], device, rows=rows, size=r), score, _ANY_EQ)
    # lab<E.V> = colindex(score);  target = min_reduce_rowwise(lab)   (ties: the smallest label)
    lab = _core.apply(score, indexunary.colindex, mask=E.V)
    ti, tv = _core.reduce_rowwise(lab, monoid.min).to_coo()
    return act[ti], tv


def _own_weight(L, C, a, rows):
    """For each vertex of ``rows``: the weight into its own community (self-loop included)."""
    W, device = L.W, L.W.device
    # Wr = W(rows, :);  Cr = C(rows, :)
    Wr = _rows(W, rows)
    Cr = _indicator(a, C.ncols, device, rows=rows)
    # inside<Cr.S> = Wr plus.times C;  own = plus_reduce_rowwise(inside)
    inside = _core.mxm(Wr, C, semiring.plus_times, mask=Cr.S)
    return _core.reduce_rowwise(inside, monoid.plus).to_dense(0.0)


def _apply_moves(L, a, own_in, movers, targets, two_m, gamma):
    """The state after moving ``movers`` to ``targets``: (labels, C, sigma, own weights, Q)."""
    W, n, device = L.W, L.n, L.W.device
    xp = _v.xp_for(device)
    a_new = a.copy()
    a_new[movers] = targets
    C_new = _indicator(a_new, n, device)
    # sigma = k plus.times C
    sigma = _core.vxm(L.kvec, C_new, semiring.plus_times).to_dense(0.0)
    # touched = (W any.pair moved) lor moved   (the movers and their neighbours: the rows whose
    #           weight into their own community can change)
    moved = Vector.from_coo(movers, xp.ones(movers.shape[0], dtype=bool), size=n, device=device)
    touched = _core.ewise_add(_core.mxv(W, moved, semiring.any_pair), moved, binary.lor)
    rows = touched.to_coo()[0]
    own = own_in.copy()
    own[rows] = _own_weight(L, C_new, a_new, rows)
    Q = float(own.sum()) / two_m - gamma * float((sigma * sigma).sum()) / (two_m * two_m)
    return a_new, C_new, sigma, own, Q


def _local_moving(L, two_m, gamma, threshold, alpha, rng):
    """One level's local moving from singletons. Returns (labels, Q, moved)."""
    k, n, device = L.k, L.n, L.W.device
    xp = _v.xp_for(device)
    a = xp.arange(n, dtype=np.int64)
    own_in = L.d.copy()        # singletons: the weight into one's own community is the self weight
    sigma = k.copy()
    Q = float(own_in.sum()) / two_m - gamma * float((sigma * sigma).sum()) / (two_m * two_m)
    can_move = asnumpy(k) > 0
    P = np.ones(n)
    moved_any = False
    stall = 0
    C = _indicator(a, n, device)
    moved_pair = np.zeros(n, dtype=bool)
    for rnd in range(MAX_ROUNDS):
        if rnd % 2 == 0:
            # one draw per sweep (a down round and an up round): P(v) of being active
            active = can_move & (rng.random(n) < P) if alpha > 0 else can_move
            act = xp.asarray(np.flatnonzero(active))
        movers, targets = (_best_moves(L, C, a, act, own_in, sigma, two_m, gamma, rnd % 2 == 0)
                           if act.shape[0] else (act, act))
        gain = 0.0
        tries = 0
        while movers.shape[0]:
            trial = _apply_moves(L, a, own_in, movers, targets, two_m, gamma)
            if trial[-1] >= Q:
                break
            # conflicting simultaneous moves lowered Q: retry with a random half of them
            tries += 1
            keep = xp.asarray(rng.random(movers.shape[0]) < 0.5)
            movers, targets = (movers[keep], targets[keep]) if tries < BACKOFF_TRIES else (movers[:0], targets[:0])
        if movers.shape[0]:
            gain = trial[-1] - Q
            a, C, sigma, own_in, Q = trial
            moved_any = True
            moved_pair[asnumpy(movers)] = True
        if alpha > 0 and rnd % 2 == 1:
            # P = 1 where the community changed during the sweep, else P (1 - alpha)
            P[~moved_pair] *= 1.0 - alpha
            P[moved_pair] = 1.0
            moved_pair[:] = False
        stall = stall + 1 if gain <= threshold else 0
        if stall >= STALL_ROUNDS:
            break
    return a, Q, moved_any


def _coarsen(L, a, K):
    """The community graph C' W C of a level (K x K) as the next level."""
    W, device = L.W, L.W.device
    C = _indicator(a, K, device)
    # Wc = C' plus.times (W plus.times C)    (Wc(c, e): the weight between communities c and e)
    Wc = _core.mxm(_core.transpose(C), _core.mxm(W, C, semiring.plus_times), semiring.plus_times)
    # kc = k plus.times C;  dc = plus_reduce_rowwise(diag(Wc))
    kc = _core.vxm(L.kvec, C, semiring.plus_times).to_dense(0.0)
    dc = _core.reduce_rowwise(_core.select(Wc, indexunary.diag), monoid.plus).to_dense(0.0)
    return _Level(Wc, kc, dc)


def _by_first_vertex(labels, K, device):
    """Labels renumbered so that communities are numbered in order of their smallest vertex."""
    xp = _v.xp_for(device)
    C = _indicator(labels, K, device)
    # first = min_reduce_columnwise(rowindex(C))   (the smallest vertex of each community)
    first = _core.reduce_columnwise(_core.apply(C, indexunary.rowindex), monoid.min).to_dense()
    rank = xp.empty(K, dtype=np.int64)
    rank[xp.argsort(first)] = xp.arange(K, dtype=np.int64)
    return rank[labels]


@on_graph_backend
def louvain(A, *, resolution=1.0, threshold=1e-7, seed=0, max_level=None, deactivation=DEACTIVATION):
    """Communities of an undirected weighted graph by the Louvain method, in parallel rounds.

    Each level moves vertices to the neighbouring community of largest modularity gain, then
    coarsens the graph to its communities. It stops after a level that gains no more than
    ``threshold`` in modularity (that level's partition is kept, as networkx does), a level in
    which no vertex moves, or ``max_level`` levels.

    On the CPU (and on the GPU for graphs of 2**31 vertices or more), levels run as algebra:
    rounds where all active vertices choose at once (Up/Down rounds, argmax ties to the
    smallest label, probabilistic vertex dropping; see the module docstring), coarsening by
    ``C' W C`` with ``plus.times``. On the GPU the whole method runs on the device
    (:mod:`semiring.backends.gpu.louvain`): colored, nearly sequential local moving with
    per-vertex hash tables and vertex pruning, coarsening by a sort and a segmented sum,
    multilevel refinement of the final partition, and, for graphs of under 2**20 entries, the
    best of several copies run together; a few host reads per level.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        Symmetric, with non-negative finite weights (a bool pattern weighs 1 per edge). A
        self-loop of weight w adds 2w to its vertex's degree, as in networkx.
    resolution : float, default 1.0
        The modularity's gamma: above 1 favours smaller communities, below 1 larger ones.
    threshold : float, default 1e-7
        Smallest modularity gain of a level that keeps the method going (networkx's meaning).
        CPU: within a level, rounds go on until two successive rounds gain no more than
        ``min(threshold, 1e-7)``. GPU: each copy of the ensemble stops on its own; within a
        level, passes go on until one finds no move that gains (more than ``1e-12 k_v / m``).
    seed : int or None, default 0
        The result is deterministic for a given seed; None draws one. CPU: seeds the random
        choice of active vertices (``deactivation > 0``; without deactivation nothing is
        drawn). GPU: seeds the Jones-Plassmann coloring of each level (the order of the
        moves): level l uses ``seed + l * 0x9E3779B97F4A7C15`` (mod 2**64), copy r of the
        ensemble the vertex ids of its own range.
    max_level : int or None
        At most this many levels (>= 1); None: until the gain stops. GPU: per copy; the
        refinement then revisits those levels.
    deactivation : float in [0, 1), default 0.1
        CPU: ``alpha`` of the vertex dropping of Ghosh et al. (2018): a vertex that kept its
        community stays active with probability ``P <- P (1 - alpha)``. 0 keeps all active.
        GPU: any value above 0 turns on vertex pruning (a vertex is considered again only
        after a neighbour moved or its own move was refused); 0 considers every vertex in
        every pass.

    Returns
    -------
    Vector of int64, size n
        Every vertex present; communities are numbered 0..K-1 in order of their smallest
        vertex. A graph without edge weight gives every vertex its own community.

    Raises
    ------
    InvalidValue
        A is not symmetric, or has a negative, NaN or infinite weight; a parameter is out of
        range (``max_level < 1``, ``deactivation`` outside [0, 1), a non-finite number).
    DimensionMismatch
        A is not square.
    DomainMismatch
        Weights that are not real numbers.

    Notes
    -----
    CPU: a different, parallel schedule from networkx's sequential sweep in random order: the
    partitions differ, and their modularity is close to networkx's. Measured against networkx's
    best of three seeds: within 0.3% on random geometric graphs, planted partitions and
    stochastic block models, within 1% on LFR benchmarks and LAGraph's jagmesh7, within 4% on
    Graph500 Kronecker graphs (whose modularity is low, about 0.12). ``deactivation=0`` gives
    about the same modularity and is about twice as slow on a random geometric graph of 2**14
    vertices. Per round: a ``plus.times`` product of the active rows with ``C``, four
    products with diagonal or selection matrices (row selection, label filter, column shift,
    argmax) and a masked product over the rows of the movers and their neighbours (to update Q).

    GPU: every step of a level raises Q, as a sequential sweep does; with the refinement and
    the ensemble, the modularity is at least the best of networkx's ``louvain_communities``
    over seeds 0-4 (seed 0 on the road network; same resolution) on every graph of the
    collection listed in the module docstring (e.g. USA-road-t.NY's pattern: 0.9880 against
    0.9875; Graph500 Kronecker scale 14: 0.109 against 0.104; scale 16: 0.0970 against 0.0926). With the ensemble, the partitions of ``max_level=1`` and of all levels come
    from one run each and need not nest.

    References
    ----------
    Blondel et al., J. Stat. Mech. P10008, 2008; Lu, Halappanavar, Kalyanaraman, Parallel
    Computing 47, 2015; Ghosh et al., IPDPS 2018; cuGraph's Louvain (Up/Down rounds). GPU:
    Sahu, GVE-Louvain (arXiv:2312.04876, 2023) and nu-Louvain (arXiv:2501.19004, 2025); Rotta,
    Noack, ACM JEA 16, 2011 (multilevel refinement).

    Examples
    --------
    >>> import semiring as sr
    >>> r = [0, 0, 1, 2, 3, 3, 4]
    >>> c = [1, 2, 2, 3, 4, 5, 5]
    >>> A = sr.Matrix.from_coo(r + c, c + r, nrows=6, ncols=6, dtype="bool")
    >>> sr.algorithms.louvain(A).to_dense().tolist()
    [0, 0, 0, 1, 1, 1]
    """
    what = "louvain"
    G = as_graph(A, what)
    gamma = _real(resolution, f"{what}: resolution")
    threshold = _real(threshold, f"{what}: threshold")
    alpha = _real(deactivation, f"{what}: deactivation", low=0.0, high=1.0)
    if max_level is not None and (isinstance(max_level, (bool, np.bool_)) or not isinstance(max_level, (int, np.integer))
                                  or max_level < 1):
        raise InvalidValue(f"{what}: max_level must be a positive integer or None; given {max_level!r}")
    if seed is not None and (isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise InvalidValue(f"{what}: seed must be a non-negative integer or None; given {seed!r}")
    Wt = _weights(G, what)
    n, device = G.n, G.A.device
    xp = _v.xp_for(device)
    labels = xp.arange(n, dtype=np.int64)
    if n == 0 or Wt.two_m == 0:
        return Vector.from_dense(labels, device=device)
    if device == "gpu" and _device_louvain.fits(n, Wt.W.nvals):
        if seed is None:
            seed = int(np.random.default_rng().integers(2**63))
        labels = _device_louvain.louvain(Wt.W, Wt.two_m, gamma, threshold, int(seed), max_level, alpha > 0,
                                         start=G.louvain_start(what))
        return Vector.from_dense(labels, device=device)
    rng = np.random.default_rng(seed)
    L = _Level(Wt.W, Wt.k, Wt.d)
    Q = _quality(Wt, labels, n, gamma)
    levels = 0
    while max_level is None or levels < max_level:
        a, Q_new, moved = _local_moving(L, Wt.two_m, gamma, min(threshold, ROUND_GAIN), alpha, rng)
        if not moved:
            break
        levels += 1
        a, K = _compact(a, xp)
        # labels = a(labels)   (each original vertex's community at this level)
        labels = a[labels]
        if Q_new - Q <= threshold:
            break
        Q = Q_new
        L = _coarsen(L, a, K)
    labels, K = _compact(labels, xp)
    return Vector.from_dense(_by_first_vertex(labels, K, device), device=device)


__all__ = ["modularity", "louvain", "DEACTIVATION"]
