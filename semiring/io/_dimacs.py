"""DIMACS formats: shortest-path ``.gr`` (9th challenge: ``p sp n m``, arcs ``a u v w``) and
coloring ``.col`` (``p edge n m``, edges ``e u v``). Vertices are 1-based in the files.

Comment lines start with ``c`` (a word of its own) or ``%``; blank lines are skipped. Every
other line is checked against the grammar of :mod:`._grammar` in one regex pass before NumPy
parses the numbers."""

from __future__ import annotations

import re

import numpy as np

from ..ops import binary
from . import _grammar as g
from ._build import build, check_shape, dtype_option, guard_memory
from ._text import bad, file_name, line_at, line_text, read_bytes

_COMMENT = rb"(?:c(?![^ \t\r\n])[^\n]*+|%[^\n]*+)"
_PREAMBLE = g.Preamble(g.OWS + _COMMENT + rb"?+" + g.OWS)  # comment and blank lines
_PROBLEM = g.compile_grammar(rb"[ \t]*+p[ \t]++(\S++)[ \t]++([0-9]++)[ \t]++([0-9]++)[ \t]*+\r?+(?:\n|\Z)")
_STRIP_COMMENTS = re.compile(rb"[c%][^\n]*")


class _Format:
    """One DIMACS format: its problem names, entry tag and fields."""

    def __init__(self, what, problems, tag, kinds, names):
        self.what, self.problems, self.tag = what, problems, tag
        self.kinds, self.names = kinds, names
        fields = g.WS.join(g.KINDS[k][0] for k in kinds)
        self.body = g.lines_grammar(g.OWS + rb"(?:" + re.escape(tag) + g.WS + fields + rb"|" + _COMMENT + rb")?+"
                                    + g.OWS)

    @property
    def usage(self):
        return f"'p {self.problems[0]} <vertices> <{self.what}s>'"


_GR = _Format("arc", ("sp",), b"a", ("index", "index", "integer"), ("tail", "head", "weight"))
_COL = _Format("edge", ("edge", "edges", "col"), b"e", ("index", "index"), ("first endpoint", "second endpoint"))


def _problem_line(path, data, fmt):
    """(n, m, its line number, offset of the line after it)."""
    pos = _PREAMBLE.skip(data)
    tag = fmt.tag.decode()
    if pos is None:
        raise bad(path, None, f"no problem line ({fmt.usage})")
    lineno = line_at(data, pos)
    m = _PROBLEM.match(data, pos)
    first = data[pos:pos + 64].split(maxsplit=1)[:1]
    if first == [fmt.tag]:
        raise bad(path, lineno, f"'{tag}' line before the 'p' problem line")
    if first != [b"p"]:
        raise bad(path, lineno, f"expected a line starting with c, p or {tag}; given {line_text(data, pos)!r}")
    if not m or m.group(1).decode("ascii", errors="replace") not in fmt.problems:
        raise bad(path, lineno, f"expected {fmt.usage} (non-negative integer counts); given {line_text(data, pos)!r}")
    n, count = int(m.group(2)), int(m.group(3))
    check_shape(path, lineno, n, n)
    return n, count, lineno, m.end()


def _describe(fmt, p_lineno):
    def describe(line):
        tokens = line.split()
        if tokens[:1] == [b"p"]:
            return f"a second problem line; the first was line {p_lineno}"
        if tokens[:1] == [fmt.tag]:
            return g.field_problem(tokens[1:], fmt.kinds, fmt.names)
        given = line.decode(errors="backslashreplace")[:60]
        return f"expected a line starting with c, p or {fmt.tag.decode()}; given {given!r}"
    return describe


def _parse(path, fmt):
    """(n, m, its line, 0-based int64 array of shape (entries, len(fmt.kinds))) of a DIMACS file."""
    data = read_bytes(path, progress=True)
    n, m, p_lineno, start = _problem_line(path, data, fmt)
    bad_pos = g.first_bad_line(fmt.body, data, start)
    if bad_pos is not None:
        g.raise_bad_line(path, data, bad_pos, _describe(fmt, p_lineno))
    body = data[start:]
    if b"c" in body or b"%" in body:  # comment lines (the only place either byte can be now)
        body = _STRIP_COMMENTS.sub(b"", body)
    body = body.translate(None, fmt.tag)  # the entry tags: what remains is numbers
    width = len(fmt.kinds)
    arr, overflow = g.parse_numbers(path, body, "integer", width)
    del body
    if overflow is not None:
        k, tok = overflow
        raise bad(path, g.entry_line(data, start, k // width, fmt.tag),
                  f"expected an integer in int64 as the {fmt.names[k % width]}; given {tok.decode()}")
    uv = arr[:, :2]
    wrong = np.flatnonzero(((uv < 1) | (uv > n)).any(axis=1))
    if wrong.size:
        r = int(wrong[0])
        v = uv[r, 0] if not 1 <= uv[r, 0] <= n else uv[r, 1]
        raise bad(path, g.entry_line(data, start, r, fmt.tag), f"expected vertices in 1..{n}; given {v}")
    return n, m, p_lineno, arr, (data, start)


@guard_memory
def read_gr(path, *, dtype="int64"):
    """Read a DIMACS shortest-path graph (``.gr``, ``.gr.gz``, any case).

    Parameters
    ----------
    path : str, bytes or path-like
    dtype : dtype
        Of the weights (default int64); the file's weights are integers within int64.

    Returns
    -------
    Matrix, shape (n, n), of ``dtype``
        Arc weights, ``A[u-1, v-1] = w``. Parallel arcs keep the minimum weight.

    Raises
    ------
    InvalidValue
        Malformed file (file and line named), vertex out of 1..n, arc count differing from the
        problem line, a file that cannot be read or decompressed, a ``path`` that is not a path.
    DomainMismatch
        ``dtype`` is not a supported type.
    OutOfMemory
        The declared number of vertices would not fit the memory free now.
    """
    dtype = dtype_option(dtype, "read_gr") or np.dtype(np.int64)
    path = file_name(path, "read_gr")
    n, m, _, arr, (data, start) = _parse(path, _GR)
    if arr.shape[0] > m:
        raise bad(path, g.entry_line(data, start, m, _GR.tag),
                  f"the problem line announces {m} arcs; this is arc {m + 1}")
    if arr.shape[0] < m:
        raise bad(path, None, f"the problem line announces {m} arcs; the file has {arr.shape[0]}")
    del data
    # parallel arcs: A[u, v] = min over the arcs u -> v of their weights
    return build(path, arr[:, 0] - 1, arr[:, 1] - 1, arr[:, 2], nrows=n, ncols=n, dtype=dtype,
                 dup_op=binary.min)


@guard_memory
def read_col(path):
    """Read a DIMACS coloring graph (``.col``, ``.col.gz``, any case): an undirected pattern
    (bool) Matrix.

    Each ``e u v`` gives both ``A[u-1, v-1]`` and ``A[v-1, u-1]``; edges listed twice and
    self-loops are tolerated (self-loops are dropped: they cannot be colored). The edge count
    of the problem line is not checked (files differ on whether it counts both directions).

    Parameters
    ----------
    path : str, bytes or path-like

    Returns
    -------
    Matrix, shape (n, n), bool

    Raises
    ------
    InvalidValue
        Malformed file (file and line named), vertex out of 1..n, a file that cannot be read
        or decompressed, a ``path`` that is not a path.
    OutOfMemory
        The declared number of vertices would not fit the memory free now.
    """
    path = file_name(path, "read_col")
    n, _, _, arr, _ = _parse(path, _COL)
    u, v = arr[:, 0] - 1, arr[:, 1] - 1
    keep = u != v
    u, v = u[keep], v[keep]
    # A = E or E^T: both directions of every edge, repeats merged by logical or
    return build(path, np.concatenate([u, v]), np.concatenate([v, u]), True, nrows=n, ncols=n,
                 dtype="bool", dup_op=binary.lor)
