"""``--output``: a command's result as CSV or Matrix Market.

Two shapes of result:

- per vertex (:func:`write_vertices`): CSV ``vertex,COLUMN,...`` with one row per vertex that
  has a value (every vertex for most results; the reached ones for bfs and sssp), or an
  n x k Matrix Market coordinate matrix whose entry (v, j) is column j of vertex v;
- per vertex pair (:func:`write_pairs`): CSV ``source,target,VALUE`` with one row per pair
  (mst: each forest edge once, source < target; apsp: each reachable pair), or the n x n
  Matrix Market matrix the algorithm returned.

The format is ``--format``'s, else the file name's suffix (``.csv``, ``.mtx``, either
optionally ``.gz``: compressed). An OSError names the file.
"""

from __future__ import annotations

import contextlib

import numpy as np

from .. import io
from ..backends._xp import asnumpy
from ..core.matrix import Matrix
from ..exceptions import InvalidValue
from . import progress

FORMATS = ("csv", "mtx")


def format_of(path, fmt=None):
    """The output format: ``fmt`` when given, else from ``path``'s suffix (None when unknown)."""
    if fmt is not None:
        return fmt
    stem = path.lower().removesuffix(".gz")
    for name in FORMATS:
        if stem.endswith("." + name):
            return name
    return None


@contextlib.contextmanager
def _naming(path):
    """Re-raise an OSError that has no file name (e.g. ENOSPC on flush) with ``path``."""
    try:
        yield
    except OSError as exc:
        if exc.filename is not None:
            raise
        if exc.errno is not None:
            raise OSError(exc.errno, exc.strerror, path) from exc
        raise OSError(f"{path}: {exc}") from exc


def _fmt(a):
    return "%.17g" if a.dtype.kind == "f" else "%d"


def _csv(path, columns, header):
    """``columns`` (1-D arrays of one length) as CSV rows under ``header``; integer columns are
    written as integers (vertex ids in float64 columns are exact: n <= 2**31)."""
    fmt = ",".join(_fmt(c) for c in columns)
    table = np.column_stack(columns) if columns[0].size else np.empty((0, len(columns)))
    np.savetxt(path, table, fmt=fmt, header=",".join(header), comments="", delimiter=",")


def _values(vec, n):
    """(indices, values) of a Vector (or of an int/float NumPy array of length n: every vertex)."""
    if isinstance(vec, np.ndarray):
        return np.arange(n, dtype=np.int64), vec
    idx, vals = (asnumpy(a) for a in vec.to_coo())
    return idx.astype(np.int64, copy=False), vals


def write_vertices(path, fmt, n, columns, *, comment=""):
    """Write per-vertex results.

    Parameters
    ----------
    path : str
        The output file.
    fmt : {"csv", "mtx"}
    n : int
        Number of vertices.
    columns : dict of str to Vector
        Column name -> a Vector of size n; all hold the same set of vertices (the first's
        vertices are written). bool values are written as 0/1.
    comment : str
        A ``%`` comment line of the Matrix Market file (the column names are added).

    Raises
    ------
    OSError
        The file cannot be written; the message names it.
    """
    names = list(columns)
    idx, first = _values(columns[names[0]], n)
    arrays = [first]
    for name in names[1:]:
        other_idx, vals = _values(columns[name], n)
        if not np.array_equal(other_idx, idx):
            raise InvalidValue(f"--output: the columns {names[0]} and {name} hold different vertices")
        arrays.append(vals)
    arrays = [a.astype(np.int8) if a.dtype.kind == "b" else a for a in arrays]
    with progress.phase(f"writing {path}"), _naming(path):
        if fmt == "csv":
            _csv(path, [idx, *arrays], ["vertex", *names])
            return
        dtype = np.float64 if any(a.dtype.kind == "f" for a in arrays) else np.int64
        k = len(arrays)
        rows = np.tile(idx, k)
        cols = np.repeat(np.arange(k, dtype=np.int64), idx.size)
        vals = np.concatenate([a.astype(dtype, copy=False) for a in arrays]) if idx.size else np.empty(0, dtype)
        M = Matrix.from_coo(rows, cols, vals, nrows=n, ncols=k, dtype=dtype)
        what = f"columns: {' '.join(names)} (row = 0-based vertex + 1)"
        io.write_mtx(path, M, comment=f" {comment}; {what}" if comment else f" {what}")


def write_pairs(path, fmt, M, name, *, upper=False, comment=""):
    """Write a per-pair result, a Matrix of shape (n, n).

    Parameters
    ----------
    path : str
    fmt : {"csv", "mtx"}
    M : Matrix
        Entry (i, j) holds the value of the pair i -> j.
    name : str
        The CSV column of the values ("weight", "distance").
    upper : bool
        CSV only: write each pair of a symmetric M once, as i < j (the edges of a forest).
    comment : str
        A ``%`` comment line of the Matrix Market file.

    Raises
    ------
    OSError
        The file cannot be written; the message names it.
    """
    with progress.phase(f"writing {path}"), _naming(path):
        if fmt == "mtx":
            io.write_mtx(path, M.to("cpu") if M.device != "cpu" else M, comment=f" {comment}" if comment else "")
            return
        r, c, v = (asnumpy(a) for a in M.to_coo())
        if upper:
            keep = r < c
            r, c, v = r[keep], c[keep], v[keep]
        if v.dtype.kind == "b":
            v = v.astype(np.int8)
        _csv(path, [r.astype(np.int64), c.astype(np.int64), v], ["source", "target", name])
