"""``semiring.io``: Matrix Market files read, against ``scipy.io.mmread`` and expectations
written out by hand / computed with a dict.

Every malformed input must raise exactly :class:`semiring.InvalidValue`, and the message must
name the file and, where the fault sits on one line, that line's (1-based) number."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import semiring as sr
from _iofiles import assert_invalid, entries, put, scipy_entries


MM = "%%MatrixMarket matrix coordinate"


# ---------------------------------------------------------------------------------------------
# Matrix Market
# ---------------------------------------------------------------------------------------------
class TestMatrixMarket:
    def test_real_general_with_explicit_zero(self, tmp_path):
        p = put(tmp_path, "a.mtx", f"{MM} real general\n% a comment\n3 4 4\n1 1 0\n2 4 -1.5\n3 2 2.25e3\n1 3 0.0\n")
        A = sr.io.read(p)
        assert A.shape == (3, 4)
        assert A.dtype == np.float64
        assert A.nvals == 4  # the two stored zeros are entries
        want = {(0, 0): 0.0, (1, 3): -1.5, (2, 1): 2250.0, (0, 2): 0.0}
        assert entries(A) == want
        assert entries(A) == scipy_entries(scipy.io.mmread(p))

    def test_integer_general(self, tmp_path):
        p = put(tmp_path, "i.mtx", f"{MM} integer general\n2 3 3\n1 2 7\n2 3 -9000000000\n2 1 0\n")
        A = sr.io.read(p)
        assert A.dtype == np.int64
        assert entries(A) == {(0, 1): 7, (1, 2): -9_000_000_000, (1, 0): 0}
        assert entries(A) == scipy_entries(scipy.io.mmread(p))

    def test_pattern_general(self, tmp_path):
        p = put(tmp_path, "p.mtx", f"{MM} pattern general\n3 3 3\n1 2\n3 3\n2 1\n")
        A = sr.io.read(p)
        assert A.dtype == np.bool_
        assert entries(A) == {(0, 1): True, (2, 2): True, (1, 0): True}
        assert set(entries(A)) == set(scipy_entries(scipy.io.mmread(p)))

    def test_real_symmetric_both_triangles_diagonal_once(self, tmp_path):
        p = put(tmp_path, "s.mtx", f"{MM} real symmetric\n3 3 4\n1 1 5\n2 1 1.5\n3 2 0\n3 3 -1\n")
        A = sr.io.read(p)
        assert A.dtype == np.float64
        want = {(0, 0): 5.0, (1, 0): 1.5, (0, 1): 1.5, (2, 1): 0.0, (1, 2): 0.0, (2, 2): -1.0}
        assert entries(A) == want
        assert A.nvals == 6  # 2 off-diagonal entries twice, 2 diagonal entries once
        assert entries(A) == scipy_entries(scipy.io.mmread(p))

    def test_pattern_symmetric(self, tmp_path):
        p = put(tmp_path, "ps.mtx", f"{MM} pattern symmetric\n4 4 3\n1 1\n3 1\n4 2\n")
        A = sr.io.read(p)
        assert A.dtype == np.bool_
        assert set(entries(A)) == {(0, 0), (2, 0), (0, 2), (3, 1), (1, 3)}
        assert set(entries(A)) == set(scipy_entries(scipy.io.mmread(p)))

    def test_integer_symmetric(self, tmp_path):
        p = put(tmp_path, "is.mtx", f"{MM} integer symmetric\n2 2 2\n2 1 -3\n2 2 4\n")
        A = sr.io.read(p)
        assert A.dtype == np.int64
        assert entries(A) == {(1, 0): -3, (0, 1): -3, (1, 1): 4}

    def test_gz_reads_like_plain(self, tmp_path):
        text = f"{MM} real symmetric\n%c\n4 4 3\n2 1 0.5\n4 4 0\n4 3 -2\n"
        A = sr.io.read(put(tmp_path, "x.mtx", text))
        B = sr.io.read(put(tmp_path, "x.mtx.gz", text))
        assert A.isequal(B, check_dtype=True)
        assert entries(B) == {(1, 0): 0.5, (0, 1): 0.5, (3, 3): 0.0, (3, 2): -2.0, (2, 3): -2.0}

    def test_empty_matrix_keeps_shape(self, tmp_path):
        A = sr.io.read(put(tmp_path, "e.mtx", f"{MM} real general\n5 7 0\n"))
        assert A.shape == (5, 7) and A.nvals == 0 and A.dtype == np.float64

    def test_header_comments_and_blank_lines(self, tmp_path):
        text = f"{MM} integer general\n% one\n%two\n\n2 2 1\n2 2 9\n"
        assert entries(sr.io.read(put(tmp_path, "c.mtx", text))) == {(1, 1): 9}

    def test_duplicates_error_or_dup_op(self, tmp_path):
        p = put(tmp_path, "d.mtx", f"{MM} integer general\n2 2 3\n1 1 4\n1 1 6\n2 1 1\n")
        assert_invalid(p, None, sr.io.read, p)
        assert entries(sr.io.read(p, dup_op=sr.binary.plus)) == {(0, 0): 10, (1, 0): 1}
        assert entries(sr.io.read(p, dup_op=sr.binary.min)) == {(0, 0): 4, (1, 0): 1}

    @pytest.mark.parametrize("field", ["real", "integer", "pattern"])
    @pytest.mark.parametrize("symmetry", ["general", "symmetric"])
    def test_random_against_scipy(self, tmp_path, field, symmetry):
        rng = np.random.default_rng(zlib.crc32(f"{field}-{symmetry}".encode()))
        n = 40
        S = sp.random(n, n, density=0.1, random_state=rng, format="coo")
        if field == "integer":
            S.data = rng.integers(-1000, 1000, S.nnz).astype(np.float64)
        S.data[::5] = 0.0  # stored zeros
        if symmetry == "symmetric":
            S = sp.coo_array(sp.tril(S, k=0))
            # make it symmetric so that scipy writes it as symmetric
            S = sp.coo_array(S + sp.tril(S, k=-1).T)
        S = sp.coo_array(S)
        path = tmp_path / f"r_{field}_{symmetry}.mtx"
        scipy.io.mmwrite(path, S if field != "integer" else S.astype(np.int64), field=field, symmetry=symmetry)
        A = sr.io.read(path)
        assert A.dtype == {"real": np.float64, "integer": np.int64, "pattern": np.bool_}[field]
        want = scipy_entries(scipy.io.mmread(path))
        got = entries(A)
        if field == "pattern":
            assert set(got) == set(want) and all(v is True for v in got.values())
        else:
            assert got == want


# --- malformed Matrix Market files: (name, text, line that must be named or None) -------------
MTX_BAD = [
    ("banner", "hello\n3 3 0\n", 1),
    ("empty_file", "", 1),
    ("array_format", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1),
    ("complex_field", f"{MM} complex general\n1 1 1\n1 1 1 2\n", 1),
    ("skew_symmetric", f"{MM} real skew-symmetric\n2 2 1\n2 1 1\n", 1),
    ("header_only", f"{MM} real general\n", None),
    ("size_non_integer", f"{MM} integer general\n3 x 2\n1 1 1\n2 1 1\n", 2),
    ("size_wrong_field_count", f"{MM} real general\n% c\n3 3\n1 1 1\n", 3),
    ("size_negative", f"{MM} real general\n-2 2 0\n", 2),
    ("value_non_integer_word", f"{MM} integer general\n3 3 2\n1 1 x\n2 1 1\n", 3),
    ("value_non_integer_fraction", f"{MM} integer general\n2 2 1\n1 2 1.5\n", 3),
    ("value_non_real", f"{MM} real general\n2 2 2\n1 2 1.5\n2 2 abc\n", 4),
    ("value_integer_overflow", f"{MM} integer general\n3 3 1\n1 1 99999999999999999999\n", 3),
    ("too_few_fields", f"{MM} integer general\n3 3 2\n1 1 1\n2 1\n", 4),
    ("too_many_fields", f"{MM} real general\n2 2 1\n1 1 1 7\n", 3),
    ("row_out_of_range", f"{MM} integer general\n3 3 2\n1 1 1\n4 1 1\n", 4),
    ("col_out_of_range", f"{MM} real general\n2 2 1\n1 3 1\n", 3),
    ("index_zero", f"{MM} pattern general\n3 3 1\n0 1\n", 3),
    ("line_number_after_comments", f"{MM} integer general\n% c1\n%c2\n3 3 2\n1 1 1\n\n2 1 z\n", 7),
    ("too_many_entries", f"{MM} pattern general\n3 3 2\n1 1\n3 2\n2 2\n", 5),
    ("truncated", f"{MM} real general\n3 3 3\n1 1 0\n2 1 1.5\n", None),
]


@pytest.mark.parametrize("name,text,line", MTX_BAD, ids=[b[0] for b in MTX_BAD])
def test_mtx_malformed(tmp_path, name, text, line):
    p = put(tmp_path, f"{name}.mtx", text)
    assert_invalid(p, line, sr.io.read, p)


MTX_BAD_GZ = [b for b in MTX_BAD if b[0] in ("too_many_entries", "line_number_after_comments", "truncated")]


@pytest.mark.parametrize("name,text,line", MTX_BAD_GZ, ids=[b[0] for b in MTX_BAD_GZ])
def test_mtx_gz_malformed(tmp_path, name, text, line):
    p = put(tmp_path, f"{name}.mtx.gz", text)
    assert_invalid(p, line, sr.io.read, p)


def test_mtx_skew_symmetric_message_names_the_symmetry(tmp_path):
    p = put(tmp_path, "k.mtx", f"{MM} real skew-symmetric\n2 2 1\n2 1 1\n")
    msg = assert_invalid(p, 1, sr.io.read, p)
    assert "skew-symmetric" in msg


@pytest.mark.parametrize("name", ["none.mtx", "none.mtx.gz", "none.gr", "none.gr.gz", "none.col", "none.txt"])
def test_missing_file(tmp_path, name):
    p = tmp_path / name
    msg = assert_invalid(p, None, sr.io.read, p)
    assert "no such file" in msg.lower()
