"""``semiring.generators``: Graph500 Kronecker graphs, grids and random geometric graphs.

Oracles: an independent R-MAT simulation (quadrant probabilities a, b, c, d drawn per bit with
``rng.choice``, Chakrabarti et al. 2004) for the number of distinct Kronecker edges; hand-listed
edges and networkx grid graphs for grids; the expected degree of a random geometric graph in the
unit square, ``n * (pi r^2 - 8/3 r^3 + r^4 / 2)`` (pi r^2 less the boundary loss).

The generators' array code is device-generic (NumPy here, CuPy on a GPU): its counter-based
random numbers are checked against a scalar Python SplitMix64 written here from the published
constants, its Kronecker edges against a scalar Python transcription of the documented rule, the
GPU-sized chunking against the CPU one, the device build of ``Matrix.from_coo`` against the host
build, and the GPU's cell-bucket neighbour search against scipy's cKDTree.
"""

from __future__ import annotations

import math
import zlib

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import cKDTree

import semiring as sr
from semiring import InvalidValue
from semiring.core.matrix import Matrix
from semiring.generators import _common
from semiring.generators import _generators as gen
from semiring.generators import _kronecker
from semiring.generators import grid, kronecker, kronecker_permutation, kronecker_range, random_geometric


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def entries(A):
    r, c, v = A.to_coo()
    return {(int(i), int(j)): x.item() for i, j, x in zip(r, c, v)}


def assert_undirected(A):
    """Square, symmetric in structure and values, without self-loops."""
    assert A.nrows == A.ncols
    r, c, v = A.to_coo()
    assert not np.any(r == c), "self-loop"
    S = A.to_scipy()
    T = S.T.tocsr()
    T.sort_indices()
    S.sort_indices()
    assert np.array_equal(S.indptr, T.indptr) and np.array_equal(S.indices, T.indices), "not structurally symmetric"
    assert np.array_equal(S.data, T.data), "A[i, j] != A[j, i]"


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


# ---------------------------------------------------------------------------------------------
# bad arguments
# ---------------------------------------------------------------------------------------------
BAD = [
    ("kron_scale_0", kronecker, (0,), {}),
    ("kron_scale_negative", kronecker, (-1,), {}),
    ("kron_scale_41", kronecker, (41,), {}),
    ("kron_scale_32", kronecker, (32,), {}),  # 2**64 positions: beyond a Matrix
    ("kron_scale_float", kronecker, (2.5,), {}),
    ("kron_scale_bool", kronecker, (True,), {}),
    ("kron_scale_str", kronecker, ("3",), {}),
    ("kron_edge_factor_negative", kronecker, (3, -1), {}),
    ("kron_probabilities_sum", kronecker, (3,), {"a": 0.5, "b": 0.3, "c": 0.3}),
    ("kron_a_zero", kronecker, (3,), {"a": 0.0}),
    ("kron_a_nan", kronecker, (3,), {"a": float("nan")}),
    ("kron_weights_reversed", kronecker, (3,), {"weights": (5, 1)}),
    ("kron_weights_str", kronecker, (3,), {"weights": "x"}),
    ("kron_weights_triple", kronecker, (3,), {"weights": (1, 2, 3)}),
    ("kron_device", kronecker, (3,), {"device": "tpu"}),
    ("grid_no_dims", grid, (), {}),
    ("grid_four_dims", grid, (1, 2, 3, 4), {}),
    ("grid_negative", grid, (-1, 3), {}),
    ("grid_float", grid, (2.0, 3), {}),
    ("grid_weights_reversed", grid, (3, 3), {"weights": (3, 1)}),
    ("rgg_n_1", random_geometric, (1,), {}),
    ("rgg_n_0", random_geometric, (0,), {}),
    ("rgg_n_float", random_geometric, (2.5,), {}),
    ("rgg_radius_zero", random_geometric, (10, 0), {}),
    ("rgg_radius_negative", random_geometric, (10, -1.0), {}),
    ("rgg_radius_nan", random_geometric, (10, float("nan")), {}),
    ("rgg_radius_str", random_geometric, (10, "abc"), {}),
    ("rgg_weights_unknown", random_geometric, (10,), {"weights": "other"}),
]


@pytest.mark.parametrize("name,fn,args,kwargs", BAD, ids=[b[0] for b in BAD])
def test_bad_arguments(name, fn, args, kwargs):
    with pytest.raises(InvalidValue) as info:
        fn(*args, **kwargs)
    assert type(info.value) is InvalidValue
    assert str(info.value)


def test_gpu_device_unavailable_is_a_semiring_error():
    try:
        import cupy  # noqa: F401
    except ImportError:
        with pytest.raises(sr.BackendUnavailable):
            kronecker(3, device="gpu")
    else:
        pytest.skip("CuPy present: the GPU device may be available")


def test_seed_none_draws_a_fresh_graph():
    A, B = kronecker(8, seed=None), kronecker(8, seed=None)
    assert_undirected(A)
    assert not A.isequal(B)


@pytest.mark.parametrize("fn, args", [(kronecker, (3,)), (grid, (3, 3)), (random_geometric, (10,))])
@pytest.mark.parametrize("seed", [-1, 1.5, True, "1"])
def test_bad_seed(fn, args, seed):
    with pytest.raises(InvalidValue, match="seed"):
        fn(*args, seed=seed)


@pytest.mark.parametrize("weights", [(2.0, 1.0), (0.0, float("inf")), (float("nan"), 1.0), (0, 2**63),
                                     (-(2**63) - 1, 0)])
def test_bad_weight_bounds(weights):
    with pytest.raises(InvalidValue, match="weights"):
        kronecker(3, weights=weights)


# every argument named in the message (what was expected and what was given)
NAMED = [
    (kronecker, (3,), {"a": "x"}, "expected numbers a, b, c"),
    (kronecker, (3,), {"b": None}, "expected numbers a, b, c"),
    (kronecker, (3,), {"c": True}, "expected numbers a, b, c"),
    (kronecker, (3,), {"a": 0.6, "b": 0.2, "c": 0.2}, "a + b + c < 1"),
    (kronecker, (3,), {"b": -0.1}, "b >= 0"),
    (kronecker, (0,), {}, "kronecker: scale must be an integer in [1, 31]; given 0"),
    (kronecker, (np.int64(40),), {}, "kronecker: scale must be an integer in [1, 31]; given 40"),
    (kronecker, (2**70,), {}, "kronecker: scale must be an integer in [1, 31]"),
    (kronecker, (None,), {}, "kronecker: scale must be an integer in [1, 31]; given None"),
    (kronecker, (10, 2**53), {}, "kronecker: edge_factor (scale 10) must be an integer in [1, 9007199254740991]; "
                                 "given 9007199254740992"),
    (kronecker, (10, 2.0), {}, "kronecker: edge_factor (scale 10) must be an integer in [1, "),
    (kronecker, (10, 0), {}, "kronecker: edge_factor (scale 10) must be an integer in [1, "),
    (kronecker, (3,), {"weights": ("1", "2")}, "weights: expected (low, high) numbers; given ('1', '2')"),
    (kronecker, (3,), {"weights": (1, None)}, "weights: expected (low, high) numbers"),
    (kronecker, (3,), {"weights": [1, 2]}, "weights: expected None or a (low, high) tuple"),
    (kronecker, (3,), {"weights": (True, 2)}, "weights: expected (low, high) numbers"),
    (kronecker, (3,), {"weights": (1.5, 10**400)}, "weights: expected finite (low, high)"),
    (kronecker, (3,), {"a": 10**400}, "a + b + c < 1"),
    (random_geometric, (10, 10**400), {}, "expected a positive finite radius"),
    (grid, (3000000000, 3000000000), {}, "3000000000 x 3000000000 give 9,000,000,000,000,000,000 vertices; "
                                         "expected at most 3,037,000,499"),
    (grid, (2**62, 2, 2), {}, "expected at most 3,037,000,499"),
    (grid, (3037000500,), {}, "expected at most 3,037,000,499"),
    (grid, (True, 3), {}, "grid: side 0 must be an integer >= 1; given True"),
    (grid, (3, 0), {}, "grid: side 1 must be an integer >= 1; given 0"),
    (grid, (3, "3"), {}, "grid: side 1 must be an integer >= 1; given '3'"),
    (grid, (3, 3), {"weights": (1, "9")}, "weights: expected (low, high) numbers"),
    (random_geometric, (3037000500,), {}, "random_geometric: n must be an integer in [2, 3037000499]; "
                                          "given 3037000500"),
    (random_geometric, (np.float64(100),), {}, "random_geometric: n must be an integer in [2, 3037000499]"),
    (random_geometric, (10, math.inf), {}, "expected a positive finite radius; given inf"),
    (random_geometric, (10, True), {}, "expected a positive finite radius; given True"),
    (random_geometric, (10, "0.1"), {}, "expected a positive finite radius; given '0.1'"),
    (random_geometric, (10, np.array([0.1, 0.2])), {}, "expected a positive finite radius"),
    (random_geometric, (10,), {"weights": np.array([1, 2])}, "weights: expected None, 'distance' or a (low, high)"),
    (random_geometric, (10,), {"weights": (3, 1)}, "weights: expected (low, high) with low <= high"),
]


@pytest.mark.parametrize("fn,args,kwargs,message", NAMED, ids=[f"{f.__name__}-{m[:30]}" for f, _, _, m in NAMED])
def test_bad_arguments_name_the_argument(fn, args, kwargs, message):
    with pytest.raises(InvalidValue) as info:
        fn(*args, **kwargs)
    assert type(info.value) is InvalidValue
    assert message in str(info.value), str(info.value)


# ---------------------------------------------------------------------------------------------
# memory: refused before allocating, and the estimate bounds the build
# ---------------------------------------------------------------------------------------------
TOO_BIG = [  # each needs well over 64 MiB (below that the memory is not looked at)
    (kronecker, (20,), {}, "kronecker(scale=20, edge_factor=16): 1,048,576 vertices"),
    (kronecker, (12, 2**20), {"weights": (1, 255)}, "kronecker(scale=12, edge_factor=1048576)"),
    (kronecker, (31,), {}, "kronecker(scale=31, edge_factor=16)"),
    (grid, (3000, 3000), {}, "grid(3000, 3000): 9,000,000 vertices"),
    (grid, (300, 300, 300), {"weights": (1.0, 2.0)}, "grid(300, 300, 300)"),
    (grid, (55108, 55108), {}, "grid(55108, 55108)"),
    (random_geometric, (2**21,), {}, "random_geometric(n=2097152"),
    (random_geometric, (10**4, 1.0), {}, "random_geometric(n=10000, radius=1)"),  # 5 * 10**7 pairs
    (random_geometric, (10**4, 0.5), {"weights": "distance"}, "random_geometric(n=10000, radius=0.5)"),
]


@pytest.mark.parametrize("fn,args,kwargs,what", TOO_BIG, ids=[w[:28] for _, _, _, w in TOO_BIG])
def test_out_of_memory_before_allocating(monkeypatch, fn, args, kwargs, what):
    import tracemalloc

    import semiring._memory as memory

    monkeypatch.setattr(memory, "available_bytes", lambda device="cpu": 2**20)  # 1 MiB free
    tracemalloc.start()
    try:
        with pytest.raises(sr.OutOfMemory) as info:
            fn(*args, **kwargs)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert what in str(info.value) and "of cpu memory; 1.00 MiB is free" in str(info.value)
    assert peak < 2**20, f"{peak} bytes allocated before the refusal"


def test_graphs_that_fit_are_built(monkeypatch):
    import semiring._memory as memory

    # 200 MiB free: a scale-12 Kronecker graph (about 10 MiB at its peak) is built
    monkeypatch.setattr(memory, "available_bytes", lambda device="cpu": 200 * 2**20)
    assert kronecker(12).nrows == 4096
    assert grid(300, 300).nrows == 90000


@pytest.mark.parametrize("call", [
    "kronecker(12)", "kronecker(12, weights=(1, 255))", "grid(300, 300)", "grid(300, 300, weights=(1, 9))",
    "grid(40, 40, 40, weights=(1.0, 9.0))", "random_geometric(2**14)", "random_geometric(2**14, weights='distance')",
    "random_geometric(2**12, radius=0.1, weights=(1, 255))",
])
def test_memory_estimate_bounds_the_build(monkeypatch, call):
    # the estimate given to require() is at least the traced peak of the build (so a graph is not
    # built into memory it was promised not to need) and at most twice it (so one that fits is
    # not refused)
    import tracemalloc

    import semiring._memory as memory

    seen = []
    monkeypatch.setattr(memory, "require", lambda nbytes, what, device="cpu": seen.append(nbytes))
    tracemalloc.start()
    try:
        eval(call, {"kronecker": kronecker, "grid": grid, "random_geometric": random_geometric})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(seen) == 1
    assert peak <= seen[0] <= 2 * peak, (peak, seen[0])


JUNK = st.one_of(st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=4),
                st.integers(-(2**70), 2**70), st.tuples(st.integers(), st.integers()),
                st.sampled_from([np.int64(5), np.float64(0.5), np.int8(-1), (1.0, math.inf), "distance", 10**400,
                                 (10**400, 1.5), (-(10**400), 1)]))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(fn=st.sampled_from(["kronecker", "grid", "random_geometric"]), first=st.integers(2, 9),
       second=st.integers(1, 9), seed=st.integers(0, 2**65),
       weights=st.one_of(st.none(), st.tuples(st.integers(-3, 3), st.integers(3, 6))),
       bad=st.sampled_from([None, "first", "second", "seed", "weights"]), junk=JUNK)
def test_any_arguments_give_a_graph_or_a_library_error(fn, first, second, seed, weights, bad, junk):
    # one argument at a time (or none) replaced by junk; positional sizes: kronecker(scale,
    # edge_factor), grid(side, side), random_geometric(n, radius). 32 MiB free, so that large
    # valid sizes are refused by the memory check instead of built
    import semiring._memory as memory

    kwargs = {"first": first, "second": second, "seed": seed, "weights": weights}
    if bad is not None:
        kwargs[bad] = junk
    saved = memory.available_bytes
    memory.available_bytes = lambda device="cpu": 32 * 2**20
    try:
        f = {"kronecker": kronecker, "grid": grid, "random_geometric": random_geometric}[fn]
        A = f(kwargs["first"], kwargs["second"], seed=kwargs["seed"], weights=kwargs["weights"])
    except (InvalidValue, sr.OutOfMemory) as exc:
        assert bad is not None, f"valid arguments refused: {exc}"
        assert type(exc) in (InvalidValue, sr.OutOfMemory) and str(exc)
    else:
        assert A.nrows == A.ncols >= 1
    finally:
        memory.available_bytes = saved


# ---------------------------------------------------------------------------------------------
# counter-based random numbers: the same on every device
# ---------------------------------------------------------------------------------------------
MASK64 = (1 << 64) - 1


def splitmix64(state):
    """Scalar SplitMix64 (Steele, Lea, Flood 2014): advance by the golden gamma, then mix."""
    z = (state + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def test_words_are_splitmix64_outputs():
    # the k-th output of SplitMix64 seeded with key: state key + k * gamma, advanced once
    key = 0x0123456789ABCDEF
    got = _common._words(np, key, np.array([0, 1, 2, 1000, 2**40], dtype=np.int64))
    want = [splitmix64((key + k * 0x9E3779B97F4A7C15) & MASK64) for k in (0, 1, 2, 1000, 2**40)]
    assert got.dtype == np.uint64 and got.tolist() == want
    # published first output of SplitMix64 seeded with 0 (java.util.SplittableRandom's mixer)
    assert _common._words(np, 0, np.array([0]))[0] == 0xE220A8397B1DCDAF


def test_unit_floats_use_the_top_53_bits():
    z = np.array([0, 2**11 - 1, 2**11, MASK64], dtype=np.uint64)
    assert _common._unit_floats(z).tolist() == [0.0, 0.0, 2.0**-53, 1 - 2.0**-53]


def test_stream_keys_differ_across_seeds_and_streams():
    keys = {_common._stream_key(seed, stream) for seed in (0, 1, 2, 2**64 - 1, 2**64, 2**70) for stream in range(1, 5)}
    assert len(keys) == 24


def kronecker_edges_by_hand(seed, scale, edge_factor, a=0.57, b=0.19, c=0.19):
    """The documented rule, one edge and one bit at a time in Python ints."""
    key = _common._stream_key(seed, _common._KRON_BITS)
    t = [min(round(p * 2**32), 2**32 - 1) for p in (a, a + b, a + b + c)]
    npairs = (scale + 1) // 2
    us, vs = [], []
    for e in range(edge_factor << scale):
        u = v = 0
        for bit in range(scale):
            word = splitmix64((key + (e * npairs + bit // 2) * 0x9E3779B97F4A7C15) & MASK64)
            r = (word >> 32) if bit % 2 else (word & 0xFFFFFFFF)
            k = (r >= t[0]) + (r >= t[1]) + (r >= t[2])  # quadrant 0..3 = a, b, c, d
            u |= (k >> 1) << bit
            v |= (k & 1) << bit
        us.append(u)
        vs.append(v)
    return us, vs


@pytest.mark.parametrize("scale, edge_factor, seed", [(1, 3, 0), (4, 2, 7), (7, 1, 123)])
def test_kronecker_edges_follow_the_documented_rule(scale, edge_factor, seed):
    u, v, w = kronecker_range(scale, 0, edge_factor << scale, seed, permute=False)
    want_u, want_v = kronecker_edges_by_hand(seed, scale, edge_factor)
    assert w is None and u.dtype == v.dtype == np.int64
    assert u.tolist() == want_u and v.tolist() == want_v


@pytest.mark.parametrize("chunk", [1, 7, 1000, 4096])
def test_kronecker_does_not_depend_on_the_chunk_size(monkeypatch, chunk):
    # the GPU generates in chunks of 2**25 edges, the CPU in chunks of 2**15: any split agrees
    want = kronecker(9, seed=4, weights=(1, 9))
    monkeypatch.setitem(_kronecker._CHUNK, "cpu", chunk)
    assert kronecker(9, seed=4, weights=(1, 9)).isequal(want, check_dtype=True)


def test_kronecker_quadrant_frequencies():
    a, b, c = 0.45, 0.25, 0.15
    scale, m = 8, 1 << 15
    u, v, _ = kronecker_range(scale, 0, m, 3, a=a, b=b, c=c, permute=False)
    bits = np.arange(scale)
    ub = (u[:, None] >> bits) & 1
    vb = (v[:, None] >> bits) & 1
    counts = np.bincount((2 * ub + vb).ravel(), minlength=4)
    p = np.array([a, b, c, 1 - a - b - c])
    chi2 = (((counts - p * counts.sum()) ** 2) / (p * counts.sum())).sum()
    assert chi2 < 16.3, (counts / counts.sum(), chi2)  # 3 degrees of freedom, p = 0.001


@pytest.mark.parametrize("scale, start, stop, seed", [(3, 5, 40, 0), (6, 100, 357, 9), (9, 4000, 4096, 2)])
def test_kronecker_range_follows_the_documented_rule(scale, start, stop, seed):
    # edge e of a range is edge e of the whole list, whatever the range starts at
    u, v, _ = kronecker_range(scale, start, stop, seed, permute=False)
    want_u, want_v = kronecker_edges_by_hand(seed, scale, -(-stop >> scale))
    assert u.tolist() == want_u[start:stop] and v.tolist() == want_v[start:stop]


@pytest.mark.parametrize("weights", [None, (1, 9), (0.5, 2.0)])
def test_kronecker_ranges_build_the_kronecker_graph(weights):
    # any split of the edge list into ranges, each generated alone, gives kronecker's matrix
    scale, edge_factor, seed = 8, 5, 7
    m = edge_factor << scale
    cuts = np.sort(np.random.default_rng(3).integers(0, m, 6))
    pieces = [kronecker_range(scale, s, e, seed, weights=weights) for s, e in zip(np.r_[0, cuts], np.r_[cuts, m])]
    u, v = np.concatenate([p[0] for p in pieces]), np.concatenate([p[1] for p in pieces])
    assert u.shape == (m,) and min(u.min(), v.min()) >= 0 and max(u.max(), v.max()) < 1 << scale
    keep = u != v
    r, c = np.r_[u[keep], v[keep]], np.r_[v[keep], u[keep]]
    if weights is None:
        assert all(p[2] is None for p in pieces)
        built = Matrix.from_coo(r, c, None, nrows=1 << scale, ncols=1 << scale, dtype="bool", dup_op=sr.binary.lor)
    else:
        w = np.concatenate([p[2] for p in pieces])
        assert w.dtype == (np.int64 if isinstance(weights[0], int) else np.float64)
        assert w.min() >= weights[0] and w.max() <= weights[1]
        built = Matrix.from_coo(r, c, np.r_[w[keep], w[keep]], nrows=1 << scale, ncols=1 << scale,
                                dup_op=sr.binary.min)
    assert built.isequal(kronecker(scale, edge_factor, seed, weights=weights), check_dtype=True)


def test_kronecker_range_permutes_by_kronecker_permutation():
    perm = kronecker_permutation(7, seed=4)
    assert perm.dtype == np.int64 and np.array_equal(np.sort(perm), np.arange(1 << 7))
    raw_u, raw_v, _ = kronecker_range(7, 10, 500, 4, permute=False)
    u, v, _ = kronecker_range(7, 10, 500, 4)
    assert np.array_equal(u, perm[raw_u]) and np.array_equal(v, perm[raw_v])
    assert not np.array_equal(perm, kronecker_permutation(7, seed=5))
    empty = kronecker_range(7, 500, 500, 4, weights=(1, 9))
    assert [x.shape for x in empty] == [(0,)] * 3 and empty[2].dtype == np.int64


@pytest.mark.parametrize("args, kwargs, words", [
    ((0, 0, 1), {}, "kronecker_range: scale must be an integer in \\[1, 31\\]; given 0"),
    ((4, -1, 1), {}, "kronecker_range: start must be an integer in \\[0, 9223372036854775807\\]; given -1"),
    ((4, 5, 4), {}, "kronecker_range: stop must be an integer in \\[5, 9223372036854775807\\]; given 4"),
    ((4, 0, 1.5), {}, "kronecker_range: stop must be an integer"),
    ((4, 0, 1, None), {}, "kronecker_range: seed must be an integer >= 0; given None"),
    ((4, 0, 1, -2), {}, "kronecker_range: seed must be an integer >= 0; given -2"),
    ((4, 0, 1), {"permute": "yes"}, "kronecker_range: permute: expected True or False"),
    ((4, 0, 1), {"a": 0.6, "b": 0.3}, "kronecker_range: expected a > 0, b >= 0, c >= 0 with a \\+ b \\+ c < 1"),
    ((4, 0, 1), {"weights": (5, 1)}, "weights: expected"),
    ((4, 0, 1), {"device": "tpu"}, "tpu"),
])
def test_kronecker_range_refuses_bad_arguments(args, kwargs, words):
    with pytest.raises(InvalidValue, match=words):
        kronecker_range(*args, **kwargs)


@pytest.mark.parametrize("args, words", [((0,), "scale must be an integer in \\[1, 31\\]"),
                                         ((4, True), "seed must be an integer >= 0; given True")])
def test_kronecker_permutation_refuses_bad_arguments(args, words):
    with pytest.raises(InvalidValue, match=words):
        kronecker_permutation(*args)


def test_permutation_is_a_permutation():
    for n in (2, 8, 1 << 12):
        perm = _kronecker._permutation(np, _common._stream_key(5, _common._PERMUTATION), n)
        assert np.array_equal(np.sort(perm), np.arange(n))
    perm = _kronecker._permutation(np, _common._stream_key(5, _common._PERMUTATION), 1 << 12)
    assert (perm == np.arange(1 << 12)).sum() < 10  # not the identity (about one fixed point)


def test_weights_are_counter_based_and_in_range():
    key = _common._stream_key(1, _common._WEIGHTS)
    w, d = _common._weights(np, (-5, 5), 20000, key)
    assert d == "int64" and w.dtype == np.int64 and w.min() == -5 and w.max() == 5
    assert np.all(np.abs(np.bincount(w + 5) / 20000 - 1 / 11) < 0.01)
    # weight k depends on counter k only
    w2, _ = _common._weights(np, (-5, 5), 3, key, counters=np.array([7, 19999, 0]))
    assert w2.tolist() == [w[7], w[19999], w[0]]
    full, _ = _common._weights(np, (-(2**63), 2**63 - 1), 1000, key)
    assert full.min() < -(2**61) and full.max() > 2**61
    f, d = _common._weights(np, (0.5, 2.0), 20000, key)
    assert d == "float64" and f.min() >= 0.5 and f.max() < 2.0 and abs(f.mean() - 1.25) < 0.02
    assert _common._weights(np, None, 5, key) == (None, "bool")


def test_grid_weights_are_counter_based():
    W = grid(4, 5, weights=(1, 1000), seed=3)
    u = np.concatenate([np.arange(20).reshape(4, 5)[:-1].ravel(), np.arange(20).reshape(4, 5)[:, :-1].ravel()])
    v = np.concatenate([np.arange(20).reshape(4, 5)[1:].ravel(), np.arange(20).reshape(4, 5)[:, 1:].ravel()])
    w, _ = _common._weights(np, (1, 1000), u.size, _common._stream_key(3, _common._WEIGHTS))
    assert {(int(a), int(b)): int(x) for a, b, x in zip(u, v, w)} == {
        (i, j): x for (i, j), x in entries(W).items() if i < j}


# ---------------------------------------------------------------------------------------------
# Matrix.from_coo's build, the one path of both devices (CuPy runs the same array code), held
# to a reference that folds each position's values in input order in Python
# ---------------------------------------------------------------------------------------------
DUP_CASES = [
    (None, sr.binary.lor, None), ("int", sr.binary.min, None), ("float", sr.binary.first, None),
    ("int", sr.binary.second, "float32"), (3, sr.binary.plus, None), (3, sr.binary.min, None),
    ("bool", sr.binary.lor, None), ("int", sr.monoid.plus, "int8"), ("int", sr.binary.plus, None),
]
FOLD = {"lor": lambda a, b: a or b, "min": min, "first": lambda a, b: a, "second": lambda a, b: b,
        "plus": lambda a, b: a + b}


def reference_build(r, c, vals, m, op_name, dtype):
    """{(row, col): value} and the dtype of a build, folded position by position."""
    given = np.ones(m, bool) if vals is None else np.broadcast_to(np.asarray(vals), (m,))
    d = np.dtype(dtype) if dtype is not None else given.dtype
    out = {}
    for i, j, x in zip(r.tolist(), c.tolist(), given.astype(d).tolist()):
        out[(i, j)] = FOLD[op_name](out[(i, j)], x) if (i, j) in out else x
    if d == np.int8:
        out = {k: (x + 128) % 256 - 128 for k, x in out.items()}  # integer sums wrap, as in C
    return out, d


@pytest.mark.parametrize("values, op, dtype", DUP_CASES, ids=[f"{v}-{o.name}-{d}" for v, o, d in DUP_CASES])
def test_from_coo_combines_duplicates_as_a_fold_in_input_order(values, op, dtype):
    rng = np.random.default_rng(zlib.crc32(repr((values, op.name, dtype)).encode()))
    for _ in range(40):
        nr, nc = int(rng.integers(1, 15)), int(rng.integers(1, 15))
        m = int(rng.integers(0, 50))
        r, c = rng.integers(0, nr, m), rng.integers(0, nc, m)
        vals = {"int": rng.integers(0, 5, m), "float": rng.random(m), "bool": rng.random(m) < 0.5}.get(values, values)
        A = Matrix.from_coo(r, c, vals, nrows=nr, ncols=nc, dtype=dtype, dup_op=op)
        want, d = reference_build(r, c, vals, m, op.name, dtype)
        rows, cols, got = A.to_coo()
        assert A.dtype == d and A.shape == (nr, nc)
        assert dict(zip(zip(rows.tolist(), cols.tolist()), got.tolist())) == want
        assert list(zip(rows.tolist(), cols.tolist())) == sorted(want)  # row-major order
        if isinstance(vals, np.ndarray) and m:
            assert not np.shares_memory(A._values, vals)


@pytest.mark.parametrize("rows, cols, values, exc, message", [
    ([0, 5], [0, 0], None, sr.IndexOutOfBound, "Matrix.from_coo rows: expected indices in [0, 3); given 5"),
    ([-1, 0], [0, 0], None, sr.IndexOutOfBound, "Matrix.from_coo rows: expected indices in [0, 3); given -1"),
    ([0.5, 1.0], [0, 0], None, InvalidValue, "Matrix.from_coo rows: expected integer indices; given non-integral"),
    ([[0]], [[0]], None, InvalidValue, "Matrix.from_coo rows: expected a 1-d array of indices; given shape (1, 1)"),
    ([0, 1], [0], None, InvalidValue, "Matrix.from_coo: rows and cols must have equal length; given 2 and 1"),
    ([0, 1], [0, 1], [1, 2, 3], sr.DimensionMismatch, "Matrix.from_coo values: expected 2 values (one per index)"),
    ([0, 0], [1, 1], [1, 2], InvalidValue, "duplicate entries at (row 0, col 1)"),  # duplicates without dup_op
    ([0, 0], [1, 1], None, InvalidValue, "duplicate entries at (row 0, col 1)"),
])
def test_from_coo_refuses_bad_entries_naming_them(rows, cols, values, exc, message):
    args = (np.asarray(rows), np.asarray(cols), None if values is None else np.asarray(values))
    with pytest.raises(exc) as info:
        Matrix.from_coo(*args, nrows=3, ncols=3)
    assert type(info.value) is exc and message in str(info.value), str(info.value)


# ---------------------------------------------------------------------------------------------
# the GPU's cell-bucket neighbour search, run here on NumPy arrays, against cKDTree
# ---------------------------------------------------------------------------------------------
def kdtree_pairs(pts, r):
    return set(map(tuple, cKDTree(pts).query_pairs(r, output_type="ndarray").tolist()))


def bucket_pairs(pts, r, budget=1 << 24):
    i, j = gen._pairs_within(pts[:, 0].copy(), pts[:, 1].copy(), r, budget)
    got = set(zip(i.tolist(), j.tolist()))
    assert len(got) == i.size, "a pair found twice"
    assert all(a < b for a, b in got)
    return got


@pytest.mark.parametrize("kind", ["uniform", "lattice", "normal", "line", "clustered"])
def test_cell_search_finds_exactly_the_kdtree_pairs(kind):
    rng = np.random.default_rng(zlib.crc32(kind.encode()))
    for trial in range(40):
        n = int(rng.integers(2, 300))
        r = float(rng.choice([1e-3, 0.01, 0.05, 0.1, 0.3, 0.7, 1.5]))
        if kind == "uniform":
            pts = rng.random((n, 2))
        elif kind == "lattice":  # many pairs at exactly the same distance, some at exactly r
            pts = np.round(rng.random((n, 2)) * 20) / 20
            r = float(rng.choice([0.05, 0.1, 0.05 * math.sqrt(2), 0.15]))
        elif kind == "normal":
            pts = rng.normal(size=(n, 2)) * rng.choice([1e-3, 1.0, 100.0])
        elif kind == "line":
            pts = np.column_stack([rng.random(n), np.full(n, 0.5)])
        else:
            pts = rng.random((n, 2)) * 1e-4 + rng.integers(0, 3, (n, 1)) * 0.4
        budget = int(rng.choice([5, 100, 1 << 24]))  # small budgets: many blocks
        assert bucket_pairs(pts, r, budget) == kdtree_pairs(pts, r), (trial, n, r)


def test_cell_search_at_exact_pair_distances():
    # the radius equal to (or one ulp around) an actual pair distance: ties decided as cKDTree does
    rng = np.random.default_rng(11)
    for _ in range(30):
        pts = rng.random((150, 2))
        i, j = rng.choice(150, 2, replace=False)
        d = math.sqrt((pts[i, 0] - pts[j, 0]) ** 2 + (pts[i, 1] - pts[j, 1]) ** 2)
        for r in (d, np.nextafter(d, 0), np.nextafter(d, 1)):
            assert bucket_pairs(pts, r) == kdtree_pairs(pts, r)


def test_cell_search_on_a_default_rgg():
    n = 1 << 14
    key = _common._stream_key(0, _common._POINTS)
    pts = _common._unit_floats(_common._words(np, key, np.arange(2 * n))).reshape(n, 2)
    r = 0.55 * math.sqrt(math.log(n) / n)
    assert bucket_pairs(pts, r) == kdtree_pairs(pts, r)


@pytest.mark.parametrize("weights", [None, (1, 255), (0.5, 2.0), "distance"])
def test_random_geometric_with_the_cell_search_is_identical(monkeypatch, weights):
    want = random_geometric(3000, seed=6, weights=weights)
    monkeypatch.setattr(gen, "_close_pairs",
                        lambda pts, r: gen._pairs_within(pts[:, 0].copy(), pts[:, 1].copy(), r, 1000))
    got = random_geometric(3000, seed=6, weights=weights)
    assert got.isequal(want, check_dtype=True)


@pytest.mark.parametrize("weights", [None, "int", "float"])
def test_undirected_merge_equals_a_build_of_both_directions(weights):
    # oracle: Matrix.from_coo of every edge in both directions, repeated entries merged by dup_op
    rng = np.random.default_rng(zlib.crc32(str(weights).encode()))
    for n, m in [(2, 5), (10, 80), (50, 400), (300, 200)]:
        u, v = rng.integers(0, n, m), rng.integers(0, n, m)
        w = {"int": rng.integers(-5, 50, m), "float": rng.random(m), None: None}[weights]
        keep = u != v
        r, c = np.concatenate([u[keep], v[keep]]), np.concatenate([v[keep], u[keep]])
        vals = None if w is None else np.concatenate([w[keep], w[keep]])
        want = Matrix.from_coo(r, c, vals, nrows=n, ncols=n, dup_op=sr.binary.lor if w is None else sr.binary.min)
        dtype = "bool" if w is None else w.dtype.name
        got = _common._undirected([u, v], w, n, dtype, "cpu")
        assert got.isequal(want, check_dtype=True)


def test_kronecker_module_examples_run():
    import doctest

    result = doctest.testmod(_kronecker, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 5 and result.failed == 0
