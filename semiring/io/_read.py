"""``read``: pick a reader by file extension."""

from __future__ import annotations

import os

from ._dimacs import read_col, read_gr
from ._edgelist import read_edgelist
from ._mtx import read_mtx


def read(path, **options):
    """Read a graph file into a Matrix, choosing the format by extension.

    ``.mtx``/``.mtx.gz``: Matrix Market; ``.gr``/``.gr.gz``: DIMACS shortest path;
    ``.col``/``.col.gz``: DIMACS coloring; anything else: a whitespace edge list
    (``options`` go to the reader: e.g. ``base=1``, ``symmetric=True``).

    Returns
    -------
    Matrix
        0-based; ``A[i, j]`` present means an edge i -> j.

    Raises
    ------
    InvalidValue
        The file is missing or malformed; the message names the file and the line.
    """
    name = os.fspath(path).lower()
    stem = name[:-3] if name.endswith(".gz") else name
    if stem.endswith(".mtx"):
        return read_mtx(path, **options)
    if stem.endswith(".gr"):
        return read_gr(path, **options)
    if stem.endswith(".col"):
        return read_col(path, **options)
    return read_edgelist(path, **options)
