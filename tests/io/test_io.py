"""``semiring.io``: Matrix Market, DIMACS ``.gr``/``.col`` and edge lists, read and written.

Every reader is checked against an independent oracle: ``scipy.io.mmread`` (Matrix Market),
networkx (edge lists, ``.col``), or expectations written out by hand / computed with a dict.
Every malformed input must raise exactly :class:`semiring.InvalidValue`, and the message must
name the file and, where the fault sits on one line, that line's (1-based) number.
"""

from __future__ import annotations

import gzip
import os
import re
import zlib

import networkx as nx
import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import semiring as sr
from semiring import InvalidValue


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------------------------
# DIMACS shortest path .gr
# ---------------------------------------------------------------------------------------------
class TestGr:
    def test_basic(self, tmp_path):
        text = ("c 9th DIMACS challenge\nc\np sp 5 6\n"
                "a 1 2 7\na 2 3 1\n\na 5 1 9\nc in between\na 3 1 0\na 4 5 2\na 1 5 3\n")
        A = sr.io.read(put(tmp_path, "a.gr", text))
        assert A.shape == (5, 5)
        assert A.dtype == np.int64
        assert entries(A) == {(0, 1): 7, (1, 2): 1, (4, 0): 9, (2, 0): 0, (3, 4): 2, (0, 4): 3}

    def test_parallel_arcs_keep_minimum(self, tmp_path):
        text = "p sp 3 5\na 1 2 7\na 1 2 3\na 1 2 5\na 2 1 4\na 3 2 8\n"
        A = sr.io.read(put(tmp_path, "par.gr", text))
        assert entries(A) == {(0, 1): 3, (1, 0): 4, (2, 1): 8}

    def test_gz(self, tmp_path):
        text = "p sp 3 2\na 1 2 3\na 3 1 4\n"
        A = sr.io.read(put(tmp_path, "z.gr.gz", text))
        assert entries(A) == {(0, 1): 3, (2, 0): 4}

    def test_no_arcs(self, tmp_path):
        A = sr.io.read(put(tmp_path, "e.gr", "p sp 4 0\n"))
        assert A.shape == (4, 4) and A.nvals == 0

    def test_random_against_dict_oracle(self, tmp_path):
        rng = np.random.default_rng(7)
        n, m = 30, 300
        u, v, w = rng.integers(1, n + 1, m), rng.integers(1, n + 1, m), rng.integers(0, 50, m)
        lines = [f"c random\np sp {n} {m}"] + [f"a {a} {b} {c}" for a, b, c in zip(u, v, w)]
        want = {}
        for a, b, c in zip(u, v, w):
            k = (int(a) - 1, int(b) - 1)
            want[k] = min(want.get(k, int(c)), int(c))
        A = sr.io.read(put(tmp_path, "r.gr", "\n".join(lines) + "\n"))
        assert entries(A) == want
        # networkx agrees on the edge set
        G = nx.DiGraph()
        G.add_edges_from(zip(u - 1, v - 1))
        assert set(entries(A)) == {(int(a), int(b)) for a, b in G.edges}


GR_BAD = [
    ("count_mismatch", "p sp 4 3\na 1 2 7\n", None),
    ("count_mismatch_more", "p sp 4 1\na 1 2 7\na 2 3 1\n", None),
    ("arc_before_p", "a 1 2 7\np sp 4 1\n", 1),
    ("arc_before_p_after_comment", "c only\na 1 2 7\np sp 4 1\n", 2),
    ("missing_p", "c only a comment\n", None),
    ("p_wrong_problem", "p max 4 1\na 1 2 3\n", 1),
    ("p_non_integer", "c x\np sp four 1\na 1 2 3\n", 2),
    ("p_wrong_field_count", "p sp 4 1 7\na 1 2 1\n", 1),
    ("p_negative", "p sp 4 -1\n", 1),
    ("second_p", "p sp 4 1\np sp 4 1\na 1 2 3\n", 2),
    ("unknown_line", "p sp 4 1\nq 1 2 3\n", 2),
    ("arc_too_few_fields", "p sp 4 2\na 1 2 1\na 1 2\n", 3),
    ("arc_too_many_fields", "p sp 4 1\na 1 2 3 4\n", 2),
    ("arc_non_integer", "p sp 4 2\na 1 2 1\na 1 x 5\n", 3),
    ("weight_non_integer", "p sp 4 2\na 1 2 1\na 1 2 3.5\n", 3),
    ("weight_overflow", "p sp 4 1\na 1 2 99999999999999999999\n", 2),
    ("vertex_past_n", "p sp 4 1\na 1 5 7\n", 2),
    ("vertex_zero", "p sp 4 2\na 1 2 7\na 0 2 7\n", 3),
    ("first_bad_line_is_named", "p sp 4 2\na 1 9 1\na 9 1 1\n", 2),
]


@pytest.mark.parametrize("name,text,line", GR_BAD, ids=[b[0] for b in GR_BAD])
def test_gr_malformed(tmp_path, name, text, line):
    p = put(tmp_path, f"{name}.gr", text)
    assert_invalid(p, line, sr.io.read, p)


def test_gr_gz_malformed_names_line(tmp_path):
    p = put(tmp_path, "bad.gr.gz", "c\np sp 3 2\na 1 2 3\na 1 4 3\n")
    assert_invalid(p, 4, sr.io.read, p)


# ---------------------------------------------------------------------------------------------
# DIMACS coloring .col
# ---------------------------------------------------------------------------------------------
class TestCol:
    def test_both_directions_duplicates_selfloops(self, tmp_path):
        text = "c myciel-like\np edge 6 6\ne 1 2\ne 2 1\ne 3 3\ne 4 5\ne 1 2\ne 5 6\n"
        A = sr.io.read(put(tmp_path, "a.col", text))
        assert A.shape == (6, 6)
        assert A.dtype == np.bool_
        want = {(0, 1), (1, 0), (3, 4), (4, 3), (4, 5), (5, 4)}
        assert entries(A) == {k: True for k in want}

    def test_isolated_vertices_keep_the_size(self, tmp_path):
        A = sr.io.read(put(tmp_path, "iso.col", "p edge 10 1\ne 1 10\n"))
        assert A.shape == (10, 10) and set(entries(A)) == {(0, 9), (9, 0)}

    def test_gz(self, tmp_path):
        A = sr.io.read(put(tmp_path, "z.col.gz", "p edge 3 2\ne 1 3\ne 3 2\n"))
        assert set(entries(A)) == {(0, 2), (2, 0), (2, 1), (1, 2)}

    def test_random_against_networkx(self, tmp_path):
        rng = np.random.default_rng(3)
        n, m = 25, 120
        u, v = rng.integers(1, n + 1, m), rng.integers(1, n + 1, m)
        text = f"p edge {n} {m}\n" + "".join(f"e {a} {b}\n" for a, b in zip(u, v))
        A = sr.io.read(put(tmp_path, "r.col", text))
        G = nx.Graph()
        G.add_nodes_from(range(n))
        G.add_edges_from(zip(u - 1, v - 1))
        G.remove_edges_from(list(nx.selfloop_edges(G)))
        S = nx.to_scipy_sparse_array(G, nodelist=range(n), dtype=bool)
        assert entries(A) == scipy_entries(S)


COL_BAD = [
    ("edge_before_p", "e 1 2\np edge 5 1\n", 1),
    ("missing_p", "c nothing here\n", None),
    ("p_wrong_problem", "p sp 5 1\ne 1 2\n", 1),
    ("p_too_few_fields", "p edge 5\ne 1 2\n", 1),
    ("edge_too_many_fields", "p edge 5 2\ne 1 2\ne 1 2 3\n", 3),
    ("edge_too_few_fields", "p edge 5 1\ne 1\n", 2),
    ("edge_non_integer", "p edge 5 1\ne 1 b\n", 2),
    ("vertex_past_n", "c\nc\np edge 5 1\ne 1 6\n", 4),
    ("vertex_zero", "p edge 5 1\ne 0 2\n", 2),
    ("unknown_line", "p edge 5 1\nx 1 2\n", 2),
]


@pytest.mark.parametrize("name,text,line", COL_BAD, ids=[b[0] for b in COL_BAD])
def test_col_malformed(tmp_path, name, text, line):
    p = put(tmp_path, f"{name}.col", text)
    assert_invalid(p, line, sr.io.read, p)


# ---------------------------------------------------------------------------------------------
# whitespace edge lists
# ---------------------------------------------------------------------------------------------
class TestEdgeList:
    def test_two_columns_comments_blank_lines(self, tmp_path):
        text = "# a comment\n0 1\n1\t2\n% another\n\n   2    0   \n"
        A = sr.io.read(put(tmp_path, "e.txt", text))
        assert A.shape == (3, 3) and A.dtype == np.bool_
        assert entries(A) == {(0, 1): True, (1, 2): True, (2, 0): True}

    def test_three_columns_integer(self, tmp_path):
        A = sr.io.read(put(tmp_path, "w.txt", "0 3 5\n2 1 -7\n1 1 0\n"))
        assert A.shape == (4, 4) and A.dtype == np.int64
        assert entries(A) == {(0, 3): 5, (2, 1): -7, (1, 1): 0}

    def test_three_columns_float(self, tmp_path):
        A = sr.io.read(put(tmp_path, "f.edges", "0 1 0.5\n1 2 7\n2 0 -1e-3\n"))
        assert A.dtype == np.float64
        assert entries(A) == {(0, 1): 0.5, (1, 2): 7.0, (2, 0): -1e-3}

    def test_base_one(self, tmp_path):
        A = sr.io.read(put(tmp_path, "b.txt", "1 2 5\n2 3 7\n"), base=1)
        assert A.shape == (3, 3)
        assert entries(A) == {(0, 1): 5, (1, 2): 7}

    def test_symmetric(self, tmp_path):
        A = sr.io.read(put(tmp_path, "s.txt", "1 2 5\n2 3 7\n"), base=1, symmetric=True)
        assert entries(A) == {(0, 1): 5, (1, 0): 5, (1, 2): 7, (2, 1): 7}

    def test_symmetric_pattern(self, tmp_path):
        A = sr.io.read(put(tmp_path, "sp.txt", "0 1\n2 1\n"), symmetric=True)
        assert set(entries(A)) == {(0, 1), (1, 0), (2, 1), (1, 2)}

    def test_symmetric_self_loop_once(self, tmp_path):
        # a self-loop is its own reverse: it must become one entry, not a duplicate
        A = sr.io.read(put(tmp_path, "loop.txt", "0 0 4\n0 1 2\n"), symmetric=True)
        assert entries(A) == {(0, 0): 4, (0, 1): 2, (1, 0): 2}

    def test_n_option(self, tmp_path):
        # n sets the vertex count: vertices past the largest listed one are isolated
        A = sr.io.read(put(tmp_path, "n.txt", "0 1\n"), n=5)
        assert A.shape == (5, 5) and A.dtype == np.bool_
        assert entries(A) == {(0, 1): True}
        # with weights and base 1: vertex n (the last one) is allowed, and the values are kept
        B = sr.io.read(put(tmp_path, "nw.txt", "1 7 2.5\n3 1 -4\n"), n=7, base=1)
        assert B.shape == (7, 7) and B.dtype == np.float64
        assert entries(B) == {(0, 6): 2.5, (2, 0): -4.0}
        # symmetric: each edge in both directions, the n x n shape kept
        S = sr.io.read(put(tmp_path, "ns.txt", "0 2 3\n"), n=4, symmetric=True)
        assert S.shape == (4, 4) and S.dtype == np.int64
        assert entries(S) == {(0, 2): 3, (2, 0): 3}

    def test_duplicates_error_names_file_or_dup_op(self, tmp_path):
        p = put(tmp_path, "dup.txt", "0 1 3\n1 2 1\n0 1 2\n")
        assert_invalid(p, None, sr.io.read, p)
        assert entries(sr.io.read(p, dup_op=sr.binary.min)) == {(0, 1): 2, (1, 2): 1}

    def test_random_against_networkx(self, tmp_path):
        rng = np.random.default_rng(11)
        n = 50
        pairs = {(int(a), int(b)) for a, b in rng.integers(0, n, (400, 2))}
        w = {k: round(float(x), 6) for k, x in zip(sorted(pairs), rng.uniform(-5, 5, len(pairs)))}
        p = tmp_path / "rand.txt"
        p.write_text("# u v w\n" + "".join(f"{a} {b} {x!r}\n" for (a, b), x in w.items()))
        A = sr.io.read(p)
        G = nx.read_weighted_edgelist(p, nodetype=int, create_using=nx.DiGraph)
        assert entries(A) == {(a, b): d["weight"] for a, b, d in G.edges(data=True)}


EDGE_BAD = [
    ("four_fields", "0 1\n1 2 3 4\n", 2, {}),
    ("one_field", "0 1\n7\n", 2, {}),
    ("mixed_widths", "1 2\n2 3 7\n", 2, {}),
    ("mixed_widths_other_way", "1 2 7\n2 3\n", 2, {}),
    ("non_integer_vertex", "0 1\n1 x\n", 2, {}),
    ("fractional_vertex", "# c\n0 1.0\n", 2, {}),
    ("non_numeric_weight", "0 1 2\n0 2 a\n", 2, {}),
    ("below_base", "1 2\n0 1\n", 2, {"base": 1}),
    ("negative_vertex", "0 -1\n", 1, {}),
    ("past_n", "0 1\n0 5\n", 2, {"n": 3}),
    ("weight_overflow", "0 1 99999999999999999999\n", 1, {}),
    ("vertex_overflow", "0 99999999999999999999\n", 1, {}),
    ("no_edges", "# nothing\n\n", None, {}),
]


@pytest.mark.parametrize("name,text,line,opts", EDGE_BAD, ids=[b[0] for b in EDGE_BAD])
def test_edgelist_malformed(tmp_path, name, text, line, opts):
    p = put(tmp_path, f"{name}.txt", text)
    assert_invalid(p, line, sr.io.read, p, **opts)


# ---------------------------------------------------------------------------------------------
# write_mtx
# ---------------------------------------------------------------------------------------------
class TestWriteMtx:
    @pytest.mark.parametrize("dtype,vals", [
        ("bool", [True, True, True, True]),
        ("int64", [0, -7, 2**62, np.iinfo(np.int64).min]),
        ("float64", [0.0, 0.1, 1 / 3, -2.5e300]),
    ])
    def test_round_trip(self, tmp_path, dtype, vals):
        A = sr.Matrix.from_coo([0, 1, 2, 2], [1, 3, 0, 2], vals, nrows=3, ncols=4, dtype=dtype)
        p = tmp_path / f"rt_{dtype}.mtx"
        sr.io.write_mtx(p, A, comment="round trip")
        assert p.exists()
        B = sr.io.read(p)
        assert B.isequal(A, check_dtype=True), (entries(A), entries(B))
        # scipy reads the same file to the same entries (stored zeros included)
        got = scipy_entries(scipy.io.mmread(p))
        if dtype == "bool":
            assert set(got) == set(entries(A))
        else:
            assert got == entries(A)
        assert "round trip" in p.read_text()

    def test_round_trip_random(self, tmp_path):
        rng = np.random.default_rng(5)
        for k, dtype in enumerate(["int64", "float64", "bool"]):
            n = 30
            keys = rng.choice(n * n, 100, replace=False)
            if dtype == "bool":
                vals = None
            elif dtype == "int64":
                vals = rng.integers(-(2**40), 2**40, 100)
                vals[::7] = 0
            else:
                vals = rng.standard_normal(100) * 10.0 ** rng.integers(-200, 200, 100)
                vals[::7] = 0.0
            A = sr.Matrix.from_coo(keys // n, keys % n, vals, nrows=n, ncols=n, dtype=dtype)
            p = tmp_path / f"rand{k}.mtx"
            sr.io.write_mtx(p, A)
            assert sr.io.read(p).isequal(A, check_dtype=True)

    def test_empty_round_trip(self, tmp_path):
        A = sr.Matrix.from_coo([], [], None, nrows=3, ncols=5, dtype="float64")
        p = tmp_path / "empty.mtx"
        sr.io.write_mtx(p, A)
        B = sr.io.read(p)
        assert B.shape == (3, 5) and B.nvals == 0

    def test_lower_triangle_explicit_zero_round_trip(self, tmp_path):
        # a single explicit zero below the diagonal: the matrix is not symmetric (A[0, 1] is absent)
        A = sr.Matrix.from_coo([1], [0], [0.0], nrows=2, ncols=2)
        p = tmp_path / "z.mtx"
        sr.io.write_mtx(p, A)
        assert entries(sr.io.read(p)) == {(1, 0): 0.0}

    def test_gz_path(self, tmp_path):
        A = sr.Matrix.from_coo([0, 1], [1, 0], [1.5, 2.5], nrows=2, ncols=2)
        p = tmp_path / "out.mtx.gz"
        sr.io.write_mtx(p, A)
        assert p.exists(), f"write_mtx wrote {sorted(x.name for x in tmp_path.iterdir())}, not out.mtx.gz"
        assert sr.io.read(p).isequal(A, check_dtype=True)

    def test_uint64_beyond_int64_not_wrapped(self, tmp_path):
        # the file's integers are int64 (write_mtx's docstring): a uint64 value above 2**63 - 1
        # is refused before anything is written, never wrapped to a negative number
        big = np.iinfo(np.uint64).max
        A = sr.Matrix.from_coo([0], [1], [big], nrows=2, ncols=2, dtype="uint64")
        p = tmp_path / "u.mtx"
        with pytest.raises(InvalidValue, match=f"write_mtx: uint64 value {big} does not fit the int64 integers "
                                               "written"):
            sr.io.write_mtx(p, A)
        assert not p.exists()
        # the largest value that fits is written as it is
        top = int(np.iinfo(np.int64).max)
        sr.io.write_mtx(p, sr.Matrix.from_coo([0], [1], [top], nrows=2, ncols=2, dtype="uint64"))
        assert f"1 2 {top}" in p.read_text()
        assert entries(sr.io.read(p)) == {(0, 1): top}

    def test_not_a_matrix(self, tmp_path):
        with pytest.raises(InvalidValue):
            sr.io.write_mtx(tmp_path / "x.mtx", np.eye(2))


# -- networkx ---------------------------------------------------------------------------------
def test_networkx_round_trip_keeps_weights_nodes_and_explicit_zeros():
    import networkx as nx

    G = nx.DiGraph()
    G.add_weighted_edges_from([("a", "b", 2.5), ("b", "c", 0.0), ("c", "a", 1.0)])
    G.add_node("lonely")
    A, nodes = sr.io.from_networkx(G, weight="weight")
    assert nodes == ["a", "b", "c", "lonely"] and A.dtype == np.float64 and A.nvals == 3
    assert A.get(1, 2) == 0.0  # an explicit zero is an entry, not an absent edge
    H = sr.io.to_networkx(A, nodes=nodes)
    assert set(H.nodes) == set(G.nodes)
    assert {(u, v, d["weight"]) for u, v, d in H.edges(data=True)} == set(G.edges(data="weight"))


def test_networkx_pattern_int_weights_nodelist_and_multigraph_sums():
    import networkx as nx

    G = nx.karate_club_graph()
    A, nodes = sr.io.from_networkx(G)
    assert A.dtype == np.bool_ and A.nvals == 2 * G.number_of_edges() and nodes == list(range(34))
    W, _ = sr.io.from_networkx(G, weight="weight")
    assert W.dtype == np.int64
    assert int(sr.reduce_scalar(W, sr.monoid.plus)) == 2 * sum(w for _, _, w in G.edges(data="weight"))
    order = list(reversed(range(34)))
    B, nodes = sr.io.from_networkx(G, nodelist=order)
    assert nodes == order and B.get(33 - 0, 33 - 1) is not None  # edge (0, 1) in reversed numbering
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    C, _ = sr.io.from_networkx(M, weight="weight")
    assert C.get(0, 1) == 2 and C.get(1, 2) == 1  # parallel edges add up, missing weights count 1


def test_networkx_bfs_levels_match_networkx():
    import networkx as nx

    G = nx.les_miserables_graph()
    A, nodes = sr.io.from_networkx(G)
    src = nodes.index("Valjean")
    lv = sr.algorithms.bfs(A, src).level.to_dense(-1)
    expect = nx.single_source_shortest_path_length(G, "Valjean")
    assert {nodes[i]: int(d) for i, d in enumerate(lv) if d >= 0} == expect
    back = sr.io.to_networkx(A, nodes=nodes, directed=False)
    assert nx.utils.graphs_equal(nx.Graph(back.edges), nx.Graph(G.edges))


def test_networkx_conversion_errors_say_what_was_expected():
    import networkx as nx

    with pytest.raises(sr.InvalidValue, match="expected a networkx graph"):
        sr.io.from_networkx([(0, 1)])
    with pytest.raises(sr.InvalidValue, match="exactly once"):
        sr.io.from_networkx(nx.path_graph(3), nodelist=[0, 1, 1])
    G = nx.Graph()
    G.add_edge(0, 1, weight="heavy")
    with pytest.raises(sr.InvalidValue, match="must be a number; given 'heavy'"):
        sr.io.from_networkx(G, weight="weight")
    with pytest.raises(sr.DimensionMismatch, match="square"):
        sr.io.to_networkx(sr.Matrix.from_coo([0], [1], nrows=2, ncols=3))
    with pytest.raises(sr.InvalidValue, match="symmetric"):
        sr.io.to_networkx(sr.Matrix.from_coo([0], [1], nrows=2, ncols=2), directed=False)
    with pytest.raises(sr.InvalidValue, match="name each of the 2 rows"):
        sr.io.to_networkx(sr.Matrix.from_coo([0], [1], nrows=2, ncols=2), nodes=["x"])


class _Terminal:
    """A stand-in stderr that says it is a terminal and records what is written."""

    def __init__(self, tty):
        self.tty, self.text = tty, []

    def isatty(self):
        return self.tty

    def write(self, s):
        self.text.append(s)
        return len(s)

    def flush(self):
        pass


@pytest.mark.parametrize("tty", [True, False])
@pytest.mark.parametrize("suffix", [".gr", ".gr.gz", ".mtx", ".mtx.gz", ".txt"])
def test_large_file_reads_show_progress_only_on_a_terminal(tmp_path, monkeypatch, tty, suffix):
    from semiring.io import _text

    n = 300
    u = np.arange(n - 1)
    if suffix.startswith(".gr"):
        body = f"p sp {n} {n - 1}\n" + "".join(f"a {i + 1} {i + 2} {i % 7 + 1}\n" for i in u)
    elif suffix.startswith(".mtx"):
        body = f"%%MatrixMarket matrix coordinate integer general\n{n} {n} {n - 1}\n" + "".join(
            f"{i + 1} {i + 2} {i % 7 + 1}\n" for i in u)
    else:
        body = "".join(f"{i} {i + 1}\n" for i in u)
    path = tmp_path / f"g{suffix}"
    data = body.encode()
    path.write_bytes(gzip.compress(data) if suffix.endswith(".gz") else data)
    err = _Terminal(tty)
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr(_text, "PROGRESS_MIN_BYTES", 0)
    monkeypatch.setattr(_text, "SHOW_PROGRESS", True)
    A = sr.io.read(path)
    r, c, _ = A.to_coo()
    np.testing.assert_array_equal(np.sort(r[r < c]), u)  # the file was read whole through the bar
    shown = "".join(err.text)
    assert (f"reading g{suffix}" in shown) == tty
    # below the size threshold there is no bar even on a terminal
    err.text.clear()
    monkeypatch.setattr(_text, "PROGRESS_MIN_BYTES", path.stat().st_size + 1)
    sr.io.read(path)
    assert "reading" not in "".join(err.text)


@pytest.mark.parametrize("quiet", [False, True])
def test_command_line_quiet_turns_the_reading_bar_off(tmp_path, monkeypatch, capsys, quiet):
    from semiring.cli import main
    from semiring.io import _text

    path = tmp_path / "g.gr"
    path.write_text("p sp 3 2\na 1 2 1\na 2 3 1\n")
    err = _Terminal(True)
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr(_text, "PROGRESS_MIN_BYTES", 0)
    monkeypatch.setattr(_text, "SHOW_PROGRESS", True)
    assert main(["bfs", str(path), "--source", "0"] + (["--quiet"] if quiet else [])) == 0
    assert ("reading g.gr" in "".join(err.text)) == (not quiet)
    assert "bfs from 0" in capsys.readouterr().out
