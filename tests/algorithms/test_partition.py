"""Graph partitioning (multilevel k-way, BFS-grown parts, Kernighan-Lin) against independent checks.

Oracles: the cut and the balance computed here with scipy/NumPy from the definitions (never
with ``edge_cut``/``balance``); ``networkx.algorithms.community.kernighan_lin_bisection`` for
the quality of a bisection (our average cut over seeds no worse than networkx's on the same
graphs); scipy's BFS (``csgraph.breadth_first_order``) for the level structure of the "bfs"
method; optimal cuts known by construction (grids, disjoint pieces, a cycle with two light
edges). Graphs: Hypothesis, generated graphs, and LAGraph / DIMACS graphs from ../shared/data.
"""

from __future__ import annotations

import importlib

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import semiring as sr
from _partitiongraphs import (balance_oracle, check_partition, cut_oracle, dense, graphs, grid_pieces, nx_graph, nx_kl_parts,
                               path, symmetric)

partition = sr.algorithms.partition
edge_cut = sr.algorithms.edge_cut
balance = sr.algorithms.balance
kl = sr.algorithms.kernighan_lin_bisection
partition_module = importlib.import_module("semiring.algorithms.partition")

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------------------------
# edge_cut and balance
# ---------------------------------------------------------------------------------------------

@SETTINGS
@given(g=graphs(), data=st.data())
def test_edge_cut_and_balance_match_the_definitions(g, data):
    n = g.nrows
    k = data.draw(st.integers(1, n))
    parts = np.asarray(data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    got = edge_cut(g, sr.Vector.from_dense(parts))
    want = cut_oracle(g, parts)
    if g.dtype.kind in "biu":
        assert isinstance(got, int) and got == want
    else:
        assert isinstance(got, float) and got == pytest.approx(want, abs=1e-9)
    assert edge_cut(g, parts) == got  # an array works as well as a Vector
    assert balance(parts, k) == pytest.approx(balance_oracle(parts, k))


def test_edge_cut_counts_each_undirected_edge_once_and_ignores_self_loops():
    A = symmetric(4, [0, 1, 2, 3, 1], [1, 2, 3, 0, 1], [3, 5, 7, 11, 100], "int64")
    assert edge_cut(A, [0, 0, 1, 1]) == 5 + 11
    assert edge_cut(A, [0, 1, 0, 1]) == 3 + 5 + 7 + 11
    assert edge_cut(A, [0, 0, 0, 0]) == 0
    assert balance([0, 0, 1, 1], 2) == 1.0 and balance([0, 0, 0, 1], 2) == 1.5 and balance([0, 0, 0, 0], 4) == 4.0


# ---------------------------------------------------------------------------------------------
# partition: validity, balance, determinism
# ---------------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(g=graphs(), data=st.data())
def test_partition_is_complete_balanced_and_deterministic(g, data):
    n = g.nrows
    k = data.draw(st.integers(1, min(n, 6)))
    method = data.draw(st.sampled_from(["multilevel", "bfs"]))
    imbalance = data.draw(st.sampled_from([0.0, 0.03, 0.3]))
    seed = data.draw(st.integers(0, 2**20))
    got = partition(g, k, method=method, seed=seed, imbalance=imbalance)
    check_partition(g, k, got, imbalance, method)
    assert got.isequal(partition(g, k, method=method, seed=seed, imbalance=imbalance), check_dtype=True)


@pytest.mark.parametrize("k", [2, 3, 4, 8])
@pytest.mark.parametrize("method", ["multilevel", "bfs"])
def test_partition_generated_graphs(method, k):
    for A in (sr.generators.grid(20, 20), sr.generators.random_geometric(800, seed=2), sr.generators.kronecker(9, seed=3)):
        check_partition(A, k, partition(A, k, method=method, seed=1), 0.03, method)


def test_known_optimal_cuts():
    A = sr.generators.grid(8, 8)  # the straight cut through the middle: 8 edges
    for s in range(3):
        p, cut = check_partition(A, 2, partition(A, 2, seed=s))
        assert cut == 8
    B = grid_pieces(4, 6, 5)  # four disjoint pieces: a cut of 0 into 4 equal parts exists
    p, cut = check_partition(B, 4, partition(B, 4, imbalance=0.0))
    assert cut == 0
    # a 20-cycle whose edges weigh 100 except (9, 10) and (19, 0): the balanced cut takes those two
    i = np.arange(20)
    w = np.where((i == 9) | (i == 19), 1, 100)
    C = symmetric(20, i, (i + 1) % 20, w, "int64")
    p, cut = check_partition(C, 2, partition(C, 2, imbalance=0.0))
    assert cut == 2 and sorted(np.bincount(p).tolist()) == [10, 10]


def test_self_loops_and_zero_weights_do_not_count():
    A = sr.generators.grid(6, 6)
    r, c, _ = A.to_coo()
    loops = np.arange(36)
    B = sr.Matrix.from_coo(np.concatenate([r, loops]), np.concatenate([c, loops]), nrows=36, ncols=36)
    p = partition(B, 2)
    assert edge_cut(B, p) == edge_cut(A, p) == cut_oracle(A, dense(p)) == 6
    Z = symmetric(4, [0, 1, 2], [1, 2, 3], [5, 0, 5], "int64")  # the zero-weight edge is free to cut
    p, cut = check_partition(Z, 2, partition(Z, 2, imbalance=0.0))
    assert cut == 0


def test_isolated_vertices_fill_parts():
    A = sr.generators.grid(5, 5)
    G = sp.block_diag([A.to_scipy(), sp.csr_matrix((15, 15), dtype=bool)], format="csr")
    B = sr.Matrix.from_scipy(G)
    for k in (2, 3, 4):
        check_partition(B, k, partition(B, k))
    E = sr.Matrix(7, 7, "bool")  # no edges at all
    p, cut = check_partition(E, 3, partition(E, 3))
    assert cut == 0


def test_small_cases():
    assert partition(sr.Matrix(0, 0, "bool"), 3).size == 0
    one = partition(sr.generators.grid(3, 3), 1)
    assert dense(one).tolist() == [0] * 9
    p, _ = check_partition(path(5), 5, partition(path(5), 5))
    assert sorted(p.tolist()) == [0, 1, 2, 3, 4]


# ---------------------------------------------------------------------------------------------
# bfs-grown parts: runs of a BFS order
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n,k", [(10, 3), (31, 4), (64, 8)])
def test_bfs_parts_of_a_path_are_segments(n, k):
    A = path(n)
    p, cut = check_partition(A, k, partition(A, k, method="bfs"), method="bfs")
    assert cut == k - 1  # contiguous segments of the path, from one end


def test_bfs_parts_follow_bfs_levels():
    """Along the order the parts were cut from, levels from the start vertex never decrease:
    every vertex of part q is at most as far from the start as every vertex of part q + 1
    (scipy's BFS from the start, taken as the vertex of part 0 farthest from the last part)."""
    for A in (sr.generators.grid(9, 13), sr.generators.random_geometric(300, radius=0.12, seed=5)):
        S = A.to_scipy()
        ncomp, comp = csgraph.connected_components(S, directed=False)
        big = np.argmax(np.bincount(comp))
        keep = np.flatnonzero(comp == big)
        A1 = sr.Matrix.from_scipy(S[keep][:, keep].tocsr())
        k = 4
        p, _ = check_partition(A1, k, partition(A1, k, method="bfs"), method="bfs")
        S1 = A1.to_scipy()
        ok = False
        for s in np.flatnonzero(p == 0):  # the start is some vertex of part 0
            lev = csgraph.shortest_path(S1, unweighted=True, indices=int(s), directed=False)
            if all(lev[p == q].max() <= lev[p == q + 1].min() for q in range(k - 1)):
                ok = True
                break
        assert ok, "no vertex of part 0 sees the parts in BFS level order"


def test_bfs_keeps_components_together():
    B = grid_pieces(3, 4, 4)  # 3 pieces of 16, k = 3: each piece is one run
    p, cut = check_partition(B, 3, partition(B, 3, method="bfs"), method="bfs")
    assert cut == 0


# ---------------------------------------------------------------------------------------------
# quality against networkx's Kernighan-Lin
# ---------------------------------------------------------------------------------------------

SEEDS = range(3)


def _generated_for_quality():
    return {"grid30": sr.generators.grid(30, 30), "rgg1000": sr.generators.random_geometric(1000, seed=1),
            "kron10": sr.generators.kronecker(10, seed=1)}


def assert_no_worse_than_networkx(A):
    """Multilevel bisection: average cut over 3 seeds <= networkx KL's over 3 seeds. Our KL
    from the same 3 random starts as networkx's: average within 15 percent of networkx's (the
    same moves, but ties among equal gains are broken in another order)."""
    n, G = A.nrows, nx_graph(A)
    ours = [check_partition(A, 2, partition(A, 2, seed=s))[1] for s in SEEDS]
    theirs = [cut_oracle(A, nx_kl_parts(G, n, seed=s)) for s in SEEDS]
    assert np.mean(ours) <= np.mean(theirs), (ours, theirs)
    rng = np.random.default_rng(7)
    ours_kl, theirs_kl = [], []
    for _ in SEEDS:
        start = np.zeros(n, dtype=np.int64)
        start[rng.permutation(n)[: n // 2]] = 1
        ours_kl.append(cut_oracle(A, dense(kl(A, partition=start))))
        halves = (set(np.flatnonzero(start == 1).tolist()), set(np.flatnonzero(start == 0).tolist()))
        theirs_kl.append(cut_oracle(A, nx_kl_parts(G, n, partition=halves)))
    assert np.mean(ours_kl) <= 1.15 * np.mean(theirs_kl), (ours_kl, theirs_kl)


@pytest.mark.parametrize("name", sorted(_generated_for_quality()))
def test_bisection_no_worse_than_networkx_kl_generated(name):
    assert_no_worse_than_networkx(_generated_for_quality()[name])


@pytest.mark.data
@pytest.mark.parametrize("name", ["small/lagraph/karate.mtx", "small/lagraph/jagmesh7.mtx", "coloring/queen8_8.col"])
def test_bisection_no_worse_than_networkx_kl_shared(shared_data, name):
    A = sr.io.read(shared_data / name)
    A = sr.Matrix.from_scipy(A.to_scipy().astype(bool))
    assert_no_worse_than_networkx(A)


# ---------------------------------------------------------------------------------------------
# Kernighan-Lin bisection
# ---------------------------------------------------------------------------------------------

@SETTINGS
@given(g=graphs(), data=st.data())
def test_kernighan_lin_keeps_sizes_and_never_raises_the_cut(g, data):
    n = g.nrows
    start = np.asarray(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    got = dense(kl(g, partition=start, max_iter=data.draw(st.integers(0, 5))))
    assert set(got.tolist()) <= {0, 1}
    assert np.bincount(got, minlength=2).tolist() == np.bincount(start, minlength=2).tolist()
    assert cut_oracle(g, got) <= cut_oracle(g, start) + 1e-9
    rnd = dense(kl(g, seed=data.draw(st.integers(0, 100))))
    assert int(rnd.sum()) == n // 2


def test_kernighan_lin_examples():
    B = nx.barbell_graph(5, 0)
    A = sr.Matrix.from_scipy(nx.to_scipy_sparse_array(B, nodelist=range(10), format="csr").astype(bool))
    for s in range(5):
        p = dense(kl(A, seed=s))
        assert cut_oracle(A, p) == 1 and {frozenset(np.flatnonzero(p == v)) for v in (0, 1)} == \
            {frozenset(range(5)), frozenset(range(5, 10))}
    assert dense(kl(A, partition=[0, 1] * 5, max_iter=0)).tolist() == [0, 1] * 5
    v = sr.Vector.from_dense(np.array([1, 0] * 5))
    assert cut_oracle(A, dense(kl(A, partition=v))) == 1


# ---------------------------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------------------------

def test_errors():
    A = sr.generators.grid(3, 3)
    directed = sr.Matrix.from_coo([0, 1], [1, 2], nrows=3, ncols=3)
    negative = symmetric(3, [0, 1], [1, 2], [1.0, -2.0], "float64")
    nan = symmetric(3, [0, 1], [1, 2], [1.0, np.nan], "float64")
    for f in (lambda M: partition(M, 2), lambda M: edge_cut(M, [0, 1, 0]), lambda M: kl(M)):
        for bad in (directed, negative, nan):
            with pytest.raises(sr.InvalidValue):
                f(bad)
        with pytest.raises(sr.DimensionMismatch):
            f(sr.Matrix.from_coo([0], [1], nrows=2, ncols=3))
        with pytest.raises(sr.InvalidValue):
            f(A.to_scipy())
    with pytest.raises(sr.InvalidValue, match="undirected"):
        partition(directed, 2)
    with pytest.raises(sr.InvalidValue, match="non-negative"):
        partition(negative, 2)
    for k in (0, 10, 2.0, True, "2"):
        with pytest.raises(sr.InvalidValue):
            partition(A, k)
    for kw in ({"method": "metis"}, {"imbalance": -0.1}, {"imbalance": float("nan")}, {"seed": -1}):
        with pytest.raises(sr.InvalidValue):
            partition(A, 2, **kw)
    for parts in ([0, 1], [0] * 8 + [-1], [0.5] * 9, sr.Vector.from_coo([0, 1], [0, 1], size=9)):
        with pytest.raises(sr.InvalidValue):
            edge_cut(A, parts)
    with pytest.raises(sr.InvalidValue):
        balance([0, 1, 2], 2)
    with pytest.raises(sr.InvalidValue):
        balance([], 2)
    with pytest.raises(sr.InvalidValue):
        kl(A, partition=[0, 1, 2] * 3)
    with pytest.raises(sr.InvalidValue):
        kl(A, max_iter=-1)


def test_docstring_examples():
    import doctest

    assert doctest.testmod(partition_module, raise_on_error=True).failed == 0


# ---------------------------------------------------------------------------------------------
# CPU / GPU parity (one body)
# ---------------------------------------------------------------------------------------------

def _parity_graphs():
    return {"grid": sr.generators.grid(17, 19), "kron9": sr.generators.kronecker(9, seed=4),
            "rgg": sr.generators.random_geometric(500, seed=6), "edgeless": sr.Matrix(9, 9, "bool")}


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(_parity_graphs()))
@pytest.mark.parametrize("k", [2, 5])
def test_partition_on_gpu_matches_cpu(name, k):
    """"bfs" is the same computation on both devices; "multilevel" and Kernighan-Lin run the
    device scheme on the GPU (tests/gpu/test_gpu_partition.py checks its quality): valid, balanced,
    and with the cut edge_cut reports on either device."""
    from _devices import same

    A = _parity_graphs()[name]
    D = A.to("gpu")
    cpu = partition(A, k, method="bfs", seed=3)
    dev = partition(D, k, method="bfs", seed=3)
    same(cpu, dev)
    assert edge_cut(D, dev) == edge_cut(A, cpu) == cut_oracle(A, dense(cpu))
    dev = partition(D, k, method="multilevel", seed=3)
    _, cut = check_partition(A, k, dev)
    assert edge_cut(D, dev) == cut
    start = dense(kl(A, seed=2, max_iter=0))
    got = dense(kl(D, seed=2))
    assert np.bincount(got, minlength=2).tolist() == np.bincount(start, minlength=2).tolist()
    assert cut_oracle(A, got) <= cut_oracle(A, start)
