"""Partition oracles and graphs shared by the partition tests (the public calls and the GPU
scheme): the cut and the balance from the definitions, Hypothesis graphs, paths and grids, the
check of a partition, and networkx's Kernighan-Lin as the reference bisection."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import strategies as st

import semiring as sr
from semiring.backends._xp import asnumpy

edge_cut = sr.algorithms.edge_cut


def cut_oracle(A, parts):
    """Weight of the edges {i, j}, i != j, with parts[i] != parts[j], each once (scipy COO)."""
    S = sp.coo_matrix(A.to_scipy())
    w = np.ones(S.nnz) if S.dtype == bool else S.data.astype(np.float64)
    p = np.asarray(parts)
    m = (p[S.row] != p[S.col]) & (S.row != S.col)
    return w[m].sum() / 2


def balance_oracle(parts, k):
    p = np.asarray(parts)
    return np.bincount(p, minlength=k).max() / (p.size / k)


def cap_bound(n, k, imbalance):
    """The largest part partition() may return, over n/k."""
    return max(-(-n // k), int(np.floor((1 + imbalance) * n / k + 1e-9))) / (n / k)


def dense(v):
    assert v.nvals == v.size, "every vertex must have a part"
    return asnumpy(v.to_dense()).astype(np.int64)


def symmetric(n, r, c, w, dtype):
    r, c, w = (np.asarray(a) for a in (r, c, w))
    return sr.Matrix.from_coo(np.concatenate([r, c]), np.concatenate([c, r]), np.concatenate([w, w]),
                              nrows=n, ncols=n, dtype=dtype, dup_op=sr.binary.max)


@st.composite
def graphs(draw, min_n=2, max_n=40, weights=("bool", "int64", "float64")):
    n = draw(st.integers(min_n, max_n))
    m = draw(st.integers(0, 3 * n))
    r = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    c = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    kind = draw(st.sampled_from(weights))
    if kind == "bool":
        w = [True] * m
    elif kind == "int64":
        w = draw(st.lists(st.integers(0, 9), min_size=m, max_size=m))
    else:
        w = draw(st.lists(st.integers(0, 64).map(lambda x: x / 8), min_size=m, max_size=m))
    return symmetric(n, r, c, w, kind)


def path(n):
    i = np.arange(n - 1)
    return symmetric(n, i, i + 1, np.ones(n - 1, bool), "bool")


def grid_pieces(pieces, rows, cols):
    """``pieces`` disjoint rows x cols grids."""
    G = sr.generators.grid(rows, cols).to_scipy()
    return sr.Matrix.from_scipy(sp.block_diag([G] * pieces, format="csr"))


def check_partition(A, k, parts_vec, imbalance=0.03, method="multilevel"):
    """Every vertex has a part in 0..k-1, every part is used, the balance cap holds; returns
    (parts, cut) with the cut from the oracle (and edge_cut agreeing with it)."""
    assert parts_vec.dtype == np.int64 and parts_vec.size == A.nrows
    p = dense(parts_vec)
    n = A.nrows
    assert p.min() >= 0 and p.max() < k
    assert np.bincount(p, minlength=k).min() >= 1, "every part must be non-empty"
    b = balance_oracle(p, k)
    if method == "bfs":
        sizes = np.bincount(p, minlength=k)
        assert set(sizes.tolist()) <= {n // k, -(-n // k)}
    else:
        assert b <= cap_bound(n, k, imbalance) + 1e-12, f"balance {b} above the cap"
    cut = cut_oracle(A, p)
    assert edge_cut(A, parts_vec) == pytest.approx(cut)
    return p, cut


def nx_graph(A):
    G = nx.from_scipy_sparse_array(A.to_scipy().astype(np.float64))
    G.remove_edges_from(nx.selfloop_edges(G))
    return G


def nx_kl_parts(G, n, **kw):
    a, b = nx.community.kernighan_lin_bisection(G, **kw)
    p = np.zeros(n, dtype=np.int64)
    p[list(b)] = 1
    return p
