"""Triangle counting against networkx, LAGraph's published counts and LDBC Graphalytics' LCC.

Oracles: ``networkx.triangles`` (per vertex; its sum / 3 for the total) on generated graphs with
isolated vertices, self-loops and explicit zeros; the counts in LAGraph's test_TriangleCount.c
(read from that file: karate 45, A 11, jagmesh7 2,016, bcsstk13 342,300, ...); the LDBC
Graphalytics local clustering coefficients of the undirected validation graphs, which give each
vertex's triangles as ``lcc * d (d - 1) / 2``.
"""

from __future__ import annotations

import re

import networkx as nx
import numpy as np
import pytest

import semiring as sr
from semiring.algorithms import triangles as tri_module
from semiring.backends._xp import asnumpy

triangle_count = sr.algorithms.triangle_count
per_vertex = sr.algorithms.triangles_per_vertex
PRESORTS = [None, "ascending", "descending", "auto"]


def nx_of(A):
    """The undirected networkx graph of A's pattern (self-loops kept: networkx ignores them)."""
    rows, cols, _ = (asnumpy(t) for t in A.to_coo())
    G = nx.Graph()
    G.add_nodes_from(range(A.nrows))
    G.add_edges_from(zip(rows.tolist(), cols.tolist()))
    return G


def nx_triangles(A):
    t = nx.triangles(nx_of(A))
    return np.array([t[i] for i in range(A.nrows)], dtype=np.int64)


def symmetric(n, edges, values=None):
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    r, c = np.concatenate([e[:, 0], e[:, 1]]), np.concatenate([e[:, 1], e[:, 0]])
    v = None if values is None else np.concatenate([values, values])
    return sr.Matrix.from_coo(r, c, v, nrows=n, ncols=n, dup_op=sr.binary.first)


def gnp(n, p, seed):
    G = nx.gnp_random_graph(n, p, seed=seed)
    return symmetric(n, list(G.edges()) or np.zeros((0, 2)))


def with_extras(A, seed):
    """A with self-loops on some vertices and int values, a third of them explicit zeros (edges)."""
    rows, cols, _ = A.to_coo()
    rng = np.random.default_rng(seed)
    loops = rng.choice(A.nrows, size=A.nrows // 5, replace=False)
    keep = rows < cols
    r, c = rows[keep], cols[keep]
    vals = rng.integers(0, 3, r.size)
    R = np.concatenate([r, c, loops])
    C = np.concatenate([c, r, loops])
    V = np.concatenate([vals, vals, np.ones(loops.size, dtype=np.int64)])
    return sr.Matrix.from_coo(R, C, V, nrows=A.nrows, ncols=A.ncols)


GRAPHS = {
    "gnp_dense": gnp(40, 0.3, 1),
    "gnp_sparse": gnp(80, 0.05, 2),
    "isolated": gnp(30, 0.03, 3),
    "extras": with_extras(gnp(50, 0.15, 4), 4),
    "complete": symmetric(7, [(i, j) for i in range(7) for j in range(i + 1, 7)]),
    "edgeless": sr.Matrix(5, 5, "bool"),
    "empty": sr.Matrix(0, 0, "bool"),
    "kronecker": sr.generators.kronecker(10, seed=2),  # skewed degrees
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("presort", PRESORTS)
def test_matches_networkx(name, presort):
    A = GRAPHS[name]
    want = nx_triangles(A)
    got = per_vertex(A, presort=presort)
    assert got.dtype == np.int64 and got.size == A.nrows and got.nvals == A.nrows
    np.testing.assert_array_equal(asnumpy(got.to_dense()), want)
    total = int(want.sum()) // 3
    for method in tri_module.METHODS:
        assert triangle_count(A, method=method, presort=presort) == total, method


def test_the_graphs_have_triangles_and_the_complete_count():
    assert triangle_count(GRAPHS["complete"]) == 35  # C(7, 3)
    assert all(triangle_count(GRAPHS[k]) > 0 for k in ("gnp_dense", "gnp_sparse", "extras", "kronecker"))


def test_auto_presort_rule():
    """Sorted when n >= 1000 and mean degree > 2 x median; otherwise not."""
    A = sr.generators.kronecker(11, seed=2)
    K = sr.algorithms.Graph(A)
    d = np.diff(A.to_scipy().indptr)
    assert K.n >= 1000 and d.mean() > 2 * np.median(d)
    want = nx_triangles(A)
    assert triangle_count(K) == want.sum() // 3
    assert ("triangle_presorted", "descending") in K.derived()
    np.testing.assert_array_equal(asnumpy(per_vertex(K).to_dense()), want)
    G2 = nx.gnp_random_graph(1200, 0.01, seed=1)  # n >= 1000, but mean degree ~ median
    A2 = symmetric(1200, list(G2.edges()))
    for A in (GRAPHS["gnp_dense"], sr.generators.grid(40, 40), A2):  # too small; not skewed; not skewed
        G = sr.algorithms.Graph(A)
        triangle_count(G)
        per_vertex(G)
        assert not any(isinstance(k, tuple) and k[0] == "triangle_presorted" for k in G.derived())
    # method burkhardt / cohen never sort
    K2 = sr.algorithms.Graph(GRAPHS["kronecker"])
    triangle_count(K2, method="cohen")
    assert not any(isinstance(k, tuple) and k[0] == "triangle_presorted" for k in K2.derived())


def test_self_loops_and_values_are_ignored():
    A = symmetric(3, [(0, 1), (1, 2), (0, 2)], np.array([0.0, -1.0, 2.5]))  # explicit zero: still an edge
    B = sr.Matrix.from_coo([0, 1, 2, 0, 1, 2, 0, 1, 2], [1, 2, 0, 2, 0, 1, 0, 1, 2], nrows=3, ncols=3)
    for M in (A, B):
        assert triangle_count(M) == 1
        assert per_vertex(M).to_dense().tolist() == [1, 1, 1]


def test_values_need_not_be_symmetric():
    """Only the structure must be symmetric (the values are ignored)."""
    A = sr.Matrix.from_coo([0, 1, 1, 2, 0, 2], [1, 0, 2, 1, 2, 0], [1, 2, 3, 4, 5, 6], nrows=3, ncols=3)
    assert sr.algorithms.Graph(A).kind == "directed"
    assert triangle_count(A) == 1


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------
def test_directed_input_raises():
    A = sr.Matrix.from_coo([0, 1, 2, 1], [1, 2, 0, 0], nrows=3, ncols=3)  # 0->1, 1->2, 2->0, 1->0
    for f in (triangle_count, per_vertex):
        with pytest.raises(sr.InvalidValue, match=r"undirected .* 2 entries whose mirror entry is absent"):
            f(A)


@pytest.mark.parametrize("kwargs, words", [({"method": "sandia_dot"}, "method"), ({"presort": "up"}, "presort"),
                                           ({"method": None}, "method")])
def test_bad_options(kwargs, words):
    with pytest.raises(sr.InvalidValue, match=words):
        triangle_count(GRAPHS["complete"], **kwargs)


def test_bad_presort_per_vertex_and_bad_matrices():
    with pytest.raises(sr.InvalidValue, match="presort"):
        per_vertex(GRAPHS["complete"], presort="sorted")
    for f in (triangle_count, per_vertex):
        with pytest.raises(sr.DimensionMismatch, match="square"):
            f(sr.Matrix(3, 4, "bool"))
        with pytest.raises(sr.InvalidValue, match="Matrix or Graph"):
            f([[0, 1], [1, 0]])


# ---------------------------------------------------------------------------------------------
# published answers
# ---------------------------------------------------------------------------------------------
def lagraph_counts(shared_data):
    """{matrix file: triangles} from the table in LAGraph's test_TriangleCount.c."""
    src = (shared_data / "small/lagraph/expected/test_TriangleCount.c").read_text()
    found = {name: int(count) for count, name in re.findall(r"\{\s*(\d+)\s*,\s*\"([^\"]+\.mtx)\"\s*\}", src)}
    assert found.get("bcsstk13.mtx") == 342300 and found.get("jagmesh7.mtx") == 2016, found
    return found


@pytest.mark.data
def test_lagraph_triangle_counts(shared_data):
    counts = lagraph_counts(shared_data)
    assert len(counts) >= 9
    for name, want in counts.items():
        G = sr.algorithms.Graph(sr.io.read(shared_data / "small/lagraph" / name))
        for method in tri_module.METHODS:
            assert triangle_count(G, method=method) == want, (name, method)
        assert int(asnumpy(per_vertex(G).to_dense()).sum()) == 3 * want, name


@pytest.mark.data
def test_ldbc_graphalytics_lcc_gives_triangles_per_vertex(shared_data):
    """LDBC's LCC of an undirected graph is t(v) / (d(v) (d(v) - 1) / 2)."""
    base = shared_data / "small/ldbc_graphalytics"
    cases = [(base / "lcc/undir-input", base / "lcc/undir-output", "adjacency"),
             (base / "example/example-undirected.e", base / "example/example-undirected-LCC", "edges")]
    for inp, out, kind in cases:
        want = {int(a): float(b) for a, b in (ln.split() for ln in out.read_text().splitlines() if ln.strip())}
        labels = sorted(want)
        index = {v: i for i, v in enumerate(labels)}
        edges = []
        for line in inp.read_text().splitlines():
            parts = [int(float(x)) for x in line.split()]
            if not parts:
                continue
            edges += [(parts[0], v) for v in parts[1:]] if kind == "adjacency" else [(parts[0], parts[1])]
        A = symmetric(len(labels), [(index[u], index[v]) for u, v in edges])
        t = asnumpy(per_vertex(A).to_dense())
        d = np.diff(A.to_scipy().indptr)
        lcc = np.array([want[v] for v in labels])
        np.testing.assert_array_equal(t, np.rint(lcc * d * (d - 1) / 2).astype(np.int64))
        assert t.sum() > 0


# ---------------------------------------------------------------------------------------------
# GPU: the same counts
# ---------------------------------------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_triangles_on_gpu_match_cpu(name):
    from _devices import same

    A = GRAPHS[name]
    G = A.to("gpu")
    for presort in PRESORTS:
        same(per_vertex(A, presort=presort), per_vertex(G, presort=presort))
        for method in tri_module.METHODS:
            assert triangle_count(G, method=method, presort=presort) == triangle_count(A, method=method), method
