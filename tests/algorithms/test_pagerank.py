"""PageRank against networkx, LAGraph's MATLAB ranks and the LDBC Graphalytics outputs.

Oracles: ``networkx.pagerank`` (its SciPy power iteration, independent of the engine) on
generated directed, undirected and weighted graphs with dangling vertices, personalization,
dangling and nstart vectors; the MATLAB ``centrality(G, 'pagerank')`` values that LAGraph's
test_PageRank.c holds (karate, west0067, ldbc-directed-example; read from that file), to
LAGraph's 1e-4; the LDBC Graphalytics PR outputs (``pr/`` validation graphs with the damping
factor 0.85 and the iteration counts of Graphalytics' PageRankValidationTest: 14 directed, 26
undirected; ``example/`` with the parameters in its ``.properties`` files).
"""

from __future__ import annotations

import re

import networkx as nx
import numpy as np
import pytest

import semiring as sr
from semiring.backends._xp import asnumpy

pagerank = sr.algorithms.pagerank


def dense(v):
    return asnumpy(v.to_dense())


def nx_graph(A, weighted=False):
    """A networkx graph of A's links (directed), with the values as "weight" when weighted."""
    rows, cols, vals = (asnumpy(t) for t in A.to_coo())
    G = nx.DiGraph()
    G.add_nodes_from(range(A.nrows))
    if weighted:
        G.add_weighted_edges_from(zip(rows.tolist(), cols.tolist(), vals.astype(float).tolist()))
    else:
        G.add_edges_from(zip(rows.tolist(), cols.tolist()))
    return G


def nx_ranks(G, n, **kw):
    r = nx.pagerank(G, **kw)
    return np.array([r[i] for i in range(n)])


def gnp(n, p, seed, directed=True, weights=None):
    """A networkx random graph as a Matrix (float weights in [0, 1) with ``weights``)."""
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    rng = np.random.default_rng(seed)
    rows, cols = (np.array(x, dtype=np.int64) for x in zip(*G.edges())) if G.number_of_edges() else ([], [])
    rows, cols = np.asarray(rows, np.int64), np.asarray(cols, np.int64)
    if not directed:
        rows, cols = np.concatenate([rows, cols]), np.concatenate([cols, rows])
    vals = None
    if weights:
        w = rng.random(rows.size // (1 if directed else 2))
        vals = w if directed else np.concatenate([w, w])
    return sr.Matrix.from_coo(rows, cols, vals, nrows=n, ncols=n)


GRAPHS = {
    "directed_dangling": gnp(60, 0.04, 1),  # several vertices without out-links
    "directed_dense": gnp(40, 0.2, 2),
    "undirected": gnp(50, 0.08, 3, directed=False),
    "isolated": gnp(30, 0.02, 4, directed=False),  # isolated vertices are dangling
    "self_loops": sr.Matrix.from_coo([0, 0, 1, 2, 2, 3], [0, 1, 1, 3, 0, 3], nrows=5, ncols=5),
}


# ---------------------------------------------------------------------------------------------
# networkx
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("alpha", [0.85, 0.5, 0.0])
def test_matches_networkx(name, alpha):
    A = GRAPHS[name]
    n = A.nrows
    got = pagerank(A, alpha=alpha, tol=1e-13, max_iter=2000)
    want = nx_ranks(nx_graph(A), n, alpha=alpha, tol=1e-13, max_iter=2000)
    np.testing.assert_allclose(dense(got), want, atol=1e-11)
    assert got.dtype == np.float64 and got.nvals == n
    assert abs(dense(got).sum() - 1) < 1e-12 and dense(got).min() >= 0


@pytest.mark.parametrize("seed", range(3))
def test_weighted_matches_networkx(seed):
    A = gnp(50, 0.06, 10 + seed, weights=True)
    rows, cols, vals = A.to_coo()
    # zero-weight links: a vertex whose links all weigh 0 is dangling, for both
    vals = vals.copy()
    vals[rows == rows[0]] = 0.0
    A = sr.Matrix.from_coo(rows, cols, vals, nrows=50, ncols=50)
    got = pagerank(A, weighted=True, tol=1e-13)
    np.testing.assert_allclose(dense(got), nx_ranks(nx_graph(A, weighted=True), 50, tol=1e-13), atol=1e-11)
    # the pattern ignores the values, as networkx with weight=None
    np.testing.assert_allclose(dense(pagerank(A, tol=1e-13)), nx_ranks(nx_graph(A), 50, tol=1e-13, weight=None),
                               atol=1e-11)


def test_integer_and_bool_weights():
    A = sr.Matrix.from_coo([0, 0, 1, 2], [1, 2, 2, 0], [1, 3, 2, 5], nrows=3, ncols=3)
    want = nx_ranks(nx_graph(A, weighted=True), 3, tol=1e-13)
    np.testing.assert_allclose(dense(pagerank(A, weighted=True, tol=1e-13)), want, atol=1e-11)
    B = A.dup("bool")
    np.testing.assert_allclose(dense(pagerank(B, weighted=True, tol=1e-13)), dense(pagerank(B, tol=1e-13)))


def test_personalization_dangling_and_nstart_match_networkx():
    A = GRAPHS["directed_dangling"]
    n = A.nrows
    rng = np.random.default_rng(7)
    pers = rng.random(n) * (rng.random(n) < 0.5)
    dang = rng.random(n) * (rng.random(n) < 0.3)
    start = rng.random(n)
    to_dict = (lambda a: {i: float(x) for i, x in enumerate(a) if x})
    G = nx_graph(A)
    want = nx_ranks(G, n, personalization=to_dict(pers), dangling=to_dict(dang), nstart=to_dict(start), tol=1e-13)
    # arrays, and sparse Vectors whose absent entries are zeros
    got = pagerank(A, personalization=pers, dangling=dang, nstart=start, tol=1e-13)
    np.testing.assert_allclose(dense(got), want, atol=1e-11)
    vec = (lambda a: sr.Vector.from_coo(np.flatnonzero(a), a[a != 0], size=n))
    got = pagerank(A, personalization=vec(pers), dangling=vec(dang), nstart=vec(start), tol=1e-13)
    np.testing.assert_allclose(dense(got), want, atol=1e-11)
    # personalization alone: the dangling rank follows it too
    want = nx_ranks(G, n, personalization=to_dict(pers), tol=1e-13)
    np.testing.assert_allclose(dense(pagerank(A, personalization=pers * 3, tol=1e-13)), want, atol=1e-11)


def test_networkx_stopping_rule_and_iteration_count():
    """tol is networkx's: the same number of iterations runs, so both stop at the same ranks."""
    A = GRAPHS["directed_dense"]
    for tol in (1e-3, 1e-6):
        got = pagerank(A, tol=tol)
        want = nx_ranks(nx_graph(A), A.nrows, tol=tol)
        np.testing.assert_allclose(dense(got), want, atol=1e-14)
    # the fewest iterations that converge: networkx raises with one fewer, and so do we
    k = next(k for k in range(1, 100) if _nx_converges(A, k))
    pagerank(A, max_iter=k)
    with pytest.raises(sr.ConvergenceFailure, match="did not converge") as info:
        pagerank(A, max_iter=k - 1)
    assert info.value.iterations == k - 1 and isinstance(info.value, sr.SemiringError)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(nx_graph(A), max_iter=k - 1)


def _nx_converges(A, k):
    try:
        nx.pagerank(nx_graph(A), max_iter=k)
        return True
    except nx.PowerIterationFailedConvergence:
        return False


def test_fixed_iterations_without_a_tolerance():
    A = GRAPHS["directed_dangling"]
    n = A.nrows
    np.testing.assert_allclose(dense(pagerank(A, max_iter=0, tol=None)), np.full(n, 1 / n))
    start = np.arange(n, dtype=float)
    np.testing.assert_allclose(dense(pagerank(A, max_iter=0, tol=None, nstart=start)), start / start.sum())
    # k iterations by hand with dense NumPy: x = alpha (x / d) A + alpha sum(x[sinks]) / n + (1 - alpha) / n
    M = asnumpy(A.to_scipy().toarray()).astype(bool).astype(float)
    d = M.sum(axis=1)
    x = np.full(n, 1 / n)
    for _ in range(3):
        x = 0.85 * (np.divide(x, d, out=np.zeros(n), where=d > 0) @ M) + 0.85 * x[d == 0].sum() / n + 0.15 / n
    np.testing.assert_allclose(dense(pagerank(A, max_iter=3, tol=None)), x, atol=1e-15)


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_alpha_one_converges_or_fails_as_networkx(name):
    """Without teleporting, a periodic component makes the iteration oscillate: both fail; an
    absorbing self-loop or dangling vertices let it settle: both give the same ranks."""
    A = GRAPHS[name]
    try:
        want = nx_ranks(nx_graph(A), A.nrows, alpha=1.0, tol=1e-12, max_iter=500)
    except nx.PowerIterationFailedConvergence:
        with pytest.raises(sr.ConvergenceFailure):
            pagerank(A, alpha=1.0, tol=1e-12, max_iter=500)
        return
    np.testing.assert_allclose(dense(pagerank(A, alpha=1.0, tol=1e-12, max_iter=500)), want, atol=1e-10)


def test_alpha_one_outcomes_cover_both_cases():
    outcomes = set()
    for A in GRAPHS.values():
        try:
            pagerank(A, alpha=1.0, tol=1e-12, max_iter=500)
            outcomes.add("converged")
        except sr.ConvergenceFailure:
            outcomes.add("failed")
    assert outcomes == {"converged", "failed"}


def test_empty_and_edgeless_graphs():
    assert pagerank(sr.Matrix(0, 0, "bool")).size == 0
    r = pagerank(sr.Matrix(4, 4, "bool"))  # every vertex dangling: uniform
    np.testing.assert_allclose(dense(r), np.full(4, 0.25))


def test_graph_argument_caches_links():
    G = sr.algorithms.Graph(GRAPHS["undirected"])
    a = pagerank(G, tol=1e-12)
    assert ("pagerank_links", False) in G.derived()
    np.testing.assert_array_equal(dense(pagerank(G, tol=1e-12)), dense(a))
    np.testing.assert_allclose(dense(a), dense(pagerank(GRAPHS["undirected"], tol=1e-12)))


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, exc, words", [
    ({"alpha": 1.5}, sr.InvalidValue, "alpha"),
    ({"alpha": -0.1}, sr.InvalidValue, "alpha"),
    ({"alpha": float("nan")}, sr.InvalidValue, "alpha"),
    ({"alpha": "0.85"}, sr.InvalidValue, "alpha"),
    ({"max_iter": -1}, sr.InvalidValue, "max_iter"),
    ({"max_iter": 2.5}, sr.InvalidValue, "max_iter"),
    ({"max_iter": True}, sr.InvalidValue, "max_iter"),
    ({"tol": -1e-6}, sr.InvalidValue, "tol"),
    ({"tol": float("nan")}, sr.InvalidValue, "tol"),
    ({"weighted": "yes"}, sr.InvalidValue, "weighted"),
    ({"personalization": np.ones(3)}, sr.DimensionMismatch, "size 5"),
    ({"personalization": sr.Vector(4)}, sr.DimensionMismatch, "size 5"),
    ({"personalization": np.zeros(5)}, sr.InvalidValue, "all zeros"),
    ({"personalization": np.array([1, -1, 0, 0, 0.0])}, sr.InvalidValue, ">= 0"),
    ({"dangling": np.array([1, np.nan, 0, 0, 0])}, sr.InvalidValue, "dangling"),
    ({"nstart": np.array([1, np.inf, 0, 0, 0])}, sr.InvalidValue, "nstart"),
    ({"nstart": np.ones((5, 1))}, sr.InvalidValue, "1-D"),
    ({"nstart": ["a"] * 5}, sr.InvalidValue, "numeric"),
])
def test_bad_arguments(kwargs, exc, words):
    with pytest.raises(exc, match=words):
        pagerank(GRAPHS["self_loops"], **kwargs)


@pytest.mark.parametrize("w", [-1.0, np.nan, np.inf])
def test_bad_weights(w):
    A = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, w], nrows=2, ncols=2)
    with pytest.raises(sr.InvalidValue, match="finite and >= 0"):
        pagerank(A, weighted=True)
    assert dense(pagerank(A)).tolist() == [0.5, 0.5]  # the pattern ignores the values


def test_not_a_square_matrix():
    with pytest.raises(sr.DimensionMismatch, match="square"):
        pagerank(sr.Matrix(2, 3, "bool"))
    with pytest.raises(sr.InvalidValue, match="Matrix or Graph"):
        pagerank(np.eye(3))


# ---------------------------------------------------------------------------------------------
# published answers
# ---------------------------------------------------------------------------------------------
def lagraph_ranks(shared_data):
    """{matrix file stem: MATLAB ranks} from LAGraph's test_PageRank.c."""
    src = (shared_data / "small/lagraph/expected/test_PageRank.c").read_text()
    found = {m.group(1).replace("_", "-"): np.array([float(x) for x in m.group(2).split(",") if x.strip()])
             for m in re.finditer(r"double\s+(\w+)_rank\s*\[\d+\]\s*=\s*\{([^}]*)\}", src)}
    assert set(found) == {"karate", "west0067", "ldbc-directed-example"}, found.keys()
    return found


@pytest.mark.data
def test_lagraph_matlab_ranks(shared_data):
    for name, want in lagraph_ranks(shared_data).items():
        A = sr.io.read(shared_data / f"small/lagraph/{name}.mtx")
        got = dense(pagerank(A, tol=1e-10))
        assert got.shape == want.shape
        assert np.abs(got - want).max() < 1e-4, name  # LAGraph's bound (MATLAB stops at its own 1e-4)


def ldbc_adjacency(path):
    """(labels, rows, cols) of a Graphalytics vertex-based file: "v n1 n2 ..." per line."""
    labels, rows, cols = [], [], []
    for line in path.read_text().splitlines():
        parts = [int(x) for x in line.split()]
        if parts:
            labels.append(parts[0])
            rows += [parts[0]] * (len(parts) - 1)
            cols += parts[1:]
    return labels, rows, cols


def ldbc_values(path):
    return {int(a): float(b) for a, b in (line.split() for line in path.read_text().splitlines() if line.strip())}


def label_matrix(labels, rows, cols, directed):
    """The Matrix of edges between labelled vertices (index = position in ``labels``)."""
    index = {v: i for i, v in enumerate(labels)}
    r = np.array([index[v] for v in rows], dtype=np.int64)
    c = np.array([index[v] for v in cols], dtype=np.int64)
    if not directed:
        r, c = np.concatenate([r, c]), np.concatenate([c, r])
    n = len(labels)
    return sr.Matrix.from_coo(r, c, nrows=n, ncols=n, dup_op=sr.binary.lor)


@pytest.mark.data
@pytest.mark.parametrize("name, directed, iterations, rtol", [("dir", True, 14, 1e-4), ("undir", False, 26, 1e-7)])
def test_ldbc_graphalytics_pr_validation_graphs(shared_data, name, directed, iterations, rtol):
    base = shared_data / "small/ldbc_graphalytics/pr"
    labels, rows, cols = ldbc_adjacency(base / f"{name}-input")
    want = ldbc_values(base / f"{name}-output")
    assert sorted(want) == sorted(labels)
    A = label_matrix(labels, rows, cols, directed)
    got = dense(pagerank(A, alpha=0.85, max_iter=iterations, tol=None))
    w = np.array([want[v] for v in labels])
    # Graphalytics' own check is a relative deviation within 1e-4. The directed output holds the
    # converged ranks (14 iterations get within 2e-6 of them); the undirected one the ranks after
    # 26 iterations, printed to about 1e-8 relative.
    np.testing.assert_allclose(got, w, rtol=rtol, atol=0)
    if directed:
        np.testing.assert_allclose(dense(pagerank(A, tol=1e-15, max_iter=1000)), w, rtol=1e-12)


@pytest.mark.data
@pytest.mark.parametrize("name", ["example-directed", "example-undirected"])
def test_ldbc_graphalytics_example_graphs(shared_data, name):
    base = shared_data / "small/ldbc_graphalytics/example"
    props = dict(re.findall(rf"graph\.{name}\.([\w.-]+)\s*=\s*(.*)", (base / f"{name}.properties").read_text()))
    labels = [int(x) for x in (base / f"{name}.v").read_text().split()]
    edges = np.array([[float(x) for x in line.split()] for line in (base / f"{name}.e").read_text().splitlines()
                      if line.strip()])
    directed = props["directed"].strip() == "true"
    A = label_matrix(labels, edges[:, 0].astype(int).tolist(), edges[:, 1].astype(int).tolist(), directed)
    got = dense(pagerank(A, alpha=float(props["pr.damping-factor"]), max_iter=int(props["pr.num-iterations"]),
                         tol=None))
    want = ldbc_values(base / f"{name}-PR")
    np.testing.assert_allclose(got, [want[v] for v in labels], rtol=1e-12)


# ---------------------------------------------------------------------------------------------
# GPU: the same ranks
# ---------------------------------------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("weighted", [False, True])
def test_pagerank_on_gpu_matches_cpu(name, weighted):
    from _devices import same

    A = GRAPHS[name]
    if weighted and A.dtype == np.bool_:
        A = A.dup("float64")
    n = A.nrows
    pers = np.linspace(0, 1, n)
    for kw in ({}, {"personalization": pers, "dangling": pers[::-1].copy()}, {"max_iter": 5, "tol": None}):
        same(pagerank(A, weighted=weighted, **kw), pagerank(A.to("gpu"), weighted=weighted, **kw))
    K = sr.generators.kronecker(10, seed=3)
    same(pagerank(K), pagerank(K.to("gpu")))
