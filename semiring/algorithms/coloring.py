"""Graph coloring and maximal independent sets as ``max_second`` products over random weights.

- Luby (1986): each round, every candidate vertex whose random weight beats all its candidate
  neighbours joins the independent set, and it and its neighbours leave the candidates.
  Coloring by Luby gives each successive maximal independent set of the uncolored graph a
  new color.
- Jones-Plassmann (1993): with one random weight per vertex, each round the uncolored vertices
  that beat all their uncolored neighbours take the smallest color no colored neighbour has.
- Greedy largest-first (Welsh and Powell 1967), sequential: the reference for color counts.

The graph is taken as undirected (A or A^T having an entry means an edge) and self-loops are
ignored.

References
----------
Luby, "A simple parallel algorithm for the maximal independent set problem", SIAM J. Comput.
15(4), 1986. Jones, Plassmann, "A parallel graph coloring heuristic", SIAM J. Sci. Comput. 14(3),
1993. Welsh, Powell, "An upper bound for the chromatic number of a graph", Comput. J. 10, 1967.
LAGraph ``LAGraph_coloring`` / ``LAGraph_MaximalIndependentSet``.
"""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..core.vector import Vector
from ..exceptions import InvalidValue
from ..ops import binary, indexunary, semiring, unary
from .graph import as_graph

_METHODS = ("jones_plassmann", "luby", "greedy")


def undirected_pattern(G):
    """The symmetric bool pattern of A or A^T, without self-loops."""
    A = G.A
    # P = one(A) as bool
    P = _core.apply(A, unary.one).dup("bool")
    if G.kind != "undirected":
        # P = P lor P'
        P = _core.ewise_add(P, _core.transpose(P), binary.lor)
    # P = offdiag(P)
    return _core.select(P, indexunary.offdiag)


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
    iset = Vector(n, "bool")
    candidates = candidates.dup()
    while candidates.nvals:
        # score = fresh random weights (a random permutation: no ties)
        score = Vector.from_dense(rng.permutation(n).astype(np.int64))
        winners = _local_maxima(S, score, candidates)
        # iset<winners.S> = true
        _core.assign(iset, True, None, mask=winners.S)
        # gone<candidates.S> = S any.pair winners   (neighbours of the winners)
        gone = _core.mxv(S, winners, semiring.any_pair, mask=candidates.S)
        # candidates<winners.S or gone.S> = (deleted)
        candidates = _core.apply(candidates, unary.identity, mask=~winners.S)
        candidates = _core.apply(candidates, unary.identity, mask=~gone.S)
    return iset


def mis(A, seed=0):
    """A maximal independent set by Luby's algorithm.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        Taken as undirected; self-loops are ignored.
    seed : int

    Returns
    -------
    Vector of bool, size n: True at the members (absent elsewhere). No two members are
    adjacent, and every other vertex has a neighbour in the set.
    """
    G = as_graph(A, "mis")
    S = undirected_pattern(G)
    everyone = Vector.from_dense(np.ones(G.n, dtype=bool))
    return _luby(S, everyone, np.random.default_rng(seed))


def _color_luby(S, rng):
    n = S.nrows
    color = Vector(n, "int64")
    k = 0
    while color.nvals < n:
        # uncolored<!color.S> = true
        uncolored = _core.apply(Vector.from_dense(np.ones(n, dtype=bool)), unary.identity, mask=~color.S)
        iset = _luby(S, uncolored, rng)
        # color<iset.S> = k
        _core.assign(color, k, None, mask=iset.S)
        k += 1
    return color


def _color_jones_plassmann(S, rng):
    n = S.nrows
    weight = Vector.from_dense(rng.permutation(n).astype(np.int64))
    color = Vector(n, "int64")
    classes = []  # classes[c]: bool Vector of the vertices colored c
    uncolored = Vector.from_dense(np.ones(n, dtype=bool))
    while uncolored.nvals:
        winners = _local_maxima(S, weight, uncolored)
        remaining = winners
        c = 0
        while remaining.nvals:
            if c == len(classes):
                classes.append(Vector(n, "bool"))
            # used<remaining.S> = S any.pair classes[c]   (a neighbour already has color c)
            used = _core.mxv(S, classes[c], semiring.any_pair, mask=remaining.S)
            # free<!used.S> = remaining
            free = _core.apply(remaining, unary.identity, mask=~used.S)
            # color<free.S> = c ; classes[c]<free.S> = true
            _core.assign(color, c, None, mask=free.S)
            _core.assign(classes[c], True, None, mask=free.S)
            # remaining<!free.S, replace> = remaining
            remaining = _core.apply(remaining, unary.identity, mask=~free.S)
            c += 1
        # uncolored<!winners.S, replace> = uncolored
        uncolored = _core.apply(uncolored, unary.identity, mask=~winners.S)
    return color


def greedy_coloring(S):
    """Sequential largest-first greedy coloring of a symmetric pattern (the reference)."""
    n = S.nrows
    rows, cols, _ = S.to_coo()
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
    return Vector.from_dense(np.array(col_list, dtype=np.int64))


def coloring(A, *, method="jones_plassmann", seed=0):
    """A proper vertex coloring.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        Taken as undirected (an entry in A or A^T is an edge); self-loops are ignored.
    method : {"jones_plassmann", "luby", "greedy"}
        Jones-Plassmann rounds, Luby independent-set rounds, or sequential largest-first greedy.
    seed : int
        Random weights; the result is deterministic for a given seed.

    Returns
    -------
    Vector of int64, size n
        Every vertex has a color in 0..k-1, every color is used, and no edge joins two
        vertices of the same color.

    Raises
    ------
    InvalidValue
        Unknown method.
    DimensionMismatch
        A is not square.

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
    S = undirected_pattern(G)
    if method == "greedy":
        return greedy_coloring(S)
    rng = np.random.default_rng(seed)
    return _color_luby(S, rng) if method == "luby" else _color_jones_plassmann(S, rng)


__all__ = ["coloring", "mis", "greedy_coloring", "undirected_pattern"]
