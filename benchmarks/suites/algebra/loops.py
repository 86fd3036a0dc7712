"""The algebra suite's loops and whole algorithms (rows 5-10): the README's BFS loop eager and as
a device loop, ``bfs`` by engine beside a cupyx SpMV BFS, ``bfs`` on a Matrix against a Graph,
algebra delta-stepping, and PageRank against a power iteration."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

import semiring as sr

from ...peers import device as gpu_peers
from ...peers import host as peers
from .rows import PAGERANK, Target, check_dense, host, require

def readme_loop(A, level, q):
    """The README's BFS loop ("Ten lines"), unchanged: level and q given (level {s: 0}, q {s})."""
    depth = 0
    while q.nvals:
        depth += 1
        q = sr.vxm(q, A, sr.semirings.any_pair, mask=~level.S)   # q<!level.S> = q any.pair A
        sr.assign(level, depth, None, mask=q.S)                   # level<q.S> = depth
    return level


def device_loop(A, level, q):
    """The same loop as a device loop: ``step`` runs while q has entries; ``depth`` is an
    ``sr.Scalar`` holding the iteration number (1, 2, ...)."""
    def step(depth):
        sr.vxm(q, A, sr.semirings.any_pair, mask=~level.S, replace=True, out=q)   # q<!level.S, replace> = q any.pair A
        sr.assign(level, depth, None, mask=q.S)                                   # level<q.S> = depth

    sr.while_nonempty(q, step)
    return level


def _start(n, s, dev):
    return (sr.Vector.from_coo([s], [0], size=n, dtype="int64", device=dev),
            sr.Vector.from_coo([s], [True], size=n, device=dev))


def readme_loops(run, g, slot, s, limits):
    ref = run.levels(g, s)
    A, n, dev = g.A, g.n, run.device
    depth = int(ref.max()) + 1
    check = (lambda lv: check_dense(lv, ref, -1, "BFS levels"))
    prep = (lambda i: (A,) + _start(n, s, dev))
    note = f"source {s}, {depth} levels; level and q built outside the timed call"
    run.add("README BFS loop, eager", g.case.name, "semiring", readme_loop, check, kind="loop", prepare=prep,
            target=Target("ms per search", limits[0], "ms"), slot=slot, note=note)
    run.add("README BFS loop, device loop", g.case.name, "semiring", device_loop, check, kind="loop", prepare=prep,
            needs=("while_nonempty", "Scalar"), target=Target("ms per search", limits[1], "ms"),
            slot=slot, note=note)


# -- rows 7, 10: whole BFS --------------------------------------------------------------------------
def _levels_check(run, g, s, ref_dev=None):
    """A check of a BFS level array (dense, NumPy or CuPy): against SciPy's levels, or on the
    device (Graph500 checks and equality with ``ref_dev``) for graphs too big for the host."""
    if ref_dev is None:
        ref = run.levels(g, s)
        return lambda lv: require(np.array_equal(host(lv), ref), "BFS levels differ from SciPy's")

    def check(lv):
        cp = run.cp
        require(bool(cp.all(lv.astype(cp.int64) == ref_dev)), "BFS levels differ from the fused engine's")
        gpu_peers.check_levels_device(cp, g.A, s, lv)
    return check


def whole_bfs(run, g, slot, s, big=False):
    name, G = g.case.name, g.G
    ref_dev = None
    if big:  # too big for SciPy on the host: the fused engine's levels, checked on the device once
        ref_dev = sr.algorithms.bfs(G, s, engine="fused").level.to_dense(-1).astype(run.cp.int64)
        gpu_peers.check_levels_device(run.cp, g.A, s, ref_dev)
    check = _levels_check(run, g, s, ref_dev)
    res = lambda r: check(r.level.to_dense(-1))  # noqa: E731
    alg = run.add("bfs engine=algebra", name, "semiring", lambda i: sr.algorithms.bfs(G, s, engine="algebra"), res,
                  kind="algo", slot=slot, target=Target("ms per search", 6, "ms") if slot == "kron24" else None,
                  note=f"source {s}")
    fused = run.add("bfs engine=fused", name, "semiring", lambda i: sr.algorithms.bfs(G, s, engine="fused"), res,
                    kind="algo", slot=slot)
    if slot == "kron21" and alg.get("ms_median") and fused.get("ms_median"):
        alg["ratio_to_fused"] = alg["ms_median"] / fused["ms_median"]
        alg["target_ratio"] = vars(Target("algebra / fused", 3, "x")).copy()
    if run.cp is not None:
        AT = gpu_peers.cupyx_operator(run.cp, g.A, g.undirected)
        run.add("level-synchronous SpMV BFS", name, "cupyx.scipy.sparse",
                lambda i: gpu_peers.cupyx_bfs(run.cp, AT, s), check, kind="algo", slot=slot,
                note="y = A^T x by cuSPARSE SpMV per level, one host read a level")


def matrix_vs_graph(run, g, slot, s):
    name = g.case.name
    A = g.A.dup()  # its own Matrix: the Graph it remembers is built by the warm-up call
    G = sr.algorithms.Graph(g.A.dup(), g.case.kind)
    check = _levels_check(run, g, s)
    res = lambda r: check(r.level.to_dense(-1))  # noqa: E731
    graph = run.add("bfs(Graph)", name, "semiring", lambda i: sr.algorithms.bfs(G, s), res, kind="algo", slot=slot)
    mat = run.add("bfs(Matrix), second call", name, "semiring", lambda i: sr.algorithms.bfs(A, s), res, kind="algo",
                  slot=slot, note="the warm-up call builds the Graph the Matrix remembers")
    if graph.get("ms_median") and mat.get("ms_median"):
        mat["ratio_to_graph"] = mat["ms_median"] / graph["ms_median"]
        mat["target_ratio"] = vars(Target("Matrix / Graph", 1.2, "x")).copy()


def delta_stepping(run, g, slot, s):
    from scipy.sparse import csgraph

    ref = csgraph.dijkstra(g.scipy(weighted=True), directed=True, indices=s)
    require(np.isfinite(ref).sum() > 1, "SSSP source reaches nothing")

    def check(r):
        got = host(r.distance.to_dense(np.inf)).astype(np.float64)
        require(np.array_equal(got, ref), "SSSP distances differ from SciPy's Dijkstra")

    run.add("sssp delta_stepping engine=algebra", g.case.name, "semiring",
            lambda i: sr.algorithms.sssp(g.GW, s, method="delta_stepping", engine="algebra"), check, kind="algo",
            slot=slot, target=Target("ms per search", 40, "ms"), note=f"source {s}")


def pagerank(run, g, slot):
    n = g.n
    S = g.scipy()
    ST = sp.csr_array(S.T.astype(np.float64))
    outdeg = np.diff(S.indptr)
    cpu_ref, iters = gpu_peers.pagerank_power_iteration(np, ST, outdeg, **PAGERANK)
    refs = [("SciPy power iteration", cpu_ref, 1e-9)]
    nx = peers.networkx()
    if nx is not None and S.nnz <= peers.NETWORKX_MAX_EDGES:
        d = nx.pagerank(peers.nx_graph(nx, S, False), alpha=PAGERANK["alpha"], tol=PAGERANK["tol"],
                        max_iter=PAGERANK["max_iter"])
        refs.append(("networkx", np.array([d[v] for v in range(n)]), 10 * n * PAGERANK["tol"]))
    else:
        run.notes.append(f"{g.case.name}: PageRank checked against SciPy (networkx only runs up to "
                         f"{peers.NETWORKX_MAX_EDGES:,} entries)")

    def check(x):
        x = host(x if not isinstance(x, sr.Vector) else x.to_dense())
        for who, ref, tol in refs:
            err = float(np.abs(x - ref).sum())
            require(err <= tol, f"PageRank differs from {who}: L1 {err:.3g} > {tol:.3g}")

    run.add("pagerank", g.case.name, "semiring", lambda i: sr.algorithms.pagerank(g.G, **PAGERANK), check,
            kind="algo", slot=slot, target=Target("ms", 3, "ms"),
            note=f"alpha {PAGERANK['alpha']}, tol {PAGERANK['tol']}, {iters} iterations")
    if run.cp is not None:
        cp = run.cp
        from cupyx.scipy import sparse as cs

        AT = cs.csr_matrix((cp.asarray(ST.data), cp.asarray(ST.indices.astype(np.int32)),
                            cp.asarray(ST.indptr.astype(np.int32))), shape=ST.shape)
        d = cp.asarray(outdeg)
        run.add("pagerank power iteration", g.case.name, "cupyx.scipy.sparse",
                lambda i: gpu_peers.pagerank_power_iteration(cp, AT, d, **PAGERANK)[0], check, kind="algo", slot=slot,
                note="15 lines of cupyx: SpMV, one host read per iteration")
    else:
        run.add("pagerank power iteration", g.case.name, "scipy.sparse",
                lambda i: gpu_peers.pagerank_power_iteration(np, ST, outdeg, **PAGERANK)[0], check, kind="algo",
                slot=slot)
    sem = [r for r in run.rows if r["row"] == "pagerank" and r["graph"] == g.case.name]
    peer = [r for r in run.rows if r["row"] == "pagerank power iteration" and r["graph"] == g.case.name]
    if sem and peer and sem[-1].get("ms_median") and peer[-1].get("ms_median"):
        sem[-1]["ratio_to_peer"] = sem[-1]["ms_median"] / peer[-1]["ms_median"]
        sem[-1]["target_ratio"] = vars(Target(f"semiring / {peer[-1]['system']}", 1.0, "x")).copy()
