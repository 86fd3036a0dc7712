"""python-graphblas objects in and out (an optional dependency: ``pip install python-graphblas``).

A ``graphblas.Matrix`` goes through its CSR export (``to_csr``/``from_csr``), a
``graphblas.Vector`` through its COO export (``to_coo``/``from_coo``). Every stored entry
stays an entry (explicit zeros included) and the dtype is kept: BOOL, INT8-64, UINT8-64, FP32
and FP64 are the element types both libraries hold (complex and user-defined types are not).

python-graphblas always copies on the way in and out of GraphBLAS's own memory. From there,
``from_graphblas`` takes the exported arrays as they are: the uint64 indices GraphBLAS
exports are read as int64 without a copy (``GrB_INDEX_MAX`` is 2**60, so they fit).

References
----------
python-graphblas: https://python-graphblas.readthedocs.io (``Matrix.to_csr``, ``Matrix.from_csr``,
``Vector.to_coo``, ``Vector.from_coo``).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..backends._xp import asnumpy
from ..core import _validate as _v
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..exceptions import BackendUnavailable, InvalidValue


def _gb(what):
    try:
        import graphblas
    except ImportError as exc:
        raise BackendUnavailable(f"{what} needs python-graphblas (pip install python-graphblas); "
                                 f"importing it failed: {exc}") from None
    return graphblas


def from_graphblas(obj, *, dtype=None, device="cpu", backend=None):
    """A Matrix or Vector from a python-graphblas Matrix or Vector.

    Parameters
    ----------
    obj : graphblas.Matrix or graphblas.Vector
        Also a transposed matrix (``M.T``) or an unevaluated expression (``M.mxv(v)``), which is
        evaluated first with ``.new()``.
    dtype : dtype, optional
        Default: ``obj``'s (BOOL -> bool, INT64 -> int64, FP64 -> float64, ...).
    device : {"cpu", "gpu", "auto"}
    backend : {"numpy", "suitesparse", "auto"}, optional
        The CPU backend (see :class:`semiring.Matrix`); None, the current choice. A
        SuiteSparse result holds a duplicate of ``obj`` (``GrB_Matrix_dup``) when the dtype
        is kept.

    Returns
    -------
    Matrix of shape (obj.nrows, obj.ncols), or Vector of size obj.size
        The same stored entries (explicit zeros kept), sorted by position; its own memory.

    Raises
    ------
    InvalidValue
        ``obj`` is not a graphblas Matrix or Vector (a Scalar, a NumPy array, ...).
    DomainMismatch
        ``obj``'s element type has no semiring dtype (FC32, FC64, user-defined types).
    BackendUnavailable
        python-graphblas is not installed; ``device="gpu"`` without a usable GPU.

    Examples
    --------
    >>> import graphblas as gb, semiring as sr
    >>> M = gb.Matrix.from_coo([0, 1], [1, 0], [0, 5], nrows=2, ncols=2)
    >>> A = sr.io.from_graphblas(M)
    >>> A.nvals, A.dtype.name, int(A.get(0, 1))  # the stored zero is an entry
    (2, 'int64', 0)
    """
    gb = _gb("from_graphblas")
    what = "from_graphblas"
    from graphblas.core.matrix import TransposedMatrix

    if isinstance(obj, TransposedMatrix) or getattr(obj, "output_type", None) in (gb.Matrix, gb.Vector):
        obj = obj.new()  # M.T, or an expression such as M.mxv(v)
    if not isinstance(obj, (gb.Matrix, gb.Vector)):
        raise InvalidValue(f"{what}: expected a graphblas.Matrix or graphblas.Vector; given {type(obj).__name__}")
    src = _dt.lookup(obj.dtype.np_type, f"{what} dtype (graphblas {obj.dtype.name})")
    d = src if dtype is None else _dt.lookup(dtype, f"{what} dtype")
    dev = _v.device(device)
    if d == src and _v.backend_for(backend, dev, obj.shape) == "suitesparse":
        from ..backends.suitesparse.containers import from_gb

        dup = obj.dup()  # GrB_Matrix_dup / GrB_Vector_dup: the result owns its content
        dup.wait()
        return from_gb(dup, d)
    if isinstance(obj, gb.Matrix):
        indptr, cols, vals = obj.to_csr(sort=True)
        out = Matrix._from_csr(obj.nrows, obj.ncols, d, indptr.view(np.int64), cols.view(np.int64),
                               _dt.cast(np.asarray(vals, src), d, f"{what} values"))
    else:
        idx, vals = obj.to_coo(sort=True)
        out = Vector._from_parts(obj.size, d, idx.view(np.int64), _dt.cast(np.asarray(vals, src), d, f"{what} values"))
    return _v.placed(out, dev, backend)


def to_graphblas(x):
    """A python-graphblas Matrix or Vector with the entries and dtype of ``x``.

    Parameters
    ----------
    x : Matrix or Vector
        On either device (a GPU one is copied to the host).

    Returns
    -------
    graphblas.Matrix or graphblas.Vector
        The same shape, dtype and stored entries (explicit zeros kept); its own memory.

    Raises
    ------
    InvalidValue
        ``x`` is not a semiring Matrix or Vector.
    BackendUnavailable
        python-graphblas is not installed.

    Examples
    --------
    >>> import semiring as sr
    >>> u = sr.Vector.from_coo([1, 3], [0.0, 2.5], size=4)
    >>> g = sr.io.to_graphblas(u)
    >>> g.size, g.nvals, g.dtype.name
    (4, 2, 'FP64')
    """
    if not isinstance(x, (Matrix, Vector)):
        raise InvalidValue(f"to_graphblas: expected a semiring Matrix or Vector; given {type(x).__name__}")
    gb = _gb("to_graphblas")
    if x.backend == "suitesparse":
        G = x._gb().dup()  # GrB_Matrix_dup / GrB_Vector_dup: independent of x
        G.wait()
        return G
    if isinstance(x, Matrix):
        indptr, indices, vals = (asnumpy(a) for a in (x._indptr, x._indices, x._values))
        return gb.Matrix.from_csr(indptr, indices, vals, dtype=x.dtype, nrows=x.nrows, ncols=x.ncols)
    idx, vals = (asnumpy(a) for a in x._keys())
    return gb.Vector.from_coo(idx, vals, dtype=x.dtype, size=x.size)


__all__ = ["from_graphblas", "to_graphblas"]
