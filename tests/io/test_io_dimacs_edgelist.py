"""``semiring.io``: DIMACS ``.gr`` and ``.col`` files and whitespace edge lists read, against
networkx and expectations written out by hand / computed with a dict.

Every malformed input must raise exactly :class:`semiring.InvalidValue`, and the message must
name the file and, where the fault sits on one line, that line's (1-based) number."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import semiring as sr
from _iofiles import assert_invalid, entries, put, scipy_entries


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


#: (extension, case, text, the line the message names or None, reader options): the malformed
#: DIMACS .gr and .col files and edge lists
MALFORMED = ([("gr", *b, {}) for b in GR_BAD] + [("col", *b, {}) for b in COL_BAD]
             + [("txt", *b) for b in EDGE_BAD])


@pytest.mark.parametrize("ext,name,text,line,opts", MALFORMED, ids=[f"{b[0]}-{b[1]}" for b in MALFORMED])
def test_malformed(tmp_path, ext, name, text, line, opts):
    p = put(tmp_path, f"{name}.{ext}", text)
    assert_invalid(p, line, sr.io.read, p, **opts)
