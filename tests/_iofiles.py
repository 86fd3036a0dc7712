"""Helpers of the reader and writer tests of ``semiring.io`` (tests/io/test_io*.py): writing a
file (gzip-compressed by its name), the entries of a Matrix or of a scipy matrix as a dict, and
the check that a reader raises exactly InvalidValue naming the file and the line."""

from __future__ import annotations

import gzip
import os
import re

import pytest
import scipy.sparse as sp

from semiring import InvalidValue


def put(tmp_path, name, text):
    """Write ``text`` to ``tmp_path / name`` (gzip-compressed when the name ends in ``.gz``)."""
    path = tmp_path / name
    if name.endswith(".gz"):
        with gzip.open(path, "wt", encoding="ascii") as f:
            f.write(text)
    else:
        path.write_text(text, encoding="ascii")
    return path


def entries(A):
    """``{(i, j): value}`` of a Matrix, values as Python scalars."""
    r, c, v = A.to_coo()
    return {(int(i), int(j)): x.item() for i, j, x in zip(r, c, v)}


def scipy_entries(S):
    """``{(i, j): value}`` of a scipy sparse matrix, stored zeros included, duplicates refused."""
    C = sp.coo_array(S)
    out = {}
    for i, j, x in zip(C.row, C.col, C.data):
        assert (int(i), int(j)) not in out
        out[int(i), int(j)] = x.item()
    return out


def assert_invalid(path, line, call, *args, **kwargs):
    """``call(*args)`` raises exactly InvalidValue naming ``path`` and, if given, ``line``."""
    with pytest.raises(InvalidValue) as info:
        call(*args, **kwargs)
    assert type(info.value) is InvalidValue
    msg = str(info.value)
    assert os.fspath(path) in msg, f"message does not name the file: {msg!r}"
    if line is not None:
        assert re.search(rf"\bline {line}\b", msg), f"message does not name line {line}: {msg!r}"
    return msg
