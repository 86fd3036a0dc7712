"""Hostile input to the core: matrices of huge shape. A ``2**40 x 2**40`` matrix is hypersparse
(row pointers for its nonempty rows only) and every operation on it gives the entries a dict of
entries predicts; operations that need memory in proportion to the shape raise OutOfMemory
before allocating (``semiring._memory.available_bytes`` is patched to make that testable).
Every operation's semantics with hypersparse storage and with compressed coordinates, against
the reference, on the CPU and on the GPU."""

from __future__ import annotations

import contextlib
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
import semiring._memory as memory
import test_reference_properties as trp
from semiring import IndexOutOfBound, InvalidValue, OutOfMemory
from semiring.core import _hyper, _rowptr
from _core_hostile import _mat, raises

N = 2**40


# =============================================================================================
# huge shapes
# =============================================================================================
@contextlib.contextmanager
def little_memory(nbytes=2**30):
    """``semiring._memory`` sees ``nbytes`` free: requests past 90% of it raise OutOfMemory."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(memory, "available_bytes", lambda device="cpu": nbytes)
        yield


def _dict(A):
    r, c, v = A.to_coo()
    return {(int(i), int(j)): v_.item() for i, j, v_ in zip(r, c, v)}


def _vdict(u):
    i, v = u.to_coo()
    return {int(k): x.item() for k, x in zip(i, v)}


def _huge(entries, nrows=N, ncols=N, dtype="float64"):
    rows, cols = zip(*entries) if entries else ((), ())
    return sr.Matrix.from_coo(list(rows), list(cols), list(entries.values()), nrows=nrows, ncols=ncols,
                              dtype=dtype if entries else dtype)


EA = {(5, 7): 1.0, (5, N - 1): 3.0, (2**39, 3): 2.0, (N - 1, 0): 4.0}
EB = {(5, 7): 10.0, (9, 3): 20.0, (N - 1, 0): -4.0, (N - 1, N - 1): 1.0}


@pytest.mark.numpy_backend  # the NumPy hypersparse storage and its repr
def test_empty_huge_matrix_costs_nothing():
    with little_memory(2**26):  # 64 MiB free: the dense row pointers would need 8 TiB
        A = sr.Matrix(N, N)
        assert (A.shape, A.nvals, A.format, A.size) == ((N, N), 0, "hypersparse", N * N)
        assert repr(A) == f"<Matrix {N}x{N} nvals=0 dtype=float64 cpu>"
        B = sr.Matrix(2**31, 2**31)
        assert B.format == "hypersparse" and sum(a.nbytes for a in B._rowptr) < 64
        assert [a.size for a in A.to_coo()] == [0, 0, 0]
        assert A.T.shape == (N, N) and A.T.nvals == 0
        assert A.isequal(sr.Matrix(N, N)) and not A.isequal(sr.Matrix(N, N - 1))


@pytest.mark.numpy_backend  # the NumPy hypersparse storage and its repr
def test_huge_matrix_construction_and_access():
    with little_memory(2**26):
        A = _huge(EA)
        assert A.nvals == 4 and A.format == "hypersparse"
        assert _dict(A) == EA
        r, c, _ = A.to_coo()
        assert r.tolist() == sorted(r.tolist())  # row-major order
        assert A.get(5, N - 1) == 3.0 and A.get(5, 6) is None and A.get(N - 1, 0) == 4.0
        assert A.get(6, 7, default=-1) == -1
        D = A.dup()
        assert D.isequal(A) and D is not A and _dict(D) == EA
        assert _dict(A.dup("int64")) == {k: int(v) for k, v in EA.items()}
        assert not A.isequal(_huge({**EA, (5, 7): 1.5}))
        assert _dict(A.T) == {(j, i): v for (i, j), v in EA.items()}
        assert _dict(sr.transpose(A)) == {(j, i): v for (i, j), v in EA.items()}
        assert repr(A) == f"<Matrix {N}x{N} nvals=4 dtype=float64 cpu>"


def test_huge_from_coo_duplicates():
    with raises(InvalidValue, rf"duplicate entries at \(row {2**39}, col {N - 1}\)"):
        sr.Matrix.from_coo([2**39, 1, 2**39], [N - 1, 0, N - 1], [1.0, 2.0, 3.0], nrows=N, ncols=N)
    A = sr.Matrix.from_coo([2**39, 1, 2**39], [N - 1, 0, N - 1], [1.0, 2.0, 3.0], nrows=N, ncols=N,
                           dup_op=sr.binary.plus)
    assert _dict(A) == {(1, 0): 2.0, (2**39, N - 1): 4.0}
    with raises(IndexOutOfBound, rf"expected indices in \[0, {N}\); given {N}"):
        sr.Matrix.from_coo([N], [0], nrows=N, ncols=N)


def test_huge_extract_rows_and_columns():
    with little_memory(2**26):
        A = _huge(EA)
        E = sr.extract(A, [5, 2**39, 6])
        assert E.shape == (3, N) and _dict(E) == {(0, 7): 1.0, (0, N - 1): 3.0, (1, 3): 2.0}
        assert _vdict(sr.extract(A, 5)) == {7: 1.0, N - 1: 3.0}  # one row, a Vector of size N
        assert _vdict(sr.extract(A, None, 3)) == {2**39: 2.0}  # one column
        E = sr.extract(A, [N - 1, 5], [0, 7, N - 1])
        assert _dict(E) == {(0, 0): 4.0, (1, 1): 1.0, (1, 2): 3.0}
        assert _dict(sr.extract(A, None, [7, 0])) == {(5, 0): 1.0, (N - 1, 1): 4.0}


@pytest.mark.parametrize("semiring", ["plus_times", "min_plus", "any_pair", "any_secondi", "max_firsti"])
@pytest.mark.parametrize("direction", ["auto", "push", "pull"])
def test_huge_mxv_vxm_with_a_sparse_vector(semiring, direction):
    s = sr.semirings.get(semiring)
    A = _huge(EA)
    u = sr.Vector.from_coo([7, 3, N - 1], [2.0, 5.0, 1.0], size=N)
    v = sr.Vector.from_coo([5, N - 1], [2.0, 1.0], size=N)

    def expect(terms):  # {output index: [(a, x, i, k, j)]}: reduce by the semiring by hand
        out = {}
        for key, ts in terms.items():
            vals = [{"plus_times": a * x, "min_plus": a + x, "any_pair": 1.0}.get(semiring) for a, x, *_ in ts]
            if semiring == "any_secondi":
                vals = [k for _, _, _, k, _ in ts]
            if semiring == "max_firsti":
                vals = [i for _, _, i, _, _ in ts]
            out[key] = vals
        return out

    mxv_terms, vxm_terms = {}, {}
    for (i, k), a in EA.items():
        if k in _vdict(u):
            mxv_terms.setdefault(i, []).append((a, _vdict(u)[k], i, k, 0))
        if i in _vdict(v):
            vxm_terms.setdefault(k, []).append((_vdict(v)[i], a, 0, i, k))
    with little_memory(2**26):
        got = _vdict(sr.mxv(A, u, s, direction=direction))
    exp = expect(mxv_terms)
    assert set(got) == set(exp)
    for key, vals in exp.items():
        if semiring.startswith("any"):
            assert got[key] in vals
        else:
            assert got[key] == {"plus": sum, "min": min, "max": max}[semiring.split("_")[0]](vals)
    with little_memory(2**26):
        got = _vdict(sr.vxm(v, A, s, direction=direction))
    exp = expect({j: [(x, a, i0, k, j0) for x, a, i0, k, j0 in ts] for j, ts in vxm_terms.items()})
    assert set(got) == set(exp)


def _apply_op(x, y, name):
    return {"plus": x + y, "times": x * y, "min": min(x, y), "second": y}[name]


@pytest.mark.parametrize("op", ["plus", "times", "min", "second"])
def test_huge_ewise_operations(op):
    with little_memory(2**26):
        A, B = _huge(EA), _huge(EB)
        add = _dict(sr.ewise_add(A, B, op))
        mult = _dict(sr.ewise_mult(A, B, op))
    exp_add = {k: _apply_op(EA[k], EB[k], op) if k in EA and k in EB else EA.get(k, EB.get(k)) for k in {*EA, *EB}}
    assert add == exp_add
    assert mult == {k: _apply_op(EA[k], EB[k], op) for k in EA.keys() & EB.keys()}


def test_huge_write_step_mask_accum_replace():
    with little_memory(2**26):
        A, B = _huge(EA), _huge(EB)
        M = _huge({(5, 7): True, (2**39, 3): False, (9, 3): True}, dtype="bool")
        out = B.dup()
        sr.ewise_add(A, A, "plus", mask=M.V, accum=sr.binary.minus, out=out)
        # allowed: (5,7), (9,3); (5,7): 10 - 2; (9,3): no T there, out keeps 20; the rest kept
        assert _dict(out) == {**EB, (5, 7): 10.0 - 2.0}
        out = B.dup()
        sr.ewise_add(A, A, "plus", mask=~M.S, replace=True, out=out)
        # allowed: all but (5,7), (2**39,3), (9,3); there out takes T (an absent T deletes:
        # (N-1,N-1)), and replace deletes out's entries outside the mask
        assert _dict(out) == {(5, N - 1): 6.0, (N - 1, 0): 8.0}
        out = B.dup()
        sr.apply(A, sr.indexunary.rowindex, thunk=1, out=out, accum=sr.binary.plus)
        assert _dict(out) == {(5, 7): 16.0, (5, N - 1): 6.0, (2**39, 3): 2**39 + 1, (9, 3): 20.0,
                              (N - 1, 0): -4.0 + N, (N - 1, N - 1): 1.0}
        out = B.dup()
        sr.select(A, sr.indexunary.colle, 7, mask=~B.S, out=out)
        assert _dict(out) == {**EB, (2**39, 3): 2.0}
        assert _dict(sr.select(A, sr.indexunary.rowgt, 2**39)) == {(N - 1, 0): 4.0}
        assert _dict(sr.select(A, sr.indexunary.diag, -(N - 1))) == {(N - 1, 0): 4.0}
        assert _dict(sr.apply(A, sr.unary.ainv)) == {k: -v for k, v in EA.items()}


def test_huge_transpose_mxm_assign_reduce():
    with little_memory(2**26):
        A, B = _huge(EA), _huge(EB)
        # A^T: (7,5) 1, (N-1,5) 3, (3,2**39) 2, (0,N-1) 4; the mask allows (7,5), (0,N-1), (1,1)
        out = _huge({(7, 5): 100.0, (0, N - 1): 50.0, (1, 1): 7.0})
        sr.transpose(A, mask=out.S, accum=sr.binary.plus, out=out)
        assert _dict(out) == {(7, 5): 101.0, (0, N - 1): 54.0, (1, 1): 7.0}
        C = _dict(sr.mxm(A, sr.transpose(B), "plus_times"))
        exp = {}
        for (i, k), a in EA.items():
            for (j, k2), b in EB.items():
                if k == k2:
                    exp[(i, j)] = exp.get((i, j), 0.0) + a * b
        assert C == exp
        assert _dict(sr.mxm(A, sr.transpose(B), "min_secondi")) == {key: min(
            k for (i, k) in EA for (j, k2) in EB if k == k2 and (i, j) == key) for key in exp}
        out = A.dup()
        sr.assign(out, 9.0, ([5, N - 2], [7, 1]))
        assert _dict(out) == {**EA, (5, 7): 9.0, (5, 1): 9.0, (N - 2, 7): 9.0, (N - 2, 1): 9.0}
        out = A.dup()
        u = sr.Matrix.from_coo([0], [1], [-1.0], nrows=2, ncols=2)
        sr.assign(out, u, ([5, 2**39], [7, 3]))  # the region's entries are replaced by u's
        assert _dict(out) == {(5, 3): -1.0, (5, N - 1): 3.0, (N - 1, 0): 4.0}
        out = A.dup()
        sr.assign(out, B, None, accum=sr.binary.plus)
        assert _dict(out) == {k: EA.get(k, 0.0) + EB.get(k, 0.0) for k in {*EA, *EB}}
        assert _vdict(sr.reduce_rowwise(A, "plus")) == {5: 4.0, 2**39: 2.0, N - 1: 4.0}
        assert _vdict(sr.reduce_columnwise(A, "max")) == {7: 1.0, N - 1: 3.0, 3: 2.0, 0: 4.0}
        assert sr.reduce_scalar(A, "plus") == 10.0


def test_huge_kronecker_and_transposes():
    A = sr.Matrix.from_coo([1, 2**20 - 1], [2, 0], [3.0, 5.0], nrows=2**20, ncols=2**20)
    B = sr.Matrix.from_coo([4], [5], [2.0], nrows=2**20, ncols=2**20)
    with little_memory(2**26):
        K = sr.kronecker(A, B, "times")
        assert K.shape == (N, N) and K.format == "hypersparse"
        assert _dict(K) == {(1 * 2**20 + 4, 2 * 2**20 + 5): 6.0, ((2**20 - 1) * 2**20 + 4, 5): 10.0}
        W = sr.Matrix(1, 2**62)
        assert sr.transpose(W).shape == (2**62, 1) and W.T.nvals == 0
        W = sr.Matrix.from_coo([0, 0], [3, 2**62 - 1], [1, 2], nrows=1, ncols=2**62)
        assert _dict(sr.transpose(W)) == {(3, 0): 1, (2**62 - 1, 0): 2}
    with raises(InvalidValue, r"kronecker: a 1099511627776x1099511627776 and a 1099511627776x1099511627776 "
                              r"matrix give a \d+x\d+ result; dimensions must be below 2\*\*63"):
        sr.kronecker(sr.Matrix(2**40, 2**40), sr.Matrix(2**40, 2**40), "times")


def test_shape_proportional_work_raises_before_allocating():
    A = _huge(EA)
    u = sr.Vector.from_coo([3], [1.0], size=N)
    with little_memory(2**30):
        with raises(OutOfMemory, r"Matrix.to_dense: a dense 1099511627776 x 1099511627776 float64 array"):
            A.to_dense(0.0)
        with raises(OutOfMemory, r"Vector.to_dense: a dense array of 1099511627776"):
            u.to_dense(0.0)
        with raises(OutOfMemory, r"the full row pointers \(1099511627777 offsets\) of a hypersparse matrix"):
            A.to_scipy()
        with raises(OutOfMemory, r"extract rows: a list of 549755813888 indices"):
            sr.extract(A, slice(0, N, 2))
        with raises(OutOfMemory, r"assign rows: a list of 1099511627776 indices", A):
            sr.assign(A, 1.0, (None, [0]))
        with raises(OutOfMemory, r"the mask ~Vector.S: one bool for each of its 1099511627776 positions"):
            # (the NumPy backend's pull tests the mask with one bool per position)
            An, un = A.to("cpu", backend="numpy"), u.to("cpu", backend="numpy")
            sr.mxv(An, un, "plus_times", mask=~un.S, direction="pull")
        big = sr.Matrix.from_coo(np.arange(6000), np.arange(6000), 1.0, nrows=6000, ncols=6000)
        with raises(OutOfMemory, r"kronecker: nvals\(A\) \* nvals\(B\) = 6000 \* 6000 = 36000000 entries"):
            sr.kronecker(big, big, "times")


@pytest.mark.numpy_backend  # the NumPy backend's storage formats
def test_hypersparse_threshold_keeps_normal_matrices_full():
    n = _rowptr.HYPER_MIN_ROWS
    assert sr.Matrix(n - 1, n - 1).format == "csr"
    assert sr.Matrix(n, n).format == "hypersparse"
    dense_rows = sr.Matrix.from_coo(np.arange(n), np.zeros(n, int), nrows=n, ncols=1)
    assert dense_rows.format == "csr"
    few = sr.Matrix.from_coo([0, n - 1], [0, 0], nrows=n, ncols=1)
    assert few.format == "hypersparse"
    assert few._indptr.shape == (n + 1,) and few._indptr[-1] == 2  # built on first use
    assert sr.apply(few, sr.unary.one).format == "hypersparse"


# =============================================================================================
# every operation's semantics with hypersparse storage and with compressed coordinates
# =============================================================================================
@contextlib.contextmanager
def always_hypersparse():
    """Every matrix with a row keeps row pointers for its nonempty rows only."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_rowptr, "HYPER_MIN_ROWS", 0)
        mp.setattr(_rowptr, "HYPER_RATIO", 0)
        yield


@contextlib.contextmanager
def always_compressed():
    """Every matrix operation runs the way it runs for 2**63 or more positions: on copies
    compressed to the ids the operands use (the compressed call itself runs normally)."""
    inside = threading.local()
    real_run = _hyper.run

    def huge(*shapes):
        return not getattr(inside, "on", False) and any(len(s) == 2 for s in shapes)

    def run(fn, *args, **kwargs):
        def marked(*a, **k):
            inside.on = True
            try:
                return fn(*a, **k)
            finally:
                inside.on = False

        return real_run(marked, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_hyper, "huge", huge)
        mp.setattr(_hyper, "run", run)
        yield


@pytest.mark.numpy_backend  # the NumPy backend's hypersparse code paths
def test_the_forced_modes_take_their_paths():
    with always_hypersparse():
        assert sr.Matrix.from_coo([0], [1], nrows=3, ncols=3).format == "hypersparse"
    calls = []
    with always_compressed(), pytest.MonkeyPatch.context() as mp:
        real = _hyper.compress
        mp.setattr(_hyper, "compress", lambda *a: calls.append(1) or real(*a))
        C = sr.ewise_add(_mat(), _mat(), "plus")
    assert len(calls) == 2 and _dict(C) == {(0, 1): 2.0, (1, 2): 4.0, (2, 0): 6.0}


MATRIX_OPS = sorted(op for op in trp.CASES if op not in ("apply_unary", "assign_vector", "extract_vector"))


@pytest.mark.parametrize("mode", [always_hypersparse, always_compressed], ids=["hypersparse", "compressed"])
@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_operations_match_the_reference(mode, data):
    opname = data.draw(st.sampled_from(MATRIX_OPS if mode is always_compressed else sorted(trp.CASES)), label="op")
    grid = data.draw(st.sampled_from(trp.GRID), label="grid")
    with mode():
        trp.check_case(opname, *grid, data)


# =============================================================================================
# the same on the GPU (CuPy arrays through the same code)
# =============================================================================================
def _host(a):
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


@pytest.mark.gpu
@pytest.mark.parametrize("forced", [False, True], ids=["thresholds", "always-hypersparse"])
def test_huge_and_hypersparse_matrices_on_the_gpu_match_the_cpu(forced):
    """Every operation on 2**40 x 2**40 matrices (and, forced, on small hypersparse ones) gives
    on the GPU the entries it gives on the CPU."""
    import cupy as cp

    def entries(x):
        parts = [_host(a).tolist() for a in x.to_coo()]
        return sorted(zip(*parts))

    def run(dev):
        A, B = _huge(EA).to(dev), _huge(EB).to(dev)
        u = sr.Vector.from_coo([7, 3, N - 1], [2.0, 5.0, 1.0], size=N).to(dev)
        got = {"format": A.format, "T": entries(A.T), "transpose": entries(sr.transpose(A)),
               "add": entries(sr.ewise_add(A, B, "plus")), "mult": entries(sr.ewise_mult(A, B, "times")),
               "extract": entries(sr.extract(A, [5, 2**39])), "row": entries(sr.extract(A, 5)),
               "reduce": entries(sr.reduce_rowwise(A, "plus")), "reduce_cols": entries(sr.reduce_columnwise(A, "plus")),
               "mxm": entries(sr.mxm(A, sr.transpose(B), "plus_times")),
               "select": entries(sr.select(A, sr.indexunary.rowle, 2**39)), "get": float(A.get(5, N - 1)),
               "dup": A.dup().isequal(A)}
        out = B.dup()
        sr.ewise_add(A, A, "plus", mask=~B.S, replace=True, out=out)
        got["masked"] = entries(out)
        for direction in ("push", "pull"):
            for s in ("plus_times", "min_plus", "min_secondi"):
                got[f"mxv {s} {direction}"] = entries(sr.mxv(A, u, s, direction=direction))
                got[f"vxm {s} {direction}"] = entries(sr.vxm(u, A, s, direction=direction))
        few = sr.Matrix.from_coo([1, 2**21 - 1], [2, 0], [1.0, 2.0], nrows=2**21, ncols=2**21).to(dev)
        got["few"] = (few.format, entries(few), int(few._indptr[-1]), few._indptr.shape[0])
        K = sr.kronecker(sr.Matrix.from_coo([1], [2], [3.0], nrows=2**20, ncols=2**20).to(dev),
                         sr.Matrix.from_coo([4], [5], [2.0], nrows=2**20, ncols=2**20).to(dev), "times")
        got["kron"] = entries(K)
        return got

    with always_hypersparse() if forced else contextlib.nullcontext():
        cpu, gpu = run("cpu"), run("gpu")
        G = sr.Matrix.from_coo(cp.asarray([0, 2**21 - 1]), cp.asarray([1, 0]), cp.asarray([1.0, 2.0]),
                               nrows=2**21, ncols=2**21, device="gpu")
        assert G.device == "gpu" and G.format == "hypersparse" and entries(G) == [(0, 1, 1.0), (2**21 - 1, 0, 2.0)]
    assert gpu == cpu
