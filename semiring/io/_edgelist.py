"""Whitespace-separated edge lists: ``u v`` or ``u v w`` per line, ``#`` and ``%`` comments."""

from __future__ import annotations

import numpy as np

from ..core.matrix import Matrix
from ..ops import binary
from ._text import bad, open_text


def read_edgelist(path, *, base=0, n=None, symmetric=False, dtype=None, dup_op=None):
    """Read an edge list.

    Parameters
    ----------
    path : str or path-like
    base : {0, 1}
        Index of the first vertex in the file.
    n : int, optional
        Number of vertices; defaults to the largest index + 1.
    symmetric : bool
        Add the reverse of every edge (an undirected graph). An edge listed in both
        directions is then kept once (with the smaller weight, unless ``dup_op`` says otherwise).
    dtype : dtype, optional
        Weight type; defaults to bool without weights, int64 or float64 with.
    dup_op : BinaryOp, optional
        Combines repeated edges; None makes them an error.

    Raises
    ------
    InvalidValue
        A line that is not 2 or 3 numbers (file and line named), mixed 2- and 3-column lines,
        a vertex below ``base`` or at or past ``n``.
    """
    rows, linenos, width = [], [], None
    with open_text(path, progress=True) as f:
        for lineno, line in enumerate(f, 1):
            parts = line.split()
            if not parts or parts[0][0] in "#%":
                continue
            if len(parts) not in (2, 3) or (width is not None and len(parts) != width):
                want = "2 or 3" if width is None else str(width)
                raise bad(path, lineno, f"expected {want} fields (u v [w]); given {line.strip()[:60]!r}")
            width = len(parts)
            rows.append(parts)
            linenos.append(lineno)
    if not rows:
        raise bad(path, None, "no edges")
    try:
        uv = np.array([r[:2] for r in rows], dtype=np.int64)
    except (ValueError, OverflowError):
        for r, lineno in zip(rows, linenos):
            if not all(x.lstrip("-").isdigit() and abs(int(x)) < 2**63 for x in r[:2]):
                raise bad(path, lineno, f"expected integer vertex ids (int64); given {' '.join(r)!r}") from None
        raise
    vals = None
    if width == 3:
        w = [r[2] for r in rows]
        try:
            vals = np.array(w, dtype=np.int64)
        except (ValueError, OverflowError):
            for x, lineno in zip(w, linenos):
                if x.lstrip("+-").isdigit() and abs(int(x)) >= 2**63:
                    raise bad(path, lineno, f"integer weight {x} does not fit int64") from None
            try:
                vals = np.array(w, dtype=np.float64)
            except ValueError:
                for x, lineno in zip(w, linenos):
                    try:
                        float(x)
                    except ValueError:
                        raise bad(path, lineno, f"expected a numeric weight; given {x!r}") from None
    uv -= base
    low = np.flatnonzero(uv.min(axis=1) < 0)
    if low.size:
        raise bad(path, linenos[low[0]], f"expected vertex ids >= {base}; given {' '.join(rows[low[0]][:2])}")
    nv = int(uv.max()) + 1 if n is None else n
    high = np.flatnonzero(uv.max(axis=1) >= nv)
    if high.size:
        raise bad(path, linenos[high[0]], f"expected vertex ids < {nv + base}; given {' '.join(rows[high[0]][:2])}")
    u, v = uv[:, 0], uv[:, 1]
    if symmetric:
        loop = u == v  # a self-loop is its own reverse
        u, v = np.concatenate([u, v[~loop]]), np.concatenate([v, u[~loop]])
        vals = None if vals is None else np.concatenate([vals, vals[~loop]])
        if dup_op is None:
            dup_op = binary.min  # an edge listed both ways is kept once
    try:
        return Matrix.from_coo(u, v, vals, nrows=nv, ncols=nv, dtype=dtype, dup_op=dup_op)
    except Exception as exc:
        raise bad(path, None, str(exc)) from None
