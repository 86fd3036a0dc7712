"""Building containers from coordinates, on either device, through one path.

``Matrix.from_coo`` and ``Vector.from_coo`` (``GrB_Matrix_build``, ``GrB_Vector_build``: the
GraphBLAS C API 2.0, section 4.2.6.4 and 4.2.5.4) both call :func:`from_coo`. It takes its arrays
on the array module it picks (:func:`array_module`: CuPy when the coordinates are CuPy arrays
and the container goes to the GPU, NumPy otherwise), and every step below is written once
against that module:

1. the coordinates and values are checked and typed (:func:`semiring._checks.index_array`,
   :func:`semiring._checks.values_array`);
2. the entries are sorted by their row-major key and repeated positions combined by ``dup_op``
   (:func:`build`);
3. the sorted keys become the stored form: a vector's indices, or a matrix's row pointers (full
   or hypersparse, ``_rowptr``) and column indices (:func:`csr_parts`).

A matrix of ``2**63`` or more positions (its keys would pass int64) is built on the ranks of
the rows and columns it uses (``_hyper.Axis``), the same steps on smaller keys.

The shared pieces of the containers' other constructors live here too (:func:`not_missing`,
:func:`index_dtype`), so ``matrix`` and ``vector`` import nothing private of each other.
"""

from __future__ import annotations

import numpy as np

from .. import _checks
from .. import dtypes as _dt
from ..backends._xp import xp_of
from ..exceptions import InvalidValue
from . import _rowptr
from . import _validate as _v

#: Operators with ``x op x == x``: combining equal values needs no reduction.
_IDEMPOTENT = ("lor", "land", "min", "max", "first", "second", "any")


def array_module(device, arrays):
    """CuPy when every one of ``arrays`` is a CuPy array and ``device`` resolves to "gpu" (the
    entries are built there, without a host copy), NumPy otherwise."""
    if all(xp_of(a) is not np for a in arrays) and _v.device(device) == "gpu":
        return xp_of(arrays[0])
    return np


def as_input(xp, x, what):
    """``x`` as an array of ``xp``: a host array (:func:`_interop.host_array`) for NumPy."""
    if xp is np:
        from ._interop import host_array

        return host_array(x, what)
    return xp.asarray(x)


def index_dtype(xp, *sizes):
    """The dtype of a matrix's stored indices: int64 on the CPU; on the GPU int32 while every
    one of ``sizes`` (dimensions, entry count) is below 2**31, int64 beyond."""
    return np.int64 if xp is np or max(sizes) >= 2**31 else np.int32


def not_missing(arr, missing):
    """Positions of a dense array that are not the ``missing`` marker (NaN matches NaN);
    DomainMismatch unless ``missing`` is None or a bool or number scalar."""
    xp = xp_of(arr)
    if missing is None:
        return xp.ones(arr.shape, bool)
    _dt.scalar_dtype(missing, "from_dense missing")
    if isinstance(missing, float) and np.isnan(missing):
        return ~xp.isnan(arr) if arr.dtype.kind == "f" else xp.ones(arr.shape, bool)
    return arr != missing


def _argsort(keys, stable):
    xp = xp_of(keys)
    if xp is np:
        return np.argsort(keys, kind="stable" if stable else None)
    return xp.argsort(keys)  # CuPy's sort is always stable


def build(keys, vals, op, describe):
    """Sort (keys, vals) by key and combine the values of equal keys with ``op`` (a BinaryOp,
    see :func:`_validate.dup_op`); InvalidValue naming the first repeated key
    (``describe(key)``) when ``op`` is None. Arrays of either module.

    An unstable sort is used first where the module has one (NumPy's is several times faster
    than its stable one); only when duplicates must be combined is the order of the given
    entries kept by a stable sort, so that order-dependent operators (``first``, ``second``)
    see the entries in input order. Values all equal (bit for bit) are not permuted at all.
    """
    from ..backends.array.reduce import reduce_runs
    from ..backends.array.sparse import group_starts

    xp = xp_of(keys)
    # equal bit patterns (== would take -0.0 for 0.0 and leave them in input order)
    floats = vals.dtype.kind == "f"
    bits = vals.view(np.dtype(f"u{vals.dtype.itemsize}")) if floats and vals.flags.c_contiguous else vals
    uniform = vals.shape[0] > 0 and (not floats or bits is not vals) and bool((bits == bits[0]).all())
    if uniform:
        sorted_keys = xp.sort(keys)
    else:
        order = _argsort(keys, stable=False)
        sorted_keys = keys[order]
    starts = group_starts(sorted_keys)
    if starts.shape[0] == keys.shape[0]:
        return sorted_keys, vals if uniform else vals[order]
    if op is None:
        dup = int(sorted_keys[int(xp.flatnonzero(sorted_keys[1:] == sorted_keys[:-1])[0])])
        raise InvalidValue(
            f"duplicate entries at {describe(dup)}: expected unique positions, or pass dup_op "
            "(e.g. dup_op=sr.binary.plus or sr.binary.min) to combine them"
        )
    from ..ops import binary

    if uniform and any(op is getattr(binary, name) for name in _IDEMPOTENT):
        return sorted_keys[starts], vals[: starts.shape[0]].copy()  # x op x = x: nothing to combine
    if uniform:
        vals = vals[: sorted_keys.shape[0]]
    else:
        vals = vals[order if xp is not np else _argsort(keys, stable=True)]
    combined = reduce_runs(op, vals, starts)
    return sorted_keys[starts], _dt.cast(combined, vals.dtype, "dup_op result", wrap_integers=True)


def csr_parts(keys, vals, nrows, ncols, idx=np.int64):
    """(row pointers, column indices, values) of sorted unique row-major keys
    ``row * ncols + col`` of an ``nrows x ncols`` matrix; the row pointers hypersparse when few
    of many rows are nonempty (``_rowptr.from_rows``), offsets and indices of dtype ``idx``."""
    xp = xp_of(keys)
    if nrows >= _rowptr.HYPER_MIN_ROWS:
        rowptr = _rowptr.from_rows(keys // ncols if ncols else keys, nrows, idx)
    else:  # row i starts at the first key >= i * ncols: a search of the sorted keys, no atomics on a GPU
        rowptr = xp.searchsorted(keys, xp.arange(nrows + 1, dtype=np.int64) * ncols).astype(idx, copy=False)
    cols = (keys % ncols if ncols else keys).astype(idx, copy=False)
    return rowptr, cols, vals


def from_coo(coords, values, sizes, *, dtype, device, dup_op, what):
    """The stored form of a container built from coordinates: the one build of
    ``Vector.from_coo`` (one coordinate array, ``sizes == (size,)``) and ``Matrix.from_coo``
    (rows and columns, ``sizes == (nrows, ncols)``).

    Parameters
    ----------
    coords : tuple of array_like of int
        One array per dimension, of equal length; NumPy or CuPy arrays, or anything
        ``numpy.asarray`` takes.
    values : array_like or scalar or None
        One value per entry, one for all, or None (bool True).
    sizes : tuple of int
        The dimensions (checked here).
    dtype : dtype or None
    device : str
        Where the container goes; the entries are built on the GPU when it is "gpu" and the
        coordinates are CuPy arrays (:func:`array_module`), on the host otherwise.
    dup_op : BinaryOp, Monoid or None
    what : str
        The caller, for messages (``"Matrix.from_coo"``).

    Returns
    -------
    sizes : tuple of int
    dtype : numpy.dtype
    parts : tuple of arrays
        ``(indices, values)`` for a vector; ``(row pointers, indices, values)`` for a matrix
        (indices int32 on the GPU while they fit, as ``Matrix.to("gpu")`` stores them).

    Raises
    ------
    InvalidValue
        Bad dimensions or coordinates; coordinate arrays of different lengths; duplicate
        positions without ``dup_op``; a ``dup_op`` that is not a BinaryOp or Monoid.
    IndexOutOfBound
        A coordinate outside its dimension.
    DimensionMismatch
        ``values`` of the wrong length.
    DomainMismatch
        Unsupported dtype or values; a positional ``dup_op``.
    """
    names = ("indices",) if len(sizes) == 1 else ("rows", "cols")
    labels = ("Vector size",) if len(sizes) == 1 else ("Matrix nrows", "Matrix ncols")
    op = _v.dup_op(dup_op)
    sizes = tuple(_checks.dimension(n, label) for n, label in zip(sizes, labels))
    xp = array_module(device, coords)
    idx = [_checks.index_array(as_input(xp, c, f"{what} {name}"), n, f"{what} {name}", xp)
           for c, n, name in zip(coords, sizes, names)]
    if len(idx) == 2 and idx[0].shape != idx[1].shape:
        raise InvalidValue(f"{what}: rows and cols must have equal length; given {idx[0].size} and {idx[1].size}")
    vals = _checks.values_array(None if values is None else as_input(xp, values, f"{what} values"),
                                idx[0].shape[0], dtype, f"{what} values", xp)
    if len(idx) == 1:
        keys, vals = build(idx[0], vals, op, lambda key: f"index {key}")
        return sizes, vals.dtype, (keys, vals)
    (r, c), (nrows, ncols) = idx, sizes
    if nrows * ncols <= _checks.MAX_DIMENSION:
        keys, vals = build(r * ncols + c, vals, op, lambda k: f"(row {k // ncols}, col {k % ncols})")
        return sizes, vals.dtype, csr_parts(keys, vals, nrows, ncols, index_dtype(xp, nrows, ncols, keys.shape[0]))
    # row-major keys row * ncols + col would pass 2**63: build on the ranks of the given rows
    # and columns among the distinct ones (the same order), then map back
    from ._hyper import Axis

    ra, ca = Axis([r], xp), Axis([c], xp)
    keys, vals = build(ra.rank(r) * ca.size + ca.rank(c), vals, op,
                       lambda key: f"(row {ra.ids[key // ca.size]}, col {ca.ids[key % ca.size]})")
    rows, cols = ra.ids[keys // ca.size], ca.ids[keys % ca.size]
    idt = index_dtype(xp, nrows, ncols, keys.shape[0])
    return sizes, vals.dtype, (_rowptr.from_rows(rows, nrows, idt), cols.astype(idt, copy=False), vals)


__all__ = ["array_module", "as_input", "index_dtype", "not_missing", "build", "csr_parts", "from_coo"]
