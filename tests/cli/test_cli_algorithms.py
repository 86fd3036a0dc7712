"""A ``semiring`` command for every algorithm of ``semiring.algorithms``, end to end.

Each command runs in-process through ``main`` on a small generated or written graph, and the
file it writes with ``--output`` is checked against an answer computed without semiring:
SciPy's csgraph (levels, distances, components, spanning forests, all-pairs distances),
networkx (PageRank, triangles, betweenness, modularity) or the definition itself (a proper
coloring, a maximal independent set, a partition that covers every vertex).
"""

from __future__ import annotations

import gzip
import inspect
import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

import semiring as sr
from semiring.cli import main, parser, progress

REPO = Path(__file__).resolve().parents[2]
USAGE, FAILURE = 2, 1


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def run(capsys, *argv):
    """``main(argv)`` in-process, expecting success; returns what it printed."""
    rc = main([str(a) for a in argv])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    assert "Traceback" not in captured.err
    return captured.out


def fail(capsys, status, *argv):
    """``main(argv)`` in-process, expecting one ``semiring: error:`` line and ``status``."""
    rc = main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("semiring: error: "), err
    assert rc == status, (rc, err)
    return lines[0]


def table(path):
    """A CSV file written by ``--output`` -> {column name: int64 or float64 array}."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as f:
        header = f.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2).reshape(-1, len(header))
    cols = {}
    for j, name in enumerate(header):
        col = data[:, j]
        cols[name] = col.astype(np.int64) if np.array_equal(col, np.round(col)) else col
    return cols


def kron(scale, weighted=False, seed=0):
    """The graph ``kron:SCALE`` of the command (``--seed`` seeds the generator too), as SciPy CSR."""
    return sr.generators.kronecker(scale, seed=seed, weights=(1, 255) if weighted else None).to_scipy()


def grid(side, weighted=False):
    return sr.generators.grid(side, side, weights=(1, 255) if weighted else None, seed=0).to_scipy()


def write_mtx(path, S):
    """A SciPy matrix as a general Matrix Market file (integer weights)."""
    scipy.io.mmwrite(str(path), sp.coo_matrix(S).astype(np.int64), field="integer", symmetry="general")
    return path


def directed_graph(n=40, seed=3):
    """A random directed graph with cycles, self-loops and isolated vertices (SciPy CSR)."""
    rng = np.random.default_rng(seed)
    m = 3 * n
    S = sp.coo_matrix((rng.integers(1, 9, m), (rng.integers(0, n - 5, m), rng.integers(0, n - 5, m))),
                      shape=(n, n)).tocsr()
    S.sum_duplicates()
    return S


def edges_of(S):
    C = sp.coo_matrix(S)
    return C.row, C.col


# ---------------------------------------------------------------------------------------------
# every algorithm has a command, every option a help text
# ---------------------------------------------------------------------------------------------
#: each public algorithm of semiring.algorithms -> the command (and option) that runs it
COMMAND_OF = {
    "bfs": "bfs", "sssp": "sssp", "coloring": "color", "mis": "mis",
    "connected_components": "components", "strongly_connected_components": "scc",
    "floyd_warshall": "apsp --method floyd_warshall", "all_pairs_shortest_paths": "apsp",
    "louvain": "louvain", "modularity": "louvain (printed)", "pagerank": "pagerank",
    "triangle_count": "triangles", "triangles_per_vertex": "triangles --output",
    "minimum_spanning_forest": "mst", "betweenness_centrality": "betweenness",
    "partition": "partition", "edge_cut": "partition (printed)", "balance": "partition (printed)",
    "kernighan_lin_bisection": "partition --method kernighan_lin",
}


def test_every_public_algorithm_has_a_command():
    functions = {name for name in sr.algorithms.__all__
                 if inspect.isfunction(getattr(sr.algorithms, name))}
    assert functions - set(COMMAND_OF) == set(), "an algorithm without a command"
    commands = {c.split()[0] for c in COMMAND_OF.values()}
    assert commands <= set(parser.ALGORITHMS)
    p = parser.build("")
    sub = next(a for a in p._actions if a.choices and "bfs" in a.choices)
    assert set(sub.choices) == set(parser.COMMANDS)


def _subparsers():
    p = parser.build("")
    sub = next(a for a in p._actions if a.choices and "bfs" in a.choices)
    return sub.choices.items()


@pytest.mark.parametrize("name,sub", _subparsers(), ids=[n for n, _ in _subparsers()])
def test_every_option_has_help(name, sub):
    for action in sub._actions:
        assert action.help and len(action.help) > 15, f"semiring {name} {action.option_strings or action.dest}"
    options = {o for a in sub._actions for o in a.option_strings}
    assert "--quiet" in options
    if name not in ("demo",):
        assert "--device" in options


def test_help_names_the_scipy_routine_of_each_bench_column(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    out = capsys.readouterr().out
    assert "scipy.sparse.csgraph.breadth_first_order" in out and "scipy.sparse.csgraph.dijkstra" in out
    text = run(capsys, "bench", "--scale", "5", "--roots", "1", "--sssp-roots", "1")
    legend = text[:text.index("kernel ")]
    assert "bfs       scipy.sparse.csgraph.breadth_first_order" in legend
    assert "sssp      scipy.sparse.csgraph.dijkstra" in legend


# ---------------------------------------------------------------------------------------------
# bfs and sssp: the whole result, and the default source
# ---------------------------------------------------------------------------------------------
def test_default_source_is_the_first_vertex_with_an_edge(tmp_path, capsys):
    # kron:12 (seed 0): vertex 0 has no edge; the search starts from the first vertex that has one
    S = kron(12)
    deg = np.diff(S.indptr)
    first = int(np.flatnonzero(deg)[0])
    assert deg[0] == 0 and first > 0
    out = run(capsys, "bfs", "kron:12", "--output", tmp_path / "b.csv")
    assert f"source {first}: the first vertex with an out-edge" in out
    assert f"bfs from {first}:" in out
    t = table(tmp_path / "b.csv")
    hops = csgraph.shortest_path(S, unweighted=True, indices=first)
    reached = np.flatnonzero(np.isfinite(hops))
    assert reached.size > 1000
    assert np.array_equal(t["vertex"], reached) and np.array_equal(t["level"], hops[reached])


def test_default_source_of_a_directed_file_has_an_out_edge(tmp_path, capsys):
    # vertices 0 and 1 have only in-edges: the source is 2, the first with an out-edge
    g = tmp_path / "d.gr"
    g.write_text("p sp 5 3\na 3 1 4\na 3 4 1\na 4 2 2\n")
    out = run(capsys, "sssp", g, "--output", tmp_path / "s.csv")
    assert "source 2:" in out and "sssp from 2 " in out
    t = table(tmp_path / "s.csv")
    assert dict(zip(t["vertex"].tolist(), t["distance"].tolist())) == {0: 4, 1: 3, 2: 0, 3: 1}


def test_graph_without_edges_searches_from_vertex_0_and_says_so(tmp_path, capsys):
    g = tmp_path / "empty.mtx"
    g.write_text("%%MatrixMarket matrix coordinate pattern general\n3 3 0\n")
    out = run(capsys, "bfs", g)
    assert "no vertex has an out-edge" in out and "bfs from 0: 1 reached" in out


@pytest.mark.parametrize("suffix", ["csv", "mtx"])
def test_bfs_writes_levels_and_parents(tmp_path, capsys, suffix):
    S = kron(9)
    s = int(np.argmax(np.diff(S.indptr)))
    path = tmp_path / f"b.{suffix}"
    run(capsys, "bfs", "kron:9", "--source", s, "--parents", "--output", path)
    hops = csgraph.shortest_path(S, unweighted=True, indices=s)
    reached = np.flatnonzero(np.isfinite(hops))
    if suffix == "csv":
        t = table(path)
        assert list(t) == ["vertex", "level", "parent"]
        v, level, parent = t["vertex"], t["level"], t["parent"]
    else:
        M = scipy.io.mmread(path).tocsr()
        assert M.shape == (S.shape[0], 2)
        v = np.flatnonzero(np.diff(M.indptr))  # rows with entries (the source's level 0 is stored)
        level, parent = M[v, 0].toarray().ravel(), M[v, 1].toarray().ravel()
        assert "columns: level parent" in path.read_text().splitlines()[1]
    assert np.array_equal(v, reached)
    assert np.array_equal(level, hops[reached])
    for u, p in zip(v, parent):
        if u == s:
            assert p == s
        else:
            assert S[p, u] and hops[p] == hops[u] - 1


def test_sssp_writes_distances_and_parents(tmp_path, capsys):
    W = kron(8, weighted=True)
    s = int(np.argmax(np.diff(W.indptr)))
    run(capsys, "sssp", "kron:8", "--source", s, "--parents", "--output", tmp_path / "s.csv")
    t = table(tmp_path / "s.csv")
    want = csgraph.dijkstra(W, indices=s)
    reached = np.flatnonzero(np.isfinite(want))
    assert np.array_equal(t["vertex"], reached) and np.array_equal(t["distance"], want[reached])
    for v, p in zip(t["vertex"], t["parent"]):  # a shortest-path tree: tight edges to the source
        if v == s:
            assert p == s
        else:
            assert W[p, v] and want[p] + W[p, v] == want[v]


@pytest.mark.parametrize("argv", [["sssp", "kron:4", "--distributed", "--parents"],
                                  ["bfs", "kron:4", "--distributed", "--symmetrize"]])
def test_options_the_distributed_engine_lacks(capsys, argv):
    line = fail(capsys, USAGE, *argv)
    assert argv[-1] in line and "not with --distributed" in line


# ---------------------------------------------------------------------------------------------
# per-vertex results
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["jones_plassmann", "greedy", "gebremedhin_manne"])
def test_color_is_proper(tmp_path, capsys, method):
    out = run(capsys, "color", "kron:8", "--method", method, "--output", tmp_path / "c.csv")
    t = table(tmp_path / "c.csv")
    S = kron(8)
    assert np.array_equal(t["vertex"], np.arange(S.shape[0]))
    r, c = edges_of(S)
    off = r != c
    assert not np.any(t["color"][r[off]] == t["color"][c[off]])
    k = int(t["color"].max()) + 1
    assert set(t["color"].tolist()) == set(range(k)) and f"{k} colors" in out


def test_mis_is_independent_and_maximal(tmp_path, capsys):
    run(capsys, "mis", "kron:8", "--seed", "5", "--output", tmp_path / "m.csv")
    t = table(tmp_path / "m.csv")
    S = kron(8, seed=5)
    n = S.shape[0]
    assert np.array_equal(t["vertex"], np.arange(n)) and set(np.unique(t["member"]).tolist()) <= {0, 1}
    member = t["member"].astype(bool)
    r, c = edges_of(S)
    assert not np.any(member[r] & member[c] & (r != c))  # independent
    covered = member.copy()
    covered[c[member[r]]] = True
    covered[r[member[c]]] = True
    assert covered.all()  # maximal: every other vertex has a member neighbour


def test_components_match_scipy(tmp_path, capsys):
    S = directed_graph()
    g = write_mtx(tmp_path / "g.mtx", S)
    out = run(capsys, "components", g, "--output", tmp_path / "c.csv")
    t = table(tmp_path / "c.csv")
    k, lab = csgraph.connected_components(S, directed=True, connection="weak")
    smallest = np.array([np.flatnonzero(lab == lab[v])[0] for v in range(S.shape[0])])
    assert np.array_equal(t["component"], smallest)
    assert f"connected components: {k:,}," in out


def test_scc_matches_scipy(tmp_path, capsys):
    S = directed_graph()
    g = write_mtx(tmp_path / "g.mtx", S)
    out = run(capsys, "scc", g, "--output", tmp_path / "c.mtx")
    M = scipy.io.mmread(tmp_path / "c.mtx").toarray()
    assert M.shape == (S.shape[0], 1)
    k, lab = csgraph.connected_components(S, directed=True, connection="strong")
    smallest = np.array([np.flatnonzero(lab == lab[v])[0] for v in range(S.shape[0])])
    assert np.array_equal(M[:, 0], smallest)
    assert f"strongly connected components: {k:,}," in out


@pytest.mark.parametrize("alpha", ["0.85", "0.5"])
def test_pagerank_matches_networkx(tmp_path, capsys, alpha):
    S = directed_graph()
    g = write_mtx(tmp_path / "g.mtx", S)
    run(capsys, "pagerank", g, "--alpha", alpha, "--tol", "1e-10", "--max-iter", "1000",
        "--output", tmp_path / "r.csv")
    t = table(tmp_path / "r.csv")
    G = nx.from_scipy_sparse_array(S, create_using=nx.DiGraph)
    want = nx.pagerank(G, alpha=float(alpha), tol=1e-12, max_iter=1000, weight=None)
    assert np.array_equal(t["vertex"], np.arange(S.shape[0]))
    np.testing.assert_allclose(t["rank"], [want[v] for v in range(S.shape[0])], atol=1e-8)


def test_pagerank_weighted_matches_networkx(tmp_path, capsys):
    S = directed_graph()
    g = write_mtx(tmp_path / "g.mtx", S)
    run(capsys, "pagerank", g, "--weighted", "--tol", "1e-10", "--max-iter", "1000", "--output", tmp_path / "r.csv")
    G = nx.from_scipy_sparse_array(S, create_using=nx.DiGraph)
    want = nx.pagerank(G, tol=1e-12, max_iter=1000, weight="weight")
    np.testing.assert_allclose(table(tmp_path / "r.csv")["rank"], [want[v] for v in range(S.shape[0])], atol=1e-8)


def test_triangles_match_networkx(tmp_path, capsys):
    out = run(capsys, "triangles", "kron:7", "--method", "cohen", "--output", tmp_path / "t.csv")
    S = kron(7)
    G = nx.from_scipy_sparse_array(S)
    G.remove_edges_from(nx.selfloop_edges(G))
    want = nx.triangles(G)
    t = table(tmp_path / "t.csv")
    assert np.array_equal(t["triangles"], [want[v] for v in range(S.shape[0])])
    assert f"triangles (cohen): {sum(want.values()) // 3:,}," in out


def test_louvain_communities_cover_the_graph_and_report_their_modularity(tmp_path, capsys):
    out = run(capsys, "louvain", "kron:8", "--output", tmp_path / "l.csv")
    t = table(tmp_path / "l.csv")
    S = kron(8)
    n = S.shape[0]
    assert np.array_equal(t["vertex"], np.arange(n))
    K = int(t["community"].max()) + 1
    assert set(t["community"].tolist()) == set(range(K))
    G = nx.from_scipy_sparse_array(S)
    parts = [set(np.flatnonzero(t["community"] == k).tolist()) for k in range(K)]
    q = nx.community.modularity(G, parts)
    assert q > 0.05
    assert f"{K:,} communities" in out and f"modularity {q:.4f}" in out


@pytest.mark.parametrize("flags", [[], ["--raw"], ["--endpoints"]])
def test_betweenness_matches_networkx(tmp_path, capsys, flags):
    run(capsys, "betweenness", "kron:6", *flags, "--output", tmp_path / "b.csv")
    S = kron(6)
    G = nx.from_scipy_sparse_array(S)
    want = nx.betweenness_centrality(G, normalized="--raw" not in flags, endpoints="--endpoints" in flags)
    np.testing.assert_allclose(table(tmp_path / "b.csv")["betweenness"], [want[v] for v in range(S.shape[0])],
                               rtol=1e-9, atol=1e-12)


def test_betweenness_samples(tmp_path, capsys):
    # every vertex as a sample is the exact answer; fewer are an estimate from that many sources
    n = 64
    run(capsys, "betweenness", "kron:6", "--samples", n, "--output", tmp_path / "all.csv")
    want = nx.betweenness_centrality(nx.from_scipy_sparse_array(kron(6)))
    np.testing.assert_allclose(table(tmp_path / "all.csv")["betweenness"], [want[v] for v in range(n)], atol=1e-12)
    out = run(capsys, "betweenness", "kron:6", "--samples", "8", "--seed", "2", "--output", tmp_path / "few.csv")
    assert "estimate from 8 sources (seed 2)" in out
    assert table(tmp_path / "few.csv")["betweenness"].shape == (n,)


@pytest.mark.parametrize("method,k", [("multilevel", 4), ("bfs", 3), ("kernighan_lin", 2)])
def test_partition_covers_every_vertex(tmp_path, capsys, method, k):
    out = run(capsys, "partition", "kron:8", "--method", method, "--parts", k, "--output", tmp_path / "p.csv")
    t = table(tmp_path / "p.csv")
    S = kron(8)
    n = S.shape[0]
    assert np.array_equal(t["vertex"], np.arange(n))
    assert set(t["part"].tolist()) == set(range(k))  # every part non-empty, ids 0..k-1
    sizes = np.bincount(t["part"], minlength=k)
    assert sizes.max() <= np.ceil(1.03 * n / k)
    r, c = edges_of(S)
    cut = int(np.sum(t["part"][r] != t["part"][c])) // 2  # each undirected edge is stored twice
    assert f"edge cut {cut:,}," in out


# ---------------------------------------------------------------------------------------------
# per-pair results
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("suffix", ["csv", "mtx"])
def test_mst_is_a_minimum_spanning_forest(tmp_path, capsys, suffix):
    path = tmp_path / f"f.{suffix}"
    out = run(capsys, "mst", "kron:8", "--output", path)
    W = kron(8, weighted=True)
    n = W.shape[0]
    if suffix == "csv":
        t = table(path)
        u, v, w = t["source"], t["target"], t["weight"]
        assert np.all(u < v)
    else:
        F = sp.triu(scipy.io.mmread(path)).tocoo()
        assert (abs(scipy.io.mmread(path) - scipy.io.mmread(path).T)).nnz == 0  # both directions
        u, v, w = F.row, F.col, F.data
    assert np.array_equal(w, np.asarray(W[u, v]).ravel())  # the forest's edges are the graph's
    k, _ = csgraph.connected_components(W, directed=False)
    assert len(u) == n - k
    forest = sp.coo_matrix((np.ones(len(u)), (u, v)), shape=(n, n))
    assert csgraph.connected_components(forest, directed=False)[0] == k  # spans every component
    want = csgraph.minimum_spanning_tree(W).sum()
    assert w.sum() == want and f"total weight {int(want)}," in out


def test_apsp_matches_scipy(tmp_path, capsys):
    run(capsys, "apsp", "grid2d:5", "--output", tmp_path / "d.csv")
    W = grid(5, weighted=True)
    want = csgraph.shortest_path(W, method="D")
    t = table(tmp_path / "d.csv")
    got = np.full(want.shape, np.inf)
    got[t["source"], t["target"]] = t["distance"]
    assert np.array_equal(got, want)


@pytest.mark.parametrize("method", ["repeated", "floyd_warshall", "batched_bfs"])
def test_apsp_from_some_sources(tmp_path, capsys, method):
    S = directed_graph()
    g = write_mtx(tmp_path / "g.mtx", S)
    sources = [3, 0, 17]
    out = run(capsys, "apsp", g, "--method", method, "--sources", ",".join(map(str, sources)),
              "--output", tmp_path / "d.mtx")
    D = scipy.io.mmread(tmp_path / "d.mtx").tocsr()
    assert D.shape == S.shape
    want = csgraph.shortest_path(S, method="D", unweighted=method == "batched_bfs", indices=sources)
    for row, s in enumerate(sources):
        got = np.full(S.shape[0], np.inf)
        got[D[s].indices] = D[s].data
        got[s] = 0  # an explicit zero may be dropped by the reader
        assert np.array_equal(got, want[row])
    assert set(np.flatnonzero(np.diff(D.indptr)).tolist()) <= set(sources)
    assert f"{np.isfinite(want).sum():,} reachable pairs" in out


# ---------------------------------------------------------------------------------------------
# output formats, --symmetrize
# ---------------------------------------------------------------------------------------------
def test_format_option_and_compressed_output(tmp_path, capsys):
    run(capsys, "components", "kron:6", "--output", tmp_path / "c.dat", "--format", "mtx")
    assert scipy.io.mmread(tmp_path / "c.dat").shape == (64, 1)
    run(capsys, "components", "kron:6", "--output", tmp_path / "c.txt", "--format", "csv")
    assert (tmp_path / "c.txt").read_text().startswith("vertex,component\n")
    run(capsys, "components", "kron:6", "--output", tmp_path / "c.csv.gz")
    assert np.array_equal(table(tmp_path / "c.csv.gz")["vertex"], np.arange(64))
    run(capsys, "pagerank", "kron:6", "--output", tmp_path / "r.mtx.gz")
    with gzip.open(tmp_path / "r.mtx.gz") as f:
        assert scipy.io.mmread(f).shape == (64, 1)


def test_unknown_output_suffix_without_format(tmp_path, capsys):
    line = fail(capsys, USAGE, "pagerank", "kron:4", "--output", tmp_path / "r.json")
    assert "argument --output" in line and "--format csv|mtx" in line and "r.json" in line
    assert not (tmp_path / "r.json").exists()


def test_symmetrize_runs_undirected_algorithms_on_a_directed_file(tmp_path, capsys):
    S = directed_graph()
    g = write_mtx(tmp_path / "g.mtx", S)
    for command in ("triangles", "louvain", "mst", "partition"):
        line = fail(capsys, FAILURE, command, g)
        assert "--symmetrize" in line
    run(capsys, "triangles", g, "--symmetrize", "--output", tmp_path / "t.csv")
    G = nx.Graph(nx.from_scipy_sparse_array(S, create_using=nx.DiGraph))
    G.remove_edges_from(nx.selfloop_edges(G))
    want = nx.triangles(G)
    assert np.array_equal(table(tmp_path / "t.csv")["triangles"], [want[v] for v in range(S.shape[0])])
    # the smaller weight of the two directions
    run(capsys, "mst", g, "--symmetrize", "--output", tmp_path / "f.csv")
    D = S.toarray()
    U = np.where((D > 0) & (D.T > 0), np.minimum(D, D.T), np.maximum(D, D.T))
    np.fill_diagonal(U, 0)
    U = sp.csr_matrix(U)
    assert table(tmp_path / "f.csv")["weight"].sum() == csgraph.minimum_spanning_tree(U).sum()


# ---------------------------------------------------------------------------------------------
# bad input: one line, no traceback
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv,needles", [
    (["pagerank", "kron:4", "--alpha", "1.5"], ["--alpha", "[0, 1]", "'1.5'"]),
    (["pagerank", "kron:4", "--tol", "-1"], ["--tol", ">= 0"]),
    (["pagerank", "kron:4", "--max-iter", "x"], ["--max-iter"]),
    (["louvain", "kron:4", "--resolution", "nan"], ["--resolution", "finite"]),
    (["louvain", "kron:4", "--max-level", "0"], ["--max-level"]),
    (["partition", "kron:4", "--parts", "0"], ["--parts"]),
    (["partition", "kron:4", "--parts", "17"], ["--parts", "1..16", "kron:4"]),
    (["partition", "kron:4", "--method", "kernighan_lin", "--parts", "3"], ["--parts", "kernighan_lin"]),
    (["partition", "kron:4", "--imbalance", "-0.1"], ["--imbalance"]),
    (["betweenness", "kron:4", "--samples", "0"], ["--samples"]),
    (["betweenness", "kron:4", "--samples", "17"], ["--samples", "1..16"]),
    (["apsp", "kron:4", "--sources", "1,x"], ["--sources", "comma-separated"]),
    (["apsp", "kron:4", "--sources", "1,2,1"], ["--sources", "distinct", "1 twice"]),
    (["apsp", "kron:4", "--sources", "16"], ["--sources", "0..15"]),
    (["apsp", "kron:4", "--method", "johnson"], ["--method", "invalid choice"]),
    (["mst", "kron:4", "--method", "kruskal"], ["--method", "invalid choice"]),
    (["triangles", "kron:4", "--method", "x"], ["--method", "invalid choice"]),
    (["color", "kron:4", "--format", "json"], ["--format", "invalid choice"]),
    (["scc", "kron:4", "--device", "tpu"], ["--device", "invalid choice"]),
    (["mis", "torus:3"], ["argument graph", "torus"]),
], ids=lambda x: "_".join(x) if isinstance(x, list) and x and x[0] in parser.ALGORITHMS else None)
def test_bad_options(capsys, argv, needles):
    line = fail(capsys, USAGE, *argv)
    for needle in needles:
        assert needle in line, (needle, line)


def test_failures_after_reading(tmp_path, capsys):
    g = write_mtx(tmp_path / "g.mtx", directed_graph(n=10))
    assert "--sources: expected vertices in 0..9" in fail(capsys, FAILURE, "apsp", g, "--sources", "2,10")
    assert "--parts: expected 1..10" in fail(capsys, FAILURE, "partition", g, "--symmetrize", "--parts", "11")
    assert "--samples: expected 1..10" in fail(capsys, FAILURE, "betweenness", g, "--samples", "11")
    assert "--source: expected a vertex in 0..9" in fail(capsys, FAILURE, "sssp", g, "--source", "10")
    line = fail(capsys, FAILURE, "pagerank", "kron:8", "--max-iter", "1")
    assert "did not converge" in line
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 x\n")
    for command in parser.ALGORITHMS:
        assert "bad.mtx" in fail(capsys, FAILURE, command, bad)


# ---------------------------------------------------------------------------------------------
# progress on stderr
# ---------------------------------------------------------------------------------------------
class Terminal(io.StringIO):
    def isatty(self):
        return True


def _slow(monkeypatch, seconds=0.6):
    """Make the bfs step take ``seconds`` (longer than the spinner's delay)."""
    from semiring.cli import run as cli_run

    real = cli_run.algorithms.bfs

    def slow(*args, **kwargs):
        time.sleep(seconds)
        return real(*args, **kwargs)

    monkeypatch.setattr(cli_run.algorithms, "bfs", slow)


@pytest.mark.parametrize("quiet", [False, True])
def test_progress_spinner_on_a_terminal_only(monkeypatch, capsys, quiet):
    _slow(monkeypatch)
    monkeypatch.setattr(progress, "DELAY", 0.1)
    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    assert main(["bfs", "kron:5"] + (["--quiet"] if quiet else [])) == 0
    shown = term.getvalue()
    if quiet:
        assert shown == ""
    else:
        assert re.search(r"\rbfs [|/\\-] 00:0\d", shown), repr(shown)
        assert shown.endswith("\r")  # the line is cleared when the step ends
    assert "bfs from" in capsys.readouterr().out


def test_no_progress_when_stderr_is_not_a_terminal(monkeypatch, capsys):
    _slow(monkeypatch)
    monkeypatch.setattr(progress, "DELAY", 0.1)
    assert main(["bfs", "kron:5"]) == 0
    assert capsys.readouterr().err == ""


# ---------------------------------------------------------------------------------------------
# the command, as a user runs it
# ---------------------------------------------------------------------------------------------
def test_distributed_bfs_default_source_and_parents(tmp_path):
    from _mpi import mpiexec

    env = dict(os.environ, PYTHONPATH=str(REPO), OMP_NUM_THREADS="1")
    p = subprocess.run([mpiexec(), "-n", "2", sys.executable, "-m", "semiring", "bfs", "kron:12", "--distributed",
                        "--parents", "--output", "b.csv"], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    S = kron(12)
    first = int(np.flatnonzero(np.diff(S.indptr))[0])
    assert first > 0 and f"source {first}: the first vertex with an out-edge" in p.stdout
    t = table(tmp_path / "b.csv")
    hops = csgraph.shortest_path(S, unweighted=True, indices=first)
    reached = np.flatnonzero(np.isfinite(hops))
    assert np.array_equal(t["vertex"], reached) and np.array_equal(t["level"], hops[reached])
    assert all(p == first if v == first else S[p, v] and hops[p] == hops[v] - 1
               for v, p in zip(t["vertex"], t["parent"]))


def test_subprocess_commands(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    p = subprocess.run([sys.executable, "-m", "semiring", "louvain", "grid2d:8", "--output", "l.csv"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert "communities" in p.stdout
    assert table(tmp_path / "l.csv")["vertex"].size == 64
    p = subprocess.run([sys.executable, "-m", "semiring", "mst", "kron:4", "--source", "1"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == USAGE and p.stderr.startswith("semiring: error: unrecognized arguments: --source")
    assert "Traceback" not in p.stderr
