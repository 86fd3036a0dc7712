"""The graphs of the CPU suite's algorithm table and each system's form of them.

A :class:`HostGraph` is built once per graph (reading or generating it, outside every timed
region) and hands out, built once and kept: the SciPy CSR pattern and weights (the oracles'
and SciPy's input), a semiring Matrix stored by either CPU backend, a python-graphblas Matrix,
a graphblas-algorithms Graph and a networkx graph. The rows build their semiring and
graphblas-algorithms ``Graph`` objects fresh, so what an algorithm caches on them is built by
the row's warm-up run and reused by its timed runs, as an application that keeps its graph would.

Full size (``../shared/data``; a missing file skips the graph's rows with a note):

- ``roads``: DIMACS USA-road-t.NY (travel times; parallel arcs keep the minimum), undirected;
- ``web``: LAW cnr-2000, directed pattern (published strong components beside it);
- ``web-sym``: cnr-2000's pattern made symmetric (A + A'), self-loops dropped;
- ``kron16``, ``kron18``: Graph500 Kronecker, edge factor 16, seed 0, weights 1..255;
- ``kron10``: Graph500 Kronecker scale 10 (the per-operation row).

Tiny size: generated stand-ins of the same kinds (a weighted grid, directed and symmetrized
Kronecker graphs of scale 8, Kronecker scales 8 and 9), so the whole path runs in seconds.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
import scipy.sparse as sp

import semiring as sr

from ...harness.graphs import kron_builder, kron_directed_builder, read_builder
from ...peers import host as peers


@dataclass(frozen=True)
class Spec:
    """A graph of the table.

    Attributes
    ----------
    key : str
        The rows' name for it (the same at both sizes).
    name : str
        Shown in the table.
    kind : {"undirected", "directed"}
    about : str
    build : callable ``data_dir -> Matrix`` (NumPy backend; weighted or a pattern)
    path : str or None
        Data file under the data folder.
    scc : str or None
        Published strong-component labels under the data folder.
    """

    key: str
    name: str
    kind: str
    about: str
    build: Callable
    path: str | None = None
    scc: str | None = None


def _symmetrized(build):
    """The pattern of ``A + A'`` without self-loops."""
    def sym(data):
        S = build(data).to_scipy(copy=True).tocsr().astype(bool)
        S = (S + S.T).tocsr()
        S.setdiag(False)
        S.eliminate_zeros()
        return sr.Matrix.from_scipy(S, dtype="bool", backend="numpy")
    return sym


def _grid(k):
    def build(data):
        return sr.generators.grid(k, k, weights=(1, 255))
    return build


def specs(size):
    """``{key: Spec}`` of the table's graphs at ``size`` ("tiny" or "full")."""
    kron = "Graph500 Kronecker scale {}, edge factor 16, seed 0, weights 1..255"
    if size == "tiny":
        directed = kron_directed_builder(8)
        return {s.key: s for s in (
            Spec("roads", "grid16x16", "undirected", "16x16 grid, weights 1..255 (stands in for the roads)", _grid(16)),
            Spec("web", "kron8-directed", "directed", "Kronecker scale 8 arcs, those with hash(i, j) = 0 mod 4 dropped "
                 "(stands in for cnr-2000)", directed),
            Spec("web-sym", "kron8-directed-sym", "undirected", "kron8-directed made symmetric, no self-loops",
                 _symmetrized(directed)),
            Spec("kron16", "kron8", "undirected", kron.format(8), kron_builder(8)),
            Spec("kron18", "kron9", "undirected", kron.format(9), kron_builder(9)),
            Spec("kron10", "kron10", "undirected", kron.format(10).replace(", weights 1..255", ""),
                 kron_builder(10, False)))}
    read = read_builder
    return {s.key: s for s in (
        Spec("roads", "USA-road-t.NY", "undirected", "DIMACS New York roads, travel times (parallel arcs: minimum)",
             read("roads/USA-road-t.NY.gr.gz"), "roads/USA-road-t.NY.gr.gz"),
        Spec("web", "cnr-2000", "directed", "LAW cnr-2000 web crawl, pattern", read("web/cnr-2000.mtx.gz"),
             "web/cnr-2000.mtx.gz", "web/cnr-2000.scc.txt.gz"),
        Spec("web-sym", "cnr-2000 symmetric", "undirected", "cnr-2000's pattern made symmetric (A + A'), no self-loops",
             _symmetrized(read("web/cnr-2000.mtx.gz")), "web/cnr-2000.mtx.gz"),
        Spec("kron16", "kron16", "undirected", kron.format(16), kron_builder(16)),
        Spec("kron18", "kron18", "undirected", kron.format(18), kron_builder(18)),
        Spec("kron10", "kron10", "undirected", kron.format(10).replace(", weights 1..255", ""),
                 kron_builder(10, False)))}


class Unavailable(Exception):
    """A system's library is not installed here."""


def graphblas():
    gb = peers.graphblas()
    if gb is None:
        raise Unavailable("python-graphblas is not installed (pip install python-graphblas)")
    return gb


def graphblas_algorithms():
    try:
        import graphblas_algorithms as ga
    except ImportError:
        raise Unavailable("graphblas-algorithms is not installed (pip install graphblas-algorithms)") from None
    return ga


def networkx():
    nx = peers.networkx()
    if nx is None:
        raise Unavailable("networkx is not installed (pip install networkx)")
    return nx


def semiring_backend(backend):
    """Raise Unavailable unless semiring's CPU backend ``backend`` can be used here."""
    if backend not in sr.backends.available_cpu_backends():
        raise Unavailable(f"semiring's {backend} backend is not available here "
                          "(pip install \"semiring[suitesparse]\")")


class HostGraph:
    """One graph of the table in every system's form.

    Attributes
    ----------
    spec : Spec
    n, nvals : int
    kind : {"undirected", "directed"}
    weighted : bool
    M : Matrix (NumPy backend): the weights, or the bool pattern
    S : scipy CSR (bool): the pattern;  Ws : scipy CSR (float64): the weights (the pattern as 1.0)
    cache : dict  built forms and answers shared by the graph's rows
    load_s : float
    """

    def __init__(self, spec, data):
        t = time.perf_counter()
        M = spec.build(data)
        self.M = M if M.backend == "numpy" else M.to("cpu", backend="numpy")
        self.weighted = self.M.dtype != np.bool_
        P = self.M if not self.weighted else sr.apply(self.M, sr.unary.one).dup("bool")
        self.P = P
        self.spec, self.kind, self.n, self.nvals = spec, spec.kind, M.nrows, M.nvals
        self.S = sp.csr_matrix(P.to_scipy(copy=True))
        self.Ws = sp.csr_matrix(self.M.to_scipy(copy=True), dtype=np.float64)
        self.degree = np.diff(self.S.indptr)
        self.cache = {}
        self.load_s = time.perf_counter() - t

    def _once(self, key, make):
        if key not in self.cache:
            self.cache[key] = make()
        return self.cache[key]

    def matrix(self, backend, weighted=False):
        """The weights (``weighted``) or the pattern as a semiring Matrix stored by ``backend``."""
        semiring_backend(backend)
        src = self.M if weighted else self.P
        return self._once(("matrix", backend, weighted), lambda: src.to("cpu", backend=backend))

    def graph(self, backend, weighted=False):
        """A fresh semiring Graph (nothing cached on it yet) of :meth:`matrix`."""
        return sr.algorithms.Graph(self.matrix(backend, weighted), self.kind)

    def gb(self, weighted=False):
        """python-graphblas Matrix of FP64: the weights, or the pattern with every value 1.0
        (iso-valued; graphblas-algorithms reads degrees off the values)."""
        gb = graphblas()

        def make():
            C = (self.Ws if weighted else self.S).tocoo()
            vals = C.data.astype(np.float64) if weighted else 1.0
            return gb.Matrix.from_coo(C.row, C.col, vals, nrows=self.n, ncols=self.n, dtype=float)
        return self._once(("gb", weighted), make)

    def gb_transpose(self):
        """The transpose of :meth:`gb` (the pattern), made once: the matrix itself when symmetric."""
        return self._once("gbT", lambda: self.gb() if self.kind == "undirected" else self.gb().T.new())

    def ga(self, weighted=False):
        """A fresh graphblas-algorithms Graph (or DiGraph) of :meth:`gb`."""
        ga = graphblas_algorithms()
        return (ga.DiGraph if self.kind == "directed" else ga.Graph)(self.gb(weighted))

    def nx(self):
        """The graph as networkx builds it from SciPy (edge attribute ``weight``); kept, and its
        objects moved out of the garbage collector's generations (``gc.freeze``) so that they add
        no collection pauses to the rows timed after it."""
        nx = networkx()

        def make():
            import gc

            G = nx.from_scipy_sparse_array(self.Ws, create_using=nx.DiGraph if self.kind == "directed" else nx.Graph)
            gc.collect()
            gc.freeze()
            return G
        return self._once("nx", make)

    def spread(self, k):
        """``k`` vertices of degree >= 1, evenly spaced by index (the betweenness sources)."""
        cand = np.flatnonzero(self.degree)
        k = min(k, cand.size)
        return np.unique(cand[np.linspace(0, cand.size - 1, k).astype(np.int64)]).tolist() if k else []

    def describe(self):
        s = self.spec
        return {"name": s.name, "about": s.about, "n": int(self.n), "nvals": int(self.nvals), "kind": self.kind,
                "weighted": self.weighted, "load_s": round(self.load_s, 3)}


def load(spec, data):
    """Build ``spec``; None when its data file is missing."""
    if spec.path is not None and not os.path.exists(os.path.join(data, spec.path)):
        return None
    return HostGraph(spec, data)
