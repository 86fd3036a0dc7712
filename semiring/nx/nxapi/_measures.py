"""What the centrality, clustering, link-analysis and link-prediction adapters share: networkx's
degrees from the engine, its ``nbunch`` reading, and the multigraph check.

networkx's degree counts a self-loop twice in an undirected graph (once in each of in- and
out-degree of a directed one) and a weighted degree sums the edges' ``weight`` values (a
self-loop's twice, undirected). The backend graph holds one entry per node pair, so functions
whose answer depends on parallel edges decline multigraphs that have them (:func:`parallel_reason`).
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ... import core as _core
from ...backends._xp import asnumpy
from ...ops import indexunary, monoid, unary
from .. import _derived


class Members:
    """What networkx's ``Graph.nbunch_iter`` reads of a graph (membership and ``_adj``), so that
    ``nodes`` is read by networkx's own code, with its own errors."""

    def __init__(self, index):
        self._adj = index

    def __contains__(self, node):
        try:
            return node in self._adj
        except TypeError:
            return False


def nbunch(G, nodes):
    """The nodes of G in ``nodes`` (None: all), as networkx's ``G.nbunch_iter`` yields them: a
    generator; raises networkx.NetworkXError when ``nodes`` is neither a node nor an iterable of
    hashables (on the first ``next``, as networkx)."""
    if nodes is None:
        return iter(G.nodes)
    return nx.Graph.nbunch_iter(Members(G.index), nodes)


def parallel_reason(G):
    """Why a multigraph is declined (it has parallel edges, or is a backend graph not known to
    have none), or None."""
    if not G.is_multigraph():
        return None
    if isinstance(G, nx.Graph):
        parallel = any(len(keys) > 1 for nbrs in G._adj.values() for keys in nbrs.values())
    else:
        parallel = getattr(G, "parallel_edges", True)  # set by BackendInterface.convert_from_nx
    if parallel:
        return "the multigraph has parallel edges, which networkx counts one by one; the backend graph " \
               "holds one edge per node pair"
    return None


def dense(vector, fill=0):
    """A Vector as a host NumPy array (``fill`` where absent)."""
    return asnumpy(vector.to_dense(fill))


def _counts(M, rows=True):
    # d = reduce_rowwise(one(M), plus)   (or columnwise)
    P = _core.apply(M, unary.one).dup("int64")
    r = _core.reduce_rowwise(P, monoid.plus) if rows else _core.reduce_columnwise(P, monoid.plus)
    return dense(r).astype(np.int64, copy=False)


def _sums(M, rows=True):
    # s = reduce_rowwise(M, plus)   (or columnwise)
    r = _core.reduce_rowwise(M, monoid.plus) if rows else _core.reduce_columnwise(M, monoid.plus)
    return dense(r)


def _diagonal(M):
    # loops = diag(M)   (dense: 0 where a node has no self-loop)
    rows, _, vals = _core.select(M, indexunary.diag).to_coo()
    out = np.zeros(M.nrows, dtype=M.dtype if M.dtype != np.bool_ else np.int64)
    out[asnumpy(rows)] = asnumpy(vals)
    return out


def offdiag_pattern(G):
    """The int64 pattern of G without self-loops (``offdiag(one(A))``), kept on the engine
    graph (``Graph.offdiag_pattern``)."""
    return G.structure.offdiag_pattern("int64")


def float_matrix(G, weight=None, *, reverse=False):
    """The float64 values of ``weight`` (ones on the pattern for None), of the reversed edges with
    ``reverse``: the operand of the power iterations' ``plus.times`` products, cast once per
    matrix (a product of one type runs the engine's typed kernels)."""
    graph = G.weighted(weight, reverse=reverse)
    # F = float64(M)   (one(M) for the pattern)
    return graph.pattern("float64") if weight is None else graph.float64_weights


def host_operator(G, weight=None, *, reverse=False):
    """``y = M x`` for host float64 arrays x (ARPACK's vectors), M the float64 values of
    ``weight`` (:func:`float_matrix`). On the CPU the product runs on a copy of M held by the
    engine's NumPy/SciPy backend (made once per matrix), whose SpMV reads and writes host arrays
    directly; on the GPU, on M itself."""
    from ...core.vector import Vector
    from ...ops import semiring

    graph = G.weighted(weight, reverse=reverse)
    M = float_matrix(G, weight, reverse=reverse)
    if M.device == "cpu" and getattr(M, "backend", None) != "numpy":
        M = _derived.once(graph, "numpy_float64", lambda: M.to("cpu", backend="numpy"))
    kw = {"backend": M.backend} if M.device == "cpu" else {}

    def times(x):
        # y = M plus.times x
        x = Vector.from_dense(np.ravel(np.asarray(x)).astype(np.float64, copy=False), device=M.device, **kw)
        return dense(_core.mxv(M, x, semiring.plus_times), 0.0)

    return times


def degrees(G, which="in+out", weight=None):
    """networkx's ``G.degree`` / ``G.in_degree`` / ``G.out_degree`` (``which`` "in+out", "in",
    "out"; undirected graphs have only "in+out"), of ``weight`` (None: edge counts), as a
    read-only host array in node order (computed once per graph): int64 for counts and int
    weights, float64 for float weights."""
    def build():
        A = G.weighted(weight).A
        value = _counts if weight is None else _sums
        if not G.is_directed():
            loops = _diagonal(A if weight is not None else _core.apply(A, unary.one).dup("int64"))
            out = value(A) + loops  # a self-loop is one entry, counted twice
        elif which == "out":
            out = value(A)
        elif which == "in":
            out = value(A, rows=False)
        else:
            out = value(A) + value(A, rows=False)
        out = np.array(out)
        out.setflags(write=False)
        return out

    # kept with the matrix it is computed from
    return _derived.once(G.weighted(weight), "degrees", build, which if G.is_directed() else "in+out")


def pyvalues(array):
    """Python numbers (``tolist``) of a host array."""
    return np.asarray(array).tolist()


__all__ = ["Members", "nbunch", "parallel_reason", "dense", "offdiag_pattern", "float_matrix", "host_operator",
           "degrees", "pyvalues"]
