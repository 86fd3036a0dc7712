"""networkx's trophic levels, differences and incoherence parameter on the engine.

The trophic level of a node is 1 plus the in-weight-averaged level of its prey:
``s = 1 + P s`` over the non-basal nodes, with ``P = D^-1 A'`` (A' the in-edges' weights, D their
row sums, the basal nodes (no in-edge) at level 1). networkx inverts ``I - P`` densely and sums
its rows; here ``I - P`` is built on the engine and ``(I - P) z = 1`` is solved by a sparse LU
factorization (``scipy.sparse.linalg.spsolve``): the same levels to rounding. Every node must be
reachable from a basal node: a multi-source BFS from the basal nodes checks it, as networkx's
``bfs_layers`` does.

References
----------
S. Levine, "Several measures of trophic structure applicable to complex food webs", J. Theor.
Biol. 83, 1980. S. Johnson, V. Domínguez-García, L. Donetti, M. A. Muñoz, "Trophic coherence
determines food-web stability", PNAS 111(50), 2014.
"""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np

from ... import core as _core
from ...core.matrix import Matrix
from ...ops import binary, indexunary, monoid, semiring
from ..algorithms import clustering as _cl
from ..algorithms.traversal import levels
from ._common import checked_by, weight_reason
from ._measures import dense, parallel_reason
from .centrality import edge_order

_UNREACHED = ("Trophic levels are only defined for graphs where every node has a path from a basal node "
              "(basal nodes are nodes with no incoming edges).")


def _reason(G, weight="weight", cannibalism=False):
    return parallel_reason(G) or weight_reason(weight)


def _directed_only(G):
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")


def _levels(G, weight, *, loops=True):
    """Host float64 array of the trophic levels in node order, and the in-degree counts."""
    import scipy.sparse.linalg as spla

    A = G.weighted(weight).A
    if not loops:
        A = _core.select(A, indexunary.offdiag)
    indeg = _cl.row_counts(_core.transpose(A))
    basal = np.flatnonzero(indeg == 0)
    if not basal.shape[0]:
        raise nx.NetworkXError("This graph has no basal nodes (nodes with no incoming edges)."
                               "Trophic levels are not defined without at least one basal node.")
    if not bool((levels(G.structure, basal) >= 0).all()):  # self-loops do not change what is reached
        raise nx.NetworkXError(_UNREACHED)
    # AT = A' as float64;  r = reduce_rowwise(AT, plus)   (each node's in-weight)
    AT = _core.transpose(A).dup("float64")
    r = dense(_core.reduce_rowwise(AT, monoid.plus), 0.0)
    keep = np.flatnonzero(r != 0)
    if keep.shape[0] != len(G) - basal.shape[0]:
        raise NotImplementedError(f"a node with in-edges of total {weight!r} 0: networkx's matrix then misaligns")
    n = len(G)
    # P = (AT(keep, keep)) ./ r(keep)   rows scaled;  S = I - P
    P = _core.extract(AT, keep, keep)
    inv = Matrix.from_coo(np.arange(keep.shape[0]), np.arange(keep.shape[0]), 1.0 / r[keep],
                          nrows=keep.shape[0], ncols=keep.shape[0], dtype="float64", device=AT.device)
    P = _core.mxm(inv, P, semiring.plus_times)
    m = keep.shape[0]
    eye = Matrix.from_coo(np.arange(m), np.arange(m), np.ones(m), nrows=m, ncols=m, dtype="float64",
                          device=AT.device)
    S = _core.ewise_add(eye, _core.apply(P, binary.times, left=-1.0), binary.plus).to_scipy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        z = spla.spsolve(S.tocsc(), np.ones(m)) if m else np.zeros(0)
    if not np.all(np.isfinite(z)):
        raise nx.NetworkXError(_UNREACHED)
    out = np.ones(n)
    out[keep] = np.atleast_1d(z) + 1
    return out, indeg


def _as_dict(G, lv, indeg):
    names = G.nodes
    out = {names[i]: 1 for i in np.flatnonzero(indeg == 0).tolist()}
    for i in np.flatnonzero(indeg != 0).tolist():
        out[names[i]] = lv[i].item()
    return out


@checked_by(lambda G, weight="weight": _reason(G, weight))
def trophic_levels(G, weight="weight"):
    """networkx.trophic_levels: ``{node: level}``, the basal nodes first (level 1, an int), then
    the others in node order.

    Raises networkx.NetworkXError without a basal node or with a node no basal node reaches, and
    networkx.NetworkXNotImplemented for undirected graphs, as networkx does.
    """
    _directed_only(G)
    lv, indeg = _levels(G, weight)
    return _as_dict(G, lv, indeg)


def _differences(G, weight, loops=True):
    lv, indeg = _levels(G, weight, loops=loops)
    levels_of = _as_dict(G, lv, indeg)
    tails, heads = edge_order(G)
    names = G.nodes
    out = {}
    for u, v in zip(tails.tolist(), heads.tolist()):
        if loops or u != v:
            out[(names[u], names[v])] = levels_of[names[v]] - levels_of[names[u]]
    return out


@checked_by(lambda G, weight="weight": _reason(G, weight))
def trophic_differences(G, weight="weight"):
    """networkx.trophic_differences: ``{(u, v): level(v) - level(u)}`` over the edges in
    networkx's order."""
    _directed_only(G)
    return _differences(G, weight)


@checked_by(_reason)
def trophic_incoherence_parameter(G, weight="weight", cannibalism=False):
    """networkx.trophic_incoherence_parameter: the standard deviation of the trophic differences
    (self-loops left out unless ``cannibalism``)."""
    _directed_only(G)
    return float(np.std(list(_differences(G, weight, loops=cannibalism).values())))


__all__ = ["trophic_levels", "trophic_differences", "trophic_incoherence_parameter"]
