"""``semiring.testing.validate``: the result validators accept correct results and reject
corrupted ones.

Correct results come from independent oracles, never from the library: ``scipy.sparse.csgraph``
(breadth-first order with predecessors, Dijkstra with predecessors) and networkx (greedy
coloring, maximal independent set). Each corruption is made by hand and must raise
ValidationError with a message that names the failed check and a witness.

The validators' array code is device-generic: here it runs on NumPy; tests/testing/test_validate_on_device.py runs the
same checks on CuPy arrays.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import semiring as sr
from semiring.exceptions import SemiringError
from semiring.testing.validate import ValidationError, check_bfs, check_coloring, check_mis, check_sssp

NO = -9999  # csgraph's "no predecessor"


def vec(values, missing=-1, dtype="int64"):
    """A vector of the entries of ``values`` other than ``missing``."""
    values = np.asarray(values)
    idx = np.flatnonzero(values != missing)
    return sr.Vector.from_coo(idx, values[idx], size=values.size, dtype=dtype)


def oracle_bfs(A, s):
    """(level, parent) dense arrays, -1 where unreached."""
    S = A.to_scipy()
    order, pred = csgraph.breadth_first_order(S, s, directed=True, return_predecessors=True)
    hops = csgraph.shortest_path(S.astype(np.float64), unweighted=True, indices=s)
    level = np.where(np.isfinite(hops), hops, -1).astype(np.int64)
    parent = np.where(pred == NO, -1, pred).astype(np.int64)
    parent[s] = s
    return level, parent


def oracle_sssp(W, s):
    """(distance, parent) dense arrays (inf / -1 where unreached)."""
    dist, pred = csgraph.dijkstra(W.to_scipy().astype(np.float64), indices=s, return_predecessors=True)
    parent = np.where(pred == NO, -1, pred).astype(np.int64)
    parent[s] = s
    return dist, parent


@pytest.fixture(scope="module")
def kron():
    A = sr.generators.kronecker(9, seed=2)
    deg = np.diff(A.to_scipy().indptr)
    return A, int(np.argmax(deg)), deg


@pytest.fixture(scope="module")
def wkron():
    W = sr.generators.kronecker(9, seed=3, weights=(1, 20))
    return W, int(np.argmax(np.diff(W.to_scipy().indptr)))


def test_validation_error_is_an_assertion_and_a_semiring_error():
    assert issubclass(ValidationError, AssertionError) and issubclass(ValidationError, SemiringError)


# ---------------------------------------------------------------------------------------------
# BFS
# ---------------------------------------------------------------------------------------------
def test_bfs_accepts_the_oracle_result(kron):
    A, s, _ = kron
    level, parent = oracle_bfs(A, s)
    assert check_bfs(A, s, vec(level)) == (level >= 0).sum()
    assert check_bfs(A, s, vec(level), vec(parent)) == (level >= 0).sum()
    assert check_bfs(sr.algorithms.Graph(A, "undirected"), s, vec(level), vec(parent)) == (level >= 0).sum()
    assert 0 < (level >= 0).sum() < A.nrows  # Kronecker graphs have isolated vertices: unreached ones


def _leaf(A, level):
    """A vertex at the deepest level (nobody's parent)."""
    return int(np.flatnonzero(level == level.max())[0])


def test_bfs_rejects_wrong_levels(kron):
    A, s, deg = kron
    level, parent = oracle_bfs(A, s)
    v = _leaf(A, level)
    for bad, pattern in [
        (level[v] + 1, f"check 3: edge .* -> {v} leaves level {level[v] - 1} but reaches level {level[v] + 1}"),
        (level[v] - 1, "check [34]"),  # too shallow: no in-edge from two levels up, or a sibling too deep
    ]:
        lv = level.copy()
        lv[v] = bad
        with pytest.raises(ValidationError, match=pattern):
            check_bfs(A, s, vec(lv))
    lv = level.copy()
    lv[s] = 1
    with pytest.raises(ValidationError, match=rf"check 0: level\[source={s}\] must be 0; given 1"):
        check_bfs(A, s, vec(lv))
    lv = level.copy()
    lv[v] = -1  # a reachable vertex left out
    with pytest.raises(ValidationError, match="check 3: edge .* reaches level -1"):
        check_bfs(A, s, vec(lv))
    iso = int(np.flatnonzero(deg == 0)[0])
    lv = level.copy()
    lv[iso] = 2  # an unreachable vertex reached
    with pytest.raises(ValidationError, match=f"check 4: vertex {iso} has level 2"):
        check_bfs(A, s, vec(lv))
    lv[iso] = 0  # a second root
    with pytest.raises(ValidationError, match=f"check 0: only the source {s} may have level 0; vertex {iso}"):
        check_bfs(A, s, vec(lv))


def test_bfs_rejects_a_second_root_in_a_directed_graph():
    # 0 -> 1; 9 -> 5 -> 6 with 5 posing as a root: every edge from a "reached" vertex is
    # consistent and the parent pointers are edges at the right levels, but 5 is unreachable
    A = sr.Matrix.from_coo([0, 9, 5], [1, 5, 6], nrows=10, ncols=10)
    level = np.full(10, -1)
    level[[0, 1, 5, 6]] = [0, 1, 0, 1]
    parent = np.full(10, -1)
    parent[[0, 1, 5, 6]] = [0, 0, 9, 5]
    with pytest.raises(ValidationError, match="only the source 0 may have level 0; vertex 5 has it"):
        check_bfs(A, 0, vec(level))
    with pytest.raises(ValidationError, match="only the source 0"):
        check_bfs(A, 0, vec(level), vec(parent))
    level[5] = level[6] = -1
    parent[5] = parent[6] = -1
    assert check_bfs(A, 0, vec(level), vec(parent)) == 2


def test_bfs_rejects_bad_parents(kron):
    A, s, _ = kron
    level, parent = oracle_bfs(A, s)
    S = A.to_scipy()
    # a vertex at level >= 2 and a vertex one level up that is not its in-neighbour
    v = int(np.flatnonzero(level == 2)[0])
    nbrs = set(S.T.tocsr()[[v]].indices.tolist())
    stranger = int(next(u for u in np.flatnonzero(level == 1) if u not in nbrs))
    cases = [
        ({v: stranger}, f"check 2: tree edge {stranger} -> {v} is not an edge of the graph"),
        ({v: v}, f"check 1: vertex {v} at level 2 has parent {v} at level 2"),              # self-parent
        ({v: s}, f"check 1: vertex {v} at level 2 has parent {s} at level 0"),              # wrong level
        ({v: A.nrows + 3}, f"check 1: vertex {v} at level 2 has parent {A.nrows + 3} at level None"),
        ({s: v}, rf"check 0: parent\[source={s}\] must be the source; given {v}"),
        ({v: -1}, f"check 4: vertex {v} has a level 2 but parent -1"),                      # no parent
    ]
    unreached = int(np.flatnonzero(level < 0)[0])
    cases.append(({unreached: s}, f"check 4: vertex {unreached} has a level -1 but parent {s}"))
    for change, pattern in cases:
        pa = parent.copy()
        for k, x in change.items():
            pa[k] = x
        with pytest.raises(ValidationError, match=pattern):
            check_bfs(A, s, vec(level), vec(pa))


def test_bfs_rejects_a_parent_cycle():
    # 0 -> 1 -> 2 -> 3 -> 2: parents 2 <- 3 and 3 <- 2 form a cycle (and break the levels)
    A = sr.Matrix.from_coo([0, 1, 2, 3], [1, 2, 3, 2], nrows=4, ncols=4)
    level = np.array([0, 1, 2, 3])
    assert check_bfs(A, 0, vec(level), vec([0, 0, 1, 2])) == 4
    with pytest.raises(ValidationError, match="check 1: vertex 2 at level 2 has parent 3 at level 3"):
        check_bfs(A, 0, vec(level), vec([0, 0, 3, 2]))


def test_bfs_rejects_malformed_arguments(kron):
    A, s, _ = kron
    level, _ = oracle_bfs(A, s)
    with pytest.raises(ValidationError, match="level: expected a Vector of size"):
        check_bfs(A, s, vec(level[:-1]))
    with pytest.raises(ValidationError, match="level: expected a Vector"):
        check_bfs(A, s, level)
    with pytest.raises(ValidationError, match="expected a Matrix or Graph"):
        check_bfs(A.to_scipy(), s, vec(level))
    with pytest.raises(ValidationError, match="check 0"):
        check_bfs(A, A.nrows, vec(level))
    lv = level.copy()
    lv[lv < 0] = -2
    with pytest.raises(ValidationError, match="check 0: levels must be >= 0"):
        check_bfs(A, s, vec(lv, missing=-99))


# ---------------------------------------------------------------------------------------------
# SSSP
# ---------------------------------------------------------------------------------------------
def test_sssp_accepts_the_oracle_result(wkron):
    W, s = wkron
    dist, parent = oracle_sssp(W, s)
    reached = np.isfinite(dist)
    d = vec(np.where(reached, dist, -1.0), missing=-1.0, dtype="float64")
    assert check_sssp(W, s, d) == reached.sum()
    assert check_sssp(W, s, d, vec(parent)) == reached.sum()
    # bool matrices mean unit weights: hop counts are distances
    A = sr.generators.kronecker(8, seed=1)
    level, parent = oracle_bfs(A, 0)
    assert check_sssp(A, 0, vec(level, dtype="float64"), vec(parent)) == (level >= 0).sum()


def test_sssp_rejects_wrong_distances(wkron):
    W, s = wkron
    dist, parent = oracle_sssp(W, s)
    reached = np.isfinite(dist)
    v = int(np.flatnonzero(reached & (np.arange(W.nrows) != s))[np.argmax(dist[reached & (np.arange(W.nrows) != s)])])

    def run(d, p=None):
        return check_sssp(W, s, vec(np.where(np.isfinite(d), d, -1.0), missing=-1.0, dtype="float64"),
                          None if p is None else vec(p))

    d = dist.copy()
    d[v] += 1  # too long: the edge from its parent relaxes it
    with pytest.raises(ValidationError, match=f"edge {parent[v]} -> {v} .* gives {v} a shorter distance"):
        run(d)
    d = dist.copy()
    d[v] -= 0.5  # too short: no in-edge attains it (the farthest vertex: no out-edge relaxes)
    with pytest.raises(ValidationError, match=f"vertex {v} has distance .* but no in-edge that attains it"):
        run(d)
    d = dist.copy()
    d[s] = 1.0
    with pytest.raises(ValidationError, match=rf"distance\[source={s}\] must be 0; given 1.0"):
        run(d)
    d = dist.copy()
    d[v] = np.inf  # a reachable vertex left out
    with pytest.raises(ValidationError, match=f"-> {v} .* a shorter distance .* than inf"):
        run(d)


def test_sssp_rejects_bad_parents(wkron):
    W, s = wkron
    dist, parent = oracle_sssp(W, s)
    S = W.to_scipy()
    d = vec(np.where(np.isfinite(dist), dist, -1.0), missing=-1.0, dtype="float64")
    # an in-neighbour whose edge is not tight
    loose = None
    T = S.T.tocsr()
    for v in np.flatnonzero(np.isfinite(dist)):
        for u, w in zip(T[[v]].indices, T[[v]].data):
            if dist[u] + w > dist[v] + 0.5:
                loose = (int(v), int(u))
                break
        if loose:
            break
    v, u = loose
    pa = parent.copy()
    pa[v] = u
    with pytest.raises(ValidationError, match=f"parent edge {u} -> {v} is not a tight edge of the graph"):
        check_sssp(W, s, d, vec(pa))
    pa = parent.copy()
    pa[s] = v
    with pytest.raises(ValidationError, match=rf"parent\[source={s}\] must be the source"):
        check_sssp(W, s, d, vec(pa))


def test_sssp_rejects_a_parent_cycle_of_tight_zero_weight_edges():
    # 0 -1-> 1 -0-> 2 <-0-> 3: parents 2 <- 3, 3 <- 2 are tight edges but never reach the source
    W = sr.Matrix.from_coo([0, 1, 2, 3], [1, 2, 3, 2], [1, 0, 0, 0], nrows=4, ncols=4, dtype="int64")
    d = vec([0.0, 1.0, 1.0, 1.0], dtype="float64")
    assert check_sssp(W, 0, d, vec([0, 0, 1, 2])) == 4
    with pytest.raises(ValidationError, match="the parents of vertex 2 never lead back to the source"):
        check_sssp(W, 0, d, vec([0, 0, 3, 2]))


def test_sssp_tolerance_for_floats():
    W = sr.Matrix.from_coo([0, 1, 0], [1, 2, 2], [0.1, 0.2, 0.5], nrows=3, ncols=3)
    exact = 0.1 + 0.2
    assert check_sssp(W, 0, vec([0.0, 0.1, exact * (1 + 1e-12)], dtype="float64")) == 3
    with pytest.raises(ValidationError, match="no in-edge that attains it"):
        check_sssp(W, 0, vec([0.0, 0.1, exact * (1 - 1e-6)], dtype="float64"))
    with pytest.raises(ValidationError, match="shorter distance"):
        check_sssp(W, 0, vec([0.0, 0.1, exact * (1 + 1e-6)], dtype="float64"))
    assert check_sssp(W, 0, vec([0.0, 0.1, exact * (1 + 1e-6)], dtype="float64"), rtol=1e-5) == 3


# ---------------------------------------------------------------------------------------------
# coloring and maximal independent sets
# ---------------------------------------------------------------------------------------------
def _nx(A):
    return nx.from_scipy_sparse_array(A.to_scipy())


def test_coloring_accepts_a_greedy_coloring_and_rejects_corruptions(kron):
    A = kron[0]
    G = _nx(A)
    greedy = nx.greedy_color(G, strategy="largest_first")
    col = np.array([greedy[v] for v in range(A.nrows)])
    k = col.max() + 1
    assert check_coloring(A, vec(col)) == k
    u, v = next(iter(G.edges))
    bad = col.copy()
    bad[v] = bad[u]
    with pytest.raises(ValidationError, match=f"coloring: edge {min(u, v)} - {max(u, v)} joins two vertices "
                                              f"of color {bad[u]}"):
        check_coloring(A, vec(bad))
    with pytest.raises(ValidationError, match=f"coloring: 1 of {A.nrows} vertices have no color"):
        check_coloring(A, vec(np.where(np.arange(A.nrows) == 5, -1, col)))
    gap = np.where(col == k - 1, k, col)  # color k - 1 unused
    with pytest.raises(ValidationError, match="coloring: colors must be exactly 0..k-1"):
        check_coloring(A, vec(gap))


def test_mis_accepts_a_maximal_independent_set_and_rejects_corruptions(kron):
    A = kron[0]
    G = _nx(A)
    G.remove_edges_from(nx.selfloop_edges(G))
    members = sorted(nx.maximal_independent_set(G, seed=1))
    m = sr.Vector.from_coo(members, True, size=A.nrows)
    assert check_mis(A, m) == len(members)
    inside = set(members)
    u = next(x for x in members if G.degree(x) > 0)
    w = next(iter(G.neighbors(u)))
    with pytest.raises(ValidationError, match="mis: members .* are adjacent"):
        check_mis(A, sr.Vector.from_coo(sorted(inside | {w}), True, size=A.nrows))
    with pytest.raises(ValidationError, match="could join: the set is not maximal"):
        check_mis(A, sr.Vector.from_coo(sorted(inside - {u}), True, size=A.nrows))


def test_validators_on_a_directed_matrix_read_both_directions():
    # entries one way only (0 -> 1 -> 2): coloring and MIS treat them as undirected edges
    P = sr.Matrix.from_coo([0, 1], [1, 2], nrows=3, ncols=3)
    assert check_coloring(P, vec([0, 1, 0])) == 2
    with pytest.raises(ValidationError):
        check_coloring(P, vec([0, 0, 1]))
    assert check_mis(P, sr.Vector.from_coo([0, 2], True, size=3)) == 2
    assert check_mis(P, sr.Vector.from_coo([1], True, size=3)) == 1
    with pytest.raises(ValidationError, match="mis: vertex 2 could join"):
        check_mis(P, sr.Vector.from_coo([0], True, size=3))


def test_validators_on_an_empty_graph():
    E = sr.Matrix.from_scipy(sp.csr_array((3, 3), dtype=bool))
    assert check_bfs(E, 1, vec([-1, 0, -1]), vec([-1, 1, -1])) == 1
    assert check_sssp(E, 1, vec([-1.0, 0.0, -1.0], missing=-1.0, dtype="float64")) == 1
    assert check_coloring(E, vec([0, 0, 0])) == 1
    assert check_mis(E, sr.Vector.from_coo([0, 1, 2], True, size=3)) == 3
