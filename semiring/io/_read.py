"""``read``: pick a reader by file extension."""

from __future__ import annotations

import inspect
import os

from ..exceptions import InvalidValue
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
        reader = read_mtx
    elif stem.endswith(".gr"):
        reader = read_gr
    elif stem.endswith(".col"):
        reader = read_col
    else:
        reader = read_edgelist
    known = set(inspect.signature(reader).parameters) - {"path"}
    unknown = set(options) - known
    if unknown:
        raise InvalidValue(f"read {os.fspath(path)}: {reader.__name__} takes options {sorted(known)}; "
                           f"given {sorted(unknown)}")
    return reader(path, **options)
