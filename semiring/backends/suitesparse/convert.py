"""Moving a container's content between its NumPy form and its SuiteSparse:GraphBLAS object.

Import (NumPy -> GraphBLAS) uses SuiteSparse's zero-copy import, ``GxB_Matrix_import_CSR`` /
``GxB_Matrix_import_HyperCSR`` / ``GxB_Vector_import_CSC`` and ``..._Bitmap`` (SuiteSparse:
GraphBLAS user guide, "Import/Export: using copy-free techniques"; Davis, ACM TOMS 45(4), 2019,
section 9), through python-graphblas' ``ss.import_*`` with ``take_ownership=True``: the arrays
handed over must be C-contiguous, writeable and own their memory, and GraphBLAS indices are
uint64, so each is a fresh NumPy copy (``astype(np.uint64)``, ``np.array``) that GraphBLAS then
keeps. NumPy's copies are the cheap part; a copy made inside GraphBLAS was measured several
times slower (page faults on newly mapped memory).

Export (GraphBLAS -> NumPy) uses ``ss.export(..., sort=True)``, which works on a duplicate
(``GrB_Matrix_dup``), so an object other threads read is never emptied. The uint64 indices are
read as int64 without a copy (every index is below ``2**60``), and the values of an iso object
(GraphBLAS keeps one value when all are equal, C API 2.1 / SuiteSparse ``GxB_is_iso``) are
expanded to one per entry.

Every function here returns a new object; none changes its argument.
"""

from __future__ import annotations

import numpy as np

from ...core import _rowptr
from . import GB_TYPES, load


def _values(vals, nvals, iso, dtype):
    vals = np.asarray(vals, dtype=dtype)
    if iso:
        return np.full(nvals, vals[0] if vals.shape[0] else 0, dtype=dtype)
    return np.ascontiguousarray(vals)


def _owned(a, dtype):
    """A new C-contiguous array of ``dtype`` that owns its memory (for ``take_ownership``)."""
    return np.array(a, dtype=dtype, order="C", copy=True)


def import_matrix(M):
    """A ``graphblas.Matrix`` holding the entries of the CPU numpy Matrix ``M`` (its own copy).

    Hypersparse row pointers become a HyperCSR import, full ones a CSR import; the columns are
    sorted in both (``sorted_cols=True``: no sort inside GraphBLAS)."""
    gb = load()
    rowptr = M._rowptr
    if M.nvals == 0:  # (an empty hyperlist is refused by the import)
        return gb.Matrix(GB_TYPES[M.dtype], M.nrows, M.ncols)
    common = dict(nrows=M.nrows, ncols=M.ncols, col_indices=_owned(M._indices, np.uint64),
                  values=_owned(M._values, M.dtype), sorted_cols=True, take_ownership=True, dtype=GB_TYPES[M.dtype])
    if _rowptr.is_hyper(rowptr):
        rows, ptr = rowptr
        G = gb.Matrix.ss.import_hypercsr(rows=_owned(rows, np.uint64), indptr=_owned(ptr, np.uint64), **common)
    else:
        G = gb.Matrix.ss.import_csr(indptr=_owned(rowptr, np.uint64), **common)
    return G.wait()  # GrB_Matrix_wait(MATERIALIZE): nothing pending when several threads read it


def export_matrix(G, dtype):
    """``(rowptr, indices, values)``: the canonical CSR of ``G`` (``_rowptr`` form: hypersparse
    for a matrix of at least ``HYPER_MIN_ROWS`` rows with few nonempty ones, as
    ``_rowptr.from_rows`` decides), int64 indices, values of ``dtype``."""
    nrows = G.nrows
    dtype = np.dtype(dtype)
    if nrows < _rowptr.HYPER_MIN_ROWS:
        d = G.ss.export("csr", sort=True)
        indptr = d["indptr"].view(np.int64)
        cols = d["col_indices"].view(np.int64)
        return indptr, cols, _values(d["values"], cols.shape[0], d["is_iso"], dtype)
    d = G.ss.export("hypercsr", sort=True)
    rows, ptr = d["rows"].view(np.int64), d["indptr"].view(np.int64)
    cols = d["col_indices"].view(np.int64)
    vals = _values(d["values"], cols.shape[0], d["is_iso"], dtype)
    counts = np.diff(ptr)
    keep = counts > 0
    if not keep.all():  # GraphBLAS may keep empty vectors in its hyperlist
        rows = rows[keep]
        ptr = np.concatenate([[0], np.cumsum(counts[keep])]).astype(np.int64)
    return _rowptr.from_rows(np.repeat(rows, np.diff(ptr)), nrows), cols, vals


def import_vector(u):
    """A ``graphblas.Vector`` holding the entries of the CPU numpy Vector ``u`` (its own copy):
    a bitmap import for a vector in bitmap form, a sparse one otherwise."""
    gb = load()
    t = GB_TYPES[u.dtype]
    if u.format == "bitmap":
        present, dense = u._bitmap()
        g = gb.Vector.ss.import_bitmap(bitmap=_owned(present, np.int8), values=_owned(dense, u.dtype),
                                       nvals=u.nvals, size=u.size, take_ownership=True, dtype=t)
    else:
        idx, vals = u._keys()
        g = gb.Vector.ss.import_sparse(size=u.size, indices=_owned(idx, np.uint64), values=_owned(vals, u.dtype),
                                       sorted_index=True, take_ownership=True, dtype=t)
    return g.wait()


def export_vector(g, dtype):
    """``(indices, values)``: the sorted int64 indices of ``g``'s entries and their values."""
    d = g.ss.export("sparse", sort=True)
    idx = d["indices"].view(np.int64)
    return idx, _values(d["values"], idx.shape[0], d["is_iso"], np.dtype(dtype))


def gb_dtype_of(obj):
    """The NumPy dtype of a python-graphblas object's element type, or None if semiring has none."""
    for d, name in GB_TYPES.items():
        if obj.dtype.name == name:
            return d
    return None


__all__ = ["export_matrix", "export_vector", "gb_dtype_of", "import_matrix", "import_vector"]
