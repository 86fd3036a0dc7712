"""``semiring.generators``: Graph500 Kronecker graphs, grids and random geometric graphs.

Oracles: an independent R-MAT simulation (quadrant probabilities a, b, c, d drawn per bit with
``rng.choice``, Chakrabarti et al. 2004) for the number of distinct Kronecker edges; hand-listed
edges and networkx grid graphs for grids; the expected degree of a random geometric graph in the
unit square, ``n * (pi r^2 - 8/3 r^3 + r^4 / 2)`` (pi r^2 less the boundary loss).

Bad arguments and the memory checks are in test_generators_arguments.py; the device-generic
array code in test_generators_device_code.py."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest

from semiring.generators import grid, kronecker, random_geometric
from _generators import assert_undirected, entries


def undirected_edges(A):
    """The set of {i, j} pairs (i < j) of a symmetric matrix."""
    r, c, _ = A.to_coo()
    return {(int(i), int(j)) for i, j in zip(r, c) if i < j}


def rmat_nvals(scale, edge_factor, seed, a=0.57, b=0.19, c=0.19):
    """Independent R-MAT: 2 * (distinct undirected non-loop edges) among edge_factor * 2**scale draws."""
    rng = np.random.default_rng(seed)
    m = edge_factor << scale
    u = np.zeros(m, np.int64)
    v = np.zeros(m, np.int64)
    for bit in range(scale):
        q = rng.choice(4, size=m, p=[a, b, c, 1 - a - b - c])  # 0: a (0,0), 1: b (0,1), 2: c (1,0), 3: d (1,1)
        u |= (q >> 1) << bit
        v |= (q & 1) << bit
    keep = u != v
    lo, hi = np.minimum(u, v)[keep], np.maximum(u, v)[keep]
    return 2 * np.unique(lo * (1 << scale) + hi).size


# ---------------------------------------------------------------------------------------------
# Kronecker
# ---------------------------------------------------------------------------------------------
class TestKronecker:
    @pytest.mark.parametrize("scale", [1, 4, 8, 10])
    def test_shape_symmetric_no_self_loops(self, scale):
        A = kronecker(scale)
        assert A.shape == (2**scale, 2**scale)
        assert A.dtype == np.bool_
        assert_undirected(A)
        assert 0 < A.nvals <= 2 * 16 * 2**scale

    @pytest.mark.parametrize("scale", [8, 10])
    def test_nvals_close_to_rmat_oracle(self, scale):
        got = np.mean([kronecker(scale, seed=s).nvals for s in range(3)])
        want = np.mean([rmat_nvals(scale, 16, 1000 + s) for s in range(3)])
        assert abs(got / want - 1) < 0.03, (got, want)
        # "close to" the bound: Graph500 graphs lose some edges to duplicates and self-loops only
        assert got >= 0.45 * 2 * 16 * 2**scale

    def test_edge_factor(self):
        A = kronecker(9, edge_factor=4, seed=2)
        assert_undirected(A)
        assert A.nvals <= 2 * 4 * 2**9
        want = np.mean([rmat_nvals(9, 4, 50 + s) for s in range(3)])
        assert abs(A.nvals / want - 1) < 0.05, (A.nvals, want)

    def test_deterministic_per_seed(self):
        assert kronecker(8, seed=3).isequal(kronecker(8, seed=3), check_dtype=True)
        assert kronecker(8, seed=3, weights=(1, 255)).isequal(kronecker(8, seed=3, weights=(1, 255)))

    def test_different_across_seeds(self):
        graphs = [kronecker(8, seed=s) for s in range(4)]
        for i in range(4):
            for j in range(i + 1, 4):
                assert not graphs[i].isequal(graphs[j])

    def test_integer_weights(self):
        W = kronecker(8, seed=1, weights=(1, 255))
        assert W.dtype == np.int64
        assert_undirected(W)  # includes w[i, j] == w[j, i]
        _, _, v = W.to_coo()
        assert v.min() >= 1 and v.max() <= 255
        assert v.min() <= 5 and v.max() >= 250  # spread over the range, not a constant
        assert W.nvals <= 2 * 16 * 2**8

    def test_float_weights(self):
        W = kronecker(6, seed=1, weights=(0.5, 2.0))
        assert W.dtype == np.float64
        assert_undirected(W)
        _, _, v = W.to_coo()
        assert v.min() >= 0.5 and v.max() < 2.0

    def test_degree_distribution_is_skewed(self):
        A = kronecker(10, seed=0)
        deg = np.diff(A.to_scipy().indptr)
        assert deg.max() >= 8 * deg.mean(), (deg.max(), deg.mean())
        # heavy tail: the top 1% of vertices hold many times their 1% share of the edge endpoints
        top = np.sort(deg)[::-1][: len(deg) // 100]
        assert top.sum() >= 0.08 * deg.sum()
        # an Erdos-Renyi graph of the same density would have max degree near the mean
        er = np.random.default_rng(0).binomial(len(deg) - 1, deg.mean() / (len(deg) - 1), len(deg))
        assert deg.max() > 3 * er.max()


# ---------------------------------------------------------------------------------------------
# grids
# ---------------------------------------------------------------------------------------------
def _sym(edges):
    return {(a, b) for a, b in edges} | {(b, a) for a, b in edges}


class TestGrid:
    def test_grid_3x4_by_hand(self):
        # vertex (x, y) = 4 x + y
        #  0 -  1 -  2 -  3
        #  |    |    |    |
        #  4 -  5 -  6 -  7
        #  |    |    |    |
        #  8 -  9 - 10 - 11
        edges = [(0, 1), (1, 2), (2, 3), (4, 5), (5, 6), (6, 7), (8, 9), (9, 10), (10, 11),
                 (0, 4), (1, 5), (2, 6), (3, 7), (4, 8), (5, 9), (6, 10), (7, 11)]
        A = grid(3, 4)
        assert A.shape == (12, 12) and A.dtype == np.bool_
        assert A.nvals == 34
        assert set(entries(A)) == _sym(edges)

    def test_grid_2x2x2_by_hand(self):
        # vertex (x, y, z) = 4 x + 2 y + z: the 12 edges of a cube
        edges = [(0, 1), (2, 3), (4, 5), (6, 7),   # along z
                 (0, 2), (1, 3), (4, 6), (5, 7),   # along y
                 (0, 4), (1, 5), (2, 6), (3, 7)]   # along x
        A = grid(2, 2, 2)
        assert A.shape == (8, 8)
        assert A.nvals == 24
        assert set(entries(A)) == _sym(edges)

    def test_path(self):
        assert set(entries(grid(5))) == _sym([(0, 1), (1, 2), (2, 3), (3, 4)])

    @pytest.mark.parametrize("dims", [(5, 7), (1, 6), (3, 4, 5), (2, 1, 3)])
    def test_against_networkx(self, dims):
        paths = [nx.path_graph(d) for d in dims]
        G = paths[0]
        for P in paths[1:]:
            G = nx.cartesian_product(G, P)

        def index(node):
            coords = []
            while isinstance(node, tuple):
                node, last = node
                coords.append(last)
            coords.append(node)
            coords.reverse()
            return int(np.ravel_multi_index(coords, dims))

        want = {(index(a), index(b)) for a, b in G.edges}
        A = grid(*dims)
        assert A.shape == (math.prod(dims),) * 2
        assert_undirected(A)
        assert undirected_edges(A) == {(min(a, b), max(a, b)) for a, b in want}

    def test_weighted(self):
        W = grid(6, 6, weights=(1, 9), seed=4)
        assert W.dtype == np.int64
        assert_undirected(W)
        _, _, v = W.to_coo()
        assert v.min() >= 1 and v.max() <= 9
        assert undirected_edges(W) == undirected_edges(grid(6, 6))
        assert W.isequal(grid(6, 6, weights=(1, 9), seed=4))


# ---------------------------------------------------------------------------------------------
# random geometric graphs
# ---------------------------------------------------------------------------------------------
def _expected_degree(n, r):
    """Mean degree of n uniform points in the unit square joined within distance r (r <= 1/2)."""
    return (n - 1) * (math.pi * r**2 - 8 / 3 * r**3 + r**4 / 2)


class TestRandomGeometric:
    def test_default_radius(self):
        n = 4096
        A = random_geometric(n, seed=0)
        assert A.shape == (n, n) and A.dtype == np.bool_
        assert_undirected(A)
        r = 0.55 * math.sqrt(math.log(n) / n)
        mean = A.nvals / n
        assert 0.85 * _expected_degree(n, r) < mean < 1.15 * _expected_degree(n, r), (mean, _expected_degree(n, r))
        # loosely pi r^2 n as well
        assert 0.7 * math.pi * r**2 * n < mean < 1.2 * math.pi * r**2 * n

    def test_given_radius(self):
        n, r = 1500, 0.08
        A = random_geometric(n, r, seed=5)
        assert_undirected(A)
        mean = A.nvals / n
        assert 0.85 * _expected_degree(n, r) < mean < 1.15 * _expected_degree(n, r), (mean, _expected_degree(n, r))

    def test_distance_weights_below_radius(self):
        n, r = 800, 0.07
        W = random_geometric(n, r, seed=2, weights="distance")
        assert W.dtype == np.float64
        assert_undirected(W)
        _, _, v = W.to_coo()
        assert np.all(v > 0) and np.all(v < r)
        assert undirected_edges(W) == undirected_edges(random_geometric(n, r, seed=2))

    def test_larger_radius_gives_a_supergraph(self):
        small = undirected_edges(random_geometric(600, 0.05, seed=9))
        large = undirected_edges(random_geometric(600, 0.08, seed=9))
        assert small < large

    def test_full_radius_is_complete(self):
        A = random_geometric(12, 1.5, seed=0)  # sqrt(2) is the largest distance in the square
        assert A.nvals == 12 * 11

    def test_deterministic_and_seeded(self):
        assert random_geometric(500, seed=1).isequal(random_geometric(500, seed=1), check_dtype=True)
        assert not random_geometric(500, seed=1).isequal(random_geometric(500, seed=2))

    def test_integer_weights(self):
        W = random_geometric(300, 0.1, seed=0, weights=(1, 255))
        assert W.dtype == np.int64
        assert_undirected(W)
        _, _, v = W.to_coo()
        assert v.min() >= 1 and v.max() <= 255
