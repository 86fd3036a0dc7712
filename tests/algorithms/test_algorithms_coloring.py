"""Oracle tests of ``coloring`` and ``mis`` and of the result validators
(``semiring.testing.validate``).

Oracles: networkx (largest-first greedy coloring) and plain NumPy / Python written here from
the definitions (properness, maximality, independence); each validator catches a corrupted
result. Random graphs come from Hypothesis (tests/_algorithms.py)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.testing.validate import ValidationError, check_bfs, check_coloring, check_mis, check_sssp

from _strategies import clique_graphs
from _algorithms import SETTINGS, _oracle_form, generated, graphs  # noqa: F401, F811 (the generated fixture)

COLORING_METHODS = ("jones_plassmann", "luby", "greedy")
def undirected_simple(n, rows, cols):
    """Adjacency sets of the undirected simple graph of an edge list (loops dropped)."""
    adj = [set() for _ in range(n)]
    for u, v in zip(rows.tolist(), cols.tolist()):
        if u != v:
            adj[u].add(v)
            adj[v].add(u)
    return adj


# ---------------------------------------------------------------------------------------------
# coloring and MIS
# ---------------------------------------------------------------------------------------------

def assert_proper_coloring(n, rows, cols, color_vec):
    """Own check from the definitions; also the 'Grundy' property that all three methods give:
    a vertex of color c has a neighbour of every color below c (greedy and Jones-Plassmann take
    the smallest color missing among the colored neighbours; Luby's class j is a maximal
    independent set of the uncolored graph, so a vertex left out of it has a neighbour in it).
    Hence color(v) <= degree(v) and k <= max degree + 1."""
    assert color_vec.dtype == np.int64 and color_vec.nvals == n
    col = color_vec.to_dense(-1)
    k = int(col.max()) + 1 if n else 0
    assert sorted(set(col.tolist())) == list(range(k))
    adj = undirected_simple(n, rows, cols)
    for v in range(n):
        seen = {int(col[u]) for u in adj[v]}
        assert col[v] not in seen, f"vertex {v} shares color {col[v]} with a neighbour"
        assert set(range(col[v])) <= seen, f"vertex {v} has color {col[v]} but a smaller one is free"
    return k


@SETTINGS
@given(g=graphs(), method=st.sampled_from(COLORING_METHODS), seed=st.integers(0, 2**31))
def test_coloring_is_proper_complete_and_deterministic(g, method, seed):
    c = sr.algorithms.coloring(g.A, method=method, seed=seed)
    k = assert_proper_coloring(g.n, g.rows, g.cols, c)
    assert check_coloring(g.A, c) == k
    assert c.isequal(sr.algorithms.coloring(g.A, method=method, seed=seed), check_dtype=True)


@pytest.mark.parametrize("method", COLORING_METHODS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(g=clique_graphs(), seed=st.integers(0, 2**31))
def test_coloring_needing_64_or_more_colors(method, g, seed):
    """A clique of 65..72 vertices in a sparse graph: colors past 63 must still be seen by the
    neighbours (a bitset of one 64-bit word would hide them)."""
    n, rows, cols, clique = g
    A = sr.Matrix.from_coo(rows, cols, nrows=n, ncols=n, dtype="bool", dup_op=sr.binary.lor)
    c = sr.algorithms.coloring(A, method=method, seed=seed)
    k = assert_proper_coloring(n, rows, cols, c)
    assert k >= clique and check_coloring(A, c) == k


def welsh_powell_bound(adj):
    """Largest-first greedy uses at most max_i min(d_i + 1, i) colors (degrees sorted
    descending, i from 1): Welsh and Powell, Comput. J. 10 (1967)."""
    deg = sorted((len(a) for a in adj), reverse=True)
    return max((min(d + 1, i) for i, d in enumerate(deg, 1)), default=0)


@SETTINGS
@given(g=graphs())
def test_greedy_coloring_against_networkx_largest_first(g):
    c = sr.algorithms.coloring(g.A, method="greedy")
    k = assert_proper_coloring(g.n, g.rows, g.cols, c)
    adj = undirected_simple(g.n, g.rows, g.cols)
    G = nx.Graph()
    G.add_nodes_from(range(g.n))
    G.add_edges_from((u, v) for u in range(g.n) for v in adj[u])
    k_nx = max(nx.greedy_color(G, strategy="largest_first").values(), default=-1) + 1
    # Both are largest-first greedy colorings, but the order among vertices of equal degree is
    # not part of either contract, and a different tie order can change the count. So the
    # counts are compared loosely: both within the Welsh-Powell bound, both at least 2 when
    # there is an edge, and the difference recorded as a Hypothesis event (with ties broken by
    # index in both, as now, they agree).
    bound = welsh_powell_bound(adj)
    assert k <= bound and k_nx <= bound
    if any(adj):
        assert k >= 2 and k_nx >= 2
    event(f"greedy colors - networkx largest_first colors = {k - k_nx}")


@SETTINGS
@given(g=graphs(), seed=st.integers(0, 2**31))
def test_mis_is_independent_maximal_and_deterministic(g, seed):
    m = sr.algorithms.mis(g.A, seed=seed)
    size = check_mis(g.A, m)
    idx, _ = m.to_coo()
    members = set(idx.tolist())
    assert len(members) == size == m.nvals
    adj = undirected_simple(g.n, g.rows, g.cols)
    for v in range(g.n):
        if v in members:
            assert not (adj[v] & members), f"member {v} is adjacent to members {adj[v] & members}"
        else:
            assert adj[v] & members, f"vertex {v} could join the set"
    assert m.isequal(sr.algorithms.mis(g.A, seed=seed), check_dtype=True)


@pytest.mark.parametrize("name", ["kronecker8", "kronecker9", "grid2d", "grid3d", "rgg"])
@pytest.mark.parametrize("method", COLORING_METHODS)
def test_coloring_generated_graphs(generated, name, method):
    A = generated[name]
    r, c, _ = _oracle_form(A)
    col = sr.algorithms.coloring(A, method=method, seed=11)
    k = assert_proper_coloring(A.nrows, r, c, col)
    assert check_coloring(A, col) == k
    if name.startswith("grid"):
        assert k >= 2  # bipartite but with edges
    check_mis(A, sr.algorithms.mis(A, seed=11))


def test_coloring_errors():
    with pytest.raises(sr.InvalidValue):
        sr.algorithms.coloring(sr.generators.grid(3, 3), method="dsatur")
    with pytest.raises(sr.DimensionMismatch):
        sr.algorithms.coloring(sr.Matrix.from_coo([0], [1], nrows=2, ncols=3))


# ---------------------------------------------------------------------------------------------
# validators: each check catches a corrupted result
# ---------------------------------------------------------------------------------------------

# 0 -> 1 -> 2 -> 3, 0 -> 4 -> 3 (weights), 5 unreachable, 5 -> 0
VR = [0, 1, 2, 0, 4, 5]
VC = [1, 2, 3, 4, 3, 0]
VW = [1.0, 1.0, 1.0, 5.0, 1.0, 1.0]
VA = sr.Matrix.from_coo(VR, VC, VW, nrows=6, ncols=6)
LEVEL = {0: 0, 1: 1, 2: 2, 3: 2, 4: 1}
PARENT = {0: 0, 1: 0, 2: 1, 3: 4, 4: 0}
DIST = {0: 0.0, 1: 1.0, 2: 2.0, 3: 3.0, 4: 5.0}
SPARENT = {0: 0, 1: 0, 2: 1, 3: 2, 4: 0}


def vec(d, dtype="int64"):
    return sr.Vector.from_coo(list(d), list(d.values()), size=6, dtype=dtype)


def changed(d, **kw):
    out = dict(d)
    for k, v in kw.items():
        i = int(k[1:])
        if v is None:
            out.pop(i, None)
        else:
            out[i] = v
    return out


def test_validators_accept_correct_results():
    assert check_bfs(VA, 0, vec(LEVEL), vec(PARENT)) == 5
    assert check_sssp(VA, 0, vec(DIST, "float64"), vec(SPARENT)) == 5
    # and they agree with the library on this graph
    assert vec(LEVEL).isequal(sr.algorithms.bfs(VA, 0).level)
    assert vec(DIST, "float64").isequal(sr.algorithms.sssp(VA, 0).distance)


@pytest.mark.parametrize("level, parent", [
    (changed(LEVEL, v2=3), None),                       # wrong level (too deep)
    (changed(LEVEL, v3=1), None),                       # wrong level (too shallow: no in-edge from 0)
    (changed(LEVEL, v0=1), None),                       # source not at 0
    (changed(LEVEL, v3=None), None),                    # a reachable vertex left out
    (changed(LEVEL, v5=3), None),                       # an unreachable vertex reached
    (LEVEL, changed(PARENT, v2=4)),                     # parent at the right level, not an edge
    (LEVEL, changed(PARENT, v3=0)),                     # parent at the wrong level (non-edge too)
    (LEVEL, changed(PARENT, v3=2, v2=3)),               # parent one level down / a cycle
    (LEVEL, changed(PARENT, v0=1)),                     # parent[source] != source
    (LEVEL, changed(PARENT, v4=None)),                  # a reached vertex without a parent
    (LEVEL, changed(PARENT, v5=0)),                     # an unreached vertex with a parent
    (LEVEL, changed(PARENT, v1=17)),                    # parent out of range
], ids=["deep", "shallow", "source-level", "missing", "unreachable-reached", "non-edge-parent",
        "wrong-level-parent", "parent-cycle", "source-parent", "no-parent", "extra-parent", "bad-index"])
def test_check_bfs_catches_corruption(level, parent):
    with pytest.raises(ValidationError):
        check_bfs(VA, 0, vec(level), None if parent is None else vec(parent))


@pytest.mark.parametrize("dist, parent", [
    (changed(DIST, v4=6.0), None),        # too long: edge 0 -> 4 gives 5
    (changed(DIST, v3=4.0), None),        # too long: 2 -> 3 gives 3
    (changed(DIST, v3=2.5), None),        # too short: no edge attains it
    (changed(DIST, v0=1.0), None),        # source not at 0
    (changed(DIST, v2=None), None),       # reachable vertex left unreached
    (DIST, changed(SPARENT, v3=4)),       # 4 -> 3 is an edge but not tight
    (DIST, changed(SPARENT, v2=0)),       # not an edge
    (DIST, changed(SPARENT, v0=1)),       # parent[source] != source
], ids=["too-long", "too-long-2", "too-short", "source", "missing", "loose-parent", "non-edge-parent",
        "source-parent"])
def test_check_sssp_catches_corruption(dist, parent):
    with pytest.raises(ValidationError):
        check_sssp(VA, 0, vec(dist, "float64"), None if parent is None else vec(parent))


def test_check_coloring_and_mis_catch_corruption():
    # path 0 - 1 - 2 - 3 (directed entries one way only: validators read both directions)
    P = sr.Matrix.from_coo([0, 1, 2], [1, 2, 3], nrows=4, ncols=4)
    good = sr.Vector.from_dense(np.array([0, 1, 0, 1]))
    assert check_coloring(P, good) == 2
    for bad in ([0, 0, 1, 0],        # improper: edge 0 - 1
                [0, 2, 0, 2],        # colors not 0..k-1
                [-1, 0, 1, 0]):      # negative color
        with pytest.raises(ValidationError):
            check_coloring(P, sr.Vector.from_dense(np.array(bad)))
    with pytest.raises(ValidationError):  # a vertex without a color
        check_coloring(P, sr.Vector.from_coo([0, 1, 2], [0, 1, 0], size=4))
    assert check_mis(P, sr.Vector.from_coo([0, 2], [True, True], size=4)) == 2
    with pytest.raises(ValidationError):  # not maximal: 3 could join {0}
        check_mis(P, sr.Vector.from_coo([0], [True], size=4))
    with pytest.raises(ValidationError):  # not independent: 1 - 2
        check_mis(P, sr.Vector.from_coo([0, 1, 2, 3][1:3], [True, True], size=4))
    # a self-loop is not a conflict
    L = sr.Matrix.from_coo([0, 0], [0, 1], nrows=2, ncols=2)
    assert check_coloring(L, sr.Vector.from_dense(np.array([0, 1]))) == 2
    assert check_mis(L, sr.Vector.from_coo([0], [True], size=2)) == 1


@pytest.mark.parametrize("kind", ["undirected", "directed"])
def test_bfs_pull_trace_counts_the_in_edges_of_unvisited_vertices(kind):
    A = sr.generators.kronecker(9, seed=3)
    if kind == "directed":
        A = sr.select(A, sr.indexunary.triu)  # keep i < j: a DAG, in-degree != out-degree
    S = A.to_scipy()
    indeg = np.bincount(S.indices, minlength=A.nrows)
    s = int(np.argmax(np.diff(S.indptr)))
    r = sr.algorithms.bfs(sr.algorithms.Graph(A, kind), s, direction="pull")
    lv = r.level.to_dense(-1)
    for t in r.trace:
        unvisited = (lv < 0) | (lv >= t.depth)  # not yet reached when level t.depth started
        assert t.direction == "pull" and t.edges_examined == int(indeg[unvisited].sum())


def test_matrix_remembers_its_graph_until_written():
    # a Matrix keeps the Graph (transpose, degrees, per-algorithm data) built for it, so the
    # second search on it costs what a search on a Graph costs; a write drops it
    from semiring.algorithms.graph import as_graph

    A = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 1.0], nrows=4, ncols=4)
    G = as_graph(A, "test")
    assert as_graph(A, "test") is G
    assert sr.algorithms.bfs(A, 0).level.to_dense(-1).tolist() == [0, 1, 2, -1]
    assert sr.algorithms.sssp(A, 0).distance.to_dense(np.inf).tolist() == [0.0, 1.0, 2.0, np.inf]
    assert as_graph(A, "test") is G and G.derived()  # the searches filled the remembered Graph
    # A<(2,3)> = 5: a write bumps the content, and the next search sees the new edge
    sr.assign(A, 5.0, ([2], [3]))
    G2 = as_graph(A, "test")
    assert G2 is not G and not G2.derived()
    assert sr.algorithms.bfs(A, 0).level.to_dense(-1).tolist() == [0, 1, 2, 3]
    assert sr.algorithms.sssp(A, 0).distance.to_dense(np.inf).tolist() == [0.0, 1.0, 2.0, 7.0]
