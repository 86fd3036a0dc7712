"""``semiring.generators``: the device-generic array code (NumPy here, CuPy on a GPU).

Its counter-based random numbers are checked against a scalar Python SplitMix64 written here
from the published constants, its Kronecker edges against a scalar Python transcription of the
documented rule, the GPU-sized chunking against the CPU one, the device build of
``Matrix.from_coo`` against a reference that folds each position's values in input order, and
the GPU's cell-bucket neighbour search against scipy's cKDTree."""

from __future__ import annotations

import math
import zlib

import numpy as np
import pytest
from scipy.spatial import cKDTree

import semiring as sr
from semiring import InvalidValue
from semiring.core.matrix import Matrix
from semiring.generators import _common
from semiring.generators import _generators as gen
from semiring.generators import _kronecker
from semiring.generators import grid, kronecker, kronecker_permutation, kronecker_range, random_geometric
from _generators import entries


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
