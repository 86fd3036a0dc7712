"""DIMACS formats: shortest-path ``.gr`` (9th challenge: ``p sp n m``, arcs ``a u v w``) and
coloring ``.col`` (``p edge n m``, edges ``e u v``). Vertices are 1-based in the files."""

from __future__ import annotations

import numpy as np

from ..core.matrix import Matrix
from ..ops import binary
from ._text import bad, open_text


def _parse(path, problem, tag, ncols):
    """Return (n, m, int64 array with ncols-1 columns) from the ``tag`` lines of a DIMACS file."""
    n = m = p_line = None
    rows, linenos = [], []
    with open_text(path, progress=True) as f:
        for lineno, line in enumerate(f, 1):
            parts = line.split()
            if not parts or parts[0] in ("c", "%"):
                continue
            if parts[0] == tag:
                if p_line is None:
                    raise bad(path, lineno, f"'{tag}' line before the 'p' problem line")
                if len(parts) != ncols:
                    raise bad(path, lineno, f"expected '{tag}' and {ncols - 1} integers; given {line.strip()!r}")
                rows.append(parts[1:])
                linenos.append(lineno)
            elif parts[0] == "p":
                if p_line is not None:
                    raise bad(path, lineno, f"a second problem line; the first was line {p_line}")
                if len(parts) != 4 or parts[1] not in problem:
                    raise bad(path, lineno, f"expected 'p {problem[0]} <vertices> <edges>'; given {line.strip()!r}")
                try:
                    n, m = int(parts[2]), int(parts[3])
                except ValueError:
                    raise bad(path, lineno, f"expected integer counts; given {line.strip()!r}") from None
                if n < 0 or m < 0:
                    raise bad(path, lineno, f"expected non-negative counts; given {line.strip()!r}")
                p_line = lineno
            else:
                raise bad(path, lineno, f"expected a line starting with c, p or {tag}; given {line.strip()[:60]!r}")
    if p_line is None:
        raise bad(path, None, f"no problem line ('p {problem[0]} <vertices> <edges>')")
    try:
        arr = np.array(rows, dtype=np.int64).reshape(len(rows), ncols - 1)
    except (ValueError, OverflowError):
        lim = np.iinfo(np.int64)
        for r, lineno in zip(rows, linenos):
            try:
                vals = [int(x) for x in r]
            except ValueError:
                raise bad(path, lineno, f"expected integers; given {' '.join(r)!r}") from None
            if any(not lim.min <= v <= lim.max for v in vals):
                raise bad(path, lineno, f"expected integers that fit int64; given {' '.join(r)!r}") from None
        raise
    wrong = np.flatnonzero(((arr[:, :2] < 1) | (arr[:, :2] > n)).any(axis=1))
    if wrong.size:
        r = wrong[0]
        v = arr[r, 0] if not 1 <= arr[r, 0] <= n else arr[r, 1]
        raise bad(path, linenos[r], f"expected vertices in 1..{n}; given {v}")
    return n, m, arr


def read_gr(path, *, dtype="int64"):
    """Read a DIMACS shortest-path graph (``.gr``, ``.gr.gz``).

    Returns
    -------
    Matrix, shape (n, n), of ``dtype`` (default int64)
        Arc weights, ``A[u-1, v-1] = w``. Parallel arcs keep the minimum weight.

    Raises
    ------
    InvalidValue
        Malformed file (file and line named), vertex out of 1..n, arc count differing from the
        problem line.
    """
    n, m, arr = _parse(path, ("sp",), "a", 4)
    if arr.shape[0] != m:
        raise bad(path, None, f"the problem line announces {m} arcs; the file has {arr.shape[0]}")
    return Matrix.from_coo(arr[:, 0] - 1, arr[:, 1] - 1, arr[:, 2], nrows=n, ncols=n, dtype=dtype,
                           dup_op=binary.min)


def read_col(path):
    """Read a DIMACS coloring graph (``.col``): an undirected pattern (bool) Matrix.

    Each ``e u v`` gives both ``A[u-1, v-1]`` and ``A[v-1, u-1]``; edges listed twice and
    self-loops are tolerated (self-loops are dropped: they cannot be colored).

    Raises
    ------
    InvalidValue
        Malformed file (file and line named) or vertex out of 1..n.
    """
    n, _, arr = _parse(path, ("edge", "edges", "col"), "e", 3)
    u, v = arr[:, 0] - 1, arr[:, 1] - 1
    keep = u != v
    u, v = u[keep], v[keep]
    return Matrix.from_coo(np.concatenate([u, v]), np.concatenate([v, u]), True, nrows=n, ncols=n,
                           dtype="bool", dup_op=binary.lor)
