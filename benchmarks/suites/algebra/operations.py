"""The algebra suite's single operations (rows 1-4 and 11): masked ``vxm``, ``ewise_add``,
masked scalar ``assign``, a body of ten operations eager and replayed from a recording, and the
masked ``mxm``; python-graphblas beside them on the CPU."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

import semiring as sr

from ...peers import host as peers
from .rows import Target, check_dense, check_pattern, host, require

#: Operations in the recorded body (row 4): this many (vxm, assign) pairs.
RECORDED_PAIRS = 5


def _frontier_data(g, dev):
    """(frontier Vector, visited Vector, level Vector, expected vxm positions, expected level)."""
    S = g.scipy()
    n = g.n
    deg = np.diff(S.indptr)
    for seed in range(100):
        rng = np.random.default_rng(seed)
        front = np.sort(rng.choice(np.flatnonzero(deg), 4, replace=False))
        visited = rng.random(n) < 0.5
        visited[front] = True
        reach = np.zeros(n, bool)
        reach[S[front].indices] = True
        expect = np.flatnonzero(reach & ~visited)
        if expect.size:
            break
    f = sr.Vector.from_coo(front, True, size=n, device=dev)
    vis_idx = np.flatnonzero(visited)
    V = sr.Vector.from_coo(vis_idx, True, size=n, device=dev)
    lv = np.random.default_rng(1).integers(0, 6, vis_idx.size)
    level = sr.Vector.from_coo(vis_idx, lv, size=n, dtype="int64", device=dev)
    after = np.full(n, -1, np.int64)
    after[vis_idx] = lv
    after[expect] = 3
    return f, V, level, expect, after


def single_operations(run, g):
    dev, A, name = run.device, g.A, g.case.name
    f, V, level, expect, after = _frontier_data(g, dev)
    anyp = sr.semirings.any_pair

    # 1. q<!visited.S> = f any.pair A
    run.add("vxm masked any_pair", name, "semiring", lambda i: sr.vxm(f, A, anyp, mask=~V.S),
            lambda q: check_pattern(q, expect, "vxm"), target=Target("us per call", 30, "us"),
            slot="kron10", note=f"frontier {f.nvals} vertices, {V.nvals} of {g.n} visited, result {expect.size}")

    # 2. w = u min v (union)
    rng = np.random.default_rng(2)
    size = 1024
    ui, vi = (np.sort(rng.choice(size, 100, replace=False)) for _ in range(2))
    uv, vv = rng.uniform(-1, 1, 100), rng.uniform(-1, 1, 100)
    u = sr.Vector.from_coo(ui, uv, size=size, device=dev)
    v = sr.Vector.from_coo(vi, vv, size=size, device=dev)
    du, dv = np.full(size, np.inf), np.full(size, np.inf)
    du[ui], dv[vi] = uv, vv
    want = np.minimum(du, dv)
    run.add("ewise_add min", f"vectors of size {size}", "semiring", lambda i: sr.ewise_add(u, v, sr.binary.min),
            lambda w: (require(w.nvals == np.isfinite(want).sum() > 0, "ewise_add: wrong number of entries"),
                       check_dense(w, want, np.inf, "ewise_add")),
            target=Target("us per call", 20, "us"), slot="kron10",
            note="100 entries each")

    # 3. level<q.S> = 3
    q = sr.Vector.from_coo(expect, True, size=g.n, device=dev)

    def assign(i):
        sr.assign(level, 3, None, mask=q.S)
        return level

    run.add("assign masked scalar", name, "semiring", assign, lambda lv: check_dense(lv, after, -1, "assign"),
            target=Target("us per call", 20, "us"), slot="kron10",
            note=f"mask {expect.size} entries, level {level.nvals} entries")

    # 4. ten operations with out= given, eager and replayed
    qo = sr.Vector(g.n, "bool", device=dev)

    def body():
        for _ in range(RECORDED_PAIRS):
            # q<!visited.S, replace> = f any.pair A ; level<q.S> = 3
            sr.vxm(f, A, anyp, mask=~V.S, replace=True, out=qo)
            sr.assign(level, 3, None, mask=qo.S)

    def check_body(_):
        check_pattern(qo, expect, "recorded vxm")
        check_dense(level, after, -1, "recorded assign")

    ops = 2 * RECORDED_PAIRS
    run.add("body of 10 operations, eager", name, "semiring", lambda i: body(), check_body, ops=ops,
            slot="kron10", note="per-operation cost of the body run eagerly, for comparison")
    rec = {}

    def replay(i):
        if "rec" not in rec:
            rec["rec"] = sr.record(body)
        return rec["rec"]()

    run.add("recorded body, replayed", name, "semiring", replay, check_body, ops=ops, needs=("record",),
            target=Target("us per operation", 3, "us"), slot="kron10",
            note=f"rec = sr.record(body); rec() replays {ops} operations (masked vxm and assign, out= given)",
            nodes=False)

    if dev == "cpu":
        _graphblas_ops(run, g, f, V, expect, after, ui, uv, vi, vv, size, want, q)
    masked_product(run, g)


def masked_product(run, g):
    """Row 11: ``C<A.S> = A plus.times A`` (float64 weights), beside python-graphblas on the CPU."""
    dev, name = run.device, g.case.name
    r, c, _ = (host(x) for x in g.A.to_coo())
    w = 1.0 + ((r * 7 + c * 13) % 5) / 4.0  # weights in [1, 2], exact in float64
    Af = sr.Matrix.from_coo(r, c, w, nrows=g.n, ncols=g.n, dtype="float64", device=dev)
    S = sp.csr_array((w, (r, c)), shape=(g.n, g.n))
    want = sp.csr_array((S @ S).multiply(sp.csr_array((np.ones(r.size), (r, c)), shape=(g.n, g.n))))
    want.sum_duplicates()
    wk = want.nonzero()
    wkeys = wk[0].astype(np.int64) * g.n + wk[1]
    order = np.argsort(wkeys)
    wkeys, wvals = wkeys[order], np.asarray(want[wk[0], wk[1]]).ravel()[order]

    def check(rows, cols, vals, who):
        keys = host(rows).astype(np.int64) * g.n + host(cols)
        o = np.argsort(keys)
        require(np.array_equal(keys[o], wkeys) and np.allclose(host(vals)[o], wvals, rtol=1e-12),
                f"{who} masked mxm differs from SciPy's product on A's pattern")

    row = "mxm masked plus_times"
    run.add(row, name, "semiring", lambda i: sr.mxm(Af, Af, sr.semirings.plus_times, mask=Af.S),
            lambda C: check(*C.to_coo(), "semiring"), slot="kron10",
            note=f"mask: A's {r.size} entries; result {wkeys.size} entries")
    gb = peers.graphblas() if dev == "cpu" else None
    if gb is not None:
        G = gb.Matrix.from_coo(r, c, w, nrows=g.n, ncols=g.n)
        run.add(row, name, "python-graphblas", lambda i: G.mxm(G, gb.semiring.plus_times).new(mask=G.S),
                lambda C: check(*C.to_coo(), "python-graphblas"), slot="kron10")


def _graphblas_ops(run, g, f, V, expect, after, ui, uv, vi, vv, size, want, q):
    """The same operations in python-graphblas (SuiteSparse:GraphBLAS), on the CPU."""
    gb = peers.graphblas()
    if gb is None:
        run.notes.append("python-graphblas is not installed: no CPU per-operation comparison")
        return
    n = g.n
    G = peers.gb_matrix(gb, g.host())
    gf = gb.Vector.from_coo(host(f.to_coo()[0]), True, size=n)
    gv = gb.Vector.from_coo(host(V.to_coo()[0]), True, size=n)

    def check_vxm(w):
        idx, vals = w.to_coo()
        require(np.array_equal(idx, expect) and bool(np.all(vals)), "python-graphblas vxm differs from the oracle")

    run.add("vxm masked any_pair", g.case.name, "python-graphblas",
            lambda i: gf.vxm(G, gb.semiring.any_pair).new(mask=~gv.S), check_vxm, slot="kron10")
    gu, gw = gb.Vector.from_coo(ui, uv, size=size), gb.Vector.from_coo(vi, vv, size=size)
    run.add("ewise_add min", f"vectors of size {size}", "python-graphblas",
            lambda i: gu.ewise_add(gw, gb.binary.min).new(),
            lambda w: require(np.array_equal(peers.gb_dense(w, np.inf), want), "python-graphblas ewise_add differs"),
            slot="kron10")
    vis = host(V.to_coo()[0])
    glevel = gb.Vector.from_coo(vis, after[vis], size=n)  # values before the assign do not matter for the check
    gq = gb.Vector.from_coo(host(q.to_coo()[0]), True, size=n)

    def gassign(i):
        glevel(gq.S) << 3
        return glevel

    run.add("assign masked scalar", g.case.name, "python-graphblas", gassign,
            lambda lv: require(np.array_equal(peers.gb_dense(lv, -1), after), "python-graphblas assign differs"),
            slot="kron10")
