"""Threads reading shared Matrix, Vector and Graph objects while their caches are cold.

Reads build caches (a vector's bitmap, a matrix's transpose and row ids, a graph's symmetry,
degrees and per-algorithm data; ``semiring._once`` states the rules). Each round below builds
fresh objects, so every thread of the round races to build the same caches; a tiny switch
interval makes the interpreter change threads every few bytecodes, and a barrier starts the
threads together. A result must equal the single-threaded reference exactly, and each
reference is first checked against an independent oracle (SciPy, networkx, NumPy), so a
wrong answer shared by both runs cannot pass either.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import traceback

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import semiring as sr
from semiring.algorithms import Graph

SWITCH_INTERVAL = 1e-6  # seconds between forced thread switches (CPython's default is 5e-3)


@contextlib.contextmanager
def _switch_often():
    old = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def _run_threads(nthreads, work, barrier=None, timeout=120):
    """Run ``work(t)`` in ``nthreads`` threads; return the formatted exceptions they raised,
    the first one first (a thread that raises breaks ``barrier``, so the others stop at once
    with BrokenBarrierError instead of waiting for it)."""
    errors, broken = [], []

    def body(t):
        try:
            work(t)
        except threading.BrokenBarrierError:
            broken.append(traceback.format_exc())
        except BaseException:  # noqa: BLE001 - reported by the test, with its traceback
            errors.append(traceback.format_exc())
            if barrier is not None:
                barrier.abort()

    threads = [threading.Thread(target=body, args=(t,), daemon=True) for t in range(nthreads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout)
    assert not any(th.is_alive() for th in threads), f"a thread was still running after {timeout} s"
    return errors + broken


def _dense(u, fill):
    return np.asarray(u.to_dense(fill))


# ---------------------------------------------------------------------------------------------
# the reproducer: three threads, one BFS each, on one fresh Graph
# ---------------------------------------------------------------------------------------------

def test_bfs_from_three_threads_on_a_fresh_graph():
    """Three concurrent ``bfs(G, 0)`` on a Graph whose degree vector none has built yet.

    Before the caches were published atomically, a thread could read the half-built bitmap of
    the cached degree vector (``TypeError: 'NoneType' object is not subscriptable``) in about
    one round in three with this graph (large enough that a thread switch often falls right
    after a long NumPy call, inside the half-built window)."""
    n, m, rounds = 20000, 100000, 80
    rng = np.random.default_rng(7)
    rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
    S = sp.csr_array((np.ones(m), (rows, cols)), shape=(n, n))
    want = csgraph.shortest_path(S, indices=0, unweighted=True)
    reached = np.flatnonzero(np.isfinite(want))
    graphs = [Graph(sr.Matrix.from_coo(rows, cols, 1.0, nrows=n, ncols=n, dup_op=sr.binary.plus))
              for _ in range(rounds)]
    results = [[None] * 3 for _ in range(rounds)]
    barrier = threading.Barrier(3)

    def work(t):
        for r, G in enumerate(graphs):
            barrier.wait(timeout=60)
            results[r][t] = sr.algorithms.bfs(G, 0).level.to_coo()

    with _switch_often():
        errors = _run_threads(3, work, barrier)
    assert not errors, f"{len(errors)} thread(s) raised; the first:\n{errors[0]}"
    for r in range(rounds):
        for idx, lv in results[r]:
            np.testing.assert_array_equal(idx, reached)
            np.testing.assert_array_equal(lv, want[reached].astype(np.int64))


def test_first_reads_of_a_shared_vector_from_three_threads():
    """The mechanism under the reproducer, without the rest of a BFS around it: three threads
    make the first read of the same vector, which builds its second storage form.

    ``u`` holds every other position (bitmap format, its bitmap not built yet): ``get`` and
    ``to_dense`` build the bitmap. ``v`` has just been written through a mask (its bitmap
    updated in place, its index list dropped): ``to_coo`` builds the index list. Before the
    forms were published with one assignment, a reader could get the presence array with no
    values (or the indices with no values) in several rounds of a hundred."""
    n, rounds = 1000, 1500
    idx = np.arange(0, n, 2)
    vals = (idx % 7 + 1).astype(np.float64)
    mask_idx = np.arange(0, n, 3)
    want_v = np.zeros(n)
    want_v[idx] = vals
    want_v[mask_idx] = 9.0
    v_idx = np.flatnonzero(want_v)
    us, vs = [], []
    for _ in range(rounds):
        us.append(sr.Vector.from_coo(idx, vals, size=n))
        v = sr.Vector.from_coo(idx, vals, size=n)
        v.to_dense(0.0)
        sr.assign(v, 9.0, None, mask=sr.Vector.from_coo(mask_idx, True, size=n).S)  # v<m.S> = 9
        vs.append(v)
    assert us[0].format == vs[0].format == "bitmap"
    barrier = threading.Barrier(3)
    wrong = []

    def work(t):
        for r in range(rounds):
            barrier.wait(timeout=60)
            u, v = us[r], vs[r]
            reads = [lambda: u.get(2 * t) == float(2 * t % 7 + 1),
                     lambda: np.array_equal(u.to_dense(0.0)[idx], vals),
                     lambda: all(np.array_equal(a, b) for a, b in zip(v.to_coo(), (v_idx, want_v[v_idx])))]
            for j in range(3):  # each thread in another order
                if not reads[(j + t) % 3]():
                    wrong.append((r, t, (j + t) % 3))

    with _switch_often():
        errors = _run_threads(3, work, barrier)
    assert not errors, f"{len(errors)} thread(s) raised; the first:\n{errors[0]}"
    assert not wrong, wrong[:5]


# ---------------------------------------------------------------------------------------------
# the target: eight threads, mixed algorithms and algebra on shared objects, 200 rounds
# ---------------------------------------------------------------------------------------------

N = 128
ROUNDS = 200
THREADS = 8
TASKS_PER_THREAD = 2


def _data():
    """Host arrays of a directed weighted graph (a ring keeps most vertices reachable), an
    undirected graph, a float vector (half the positions: bitmap form) and a bool mask."""
    rng = np.random.default_rng(2024)
    m = 4 * N
    r = np.concatenate([np.arange(N), rng.integers(0, N, m)])
    c = np.concatenate([(np.arange(N) + 1) % N, rng.integers(0, N, m)])
    w = rng.integers(1, 33, r.shape[0]) / 8.0  # multiples of 1/8: path sums are exact
    key = r * N + c
    _, first = np.unique(key, return_index=True)
    directed = (r[first], c[first], w[first])
    ur = np.concatenate([r, c])
    uc = np.concatenate([c, r])
    keep = ur != uc
    ukey = np.unique(ur[keep] * N + uc[keep])
    undirected = (ukey // N, ukey % N)
    u_idx = np.sort(rng.choice(N, N // 2, replace=False))
    u_val = rng.integers(1, 9, u_idx.shape[0]).astype(np.float64)
    m_idx = np.sort(rng.choice(N, N // 3, replace=False))
    return directed, undirected, (u_idx, u_val), m_idx


DIRECTED, UNDIRECTED, U_ENTRIES, MASK_IDX = _data()


class _Objects:
    """Fresh objects for one round: no cache built yet."""

    def __init__(self):
        r, c, w = DIRECTED
        self.A = sr.Matrix.from_coo(r, c, w, nrows=N, ncols=N)
        self.U = sr.Matrix.from_coo(*UNDIRECTED, 1.0, nrows=N, ncols=N)
        self.G = Graph(self.A)
        self.GU = Graph(self.U)
        self.u = sr.Vector.from_coo(*U_ENTRIES, size=N)
        self.m = sr.Vector.from_coo(MASK_IDX, True, size=N)
        # a vector in bitmap form whose sorted index list is not built yet
        self.lv = sr.algorithms.bfs(self.A, 0, strategy="vertex_push").level


def _coo(u):
    return tuple(u.to_coo())


#: name -> function of the round's objects giving a tuple of host arrays / numbers
TASKS = {
    "bfs": lambda o: _coo(sr.algorithms.bfs(o.G, 0).level),
    "bfs_parents": lambda o: (lambda res: _coo(res.level) + _coo(res.parent))(
        sr.algorithms.bfs(o.G, 0, parents=True)),
    "bfs_pull_matrix": lambda o: _coo(sr.algorithms.bfs(o.A, 3, direction="pull").level),
    "sssp": lambda o: _coo(sr.algorithms.sssp(o.G, 0).distance),
    "sssp_bellman_ford": lambda o: _coo(sr.algorithms.sssp(o.G, 5, method="bellman_ford").distance),
    "coloring": lambda o: _coo(sr.algorithms.coloring(o.GU, seed=3)),
    "connected_components": lambda o: _coo(sr.algorithms.connected_components(o.GU)),
    "weak_components": lambda o: _coo(sr.algorithms.connected_components(o.G)),
    "pagerank": lambda o: _coo(sr.algorithms.pagerank(o.G)),
    "triangle_count": lambda o: (int(sr.algorithms.triangle_count(o.GU)),),
    # w<!m.S> = A plus.times u
    "mxv_masked": lambda o: _coo(sr.mxv(o.A, o.u, sr.semirings.plus_times, mask=~o.m.S)),
    # w<m> = u min.plus A   (pull: by the cached A')
    "vxm_masked_pull": lambda o: _coo(sr.vxm(o.u, o.A, sr.semirings.min_plus, mask=o.m.V, direction="pull")),
    # w = plus_reduce_columnwise(A) (by A'), s = plus_reduce(w)
    "reduce": lambda o: (lambda w: _coo(w) + (float(sr.reduce_scalar(w, sr.monoid.plus)),))(
        sr.reduce_columnwise(o.A, sr.monoid.plus)),
    # w = u .* out_degree   (the graph's cached degree vector, read directly)
    "degree_product": lambda o: _coo(sr.ewise_mult(o.u, o.G.out_degree, sr.binary.times)),
    # lv<m.S> (the index list of a bitmap vector, built on first read), and A's entries
    "bitmap_keys": lambda o: _coo(sr.apply(o.lv, sr.unary.identity, mask=o.m.S)) + _coo(o.lv),
    "transpose_coo": lambda o: tuple(sr.transpose(o.A).to_coo()) + tuple(o.A.to_coo()),
    # the vectors' lazily built forms, read directly
    "dense_views": lambda o: (_dense(o.u, 0.0), _dense(o.m, False), o.u.get(int(U_ENTRIES[0][0]))),
}


def _oracles():
    """The expected result of every task, from SciPy, networkx and NumPy (not from semiring)."""
    r, c, w = DIRECTED
    W = sp.csr_array((w, (r, c)), shape=(N, N))
    P = sp.csr_array((np.ones(r.shape[0]), (r, c)), shape=(N, N))
    UP = sp.csr_array((np.ones(UNDIRECTED[0].shape[0]), UNDIRECTED), shape=(N, N))
    u = np.zeros(N)
    u[U_ENTRIES[0]] = U_ENTRIES[1]
    u_present = np.zeros(N, bool)
    u_present[U_ENTRIES[0]] = True
    m_present = np.zeros(N, bool)
    m_present[MASK_IDX] = True

    def present(d):
        idx = np.flatnonzero(np.isfinite(d))
        return idx, d[idx]

    def components(S):
        _, lab = csgraph.connected_components(S, directed=True, connection="weak")
        smallest = {}
        for v, lbl in enumerate(lab):
            smallest.setdefault(lbl, v)
        return np.arange(N), np.array([smallest[lbl] for lbl in lab])

    out = {}
    out["bfs"] = present(csgraph.shortest_path(P, indices=0, unweighted=True))
    out["bfs_pull_matrix"] = present(csgraph.shortest_path(P, indices=3, unweighted=True))
    out["sssp"] = present(csgraph.dijkstra(W, indices=0))
    out["sssp_bellman_ford"] = present(csgraph.dijkstra(W, indices=5))
    out["connected_components"] = components(UP)
    out["weak_components"] = components(P)
    g = nx.DiGraph()
    g.add_nodes_from(range(N))
    g.add_edges_from(zip(r.tolist(), c.tolist()))
    pr = nx.pagerank(g, alpha=0.85, tol=1e-10)
    out["pagerank"] = (np.arange(N), np.array([pr[v] for v in range(N)]))
    out["triangle_count"] = (int(round((UP @ UP @ UP).diagonal().sum() / 6)),)
    # mxv: row i present where some A(i, k) meets a present u(k); allowed where m is absent
    hit = (P @ u_present.astype(float)) > 0
    idx = np.flatnonzero(hit & ~m_present)
    out["mxv_masked"] = (idx, (W @ u)[idx])
    # vxm min.plus: w(j) = min_k u(k) + A(k, j) over present u(k), kept where m is true
    Wd = np.where(P.toarray() > 0, W.toarray(), np.inf)
    cand = np.where(u_present[:, None], u[:, None] + Wd, np.inf).min(axis=0)
    idx = np.flatnonzero(np.isfinite(cand) & m_present)
    out["vxm_masked_pull"] = (idx, cand[idx])
    colsum = np.asarray(W.sum(axis=0)).ravel()
    idx = np.flatnonzero(np.diff(W.tocsc().indptr) > 0)
    out["reduce"] = (idx, colsum[idx], float(colsum.sum()))
    deg = np.diff(P.indptr)
    idx = np.flatnonzero(u_present & (deg > 0))
    out["degree_product"] = (idx, (u * deg)[idx])
    out["dense_views"] = (u, m_present, u[U_ENTRIES[0][0]])
    lv_idx, lv = out["bfs"]
    lv = lv.astype(np.int64)
    out["bitmap_keys"] = (lv_idx[m_present[lv_idx]], lv[m_present[lv_idx]], lv_idx, lv)
    T, Wc = W.T.tocsr(), W.tocsr()
    T.sort_indices()
    Wc.sort_indices()
    out["transpose_coo"] = (np.repeat(np.arange(N), np.diff(T.indptr)), T.indices, T.data,
                            np.repeat(np.arange(N), np.diff(Wc.indptr)), Wc.indices, Wc.data)
    return out, P, UP


def _check_reference(ref):
    """The single-threaded results against the oracles (and the checks no oracle gives)."""
    want, P, UP = _oracles()
    for name, expected in want.items():
        got = ref[name]
        assert len(got) == len(expected), name
        for g, e in zip(got, expected):
            if name == "pagerank":
                np.testing.assert_allclose(g, e, rtol=0, atol=1e-5, err_msg=name)  # tol=1e-6 (L1)
            else:
                np.testing.assert_array_equal(g, e, err_msg=name)
    # parents: the levels of bfs, and every parent one level up along an edge
    idx, lv, pidx, par = ref["bfs_parents"]
    np.testing.assert_array_equal(idx, want["bfs"][0])
    np.testing.assert_array_equal(lv, want["bfs"][1])
    np.testing.assert_array_equal(pidx, idx)
    level = dict(zip(idx.tolist(), lv.tolist()))
    for v, p in zip(pidx.tolist(), par.tolist()):
        if v == 0:
            assert p == 0
        else:
            assert level[p] == level[v] - 1 and P[p, v] == 1, (v, p)
    # coloring: every vertex colored, neighbours differ
    cidx, color = ref["coloring"]
    np.testing.assert_array_equal(cidx, np.arange(N))
    rr, cc = UP.nonzero()
    assert not np.any(color[rr] == color[cc])


def _same(a, b):
    return len(a) == len(b) and all(np.array_equal(np.asarray(x), np.asarray(y)) for x, y in zip(a, b))


def test_eight_threads_mixed_algorithms_on_shared_objects():
    """8 threads x 200 rounds; each thread runs two tasks per round (a different pair each
    round and thread, so every cache is raced for by different algorithms), on the round's
    fresh shared Matrix, Graph and Vector objects."""
    names = sorted(TASKS)
    reference = {name: TASKS[name](_Objects()) for name in names}
    _check_reference(reference)
    rounds = [_Objects() for _ in range(ROUNDS)]
    barrier = threading.Barrier(THREADS)
    mismatches = []

    def work(t):
        for r, objs in enumerate(rounds):
            barrier.wait(timeout=60)
            for j in range(TASKS_PER_THREAD):
                name = names[(r + t * TASKS_PER_THREAD + j) % len(names)]
                got = TASKS[name](objs)
                if not _same(got, reference[name]):
                    mismatches.append((r, t, name))

    with _switch_often():
        errors = _run_threads(THREADS, work, barrier)
    assert not errors, f"{len(errors)} thread(s) raised; the first:\n{errors[0]}"
    assert not mismatches, f"{len(mismatches)} results differ from the single-threaded ones: {mismatches[:5]}"


# ---------------------------------------------------------------------------------------------
# the rest of the per-graph caches, and the mechanism itself
# ---------------------------------------------------------------------------------------------

OTHER_TASKS = {
    "scc": lambda G: _coo(sr.algorithms.strongly_connected_components(G)),
    "betweenness": lambda G: _coo(sr.algorithms.betweenness_centrality(G, sources=[0, 1, 2, 3])),
    "sssp_delta": lambda G: _coo(sr.algorithms.sssp(G, 0, method="delta_stepping", delta=1.0).distance),
    "sssp_auto_delta": lambda G: _coo(sr.algorithms.sssp(G, 0, method="delta_stepping").distance),
    "bfs_strategy_edge": lambda G: _coo(sr.algorithms.bfs(G, 0, strategy="edge").level),
    "bfs_strategy_split": lambda G: _coo(sr.algorithms.bfs(G, 0, strategy="node_split").level),
    "in_degree": lambda G: _coo(G.in_degree),
    "kind": lambda G: (G.kind,),
    "transpose": lambda G: _coo(sr.reduce_rowwise(G.AT, sr.monoid.plus)),
}


def test_other_graph_caches_from_four_threads():
    """The caches the mixed test leaves out (SCC pattern, betweenness pattern, SSSP delta and
    light/heavy split, the BFS strategies' per-graph arrays, in-degree, kind, transpose): four
    threads run all of them on each fresh Graph; results equal the single-threaded ones, and
    every cache item is built once (the same object afterwards, whoever asked first)."""
    r, c, w = DIRECTED
    names = sorted(OTHER_TASKS)

    def fresh():
        return Graph(sr.Matrix.from_coo(r, c, w, nrows=N, ncols=N))

    reference = {name: OTHER_TASKS[name](fresh()) for name in names}
    # the references against SciPy / NumPy (betweenness: test_centrality's oracles cover it)
    W = sp.csr_array((w, (r, c)), shape=(N, N))
    P = (W != 0).astype(np.int64)
    dist = csgraph.dijkstra(W, indices=0)
    hops = csgraph.shortest_path(P, indices=0, unweighted=True)
    for name, d in (("sssp_delta", dist), ("sssp_auto_delta", dist), ("bfs_strategy_edge", hops),
                    ("bfs_strategy_split", hops)):
        np.testing.assert_array_equal(reference[name][0], np.flatnonzero(np.isfinite(d)), err_msg=name)
        np.testing.assert_array_equal(reference[name][1], d[np.isfinite(d)], err_msg=name)
    _, lab = csgraph.connected_components(P, directed=True, connection="strong")
    smallest = {lbl: int(np.flatnonzero(lab == lbl)[0]) for lbl in set(lab.tolist())}
    np.testing.assert_array_equal(reference["scc"][1], [smallest[lbl] for lbl in lab])
    indeg = np.bincount(c, minlength=N)
    np.testing.assert_array_equal(reference["in_degree"][0], np.flatnonzero(indeg))
    np.testing.assert_array_equal(reference["in_degree"][1], indeg[indeg > 0])
    assert reference["kind"] == ("directed",)
    colsum = np.asarray(W.sum(axis=0)).ravel()
    np.testing.assert_array_equal(reference["transpose"][1], colsum[indeg > 0])
    graphs = [fresh() for _ in range(30)]
    barrier = threading.Barrier(4)
    mismatches = []
    seen = [[None] * 4 for _ in graphs]

    def work(t):
        for k, G in enumerate(graphs):
            barrier.wait(timeout=60)
            for j in range(len(names)):
                name = names[(j + 3 * t) % len(names)]
                if not _same(OTHER_TASKS[name](G), reference[name]):
                    mismatches.append((k, t, name))
            seen[k][t] = {key: id(v) for key, v in G.derived().items()}

    with _switch_often():
        errors = _run_threads(4, work, barrier)
    assert not errors, f"{len(errors)} thread(s) raised; the first:\n{errors[0]}"
    assert not mismatches, mismatches[:5]
    for k, G in enumerate(graphs):
        final = {key: id(v) for key, v in G.derived().items()}
        for t in range(4):  # no item was replaced after a thread had used it
            assert all(final[key] == ident for key, ident in seen[k][t].items()), (k, t)


def test_once_builds_once_and_publishes_whole_values():
    """``once_attr``/``once_item``: concurrent first readers wait for one build; an exception
    stores nothing and the next reader builds again."""
    from semiring import _once

    class Owner:
        value = None

    calls = []
    release = threading.Event()

    def build():
        calls.append(1)
        release.wait(5)  # hold the build so the other threads arrive while it runs
        return ["whole"]

    owner, cache, lock = Owner(), {}, threading.RLock()
    by_attr, by_item = [], []

    def work(t):
        if t == 0:
            threading.Timer(0.05, release.set).start()
        if t % 2:
            by_attr.append(_once.once_attr(owner, "value", build))
        else:
            by_item.append(_once.once_item(cache, "k", build, lock))

    assert not _run_threads(6, work)
    assert len(calls) == 2  # one build for the attribute, one for the item
    assert len(by_attr) == len(by_item) == 3
    assert all(v is by_attr[0] for v in by_attr) and all(v is by_item[0] for v in by_item)
    assert by_attr[0] == ["whole"] and owner.value is by_attr[0] and cache["k"] is by_item[0]

    def failing():
        raise sr.InvalidValue("no")

    with pytest.raises(sr.InvalidValue):
        _once.once_item(cache, "bad", failing, lock)
    assert "bad" not in cache
    assert _once.once_item(cache, "bad", lambda: 3, lock) == 3


def test_objects_with_cache_locks_still_pickle():
    """The per-object locks live outside the objects: a Matrix and a Graph whose caches were
    built (locks created) pickle and come back equal, caches included."""
    import pickle

    r, c, w = DIRECTED
    A = sr.Matrix.from_coo(r, c, w, nrows=N, ncols=N)
    G = Graph(A)
    AT, kind, deg = A.T, G.kind, G.out_degree  # builds under the objects' locks
    A2 = pickle.loads(pickle.dumps(A))
    G2 = pickle.loads(pickle.dumps(G))
    assert A2.isequal(A) and A2.T.isequal(AT) and A2.T._readonly
    assert G2.kind == kind == "directed" and G2.out_degree.isequal(deg)


def test_gpu_workspace_is_never_shared_by_concurrent_searches(monkeypatch):
    """The fused BFS keeps one idle workspace between searches; concurrent searches (threads)
    each take their own (a NumPy stand-in for the CuPy arrays: no GPU needed)."""
    import types

    from semiring.backends.gpu import traversal

    fake = types.SimpleNamespace(empty=np.empty, zeros=np.zeros, int32=np.int32, int64=np.int64, uint32=np.uint32,
                                 uint64=np.uint64,
                                 cuda=types.SimpleNamespace(runtime=types.SimpleNamespace(getDevice=lambda: 0)))
    monkeypatch.setitem(sys.modules, "cupy", fake)
    monkeypatch.setattr(traversal._p, "barrier", lambda: np.zeros(64, np.uint32))
    monkeypatch.setattr(traversal, "_workspaces", {})
    held = []
    barrier = threading.Barrier(4)

    def work(t):
        key, ws = traversal._workspace(10, 20, False)
        held.append(id(ws))
        barrier.wait(timeout=10)  # all four hold one at once
        traversal._release(key, ws)

    assert not _run_threads(4, work, barrier)
    assert len(set(held)) == 4
    key, ws = traversal._workspace(10, 20, False)
    assert id(ws) in held  # an idle one is reused


def test_networkx_backend_graph_views_from_threads():
    """A converted networkx graph shared by threads: its reversed and weighted views and its
    smallest weights are built once (every thread gets the same object) and are right."""
    from semiring.nx import from_networkx

    r, c, w = DIRECTED
    g = nx.DiGraph()
    g.add_weighted_edges_from(zip(r.tolist(), c.tolist(), w.tolist()))
    graphs = [from_networkx(g, weights=["weight"], device="cpu") for _ in range(20)]
    barrier = threading.Barrier(4)
    got = [[None] * 4 for _ in graphs]

    def work(t):
        for k, h in enumerate(graphs):
            barrier.wait(timeout=60)
            views = [lambda: h.reverse, lambda: h.weighted("weight", reverse=True),
                     lambda: h.min_weight("weight"), lambda: h.min_weight(None)]
            out = [None] * 4
            for j in range(4):  # each thread in another order
                v = (j + t) % 4
                out[v] = views[v]()
            got[k][t] = out

    with _switch_often():
        errors = _run_threads(4, work, barrier)
    assert not errors, f"{len(errors)} thread(s) raised; the first:\n{errors[0]}"
    for k, h in enumerate(graphs):
        rev, wrev, low, low_pattern = got[k][0]
        assert all(got[k][t][0] is rev and got[k][t][1] is wrev for t in range(4))
        assert all(got[k][t][2] == low == w.min() and got[k][t][3] == low_pattern == 1 for t in range(4))
        # the reversed views hold A' (pattern and weights)
        rows, cols, vals = wrev.A.to_coo()
        ci, ri = np.array([h.index[v] for v in c]), np.array([h.index[v] for v in r])
        order = np.lexsort((ri, ci))
        np.testing.assert_array_equal(rows, ci[order])
        np.testing.assert_array_equal(cols, ri[order])
        np.testing.assert_array_equal(vals, w[order])
        assert rev.A.nvals == r.shape[0]
