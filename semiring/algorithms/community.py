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
(``tests/gpu/test_gpu_louvain.py``): networkx's karate_club_graph (weighted),
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

import numpy as np

from .. import _checks
from .. import core as _core
from ..backends.gpu import louvain as _device_louvain
from ..core import _validate as _v
from ..core.vector import Vector
from ..exceptions import DomainMismatch, InvalidValue
from ..ops import binary, indexunary, monoid, semiring, unary
from ._community_labels import _by_first_vertex, _compact, _indicator, _labels_of
from ._louvain import (  # noqa: F401 (the local moving's constants: importable here too)
    BACKOFF_TRIES, MAX_ROUNDS, MOVE_TOLERANCE, ROUND_GAIN, STALL_ROUNDS, _coarsen, _Level, _local_moving,
)
from .graph import as_graph, on_graph_backend

#: Default probability decay of a vertex that kept its community (``alpha`` of Ghosh et al.).
DEACTIVATION = 0.1


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


# ---------------------------------------------------------------------------------------------
# modularity
# ---------------------------------------------------------------------------------------------

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
    gamma = _checks.real(resolution, what, "resolution", finite=True)
    Wt = _weights(G, what)
    labels, K = _labels_of(communities, G.n, G.A.device, what)
    if Wt.two_m == 0:
        raise InvalidValue(f"{what}: undefined for a graph without edge weight (m = 0); given {G.n} vertices "
                           f"and {G.nedges} stored entries, all of weight 0")
    return _quality(Wt, labels, K, gamma)


# ---------------------------------------------------------------------------------------------
# Louvain (the levels on the algebra: _louvain; on the GPU: semiring.backends.gpu.louvain)
# ---------------------------------------------------------------------------------------------

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
    gamma = _checks.real(resolution, what, "resolution", finite=True)
    threshold = _checks.real(threshold, what, "threshold", finite=True)
    alpha = _checks.real(deactivation, what, "deactivation", low=0.0, high=1.0, high_open=True)
    if max_level is not None:
        max_level = _checks.integer(max_level, what, "max_level (or None)", low=1)
    if seed is not None:
        seed = _checks.integer(seed, what, "seed (or None)", low=0)
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
