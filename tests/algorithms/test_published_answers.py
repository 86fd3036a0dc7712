"""Published answers on real graphs from ``../shared/data`` (see its README.md).

Every expected number is read at test time from a published file (LAGraph's test source, the
LDBC Graphalytics reference outputs, the DIMACS coloring scores) or transcribed from the data
README (DIMACS NY Dijkstra sums and maxima, component counts). The tests need the data folder:
the ``shared_data`` fixture (tests/conftest.py) fails them under ``CI=true`` when it is missing
and skips them elsewhere.

No connected-components function exists yet, so the component facts are checked through BFS
only: a BFS from vertex 0 of a connected undirected graph reaches every vertex, and repeated
BFS from unvisited vertices counts the components.
"""

from __future__ import annotations

import re
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

import semiring as sr
from semiring.testing.validate import check_bfs, check_coloring, check_sssp

from conftest import require_data_dir

DIRECTIONS = ("auto", "push", "pull")
LDBC_UNREACHED = 9223372036854775807  # LDBC BFS output for an unreachable vertex


# ---------------------------------------------------------------------------------------------
# the data fixture itself (no data needed)
# ---------------------------------------------------------------------------------------------

def test_missing_data_fails_under_ci(tmp_path):
    with pytest.raises(pytest.fail.Exception, match="shared/data|missing"):
        require_data_dir(tmp_path / "nowhere", {"CI": "true"})


@pytest.mark.parametrize("env", [{}, {"CI": "false"}, {"CI": "1"}])
def test_missing_data_skips_elsewhere(tmp_path, env):
    with pytest.raises(pytest.skip.Exception, match="missing"):
        require_data_dir(tmp_path / "nowhere", env)


def test_present_data_dir_is_returned(tmp_path):
    assert require_data_dir(tmp_path, {"CI": "true"}) == tmp_path


# ---------------------------------------------------------------------------------------------
# LAGraph: Zachary karate club, BFS from vertex 30
# ---------------------------------------------------------------------------------------------

def _c_without_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def karate_expected(data):
    """(source, levels, valid parents per vertex) read from LAGraph's test_BreadthFirstSearch.c."""
    text = _c_without_comments((data / "small/lagraph/expected/test_BreadthFirstSearch.c").read_text())
    source = int(re.search(r"\bSRC\s*=\s*(\d+)\s*;", text).group(1))
    levels = [int(x) for x in re.search(r"LEVELS30\s*\[\s*\]\s*=\s*\{([^}]*)\}", text).group(1).split(",")]
    body = re.search(r"PARENT30\s*\[\s*34\s*\]\s*\[\s*3\s*\]\s*=\s*\{(.*?)\}\s*;", text, flags=re.S).group(1)
    rows = re.findall(r"\{([^{}]*)\}", body + "}")
    parents = [{int(x) for x in (t.strip() for t in row.split(",")) if x not in ("xx", "")} for row in rows]
    assert len(levels) == len(parents) == 34
    return source, np.array(levels), parents


@pytest.mark.data
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_karate_bfs_from_30(shared_data, direction):
    source, levels, valid = karate_expected(shared_data)
    assert source == 30
    A = sr.io.read(shared_data / "small/lagraph/karate.mtx")
    assert (A.nrows, A.nvals) == (34, 2 * 78)
    r = sr.algorithms.bfs(A, source, parents=True, direction=direction)
    assert r.level.nvals == 34  # one component
    np.testing.assert_array_equal(r.level.to_dense(-1), levels)
    parent = r.parent.to_dense(-1)
    for v in range(34):
        assert parent[v] in valid[v], f"vertex {v}: parent {parent[v]}, valid {sorted(valid[v])}"
    check_bfs(A, source, r.level, r.parent)
    # LAGraph: "This assumes the parent is the min of the valid set of parents"
    det = sr.algorithms.bfs(A, source, parents=True, direction=direction, deterministic=True)
    assert det.parent.to_dense(-1).tolist() == [min(p) for p in valid]


# ---------------------------------------------------------------------------------------------
# LDBC Graphalytics reference outputs
# ---------------------------------------------------------------------------------------------

def ldbc_properties(path):
    props = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            k, v = line.split("=", 1)
            props[k.strip()] = v.strip()
    return props


def ldbc_output(path):
    """{vertex label: value string} from an LDBC output file."""
    out = {}
    for line in path.read_text().split("\n"):
        if line.strip():
            label, value = line.split()
            out[int(label)] = value
    return out


def ldbc_graph(edges, labels, directed):
    """A Matrix over ``labels`` (sorted; label -> its index) from (src, dst, weight-or-None);
    undirected graphs get both directions."""
    labels = sorted(labels)
    index = {label: i for i, label in enumerate(labels)}
    u = np.array([index[e[0]] for e in edges], dtype=np.int64)
    v = np.array([index[e[1]] for e in edges], dtype=np.int64)
    weighted = edges and edges[0][2] is not None
    w = np.array([e[2] for e in edges], dtype=np.float64) if weighted else None
    if not directed:
        u, v = np.concatenate([u, v]), np.concatenate([v, u])
        w = None if w is None else np.concatenate([w, w])
    n = len(labels)
    op = sr.binary.min if weighted else sr.binary.lor
    A = sr.Matrix.from_coo(u, v, w, nrows=n, ncols=n, dtype="float64" if weighted else "bool", dup_op=op)
    return A, index


def read_e(path):
    edges = []
    for line in path.read_text().split("\n"):
        parts = line.split()
        if parts:
            edges.append((int(parts[0]), int(parts[1]), float(parts[2]) if len(parts) > 2 else None))
    return edges


def read_v(path):
    return [int(x) for x in path.read_text().split()]


def read_adjacency(path):
    """LDBC "input" files: a vertex label, then its out-neighbours, per line."""
    edges, labels = [], set()
    for line in path.read_text().split("\n"):
        parts = [int(x) for x in line.split()]
        if parts:
            labels.update(parts)
            edges += [(parts[0], v, None) for v in parts[1:]]
    return edges, labels


def ldbc_case(data, algo, case):
    """(Matrix, label -> index, source label, expected {label: value string})."""
    root = data / "small/ldbc_graphalytics"
    if case.startswith("example-"):
        props = ldbc_properties(root / f"example/{case}.properties")
        directed = props[f"graph.{case}.directed"] == "true"
        source = int(props[f"graph.{case}.{algo}.source-vertex"])
        labels = read_v(root / f"example/{case}.v")
        edges = read_e(root / f"example/{case}.e")
        if algo == "bfs":
            edges = [(a, b, None) for a, b, _ in edges]
        expected = ldbc_output(root / f"example/{case}-{algo.upper()}")
    else:  # bfs/dir, bfs/undir, sssp/dir, sssp/undir: no properties file
        directed = case == "dir"
        expected = ldbc_output(root / f"{algo}/{case}-output")
        if algo == "bfs":
            edges, labels = read_adjacency(root / f"bfs/{case}-input")
        else:
            edges, labels = read_e(root / f"sssp/{case}-input.e"), read_v(root / f"sssp/{case}-input.v")
        # The Graphalytics validation suite runs these from vertex 1; it is the one vertex whose
        # published value is 0.
        zeros = [label for label, value in expected.items() if float(value) == 0]
        assert len(zeros) == 1
        source = zeros[0]
    labels = set(labels) | set(expected)
    assert set(expected) == labels  # every vertex has a published value
    A, index = ldbc_graph(edges, labels, directed)
    return A, index, source, expected


LDBC_CASES = ["example-directed", "example-undirected", "dir", "undir"]


@pytest.mark.data
@pytest.mark.parametrize("case", LDBC_CASES)
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_ldbc_bfs(shared_data, case, direction):
    A, index, source, expected = ldbc_case(shared_data, "bfs", case)
    r = sr.algorithms.bfs(A, index[source], parents=True, direction=direction)
    got = r.level.to_dense(-1)
    for label, value in expected.items():
        want = int(value)
        assert got[index[label]] == (-1 if want == LDBC_UNREACHED else want), f"vertex {label}"
    check_bfs(A, index[source], r.level, r.parent)


@pytest.mark.data
@pytest.mark.parametrize("case", LDBC_CASES)
@pytest.mark.parametrize("method", ["auto", "bellman_ford", "delta_stepping"])
def test_ldbc_sssp(shared_data, case, method):
    A, index, source, expected = ldbc_case(shared_data, "sssp", case)
    r = sr.algorithms.sssp(A, index[source], method=method, parents=True)
    assert r.distance.dtype == np.float64
    got = r.distance.to_dense(np.inf)
    want = np.full(A.nrows, np.nan)
    for label, value in expected.items():
        want[index[label]] = float(value)  # "Infinity" parses as inf
    assert r.distance.nvals == np.isfinite(want).sum()
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
    check_sssp(A, index[source], r.distance, r.parent)


# ---------------------------------------------------------------------------------------------
# DIMACS roads
# ---------------------------------------------------------------------------------------------

NY_N, NY_ARCS, NY_PARALLEL = 264_346, 733_846, 3_746


@pytest.mark.data
@pytest.mark.parametrize("kind, dmax, dsum", [("d", 1_440_081, 186_686_642_878),
                                              ("t", 1_916_421, 233_812_473_957)])
def test_dimacs_ny_dijkstra(shared_data, kind, dmax, dsum):
    A = sr.io.read(shared_data / f"roads/USA-road-{kind}.NY.gr.gz")
    assert A.nrows == A.ncols == NY_N
    assert A.dtype == np.int64
    assert A.nvals == NY_ARCS - NY_PARALLEL  # parallel arcs merged (to their minimum)
    r = sr.algorithms.sssp(A, 0)  # file vertex 1
    d = r.distance
    assert d.dtype == np.int64
    assert d.nvals == NY_N  # strongly connected: everything is reached
    _, vals = d.to_coo()
    assert int(vals.max()) == dmax
    assert int(vals.sum(dtype=np.int64)) == dsum
    check_sssp(A, 0, d)


@pytest.mark.data
def test_dimacs_ne_bfs(shared_data):
    A = sr.io.read(shared_data / "roads/USA-road-NE.mtx.gz")
    assert (A.nrows, A.nvals) == (1_524_453, 2 * 1_934_010)
    r = sr.algorithms.bfs(A, 0)
    assert r.level.nvals == A.nrows  # connected
    assert 1_000 <= r.depth <= 1_200  # "about 1,100 levels"


# ---------------------------------------------------------------------------------------------
# LAGraph matrices: component facts through BFS
# ---------------------------------------------------------------------------------------------

def components_by_bfs(A):
    G = sr.algorithms.Graph(A, kind="undirected")
    seen = np.zeros(A.nrows, dtype=bool)
    count = 0
    for v in range(A.nrows):
        if not seen[v]:
            count += 1
            idx, _ = sr.algorithms.bfs(G, v).level.to_coo()
            assert not seen[idx].any()  # a component is reached whole, from any of its vertices
            seen[idx] = True
    return count


@pytest.mark.data
@pytest.mark.parametrize("name, components", [
    ("karate", 1), ("A", 1), ("jagmesh7", 1), ("bcsstk13", 1), ("LFAT5", 3), ("LFAT5_two", 6),
    ("LFAT5_hypersparse", 1989), ("zenios", 1391),  # zenios: its stored zeros are edges
])
def test_lagraph_components_through_bfs(shared_data, name, components):
    A = sr.io.read(shared_data / f"small/lagraph/{name}.mtx")
    assert A.isequal(A.T)  # symmetric files: undirected graphs
    if components == 1:
        assert sr.algorithms.bfs(A, 0).level.nvals == A.nrows
    assert components_by_bfs(A) == components


# ---------------------------------------------------------------------------------------------
# DIMACS coloring instances
# ---------------------------------------------------------------------------------------------

# Colors used with seed 0 (JP = jones_plassmann, greedy, networkx largest_first) against the
# chromatic number chi (all proven, '*' in best_scores_gcp.txt), as measured when written:
#   instance    chi  JP greedy nx     instance    chi  JP greedy nx
#   anna         11  11   11   11     miles1500    73  74   73   73
#   david        11  12   11   11     miles250      8  10    8    8
#   games120      9   9    9    9     miles500     20  23   20   20
#   homer        13  13   13   13     miles750     31  35   32   32
#   huck         11  11   11   11     myciel3-6   4-7  = chi   = chi
#   jean         10  12   10   10     myciel7       8   9    8    8
#   le450_15a    15  22   18   18     queen5_5      5   8    7    7
#   le450_25a    25  28   26   26     queen6_6      7   9    9    9
#   le450_5a      5  13   11   11     queen7_7      7  10   12   12
#   miles1000    42  46   43   43     queen8_8      9  13   13   13
# Greedy is optimal on 14 of 23, JP on 8; the worst gaps are the le450 graphs (built to defeat
# greedy heuristics: le450_5a JP +8, greedy +6) and the queens graphs (up to +5).
COL_FILES = ["anna", "david", "games120", "homer", "huck", "jean", "le450_15a", "le450_25a", "le450_5a",
             "miles1000", "miles1500", "miles250", "miles500", "miles750", "myciel3", "myciel4",
             "myciel5", "myciel6", "myciel7", "queen5_5", "queen6_6", "queen7_7", "queen8_8"]


def best_scores(data):
    """{instance: (best known colors, proven)} from best_scores_gcp.txt."""
    out = {}
    for line in (data / "coloring/best_scores_gcp.txt").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 2:
            out[parts[0]] = (int(parts[1]), len(parts) > 2 and parts[2] == "*")
    return out


def col_edges(path):
    """The simple undirected edge set of a .col file, 0-based, parsed here (not by the reader)."""
    n, edges = None, set()
    with open(path) as f:
        for line in f:
            parts = line.split()
            if parts and parts[0] == "p":
                n = int(parts[2])
            elif parts and parts[0] == "e":
                u, v = int(parts[1]) - 1, int(parts[2]) - 1
                if u != v:
                    edges.add((min(u, v), max(u, v)))
    return n, edges


@pytest.mark.data
def test_coloring_instances_are_all_covered(shared_data):
    assert sorted(p.stem for p in (shared_data / "coloring").glob("*.col")) == sorted(COL_FILES)


@pytest.mark.data
@pytest.mark.parametrize("name", COL_FILES)
def test_coloring_dimacs_instances(shared_data, name):
    path = shared_data / f"coloring/{name}.col"
    chi, proven = best_scores(shared_data)[name]
    n, edges = col_edges(path)
    A = sr.io.read(path)
    assert A.nrows == n
    r, c, _ = A.to_coo()
    assert {(int(u), int(v)) for u, v in zip(r, c) if u < v} == edges and A.nvals == 2 * len(edges)
    eu = np.array([e[0] for e in edges])
    ev = np.array([e[1] for e in edges])
    counts = {}
    for method in ("jones_plassmann", "greedy", "luby"):
        color = sr.algorithms.coloring(A, method=method, seed=0)
        k = check_coloring(A, color)
        col = color.to_dense(-1)
        assert color.nvals == n and (col >= 0).all()
        assert not (col[eu] == col[ev]).any()                      # proper, checked here too
        assert sorted(set(col.tolist())) == list(range(k))         # colors exactly 0..k-1
        if proven:
            assert k >= chi, f"{method} used {k} colors, below the chromatic number {chi}"
        counts[method] = k
    # greedy against networkx largest_first: both are largest-first greedy, but the order of
    # equal-degree vertices is not fixed by either contract, so the counts are compared loosely
    # (they were equal on all 23 instances when this was written).
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    k_nx = max(nx.greedy_color(G, strategy="largest_first").values()) + 1
    assert abs(counts["greedy"] - k_nx) <= 2, (counts, k_nx)


# ---------------------------------------------------------------------------------------------
# cnr-2000 (directed web crawl) and every LAGraph matrix: BFS and SSSP against scipy.csgraph
# ---------------------------------------------------------------------------------------------

@pytest.mark.data
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_cnr2000_bfs_matches_scipy(shared_data, direction):
    import scipy.sparse.csgraph as csgraph

    A = sr.io.read(shared_data / "web/cnr-2000.mtx.gz")
    assert (A.nrows, A.nvals) == (325_557, 3_216_152)
    S = A.to_scipy()
    G = sr.algorithms.Graph(A)
    hub = int(np.argmax(np.diff(S.indptr)))  # a source that reaches much of the crawl
    for s in (0, hub):
        r = sr.algorithms.bfs(G, s, parents=True, direction=direction)
        want = csgraph.shortest_path(S, unweighted=True, indices=s)
        assert np.array_equal(r.level.to_dense(-1), np.where(np.isinf(want), -1, want).astype(np.int64))
        check_bfs(A, s, r.level, r.parent)


# every square LAGraph matrix (lp_afiro is a 27x51 LP constraint matrix, not a graph)
LAGRAPH_MATRICES = sorted(
    p.stem for p in (Path(__file__).resolve().parents[3] / "shared/data/small/lagraph").glob("*.mtx")
    if p.stem != "lp_afiro"
) or ["karate"]


@pytest.mark.data
@pytest.mark.parametrize("name", LAGRAPH_MATRICES)
def test_lagraph_matrices_bfs_and_sssp_match_scipy(shared_data, name):
    import scipy.sparse.csgraph as csgraph

    A = sr.io.read(shared_data / f"small/lagraph/{name}.mtx")
    assert A.nrows == A.ncols
    S = A.to_scipy().astype(np.float64)
    S.data[:] = 1.0  # the pattern: stored zeros and negative values are edges too
    r = sr.algorithms.bfs(A, 0, parents=True)
    want = csgraph.shortest_path(S, unweighted=True, indices=0)
    assert np.array_equal(r.level.to_dense(-1), np.where(np.isinf(want), -1, want).astype(np.int64))
    check_bfs(A, 0, r.level, r.parent)
    if A.dtype.kind == "b":
        return
    W = A.dup("float64")
    w = W.to_coo()[2]
    if (w < 0).any():
        return  # negative weights: covered by the Bellman-Ford oracle tests on generated graphs
    if (w == 0).any():
        return  # scipy's dijkstra treats stored zeros as absent edges; zero weights are tested elsewhere
    want = csgraph.dijkstra(W.to_scipy(), indices=0)
    d = sr.algorithms.sssp(W, 0).distance
    np.testing.assert_allclose(d.to_dense(np.inf), want, rtol=1e-12)
    check_sssp(W, 0, d)
