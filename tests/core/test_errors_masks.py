"""Error paths: the exception type, a message that says what was expected and what was given,
and no side effects (the output container and the inputs are left exactly as they were).

Each case snapshots every container involved with ``to_coo()`` before the call and compares
after it raised (GraphBLAS C API 2.0, section 2.6: an API error leaves the output unmodified).
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pytest

import semiring as sr
from semiring import DimensionMismatch, DomainMismatch, IndexOutOfBound, InvalidValue, SemiringError

PT = sr.semirings.plus_times


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def _snap(x):
    """A deep, comparable snapshot of a Vector, Matrix or NumPy array."""
    if isinstance(x, sr.Matrix):
        r, c, v = x.to_coo()
        return ("Matrix", x.shape, x.dtype, r.copy(), c.copy(), v.copy())
    if isinstance(x, sr.Vector):
        i, v = x.to_coo()
        return ("Vector", x.shape, x.dtype, i.copy(), v.copy())
    a = np.asarray(x)
    return ("array", a.shape, a.dtype, a.copy())


def _same(a, b):
    if a[:3] != b[:3]:
        return False
    for x, y in zip(a[3:], b[3:]):
        if x.dtype != y.dtype or x.shape != y.shape:
            return False
        if not np.array_equal(x, y, equal_nan=x.dtype.kind == "f"):
            return False
    return True


@contextmanager
def raises(exc, match, *untouched):
    """``pytest.raises`` that also checks the exact type and that ``untouched`` are unmodified."""
    assert issubclass(exc, SemiringError)
    before = [_snap(x) for x in untouched]
    with pytest.raises(exc, match=match) as info:
        yield info
    assert type(info.value) is exc, f"expected exactly {exc.__name__}, got {type(info.value).__name__}"
    for x, b in zip(untouched, before):
        assert _same(b, _snap(x)), f"{x!r} was modified by a call that raised {exc.__name__}"


def vec(idx, vals, size, dtype=None):
    return sr.Vector.from_coo(idx, vals, size=size, dtype=dtype)


def mat(rows, cols, vals, nrows, ncols, dtype=None):
    return sr.Matrix.from_coo(rows, cols, vals, nrows=nrows, ncols=ncols, dtype=dtype)


@pytest.fixture
def A():
    """4x4 int64, four entries."""
    return mat([0, 1, 2, 3], [1, 2, 3, 0], [1, 2, 3, 4], 4, 4)


@pytest.fixture
def u():
    """size-4 int64, two entries."""
    return vec([0, 2], [5, 7], 4)


@pytest.fixture
def w():
    """size-4 int64 output with entries, to see that nothing is written on error."""
    return vec([1, 3], [11, 13], 4)


@pytest.fixture
def C():
    """4x4 int64 output with entries."""
    return mat([0, 3], [0, 3], [21, 23], 4, 4)


def test_exception_hierarchy():
    for exc, base in [(DimensionMismatch, ValueError), (DomainMismatch, TypeError),
                      (IndexOutOfBound, IndexError), (InvalidValue, ValueError)]:
        assert issubclass(exc, SemiringError)
        assert issubclass(exc, base)
    assert sr.exceptions.SemiringError is SemiringError


# ---------------------------------------------------------------------------------------------
# masks of the wrong size or kind
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("form", ["bare", "S", "V", "~S", "~V"])
def test_int_vector_mask_of_wrong_size(A, u, w, form):
    m = vec([0, 1], [1, 0], 3)  # int64 values, size 3; output has size 4
    mask = {"bare": m, "S": m.S, "V": m.V, "~S": ~m.S, "~V": ~m.V}[form]
    with raises(DimensionMismatch, r"mask must match the output, Vector of size 4.*given a Vector of size 3",
                A, u, w, m):
        sr.mxv(A, u, PT, mask=mask, out=w)


def test_int_vector_mask_of_wrong_size_new_output(A, u):
    m = vec([0], [1], 5)
    with raises(DimensionMismatch, r"size 4.*given a Vector of size 5", A, u, m):
        sr.vxm(u, A, PT, mask=m.S)


@pytest.mark.parametrize("op", ["mxv", "vxm", "ewise_add", "ewise_mult", "apply", "select", "assign",
                                "extract", "reduce_rowwise"])
def test_matrix_mask_on_vector_op(A, u, w, op):
    M = mat([0], [0], [1], 4, 4)
    calls = {
        "mxv": lambda: sr.mxv(A, u, PT, mask=M.S, out=w),
        "vxm": lambda: sr.vxm(u, A, PT, mask=M.V, out=w),
        "ewise_add": lambda: sr.ewise_add(u, w, sr.binary.plus, mask=M.S, out=w),
        "ewise_mult": lambda: sr.ewise_mult(u, w, sr.binary.plus, mask=~M.S, out=w),
        "apply": lambda: sr.apply(u, sr.unary.ainv, mask=M, out=w),
        "select": lambda: sr.select(u, sr.indexunary.valuegt, 0, mask=M.S, out=w),
        "assign": lambda: sr.assign(w, 1, [0], mask=M.S),
        "extract": lambda: sr.extract(u, [0, 1, 2, 3], mask=M.S, out=w),
        "reduce_rowwise": lambda: sr.reduce_rowwise(A, sr.monoid.plus, mask=M.S, out=w),
    }
    with raises(DimensionMismatch, r"Vector of size 4.*given a Matrix of shape 4x4", A, u, w, M):
        calls[op]()


def test_vector_mask_on_matrix_op(A, C):
    m = vec([0], [1], 16)  # as many positions as the 4x4 output, but a Vector
    with raises(DimensionMismatch, r"Matrix of shape 4x4.*given a Vector of size 16", A, C, m):
        sr.mxm(A, A, PT, mask=m.S, out=C)


def test_matrix_mask_of_wrong_shape(A, C):
    M = mat([0], [0], [True], 4, 3)
    with raises(DimensionMismatch, r"shape 4x4.*given a Matrix of shape 4x3", A, C, M):
        sr.mxm(A, A, PT, mask=M.V, out=C)
    with raises(DimensionMismatch, r"shape 4x4.*given a Matrix of shape 4x3", A, M):
        sr.ewise_add(A, A, sr.binary.plus, mask=~M.S)


def test_mask_of_wrong_kind(A, u, w):
    with raises(InvalidValue, r"mask must be u\.S, u\.V.*given list", A, u, w):
        sr.mxv(A, u, PT, mask=[1, 0, 1, 0], out=w)
    with raises(InvalidValue, r"mask must be.*given ndarray", A, u, w):
        sr.mxv(A, u, PT, mask=np.ones(4, bool), out=w)


# ---------------------------------------------------------------------------------------------
# out of the wrong size or kind
# ---------------------------------------------------------------------------------------------
def test_out_of_wrong_size_vector(A, u):
    out = vec([0, 2], [1, 2], 3)
    with raises(DimensionMismatch, r"out must have size 4; given size 3", A, u, out):
        sr.mxv(A, u, PT, out=out)
    with raises(DimensionMismatch, r"out must have size 4; given size 3", A, u, out):
        sr.vxm(u, A, PT, out=out)
    with raises(DimensionMismatch, r"out must have size 4; given size 3", u, out):
        sr.ewise_add(u, u, sr.binary.plus, out=out)
    with raises(DimensionMismatch, r"out must have size 4; given size 3", u, out):
        sr.apply(u, sr.unary.identity, out=out)
    with raises(DimensionMismatch, r"out must have size 4; given size 3", A, out):
        sr.reduce_rowwise(A, sr.monoid.plus, out=out)
    with raises(DimensionMismatch, r"out must have size 2; given size 3", u, out):
        sr.extract(u, [0, 1], out=out)


def test_out_of_wrong_shape_matrix(A):
    out = mat([0], [0], [9], 4, 5)
    with raises(DimensionMismatch, r"out must have shape 4x4; given shape 4x5", A, out):
        sr.mxm(A, A, PT, out=out)
    with raises(DimensionMismatch, r"out must have shape 4x4; given shape 4x5", A, out):
        sr.ewise_mult(A, A, sr.binary.times, out=out)
    with raises(DimensionMismatch, r"out must have shape 4x4; given shape 4x5", A, out):
        sr.transpose(A, out=out)


def test_out_of_wrong_kind(A, u, w, C):
    with raises(InvalidValue, r"out must be a Vector; given Matrix", A, u, C):
        sr.mxv(A, u, PT, out=C)
    with raises(InvalidValue, r"out must be a Matrix; given Vector", A, w):
        sr.mxm(A, A, PT, out=w)
    with raises(InvalidValue, r"out must be a Vector; given ndarray", A, u):
        sr.mxv(A, u, PT, out=np.zeros(4))
    with raises(InvalidValue, r"out must be a Matrix; given Vector", A, w):
        sr.select(A, sr.indexunary.tril, out=w)


# ---------------------------------------------------------------------------------------------
# semirings whose monoid cannot take the multiply's output
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("monoid,multiply", [
    (sr.monoid.lor, sr.binary.firsti), (sr.monoid.land, sr.binary.secondj),
    (sr.monoid.lxor, sr.binary.secondi), (sr.monoid.lor, sr.binary.firstj),
])
def test_semiring_construction_refuses_positional_into_bool_monoid(monoid, multiply):
    with pytest.raises(DomainMismatch, match=rf"{monoid.name}.*{multiply.name}.*int64") as info:
        sr.Semiring(monoid, multiply)
    assert type(info.value) is DomainMismatch
    assert "bool" in str(info.value)  # says what the monoid takes


def test_lor_land_is_fine_on_int64(A, u):
    # control: land casts to bool first, so the lor monoid gets bool
    got = sr.mxv(A, u, sr.semirings.lor_land)
    assert got.dtype == np.bool_
    i, v = got.to_coo()
    # row 1 has A(1,2)=2 and u(2)=7 -> True; row 3 has A(3,0)=4 and u(0)=5 -> True
    assert i.tolist() == [1, 3] and v.tolist() == [True, True]


@pytest.mark.parametrize("dtype", ["int64", "int8", "uint32", "float64"])
def test_lor_plus_on_numbers_raises_at_call_time(dtype, w):
    lor_plus = sr.Semiring(sr.monoid.lor, sr.binary.plus)  # polymorphic: fine at construction
    A = mat([0, 1], [1, 2], [1, 2], 4, 4, dtype=dtype)
    u = vec([1, 2], [3, 4], 4, dtype=dtype)
    C = mat([0], [0], [1], 4, 4, dtype=dtype)
    msg = rf"lor.*plus.*{dtype}"
    with raises(DomainMismatch, msg, A, u, w):
        sr.mxv(A, u, lor_plus, out=w)
    with raises(DomainMismatch, msg, A, u, w):
        sr.vxm(u, A, lor_plus, out=w)
    with raises(DomainMismatch, msg, A, C):
        sr.mxm(A, A, lor_plus, out=C)


def test_lor_plus_on_bool_is_fine():
    lor_plus = sr.Semiring(sr.monoid.lor, sr.binary.plus)
    A = mat([0, 1], [1, 2], [True, False], 3, 3)
    u = vec([1, 2], [False, False], 3)
    i, v = sr.mxv(A, u, lor_plus).to_coo()
    assert i.tolist() == [0, 1] and v.tolist() == [True, False]  # plus on bool is lor


def test_monoid_with_fixed_dtype_refuses_lossy_input(A, w):
    m32 = sr.Monoid(sr.binary.plus, 0, dtype="int32")
    with raises(DomainMismatch, r"takes int32.*given int64", A, w):
        sr.reduce_rowwise(A, m32, out=w)
    with raises(DomainMismatch, r"takes int32.*given int64", A):
        sr.reduce_scalar(A, m32)


def test_bool_monoid_on_int_matrix_in_reduce(A, w):
    with raises(DomainMismatch, r"lor takes bool.*given int64", A, w):
        sr.reduce_rowwise(A, sr.monoid.lor, out=w)


# ---------------------------------------------------------------------------------------------
# replace=True without a mask
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("op", ["mxv", "vxm", "mxm", "ewise_add", "ewise_mult", "apply", "select",
                                "assign_vector", "assign_matrix", "extract", "reduce_rowwise",
                                "reduce_columnwise", "transpose"])
def test_replace_without_mask(A, u, w, C, op):
    calls = {
        "mxv": lambda: sr.mxv(A, u, PT, replace=True, out=w),
        "vxm": lambda: sr.vxm(u, A, PT, replace=True, out=w),
        "mxm": lambda: sr.mxm(A, A, PT, replace=True, out=C),
        "ewise_add": lambda: sr.ewise_add(u, w, sr.binary.plus, replace=True, out=w),
        "ewise_mult": lambda: sr.ewise_mult(A, C, sr.binary.plus, replace=True, out=C),
        "apply": lambda: sr.apply(u, sr.unary.ainv, replace=True, out=w),
        "select": lambda: sr.select(A, sr.indexunary.tril, replace=True, out=C),
        "assign_vector": lambda: sr.assign(w, u, None, replace=True),
        "assign_matrix": lambda: sr.assign(C, 5, ([0], [1]), replace=True),
        "extract": lambda: sr.extract(u, [0, 1, 2, 3], replace=True, out=w),
        "reduce_rowwise": lambda: sr.reduce_rowwise(A, sr.monoid.plus, replace=True, out=w),
        "reduce_columnwise": lambda: sr.reduce_columnwise(A, sr.monoid.plus, replace=True, out=w),
        "transpose": lambda: sr.transpose(A, replace=True, out=C),
    }
    with raises(InvalidValue, r"replace=True needs a mask.*given mask=None", A, u, w, C):
        calls[op]()


def test_replace_without_mask_no_out(A, u):
    with raises(InvalidValue, r"replace=True needs a mask", A, u):
        sr.mxv(A, u, PT, replace=True)


# ---------------------------------------------------------------------------------------------
# indices past the end or negative
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad,shown", [(4, "4"), (9, "9"), (-1, "-1")])
def test_vector_from_coo_index_out_of_bound(bad, shown):
    idx = np.array([0, bad, 2])
    vals = np.array([1.0, 2.0, 3.0])
    with raises(IndexOutOfBound, rf"expected indices in \[0, 4\); given {shown}", idx, vals):
        sr.Vector.from_coo(idx, vals, size=4)


@pytest.mark.parametrize("which", ["rows", "cols"])
@pytest.mark.parametrize("bad", [-1, 3, 100])
def test_matrix_from_coo_index_out_of_bound(which, bad):
    rows, cols = np.array([0, 1]), np.array([0, 1])
    (rows if which == "rows" else cols)[1] = bad
    with raises(IndexOutOfBound, rf"from_coo {which}: expected indices in \[0, 3\); given {bad}", rows, cols):
        sr.Matrix.from_coo(rows, cols, [1.0, 2.0], nrows=3, ncols=3)


def test_from_coo_uint64_index_beyond_int64():
    idx = np.array([0, 2**63 + 5], dtype=np.uint64)
    with raises(IndexOutOfBound, r"out of range for size 4", idx):
        sr.Vector.from_coo(idx, [1, 2], size=4)


def test_from_coo_non_integral_index():
    with raises(InvalidValue, r"expected integer indices; given non-integral float64"):
        sr.Vector.from_coo([0.5], [1], size=4)


@pytest.mark.parametrize("idx,shown", [([0, 4], "4"), ([-1], "-1"), (7, "7")])
def test_assign_vector_index_out_of_bound(w, idx, shown):
    with raises(IndexOutOfBound, rf"assign indices: expected indices in \[0, 4\); given {shown}", w):
        sr.assign(w, 3, idx)


def test_assign_vector_from_vector_index_out_of_bound(w, u):
    src = vec([0, 1], [1, 2], 2)
    with raises(IndexOutOfBound, r"given 5", w, src):
        sr.assign(w, src, [0, 5], accum=sr.binary.plus)


@pytest.mark.parametrize("rows,cols,what,shown", [([0, 4], [0], "rows", "4"), ([0], [-2], "cols", "-2"),
                                                  ([1], [4], "cols", "4")])
def test_assign_matrix_index_out_of_bound(C, rows, cols, what, shown):
    with raises(IndexOutOfBound, rf"assign {what}: expected indices in \[0, 4\); given {shown}", C):
        sr.assign(C, 1, (rows, cols))


@pytest.mark.parametrize("idx,shown", [([4], "4"), ([0, -1], "-1"), ([10, 0], "10")])
def test_extract_vector_index_out_of_bound(u, w, idx, shown):
    with raises(IndexOutOfBound, rf"extract indices: expected indices in \[0, 4\); given {shown}", u, w):
        sr.extract(u, idx, out=vec([], [], len(idx), dtype="int64"))
    with raises(IndexOutOfBound, rf"given {shown}", u):
        sr.extract(u, idx)


@pytest.mark.parametrize("rows,cols,what,shown", [([4], None, "rows", "4"), (None, [0, 9], "cols", "9"),
                                                  (-1, None, "rows", "-1"), (None, 4, "col", "4")])
def test_extract_matrix_index_out_of_bound(A, rows, cols, what, shown):
    with raises(IndexOutOfBound, rf"extract {what}: expected indices in \[0, 4\); given {shown}", A):
        sr.extract(A, rows, cols)


@pytest.mark.parametrize("i", [4, 5, -1, -4])
def test_vector_get_out_of_bound(u, i):
    with raises(IndexOutOfBound, rf"Vector\.get index: expected indices in \[0, 4\); given {i}", u):
        u.get(i)


def test_vector_get_out_of_bound_bitmap():
    d = sr.Vector.from_dense(np.arange(4.0))
    assert d.format == "bitmap"
    with raises(IndexOutOfBound, r"given 4", d):
        d.get(4)


@pytest.mark.parametrize("i,j,what,shown", [(4, 0, "row", "4"), (-1, 0, "row", "-1"), (0, 4, "col", "4"),
                                            (0, -3, "col", "-3")])
def test_matrix_get_out_of_bound(A, i, j, what, shown):
    with raises(IndexOutOfBound, rf"Matrix\.get {what}: expected indices in \[0, 4\); given {shown}", A):
        A.get(i, j)


# ---------------------------------------------------------------------------------------------
# NaN where a boolean is needed
# ---------------------------------------------------------------------------------------------
def _nan_mask():
    return vec([0, 1, 3], [1.0, np.nan, 0.0], 4)


@pytest.mark.parametrize("form", ["V", "~V", "bare"])
def test_nan_in_float_value_mask(A, u, w, form):
    m = _nan_mask()
    mask = {"V": m.V, "~V": ~m.V, "bare": m}[form]
    with raises(InvalidValue, r"value mask.*boolean is needed.*float64 values hold NaN", A, u, w, m):
        sr.mxv(A, u, PT, mask=mask, out=w)
    with raises(InvalidValue, r"NaN", u, w, m):
        sr.ewise_add(u, w, sr.binary.plus, mask=mask, out=w)
    with raises(InvalidValue, r"NaN", w, m):
        sr.assign(w, 1, None, mask=mask)


def test_nan_in_structural_mask_is_fine(A, u, w):
    # control: a structural mask looks only at presence
    m = _nan_mask()
    sr.mxv(A, u, PT, mask=m.S, out=w)
    i, v = w.to_coo()
    # A u: row 1 = A(1,2)*u(2) = 14, row 3 = A(3,0)*u(0) = 20; mask allows 0, 1, 3; w had 11 at 1, 13 at 3
    assert i.tolist() == [1, 3] and v.tolist() == [14, 20]


def test_nan_in_matrix_value_mask(A, C):
    M = mat([0, 2], [1, 3], [np.nan, 1.0], 4, 4)
    with raises(InvalidValue, r"value mask Matrix\.V.*NaN", A, C, M):
        sr.mxm(A, A, PT, mask=M.V, out=C)


@pytest.mark.parametrize("cls", ["Vector", "Matrix"])
def test_nan_cast_to_bool_in_from_coo(cls):
    vals = np.array([1.0, np.nan])
    with raises(InvalidValue, rf"{cls}\.from_coo values: NaN cannot be cast to a boolean.*float64", vals):
        if cls == "Vector":
            sr.Vector.from_coo([0, 1], vals, size=3, dtype=bool)
        else:
            sr.Matrix.from_coo([0, 1], [0, 1], vals, nrows=3, ncols=3, dtype=bool)


def test_nan_cast_to_bool_in_from_dense():
    arr = np.array([[0.0, np.nan]])
    with raises(InvalidValue, r"Matrix\.from_dense values: NaN cannot be cast to a boolean", arr):
        sr.Matrix.from_dense(arr, dtype="bool")
    with raises(InvalidValue, r"Vector\.from_dense values: NaN cannot be cast to a boolean", arr):
        sr.Vector.from_dense(arr[0], dtype="bool")


def test_nan_cast_to_int_in_from_coo():
    with raises(InvalidValue, r"NaN cannot be cast to an integer \(int32\)"):
        sr.Vector.from_coo([0], [np.nan], size=3, dtype="int32")


def test_nan_through_lor_and_land():
    x = vec([0, 1], [np.nan, 1.0], 3)
    y = vec([0, 2], [1.0, 0.0], 3)
    out = vec([0], [False], 3)
    with raises(InvalidValue, r"NaN cannot be cast to a boolean", x, y, out):
        sr.ewise_add(x, y, sr.binary.lor, out=out)
    with raises(InvalidValue, r"land.*NaN cannot be cast to a boolean", x, y, out):
        sr.ewise_mult(x, y, sr.binary.land, out=out)
    with raises(InvalidValue, r"lxor.*NaN", x, y):
        sr.ewise_mult(x, y, sr.binary.lxor)
    with raises(InvalidValue, r"lnot.*NaN cannot be cast to a boolean", x, out):
        sr.apply(x, sr.unary.lnot, out=out)
    with raises(InvalidValue, r"lor.*NaN", x):
        sr.apply(x, sr.binary.lor, right=True)


def test_nan_through_lor_land_semiring():
    A = mat([0, 1], [0, 1], [np.nan, 2.0], 2, 2)
    u = vec([0, 1], [1.0, 1.0], 2)
    out = vec([1], [True], 2)
    with raises(InvalidValue, r"land.*NaN cannot be cast to a boolean", A, u, out):
        sr.mxv(A, u, sr.semirings.lor_land, out=out)
    with raises(InvalidValue, r"NaN", A, u, out):
        sr.vxm(u, A, sr.semirings.lor_land, out=out)


@pytest.mark.parametrize("ncols", [1, 2])
def test_nan_through_lor_reduction(ncols):
    # a row holding NaN reduced with the lor operator: NaN is not a boolean
    A = mat([0] * ncols, list(range(ncols)), [np.nan] + [1.0] * (ncols - 1), 1, ncols)
    with pytest.raises((InvalidValue, DomainMismatch), match=r"NaN|bool") as info:
        sr.reduce_rowwise(A, sr.binary.lor)
    assert isinstance(info.value, SemiringError)


def test_nan_into_bool_output():
    x = vec([0], [np.nan], 3)
    out = vec([1], [True], 3)
    with raises(InvalidValue, r"NaN cannot be cast to a boolean", x, out):
        sr.ewise_add(x, x, sr.binary.plus, out=out)


def test_nan_from_select_predicate():
    x = vec([0, 1], [np.nan, 2.0], 3)
    pred = sr.IndexUnaryOp(lambda v, i, j, t: v, "value_as_pred", output="float64")
    with raises(InvalidValue, r"select predicate value_as_pred: NaN cannot be cast to a boolean", x):
        sr.select(x, pred)


# ---------------------------------------------------------------------------------------------
# duplicates in from_coo
# ---------------------------------------------------------------------------------------------
def test_vector_duplicates_without_dup_op():
    idx = np.array([3, 0, 3, 1])
    vals = np.array([1, 2, 3, 4])
    with raises(InvalidValue, r"duplicate entries at index 3: expected unique positions.*dup_op", idx, vals):
        sr.Vector.from_coo(idx, vals, size=5)


def test_matrix_duplicates_without_dup_op():
    rows, cols = np.array([0, 2, 1, 2]), np.array([1, 3, 0, 3])
    with raises(InvalidValue, r"duplicate entries at \(row 2, col 3\).*dup_op", rows, cols):
        sr.Matrix.from_coo(rows, cols, [1.0, 2.0, 3.0, 4.0], nrows=3, ncols=4)


def test_matrix_duplicates_names_the_first_duplicate():
    with raises(InvalidValue, r"\(row 0, col 1\)"):
        sr.Matrix.from_coo([2, 0, 2, 0], [2, 1, 2, 1], [1, 2, 3, 4], nrows=3, ncols=3)


@pytest.mark.parametrize("dup_op,expected", [
    (sr.binary.plus, {0: 2, 1: 4, 3: 1 + 3 + 10}),
    (sr.monoid.plus, {0: 2, 1: 4, 3: 14}),
    (sr.binary.min, {0: 2, 1: 4, 3: 1}),
    (sr.binary.max, {0: 2, 1: 4, 3: 10}),
    (sr.binary.first, {0: 2, 1: 4, 3: 1}),    # in input order: 1, 3, 10
    (sr.binary.second, {0: 2, 1: 4, 3: 10}),
    (sr.binary.times, {0: 2, 1: 4, 3: 30}),
])
def test_vector_duplicates_with_dup_op(dup_op, expected):
    v = sr.Vector.from_coo([3, 0, 3, 1, 3], [1, 2, 3, 4, 10], size=5, dup_op=dup_op)
    i, x = v.to_coo()
    assert dict(zip(i.tolist(), x.tolist())) == expected
    assert v.nvals == 3 and v.dtype == np.int64


def test_matrix_duplicates_with_dup_op():
    M = sr.Matrix.from_coo([1, 0, 1, 1], [2, 0, 2, 2], [1.5, 2.0, 2.5, 4.0], nrows=2, ncols=3,
                           dup_op=sr.binary.plus)
    r, c, v = M.to_coo()
    assert r.tolist() == [0, 1] and c.tolist() == [0, 2] and v.tolist() == [2.0, 8.0]


def test_dup_op_positional_or_wrong_kind():
    with raises(DomainMismatch, r"dup_op.*positional"):
        sr.Vector.from_coo([0, 0], [1, 2], size=2, dup_op=sr.binary.firsti)
    with raises(InvalidValue, r"dup_op: expected a BinaryOp or Monoid; given"):
        sr.Vector.from_coo([0, 0], [1, 2], size=2, dup_op=max)


# ---------------------------------------------------------------------------------------------
# dimension mismatches
# ---------------------------------------------------------------------------------------------
def test_mxv_dimension_mismatch(w):
    A = mat([0], [0], [1], 4, 3)
    u = vec([0], [1], 4)
    with raises(DimensionMismatch, r"A is 4x3, so u must have size 3; given size 4", A, u, w):
        sr.mxv(A, u, PT, out=w)


def test_vxm_dimension_mismatch():
    A = mat([0], [0], [1], 3, 4)
    u = vec([0], [1], 4)
    out = vec([0], [9], 4)
    with raises(DimensionMismatch, r"A is 3x4, so u must have size 3; given size 4", A, u, out):
        sr.vxm(u, A, PT, out=out)


def test_mxm_dimension_mismatch():
    A = mat([0], [0], [1], 3, 4)
    B = mat([0], [0], [1], 3, 3)
    C = mat([0], [0], [1], 3, 3)
    with raises(DimensionMismatch, r"inner dimensions differ: A is 3x4, B is 3x3", A, B, C):
        sr.mxm(A, B, PT, out=C)


@pytest.mark.parametrize("fn", [sr.ewise_add, sr.ewise_mult])
def test_ewise_dimension_mismatch(fn):
    x, y = vec([0], [1], 3), vec([0], [1], 4)
    with raises(DimensionMismatch, r"same shape; given \(3,\) and \(4,\)", x, y):
        fn(x, y, sr.binary.plus, out=vec([], [], 3, dtype="int64"))
    A, B = mat([0], [0], [1], 3, 4), mat([0], [0], [1], 4, 3)
    with raises(DimensionMismatch, r"same shape; given \(3, 4\) and \(4, 3\)", A, B):
        fn(A, B, sr.binary.plus)


@pytest.mark.parametrize("fn", [sr.ewise_add, sr.ewise_mult])
def test_ewise_vector_with_matrix(fn):
    x, A = vec([0], [1], 3), mat([0], [0], [1], 3, 1)
    with raises(InvalidValue, r"must both be Vectors or both Matrices; given Vector and Matrix", x, A):
        fn(x, A, sr.binary.plus)


def test_assign_dimension_mismatch(w, C):
    src = vec([0, 1], [1, 2], 3)
    with raises(DimensionMismatch, r"2 indices, so u must have size 2; given size 3", w, src):
        sr.assign(w, src, [0, 1])
    B = mat([0], [0], [1], 3, 3)
    with raises(DimensionMismatch, r"2 rows and 3 cols, so u must be 2x3; given 3x3", C, B):
        sr.assign(C, B, ([0, 1], [0, 1, 2]))


def test_assign_wrong_container_kinds(w, C, A, u):
    with raises(InvalidValue, r"Vector out takes a Vector or scalar u; given a Matrix", w, A):
        sr.assign(w, A, [0])
    with raises(InvalidValue, r"Matrix out takes a Matrix or scalar u; given a Vector", C, u):
        sr.assign(C, u, ([0], [0]))
    with raises(InvalidValue, r"needs indices=\(rows, cols\)", C):
        sr.assign(C, 1, [0, 1])


def test_assign_repeated_index(w):
    with raises(InvalidValue, r"index 2 appears more than once", w):
        sr.assign(w, 1, [2, 0, 2])


def test_from_coo_values_of_wrong_length():
    with raises(DimensionMismatch, r"expected 2 values \(one per index\); given shape \(3,\)"):
        sr.Vector.from_coo([0, 1], [1, 2, 3], size=4)
    with raises(DimensionMismatch, r"expected 1 values.*given shape \(2,\)"):
        sr.Matrix.from_coo([0], [0], [1, 2], nrows=2, ncols=2)


def test_from_coo_rows_cols_of_different_length():
    with raises(InvalidValue, r"rows and cols must have equal length; given 2 and 1"):
        sr.Matrix.from_coo([0, 1], [1], nrows=2, ncols=2)


# ---------------------------------------------------------------------------------------------
# unsupported dtypes
# ---------------------------------------------------------------------------------------------
BAD_DTYPES = [np.complex64, np.complex128, np.float16, object, "U3", "S3", np.longdouble]


def _bad_ok(d):
    # np.longdouble is float64 on some platforms (e.g. Windows): then it is supported
    return np.dtype(d) not in sr.dtypes.SUPPORTED


def _says_given(msg, d):
    d = np.dtype(d)
    return d.name in msg or str(d) in msg


@pytest.mark.parametrize("d", BAD_DTYPES)
def test_unsupported_dtype_in_constructors(d):
    if not _bad_ok(d):
        pytest.skip("longdouble is float64 here")
    for make in (lambda: sr.Vector(3, d), lambda: sr.Matrix(2, 2, d)):
        with pytest.raises(DomainMismatch, match=r"expected one of bool, int8.*float64; given") as info:
            make()
        assert _says_given(str(info.value), d)


@pytest.mark.parametrize("d", BAD_DTYPES)
def test_unsupported_dtype_values_in_from_coo(d):
    if not _bad_ok(d):
        pytest.skip("longdouble is float64 here")
    vals = np.array([1, 0], dtype=d)
    makers = [
        lambda: sr.Vector.from_coo([0, 1], vals, size=3),
        lambda: sr.Matrix.from_coo([0, 1], [1, 0], vals, nrows=2, ncols=2),
        lambda: sr.Vector.from_coo([0, 1], [1, 2], size=3, dtype=d),
        lambda: sr.Matrix.from_coo([0, 1], [1, 0], [1, 2], nrows=2, ncols=2, dtype=d),
    ]
    for make in makers:
        with pytest.raises(DomainMismatch, match=r"expected.*given") as info:
            make()
        assert _says_given(str(info.value), d), str(info.value)


@pytest.mark.parametrize("d", BAD_DTYPES)
def test_unsupported_dtype_in_from_dense(d):
    if not _bad_ok(d):
        pytest.skip("longdouble is float64 here")
    arr = np.array([[1, 0], [0, 1]], dtype=d)
    for make in (lambda: sr.Vector.from_dense(arr[0]), lambda: sr.Matrix.from_dense(arr)):
        with pytest.raises(DomainMismatch, match=r"expected one of .*; given") as info:
            make()
        assert _says_given(str(info.value), d)


def test_unsupported_dtype_in_from_scipy():
    import scipy.sparse as sp

    S = sp.csr_array(np.eye(2, dtype=np.complex128))
    with pytest.raises(DomainMismatch, match=r"from_scipy dtype: expected one of .*; given complex128"):
        sr.Matrix.from_scipy(S)


def test_unknown_dtype_name():
    with pytest.raises(DomainMismatch, match=r"expected one of bool.*; given 'notatype'"):
        sr.Vector(3, "notatype")


# ---------------------------------------------------------------------------------------------
# positional operators where they are not allowed
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("pos", [sr.binary.firsti, sr.binary.firstj, sr.binary.secondi, sr.binary.secondj])
def test_positional_operator_as_accum(A, u, w, pos):
    with raises(DomainMismatch, rf"accum.*positional.*{pos.name}.*only valid as a semiring's multiply", A, u, w):
        sr.mxv(A, u, PT, accum=pos, out=w)
    with raises(DomainMismatch, rf"positional.*{pos.name}", u, w):
        sr.ewise_add(u, w, sr.binary.plus, accum=pos, out=w)


@pytest.mark.parametrize("pos", [sr.binary.firsti, sr.binary.secondj])
def test_positional_operator_in_ewise_apply_kronecker(A, u, w, pos):
    with raises(DomainMismatch, rf"ewise_add: positional operator {pos.name}", u, w):
        sr.ewise_add(u, w, pos, out=w)
    with raises(DomainMismatch, rf"ewise_mult: positional operator {pos.name}", u, w):
        sr.ewise_mult(u, w, pos, out=w)
    with raises(DomainMismatch, rf"positional operator {pos.name}", u, w):
        sr.apply(u, pos, right=1, out=w)
    with raises(DomainMismatch, rf"kronecker: positional operator {pos.name}", A):
        sr.kronecker(A, A, pos)


@pytest.mark.parametrize("pos", [sr.binary.firsti, sr.binary.secondi])
def test_positional_operator_in_monoid(pos):
    with pytest.raises(DomainMismatch, match=rf"Monoid: a positional operator \({pos.name}\) is only valid"):
        sr.Monoid(pos, 0)


def test_positional_operator_called_directly():
    with pytest.raises(InvalidValue, match=r"firsti is positional: it needs entry indices"):
        sr.binary.firsti(np.array([1]), np.array([2]))


# ---------------------------------------------------------------------------------------------
# unknown built-in names
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("getter,kind,known", [
    (sr.semirings.get, "semiring", "plus_times"),
    (sr.monoid.get, "monoid", "plus"),
    (sr.binary.get, "binary operator", "plus"),
    (sr.unary.get, "unary operator", "ainv"),
    (sr.indexunary.get, "index-unary operator", "tril"),
])
def test_unknown_builtin_name(getter, kind, known):
    with pytest.raises(InvalidValue, match=rf"no built-in {kind} 'nope'; expected one of \[.*'{known}'") as info:
        getter("nope")
    assert type(info.value) is InvalidValue


def test_unknown_names_passed_to_operations(A, u, w):
    with raises(InvalidValue, r"no built-in semiring 'nope'", A, u, w):
        sr.mxv(A, u, "nope", out=w)
    with raises(InvalidValue, r"no built-in monoid 'nope'", A, w):
        sr.reduce_rowwise(A, "nope", out=w)
    with raises(InvalidValue, r"no built-in binary operator 'nope'", u, w):
        sr.ewise_add(u, w, "nope", out=w)
    with raises(InvalidValue, r"no built-in unary operator 'nope'", u, w):
        sr.apply(u, "nope", out=w)
    with raises(InvalidValue, r"no built-in index-unary operator 'nope'", A):
        sr.select(A, "nope")


# ---------------------------------------------------------------------------------------------
# apply: left/right
# ---------------------------------------------------------------------------------------------
def test_apply_binary_with_both_left_and_right(u, w):
    with raises(InvalidValue, r"exactly one bound scalar, left= or right=; given left=1, right=2", u, w):
        sr.apply(u, sr.binary.minus, left=1, right=2, out=w)


def test_apply_binary_with_neither_left_nor_right(u, w):
    with raises(InvalidValue, r"exactly one bound scalar.*given left=None, right=None", u, w):
        sr.apply(u, sr.binary.minus, out=w)
    with raises(InvalidValue, r"exactly one bound scalar", u, w):
        sr.apply(u, sr.binary.minus, thunk=3, out=w)


def test_apply_unary_or_indexunary_with_scalar(u, w):
    with raises(InvalidValue, r"a UnaryOp takes no left/right/thunk", u, w):
        sr.apply(u, sr.unary.ainv, left=1, out=w)
    with raises(InvalidValue, r"an IndexUnaryOp takes thunk=, not left/right", u, w):
        sr.apply(u, sr.indexunary.rowindex, right=1, out=w)


# ---------------------------------------------------------------------------------------------
# the read-only cached transpose
# ---------------------------------------------------------------------------------------------
def test_write_into_cached_transpose(A, u):
    T = A.T
    M = mat([0, 1], [0, 0], [1, 1], 4, 4)
    calls = [
        lambda: sr.mxm(A, A, PT, out=T),
        lambda: sr.ewise_add(A, A, sr.binary.plus, out=T),
        lambda: sr.ewise_mult(A, A, sr.binary.plus, out=T),
        lambda: sr.apply(A, sr.unary.ainv, out=T),
        lambda: sr.select(A, sr.indexunary.tril, out=T),
        lambda: sr.transpose(A, out=T),
        lambda: sr.extract(A, None, None, out=T),
        lambda: sr.kronecker(mat([0], [0], [1], 1, 1), A, sr.binary.times, out=T),
        lambda: sr.mxm(A, A, PT, mask=M.S, accum=sr.binary.plus, out=T),
    ]
    for call in calls:
        with raises(InvalidValue, r"out is a read-only view \(A\.T\); write into sr\.transpose\(A\)", A, T):
            call()
    with raises(InvalidValue, r"read-only", A, T):
        sr.assign(T, 1, ([0], [0]))
    assert A.T is T  # still the cached transpose
    # and it still is the transpose of A
    r, c, v = A.to_coo()
    tr, tc, tv = T.to_coo()
    assert sorted(zip(c.tolist(), r.tolist(), v.tolist())) == list(zip(tr.tolist(), tc.tolist(), tv.tolist()))


# ---------------------------------------------------------------------------------------------
# wrong argument kinds
# ---------------------------------------------------------------------------------------------
def test_list_where_a_vector_is_expected(A, u, w):
    with raises(InvalidValue, r"mxv u: expected a Vector; given list", A, w):
        sr.mxv(A, [1, 2, 3, 4], PT, out=w)
    with raises(InvalidValue, r"vxm u: expected a Vector; given list", A, w):
        sr.vxm([1, 2, 3, 4], A, PT, out=w)
    with raises(InvalidValue, r"ewise_add x: expected a Vector or Matrix; given list", u):
        sr.ewise_add([1, 2, 3, 4], u, sr.binary.plus)
    with raises(InvalidValue, r"given Vector and list", u):
        sr.ewise_mult(u, [1, 2, 3, 4], sr.binary.plus)
    with raises(InvalidValue, r"apply x: expected a Vector or Matrix; given list"):
        sr.apply([1, 2], sr.unary.ainv)
    with raises(InvalidValue, r"reduce_scalar x: expected a Vector or Matrix; given list"):
        sr.reduce_scalar([1, 2], sr.monoid.plus)


def test_ndarray_where_a_matrix_is_expected(A, u):
    with raises(InvalidValue, r"mxv A: expected a Matrix; given ndarray", u):
        sr.mxv(np.eye(4), u, PT)
    with raises(InvalidValue, r"mxm B: expected a Matrix; given ndarray", A):
        sr.mxm(A, np.eye(4), PT)
    with raises(InvalidValue, r"reduce_rowwise A: expected a Matrix; given Vector", u):
        sr.reduce_rowwise(u, sr.monoid.plus)


def test_operator_of_the_wrong_kind(A, u, w):
    with raises(InvalidValue, r"mxv semiring: expected a Semiring; given BinaryOp", A, u, w):
        sr.mxv(A, u, sr.binary.plus, out=w)
    with raises(InvalidValue, r"expected a Semiring; given Monoid", A, u):
        sr.mxv(A, u, sr.monoid.plus)
    with raises(InvalidValue, r"accum must be a BinaryOp.*given 'plus'", A, u, w):
        sr.mxv(A, u, PT, accum="plus", out=w)
    with raises(InvalidValue, r"select operator: expected a.*IndexUnaryOp; given BinaryOp", A):
        sr.select(A, sr.binary.plus)
    with raises(InvalidValue, r"Monoid: expected a BinaryOp; given"):
        sr.Monoid(sr.monoid.plus, 0)
    with raises(InvalidValue, r"Semiring: expected a Monoid as the additive operator; given BinaryOp"):
        sr.Semiring(sr.binary.plus, sr.binary.times)
    with raises(InvalidValue, r"Semiring: expected a BinaryOp as the multiply; given Monoid"):
        sr.Semiring(sr.monoid.plus, sr.monoid.times)
    with raises(InvalidValue, r"BinaryOp: expected a callable"):
        sr.BinaryOp(3)
    with raises(InvalidValue, r"UnaryOp: expected a callable"):
        sr.UnaryOp("x")
    with raises(InvalidValue, r"IndexUnaryOp: expected a callable"):
        sr.IndexUnaryOp(None)


def test_bad_sizes_and_devices():
    with raises(InvalidValue, r"Vector size: expected a non-negative integer; given -1"):
        sr.Vector(-1)
    with raises(InvalidValue, r"Vector size: expected a non-negative integer; given 2\.0"):
        sr.Vector(2.0)
    with raises(InvalidValue, r"Matrix nrows: expected a non-negative integer; given True"):
        sr.Matrix(True, 2)
    with raises(InvalidValue, r"device: expected 'cpu', 'gpu' or 'auto'; given 'tpu'"):
        sr.Vector(2, device="tpu")


def test_to_dense_without_fill_value():
    v = vec([1], [2.0], 3)
    with raises(InvalidValue, r"2 of 3 positions are absent; give fill_value", v):
        v.to_dense()
    M = mat([1], [1], [2.0], 2, 2)
    with raises(InvalidValue, r"3 of 4 positions are absent; give fill_value", M):
        M.to_dense()


def test_extract_single_entry_and_vector_cols(A, u):
    with raises(InvalidValue, r"single entry; use A\.get\(row, col\)", A):
        sr.extract(A, 1, 2)
    with raises(InvalidValue, r"a Vector takes one index list; given cols=\[0\]", u):
        sr.extract(u, [0], [0])


# ---------------------------------------------------------------------------------------------
# int64 with uint64: no common integer type
# ---------------------------------------------------------------------------------------------
MIX = r"int64 and uint64 have no common integer type|uint64 and int64 have no common integer type"


def test_int64_uint64_elementwise(u, w):
    uu = vec([0, 1], np.array([1, 2], dtype=np.uint64), 4)
    with raises(DomainMismatch, MIX, u, uu, w):
        sr.ewise_add(u, uu, sr.binary.plus, out=w)
    with raises(DomainMismatch, MIX, u, uu, w):
        sr.ewise_mult(uu, u, sr.binary.times, out=w)
    with raises(DomainMismatch, MIX, uu):
        sr.apply(uu, sr.binary.plus, right=-1)  # -1 does not fit uint64: an int64 scalar
    with raises(DomainMismatch, MIX, uu, w):
        sr.apply(uu, sr.binary.minus, left=np.int64(3), out=w)


def test_int64_uint64_products(A, u, w):
    Au = A.dup("uint64")
    uu = u.dup("uint64")
    C = mat([0], [0], [1], 4, 4)
    with raises(DomainMismatch, MIX, A, uu, w):
        sr.mxv(A, uu, PT, out=w)
    with raises(DomainMismatch, MIX, Au, u, w):
        sr.vxm(u, Au, sr.semirings.min_plus, out=w)
    with raises(DomainMismatch, MIX, A, Au, C):
        sr.mxm(A, Au, PT, out=C)


def test_other_int_uint_mixes_that_need_float():
    x = vec([0], np.array([1], np.int32), 2)
    y = vec([0], np.array([1], np.uint64), 2)
    with raises(DomainMismatch, r"int32 and uint64 have no common integer type", x, y):
        sr.ewise_add(x, y, sr.binary.plus)
    # control: uint32 with int64 fits int64
    z = sr.ewise_add(vec([0], np.array([1], np.uint32), 2), vec([0], [2], 2), sr.binary.plus)
    assert z.dtype == np.int64 and z.to_coo()[1].tolist() == [3]


def test_uint64_result_accumulated_into_int64_out():
    A = mat([0], [0], np.array([2], np.uint64), 1, 1)
    q = vec([0], np.array([3], np.uint64), 1)
    out = vec([0], [5], 1)  # int64
    with raises(DomainMismatch, MIX, A, q, out):
        sr.mxv(A, q, PT, accum=sr.binary.plus, out=out)


# ---------------------------------------------------------------------------------------------
# float-only unary operators on integers
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("op", [sr.unary.sqrt, sr.unary.exp, sr.unary.log])
@pytest.mark.parametrize("dtype", ["int8", "int64", "uint16", "bool"])
def test_float_only_unary_on_ints(op, dtype):
    x = vec([0, 2], [1, 4], 3, dtype=dtype)
    out = vec([1], [7.0], 3)
    with raises(DomainMismatch, rf"unary {op.name}: expected a float32/float64 input; given {dtype}", x, out):
        sr.apply(x, op, out=out)
    M = mat([0], [0], [4], 2, 2, dtype=dtype)
    with raises(DomainMismatch, rf"given {dtype}", M):
        sr.apply(M, op.name)
    with pytest.raises(DomainMismatch, match=rf"given {dtype}"):
        op(np.array([1, 4], dtype=dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_unary_on_floats_is_fine(dtype):
    x = vec([0, 2], [1.0, 4.0], 3, dtype=dtype)
    r = sr.apply(x, sr.unary.sqrt)
    assert r.dtype == np.dtype(dtype) and r.to_coo()[1].tolist() == [1.0, 2.0]
