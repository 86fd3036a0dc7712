"""Random graphs and their oracle form for the oracle tests of the graph algorithms
(tests/algorithms/test_algorithms_*.py).

Random graphs come from Hypothesis: directed or undirected (symmetric), n up to 60, isolated
vertices, self-loops, parallel edges collapsed with a ``dup_op`` (min, max or plus; the oracle
collapses them the same way with NumPy), explicit zero weights, negative weights, several
weight dtypes. The oracle form is the collapsed COO arrays, read by scipy, networkx and NumPy."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import semiring as sr

MAX_N = 60
UNREACHED = -1
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: weight kinds: the dtype given to Matrix.from_coo and a strategy for one weight
WEIGHT_KINDS = {
    "bool": ("bool", st.just(True)),
    "int64": ("int64", st.integers(0, 9)),          # zeros frequent: explicit zero-length edges
    "int32": ("int32", st.integers(0, 9)),
    "uint8": ("uint8", st.integers(0, 9)),
    # multiples of 1/8: every path sum is exact, so float results can be compared exactly
    "float64": ("float64", st.integers(0, 64).map(lambda k: k / 8)),
    "float32": ("float32", st.integers(0, 64).map(lambda k: k / 8)),
    "negative": ("int64", st.integers(-4, 9)),       # arbitrary signs: negative cycles possible
    "positive": ("float64", st.integers(1, 64).map(lambda k: k / 8)),
}
_REDUCE = {"min": np.minimum, "max": np.maximum, "plus": np.add, "lor": np.logical_or}
_DUP_OPS = {"min": sr.binary.min, "max": sr.binary.max, "plus": sr.binary.plus, "lor": sr.binary.lor}


@dataclass
class RandomGraph:
    n: int
    directed: bool
    kind: str
    dup: str
    A: sr.Matrix
    rows: np.ndarray  # collapsed edge list, one entry per (row, col), as the oracle sees it
    cols: np.ndarray
    vals: np.ndarray

    def csr(self, values=None):
        """scipy CSR with explicit entries kept (csgraph treats explicit zeros as edges)."""
        data = self.vals.astype(np.float64) if values is None else values
        return sp.csr_matrix((data, (self.rows, self.cols)), shape=(self.n, self.n))

    def __repr__(self):  # what Hypothesis prints for a falsifying example
        return (f"RandomGraph(n={self.n}, {'directed' if self.directed else 'undirected'}, "
                f"{self.kind}, dup={self.dup}, edges={list(zip(self.rows.tolist(), self.cols.tolist(), self.vals.tolist()))})")


def collapse(n, r, c, w, how):
    """Combine parallel entries (same row and column) with ``how``; sorted by (row, col)."""
    r, c, w = np.asarray(r, np.int64), np.asarray(c, np.int64), np.asarray(w)
    if r.size == 0:
        return r, c, w
    key = r * n + c
    order = np.argsort(key, kind="stable")
    key, w = key[order], w[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    vals = _REDUCE[how].reduceat(w, starts)
    return key[starts] // n, key[starts] % n, vals


@st.composite
def graphs(draw, kinds=tuple(WEIGHT_KINDS), directed=None, potentials=False, min_n=1, max_n=MAX_N):
    """A random graph. ``potentials=True`` (directed, int weights) makes w(u, v) = w' + p(u) - p(v)
    with w' >= 0: negative weights but no negative cycle (every cycle weighs sum(w') >= 0)."""
    kind = draw(st.sampled_from(kinds))
    dtype, weight = WEIGHT_KINDS[kind]
    n = draw(st.integers(min_n, max_n))
    directed = draw(st.booleans()) if directed is None else directed
    active = draw(st.integers(1, n))          # vertices outside the first `active` are isolated
    edges = draw(st.lists(st.tuples(st.integers(0, active - 1), st.integers(0, active - 1), weight),
                          max_size=3 * active))
    # parallel edges on purpose: repeat some edges with fresh weights
    if edges:
        again = draw(st.lists(st.tuples(st.integers(0, len(edges) - 1), weight), max_size=5))
        edges += [(edges[i][0], edges[i][1], w) for i, w in again]
    perm = np.array(draw(st.permutations(range(n))), dtype=np.int64)  # isolated ones anywhere
    r = perm[np.array([e[0] for e in edges], dtype=np.int64)]
    c = perm[np.array([e[1] for e in edges], dtype=np.int64)]
    w = np.array([e[2] for e in edges], dtype=dtype)
    if potentials:
        p = np.array(draw(st.lists(st.integers(-6, 6), min_size=n, max_size=n)), dtype=np.int64)
        w = (w + p[r] - p[c]).astype(dtype)
    if not directed:
        r, c, w = np.concatenate([r, c]), np.concatenate([c, r]), np.concatenate([w, w])
    if kind == "bool":
        dup = "lor"
    elif potentials:
        dup = draw(st.sampled_from(("min", "max")))  # plus would break the potential argument
    else:
        dup = draw(st.sampled_from(("min", "max", "plus")))
    A = sr.Matrix.from_coo(r, c, w, nrows=n, ncols=n, dtype=dtype, dup_op=_DUP_OPS[dup])
    rr, cc, vv = collapse(n, r, c, w, dup)
    return RandomGraph(n, directed, kind, dup, A, rr, cc, vv)


def graph_and_source(**kw):
    return graphs(**kw).flatmap(lambda g: st.tuples(st.just(g), st.integers(0, g.n - 1)))


def dense(v, fill):
    return v.to_dense(fill)


def _generated():
    return {
        "kronecker8": sr.generators.kronecker(8, seed=1),
        "kronecker9": sr.generators.kronecker(9, seed=2),
        "kronecker10": sr.generators.kronecker(10, seed=3),
        "grid2d": sr.generators.grid(13, 17),
        "grid3d": sr.generators.grid(5, 6, 7),
        "rgg": sr.generators.random_geometric(600, seed=4),
    }


@pytest.fixture(scope="module")
def generated():
    return _generated()


def _oracle_form(A):
    r, c, v = A.to_coo()
    return r.astype(np.int64), c.astype(np.int64), v
