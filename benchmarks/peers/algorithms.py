"""CPU peers of the graph algorithm rows of the algorithms suite (:mod:`benchmarks.suites.algorithms`):
what a user would call on the host instead, timed on the same graph in the same run.

SciPy where it has the algorithm (``scipy.sparse.csgraph``: components, strong components,
minimum spanning trees, shortest paths), networkx where it has none (Louvain, Kernighan-Lin,
greedy coloring), METIS through pymetis for k-way partitioning. Where the row's oracle is that
computation (SciPy's components, spanning tree, Dijkstra; the power iteration; the triangle
products; Brandes over SciPy BFS), the oracle's own time is the peer's (``from_oracle``);
the others are timed here, on host copies built before the clock starts (a networkx graph, a
METIS adjacency).

A peer's ``prepare(L)`` returns ``(thunk, describe)``: ``thunk()`` is the timed call, and
``describe(result)`` a short account of its answer (communities and modularity, cut, colors)
shown beside the row's own for comparison. ``prepare`` raises :class:`PeerUnavailable` when the
peer's library is not installed.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass
from typing import Callable

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from . import oracles as oracle


class PeerUnavailable(Exception):
    """The peer's library is not installed here."""


@dataclass(frozen=True)
class Peer:
    """A row's CPU peer.

    Attributes
    ----------
    name : str
        The call, as shown in the table.
    prepare : callable ``L -> (thunk, describe)`` or None
        None with ``from_oracle``: the row's oracle is the peer.
    from_oracle : bool
    """

    name: str
    prepare: Callable | None = None
    from_oracle: bool = False


def of_oracle(name):
    """The row's oracle is its peer: its time (measured once, in the check) is the peer's."""
    return Peer(name, None, True)


# --------------------------------------------------------------------------------------------
# host copies
# --------------------------------------------------------------------------------------------

def _networkx():
    try:
        import networkx as nx
    except ImportError as exc:
        raise PeerUnavailable(f"networkx is not installed ({exc})") from None
    return nx


def _nx_call(fn, *args, **kwargs):
    """Call networkx's own implementation (never a registered backend, such as semiring's)."""
    if getattr(fn, "backends", None) is not None:  # a dispatchable function (networkx >= 3.2)
        kwargs["backend"] = "networkx"
    return fn(*args, **kwargs)


def nx_graph(L):
    """The pattern as a networkx Graph (or DiGraph), every edge of weight 1.0; built once per graph.

    Its millions of Python objects are then moved out of the garbage collector's generations
    (``gc.freeze``), so that they add no collection pauses to the rows timed after it."""
    if "nx_graph" not in L.cache:
        nx = _networkx()
        S = sp.csr_matrix(L.S, dtype=np.float64)
        L.cache["nx_graph"] = nx.from_scipy_sparse_array(
            S, create_using=nx.DiGraph if L.kind == "directed" else nx.Graph)
        gc.collect()
        gc.freeze()
    return L.cache["nx_graph"]


def _labels(n, sets):
    """Per-vertex labels of a list of vertex sets (networkx communities, bisection sides)."""
    lab = np.full(n, -1, dtype=np.int64)
    for c, part in enumerate(sets):
        lab[np.fromiter(part, dtype=np.int64, count=len(part))] = c
    return lab


# --------------------------------------------------------------------------------------------
# the peers
# --------------------------------------------------------------------------------------------

def _strong(L):
    def run():
        return csgraph.connected_components(L.S, directed=True, connection="strong")
    return run, lambda res: f"{res[0]:,} components"


SCIPY_STRONG = Peer("scipy connected_components(connection='strong')", _strong)


def _greedy(L):
    nx = _networkx()
    G = nx_graph(L)

    def run():
        return _nx_call(nx.greedy_color, G, strategy="largest_first")
    return run, lambda res: f"{max(res.values()) + 1 if res else 0} colors"


NX_GREEDY_COLOR = Peer("networkx greedy_color(largest_first)", _greedy)


def _louvain(L):
    nx = _networkx()
    G = nx_graph(L)

    def run():
        return _nx_call(nx.community.louvain_communities, G, seed=0)

    def describe(comms):
        q = oracle.modularity_of(L.S, _labels(L.n, comms))
        return f"{len(comms):,} communities, modularity {q:.4f}"
    return run, describe


NX_LOUVAIN = Peer("networkx louvain_communities(seed=0)", _louvain)


def nx_kernighan_lin(start):
    """networkx's Kernighan-Lin from the row's start (``start(L)``: 0/1 per vertex), seed 0."""
    def prepare(L):
        nx = _networkx()
        G = nx_graph(L)
        side = start(L)
        halves = (set(np.flatnonzero(side == 0).tolist()), set(np.flatnonzero(side == 1).tolist()))

        def run():
            return _nx_call(nx.community.kernighan_lin_bisection, G, partition=halves, seed=0)
        return run, lambda res: f"cut {oracle.cut_of(L.S, _labels(L.n, res)):,} edges"
    return Peer("networkx kernighan_lin_bisection(same start, seed=0)", prepare)


def metis(k):
    """METIS (pymetis ``part_graph``, its default options: 3% imbalance) into k parts."""
    def prepare(L):
        try:
            import pymetis
        except ImportError:
            raise PeerUnavailable("pymetis is not installed") from None
        S = sp.csr_matrix(L.S, dtype=np.float64)
        S.setdiag(0)
        S.eliminate_zeros()
        S.sort_indices()
        xadj, adjncy = S.indptr.astype(np.int64), S.indices.astype(np.int64)
        adjacency = pymetis.CSRAdjacency(xadj, adjncy) if hasattr(pymetis, "CSRAdjacency") else None

        def run():
            if adjacency is not None:
                return pymetis.part_graph(k, adjacency)
            return pymetis.part_graph(k, xadj=xadj, adjncy=adjncy)

        def describe(res):
            parts = np.asarray(res[1], dtype=np.int64)
            sizes = np.bincount(parts, minlength=k)
            return f"cut {oracle.cut_of(L.S, parts):,} edges, balance {sizes.max() * k / max(L.n, 1):.3f}"
        return run, describe
    return Peer(f"METIS part_graph(k={k}) (pymetis)", prepare)
