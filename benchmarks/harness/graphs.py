"""The graphs the suites share: what they are, how they are built, and the loaded form the
per-root suites use (pattern and weights, cached Graph objects, degrees, host copies on demand).

Generated graphs: Graph500 Kronecker (A, B, C = 0.57, 0.19, 0.19, edge factor 16, seed 0;
integer weights uniform in [1, 255] where SSSP runs on them), 2-d grids, random geometric
graphs, uniform random graphs (with weights hashed from the vertex pair). Real graphs are read
from ``../shared/data`` (never copied); a missing file skips its case with a note. The builders
(:func:`read_builder`, :func:`kron_builder`, :func:`kron_directed_builder`) make a graph on the
CPU from the data folder, for the suites that keep their own graph descriptions.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import semiring as sr
from semiring.backends._xp import xp_of

#: In the GPU suite, host systems (semiring cpu, scipy, python-graphblas) run only on graphs with
#: at most this many stored entries: beyond, one CPU run takes tens of seconds.
HOST_MAX_ENTRIES = 20_000_000

#: ``<repository root>/../shared/data``
DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "..", "shared",
                        "data")


@dataclass
class Case:
    """A graph of a suite.

    Attributes
    ----------
    name : str
    load : callable ``(device, data_dir) -> Matrix``
        Weighted when ``weighted``; a pattern otherwise.
    kernels : tuple of {"bfs", "sssp", "coloring"}
    kind : {"undirected", "directed", None}
        None lets :class:`semiring.algorithms.Graph` check symmetry.
    weighted : bool
    about : str
        Where it comes from (generator and parameters, or file).
    path : str or None
        Data file relative to the data folder (the case is skipped if it is missing).
    big : bool
        Too big for host copies and CPU systems in the GPU suite (only device systems run,
        slow generic paths with few roots).
    """

    name: str
    load: Callable
    kernels: tuple
    kind: str | None = "undirected"
    weighted: bool = False
    about: str = ""
    path: str | None = None
    big: bool = False


def kron(scale, kernels=("bfs", "sssp"), big=False):
    """Graph500 Kronecker case; weighted (1..255) when it carries SSSP."""
    weighted = "sssp" in kernels

    def load(device, data):
        return sr.generators.kronecker(scale, weights=(1, 255) if weighted else None, device=device)

    return Case(f"kron{scale}", load, tuple(kernels), "undirected", weighted,
                f"Graph500 Kronecker scale {scale}, edge factor 16, seed 0" + (", weights 1..255" if weighted else ""),
                big=big)


def grid(k, kernels=("bfs", "sssp", "coloring")):
    def load(device, data):
        return sr.generators.grid(k, k, weights=(1, 255), device=device)

    return Case(f"grid{k}x{k}", load, tuple(kernels), "undirected", True, f"{k}x{k} grid, weights 1..255")


def rgg(log_n, kernels=("coloring", "bfs")):
    def load(device, data):
        return sr.generators.random_geometric(2**log_n, device=device)

    return Case(f"rgg2^{log_n}", load, tuple(kernels), "undirected", False,
                f"random geometric graph, n = 2^{log_n}, radius 0.55 sqrt(ln n / n), seed 0")


def data(name, path, kernels, kind=None, weighted=False):
    def load(device, data_dir):
        return sr.io.read(os.path.join(data_dir, path)).to(device)

    return Case(name, load, tuple(kernels), kind, weighted, f"../shared/data/{path}", path=path)


def read_builder(path, first=None):
    """``data_dir -> Matrix``: the file ``path`` of the data folder (its first ``first`` vertices)."""
    def build(data):
        A = sr.io.read(os.path.join(data, path))
        if first is not None:
            idx = np.arange(first, dtype=np.int64)
            A = sr.extract(A, idx, idx)
        return A
    return build


def kron_builder(scale, weighted=True):
    """``data_dir -> Matrix``: the Graph500 Kronecker graph (weights 1..255 when ``weighted``)."""
    def build(data):
        return sr.generators.kronecker(scale, weights=(1, 255) if weighted else None)
    return build


def kron_directed_builder(scale):
    """``data_dir -> Matrix``: the Kronecker graph's arcs without those whose hash of (i, j) is 0
    mod 4: a directed graph whose undirected edges keep both, one or (rarely) neither of their
    arcs."""
    def build(data):
        K = sr.generators.kronecker(scale)
        r, c, _ = K.to_coo()
        h = (r.astype(np.uint64) * np.uint64(0x9E3779B1) + c.astype(np.uint64) * np.uint64(0x85EBCA77)) >> np.uint64(7)
        keep = h % np.uint64(4) != 0
        return sr.Matrix.from_coo(r[keep], c[keep], None, nrows=K.nrows, ncols=K.ncols, dtype="bool")
    return build


#: Seed of the hashed edge weights of the uniform random graphs.
WEIGHT_SEED = 1


def _mix(x):
    """splitmix64 finalizer on uint64 arrays (NumPy or CuPy; wraps modulo 2^64)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def pair_weights(rows, cols, n, seed=WEIGHT_SEED):
    """Integer weights 1..255 of the entries (rows[k], cols[k]): a hash of the unordered pair
    and ``seed``, so an undirected edge weighs the same both ways (NumPy or CuPy arrays)."""
    xp = xp_of(rows)
    lo = xp.minimum(rows, cols).astype(np.uint64)
    hi = xp.maximum(rows, cols).astype(np.uint64)
    key = lo * np.uint64(n) + hi + np.uint64(seed * 0x9E3779B97F4A7C15 % 2**64)
    return (_mix(key) % np.uint64(255)).astype(np.int64) + 1


def uniform(log10_n, avg_degree=8, seed=0):
    """Case of a uniform random graph with ``10**log10_n`` vertices: ``avg_degree / 2 * n``
    random vertex pairs made symmetric, self-loops and repeats dropped."""
    n = 10**log10_n

    def load(device, data_dir):
        rng = np.random.default_rng(seed)
        m = n * avg_degree // 2
        u, v = rng.integers(0, n, m), rng.integers(0, n, m)
        keep = u != v
        keys = np.unique(np.concatenate([u[keep] * n + v[keep], v[keep] * n + u[keep]]))
        return sr.Matrix.from_coo(keys // n, keys % n, nrows=n, ncols=n, device=device)

    about = f"uniform random graph, n = 10^{log10_n}, {avg_degree // 2}n random pairs made symmetric, seed 0"
    return Case(f"uniform 10^{log10_n}", load, ("bfs",), "undirected", False, about)


def weighted_uniform(log10_n, seed=WEIGHT_SEED):
    """:func:`uniform` with weights 1..255 (see :func:`pair_weights`)."""
    base = uniform(log10_n)

    def load(device, data_dir):
        A = base.load(device, data_dir)
        r, c, _ = A.to_coo()
        return sr.Matrix.from_coo(r, c, pair_weights(r, c, A.nrows, seed), nrows=A.nrows, ncols=A.ncols,
                                  dtype="int64", device=device)

    return Case(base.name, load, ("sssp",), "undirected", True,
                base.about + f"; integer weights 1..255 per edge (the same both ways), hash seed {seed}")


def csr_arrays(A):
    """``(indptr, indices)`` of a Matrix (NumPy on the CPU, CuPy on the GPU), not copied."""
    ip, ix = getattr(A, "_indptr", None), getattr(A, "_indices", None)
    if ip is None or ix is None:  # storage renamed: rebuild from the public COO export
        r, c, _ = A.to_coo()
        xp = np if isinstance(r, np.ndarray) else __import__("cupy")
        ip = xp.searchsorted(r, xp.arange(A.nrows + 1, dtype=r.dtype))
        ix = c
    return ip, ix


@dataclass
class Loaded:
    """A case built on a device, with what the kernels share.

    Attributes
    ----------
    A : Matrix (pattern, bool) ;  W : Matrix (weights) or None
    G, GW : semiring Graph of A and W
    degree : ndarray (device of A), out-degree of every vertex
    undirected : bool
    load_s : float   seconds to build it (generation or reading, and the pattern)
    """

    case: Case
    A: object
    W: object
    G: object
    GW: object
    degree: object
    undirected: bool
    load_s: float
    _host: dict = field(default_factory=dict)

    @property
    def n(self):
        return self.A.nrows

    @property
    def host_ok(self):
        """Whether host systems run on this graph (always on the CPU; on the GPU up to
        :data:`HOST_MAX_ENTRIES` entries and not on ``big`` cases)."""
        return self.A.device == "cpu" or (not self.case.big and self.A.nvals <= HOST_MAX_ENTRIES)

    def host(self, weighted=False):
        """CPU copy (a semiring Matrix) of A, or of W with ``weighted``; made once."""
        key = "W" if weighted else "A"
        if key not in self._host:
            M = self.W if weighted else self.A
            self._host[key] = M if M.device == "cpu" else M.to("cpu")
        return self._host[key]

    def scipy(self, weighted=False):
        """scipy.sparse CSR copy of A (or W); made once."""
        key = "SW" if weighted else "S"
        if key not in self._host:
            self._host[key] = self.host(weighted).to_scipy()
        return self._host[key]

    def describe(self):
        return {"name": self.case.name, "about": self.case.about, "n": int(self.n), "nvals": int(self.A.nvals),
                "kind": "undirected" if self.undirected else "directed", "weighted": self.W is not None,
                "kernels": list(self.case.kernels), "device": self.A.device, "load_s": round(self.load_s, 3)}


def load(case, device, data_dir=DATA_DIR):
    """Build ``case`` on ``device``; None if its data file is missing."""
    if case.path is not None and not os.path.exists(os.path.join(data_dir, case.path)):
        return None
    t = time.perf_counter()
    M = case.load(device, data_dir)
    if case.weighted:
        W = M
        # A = one(W) as bool: the same graph's pattern
        A = sr.apply(W, sr.unary.one).dup("bool")
    else:
        W, A = None, M if M.dtype == np.bool_ else sr.apply(M, sr.unary.one).dup("bool")
    G = sr.algorithms.Graph(A, case.kind)
    undirected = G.kind == "undirected"
    GW = sr.algorithms.Graph(W, case.kind) if W is not None else None
    ip, _ = csr_arrays(A)
    degree = ip[1:] - ip[:-1]
    if device == "gpu":
        import cupy as cp

        cp.cuda.Device().synchronize()
    return Loaded(case, A, W, G, GW, degree, undirected, time.perf_counter() - t)
