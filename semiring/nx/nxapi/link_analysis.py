"""networkx.pagerank on the engine's power iteration (``semiring.algorithms.pagerank``).

networkx's SciPy PageRank and the engine's compute the same iteration (links weighted by
``weight``, or by 1 with ``weight=None``; dangling nodes' rank spread by ``dangling``, else by the
personalization vector, else uniformly) and stop by the same rule (``sum |x_new - x| < n * tol``),
so they stop after the same iteration; the ranks agree to rounding. Declined, so that networkx
answers: multigraphs (networkx sums parallel edges' weights; the backend graph keeps one edge),
negative, NaN or infinite weights (found when the engine checks them), a callable weight, alpha
outside [0, 1], negative or non-integer ``max_iter``, negative ``tol``, and nstart or dangling
dicts with values that are not non-negative numbers or that sum to zero over the graph's nodes
(networkx divides by that sum).
"""

from __future__ import annotations

import math
import numbers

import networkx as nx
import numpy as np

from ... import algorithms as _alg
from ...exceptions import ConvergenceFailure, InvalidValue
from ._common import checked_by, entries, is_int, real_reason, weight_reason


def _dict_reason(d, G, name):
    if d is None:
        return None
    if not isinstance(d, dict):
        return f"{name} must be a dict; given {type(d).__name__}"
    vals = [v for k, v in d.items() if k in G]
    if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v) and v >= 0 for v in vals):
        return f"{name} values must be finite numbers >= 0 for the backend"
    if name != "personalization" and not sum(vals) > 0:  # networkx divides by 0 (NaN ranks)
        return f"{name} sums to 0 over the graph's nodes"
    return None


def _reason(G, alpha=0.85, personalization=None, max_iter=100, tol=1e-06, nstart=None, weight="weight",
            dangling=None):
    if G.is_multigraph():
        return "networkx sums the weights of parallel edges; the backend graph holds one edge per node pair"
    reason = weight_reason(weight) or real_reason(alpha, "alpha") or real_reason(tol, "tol")
    if reason:
        return reason
    if alpha is None:
        return "alpha must be a real number; given None"
    if not 0 <= alpha <= 1:
        return f"alpha must be in [0, 1] for the backend; given {alpha}"
    if tol is None or tol < 0:
        return f"tol must be a number >= 0; given {tol!r}"
    if not is_int(max_iter) or max_iter < 0:
        return f"max_iter must be an int >= 0; given {max_iter!r}"
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


__all__ = ["pagerank"]
