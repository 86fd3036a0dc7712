"""Graph coloring and maximal independent sets as ``max_second`` products over random weights.

- Luby (1986): each round, every candidate vertex whose random weight beats all its candidate
  neighbours joins the independent set, and it and its neighbours leave the candidates.
  Coloring by Luby gives each successive maximal independent set of the uncolored graph a
  new color.
- Jones-Plassmann (1993): with one random weight per vertex (:func:`priorities`), each round
  the uncolored vertices that beat all their uncolored neighbours take the smallest color no
  colored neighbour has. With ``engine="fused"`` the whole loop runs as one persistent kernel
  on the GPU (``semiring.backends.gpu.coloring``), and on the CPU as one compiled pass in
  decreasing priority order (``semiring.backends.cpu.coloring``: each vertex is colored after
  all its higher-priority neighbours and before the others, so the sequential greedy coloring
  in priority order is exactly the rounds' result); every engine gives the same colors.
  The neighbours' colors are gathered as 64-bit sets with a ``bor.second`` product, and the
  smallest free color is the lowest zero bit (one product per 64 colors in use).
- Gebremedhin-Manne (2000), speculative block-partitioned coloring: the vertices to color are
  cut into p blocks of consecutive ids and colored in parallel steps, step j taking the j-th
  vertex of every block; each takes the smallest color no neighbour has at the step's start
  (two neighbours colored in the same step may pick the same one). The conflicts are found by
  one product: with L the edges from the lower- to the higher-priority end, and Lc = diag(color) L,
  ``Lc lor.eq color`` is true at every vertex that shares its color with a higher-priority
  neighbour; those lose their colors and are colored again in the next pass, by the same block
  scheme (the iterative form of Bozdag, Gebremedhin, Manne, Boman and Catalyurek 2008 in place
  of GM's sequential phase 3). The highest-priority vertex of a pass never conflicts, so every
  pass colors at least one vertex for good; in practice one or two passes recolor a handful.
  With ``engine="fused"`` the same passes run as device kernels on the GPU, one per step, with
  one host read per pass, and as one compiled loop on the CPU; the colors are the algebra
  engine's.
- Greedy largest-first (Welsh and Powell 1967), sequential: the reference for color counts.

The graph is taken as undirected (A or A^T having an entry means an edge) and self-loops are
ignored.

References
----------
Luby, "A simple parallel algorithm for the maximal independent set problem", SIAM J. Comput.
15(4), 1986. Gebremedhin, Manne, "Scalable parallel graph coloring algorithms", Concurrency:
Practice and Experience 12(12), 2000. Bozdag, Gebremedhin, Manne, Boman, Catalyurek, "A framework
for scalable greedy coloring on distributed-memory parallel computers", J. Parallel Distrib.
Comput. 68(4), 2008. Jones, Plassmann, "A parallel graph coloring heuristic", SIAM J. Sci. Comput. 14(3),
1993. Welsh, Powell, "An upper bound for the chromatic number of a graph", Comput. J. 10, 1967.
LAGraph ``LAGraph_coloring`` / ``LAGraph_MaximalIndependentSet``.
"""

from __future__ import annotations

import numpy as np

from .. import _checks
from .. import core as _core
from .._memory import require
from ..core.vector import Vector
from ..exceptions import InvalidValue
from ..backends._xp import asnumpy
from ..core import _validate as _v
from ..core.matrix import Matrix
from ..ops import binary, indexunary, semiring, unary
from ..ops.monoid import any as monoid_any
from ..ops.monoid import lor as monoid_lor
from ..ops.monoid import plus as monoid_plus
from ..ops._base import BinaryOp, UnaryOp
from . import engines as _engines
from .graph import as_graph, on_graph_backend

_METHODS = ("jones_plassmann", "luby", "greedy", "gebremedhin_manne")
#: Gebremedhin-Manne: the default number of blocks p makes each pass at most this many steps
#: (measured: fewer colors than with 64 on Kronecker and random geometric graphs, about as few as
#: with 256 in less time).
GM_STEPS = 128
_M64 = (1 << 64) - 1


def priorities(n, seed, xp=np):
    """Distinct pseudo-random int64 vertex priorities for Jones-Plassmann: a splitmix64 hash of
    (vertex, seed) in the high 31 bits and the vertex id in the low 32 bits (so no ties), computed
    identically by NumPy, CuPy and the GPU kernel.

    Parameters
    ----------
    n : int
        Number of vertices (< 2**32).
    seed : int
    xp : module
        numpy or cupy.

    Returns
    -------
    int64 array, shape (n,)
    """
    u = np.uint64
    v = xp.arange(n, dtype=np.uint64)
    z = (v + u(1)) * u(0x9E3779B97F4A7C15) + u((seed * 0xBF58476D1CE4E5B9) & _M64)
    z = (z ^ (z >> u(30))) * u(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> u(27))) * u(0x94D049BB133111EB)
    z = z ^ (z >> u(31))
    return (((z >> u(33)) << u(32)) | v).astype(np.int64)


def undirected_pattern(G):
    """The undirected graph of a Graph: its edges of either direction, self-loops left out.

    Parameters
    ----------
    G : Graph, n vertices

    Returns
    -------
    Matrix, shape (n, n), bool
        ``offdiag(one(A) lor one(A)')``, symmetric; kept on G (:attr:`Graph.undirected_pattern`).
    """
    return G.undirected_pattern


def _local_maxima(S, weight, candidates):
    """Candidates whose weight beats every candidate neighbour's (or that have none)."""
    # wc<candidates.S> = weight
    wc = _core.apply(weight, unary.identity, mask=candidates.S)
    # m<candidates.S> = S max.second wc   (the heaviest candidate neighbour)
    m = _core.mxv(S, wc, semiring.max_second, mask=candidates.S)
    # beats<wc.S> = wc > m, where both exist
    beats = _core.select(_core.ewise_mult(wc, m, binary.gt), indexunary.valueeq, True)
    # lonely<!m.S> = wc   (no candidate neighbour)
    lonely = _core.apply(wc, unary.one, mask=~m.S)
    # winners = beats lor lonely
    return _core.ewise_add(_core.apply(beats, unary.one), lonely.dup("bool"), binary.lor)


def _luby(S, candidates, rng):
    """A maximal independent set of the subgraph induced by ``candidates`` (bool Vector)."""
    n = S.nrows
    iset = Vector(n, "bool", device=S.device)
    candidates = candidates.dup()
    while candidates.nvals:
        # score = fresh random weights (a random permutation: no ties)
        score = Vector.from_dense(rng.permutation(n).astype(np.int64), device=S.device)
        winners = _local_maxima(S, score, candidates)
        # iset<winners.S> = true
        _core.assign(iset, True, None, mask=winners.S)
        # gone<candidates.S> = S any.pair winners   (neighbours of the winners)
        gone = _core.mxv(S, winners, semiring.any_pair, mask=candidates.S)
        # candidates<winners.S or gone.S> = (deleted)
        candidates = _core.apply(candidates, unary.identity, mask=~winners.S)
        candidates = _core.apply(candidates, unary.identity, mask=~gone.S)
    return iset


@on_graph_backend
def mis(A, seed=0):
    """A maximal independent set by Luby's algorithm.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        Taken as undirected; self-loops are ignored.
    seed : int

    Returns
    -------
    Vector of bool, size n
        True at the members (absent elsewhere). No two members are adjacent, and every other
        vertex has a neighbour in the set.

    Raises
    ------
    OutOfMemory
        The per-vertex arrays (a few of n 64-bit values) do not fit.
    """
    G = as_graph(A, "mis")
    require(32 * G.n, f"mis: per-vertex arrays for n = {G.n}", device=G.A.device)
    S = undirected_pattern(G)
    everyone = Vector.from_dense(np.ones(G.n, dtype=bool), device=S.device)
    return _luby(S, everyone, np.random.default_rng(seed))


def _color_luby(S, rng):
    n = S.nrows
    color = Vector(n, "int64", device=S.device)
    k = 0
    while color.nvals < n:
        # uncolored<!color.S> = true
        uncolored = _core.apply(Vector.from_dense(np.ones(n, dtype=bool), device=S.device), unary.identity,
                                mask=~color.S)
        iset = _luby(S, uncolored, rng)
        # color<iset.S> = k
        _core.assign(color, k, None, mask=iset.S)
        k += 1
    return color


def _bit_at(xp, x, base):
    return xp.left_shift(xp.ones_like(x, dtype=np.uint64), (x - base).astype(np.uint64))


def _lowest_zero(xp, x):
    y = ~x & (x + np.uint64(1))  # isolates the lowest zero bit; 0 when every bit is set
    return xp.where(y == 0, 64, xp.frexp(y.astype(np.float64))[1] - 1).astype(np.int64)


#: bit_at(c, base) = 1 << (c - base): colour c as a bit of the 64-colour word starting at base.
BIT_AT = BinaryOp(_bit_at, "bit_at", output="uint64", _internal=True, cuda="1ull << (x - y)")
#: lowest_zero(bits) = the smallest colour missing from a 64-colour word (64 if it is full).
LOWEST_ZERO = UnaryOp(_lowest_zero, "lowest_zero", output="int64", _internal=True,
                      cuda="(x == ~0ull) ? 64 : __ffsll(~x) - 1")
_WORD = 64


def _smallest_free_colour(S, color, ready):
    """color<ready.S> = the smallest colour no neighbour of each ready vertex has."""
    base = 0
    remaining = ready
    while remaining.nvals:
        # word = colours in [base, base + 64), as bits: word(u) = 1 << (color(u) - base)
        inword = _core.select(_core.select(color, indexunary.valuege, base), indexunary.valuelt, base + _WORD)
        word = _core.apply(inword, BIT_AT, right=np.int64(base))
        # used<remaining.S> = S bor.second word   (the colours the neighbours use)
        used = _core.mxv(S, word, semiring.bor_second, mask=remaining.S)
        # slot<remaining.S> = lowest_zero(used), 0 where no neighbour has a colour in the word
        slot = _core.ewise_add(_core.apply(remaining, binary.first, left=np.int64(0)),
                               _core.apply(used, LOWEST_ZERO), binary.second)
        # color<slot < 64> = base + slot
        done = _core.select(slot, indexunary.valuelt, _WORD)
        _core.assign(color, _core.apply(done, binary.plus, right=np.int64(base)), None, mask=done.S)
        # remaining = the vertices whose word was full
        remaining = _core.select(slot, indexunary.valueeq, _WORD)
        base += _WORD


def _color_jones_plassmann(S, seed):
    """Jones-Plassmann as a wave over the DAG that orients each edge from the heavier end:
    a vertex is coloured once all its heavier neighbours are (O(edges) work in all)."""
    n = S.nrows
    perm = priorities(n, seed)
    idx = np.arange(n, dtype=np.int64)
    Dw = Matrix.from_coo(idx, idx, perm, nrows=n, ncols=n, device=S.device)
    # H(i, j) = w(i) > w(j) for every edge: mxm(diag(w) first.. S) then compare with diag(w)
    Wrow = _core.mxm(Dw, S, semiring.any_first)                      # Wrow(i, j) = w(i)
    H = _core.select(_core.mxm(Wrow, Dw, semiring.Semiring(monoid_any, binary.gt)),
                     indexunary.valueeq, True)                      # H(i, j): i heavier than j
    # H as int64 ones, so that plus.pair counts (on bool, plus is lor)
    H = _core.apply(H, unary.one).dup("int64")
    # waiting(j) = number of heavier neighbours of j
    waiting = _core.reduce_columnwise(H, monoid_plus)
    color = Vector(n, "int64", device=S.device)
    # ready<!waiting.S> = true   (no heavier neighbour)
    ready = _core.apply(Vector.from_dense(np.ones(n, dtype=bool), device=S.device), unary.identity,
                        mask=~waiting.S)
    while ready.nvals:
        _smallest_free_colour(S, color, ready)
        # freed = ready plus.pair H   (how many heavier neighbours each lighter one just lost)
        freed = _core.vxm(ready, H, semiring.plus_pair)
        # waiting<freed.S> = waiting - freed
        _core.ewise_mult(waiting, freed, binary.minus, mask=freed.S, out=waiting)
        # ready = the freed vertices left with nothing to wait for
        ready = _core.select(_core.apply(waiting, unary.identity, mask=freed.S), indexunary.valueeq, 0)
    return color


def _lower_priority_edges(S, w):
    """L(i, j) present (bool) for every edge whose end i has the lower weight: i loses to j."""
    n = S.nrows
    idx = np.arange(n, dtype=np.int64)
    Dw = Matrix.from_coo(idx, idx, w, nrows=n, ncols=n, device=S.device)
    # Wrow(i, j) = w(i) for every edge;  L(i, j) = w(i) < w(j)
    Wrow = _core.mxm(Dw, S, semiring.any_first)
    return _core.select(_core.mxm(Wrow, Dw, semiring.Semiring(monoid_any, binary.lt)), indexunary.valueeq, True)


def gebremedhin_manne(S, seed=0, blocks=None):
    """Speculative block-partitioned coloring of a symmetric pattern without self-loops.

    Each pass cuts the vertices U still to color into p blocks of consecutive ids and colors
    step j = the j-th vertex of every block, each with the smallest color no neighbour has at
    the step's start.

    Parameters
    ----------
    S : Matrix, shape (n, n)
        Symmetric bool pattern, no diagonal (:func:`undirected_pattern`).
    seed : int
        Priorities (:func:`priorities`) that decide which end of a conflict is recolored.
    blocks : int, optional
        Number of blocks p (GM's processors). A pass over the vertices U still to color takes
        ``ceil(|U| / p)`` steps. Default: ``p = ceil(|U| / GM_STEPS)`` in each pass, so every
        pass takes up to GM_STEPS steps (a fixed p would color a small conflict set in a single
        step, where its vertices collide again).

    Returns
    -------
    (Vector of int64, list of int)
        The colors, and the number of vertices colored in each pass (the first is n; each later
        one is the number of conflicts the pass before left).
    """
    n = S.nrows
    dev = S.device
    xp = _v.xp_for(dev)
    L = _lower_priority_edges(S, priorities(n, seed))
    conflict_semiring = semiring.Semiring(monoid_lor, binary.eq)
    color = Vector(n, "int64", device=dev)
    # the vertices to color, on the graph's device: a step's slice is not copied from the host
    todo = xp.arange(n, dtype=np.int64)
    passes = []
    while todo.size:
        passes.append(int(todo.size))
        p = -(-todo.size // GM_STEPS) if blocks is None else blocks
        steps = -(-todo.size // p)
        for j in range(steps):
            # ready = the j-th vertex of every block of U (blocks: runs of `steps` consecutive ids)
            ready = Vector.from_coo(todo[j::steps], True, size=n, dtype="bool", device=dev)
            _smallest_free_colour(S, color, ready)
        u = Vector.from_coo(todo, True, size=n, dtype="bool", device=dev)
        # cu<u.S> = color;  Lc = diag(cu) any.first L   (Lc(i, j) = color(i) for i in U losing to j)
        ci, cv = _core.apply(color, unary.identity, mask=u.S).to_coo()
        Dc = Matrix.from_coo(ci, ci, cv, nrows=n, ncols=n, device=dev)
        Lc = _core.mxm(Dc, L, semiring.any_first)
        # clash<u.S> = Lc lor.eq color   (a higher-priority neighbour has the same color)
        clash = _core.select(_core.mxv(Lc, color, conflict_semiring), indexunary.valueeq, True)
        todo = xp.sort(clash.to_coo()[0]).astype(np.int64)
        if todo.size:
            # color<clash.S> = (deleted): the losers are colored again in the next pass
            color = _core.apply(color, unary.identity, mask=~clash.S)
    return color, passes


def greedy_coloring(S):
    """Sequential largest-first greedy coloring of a symmetric pattern (the reference)."""
    n = S.nrows
    rows, cols = (asnumpy(a) for a in S.to_coo()[:2])
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    order = np.argsort(-np.diff(indptr), kind="stable")
    colors = np.full(n, -1, dtype=np.int64)
    nbrs = cols.tolist()
    ptr = indptr.tolist()
    col_list = colors.tolist()
    for v in order.tolist():
        used = {col_list[u] for u in nbrs[ptr[v]:ptr[v + 1]]}
        c = 0
        while c in used:
            c += 1
        col_list[v] = c
    return Vector.from_dense(np.array(col_list, dtype=np.int64), device=S.device)


@on_graph_backend
def coloring(A, *, method="jones_plassmann", seed=0, engine="auto", blocks=None):
    """A proper vertex coloring.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        Taken as undirected (an entry in A or A^T is an edge); self-loops are ignored.
    method : {"jones_plassmann", "luby", "greedy", "gebremedhin_manne"}
        Jones-Plassmann rounds, Luby independent-set rounds, sequential largest-first greedy, or
        Gebremedhin-Manne speculative block coloring with conflict resolution.
    seed : int
        Random weights; the result is deterministic for a given seed.
    engine : {"auto", "algebra", "fused"}
        For Jones-Plassmann and Gebremedhin-Manne: "algebra" runs rounds of products; "fused"
        runs without the algebra: on the GPU, Jones-Plassmann as one persistent kernel and
        Gebremedhin-Manne as one kernel per step with one host read per pass; on the CPU, as
        compiled loops (numba), which need the SuiteSparse CPU backend (the graph's) and numba:
        ``pip install "semiring[suitesparse]"``. "auto" picks "fused" wherever it can run.
        Same colors either way.
    blocks : int, optional
        For Gebremedhin-Manne: the number of blocks colored in parallel (GM's processors);
        default ``ceil(|U| / 128)`` for the |U| vertices each pass colors, so every pass takes
        at most 128 steps. 1 is sequential greedy coloring in vertex order.

    Returns
    -------
    Vector of int64, size n
        Every vertex has a color in 0..k-1, every color is used, and no edge joins two
        vertices of the same color.

    Raises
    ------
    InvalidValue
        Unknown method or engine; engine="fused" for another method, or on a CPU graph of the
        NumPy backend (or without numba); ``blocks`` not a positive integer, or given for
        another method.
    DimensionMismatch
        A is not square.
    OutOfMemory
        The per-vertex arrays (a few of n 64-bit values) do not fit.

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.generators.grid(4, 4)
    >>> c = sr.algorithms.coloring(A)
    >>> int(c.to_dense().max()) + 1 <= 4
    True
    """
    G = as_graph(A, "coloring")
    if method not in _METHODS:
        raise InvalidValue(f"coloring: method must be one of {_METHODS}; given {method!r}")
    if blocks is not None:
        if method != "gebremedhin_manne":
            raise InvalidValue(f"coloring: blocks applies to method='gebremedhin_manne' only; given method {method!r}")
        _checks.integer(blocks, "coloring", "blocks", low=1)
    # a few dense per-vertex arrays (priorities, colors, the loops' work arrays)
    require(48 * G.n, f"coloring: per-vertex arrays for n = {G.n}", device=G.A.device)
    if _engines.select("coloring", engine, None, G.A.device, G.n, G.nedges, method=method).name == "fused":
        return _color_fused(G, seed, method, blocks)
    S = undirected_pattern(G)
    if method == "gebremedhin_manne":
        return gebremedhin_manne(S, seed, None if blocks is None else int(blocks))[0]
    if method == "greedy":
        return greedy_coloring(S)
    if method == "luby":
        return _color_luby(S, np.random.default_rng(seed))
    return _color_jones_plassmann(S, seed)


def _color_fused(G, seed, method, blocks):
    """Jones-Plassmann in one persistent kernel, or Gebremedhin-Manne's passes as device
    kernels (semiring.backends.gpu.coloring); on the CPU both as compiled loops
    (semiring.backends.cpu.coloring). The same colors as the algebra engine."""
    # an undirected graph's own CSR serves (the kernels skip self-loops); else symmetrize once
    S = G.A if G.kind == "undirected" else G.undirected_pattern
    if S.device == "cpu":
        return _color_compiled(S, seed, method, blocks)
    import cupy as cp

    from ..backends.gpu import coloring as _gpu

    if method == "gebremedhin_manne":
        color = _gpu.gebremedhin_manne(S, seed, None if blocks is None else int(blocks), GM_STEPS)[0]
    else:
        color = _gpu.jones_plassmann(S, seed)[0]
    n = S.nrows
    return Vector._from_bitmap("int64", cp.ones(n, dtype=bool), color.astype(cp.int64), n)


def _color_compiled(S, seed, method, blocks):
    """The compiled CPU loops over the CSR of the symmetric pattern S."""
    from ..backends.cpu import coloring as _cpu

    prio = priorities(S.nrows, seed)
    if method == "gebremedhin_manne":
        color = _cpu.gebremedhin_manne(S._indptr, S._indices, prio, blocks, GM_STEPS)[0]
    else:
        color = _cpu.jones_plassmann(S._indptr, S._indices, prio)[0]
    return Vector.from_dense(color)


__all__ = ["coloring", "mis", "greedy_coloring", "gebremedhin_manne", "undirected_pattern"]
