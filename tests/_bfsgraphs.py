"""Graphs for the BFS strategy tests (CPU and GPU): small cases built to reach each strategy's
corners (``CASES``; ``GRAPHS`` adds larger ones), the scipy.sparse.csgraph oracle, a parent
check written on the definition, ``run`` (a strategy on a device) and ``gpu_kernels``, the
autouse fixture of a test module whose ``gpu`` cases launch the strategy kernels.

The ``gpu`` cases check every launch's arguments against the kernel's CUDA signature
(``CHECK_ARGS``). On the NumPy stand-in for CuPy (no ``RawModule``) the kernels are replaced
by the Python emulations in ``_bfs_kernel_emulators`` (the host code runs, the CUDA does not).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

import semiring as sr
from semiring.backends.gpu import bfs_strategies as gpu_strategies


def matrix(n, rows, cols):
    rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
    return sr.Matrix.from_coo(rows, cols, None, nrows=n, ncols=n, dtype="bool", dup_op=sr.binary.lor)


def random_graph(n, m, seed, symmetric=False, loops=True):
    rng = np.random.default_rng(seed)
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    if not loops:
        u, v = u[u != v], v[u != v]
    if symmetric:
        u, v = np.concatenate([u, v]), np.concatenate([v, u])
    return matrix(n, u, v)


def hub_graph():
    """0 -> 3000 leaves (hub: block bucket, 94 virtual nodes, overflows the single block's and
    one block's local queue); every leaf -> 3001; 3001 -> a path of 12; vertex 3014 isolated."""
    leaves = np.arange(1, 3001)
    path = np.arange(3001, 3013)
    rows = np.concatenate([np.zeros(3000, int), leaves, path])
    cols = np.concatenate([leaves, np.full(3000, 3001), path + 1])
    return matrix(3015, rows, cols)


def warp_bucket_graph():
    """Undirected: 40 vertices of degree 40..79 (warp bucket) around a ring, with leaves."""
    rows, cols, nxt = [], [], 40
    for h in range(40):
        rows.append(h)
        cols.append((h + 1) % 40)
        for _ in range(40 + h):
            rows.append(h)
            cols.append(nxt)
            nxt += 1
    rows, cols = np.array(rows), np.array(cols)
    return matrix(nxt, np.concatenate([rows, cols]), np.concatenate([cols, rows]))


def path(n):
    return matrix(n, np.arange(n - 1), np.arange(1, n))


#: name -> (matrix, sources)
CASES = {
    "directed": (random_graph(60, 150, 1), (0, 7, 59)),
    "directed-sparse": (random_graph(80, 70, 2), (0, 3, 40)),
    "undirected": (random_graph(70, 120, 3, symmetric=True, loops=False), (0, 35)),
    "disconnected": (matrix(40, np.r_[np.arange(0, 9), np.arange(20, 29), np.arange(1, 10)],
                             np.r_[np.arange(1, 10), np.arange(21, 30), np.arange(0, 9)]), (0, 25, 35)),
    "isolated-source": (matrix(6, [1, 2, 3], [2, 3, 4]), (0, 5)),
    "self-loops": (matrix(5, [0, 0, 1, 1, 2, 4], [0, 1, 1, 2, 2, 4]), (0, 4)),
    "source-with-only-a-loop": (matrix(4, [0, 1, 2], [0, 2, 3]), (0,)),
    "single-vertex": (matrix(1, [], []), (0,)),
    "hub": (hub_graph(), (0, 5, 3001)),
    "warp-buckets": (warp_bucket_graph(), (0, 45)),
    "path": (path(300), (0, 150)),
}


def scipy_levels(A, s):
    S = sp.csr_array(A.to_scipy(), dtype=np.float64)
    d = csgraph.shortest_path(S, unweighted=True, directed=True, indices=s)
    levels = np.where(np.isinf(d), -1, d).astype(np.int64)
    # the reached set once more, from scipy's BFS itself
    order = csgraph.breadth_first_order(S, s, directed=True, return_predecessors=False)
    assert set(order.tolist()) == set(np.flatnonzero(levels >= 0).tolist())
    return levels


def assert_parents(A, s, level, parent):
    """Each reached vertex but the source has a parent on the level above along an edge of A."""
    rows, cols, _ = A.to_coo()
    edges = set(zip(rows.tolist(), cols.tolist()))
    assert parent[s] == s
    for v in np.flatnonzero(level > 0).tolist():
        p = int(parent[v])
        assert level[p] == level[v] - 1, f"parent {p} of {v} is on level {level[p]}, not {level[v] - 1}"
        assert (p, v) in edges, f"parent edge {p} -> {v} is not an edge"
    assert (parent[level < 0] == -1).all()


#: The reference cases plus a Kronecker graph (hubs, short), a 2-d grid (long, thin) and an
#: undirected random graph with a few thousand vertices (many blocks per level).
GRAPHS = dict(CASES)
GRAPHS["kronecker-10"] = (sr.apply(sr.generators.kronecker(10), sr.unary.one).dup("bool"), (0, 17))
GRAPHS["grid-40x40"] = (sr.apply(sr.generators.grid(40, 40), sr.unary.one).dup("bool"), (0, 820))


def emulated():
    """True on the NumPy stand-in for CuPy (no ``RawModule``: the kernels are emulated)."""
    import cupy

    return not hasattr(cupy, "RawModule")


@pytest.fixture(autouse=True)
def gpu_kernels(request, monkeypatch):
    """gpu cases: argument checks on; on the NumPy stand-in, emulated kernels."""
    if request.node.get_closest_marker("gpu") is None:
        return
    monkeypatch.setattr(gpu_strategies, "CHECK_ARGS", True)
    if emulated():
        import _bfs_kernel_emulators as emu

        monkeypatch.setattr(gpu_strategies, "_launch", emu.launch)


def run(A, device, s, **kw):
    """``bfs`` from s on a Graph of A copied to ``device``."""
    G = sr.algorithms.Graph(A.to(device) if device == "gpu" else A)
    return sr.algorithms.bfs(G, s, **kw)
