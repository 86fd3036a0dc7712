"""Gebremedhin-Manne speculative coloring (``coloring(A, method="gebremedhin_manne")``).

Checks written from the definitions: every vertex colored, no edge inside a color class, the
colors 0..k-1 all used, color(v) <= degree(v) (each vertex took the smallest color its colored
neighbours lacked), determinism. Oracles: a sequential greedy coloring in vertex order written
here (what one block is), networkx's largest-first greedy for the color count (GM within a
factor of it), the proven chromatic numbers of the DIMACS instances (a lower bound), and the
pass sizes of a clique colored all at once (worked out by hand).
"""

from __future__ import annotations

import importlib

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.backends._xp import asnumpy
from semiring.testing.validate import check_coloring

from _strategies import clique_graphs

coloring_module = importlib.import_module("semiring.algorithms.coloring")
GM = "gebremedhin_manne"
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: GM may use more colors than largest-first greedy (its order interleaves the blocks, and
#: recolored vertices see a different neighbourhood): at most FACTOR * greedy + SLACK. On the
#: DIMACS instances it used at most 1.28 times as many (le450_15a: 23 against 18); on grids
#: (greedy: 2) up to 5 with 50 or more blocks.
FACTOR, SLACK = 1.5, 2


def adjacency(A):
    """Neighbour sets of the undirected simple graph of A (A or A^T, no self-loops)."""
    r, c, _ = (asnumpy(a) for a in A.to_coo())
    adj = [set() for _ in range(A.nrows)]
    for u, v in zip(r.tolist(), c.tolist()):
        if u != v:
            adj[u].add(v)
            adj[v].add(u)
    return adj


def assert_valid(A, col_vec):
    """Proper, complete, contiguous colors with color(v) <= degree(v); returns k."""
    n = A.nrows
    assert col_vec.dtype == np.int64 and col_vec.size == n and col_vec.nvals == n
    col = asnumpy(col_vec.to_dense())
    k = int(col.max()) + 1 if n else 0
    assert sorted(set(col.tolist())) == list(range(k)), "every color 0..k-1 must be used"
    adj = adjacency(A)
    for v in range(n):
        assert all(col[u] != col[v] for u in adj[v]), f"vertex {v} shares its color with a neighbour"
        assert col[v] <= len(adj[v])
    assert check_coloring(A, col_vec) == k
    return k


def greedy_in_order(adj):
    """Sequential greedy coloring in vertex order: the smallest color no earlier neighbour has."""
    col = [-1] * len(adj)
    for v in range(len(adj)):
        used = {col[u] for u in adj[v]}
        col[v] = next(c for c in range(len(adj) + 1) if c not in used)
    return col


def nx_greedy_count(adj):
    G = nx.Graph()
    G.add_nodes_from(range(len(adj)))
    G.add_edges_from((u, v) for u in range(len(adj)) for v in adj[u])
    return max(nx.greedy_color(G, strategy="largest_first").values(), default=-1) + 1


@st.composite
def graphs(draw, max_n=50):
    n = draw(st.integers(0, max_n))
    m = draw(st.integers(0, 4 * n)) if n else 0
    r = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)) if n else []
    c = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)) if n else []
    return sr.Matrix.from_coo(r, c, nrows=n, ncols=n, dup_op=sr.binary.lor)  # directed, self-loops


@SETTINGS
@given(A=graphs(), blocks=st.one_of(st.none(), st.integers(1, 60)), seed=st.integers(0, 2**31))
def test_gm_coloring_is_proper_complete_and_deterministic(A, blocks, seed):
    c = sr.algorithms.coloring(A, method=GM, seed=seed, blocks=blocks)
    assert_valid(A, c)
    assert c.isequal(sr.algorithms.coloring(A, method=GM, seed=seed, blocks=blocks), check_dtype=True)


@SETTINGS
@given(A=graphs())
def test_one_block_is_sequential_greedy_in_vertex_order(A):
    S = coloring_module.undirected_pattern(sr.algorithms.Graph(A))
    col, passes = coloring_module.gebremedhin_manne(S, seed=5, blocks=1)
    assert asnumpy(col.to_dense(-1)).tolist() == greedy_in_order(adjacency(A))
    assert passes == ([A.nrows] if A.nrows else [])  # one block never conflicts


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(g=clique_graphs(), blocks=st.one_of(st.none(), st.integers(1, 60)), seed=st.integers(0, 2**31))
def test_gm_coloring_needing_64_or_more_colors(g, blocks, seed):
    """A clique of 65..72 vertices: colors past 63 still seen by the neighbours; one block is
    the sequential greedy coloring in vertex order."""
    n, rows, cols, clique = g
    A = sr.Matrix.from_coo(rows, cols, nrows=n, ncols=n, dup_op=sr.binary.lor)
    assert assert_valid(A, sr.algorithms.coloring(A, method=GM, seed=seed, blocks=blocks)) >= clique
    S = coloring_module.undirected_pattern(sr.algorithms.Graph(A))
    col, _ = coloring_module.gebremedhin_manne(S, seed=5, blocks=1)
    assert asnumpy(col.to_dense(-1)).tolist() == greedy_in_order(adjacency(A))


def test_clique_colored_all_at_once_resolves_one_vertex_per_pass():
    """K_6 with 6 blocks: each pass colors all its vertices in one step with the same color;
    only the highest-priority one keeps it, so the passes color 6, 5, 4, 3, 2, 1 vertices."""
    K = sr.Matrix.from_dense(~np.eye(6, dtype=bool), missing=False)
    col, passes = coloring_module.gebremedhin_manne(K, seed=3, blocks=6)
    assert passes == [6, 5, 4, 3, 2, 1]
    assert sorted(asnumpy(col.to_dense()).tolist()) == list(range(6))
    # the pass in which a vertex kept its color is its rank by priority, highest first
    prio = coloring_module.priorities(6, 3)
    assert asnumpy(col.to_dense()).tolist() == np.argsort(np.argsort(-prio)).tolist()


def test_speculation_conflicts_are_resolved_on_a_ladder():
    """A ladder: paths 0..9 and 10..19 with rungs {i, i + 10}. With 2 blocks, step j colors j
    and j + 10, which are neighbours and see the same colored neighbours (j - 1 and j + 9):
    they pick the same color, every rung conflicts, and a second pass recolors one end of each."""
    i = np.arange(9)
    r = np.concatenate([i, i + 10, np.arange(10)])
    c = np.concatenate([i + 1, i + 11, np.arange(10) + 10])
    A = sr.Matrix.from_coo(np.concatenate([r, c]), np.concatenate([c, r]), nrows=20, ncols=20)
    col, passes = coloring_module.gebremedhin_manne(A, seed=0, blocks=2)
    assert passes[:2] == [20, 10]
    assert_valid(A, col)


@pytest.mark.parametrize("name", ["kronecker9", "grid", "rgg"])
def test_gm_generated_graphs(name):
    A = {"kronecker9": sr.generators.kronecker(9, seed=2), "grid": sr.generators.grid(13, 17),
         "rgg": sr.generators.random_geometric(600, seed=4)}[name]
    for blocks in (None, 4, 50):
        k = assert_valid(A, sr.algorithms.coloring(A, method=GM, seed=1, blocks=blocks))
        assert k <= FACTOR * nx_greedy_count(adjacency(A)) + SLACK
        if name == "grid":
            assert k >= 2


def _proven(shared_data):
    """instance -> chromatic number, for the instances marked proven (*)."""
    out = {}
    for line in (shared_data / "coloring" / "best_scores_gcp.txt").read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == "*":
            out[parts[0]] = int(parts[1])
    return out


@pytest.mark.data
def test_gm_on_dimacs_instances(shared_data):
    proven = _proven(shared_data)
    files = sorted((shared_data / "coloring").glob("*.col"))
    assert len(files) >= 20
    for f in files:
        A = sr.io.read(f)
        k = assert_valid(A, sr.algorithms.coloring(A, method=GM))
        assert k <= FACTOR * nx_greedy_count(adjacency(A)) + SLACK, f.name
        if f.stem in proven:
            assert k >= proven[f.stem], f"{f.name}: {k} colors, below the proven chromatic number"


def test_gm_errors():
    A = sr.generators.grid(3, 3)
    for bad in (0, -2, 1.5, True, "4"):
        with pytest.raises(sr.InvalidValue):
            sr.algorithms.coloring(A, method=GM, blocks=bad)
    with pytest.raises(sr.InvalidValue):
        sr.algorithms.coloring(A, method="jones_plassmann", blocks=4)
    with pytest.raises(sr.InvalidValue, match="compiled loop"):  # fused on the CPU: SuiteSparse backend only
        sr.algorithms.coloring(A.to("cpu", backend="numpy"), method=GM, engine="fused")
    with pytest.raises(sr.DimensionMismatch):
        sr.algorithms.coloring(sr.Matrix.from_coo([0], [1], nrows=2, ncols=3), method=GM)


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["kronecker9", "grid", "rgg", "clique"])
def test_gm_on_gpu_matches_cpu(name):
    from _devices import same

    A = {"kronecker9": sr.generators.kronecker(9, seed=2), "grid": sr.generators.grid(13, 17),
         "rgg": sr.generators.random_geometric(600, seed=4),
         "clique": sr.Matrix.from_dense(~np.eye(12, dtype=bool), missing=False)}[name]
    for blocks in (None, 3):
        cpu = sr.algorithms.coloring(A, method=GM, seed=7, blocks=blocks)
        dev = sr.algorithms.coloring(A.to("gpu"), method=GM, seed=7, blocks=blocks)
        same(cpu, dev)
        same(cpu, sr.algorithms.coloring(A.to("gpu"), method=GM, seed=7, blocks=blocks, engine="algebra"))
        assert_valid(A, cpu)
