"""The readers' options, checked before any file is read, and the Matrix a reader builds, with
its memory checked before it is allocated."""

from __future__ import annotations

import functools
import os

import numpy as np

from .. import _checks
from .. import dtypes as _dt
from .._memory import require
from ..core import _rowptr
from ..core.matrix import Matrix
from ..exceptions import InvalidValue, OutOfMemory, SemiringError


def guard_memory(reader):
    """Decorator: a MemoryError while ``reader`` parses a file (one the estimates made before
    allocating did not foresee) becomes OutOfMemory naming the file."""

    @functools.wraps(reader)
    def read(path, *args, **kwargs):
        try:
            return reader(path, *args, **kwargs)
        except OutOfMemory:
            raise
        except MemoryError:
            name = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else repr(path)
            raise OutOfMemory(f"{reader.__name__} {name}: the memory ran out while the file was parsed") from None

    return read


def dtype_option(dtype, what):
    """None, or a supported dtype (DomainMismatch otherwise)."""
    return None if dtype is None else _dt.lookup(dtype, f"{what} dtype")


def dup_op_option(op, what):
    """None, or a BinaryOp from a BinaryOp, a Monoid or a built-in operator name."""
    if op is None:
        return None
    from ..core import _validate as _v

    if isinstance(op, str):
        try:
            return _v.binary_or_monoid(op, f"{what} dup_op")
        except InvalidValue as exc:
            raise InvalidValue(f"{what} dup_op: {exc}") from None
    return _v.binary_or_monoid(op, f"{what} dup_op")


def matrix_bytes(nrows, nnz, itemsize):
    """Bytes ``Matrix.from_coo`` allocates at its peak for ``nnz`` entries of ``itemsize``
    bytes in ``nrows`` rows: the int64 coordinates, keys, sort order and two value copies per
    entry, and the row pointers: four arrays of nrows + 1 int64 (counts, running sum, final
    ones) when they are stored full, or per-entry arrays when the matrix is hypersparse (many
    rows, few of them nonempty: ``semiring.core._rowptr``)."""
    hyper = nrows >= _rowptr.HYPER_MIN_ROWS and nnz * _rowptr.HYPER_RATIO < nrows
    pointers = 32 * (nnz + 1) if hyper else 32 * (nrows + 1)
    return pointers + nnz * (48 + 2 * itemsize)


def check_shape(path, lineno, nrows, ncols):
    """Declared dimensions that int64 indices can address (InvalidValue naming the file and the
    line that declares them otherwise); what else a shape must satisfy is the Matrix's rule,
    checked when it is built."""
    if max(nrows, ncols) > _checks.MAX_DIMENSION:
        where = f"{path}, line {lineno}" if lineno else path
        raise InvalidValue(f"{where}: expected dimensions of at most 2**63 - 1 (int64 indices); "
                           f"given {nrows} x {ncols}")


def build(path, rows, cols, vals, *, nrows, ncols, dtype, dup_op):
    """``Matrix.from_coo`` of a file's entries (dimensions checked by :func:`check_shape`),
    the memory it needs checked first.

    Raises
    ------
    InvalidValue
        What ``from_coo`` refuses (a shape it cannot index, duplicates without ``dup_op``),
        naming the file.
    OutOfMemory
        The matrix would not fit the memory free now.
    """
    nnz = int(np.asarray(rows).shape[0])
    itemsize = (np.dtype(dtype) if dtype is not None else
                np.dtype(bool) if vals is None else np.asarray(vals).dtype).itemsize
    what = f"read {path}: a {nrows:,} x {ncols:,} matrix with {nnz:,} entries"
    require(matrix_bytes(nrows, nnz, itemsize), what)
    try:
        return Matrix.from_coo(rows, cols, vals, nrows=nrows, ncols=ncols, dtype=dtype, dup_op=dup_op)
    except OutOfMemory as exc:
        raise OutOfMemory(f"{path}: {exc}") from None
    except MemoryError:
        raise OutOfMemory(f"{what}: the allocation failed") from None
    except SemiringError as exc:
        raise type(exc)(f"{path}: {exc}") from None
