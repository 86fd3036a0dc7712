"""Matrix Market through SciPy's reader and writer (``scipy.io.mmread``/``mmwrite``,
fast_matrix_market underneath). Boisvert, Pozo, Remington, "The Matrix Market exchange
formats", NIST 1996."""

from __future__ import annotations

import gzip
import os
import re

import numpy as np
import scipy.io

from ..core.matrix import Matrix
from ..exceptions import InvalidValue
from ._text import bad, open_binary, open_text

_FIELD_DTYPE = {"pattern": "bool", "integer": "int64", "real": "float64"}


def _header(path):
    with open_text(path) as f:
        first = f.readline()
    m = re.match(r"%%MatrixMarket\s+matrix\s+(\S+)\s+(\S+)\s+(\S+)", first, re.IGNORECASE)
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


_WS = np.frombuffer(b" \t\r\n", dtype=np.uint8)


def _check_body(path, field, sym):
    """Check the size line and every entry line before SciPy parses them (SciPy's reader is
    lenient: it truncates "1.5" in an integer file and ignores extra fields).

    Vectorized over the bytes: each line must hold exactly the expected number of fields
    (2 for pattern, 3 otherwise), and an integer or pattern file only digits and signs.
    """
    with open_binary(path, progress=True) as f:
        data = f.read()
    buf = np.frombuffer(data, dtype=np.uint8)
    nl = np.flatnonzero(buf == ord("\n"))
    starts = np.concatenate([[0], nl + 1])
    starts = starts[starts < buf.size]
    first = buf[starts]
    # the header and comments start with '%'; blank lines are allowed
    content = starts[first != ord("%")]
    line_no = np.searchsorted(starts, content) + 1  # 1-based line numbers of content lines
    is_ws = np.isin(buf, _WS)
    token_start = ~is_ws & np.concatenate([[True], is_ws[:-1]])
    line_of_byte = np.cumsum(buf == ord("\n")) - (buf == ord("\n"))
    counts = np.bincount(line_of_byte[token_start], minlength=starts.size)
    line_index = line_no - 1
    lines = counts[line_index]
    nonblank = lines > 0
    line_index, line_no, lines = line_index[nonblank], line_no[nonblank], lines[nonblank]
    if line_no.size == 0:
        raise bad(path, None, "no size line ('<rows> <cols> <entries>')")
    size_line = data[starts[line_index[0]]:(nl[line_index[0]] if line_index[0] < nl.size else len(data))].split()
    if len(size_line) != 3 or not all(t.isdigit() for t in size_line):
        raise bad(path, int(line_no[0]), f"expected a size line '<rows> <cols> <entries>' of 3 non-negative "
                                         f"integers; given {b' '.join(size_line).decode(errors='replace')!r}")
    nrows, ncols, nnz = (int(t) for t in size_line)
    if sym == "symmetric" and nrows != ncols:
        raise bad(path, int(line_no[0]), f"a symmetric matrix must be square; given {nrows}x{ncols}")
    want = 2 if field == "pattern" else 3
    wrong = np.flatnonzero(lines[1:] != want)
    if wrong.size:
        raise bad(path, int(line_no[1 + wrong[0]]), f"expected {want} fields (row col{'' if want == 2 else ' value'}); "
                                                   f"given {int(lines[1 + wrong[0]])}")
    if lines.size - 1 > nnz:
        raise bad(path, int(line_no[1 + nnz]), f"the size line announces {nnz} entries; this is entry {nnz + 1}")
    if lines.size - 1 < nnz:
        raise bad(path, None, f"the size line announces {nnz} entries; the file has {lines.size - 1}")
    if field in ("integer", "pattern"):
        body = buf[starts[line_index[1]]:] if line_index.size > 1 else buf[:0]
        ok = np.isin(body, np.frombuffer(b"0123456789+- \t\r\n%", dtype=np.uint8))
        if not ok.all():
            pos = starts[line_index[1]] + np.flatnonzero(~ok)[0]
            raise bad(path, int(np.searchsorted(nl, pos) + 1),
                      f"expected integers in an {field} file; given the character {chr(buf[pos])!r}")


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
    field, sym = _header(path)
    _check_body(path, field, sym)
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
    """Write a Matrix as a general Matrix Market coordinate file, exactly to ``path``
    (gzip-compressed if it ends in ``.gz``).

    A bool matrix is written as ``pattern`` if every value is True, else as ``integer`` 0/1;
    integer types as ``integer``; floats as ``real``.

    Parameters
    ----------
    path : str or path-like
    A : Matrix
    comment : str
        Written as a ``%`` comment line.

    Raises
    ------
    InvalidValue
        ``A`` is not a Matrix, or holds uint64 values above 2**63 - 1 (the writer's integers
        are int64).
    """
    if not isinstance(A, Matrix):
        raise InvalidValue(f"write_mtx: expected a Matrix; given {type(A).__name__}")
    S = A.to_scipy()
    kind = A.dtype.kind
    if kind == "u" and A.dtype.itemsize == 8 and S.data.size and S.data.max() > np.iinfo(np.int64).max:
        raise InvalidValue(f"write_mtx: uint64 value {S.data.max()} does not fit the int64 integers written")
    if kind == "b":
        field = "pattern" if S.data.all() else "integer"
        S = S.astype(np.int8)
    else:
        field = "real" if kind == "f" else "integer"
        if kind == "u":
            S = S.astype(np.int64)
    opener = gzip.open if os.fspath(path).endswith(".gz") else open
    with opener(path, "wb") as f:
        scipy.io.mmwrite(f, S, comment=comment, field=field, symmetry="general")
