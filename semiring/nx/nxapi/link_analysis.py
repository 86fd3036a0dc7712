"""networkx.pagerank on the engine's power iteration (``semiring.algorithms.pagerank``), and
networkx.hits and networkx.google_matrix on engine products.

networkx's SciPy PageRank and the engine's compute the same iteration (links weighted by
``weight``, or by 1 with ``weight=None``; dangling nodes' rank spread by ``dangling``, else by the
personalization vector, else uniformly) and stop by the same rule (``sum |x_new - x| < n * tol``),
so they stop after the same iteration; the ranks agree to rounding. Declined, so that networkx
answers: multigraphs (networkx sums parallel edges' weights; the backend graph keeps one edge),
negative, NaN or infinite weights (found when the engine checks them), a callable weight, alpha
outside [0, 1], negative or non-integer ``max_iter``, negative ``tol``, and nstart or dangling
dicts with values that are not non-negative numbers or that sum to zero over the graph's nodes
(networkx divides by that sum).

HITS is networkx's: the dominant singular vectors of A by ARPACK (``scipy.sparse.linalg.svds``
with networkx's ``k``, ``v0``, ``maxiter`` and ``tol``), whose products ``A x`` and ``A' x`` are
engine products; the hubs are ``A a``. The Google matrix is networkx's dense matrix, built from the
engine's (weighted) adjacency. Both decline multigraphs with parallel edges (networkx sums them).
"""

from __future__ import annotations


import networkx as nx
import numpy as np

from ... import _checks
from ... import algorithms as _alg
from ...exceptions import ConvergenceFailure, InvalidValue
from ._common import checked_by, entries, weight_reason
from ._measures import host_operator, parallel_reason


def _dict_reason(d, G, name):
    if d is None:
        return None
    if not isinstance(d, dict):
        return f"{name} must be a dict; given {type(d).__name__}"
    vals = [v for k, v in d.items() if k in G]
    if not all(_checks.is_real(v, finite=True) and v >= 0 for v in vals):
        return f"{name} values must be finite numbers >= 0 for the backend"
    if name != "personalization" and not sum(vals) > 0:  # networkx divides by 0 (NaN ranks)
        return f"{name} sums to 0 over the graph's nodes"
    return None


def _reason(G, alpha=0.85, personalization=None, max_iter=100, tol=1e-06, nstart=None, weight="weight",
            dangling=None):
    if G.is_multigraph():
        return "networkx sums the weights of parallel edges; the backend graph holds one edge per node pair"
    reason = (weight_reason(weight) or _checks.reason(_checks.real, alpha, "", "alpha")
              or _checks.reason(_checks.real, tol, "", "tol", none=True))
    if reason:
        return reason
    if not 0 <= alpha <= 1:
        return f"alpha must be in [0, 1] for the backend; given {alpha}"
    if tol is None or tol < 0:
        return f"tol must be a number >= 0; given {tol!r}"
    reason = _checks.reason(_checks.integer, max_iter, "", "max_iter", low=0)
    if reason:
        return reason
    for d, name in ((personalization, "personalization"), (nstart, "nstart"), (dangling, "dangling")):
        reason = _dict_reason(d, G, name)
        if reason:
            return reason
    return None


def _vector(d, G):
    return None if d is None else np.array([d.get(v, 0) for v in G.nodes], dtype=np.float64)


@checked_by(_reason)
def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1e-06, nstart=None, weight="weight",
             dangling=None):
    """networkx.pagerank: ``{node: rank}`` in node order.

    Raises ZeroDivisionError when ``personalization`` sums to zero, and
    networkx.PowerIterationFailedConvergence after ``max_iter`` iterations, as networkx does.
    """
    reason = _reason(G, alpha, personalization, max_iter, tol, nstart, weight, dangling)
    if reason:
        raise NotImplementedError(reason)
    if not len(G):
        return {}
    p = _vector(personalization, G)
    if p is not None and not p.sum() > 0:
        raise ZeroDivisionError("personalization sums to zero")
    graph = G.weighted(weight)
    try:
        r = _alg.pagerank(graph, alpha=alpha, personalization=p, max_iter=max_iter, tol=tol,
                          weighted=weight is not None, dangling=_vector(dangling, G), nstart=_vector(nstart, G))
    except ConvergenceFailure:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    except InvalidValue as exc:  # negative, NaN or infinite weights: networkx computes with them
        raise NotImplementedError(f"the engine declines these weights: {exc}") from None
    idx, vals = entries(r)
    out = np.empty(len(G))
    out[idx] = vals
    return dict(zip(G.nodes, out.tolist()))


def _hits_reason(G, max_iter=100, tol=1.0e-8, nstart=None, normalized=True):
    reason = parallel_reason(G) or _checks.reason(_checks.real, tol, "", "tol", none=True)
    if reason:
        return reason
    reason = _checks.reason(_checks.integer, max_iter, "", "max_iter")
    if reason:
        return reason
    if nstart is not None and not isinstance(nstart, dict):
        return f"nstart must be a dict; given {type(nstart).__name__}"
    return None


@checked_by(_hits_reason)
def hits(G, max_iter=100, tol=1.0e-8, nstart=None, normalized=True):
    """networkx.hits: ``(hubs, authorities)``, two ``{node: value}`` dicts in node order.

    Raises networkx.PowerIterationFailedConvergence when ``max_iter <= 0`` or ARPACK does not
    converge within ``max_iter`` iterations, as networkx does.
    """
    import scipy as sp
    import scipy.sparse.linalg  # noqa: F401

    reason = _hits_reason(G, max_iter, tol, nstart, normalized)
    if reason:
        raise NotImplementedError(reason)
    if len(G) == 0:
        return {}, {}
    product, rproduct = host_operator(G, "weight"), host_operator(G, "weight", reverse=True)

    if nstart is not None:
        nstart = np.array(list(nstart.values()))
    if max_iter <= 0:
        raise nx.PowerIterationFailedConvergence(max_iter)
    n = len(G)
    op = sp.sparse.linalg.LinearOperator((n, n), matvec=product, rmatvec=rproduct, dtype=np.float64)
    try:
        _, _, vt = sp.sparse.linalg.svds(op, k=1, v0=nstart, maxiter=max_iter, tol=tol)
    except sp.sparse.linalg.ArpackNoConvergence as exc:
        raise nx.PowerIterationFailedConvergence(max_iter) from exc
    a = vt.flatten().real
    h = product(a)
    if normalized:
        h /= h.sum()
        a /= a.sum()
    return dict(zip(G.nodes, map(float, h))), dict(zip(G.nodes, map(float, a)))


def _google_reason(G, alpha=0.85, personalization=None, nodelist=None, weight="weight", dangling=None):
    reason = parallel_reason(G) or weight_reason(weight)
    if reason:
        return reason
    if nodelist is not None:
        try:
            same = len(nodelist) == len(G) and len(set(nodelist)) == len(G) and all(v in G for v in nodelist)
        except TypeError:
            same = False
        if not same:
            return "nodelist must list every node once (networkx's matrix then has len(G) rows)"
    for d, name in ((personalization, "personalization"), (dangling, "dangling")):
        if d is not None and not isinstance(d, dict):
            return f"{name} must be a dict; given {type(d).__name__}"
    return None


@checked_by(_google_reason)
def google_matrix(G, alpha=0.85, personalization=None, nodelist=None, weight="weight", dangling=None):
    """networkx.google_matrix: the dense n x n NumPy array ``alpha P + (1 - alpha) p`` with rows
    and columns in ``nodelist`` order (node order by default).

    Raises ZeroDivisionError when ``personalization`` sums to zero, as networkx does.
    """
    reason = _google_reason(G, alpha, personalization, nodelist, weight, dangling)
    if reason:
        raise NotImplementedError(reason)
    if nodelist is None:
        nodelist = list(G.nodes)
    perm = np.array([G.index[v] for v in nodelist], dtype=np.int64)
    N = len(G)
    if N == 0:
        return np.zeros((0, 0))
    W = G.weighted(weight).A
    A = np.asarray(dense_matrix(W), dtype=np.float64)[np.ix_(perm, perm)]
    if personalization is None:
        p = np.repeat(1.0 / N, N)
    else:
        p = np.array([personalization.get(n, 0) for n in nodelist], dtype=float)
        if p.sum() == 0:
            raise ZeroDivisionError
        p /= p.sum()
    if dangling is None:
        dangling_weights = p
    else:
        dangling_weights = np.array([dangling.get(n, 0) for n in nodelist], dtype=float)
        dangling_weights /= dangling_weights.sum()
    dangling_nodes = np.where(A.sum(axis=1) == 0)[0]
    A[dangling_nodes] = dangling_weights
    A /= A.sum(axis=1)[:, np.newaxis]
    return alpha * A + (1 - alpha) * p


def dense_matrix(M):
    """A Matrix as a dense host array (0 where absent; 1 for a bool pattern's entries)."""
    from ...backends._xp import asnumpy

    return asnumpy(M.to_dense(0)).astype(np.float64)


__all__ = ["pagerank", "hits", "google_matrix"]
