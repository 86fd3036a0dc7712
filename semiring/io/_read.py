"""``read``: pick a reader by file extension."""

from __future__ import annotations

import inspect

from ..exceptions import InvalidValue
from ._dimacs import read_col, read_gr
from ._edgelist import read_edgelist
from ._mtx import read_mtx
from ._text import file_name, is_gzip


def read(path, **options):
    """Read a graph file into a Matrix, choosing the format by extension.

    ``.mtx``/``.mtx.gz``: Matrix Market; ``.gr``/``.gr.gz``: DIMACS shortest path;
    ``.col``/``.col.gz``: DIMACS coloring; anything else: a whitespace edge list
    (``options`` go to the reader: e.g. ``base=1``, ``symmetric=True``). Extensions are
    matched in any case (``G.MTX.GZ``); ``.gz`` files are decompressed.

    Parameters
    ----------
    path : str, bytes or path-like
    **options
        Keyword options of the chosen reader (:func:`read_mtx`, :func:`read_gr`,
        :func:`read_col`, :func:`read_edgelist`), checked before the file is read.

    Returns
    -------
    Matrix
        0-based; ``A[i, j]`` present means an edge i -> j.

    Raises
    ------
    InvalidValue
        ``path`` is not a path; the file is missing, not a regular file, unreadable, damaged
        (gzip) or malformed (the message names the file and, where known, the line); an
        unknown or invalid option.
    DomainMismatch
        A ``dtype`` option that is not a supported type.
    OutOfMemory
        The file's declared size would not fit the memory free now.
    """
    name = file_name(path, "read")
    stem = name.lower()[:-3] if is_gzip(name) else name.lower()
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
        raise InvalidValue(f"read {name}: {reader.__name__} takes options {sorted(known)}; "
                           f"given {sorted(unknown)}")
    return reader(name, **options)
