"""Entry lists beside GPU bitmaps: operations whose inputs are listed and few walk the lists
instead of whole bitmaps (O(entries), decided on the device). Checked against the CPU over
chains of in-place operations (so that lists are kept, patched and rebuilt from one operation
to the next) with lists forced on small vectors, and for the list invariant after every step:
a valid list holds exactly the present positions, each once.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.backends._xp import asnumpy

from _gpuvectors import bfs_levels_scipy, random_vector

gpu = pytest.mark.gpu


@pytest.fixture
def lists_everywhere(monkeypatch):
    """Every in-place output keeps a list, and an operation walks lists whenever they are valid."""
    from semiring.backends.gpu import _resident_write

    monkeypatch.setattr(_resident_write, "LIST_MIN", 1)
    monkeypatch.setattr(_resident_write, "LIST_DIV", 1)


def _list_state(v):
    """(valid, listed positions) of a GPU vector's entry list; (False, None) without one."""
    rl = getattr(v, "_rl", None)
    if rl is None or v._cnt is None:
        return False, None
    cnt = asnumpy(v._cnt)
    if not cnt[1]:
        return False, None
    return True, np.sort(asnumpy(rl[0][int(cnt[2]), : int(cnt[0])]))


def _check_list(v):
    valid, listed = _list_state(v)
    if valid:
        present = np.flatnonzero(asnumpy(v._resident()[0]))
        np.testing.assert_array_equal(listed, present)  # exact: each entry once, nothing else
        assert int(asnumpy(v._cnt)[0]) == present.shape[0]
    return valid


def _check_scratch_at_rest():
    """Every product's scratch T is back at rest: no entry, an empty unlisted header."""
    from semiring.backends.gpu import _resident_write

    for key, item in list(_resident_write._scratch.items()):
        if len(item) == 8:  # (presence, values, header, list, and their addresses)
            tp, _, th = item[:3]
            assert not bool(tp.any()) and not asnumpy(th).any(), key


def _same(cpu, dev):
    a, av = cpu.to_coo()
    b, bv = (asnumpy(t) for t in dev.to_coo())
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(av, bv)


def _state(device, seed, n):
    rng = np.random.default_rng(seed)
    keys = rng.choice(n * n, size=3 * n, replace=False)
    A = sr.Matrix.from_coo(keys // n, keys % n, rng.integers(1, 9, 3 * n), nrows=n, ncols=n, dtype="int64",
                           device=device)
    vecs = {name: random_vector(rng, n, d, "int64", device) for name, d in (("x", 0.1), ("y", 0.05), ("z", 0.3))}
    vecs["q"] = random_vector(rng, n, 0.03, "bool", device)
    return A, vecs


MASKS = [None, "S", "V", "~S", "~V"]
ACCUMS = [None, "plus", "min", "second"]
KINDS = ["vxm", "mxv", "ewise_add", "ewise_mult", "apply", "select", "assign", "assign scalar", "extract"]


def _step(A, v, kind, out, src, other, mk, mask_of, accum, replace, direction, in_place):
    m = v[mask_of]
    mask = None if mk is None else {"S": m.S, "V": m.V, "~S": ~m.S, "~V": ~m.V}[mk]
    w = dict(mask=mask, accum=None if accum is None else getattr(sr.binary, accum),
             replace=bool(replace and mask is not None))
    o, x, y = v[out], v[src], v[other]
    if kind == "vxm" and not in_place:  # a new result (written whole), then assigned into o
        t = sr.vxm(x, A, sr.semirings.min_plus, direction=direction, mask=w["mask"])
        sr.assign(o, t, None, **w)
    elif kind == "vxm":
        sr.vxm(x, A, sr.semirings.min_plus, out=o, direction=direction, **w)
    elif kind == "mxv":
        sr.mxv(A, x, sr.semirings.any_pair if o.dtype.kind == "b" else sr.semirings.plus_times, out=o,
               direction=direction, **w)
    elif kind == "ewise_add":
        sr.ewise_add(x, y, sr.binary.max, out=o, **w)
    elif kind == "ewise_mult":
        sr.ewise_mult(x, y, sr.binary.plus, out=o, **w)
    elif kind == "apply":
        sr.apply(x, sr.binary.plus, right=1, out=o, **w)
    elif kind == "select":
        sr.select(x, sr.indexunary.valuegt, 2, out=o, **w)
    elif kind == "assign":
        sr.assign(o, x, None, **w)
    elif kind == "assign scalar":
        sr.assign(o, 7, None, **w)
    else:
        sr.extract(x, None, out=o, **w)


@gpu
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_chains_of_in_place_operations_match_the_cpu_with_lists(lists_everywhere, data):
    seed = data.draw(st.integers(0, 2**31 - 1))
    n = data.draw(st.sampled_from([37, 200, 1000]))
    names = ["x", "y", "z", "q"]
    steps = data.draw(st.lists(st.tuples(
        st.sampled_from(KINDS), st.sampled_from(names[:3]), st.sampled_from(names[:3]), st.sampled_from(names[:3]),
        st.sampled_from(MASKS), st.sampled_from(names), st.sampled_from(ACCUMS), st.booleans(),
        st.sampled_from(["auto", "push"]), st.booleans()), min_size=2, max_size=6))
    cpu, dev = _state("cpu", seed, n), _state("gpu", seed, n)
    for step in steps:
        for A, v in (cpu, dev):
            _step(A, v, *step)
        for name in names:
            _same(cpu[1][name], dev[1][name])
            _check_list(dev[1][name])
        _check_scratch_at_rest()


@gpu
def test_a_short_frontier_is_pushed_and_written_by_lists(lists_everywhere):
    """After a push from a listed frontier, the product's result is listed and exact, and the
    next product pushes from that list."""
    n = 5000
    src = np.arange(n - 1)
    A = sr.Matrix.from_coo(src, src + 1, True, nrows=n, ncols=n, device="gpu")  # a path
    level = sr.Vector.from_coo([0], [0], size=n, dtype="int64", device="gpu")
    q = sr.Vector.from_coo([0], [True], size=n, device="gpu")
    for depth in range(1, 40):
        sr.vxm(q, A, sr.semirings.any_pair, mask=~level.S, replace=True, out=q)  # q<!level.S, replace> = q any.pair A
        sr.assign(level, depth, None, mask=q.S)                                  # level<q.S> = depth
        assert _check_list(q) and _list_state(q)[1].tolist() == [depth]
        assert _check_list(level)
    assert asnumpy(level.to_dense(-1))[:41].tolist() == list(range(40)) + [-1]


def _road_like(n, seed):
    """A long grid (many levels, short frontiers) with a dense random block (wide levels
    that the pull takes and bitmaps carry), then the grid again."""
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    w = 8
    idx = np.arange(n)
    right = idx[(idx % w) != w - 1]
    down = idx[idx + w < n]
    rows = np.concatenate([right, right + 1, down, down + w])
    cols = np.concatenate([right + 1, right, down + w, down])
    lo, hi = n // 3, n // 3 + 4000
    k = 200_000
    br, bc = rng.integers(lo, hi, k), rng.integers(lo, hi, k)
    S = sp.coo_matrix((np.ones(rows.size + k, bool), (np.concatenate([rows, br]), np.concatenate([cols, bc]))),
                      shape=(n, n)).tocsr()
    S.sum_duplicates()
    return S


@gpu
@pytest.mark.parametrize("loop", ["eager", "device"])
def test_bfs_in_the_algebra_with_default_lists_matches_scipy(loop):
    """Default thresholds: the grid's levels run on lists, the dense block's on bitmaps."""
    n = 120_000
    S = _road_like(n, 4)
    A = sr.Matrix.from_scipy(S, device="gpu")
    level = sr.Vector.from_coo([0], [0], size=n, dtype="int64", device="gpu")
    q = sr.Vector.from_coo([0], [True], size=n, device="gpu")

    def step(depth):
        sr.vxm(q, A, sr.semirings.any_pair, mask=~level.S, replace=True, out=q)  # q<!level.S, replace> = q any.pair A
        sr.assign(level, depth, None, mask=q.S)                                  # level<q.S> = depth

    if loop == "device":
        sr.while_nonempty(q, step)
    else:
        depth = 0
        while q.nvals:
            depth += 1
            step(depth)
            _check_list(q)
    np.testing.assert_array_equal(asnumpy(level.to_dense(-1)), bfs_levels_scipy(S, 0))


@gpu
def test_lists_come_back_after_results_too_long_to_walk(lists_everywhere, monkeypatch):
    """An operation on more entries than size / LIST_DIV walks the bitmap; a later short
    result is listed again, and the next operation walks that list."""
    from semiring.backends.gpu import _resident_write

    monkeypatch.setattr(_resident_write, "LIST_DIV", 8)
    n = 4096
    x = sr.Vector.from_coo(np.arange(0, n, 2), 1, size=n, dtype="int64", device="gpu")
    y = sr.Vector.from_coo([5], [1], size=n, dtype="int64", device="gpu")
    sr.apply(x, sr.binary.plus, right=1, out=y)  # y = x + 1: n/2 entries, from x's bitmap
    _check_list(y)  # (listed or not: exact if listed)
    assert y.nvals == n // 2
    sr.select(x, sr.indexunary.rowle, 10, out=y, replace=True, mask=x.S)  # y<x.S, replace> = x(i <= 10)
    assert _check_list(y) and y.nvals == 6
    sr.apply(y, sr.binary.plus, right=1, out=x, mask=y.S, replace=True)  # from y's list
    assert _check_list(x)
    np.testing.assert_array_equal(asnumpy(x.to_coo()[0]), np.arange(0, 11, 2))
