"""Helpers of the hostile-file tests of ``semiring.io`` (tests/io/test_io_hostile*.py): writing a
file of bytes or text, the check that a reader raises exactly the expected error naming the
file (and the line), the entries of a Matrix as a dict, and a valid text of each format."""

from __future__ import annotations

import gzip
import os
import re

import pytest

from semiring import SemiringError

#: the start of a Matrix Market coordinate header
MM = "%%MatrixMarket matrix coordinate"


def put(tmp_path, name, data):
    """Write ``data`` (str or bytes) to ``tmp_path / name``, gzip-compressed if the name ends
    in .gz (any case)."""
    data = data.encode("latin-1") if isinstance(data, str) else data
    path = tmp_path / name
    path.write_bytes(gzip.compress(data, mtime=0) if name.lower().endswith(".gz") else data)
    return path


def assert_raises(cls, path, line, call, *args, **kwargs):
    """``call(*args)`` raises exactly ``cls``, naming ``path`` and (if given) ``line``."""
    with pytest.raises(SemiringError) as info:
        call(*args, **kwargs)
    assert type(info.value) is cls, f"{type(info.value).__name__}: {info.value}"
    msg = str(info.value)
    assert os.fspath(path) in msg, f"the message does not name the file: {msg!r}"
    if line is not None:
        assert re.search(rf", line {line}:", msg), f"the message does not name line {line}: {msg!r}"
    return msg


def entries(A):
    r, c, v = A.to_coo()
    return {(int(i), int(j)): x.item() for i, j, x in zip(r, c, v)}


#: a valid file of each reader's format, by extension
READER_TEXT = {
    "mtx": f"{MM} real general\n3 3 2\n1 2 0.5\n3 1 -2\n",
    "gr": "c x\np sp 3 2\na 1 2 5\na 3 1 7\n",
    "col": "p edge 3 2\ne 1 2\ne 2 3\n",
    "txt": "0 1 5\n2 0 7\n",
}
