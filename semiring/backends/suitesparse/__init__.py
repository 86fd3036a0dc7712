"""The SuiteSparse:GraphBLAS CPU backend (optional: ``pip install "semiring[suitesparse]"``).

Containers of this backend (:mod:`.containers`) hold a python-graphblas object, the
SuiteSparse:GraphBLAS library underneath (Davis, "Algorithm 1000: SuiteSparse:GraphBLAS: graph
algorithms in the language of sparse linear algebra", ACM TOMS 45(4), 2019; Davis, "Algorithm
10xx: SuiteSparse:GraphBLAS: parallel graph algorithms in the language of sparse linear
algebra", ACM TOMS, 2023), and the NumPy CSR form of the same content, either one authoritative;
the other is built on first read (:mod:`.convert`). Every operation reads the NumPy form, so a
SuiteSparse container computes exactly what a NumPy one does.

python-graphblas is imported on first use, never by ``import semiring``.
"""

from __future__ import annotations

import numpy as np

from ...exceptions import BackendUnavailable

#: The largest dimension a SuiteSparse:GraphBLAS object takes: ``GrB_INDEX_MAX + 1``
#: (GraphBLAS C API 2.0, section 3.3; SuiteSparse's ``GxB_INDEX_MAX`` is ``2**60 - 1``).
MAX_DIMENSION = 2**60

#: The element types both libraries hold (GraphBLAS C API 2.0, section 3.2, predefined types).
GB_TYPES = {
    np.dtype(np.bool_): "BOOL",
    np.dtype(np.int8): "INT8", np.dtype(np.int16): "INT16", np.dtype(np.int32): "INT32", np.dtype(np.int64): "INT64",
    np.dtype(np.uint8): "UINT8", np.dtype(np.uint16): "UINT16", np.dtype(np.uint32): "UINT32",
    np.dtype(np.uint64): "UINT64",
    np.dtype(np.float32): "FP32", np.dtype(np.float64): "FP64",
}

_loaded = None  # the graphblas module, or the BackendUnavailable message of a failed import


def load():
    """The ``graphblas`` module (python-graphblas), imported on first call.

    Raises
    ------
    BackendUnavailable
        python-graphblas (or suitesparse-graphblas under it) cannot be imported.
    """
    global _loaded
    loaded = _loaded
    if loaded is None:
        try:
            import graphblas
            import suitesparse_graphblas  # noqa: F401  (the C library python-graphblas calls)

            graphblas._autoinit  # GrB_init, unless the user initialized python-graphblas already
            loaded = graphblas
        except Exception as exc:  # ImportError, or any error the import itself raised
            loaded = (f"backend='suitesparse' needs python-graphblas: pip install 'semiring[suitesparse]'; "
                      f"importing it failed: {type(exc).__name__}: {exc}")
        _loaded = loaded
    if isinstance(loaded, str):
        raise BackendUnavailable(loaded)
    return loaded


def available():
    """True when python-graphblas can be imported (the SuiteSparse backend can be used)."""
    try:
        load()
    except BackendUnavailable:
        return False
    return True


def fits(dims):
    """True when every dimension of ``dims`` fits in a SuiteSparse:GraphBLAS object."""
    return all(not isinstance(n, (int, np.integer)) or n <= MAX_DIMENSION for n in dims)


__all__ = ["GB_TYPES", "MAX_DIMENSION", "available", "fits", "load"]
