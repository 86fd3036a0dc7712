"""Matrix Market through SciPy's reader and writer (``scipy.io.mmread``/``mmwrite``,
fast_matrix_market underneath). Boisvert, Pozo, Remington, "The Matrix Market exchange
formats", NIST 1996."""

from __future__ import annotations

import os
import re

import numpy as np
import scipy.io

from ..core.matrix import Matrix
from ..exceptions import InvalidValue
from ._text import bad, open_text

_FIELD_DTYPE = {"pattern": "bool", "integer": "int64", "real": "float64"}


def _header(path):
    with open_text(path) as f:
        first = f.readline()
    m = re.match(r"%%MatrixMarket\s+matrix\s+(\w+)\s+(\w+)\s+(\w+)", first, re.IGNORECASE)
    if not m:
        raise bad(path, 1, f"expected a '%%MatrixMarket matrix <format> <field> <symmetry>' header; "
                           f"given {first.strip()[:60]!r}")
    fmt, field, sym = (g.lower() for g in m.groups())
    if fmt != "coordinate":
        raise bad(path, 1, f"expected a coordinate (sparse) matrix; given format {fmt!r}")
    if field not in _FIELD_DTYPE:
        raise bad(path, 1, f"expected field pattern, integer or real; given {field!r}")
    if sym not in ("general", "symmetric"):
        raise bad(path, 1, f"expected symmetry general or symmetric; given {sym!r}")
    return field, sym


def read_mtx(path, *, dtype=None, dup_op=None):
    """Read a Matrix Market coordinate file (``.mtx`` or ``.mtx.gz``).

    Parameters
    ----------
    path : str or path-like
    dtype : dtype, optional
        Defaults to bool for ``pattern``, int64 for ``integer``, float64 for ``real``.
    dup_op : BinaryOp, optional
        Combines repeated entries; None makes them an error.

    Returns
    -------
    Matrix
        Symmetric files are expanded to both triangles; stored zeros are entries.

    Raises
    ------
    InvalidValue
        A malformed file, naming the file and, where known, the line.
    """
    field, _ = _header(path)
    try:
        S = scipy.io.mmread(os.fspath(path))
    except (ValueError, OverflowError) as exc:
        msg = str(exc)
        m = re.match(r"Line (\d+): (.*)", msg)
        if m:
            raise bad(path, int(m.group(1)), m.group(2)) from None
        raise bad(path, None, msg) from None
    C = S.tocoo()
    d = dtype or _FIELD_DTYPE[field]
    vals = None if field == "pattern" and dtype is None else np.asarray(C.data)
    try:
        return Matrix.from_coo(C.row, C.col, vals, nrows=S.shape[0], ncols=S.shape[1], dtype=d, dup_op=dup_op)
    except InvalidValue as exc:
        raise bad(path, None, str(exc)) from None


def write_mtx(path, A, *, comment=""):
    """Write a Matrix as a Matrix Market coordinate file (general; pattern for bool).

    Parameters
    ----------
    path : str or path-like
    A : Matrix
    comment : str
        Written as a ``%`` comment line.
    """
    if not isinstance(A, Matrix):
        raise InvalidValue(f"write_mtx: expected a Matrix; given {type(A).__name__}")
    S = A.to_scipy()
    if A.dtype.kind == "b":
        scipy.io.mmwrite(os.fspath(path), S.astype(np.int8), comment=comment, field="pattern")
    else:
        field = "real" if A.dtype.kind == "f" else "integer"
        scipy.io.mmwrite(os.fspath(path), S, comment=comment, field=field)
