"""Hostile files for the readers of ``semiring.io``: huge declared sizes (checked against the
file and the free memory before anything is built: OutOfMemory naming the file and the size),
invalid options (checked, type and range, before the file is opened), and upper-case and
compressed extensions."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import semiring as sr
from _io_fuzz import fixed_free_memory
from semiring import DomainMismatch, InvalidValue, OutOfMemory, SemiringError
from _io_hostile import MM, READER_TEXT, assert_raises, entries, put


# ---------------------------------------------------------------------------------------------
# huge declared sizes: checked against the file and the free memory before anything is built
# ---------------------------------------------------------------------------------------------
def _peak_bytes(call):
    """(outcome, peak bytes traced while ``call()`` ran); NumPy reports its arrays to tracemalloc."""
    tracemalloc.start()
    try:
        try:
            out = call()
        except SemiringError as exc:
            out = exc
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


HUGE = [
    # (file name, text, shape declared, the entries if it is built)
    ("rows.mtx", f"{MM} real general\n1000000000000 1 1\n1 1 1\n", (10**12, 1), {(0, 0): 1.0}),
    ("rows.mtx.gz", f"{MM} pattern general\n1000000000000 1000 1\n1 1\n", (10**12, 1000), {(0, 0): True}),
    ("nodes.gr", "p sp 2000000000 0\n", (2 * 10**9, 2 * 10**9), {}),
    ("nodes.col", "p edge 2000000000 0\n", (2 * 10**9, 2 * 10**9), {}),
    ("vertex.txt", "0 1099511627776\n", (2**40 + 1, 2**40 + 1), {(0, 2**40): True}),
    ("vertex.txt.gz", "5 3\n0 4294967296\n", (2**32 + 1, 2**32 + 1), {(5, 3): True, (0, 2**32): True}),
]


@pytest.mark.parametrize("fname,text,shape,want", HUGE, ids=[h[0] for h in HUGE])
def test_huge_declared_size_is_checked_before_allocating(tmp_path, fname, text, shape, want):
    p = put(tmp_path, fname, text)
    with fixed_free_memory():  # 4 GiB free, on every machine
        out, peak = _peak_bytes(lambda: sr.io.read(p))
    assert peak < 64 << 20, f"{peak:,} bytes allocated for a file of {len(text)} bytes"
    if isinstance(out, SemiringError):
        # OutOfMemory naming the file and the size; or a shape beyond 2**63 positions refused
        assert type(out) is OutOfMemory and f"{shape[0]:,}" in str(out) or \
            type(out) is InvalidValue and shape[0] * shape[1] > 2**63 - 1, out
        assert str(p) in str(out), str(out)
    else:  # a store that keeps empty rows cheap may build it: then it must be right
        assert out.shape == shape and entries(out) == want


def test_edgelist_n_option_is_checked_like_a_declared_size(tmp_path):
    p = put(tmp_path, "n.txt", "0 1\n")
    with fixed_free_memory():
        out, peak = _peak_bytes(lambda: sr.io.read(p, n=2**40))
    assert peak < 64 << 20
    if isinstance(out, SemiringError):
        assert type(out) in (OutOfMemory, InvalidValue) and str(p) in str(out), out
    else:
        assert out.shape == (2**40, 2**40) and entries(out) == {(0, 1): True}


@pytest.mark.parametrize("field", ["pattern", "integer", "real"])
def test_declared_entry_count_beyond_the_file_allocates_nothing(tmp_path, field):
    value = "" if field == "pattern" else " 1"
    p = put(tmp_path, f"n_{field}.mtx", f"{MM} {field} general\n2 2 1000000000000\n1 1{value}\n")
    out, peak = _peak_bytes(lambda: sr.io.read(p))
    assert peak < 16 << 20, peak
    assert type(out) is InvalidValue and str(p) in str(out) and "the file has 1" in str(out), out


@pytest.mark.parametrize("fname,text,line", [
    ("a.mtx", f"{MM} real general\n% c\n99999999999999999999 1 0\n", 3),
    ("b.mtx", f"{MM} pattern general\n1 9223372036854775808 0\n", 2),
    ("c.gr", "p sp 99999999999999999999 0\n", 1),
    ("d.col", "c\np edge 9223372036854775808 0\n", 2),
])
def test_dimension_beyond_int64_is_invalid_with_its_line(tmp_path, fname, text, line):
    p = put(tmp_path, fname, text)
    assert_raises(InvalidValue, p, line, sr.io.read, p)


@pytest.mark.parametrize("fname,text", [
    ("a.mtx", f"{MM} real general\n4294967296 4294967296 1\n4294967296 1 2.5\n"),
    ("b.gr", "p sp 4294967296 1\na 4294967296 1 7\n"),
])
def test_shape_beyond_int64_positions_is_read_hypersparse(tmp_path, fname, text):
    # 2**64 positions: the matrix keeps row pointers for its nonempty rows only (hypersparse)
    p = put(tmp_path, fname, text)
    with fixed_free_memory():
        A, peak = _peak_bytes(lambda: sr.io.read(p))
    assert peak < 64 << 20
    assert isinstance(A, sr.Matrix) and A.shape == (2**32, 2**32) and A.format == "hypersparse"
    rows, cols, vals = A.to_coo()
    assert (rows.tolist(), cols.tolist(), vals.tolist()) == ([2**32 - 1], [0], [2.5 if fname == "a.mtx" else 7])


def test_edgelist_vertex_beyond_int64_is_refused(tmp_path):
    p = put(tmp_path, "c.txt", "0 9223372036854775807\n")  # n would be 2**63
    with fixed_free_memory():
        out, peak = _peak_bytes(lambda: sr.io.read(p))
    assert peak < 64 << 20
    assert type(out) in (InvalidValue, OutOfMemory) and str(p) in str(out), out


# ---------------------------------------------------------------------------------------------
# options: checked (type and range) before the file is even opened
# ---------------------------------------------------------------------------------------------
BAD_OPTIONS = [
    ("e.txt", {"base": -1}, InvalidValue, "base"),
    ("e.txt", {"base": 2}, InvalidValue, "base"),
    ("e.txt", {"base": "1"}, InvalidValue, "base"),
    ("e.txt", {"base": 1.0}, InvalidValue, "base"),
    ("e.txt", {"base": True}, InvalidValue, "base"),
    ("e.txt", {"base": None}, InvalidValue, "base"),
    ("e.txt", {"n": -1}, InvalidValue, "n must"),
    ("e.txt", {"n": "3"}, InvalidValue, "n must"),
    ("e.txt", {"n": 2.0}, InvalidValue, "n must"),
    ("e.txt", {"n": True}, InvalidValue, "n must"),
    ("e.txt", {"n": 2**63}, InvalidValue, "n must"),
    ("e.txt", {"symmetric": "yes"}, InvalidValue, "symmetric"),
    ("e.txt", {"symmetric": 1}, InvalidValue, "symmetric"),
    ("e.txt", {"dtype": "complex128"}, DomainMismatch, "dtype"),
    ("e.txt", {"dtype": "no such type"}, DomainMismatch, "dtype"),
    ("e.txt", {"dup_op": 5}, InvalidValue, "dup_op"),
    ("e.txt", {"dup_op": "no_such_op"}, InvalidValue, "dup_op"),
    ("e.mtx", {"dtype": object}, DomainMismatch, "dtype"),
    ("e.mtx", {"dup_op": lambda a, b: a}, InvalidValue, "dup_op"),
    ("e.mtx", {"dup_op": sr.binary.firsti}, DomainMismatch, "dup_op"),
    ("e.gr", {"dtype": "complex64"}, DomainMismatch, "dtype"),
    ("e.col", {"dtype": "int64"}, InvalidValue, "takes options"),
    ("e.mtx", {"base": 1}, InvalidValue, "takes options"),
]


@pytest.mark.parametrize("fname,opts,cls,words", BAD_OPTIONS,
                         ids=[f"{f}-{next(iter(o))}={o[next(iter(o))]!r}" for f, o, _, _ in BAD_OPTIONS])
def test_invalid_option_is_refused_before_reading(tmp_path, fname, opts, cls, words):
    missing = tmp_path / fname  # never created: the option must be refused first
    with pytest.raises(SemiringError) as info:
        sr.io.read(missing, **opts)
    assert type(info.value) is cls, f"{type(info.value).__name__}: {info.value}"
    assert words in str(info.value), str(info.value)


def test_base_minus_one_does_not_shift_ids(tmp_path):
    p = put(tmp_path, "e.el", "1 2\n2 3\n")
    with pytest.raises(InvalidValue, match=r"read_edgelist: base must be an integer in \[0, 1\]; given -1"):
        sr.io.read(p, base=-1)
    assert entries(sr.io.read(p, base=np.int64(1), n=np.int32(3))) == {(0, 1): True, (1, 2): True}


# ---------------------------------------------------------------------------------------------
# extensions in any case, compressed or not
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt,name", [("mtx", "G.MTX.GZ"), ("mtx", "g.Mtx.Gz"), ("mtx", "G.MTX"), ("gr", "R.GR.GZ"),
                                      ("col", "C.COL.GZ"), ("txt", "E.TXT.GZ"), ("txt", "e.el.GZ")])
def test_extension_in_any_case(tmp_path, fmt, name):
    plain = sr.io.read(put(tmp_path, f"plain.{fmt}", READER_TEXT[fmt]))
    A = sr.io.read(put(tmp_path, name, READER_TEXT[fmt]))
    assert A.isequal(plain, check_dtype=True)


def test_write_mtx_compresses_an_upper_case_gz(tmp_path):
    A = sr.Matrix.from_coo([0, 1], [1, 0], [1.5, -2.0], nrows=2, ncols=2)
    p = tmp_path / "OUT.MTX.GZ"
    sr.io.write_mtx(p, A)
    assert p.read_bytes()[:2] == b"\x1f\x8b"
    assert sr.io.read(p).isequal(A, check_dtype=True)
