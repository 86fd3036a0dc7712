"""Whitespace-separated edge lists: ``u v`` or ``u v w`` per line, ``#`` and ``%`` comments.

Vertex ids are non-negative integers; weights integers (int64) or reals (decimal, exponent,
``inf``, ``nan``). Every line is checked against the grammar of :mod:`._grammar` in one regex
pass before NumPy parses the numbers."""

from __future__ import annotations

import re

import numpy as np

from .. import _checks
from ..ops import binary
from . import _grammar as g
from ._build import build, check_shape, dtype_option, dup_op_option, guard_memory
from ._text import bad, file_name, line_at, read_bytes

_COMMENT = rb"[#%][^\n]*+"
_PREAMBLE = g.Preamble(g.OWS + rb"(?:" + _COMMENT + rb")?+" + g.OWS)  # comment and blank lines
_STRIP_COMMENTS = re.compile(rb"[#%][^\n]*")
_KINDS = {2: ("vertex", "vertex"), 3: ("vertex", "vertex", "real")}
_NAMES = ("source", "target", "weight")
_BODY = {w: g.lines_grammar(g.OWS + rb"(?:" + g.WS.join(g.KINDS[k][0] for k in kinds) + rb"|" + _COMMENT + rb")?+"
                            + g.OWS)
         for w, kinds in _KINDS.items()}
_DIGITS = b"0123456789"


def _first_entry(path, data):
    """(width, offset of the first entry line, its line number)."""
    pos = _PREAMBLE.skip(data)
    if pos is None:
        raise bad(path, None, "no edges")
    start = pos
    end = data.find(b"\n", pos)
    line = data[start:end if end >= 0 else len(data)]
    width = len(line.split())
    lineno = line_at(data, pos)
    if width not in (2, 3):
        msg = g.byte_problem(line.rstrip(b"\r")) or f"expected 2 or 3 fields (u v [w]); given {width}"
        raise bad(path, lineno, msg)
    return width, start, lineno


def _describe(width, first_lineno):
    def describe(line):
        tokens = line.split()
        if len(tokens) != width and len(tokens) in (2, 3):
            return (f"expected {width} fields ({', '.join(_NAMES[:width])}) as on the first edge line "
                    f"(line {first_lineno}); given {len(tokens)}")
        if len(tokens) != width:
            return f"expected {width} fields ({', '.join(_NAMES[:width])}); given {len(tokens)}"
        return g.field_problem(tokens, _KINDS[width], _NAMES[:width])
    return describe


@guard_memory
def read_edgelist(path, *, base=0, n=None, symmetric=False, dtype=None, dup_op=None):
    """Read an edge list.

    Parameters
    ----------
    path : str, bytes or path-like
    base : {0, 1}
        Index of the first vertex in the file.
    n : int, optional
        Number of vertices; defaults to the largest index + 1.
    symmetric : bool
        Add the reverse of every edge (an undirected graph). An edge listed in both
        directions is then kept once (with the smaller weight, unless ``dup_op`` says otherwise).
    dtype : dtype, optional
        Weight type; defaults to bool without weights, int64 if every weight is an integer,
        else float64.
    dup_op : BinaryOp, Monoid or name, optional
        Combines repeated edges; None makes them an error.

    Returns
    -------
    Matrix, shape (n, n)

    Raises
    ------
    InvalidValue
        A line that is not 2 or 3 numbers (file and line named), mixed 2- and 3-column lines,
        a vertex below ``base`` or at or past ``n``, a file that cannot be read or
        decompressed, a ``path`` that is not a path, an invalid option (checked first).
    DomainMismatch
        ``dtype`` is not a supported type.
    OutOfMemory
        The number of vertices would not fit the memory free now.
    """
    base = _checks.integer(base, "read_edgelist", "base", low=0, high=1)
    n = _checks.integer(n, "read_edgelist", "n", low=0, high=_checks.MAX_DIMENSION, none=True)
    symmetric = _checks.flag(symmetric, "read_edgelist", "symmetric")
    dtype = dtype_option(dtype, "read_edgelist")
    dup_op = dup_op_option(dup_op, "read_edgelist")
    path = file_name(path, "read_edgelist")
    data = read_bytes(path, progress=True)
    width, start, first_lineno = _first_entry(path, data)
    bad_pos = g.first_bad_line(_BODY[width], data, start)
    if bad_pos is not None:
        g.raise_bad_line(path, data, bad_pos, _describe(width, first_lineno))
    body = data[start:]
    if b"#" in body or b"%" in body:  # comment lines (the only place either byte can be now)
        body = _STRIP_COMMENTS.sub(b"", body)
    # a weight that is not an integer has a byte other than digits, signs and blanks
    kind = "real" if width == 3 and body.translate(None, _DIGITS + b"+- \t\r\n") else "integer"
    table, overflow = g.parse_numbers(path, body, kind, width)

    def line_of(k):  # the line of entry k, for a message
        return g.entry_line(data, start, k, _DIGITS)

    if overflow is not None:
        k, tok = overflow
        raise bad(path, line_of(k // width),
                  f"expected an integer in int64 as the {_NAMES[k % width]}; given {tok.decode()}")
    if kind == "real" and table.shape[0] and table[:, :2].max() > 2.0**53:  # ids a float cannot hold
        exact, overflow = g.exact_indices(body, (0, 1), width)
        if overflow is not None:
            raise bad(path, line_of(overflow[0]), f"expected a vertex id in int64; given {overflow[1].decode()}")
        uv = np.stack(exact, axis=1)
    else:
        uv = table[:, :2].astype(np.int64)
    del body
    vals = table[:, 2] if width == 3 else None
    uv -= base
    low = np.flatnonzero(uv.min(axis=1) < 0)
    if low.size:
        raise bad(path, line_of(int(low[0])),
                  f"expected vertex ids >= {base}; given {' '.join(map(str, uv[low[0]] + base))}")
    nv = int(uv.max()) + 1 if n is None else n
    check_shape(path, None, nv, nv)
    high = np.flatnonzero(uv.max(axis=1) >= nv)
    if high.size:
        raise bad(path, line_of(int(high[0])),
                  f"expected vertex ids < {nv + base}; given {' '.join(map(str, uv[high[0]] + base))}")
    u, v = uv[:, 0], uv[:, 1]
    if symmetric:  # A = E + E^T, a self-loop once (it is its own reverse)
        loop = u == v
        u, v = np.concatenate([u, v[~loop]]), np.concatenate([v, u[~loop]])
        vals = None if vals is None else np.concatenate([vals, vals[~loop]])
        if dup_op is None:
            dup_op = binary.min  # an edge listed both ways is kept once
    return build(path, u, v, vals, nrows=nv, ncols=nv, dtype=dtype, dup_op=dup_op)
