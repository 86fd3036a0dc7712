"""networkx's eigenvector and Katz centralities on the engine.

- ``eigenvector_centrality``: networkx's power iteration on ``A + I``,
  ``x <- (x + A' x) / ||x + A' x||_2`` (one ``plus.second`` product with A', ``plus.times``
  with weights, per iteration), stopped by networkx's rule ``sum |x_new - x| < n * tol``;
  ``PowerIterationFailedConvergence`` after ``max_iter`` iterations, as networkx.
- ``katz_centrality``: networkx's iteration ``x <- alpha A' x + beta`` with the same rule,
  normalized to unit Euclidean length (``normalized=True``).
- ``eigenvector_centrality_numpy``: the eigenvector of A' with the largest real eigenvalue by
  ARPACK (``scipy.sparse.linalg.eigs``, networkx's call, same ``maxiter`` and ``tol``) whose
  products ``A' x`` are engine products.
- ``katz_centrality_numpy``: the linear system ``(I - alpha A') x = beta`` built on the engine
  and solved by a sparse LU factorization (``scipy.sparse.linalg.spsolve``) where networkx
  solves it dense.

Results agree with networkx's to rounding (the sums run in another order). Declined: nstart
dicts whose keys are not exactly the graph's nodes (networkx then fails or keeps foreign keys),
values that are not real numbers, multigraphs with parallel edges (networkx sums them), and
singular Katz systems (networkx's dense solve decides).
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Mapping

import networkx as nx
import numpy as np

from ... import _checks
from ... import core as _core
from ...core.vector import Vector
from ...ops import binary, monoid, semiring, unary
from ..algorithms.traversal import levels
from ._common import checked_by, weight_reason
from ._measures import dense, float_matrix, host_operator, parallel_reason


def _start_reason(G, nstart):
    if nstart is None:
        return None
    if not isinstance(nstart, Mapping):
        return f"nstart must be a dict; given {type(nstart).__name__}"
    if len(nstart) != len(G) or not all(k in G for k in nstart):
        return "nstart must have a value for every node and no other key (networkx fails or keeps foreign keys)"
    if not all(_checks.is_real(v, finite=True) for v in nstart.values()):
        return "nstart values must be finite real numbers for the backend"
    return None


def _iteration_reason(G, max_iter, tol, weight):
    return (parallel_reason(G) or weight_reason(weight) or _checks.reason(_checks.real, tol, "", "tol")
            or _checks.reason(_checks.integer, max_iter, "", "max_iter"))


def _product(G, weight):
    """(M', semiring): ``t = M' plus.times x`` sums x over each node's in-edges (weighted by
    ``weight``; float64, cast once per graph)."""
    return float_matrix(G, weight or None, reverse=True), semiring.plus_times


def _full(values, device):
    return Vector.from_dense(np.asarray(values, dtype=np.float64), device=device)


def _abs_change(x, y):
    # err = plus_reduce(abs(x .- y))   (both full)
    return float(_core.reduce_scalar(_core.apply(_core.ewise_mult(x, y, binary.minus), unary.abs), monoid.plus))


def _ordered(G, keys, x):
    vals = dense(x, 0.0)
    return {k: vals[G.index[k]].item() for k in keys}


# ---------------------------------------------------------------------------------------------
# eigenvector centrality
# ---------------------------------------------------------------------------------------------
def _eig_reason(G, max_iter=100, tol=1.0e-6, nstart=None, weight=None):
    return _iteration_reason(G, max_iter, tol, weight) or _start_reason(G, nstart)


@checked_by(_eig_reason)
def eigenvector_centrality(G, max_iter=100, tol=1.0e-6, nstart=None, weight=None):
    """networkx.eigenvector_centrality: ``{node: value}`` (in nstart's key order when given).

    Raises networkx.NetworkXPointlessConcept for the null graph, networkx.NetworkXError for an
    all-zero nstart and networkx.PowerIterationFailedConvergence after ``max_iter`` iterations.
    """
    reason = _eig_reason(G, max_iter, tol, nstart, weight)
    if reason:
        raise NotImplementedError(reason)
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    if nstart is None:
        nstart = {v: 1 for v in G.nodes}
    if all(v == 0 for v in nstart.values()):
        raise nx.NetworkXError("initial vector cannot have all zero values")
    total = sum(nstart.values())
    x0 = np.zeros(len(G))
    for k, v in nstart.items():
        x0[G.index[k]] = v / total
    MT, ring = _product(G, weight)
    n = len(G)
    x = _full(x0, MT.device)
    for _ in range(max_iter):
        # y = x + M' x   (networkx iterates with A + I)
        y = _core.ewise_add(x, _core.mxv(MT, x, ring), binary.plus)
        # norm = sqrt(plus_reduce(y .* y)), 1 where 0
        norm = math.sqrt(float(_core.reduce_scalar(_core.ewise_mult(y, y, binary.times), monoid.plus))) or 1
        y = _core.apply(y, binary.div, right=norm)
        if _abs_change(y, x) < n * tol:
            return _ordered(G, nstart, y)
        x = y
    raise nx.PowerIterationFailedConvergence(max_iter)


def _eig_numpy_reason(G, weight=None, max_iter=50, tol=0):
    reason = parallel_reason(G) or weight_reason(weight) or _checks.reason(_checks.real, tol, "", "tol", none=True)
    if reason:
        return reason
    if 0 < len(G) < 3:
        return f"ARPACK (networkx's eigs call) needs at least 3 nodes; networkx raises SciPy's error for {len(G)}"
    return _checks.reason(_checks.integer, max_iter, "", "max_iter", none=True)


def _connected(G):
    if len(G) <= 1:
        return True
    if not bool((levels(G.structure, [0]) >= 0).all()):
        return False
    return not G.is_directed() or bool((levels(G.reverse, [0]) >= 0).all())


@checked_by(_eig_numpy_reason)
def eigenvector_centrality_numpy(G, weight=None, max_iter=50, tol=0):
    """networkx.eigenvector_centrality_numpy: ``{node: value}`` in node order (ARPACK on engine
    products).

    Raises networkx.NetworkXPointlessConcept for the null graph and networkx.AmbiguousSolution
    for a graph that is not (strongly) connected, as networkx does.
    """
    import scipy as sp
    import scipy.sparse.linalg  # noqa: F401

    reason = _eig_numpy_reason(G, weight, max_iter, tol)
    if reason:
        raise NotImplementedError(reason)
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    if not _connected(G):
        raise nx.AmbiguousSolution(
            "`eigenvector_centrality_numpy` does not give consistent results for disconnected graphs")
    matvec = host_operator(G, weight or None, reverse=True)  # t = M' x
    n = len(G)
    op = sp.sparse.linalg.LinearOperator((n, n), matvec=matvec, dtype=np.float64)
    _, eigenvector = sp.sparse.linalg.eigs(op, k=1, which="LR", maxiter=max_iter, tol=tol)
    largest = eigenvector.flatten().real
    norm = np.sign(largest.sum()) * sp.linalg.norm(largest)
    return dict(zip(G.nodes, (largest / norm).tolist()))


# ---------------------------------------------------------------------------------------------
# Katz centrality
# ---------------------------------------------------------------------------------------------
def _beta_reason(beta):
    if isinstance(beta, Mapping) and not all(_checks.is_real(v, finite=True) for v in beta.values()):
        return "beta values must be finite real numbers for the backend"
    if isinstance(beta, (bool, np.bool_)):
        return None
    if not isinstance(beta, (Mapping, str, numbers.Real)):
        return f"beta must be a number or a dict; given {type(beta).__name__}"
    return None


def _katz_reason(G, alpha=0.1, beta=1.0, max_iter=1000, tol=1.0e-6, nstart=None, normalized=True, weight=None):
    return (_iteration_reason(G, max_iter, tol, weight) or _start_reason(G, nstart) or _beta_reason(beta)
            or _checks.reason(_checks.real, alpha, "", "alpha"))


def _beta_vector(G, beta):
    """networkx's reading of ``beta``: a float for every node, or a dict with every node."""
    try:
        b = dict.fromkeys(G.nodes, float(beta))
    except (TypeError, ValueError, AttributeError) as err:
        b = beta
        if set(beta) != set(G.nodes):
            raise nx.NetworkXError("beta dictionary must have a value for every node") from err
    return np.array([b[v] for v in G.nodes], dtype=np.float64)


@checked_by(_katz_reason)
def katz_centrality(G, alpha=0.1, beta=1.0, max_iter=1000, tol=1.0e-6, nstart=None, normalized=True, weight=None):
    """networkx.katz_centrality: ``{node: value}`` (in nstart's key order when given).

    Raises networkx.NetworkXError for a beta dict without every node and
    networkx.PowerIterationFailedConvergence after ``max_iter`` iterations.
    """
    reason = _katz_reason(G, alpha, beta, max_iter, tol, nstart, normalized, weight)
    if reason:
        raise NotImplementedError(reason)
    if len(G) == 0:
        return {}
    n = len(G)
    keys = G.nodes if nstart is None else list(nstart)
    b = _beta_vector(G, beta)
    x0 = np.zeros(n)
    if nstart is not None:
        for k, v in nstart.items():
            x0[G.index[k]] = v
    MT, ring = _product(G, weight)
    x = _full(x0, MT.device)
    bv = _full(b, MT.device)
    for _ in range(max_iter):
        # y = alpha (M' x) + beta   (beta where no in-edge brings anything)
        y = _core.ewise_add(_core.apply(_core.mxv(MT, x, ring), binary.times, left=alpha), bv, binary.plus)
        if _abs_change(y, x) < n * tol:
            if normalized:
                try:
                    s = 1.0 / math.hypot(*dense(y, 0.0).tolist())
                except ZeroDivisionError:
                    s = 1.0
                # y = y * s
                y = _core.apply(y, binary.times, right=s)
            return _ordered(G, keys, y)
        x = y
    raise nx.PowerIterationFailedConvergence(max_iter)


def _katz_numpy_reason(G, alpha=0.1, beta=1.0, normalized=True, weight=None):
    return (parallel_reason(G) or weight_reason(weight) or _beta_reason(beta)
            or _checks.reason(_checks.real, alpha, "", "alpha"))


@checked_by(_katz_numpy_reason)
def katz_centrality_numpy(G, alpha=0.1, beta=1.0, normalized=True, weight=None):
    """networkx.katz_centrality_numpy: ``{node: value}`` (in beta's key order for a beta dict),
    the solution of ``(I - alpha A') x = beta`` by a sparse LU factorization.

    Raises networkx.NetworkXError for a beta dict without every node or a beta that is not a
    number; declines (NotImplementedError) a singular system.
    """
    import scipy.sparse.linalg as spla

    reason = _katz_numpy_reason(G, alpha, beta, normalized, weight)
    if reason:
        raise NotImplementedError(reason)
    if len(G) == 0:
        return {}
    try:
        nodelist = beta.keys()
        if set(nodelist) != set(G.nodes):
            raise nx.NetworkXError("beta dictionary must have a value for every node")
        b = np.array(list(beta.values()), dtype=float)
    except AttributeError:
        nodelist = list(G.nodes)
        try:
            b = np.ones((len(nodelist), 1)) * beta
        except (TypeError, ValueError, AttributeError) as err:
            raise nx.NetworkXError("beta must be a number") from err
    nodelist = list(nodelist)
    perm = np.array([G.index[v] for v in nodelist], dtype=np.int64)
    rhs = np.empty(len(G))
    rhs[perm] = np.ravel(b)
    MT, _ = _product(G, weight)
    n = len(G)
    # S = I - alpha M'   (M' with its values, or ones on the pattern)
    scaled = _core.apply(MT, binary.times, left=-float(alpha))
    eye = _core.Matrix.from_coo(np.arange(n), np.arange(n), np.ones(n), nrows=n, ncols=n, dtype="float64",
                                device=MT.device)
    S = _core.ewise_add(eye, scaled, binary.plus).to_scipy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = spla.spsolve(S.tocsc(), rhs)
    if not np.all(np.isfinite(x)):
        raise NotImplementedError("I - alpha A' is singular to working precision; networkx's dense solve decides")
    centrality = x[perm]
    norm = np.sign(sum(centrality)) * np.linalg.norm(centrality) if normalized else 1
    return dict(zip(nodelist, (centrality / norm).tolist()))


__all__ = ["eigenvector_centrality", "eigenvector_centrality_numpy", "katz_centrality", "katz_centrality_numpy"]
