"""networkx's link prediction scores on masked products over the requested pairs.

For the node pairs (u, v) asked for (``ebunch``, or every non-edge in the order of networkx's
``non_edges``), the rows of u and v are extracted and multiplied entrywise, and a row reduction
gives, for every pair at once (:func:`pair_sums`: ``reduce_rowwise(X(us, :) .* Y(vs, :))``, the
dot products ``C<M> = X Y'`` at the pairs without a pass over the whole graph),

- the common neighbours, with ``X = Y = P`` (``P`` the pattern without self-loops: networkx's
  ``common_neighbors`` leaves u and v out);
- the resource allocation and Adamic-Adar sums, with ``X = P diag(r)``,
  ``r(w) = 1 / degree(w)`` or ``1 / log(degree(w))``, the degree counting a self-loop twice as
  networkx's does;
- the Jaccard coefficient: common neighbours over ``|N(u) | N(v)|`` (N with self-loops, as
  networkx's neighbour sets); preferential attachment: the degree product;
- common-neighbour centrality: the common neighbours and the hop count from u to v (a batched
  BFS from the distinct u, :mod:`semiring.nx.algorithms.searches`).

The pairs are scored in chunks (bounded by the entries of their rows) as the generator is consumed; ``ebunch`` is read as networkx reads
it (checked whole for missing nodes first, then iterated again). Scores are Python numbers
computed by networkx's formulas from the engine's integer counts; the sums of reciprocals agree
to rounding.
"""

from __future__ import annotations

from itertools import islice

import networkx as nx
import numpy as np

from ... import _checks
from ... import core as _core
from ...backends._xp import asnumpy
from ...core.matrix import Matrix
from ...ops import binary, indexunary, monoid, semiring
from ..algorithms import clustering as _cl
from ..algorithms.searches import batches, hop_matrix
from .. import _derived
from ._common import checked_by
from ._measures import degrees, offdiag_pattern

#: Pairs scored together.
CHUNK = 1 << 18
#: ... whose rows (extracted for each pair) hold at most about this many entries together.
PAIR_ENTRIES = 1 << 24


def _check(G):
    if G.is_multigraph():
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")


def _non_edges(G):
    """networkx's ``non_edges`` of an undirected graph, in its order (the same set operations)."""
    indptr, indices = G.order
    names, index = G.nodes, G.index
    nodes = set(iter(names))
    while nodes:
        u = nodes.pop()
        i = index[u]
        for v in nodes - {names[j] for j in indices[indptr[i]:indptr[i + 1]].tolist()}:
            yield (u, v)


def _pairs(G, ebunch):
    """The (u, v) pairs to score, as networkx's ``_apply_prediction`` reads ``ebunch``."""
    if ebunch is None:
        return _non_edges(G)
    for u, v in ebunch:
        if u not in G:
            raise nx.NodeNotFound(f"Node {u} not in G.")
        if v not in G:
            raise nx.NodeNotFound(f"Node {v} not in G.")
    return iter(ebunch)


def _at(C, rows, cols, n, *, present=False):
    """C(rows[i], cols[i]) as a host array (0 where absent); with ``present``, also the bool
    array of where C has the entry."""
    out = np.zeros(rows.shape[0], dtype=np.float64 if C.dtype.kind == "f" else np.int64)
    if not C.nvals:
        return (out, np.zeros(rows.shape[0], dtype=bool)) if present else out
    r, c, v = (np.asarray(asnumpy(a)) for a in C.to_coo())
    key = r.astype(np.int64) * n + c
    o = np.argsort(key, kind="stable")
    key, v = key[o], v[o]
    want = rows * n + cols
    pos = np.minimum(np.searchsorted(key, want), key.shape[0] - 1)
    hit = key[pos] == want
    out[hit] = v[pos[hit]]
    return (out, hit) if present else out


def _reciprocals(G, kind):
    """1 / degree ("ra") or 1 / log(degree) ("aa") per node (0 where undefined: such a node is
    never a common neighbour, which has two neighbours besides itself)."""
    deg = degrees(G).astype(np.float64)
    if kind == "ra":
        return np.divide(1.0, deg, out=np.zeros_like(deg), where=deg > 0)
    return np.divide(1.0, np.log(np.maximum(deg, 1.0)), out=np.zeros_like(deg), where=deg > 1)


def _scaled(P, r):
    """P with each column w holding r(w): P plus.times diag(r)."""
    n = P.nrows
    idx = np.arange(n, dtype=np.int64)
    D = Matrix.from_coo(idx, idx, np.asarray(r, dtype=np.float64), nrows=n, ncols=n, dtype="float64",
                        device=P.device)
    return _core.mxm(P.dup("float64"), D, semiring.plus_times)


def _scored(G, pairs, score):
    """(u, v, score) for each pair of the iterator ``pairs``, in order; ``score(rows, cols)`` ->
    a list of Python values (or exceptions, raised on reaching them) for a chunk of index pairs.
    A chunk holds at most :data:`CHUNK` pairs whose rows of A hold at most :data:`PAIR_ENTRIES`
    entries together (each pair's rows are extracted)."""
    index = G.index
    deg = _neighbour_sets(G)[0]
    while True:
        chunk = list(islice(pairs, CHUNK))
        if not chunk:
            return
        rows = np.fromiter((index[u] for u, _ in chunk), dtype=np.int64, count=len(chunk))
        cols = np.fromiter((index[v] for _, v in chunk), dtype=np.int64, count=len(chunk))
        load = np.cumsum(deg[rows] + deg[cols])
        start = 0
        while start < len(chunk):
            # the longest run from start whose rows fit (at least one pair)
            stop = max(start + 1, int(np.searchsorted(load, (load[start - 1] if start else 0) + PAIR_ENTRIES,
                                                      side="right")))
            for (u, v), s in zip(chunk[start:stop], score(rows[start:stop], cols[start:stop])):
                if isinstance(s, Exception):
                    raise s
                yield (u, v, s)
            start = stop


def pair_sums(X, Y, rows, cols):
    """sum over w of X(rows[i], w) Y(cols[i], w) for each pair i: host values and whether the
    sum has a term (host arrays of len(rows)).

    Each pair's rows are extracted, ``R = X(rows, :)`` and ``S = Y(cols, :)``, and
    ``s = reduce_rowwise(R .* S, plus)``: the work is the pairs' row lengths, whatever the
    graph's size (a product masked to the pairs would pass over all of X or Y)."""
    # s = reduce_rowwise(X(rows, :) .* Y(cols, :), plus)
    R = _core.extract(X, rows, None)
    S = _core.extract(Y, cols, None)
    s = _core.reduce_rowwise(_core.ewise_mult(R, S, binary.times), monoid.plus)
    idx, vals = (asnumpy(a) for a in s.to_coo())
    out = np.zeros(rows.shape[0], dtype=vals.dtype if vals.shape[0] else X.dtype)
    present = np.zeros(rows.shape[0], dtype=bool)
    out[idx], present[idx] = vals, True
    return out, present


def _common(G, rows, cols):
    """Common neighbours of each pair (u, v), u and v left out (P has no diagonal): int array."""
    P = offdiag_pattern(G)
    return pair_sums(P, P, rows, cols)[0]


def _weighted_common(G, rows, cols, kind):
    """sum over the common neighbours w of each pair of r(w), with ``r = 1 / degree`` (``kind``
    "ra") or ``1 / log(degree)`` ("aa"), from ``(P diag(r))(u, :) .* P(v, :)``; a list of
    Python values, the int 0 where there is no common neighbour (networkx's empty sum)."""
    P = offdiag_pattern(G)
    scaled = _derived.once(G.structure, "scaled", lambda: _scaled(P, _reciprocals(G, kind)), kind)
    vals, present = pair_sums(scaled, P, rows, cols)
    return [x if p else 0 for x, p in zip(vals.tolist(), present.tolist())]


@checked_by(lambda G, ebunch=None: None)
def resource_allocation_index(G, ebunch=None):
    """networkx.resource_allocation_index: an iterator of (u, v, sum over common neighbours w of
    1 / degree(w)).

    Raises networkx.NetworkXNotImplemented (directed graphs, multigraphs) and
    networkx.NodeNotFound (a node of ebunch not in G) at the call, as networkx does.
    """
    _check(G)
    pairs = _pairs(G, ebunch)
    return _scored(G, pairs, lambda rows, cols: _weighted_common(G, rows, cols, "ra"))


def _leaf_neighbours(G):
    """Per node, its neighbours (itself left out) of degree 1: ``P plus.second [degree == 1]``."""
    from ...core.vector import Vector

    leaf = Vector.from_dense((degrees(G) == 1).astype(np.int64), device=G.A.device)
    return asnumpy(_core.mxv(offdiag_pattern(G), leaf, semiring.plus_second).to_dense(0))


@checked_by(lambda G, ebunch=None: None)
def adamic_adar_index(G, ebunch=None):
    """networkx.adamic_adar_index: an iterator of (u, v, sum over common neighbours w of
    1 / log(degree(w))).

    Raises networkx.NetworkXNotImplemented and networkx.NodeNotFound at the call, and
    ZeroDivisionError on reaching a pair (u, u) where u has a neighbour of degree 1, as networkx.
    """
    _check(G)
    pairs = _pairs(G, ebunch)

    def score(rows, cols):
        out = _weighted_common(G, rows, cols, "aa")
        # a pair (u, u) has u's neighbours in common: a neighbour of degree 1 makes networkx divide by log(1) = 0
        leafy = _derived.once(G.structure, "leaf_neighbours", lambda: _leaf_neighbours(G))
        for k in np.flatnonzero((rows == cols) & (leafy[rows] > 0)).tolist():
            out[k] = ZeroDivisionError("float division by zero")
        return out

    return _scored(G, pairs, score)


def _identity(G):
    n = len(G)
    idx = np.arange(n, dtype=np.int64)
    return Matrix.from_coo(idx, idx, None, nrows=n, ncols=n, dtype="int64", device=G.A.device)


def _neighbour_sets(G):
    """(len(G[u]) per node, whether u has a self-loop): host arrays, computed once per graph."""
    def build():
        size = _cl.row_counts(G.A)  # a self-loop is one neighbour
        loops = np.zeros(len(G), dtype=bool)
        rows, _, _ = _core.select(G.A, indexunary.diag).to_coo()
        loops[asnumpy(rows)] = True
        return size, loops

    return _derived.once(G.structure, "neighbour_sets", build)


@checked_by(lambda G, ebunch=None: None)
def jaccard_coefficient(G, ebunch=None):
    """networkx.jaccard_coefficient: an iterator of (u, v, |common neighbours| / |N(u) | N(v)|)
    (0 where both have no neighbour).

    Raises networkx.NetworkXNotImplemented and networkx.NodeNotFound at the call, as networkx.
    """
    _check(G)
    pairs = _pairs(G, ebunch)
    size, loops = _neighbour_sets(G)

    def score(r, c):
        common = _common(G, r, c)
        # |N(u) & N(v)| counts u when u has a self-loop and the edge u-v (and v likewise);
        # edge = P(u, :) .* I(v, :)   (the pairs that are edges: u's row at column v)
        edge = pair_sums(offdiag_pattern(G), _derived.once(G.structure, "identity", lambda: _identity(G)), r, c)[1]
        both = common + (edge & loops[r]) + (edge & loops[c]) + ((r == c) & loops[r])
        union = (size[r] + size[c] - both).tolist()
        return [0 if un == 0 else cn / un for cn, un in zip(common.tolist(), union)]

    return _scored(G, pairs, score)


@checked_by(lambda G, ebunch=None: None)
def preferential_attachment(G, ebunch=None):
    """networkx.preferential_attachment: an iterator of (u, v, degree(u) * degree(v)).

    Raises networkx.NetworkXNotImplemented and networkx.NodeNotFound at the call, as networkx.
    """
    _check(G)
    pairs = _pairs(G, ebunch)
    deg = degrees(G)
    return _scored(G, pairs, lambda rows, cols: (deg[rows] * deg[cols]).tolist())


def _hops(G, rows, cols):
    """Hop counts from rows[i] to cols[i] (-1 where unreachable), by batched BFS from the
    distinct rows."""
    src, where = np.unique(rows, return_inverse=True)
    out = np.full(rows.shape[0], -1, dtype=np.int64)
    start = 0
    for batch in batches(src, len(G)):
        mine = np.flatnonzero((where >= start) & (where < start + batch.shape[0]))
        # Lp = L + 1, so that a present 0 differs from absent
        Lp = _core.apply(hop_matrix(G.A, batch, undirected=True), binary.plus, right=1)
        out[mine] = _at(Lp, (where[mine] - start).astype(np.int64), cols[mine], len(G)) - 1
        start += batch.shape[0]
    return out


@checked_by(lambda G, ebunch=None, alpha=0.8: _checks.reason(_checks.real, alpha, "", "alpha"))
def common_neighbor_centrality(G, ebunch=None, alpha=0.8):
    """networkx.common_neighbor_centrality: an iterator of (u, v, alpha |common neighbours| +
    (1 - alpha) n / hops(u, v)) (the hop term 0 where v is unreachable; ``alpha == 1`` drops it).

    Raises networkx.NetworkXNotImplemented and networkx.NodeNotFound at the call, and
    networkx.NetworkXAlgorithmError on reaching a pair u == v, as networkx does.
    """
    _check(G)
    pairs = _pairs(G, ebunch)
    n = len(G)
    inf = float("inf")

    def score(rows, cols):
        same = rows == cols
        keep = ~same
        common = _common(G, rows[keep], cols[keep]).tolist()
        hops = _hops(G, rows[keep], cols[keep]).tolist() if alpha != 1 else None
        out, k = [], 0
        for s in same.tolist():
            if s:
                out.append(nx.NetworkXAlgorithmError("Self loops are not supported"))
                continue
            if alpha == 1:
                out.append(common[k])
            else:
                path_len = inf if hops[k] < 0 else hops[k]
                out.append(alpha * common[k] + (1 - alpha) * n / path_len)
            k += 1
        return out

    return _scored(G, pairs, score)


__all__ = ["resource_allocation_index", "adamic_adar_index", "jaccard_coefficient", "preferential_attachment",
           "common_neighbor_centrality", "pair_sums", "CHUNK", "PAIR_ENTRIES"]
