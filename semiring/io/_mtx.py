"""Matrix Market coordinate files: read with the token grammar of :mod:`._grammar` (every token
checked, then parsed by NumPy), written with SciPy's ``scipy.io.mmwrite``. Boisvert, Pozo,
Remington, "The Matrix Market exchange formats", NIST 1996."""

from __future__ import annotations

import gzip
import io
import re

import numpy as np
import scipy.io

from ..core.matrix import Matrix
from ..exceptions import InvalidValue
from . import _grammar as g
from ._build import build, check_shape, dtype_option, dup_op_option, guard_memory
from ._text import bad, file_name, is_gzip, line_at, line_text, read_bytes

_FIELD_DTYPE = {"pattern": "bool", "integer": "int64", "real": "float64"}
_FIELDS = {"pattern": ("index", "index"), "integer": ("index", "index", "integer"),
           "real": ("index", "index", "real")}
_NAMES = ("row", "column", "value")

_BANNER = re.compile(rb"%%MatrixMarket[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]*\r?(?:\n|\Z)",
                     re.IGNORECASE)
# comment and blank lines between the banner and the size line
_PREAMBLE = g.Preamble(rb"[ \t]*+(?:%[^\n]*+)?+")
_SIZE = g.compile_grammar(rb"[ \t]*+([0-9]++)[ \t]++([0-9]++)[ \t]++([0-9]++)[ \t]*+\r?+(?:\n|\Z)")
_BODY = {field: g.lines_grammar(g.OWS + rb"(?:" + g.WS.join(g.KINDS[k][0] for k in kinds) + rb")?+" + g.OWS)
         for field, kinds in _FIELDS.items()}


def _header(path, data):
    """(field, symmetry, offset of the line after the banner) of a Matrix Market file."""
    m = _BANNER.match(data)
    if not m:
        raise bad(path, 1, f"expected a '%%MatrixMarket matrix <format> <field> <symmetry>' header; "
                           f"given {line_text(data, 0)!r}")
    obj, fmt, field, sym = (x.decode("ascii", errors="backslashreplace").lower() for x in m.groups())
    if obj != "matrix":
        raise bad(path, 1, f"expected a matrix object (%%MatrixMarket matrix ...); given {obj!r}")
    if fmt != "coordinate":
        raise bad(path, 1, f"expected a coordinate (sparse) matrix; given format {fmt!r}")
    if field not in _FIELD_DTYPE:
        raise bad(path, 1, f"expected field pattern, integer or real; given {field!r}")
    if sym not in ("general", "symmetric"):
        raise bad(path, 1, f"expected symmetry general or symmetric; given {sym!r}")
    return field, sym, m.end()


def _size_line(path, data, pos, sym):
    """(nrows, ncols, nnz, its line number, offset of the body) from the size line at ``pos``."""
    if pos is None:
        raise bad(path, None, "no size line ('<rows> <cols> <entries>')")
    lineno = line_at(data, pos)
    m = _SIZE.match(data, pos)
    if not m:
        raise bad(path, lineno, f"expected a size line '<rows> <cols> <entries>' of 3 non-negative "
                                f"integers; given {line_text(data, pos)!r}")
    nrows, ncols, nnz = (int(x) for x in m.groups())
    check_shape(path, lineno, nrows, ncols)
    if sym == "symmetric" and nrows != ncols:
        raise bad(path, lineno, f"a symmetric matrix must be square; given {nrows}x{ncols}")
    return nrows, ncols, nnz, lineno, m.end()


def _describe(field):
    def describe(line):
        if line.lstrip().startswith(b"%"):
            return "a comment line after the size line (comments must come before it)"
        return g.field_problem(line.split(), _FIELDS[field], _NAMES[:len(_FIELDS[field])])
    return describe


class _Joined(io.RawIOBase):
    """A read-only stream of some byte strings or memoryviews in turn, without joining them."""

    def __init__(self, *parts):
        self._parts, self._pos = [memoryview(p) for p in parts], 0

    def readable(self):
        return True

    def readinto(self, b):
        while self._parts and self._pos >= len(self._parts[0]):
            self._parts.pop(0)
            self._pos = 0
        if not self._parts:
            return 0
        chunk = self._parts[0][self._pos:self._pos + len(b)]
        b[:len(chunk)] = chunk
        self._pos += len(chunk)
        return len(chunk)


def _real_entries(data, start, nrows, ncols, nnz):
    """(rows, cols, values), 0-based, of the checked body ``data[start:]`` of a real file,
    parsed by SciPy's threaded reader (fast_matrix_market); None where it refuses the body
    (an index out of range, a wrong entry count), for :func:`_entries` to say why.

    Only text the grammar accepted reaches it, and always ending in a newline: SciPy 1.17's
    reader takes ``1.5abc`` as 1.5, and crashes the interpreter on a NUL byte in an entry or on
    a last line that ends in a blank without a newline. Its only gap with the grammar, a
    leading ``+``, is taken out (dropping the ``+`` of a checked number keeps its value)."""
    if data.find(b"+", start) >= 0:
        body = memoryview(data[start:].translate(None, b"+"))
    else:
        body = memoryview(data)[start:]
    head = b"%%MatrixMarket matrix coordinate real general\n%d %d %d\n" % (nrows, ncols, nnz)
    tail = b"" if data.endswith(b"\n") else b"\n"
    try:
        S = scipy.io.mmread(io.BufferedReader(_Joined(head, body, tail), 1 << 20), spmatrix=False)
    except (ValueError, OverflowError, MemoryError):
        return None
    if S.shape != (nrows, ncols) or S.nnz != nnz:
        return None
    return S.row.astype(np.int64), S.col.astype(np.int64), S.data


def _entries(path, data, start, field, nrows, ncols, nnz):
    """(rows, cols, values or None), 0-based, of the checked body ``data[start:]``."""
    # a real body that can hold the declared count goes to SciPy's (threaded) parser, which
    # allocates for that count first; an entry line takes at least 6 bytes ("1 1 1\n")
    if field == "real" and nnz <= (len(data) - start + 1) // 6:
        fast = _real_entries(data, start, nrows, ncols, nnz)
        if fast is not None:
            return fast
    width = len(_FIELDS[field])
    body = data[start:] if start else data
    table, overflow = g.parse_numbers(path, body, "real" if field == "real" else "integer", width)
    count = table.shape[0]
    if overflow is not None:
        k, tok = overflow
        raise bad(path, g.entry_line(data, start, k // width, b"0123456789"),
                  f"expected an integer in int64 ({_NAMES[k % width]}); given {tok.decode()}")
    if count > nnz:
        raise bad(path, g.entry_line(data, start, nnz, b"0123456789"),
                  f"the size line announces {nnz} entries; this is entry {nnz + 1}")
    if count < nnz:
        raise bad(path, None, f"the size line announces {nnz} entries; the file has {count}")
    if field == "real" and count and table[:, :2].max() > 2.0**53:  # indices a float cannot hold
        exact, overflow = g.exact_indices(body, (0, 1), width)
        if overflow is not None:
            raise bad(path, g.entry_line(data, start, overflow[0], b"0123456789"),
                      f"expected an index in int64; given {overflow[1].decode()}")
        r, c = exact
    else:
        r, c = table[:, 0].astype(np.int64), table[:, 1].astype(np.int64)
    wrong = np.flatnonzero((r < 1) | (r > nrows) | (c < 1) | (c > ncols))
    if wrong.size:
        k = int(wrong[0])
        name, v, n = ("row", r[k], nrows) if not 1 <= r[k] <= nrows else ("column", c[k], ncols)
        raise bad(path, g.entry_line(data, start, k, b"0123456789"), f"expected a {name} index in 1..{n}; given {v}")
    return r - 1, c - 1, (table[:, 2] if width == 3 else None)


@guard_memory
def read_mtx(path, *, dtype=None, dup_op=None):
    """Read a Matrix Market coordinate file (``.mtx`` or ``.mtx.gz``, any case).

    Every token is checked in full: indices are positive integers (1-based), ``integer``
    values ``[+-]digits`` within int64, ``real`` values decimal or exponent forms or ``inf``,
    ``infinity``, ``nan`` (any case, optional sign). Comments (``%``) and blank lines may come
    before the size line; blank lines also between entries.

    Parameters
    ----------
    path : str, bytes or path-like
    dtype : dtype, optional
        Defaults to bool for ``pattern``, int64 for ``integer``, float64 for ``real``.
    dup_op : BinaryOp, Monoid or name, optional
        Combines repeated entries; None makes them an error.

    Returns
    -------
    Matrix, shape (rows, cols) of the size line
        Symmetric files are expanded to both triangles; stored zeros are entries.

    Raises
    ------
    InvalidValue
        A malformed file (the message names the file and, where known, the line), a file that
        cannot be read or decompressed, a ``path`` that is not a path, an invalid option.
    DomainMismatch
        ``dtype`` is not a supported type.
    OutOfMemory
        The declared size would not fit the memory free now.
    """
    dtype = dtype_option(dtype, "read_mtx")
    dup_op = dup_op_option(dup_op, "read_mtx")
    path = file_name(path, "read_mtx")
    data = read_bytes(path, progress=True)
    field, sym, pos = _header(path, data)
    pos = _PREAMBLE.skip(data, pos)
    nrows, ncols, nnz, size_lineno, start = _size_line(path, data, pos, sym)
    bad_pos = g.first_bad_line(_BODY[field], data, start)
    if bad_pos is not None:
        g.raise_bad_line(path, data, bad_pos, _describe(field))
    r, c, v = _entries(path, data, start, field, nrows, ncols, nnz)
    del data
    if sym == "symmetric":  # the file holds one triangle: A[j, i] = A[i, j] off the diagonal
        off = r != c
        r, c = np.concatenate([r, c[off]]), np.concatenate([c, r[off]])
        v = None if v is None else np.concatenate([v, v[off]])
    return build(path, r, c, v, nrows=nrows, ncols=ncols, dtype=dtype or _FIELD_DTYPE[field], dup_op=dup_op)


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
    path = file_name(path, "write_mtx")
    opener = gzip.open if is_gzip(path) else open
    with opener(path, "wb") as f:
        scipy.io.mmwrite(f, S, comment=comment, field=field, symmetry="general")
