"""Minimum spanning forest against scipy.sparse.csgraph and a reference Kruskal.

Oracles: ``scipy.sparse.csgraph.minimum_spanning_tree`` for the total weight and
``scipy.sparse.csgraph.connected_components`` for the edge count (n - components) and the
spanning property; a Kruskal written here (scipy's DisjointSet, edges in the documented order
(weight, min(i, j), max(i, j))) for the exact forest, ties included. Graphs: hypothesis, generated
graphs, LAGraph's msf test matrices and the DIMACS New York road network (../shared/data).
"""

from __future__ import annotations

import doctest
from unittest import mock

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.cluster.hierarchy import DisjointSet

import semiring as sr
from semiring.algorithms import mst as mst_module
from semiring.backends._xp import asnumpy

msf = sr.algorithms.minimum_spanning_forest
METHODS = ["boruvka", "prim"]


def symmetric(n, r, c, w, dtype="float64"):
    """A symmetric Matrix with edges {r[t], c[t]} weighing w[t] (repeats keep the first)."""
    r, c, w = (np.asarray(a) for a in (r, c, w))
    lo, hi = np.minimum(r, c), np.maximum(r, c)
    _, first = np.unique(lo * max(n, 1) + hi, return_index=True)  # one weight per unordered pair
    r, c, w = lo[first], hi[first], w[first]
    return sr.Matrix.from_coo(np.concatenate([r, c]), np.concatenate([c, r]), np.concatenate([w, w]),
                              nrows=n, ncols=n, dtype=dtype, dup_op=sr.binary.first)


def kruskal(A):
    """The forest Kruskal takes over A's edges in the order (weight, min(i, j), max(i, j)): sorted (i, j)
    pairs, i < j."""
    S = sp.triu(A.to_scipy(), k=1).tocoo()
    order = np.lexsort((S.col, S.row, S.data))
    ds = DisjointSet(range(A.nrows))
    taken = []
    for t in order.tolist():
        i, j = int(S.row[t]), int(S.col[t])
        if ds.merge(i, j):
            taken.append((i, j))
    return sorted(taken)


def scipy_total(A):
    """scipy's minimum spanning forest weight. scipy drops explicit zeros, so weights are shifted
    to be positive first (every forest of the graph has n - components edges, so the shift adds
    the same amount to each)."""
    S = sp.triu(A.to_scipy().astype(np.float64), k=1).tocsr()
    if not S.nnz:
        return 0.0
    shift = 1.0 - min(S.data.min(), 0.0) + 1.0
    S.data = S.data + shift
    k = A.nrows - csgraph.connected_components(S, directed=False)[0]
    return float(csgraph.minimum_spanning_tree(S).sum()) - shift * k


def check(A, F, method=None):
    """F is a spanning forest of A with scipy's total weight; returns its edges (i < j)."""
    n = A.nrows
    assert F.shape == A.shape and F.dtype == A.dtype and F.device == A.device
    Fs = F.to_scipy()
    assert (Fs != Fs.T).nnz == 0, "symmetric"
    r, c, w = (asnumpy(x) for x in F.to_coo())
    assert np.all(r != c)
    # each forest edge is an edge of A with A's weight
    got_w = np.array([A.get(int(i), int(j)) for i, j in zip(r, c)])
    np.testing.assert_array_equal(got_w, w)
    k, labels = csgraph.connected_components(pattern(A), directed=False)
    assert F.nvals == 2 * (n - k)
    # spanning: the forest has A's components, so it is acyclic with n - k edges
    kf, lf = csgraph.connected_components(pattern(F), directed=False)
    assert kf == k
    np.testing.assert_array_equal(_min_labels(lf), _min_labels(labels))
    assert np.isclose(w.astype(np.float64).sum() / 2, scipy_total(A), rtol=1e-12, atol=1e-9)
    upper = r < c
    return sorted(zip(r[upper].tolist(), c[upper].tolist()))


def pattern(A):
    """A's pattern as float64 ones (scipy's graph routines drop explicit zeros; here they are edges)."""
    S = A.to_scipy().astype(np.float64)
    S.data[:] = 1.0
    return S


def _min_labels(labels):
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    return first[inverse]


# ---------------------------------------------------------------------------------------------
# small cases written out
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("method", METHODS)
def test_hand_example_with_ties(method):
    # a square 0-1-2-3-0 of weight-1 edges plus a diagonal 0-2 of weight 1: ties everywhere;
    # the order (weight, min, max) takes (0, 1), (0, 2), (0, 3)
    A = symmetric(4, [0, 1, 2, 3, 0], [1, 2, 3, 0, 2], [1.0] * 5)
    F = msf(A, method=method)
    assert check(A, F) == [(0, 1), (0, 2), (0, 3)] == kruskal(A)
    # the Wikipedia Kruskal example (networkx's test graph): weights 5, 5, 6, 7, 7, 9
    e = [(0, 1, 7), (0, 3, 5), (1, 2, 8), (1, 3, 9), (1, 4, 7), (2, 4, 5), (3, 4, 15), (3, 5, 6), (4, 5, 8),
         (4, 6, 9), (5, 6, 11)]
    B = symmetric(7, *zip(*e), dtype="int64")
    F = msf(B, method=method)
    assert check(B, F) == [(0, 1), (0, 3), (1, 4), (2, 4), (3, 5), (4, 6)]
    assert int(asnumpy(F.to_coo()[2]).sum()) == 2 * 39


@pytest.mark.parametrize("method", METHODS)
def test_empty_edgeless_isolated_and_self_loops(method):
    for n in (0, 1, 5):
        F = msf(sr.Matrix(n, n, "float64"), method=method)
        assert F.shape == (n, n) and F.nvals == 0 and F.dtype == np.float64
    # self-loops never enter the forest; vertex 4 is isolated with a self-loop
    A = sr.Matrix.from_coo([0, 1, 1, 2, 4, 0], [1, 0, 2, 1, 4, 0], [3.0, 3.0, 1.0, 1.0, -5.0, -9.0],
                           nrows=6, ncols=6)
    F = msf(A, method=method)
    assert check(A, F) == [(0, 1), (1, 2)]


@pytest.mark.parametrize("method", METHODS)
def test_zero_negative_infinite_weights_and_dtypes(method):
    # explicit zeros are edges, negatives are fine, inf is the heaviest
    A = symmetric(5, [0, 1, 2, 3, 0, 1], [1, 2, 3, 4, 4, 3], [0.0, -2.0, np.inf, 0.0, 1.0, 5.0])
    F = msf(A, method=method)
    assert check(A, F) == [(0, 1), (0, 4), (1, 2), (3, 4)]
    for dtype in ("int8", "int32", "uint16", "float32"):
        B = symmetric(5, [0, 1, 2, 3, 0], [1, 2, 3, 4, 4], [3, 1, 2, 2, 1], dtype=dtype)
        F = msf(B, method=method)
        assert F.dtype == np.dtype(dtype)
        assert check(B, F) == kruskal(B) == [(0, 4), (1, 2), (2, 3), (3, 4)]
    # bool: every edge weighs True; ties by edge index
    C = symmetric(4, [0, 1, 0, 2], [1, 2, 2, 3], [True] * 4, dtype="bool")
    F = msf(C, method=method)
    assert F.dtype == np.bool_ and check(C, F) == [(0, 1), (0, 2), (2, 3)]


def test_both_methods_and_graph_argument_agree():
    A = sr.generators.random_geometric(300, radius=0.09, seed=4)
    r, c, _ = A.to_coo()
    w = np.random.default_rng(1).integers(1, 6, r.size)  # many ties
    W = sr.Matrix.from_coo(r, c, np.where(r < c, w, 0), nrows=A.nrows, ncols=A.ncols)
    W = sr.ewise_add(W, sr.transpose(W), sr.binary.plus)  # symmetric
    G = sr.algorithms.Graph(W)
    F = msf(G)
    assert F.isequal(msf(W)) and F.isequal(msf(G, method="prim"))
    assert check(W, F) == kruskal(W)


def test_bad_inputs_raise():
    with pytest.raises(sr.DimensionMismatch, match="square"):
        msf(sr.Matrix(3, 4, "float64"))
    with pytest.raises(sr.InvalidValue, match="expected a Matrix or Graph"):
        msf(np.eye(3))
    with pytest.raises(sr.InvalidValue, match="method must be one of"):
        msf(sr.Matrix(3, 3, "float64"), method="kruskal")
    directed = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 2.0], nrows=3, ncols=3)
    with pytest.raises(sr.InvalidValue, match="must be symmetric"):
        msf(directed)
    asym = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 2.0], nrows=2, ncols=2)  # same pattern, other values
    with pytest.raises(sr.InvalidValue, match="must be symmetric"):
        msf(asym, method="prim")
    with pytest.raises(sr.InvalidValue, match="must be symmetric"):
        msf(sr.algorithms.Graph(symmetric(3, [0], [1], [1.0]), kind="directed"))
    nan = symmetric(3, [0, 1], [1, 2], [1.0, np.nan])
    with pytest.raises(sr.InvalidValue, match="1 NaN entries|2 NaN entries"):
        msf(nan)
    with pytest.raises(sr.InvalidValue, match="NaN"):
        msf(nan, method="prim")


def test_docstring_examples():
    result = doctest.testmod(mst_module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 2 and result.failed == 0


def test_boruvka_rounds_shrink_logarithmically():
    A = sr.generators.grid(40, 50)
    r, c, _ = A.to_coo()
    w = np.random.default_rng(3).random(r.size)
    W = sr.ewise_add(*(lambda M: (M, sr.transpose(M)))(sr.Matrix.from_coo(r, c, np.where(r < c, w, 0.0),
                                                                          nrows=A.nrows, ncols=A.ncols)),
                     sr.binary.plus)
    G = sr.algorithms.Graph(W)
    traces = []
    for keys in (mst_module.PackedKeys.of(G), mst_module.RankedKeys(G, "test")):
        trace = []
        mst_module.boruvka_rounds(keys, trace)
        traces.append(trace)
        # every round at least halves the components with an outgoing edge: <= log2(2000) + 1 rounds
        assert 2 <= len(trace) <= 12 and all(b < a for a, b in zip(trace, trace[1:]))
        assert trace[0] == W.nvals  # round 1: every edge, both ways
    assert traces[0] == traces[1]  # the same keys' order: the same rounds
    assert check(W, msf(G)) == kruskal(W)


# ---------------------------------------------------------------------------------------------
# random and generated graphs
# ---------------------------------------------------------------------------------------------

@st.composite
def weighted_graphs(draw):
    n = draw(st.integers(1, 30))
    m = draw(st.integers(0, 3 * n))
    r = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    c = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    if draw(st.booleans()):
        w = draw(st.lists(st.integers(-3, 3), min_size=m, max_size=m))  # ties, zeros, negatives
        return symmetric(n, r, c, w, dtype="int64")
    w = draw(st.lists(st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False), min_size=m, max_size=m))
    return symmetric(n, r, c, w)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(A=weighted_graphs())
def test_random_graphs_match_scipy_and_kruskal(A):
    for method in METHODS:
        F = msf(A, method=method)
        assert check(A, F) == kruskal(A)


GENERATED = {
    "kronecker9": lambda: sr.generators.kronecker(9, seed=2),
    "grid_30x40": lambda: sr.generators.grid(30, 40),
    "rgg_1500_sparse": lambda: sr.generators.random_geometric(1500, radius=0.02, seed=5),  # a forest
}


def _weighted(A, seed, high=None):
    """A's pattern with random symmetric weights (integers in [1, high] when given: ties)."""
    r, c, _ = A.to_coo()
    keep = r < c
    rng = np.random.default_rng(seed)
    w = rng.integers(1, high + 1, keep.sum()) if high else rng.random(keep.sum())
    return symmetric(A.nrows, r[keep], c[keep], w, dtype="int64" if high else "float64")


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_generated_graphs(name):
    A = GENERATED[name]()
    for W in (_weighted(A, 1), _weighted(A, 2, high=3)):
        F = msf(W)
        assert check(W, F) == kruskal(W)


# ---------------------------------------------------------------------------------------------
# Borůvka's keys: every dtype and weight range, several components, self-loops, bad input
# ---------------------------------------------------------------------------------------------

WEIGHTS = {
    "bool": st.booleans(),
    "int8": st.one_of(st.integers(-2, 2), st.integers(-128, 127)),
    "uint16": st.one_of(st.integers(0, 3), st.integers(0, 2**16 - 1)),
    # |w| <= 2**52: exact in float64 after scipy_total's shift; the widest ranges need 2**53 * n^2
    # keys, past 2**63 for n > 32, so both key forms are drawn
    "int64": st.one_of(st.integers(-3, 3), st.integers(-2**52, 2**52)),
    "uint64": st.one_of(st.integers(0, 3), st.integers(2**64 - 4, 2**64 - 1)),
    "float32": st.one_of(st.sampled_from([-1.5, 0.0, 0.5, 2.0]),
                         st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False, width=32)),
    "float64": st.one_of(st.sampled_from([-1.5, -0.0, 0.0, 0.5, 2.0, np.inf]),
                         st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False)),
}


@st.composite
def forest_inputs(draw):
    """A symmetric weighted graph of 1..4 blocks of vertices with no edge between blocks (at least
    as many components), the vertices shuffled so the blocks interleave, self-loops of any
    weight, and weights from a small set (ties) or a wide range."""
    dtype = draw(st.sampled_from(sorted(WEIGHTS)))
    blocks = draw(st.lists(st.integers(1, 14), min_size=1, max_size=4))
    n = sum(blocks)
    perm = np.array(draw(st.permutations(range(n))), dtype=np.int64)
    r, c = [], []
    start = 0
    for b in blocks:
        m = draw(st.integers(0, 3 * b))
        ends = st.lists(st.integers(start, start + b - 1), min_size=m, max_size=m)
        r += draw(ends)
        c += draw(ends)
        start += b
    loops = draw(st.lists(st.integers(0, n - 1), max_size=4))
    r, c = perm[np.array(r + loops, dtype=np.int64)], perm[np.array(c + loops, dtype=np.int64)]
    w = draw(st.lists(WEIGHTS[dtype], min_size=r.size, max_size=r.size))
    return symmetric(n, r, c, np.array(w, dtype=dtype), dtype=dtype)


def expect_packed(A):
    """Whether Borůvka's keys should be packed for A: D * n^2 <= 2**63 for the D possible
    weights of its entries, self-loops included (integers: the range; floats: the distinct
    values, and none may be -0.0)."""
    w = A.to_scipy().data
    if not w.size:
        return True
    if w.dtype.kind == "f":
        if bool((np.signbit(w) & (w == 0)).any()):
            return False
        d = np.unique(w).size
    else:
        d = int(w.max()) - int(w.min()) + 1
    return d * A.nrows**2 <= 2**63


def check_signs(A, F):
    """F's float entries carry the sign of A's (a -0.0 weight stays -0.0)."""
    r, c, w = (asnumpy(x) for x in F.to_coo())
    if w.dtype.kind == "f":
        got = np.array([A.get(int(i), int(j)) for i, j in zip(r, c)], dtype=w.dtype)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(w))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(A=forest_inputs())
def test_forest_of_components_loops_and_ties_matches_kruskal(A):
    """The forest is Kruskal's under the order (weight, min(i, j), max(i, j)) (the unique forest
    under distinct keys) with scipy's total weight, whichever key form Borůvka takes; Prim finds
    the same."""
    want = kruskal(A)
    G = sr.algorithms.Graph(A)
    assert (mst_module.PackedKeys.of(G) is not None) == expect_packed(A)
    F = msf(A)
    assert check(A, F) == want
    check_signs(A, F)
    with mock.patch.object(mst_module, "_KEYS", 0):  # no packing fits: the ranked keys
        keys = mst_module.PackedKeys.of(sr.algorithms.Graph(A))
        assert keys is None or keys.K.nvals == 0  # (no edge: nothing to pack)
        R = msf(A)
    assert R.isequal(F) and check(A, R) == want
    assert msf(A, method="prim").isequal(F)


@pytest.mark.parametrize("dtype", ["int64", "uint64"])
@pytest.mark.parametrize("extra", [0, 1])
def test_packed_keys_at_the_int64_limit(dtype, extra):
    """n = 32 vertices and 2**53 + extra possible weights: with extra = 0 the keys just fit
    (2**53 * 32**2 = 2**63), the largest, (2**53 - 1) * 32**2 + 30 * 32 + 31 = 2**63 - 33, is the
    bridge {30, 31} of the heaviest weight and must decode to its ends and weight; with extra = 1
    the keys fall back to ranks. Both give Kruskal's forest."""
    n, base = 32, (2**64 - 2**53 - 1 if dtype == "uint64" else -2**52)
    # a path 0-1-...-31 plus chords among 0..29, weights from base to base + 2**53 - 1 + extra
    r = list(range(n - 1)) + [0, 3, 7, 11]
    c = list(range(1, n)) + [29, 20, 25, 17]
    w = [base + 5 * t for t in range(n - 2)] + [base + 2**53 - 1 + extra] + [base, base + 1, base + 2**52, base + 3]
    A = symmetric(n, r, c, np.array(w, dtype=dtype), dtype=dtype)
    G = sr.algorithms.Graph(A)
    keys = mst_module.PackedKeys.of(G)
    assert (keys is not None) == (extra == 0)
    if keys is not None:
        assert int(asnumpy(keys.K.to_coo()[2]).max()) == 2**63 - 33 == int(keys.K.get(31, 30))
    F = msf(A)
    assert check(A, F) == kruskal(A)
    assert F.get(30, 31) == A.get(30, 31) == np.array(base + 2**53 - 1 + extra, dtype=dtype)


def test_negative_zero_weights_keep_their_sign():
    A = symmetric(4, [0, 1, 2, 0], [1, 2, 3, 3], [-0.0, 0.0, -0.0, 1.0])
    assert mst_module.PackedKeys.of(sr.algorithms.Graph(A)) is None  # the ranked keys keep A's values
    for method in METHODS:
        F = msf(A, method=method)
        assert check(A, F) == [(0, 1), (1, 2), (2, 3)]  # -0.0 and 0.0 tie: edge order decides
        check_signs(A, F)
        # row-major: (0, 1) (1, 0) (1, 2) (2, 1) (2, 3) (3, 2)
        np.testing.assert_array_equal(np.signbit(asnumpy(F.to_coo()[2])), [True, True, False, False, True, True])


@st.composite
def asymmetric_inputs(draw):
    """A symmetric graph with one off-diagonal arc dropped or reweighted: not undirected."""
    A = draw(forest_inputs())
    r, c, w = (asnumpy(x) for x in A.to_coo())
    off = np.flatnonzero(r != c)
    if not off.size or A.dtype == np.bool_ and draw(st.booleans()):
        # no arc to change (or bool): add one arc i -> j without its mirror
        n = A.nrows + 2
        return sr.Matrix.from_coo(np.append(r, n - 2), np.append(c, n - 1), np.append(w, w[:1] if w.size else 1),
                                  nrows=n, ncols=n, dtype=A.dtype)
    t = off[draw(st.integers(0, off.size - 1))]
    if draw(st.booleans()):
        keep = np.arange(r.size) != t  # drop arc t
        return sr.Matrix.from_coo(r[keep], c[keep], w[keep], nrows=A.nrows, ncols=A.ncols, dtype=A.dtype)
    w = w.copy()
    w[t] = (w[t] == 0)  # another value (0 <-> nonzero; NaN, inf and the extremes become 0)
    return sr.Matrix.from_coo(r, c, w, nrows=A.nrows, ncols=A.ncols, dtype=A.dtype)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(A=asymmetric_inputs())
def test_asymmetric_input_raises_and_changes_nothing(A):
    before = A.dup()
    for method in METHODS:
        with pytest.raises(sr.InvalidValue, match="must be symmetric"):
            msf(A, method=method)
        with pytest.raises(sr.InvalidValue, match="must be symmetric"):
            msf(sr.algorithms.Graph(A), method=method)
        with pytest.raises(sr.InvalidValue, match="must be symmetric"):
            mst_module.forest_edges(sr.algorithms.Graph(A), method)
    assert A.isequal(before)
    # the same matrix declared directed is refused too, and its symmetric part is accepted
    with pytest.raises(sr.InvalidValue, match="must be symmetric"):
        msf(sr.algorithms.Graph(before, kind="directed"))


# ---------------------------------------------------------------------------------------------
# published data (../shared/data)
# ---------------------------------------------------------------------------------------------

@pytest.mark.data
@pytest.mark.parametrize("name", ["msf1", "msf2", "msf3"])
def test_lagraph_msf_matrices(shared_data, name):
    """LAGraph's msf test matrices (stored one way, "general"): the undirected graph A + A'
    (min on the one pair stored both ways), as LAGraph's msf takes them."""
    A = sr.io.read(shared_data / f"small/lagraph/{name}.mtx")
    S = sr.ewise_add(A, sr.transpose(A), sr.binary.min)
    for method in METHODS:
        F = msf(S, method=method)
        assert check(S, F) == kruskal(S)
        assert F.nvals == 2 * (S.nrows - 1)  # each is connected


@pytest.mark.data
@pytest.mark.parametrize("name", ["LFAT5", "zenios", "jagmesh7"])
def test_lagraph_matrices(shared_data, name):
    A = sr.io.read(shared_data / f"small/lagraph/{name}.mtx")
    if A.dtype == np.bool_:
        A = _weighted(A, 7, high=4)
    F = msf(A)
    assert check(A, F) == kruskal(A)


@pytest.mark.data
def test_new_york_roads(shared_data):
    """The DIMACS NY road network (264,346 vertices, connected): a spanning tree of 264,345 edges
    with scipy's total weight."""
    A = sr.io.read(shared_data / "roads/USA-road-d.NY.gr.gz")
    # the undirected road graph: arcs both ways, parallel arcs at their lightest
    A = sr.ewise_add(A, sr.transpose(A), sr.binary.min)
    F = msf(A)
    assert F.nvals == 2 * 264_345
    S = A.to_scipy()
    assert int(asnumpy(F.to_coo()[2]).sum()) == 2 * int(csgraph.minimum_spanning_tree(S).sum())


# ---------------------------------------------------------------------------------------------
# CPU / GPU parity (one body)
# ---------------------------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", sorted(GENERATED))
def test_msf_on_gpu_matches_cpu(name, method):
    from _devices import same

    A = GENERATED[name]()
    if method == "prim":
        A = sr.extract(A, np.arange(200), np.arange(200))
    W = _weighted(A, 2, high=3)
    cpu = msf(W, method=method)
    dev = msf(W.to("gpu"), method=method)
    same(cpu, dev)
    assert check(W, cpu) == kruskal(W)
