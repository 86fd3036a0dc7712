"""The algebra suite: what a user's algebra costs, one operation and one loop at a time.

Rows (each validated against an oracle computed without semiring's algebra, and never timed
on empty data):

1. masked ``vxm`` any_pair on Kronecker scale 10: a frontier of a few vertices, mask
   ``~visited.S`` with about half the vertices visited (oracle: SciPy rows of the frontier);
2. ``ewise_add`` with min of two vectors of size 1024, about 100 entries each (oracle: NumPy);
3. masked scalar ``assign`` ``level<q.S> = 3`` (oracle: NumPy);
4. the cost per operation inside a replayed recording (``sr.record``) of ten masked vxm /
   assign operations with ``out=`` given, beside the same body run eagerly;
5. the README's BFS loop, user code unchanged, eager (oracle: SciPy's BFS levels);
6. the same loop as a device loop, ``sr.while_nonempty(q, step)``;
7. ``bfs(G, s, engine="algebra")``, the fused engine, and a cupyx SpMV level-synchronous BFS;
8. algebra delta-stepping SSSP (oracle: SciPy's Dijkstra);
9. PageRank against a power iteration in cupyx (SciPy on the CPU), both checked against each
   other and against SciPy on the CPU (and networkx on small graphs);
10. ``bfs`` on a Matrix (second call) against ``bfs`` on a Graph;
11. masked ``mxm`` plus_times ``C<A.S> = A plus.times A`` on Kronecker scale 10 with float64
    weights (the masked dot-product method's case: every allowed entry computed, no other;
    oracle: SciPy's product restricted to A's pattern).

Times are the user's wall clock around the public call (``timing.WallTimer``: the device is
synchronized before the start and before the stop), after a warm-up call, median over many
repeats; the arguments of a call that changes its inputs are rebuilt outside the timed region.
Each row also reports the device-to-host reads per operation (``sr.host_reads``) and, where the
GPU backend reports it, the graph nodes per operation. A row that needs an API this build does
not have is reported as skipped, with the reason.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

import semiring as sr

from . import gpu_peers, graphs, peers
from .runner import System, run_system, skipped
from .timing import graph500_roots

#: Repeats (timed calls) per row: single operations, loops, whole algorithms.
REPEATS = {"full": {"op": 500, "loop": 30, "algo": 20}, "tiny": {"op": 40, "loop": 5, "algo": 5}}
#: Seconds one row may spend adding repeats (at least one timed call runs).
ROW_BUDGET_S = {"full": 20.0, "tiny": 3.0}
#: Seconds of the suite a graph needs left to be loaded (past it, its rows are skipped).
RESERVE_S = {"kron24": 90.0, "roads": 60.0}
#: Operations in the recorded body (row 4): this many (vxm, assign) pairs.
RECORDED_PAIRS = 5
#: PageRank parameters of both systems (semiring's defaults).
PAGERANK = {"alpha": 0.85, "tol": 1e-6, "max_iter": 100}


#: The report's method paragraph.
METHOD = ("Method: the user's wall clock (time.perf_counter) around the public call, with the device synchronized "
          "before the start and before the stop; one untimed warm-up call per row; the median over the repeats "
          "(the repeats column; a row stops adding repeats after its time budget). Arguments of a call that changes "
          "its inputs (the BFS loops' level and q) are built outside the timed region. Per operation: the median "
          "divided by the operations in one call. Host reads / op: device-to-host reads counted by sr.host_reads "
          "over one more call, per operation; nodes / op: CUDA graph nodes per operation where the GPU backend "
          "reports them. Every row is validated against an oracle (SciPy, NumPy, networkx) on its first and last "
          "timed call; targets are GPU targets on the named graphs.")


@dataclass
class Target:
    """A goal for a row: ``measured <= limit`` in ``unit`` ("us", "ms" or "x", a ratio)."""

    what: str
    limit: float
    unit: str


# -- graphs of the suite -------------------------------------------------------------------------
def _random_directed(n, per_vertex, seed=0):
    """A directed graph with ``per_vertex`` random out-links per vertex and 5% dangling vertices."""
    def load(device, data):
        rng = np.random.default_rng(seed)
        rows = np.repeat(np.arange(n), per_vertex)
        cols = rng.integers(0, n, rows.shape[0])
        keep = rng.random(n)[rows] >= 0.05
        S = sp.csr_array((np.ones(int(keep.sum()), bool), (rows[keep], cols[keep])), shape=(n, n))
        S.sum_duplicates()
        return sr.Matrix.from_scipy(S).to(device)

    return graphs.Case(f"directed-random-{n}", load, ("pagerank",), "directed", False,
                       f"{n} vertices, {per_vertex} random out-links each, 5% dangling, seed {seed}")


def slots(size, device):
    """``{slot: Case}``: the graph standing in each role at this size on this device.

    Slots: "kron10" (single operations), "kron21", "kron24", "roads" (USA North-East),
    "ny" (New York travel times), "web" (cnr-2000). Tiny runs small stand-ins of the same
    kinds; the CPU at full size runs Kronecker 18 and 20 in place of 21 and 24."""
    micro = graphs.kron(10, ("bfs",))
    if size == "tiny":
        return {"kron10": micro, "kron21": graphs.kron(12, ("bfs",)), "kron24": graphs.kron(13, ("bfs",)),
                "roads": graphs.grid(60, ("bfs",)), "ny": graphs.grid(30, ("sssp",)),
                "web": _random_directed(3000, 8)}
    big = device == "gpu"
    return {"kron10": micro, "kron21": graphs.kron(21 if big else 18, ("bfs",)),
            "kron24": graphs.kron(24 if big else 20, ("bfs",), big=big),
            "roads": graphs.data("USA-road-NE", "roads/USA-road-NE.mtx.gz", ("bfs",), "undirected"),
            "ny": graphs.data("USA-road-t.NY", "roads/USA-road-t.NY.gr.gz", ("sssp",), None, weighted=True),
            "web": graphs.data("cnr-2000", "web/cnr-2000.mtx.gz", ("pagerank",), "directed")}


#: The graph each target names; a target applies on the GPU when its slot holds that graph.
NAMED = {"kron10": "kron10", "kron21": "kron21", "kron24": "kron24", "roads": "USA-road-NE",
         "ny": "USA-road-t.NY", "web": "cnr-2000"}


# -- helpers -------------------------------------------------------------------------------------
def host(a):
    """A NumPy copy of a NumPy or CuPy array."""
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


def api(*names):
    """None when ``sr`` has every name, else why the row cannot run."""
    missing = [n for n in names if not hasattr(sr, n)]
    return None if not missing else f"{', '.join('sr.' + n for n in missing)} not in this build"


def count_host_reads(fn):
    """Device-to-host reads ``fn()`` performs (``sr.host_reads``), or None without the API."""
    if not hasattr(sr, "host_reads"):
        return None
    with sr.host_reads() as hr:
        fn()
    return int(hr.count)


def count_nodes(fn, device):
    """Graph nodes per call of ``fn`` (``semiring.backends.gpu.recording.nodes_per_call``), or
    None where the GPU backend does not report it."""
    if device != "gpu":
        return None
    try:
        from semiring.backends.gpu import recording
    except ImportError:
        return None
    if not hasattr(recording, "nodes_per_call"):
        return None
    return recording.nodes_per_call(fn)


def _expect(cond, msg):
    if not cond:
        raise AssertionError(msg)


def _first_and_last(check, reps):
    """A runner check that validates the first and the last timed call (the others are the
    same call on the same data)."""
    def run(i, out):
        if i in (0, reps - 1):
            check(out)
        return {}
    return run


class Suite:
    """One run: device, sizes, timer, deadline; collects the rows."""

    def __init__(self, size, device, ctx, deadline, progress):
        self.size, self.device, self.ctx, self.deadline, self.progress = size, device, ctx, deadline, progress
        self.cp = ctx.cp if device == "gpu" else None
        self.timer = ctx.timers[device]
        self.reps = REPEATS[size]
        self.budget = ROW_BUDGET_S[size]
        self.slots = slots(size, device)
        self.rows, self.info, self.notes = [], [], []
        self._levels = {}

    # -- rows ----------------------------------------------------------------------------
    def add(self, name, graph, system, call, check, *, kind="op", ops=1, target=None, prepare=None,
            needs=(), slot=None, probe=None, note="", nodes=True):
        """Time ``call`` (validated by ``check(out)``, which raises AssertionError) and append its row.

        ``ops``: operations per call (per-operation figures divide by it); ``needs``: the ``sr``
        names the row uses (missing: a skipped row); ``probe``: a no-argument callable running one
        call for the host-read and node counts (default: ``call`` on fresh arguments)."""
        reps = self.reps[kind]
        s = System(kernel=name, name=system, device=self.device, call=call, check=_first_and_last(check, reps),
                   roots=reps, budget_s=self.budget, note=note, prepare=prepare,
                   extra={"row": name, "ops": ops, "slot": slot,
                          "target": None if target is None else vars(target).copy()})
        why = api(*needs)
        if why is None and self.deadline.left() <= 0:
            why = "suite time budget used up"
        if why is not None:
            row = skipped(s, graph, why)
        else:
            budget = min(self.budget, max(self.deadline.left(), 1.0))
            row = run_system(s, graph, list(range(reps)), self.timer, budget_s=budget)
            if row["status"] == "ok":
                one = probe or (lambda: call(*(prepare(0) if prepare else (0,))))
                try:
                    reads = count_host_reads(one)
                    row["host_reads_per_op"] = None if reads is None else reads / ops
                except Exception as exc:  # noqa: BLE001 - a counter failing is reported, not fatal
                    row["note"] = "; ".join(x for x in (row["note"], f"counting host reads: {exc}") if x)
                if kind == "op" and nodes:  # (graph nodes: of single operations and eager bodies)
                    try:
                        n = count_nodes(one, self.device)
                        row["nodes_per_op"] = None if n is None else n / ops
                    except Exception as exc:  # noqa: BLE001
                        row["note"] = "; ".join(x for x in (row["note"], f"counting graph nodes: {exc}") if x)
        med = row.get("ms_median")
        row["us_per_op"] = None if med is None else med * 1e3 / ops
        row["target_not_applicable"] = self.not_applicable(slot)
        self.rows.append(row)
        self.progress.step(f"{graph} {name} {system}: {row['status']}"
                           + (f", {row['us_per_op']:.1f} us/op" if row["us_per_op"] is not None else ""))
        return row

    def skip_all(self, slot, names, reason):
        for name in names:
            self.rows.append({"kernel": name, "graph": self.slots[slot].name, "system": "semiring", "row": name,
                              "device": self.device, "status": "skipped", "validated": None, "note": reason,
                              "runs": [], "roots": 0, "slot": slot, "target": None, "us_per_op": None})

    # -- graphs --------------------------------------------------------------------------
    def load(self, slot):
        """The slot's graph loaded on the device (graphs.Loaded), or None with a note."""
        case = self.slots[slot]
        self.progress.log(f"building {case.name} on the {self.device} ...")
        g = graphs.load(case, self.device, self.ctx.data_dir)
        if g is None:
            self.notes.append(f"{case.name}: {case.path} is not in {self.ctx.data_dir}: its rows are skipped")
            return None
        self.info.append(g.describe())
        self.progress.log(f"{case.name}: {g.n:,} vertices, {g.A.nvals:,} entries, built in {g.load_s:.1f} s")
        return g

    def free(self):
        gc.collect()
        if self.cp is not None:
            self.cp.get_default_memory_pool().free_all_blocks()

    def not_applicable(self, slot):
        """Why the targets of rows on ``slot`` do not apply to this run (None: they apply; they
        are GPU targets on the named graphs)."""
        if self.device != "gpu":
            return "a CPU run"
        if slot is not None and self.slots[slot].name != NAMED[slot]:
            return f"{self.slots[slot].name} stands in for {NAMED[slot]}"
        return None

    def levels(self, g, s):
        """Reference BFS levels (NumPy int64, -1 unreached) from SciPy's BFS on the host."""
        key = (g.case.name, s)
        if key not in self._levels:
            self._levels[key] = peers.scipy_levels(g.scipy(), s).astype(np.int64)
        return self._levels[key]


# -- rows 1-4: single operations ---------------------------------------------------------------
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


def _check_pattern(v, expect, what):
    idx, vals = (host(a) for a in v.to_coo())
    _expect(expect.size > 0, f"{what}: the oracle's result is empty (the row would time nothing)")
    if not np.array_equal(idx, expect):
        diff = "" if idx.size != expect.size else f"; first difference at {int(np.flatnonzero(idx != expect)[0])}"
        raise AssertionError(f"{what}: {idx.size} positions, the oracle {expect.size}{diff}")
    _expect(bool(np.all(vals)), f"{what}: a value is not 1 (any_pair)")


def _check_dense(v, expect, fill, what):
    got = host(v.to_dense(fill))
    _expect(np.array_equal(got, expect), f"{what}: differs from the oracle at "
            f"{np.flatnonzero(got != expect)[:5].tolist()}")


def single_operations(run, g):
    dev, A, name = run.device, g.A, g.case.name
    f, V, level, expect, after = _frontier_data(g, dev)
    anyp = sr.semirings.any_pair

    # 1. q<!visited.S> = f any.pair A
    run.add("vxm masked any_pair", name, "semiring", lambda i: sr.vxm(f, A, anyp, mask=~V.S),
            lambda q: _check_pattern(q, expect, "vxm"), target=Target("us per call", 30, "us"),
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
            lambda w: (_expect(w.nvals == np.isfinite(want).sum() > 0, "ewise_add: wrong number of entries"),
                       _check_dense(w, want, np.inf, "ewise_add")),
            target=Target("us per call", 20, "us"), slot="kron10",
            note="100 entries each")

    # 3. level<q.S> = 3
    q = sr.Vector.from_coo(expect, True, size=g.n, device=dev)

    def assign(i):
        sr.assign(level, 3, None, mask=q.S)
        return level

    run.add("assign masked scalar", name, "semiring", assign, lambda lv: _check_dense(lv, after, -1, "assign"),
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
        _check_pattern(qo, expect, "recorded vxm")
        _check_dense(level, after, -1, "recorded assign")

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
        _expect(np.array_equal(keys[o], wkeys) and np.allclose(host(vals)[o], wvals, rtol=1e-12),
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
        _expect(np.array_equal(idx, expect) and bool(np.all(vals)), "python-graphblas vxm differs from the oracle")

    run.add("vxm masked any_pair", g.case.name, "python-graphblas",
            lambda i: gf.vxm(G, gb.semiring.any_pair).new(mask=~gv.S), check_vxm, slot="kron10")
    gu, gw = gb.Vector.from_coo(ui, uv, size=size), gb.Vector.from_coo(vi, vv, size=size)
    run.add("ewise_add min", f"vectors of size {size}", "python-graphblas",
            lambda i: gu.ewise_add(gw, gb.binary.min).new(),
            lambda w: _expect(np.array_equal(peers.gb_dense(w, np.inf), want), "python-graphblas ewise_add differs"),
            slot="kron10")
    vis = host(V.to_coo()[0])
    glevel = gb.Vector.from_coo(vis, after[vis], size=n)  # values before the assign do not matter for the check
    gq = gb.Vector.from_coo(host(q.to_coo()[0]), True, size=n)

    def gassign(i):
        glevel(gq.S) << 3
        return glevel

    run.add("assign masked scalar", g.case.name, "python-graphblas", gassign,
            lambda lv: _expect(np.array_equal(peers.gb_dense(lv, -1), after), "python-graphblas assign differs"),
            slot="kron10")


# -- rows 5, 6: the README loop, eager and on the device ----------------------------------------
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


def loops(run, g, slot, s, limits):
    ref = run.levels(g, s)
    A, n, dev = g.A, g.n, run.device
    depth = int(ref.max()) + 1
    check = (lambda lv: _check_dense(lv, ref, -1, "BFS levels"))
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
        return lambda lv: _expect(np.array_equal(host(lv), ref), "BFS levels differ from SciPy's")

    def check(lv):
        cp = run.cp
        _expect(bool(cp.all(lv.astype(cp.int64) == ref_dev)), "BFS levels differ from the fused engine's")
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


# -- rows 8, 9 ----------------------------------------------------------------------------------------
def delta_stepping(run, g, slot, s):
    from scipy.sparse import csgraph

    ref = csgraph.dijkstra(g.scipy(weighted=True), directed=True, indices=s)
    _expect(np.isfinite(ref).sum() > 1, "SSSP source reaches nothing")

    def check(r):
        got = host(r.distance.to_dense(np.inf)).astype(np.float64)
        _expect(np.array_equal(got, ref), "SSSP distances differ from SciPy's Dijkstra")

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
            _expect(err <= tol, f"PageRank differs from {who}: L1 {err:.3g} > {tol:.3g}")

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


# -- the suite ----------------------------------------------------------------------------------------
LOOP_LIMITS = {"kron21": (2, 1), "roads": (120, 25)}


def run(size, device, ctx, deadline, progress):
    """Run the algebra suite on ``device``; returns (graphs_info, rows, notes)."""
    r = Suite(size, device, ctx, deadline, progress)
    order = ["kron10", "kron21", "ny", "web", "roads", "kron24"]
    for slot in order:
        if slot in RESERVE_S and size == "full" and deadline.left() < RESERVE_S[slot]:
            r.skip_all(slot, ["all rows"], f"suite time budget: less than {RESERVE_S[slot]:.0f} s left")
            continue
        try:
            g = r.load(slot)
        except Exception as exc:  # noqa: BLE001 - a graph that cannot be built is reported
            r.skip_all(slot, ["(build)"], f"{type(exc).__name__}: {exc}")
            r.rows[-1]["status"] = "error"
            continue
        if g is None:
            continue
        s = graph500_roots(g.degree, 1, seed=0)[0]
        try:
            if slot == "kron10":
                single_operations(r, g)
            elif slot in ("kron21", "roads"):
                loops(r, g, slot, s, LOOP_LIMITS[slot])
                if slot == "kron21":
                    whole_bfs(r, g, slot, s)
                    matrix_vs_graph(r, g, slot, s)
            elif slot == "kron24":
                whole_bfs(r, g, slot, s, big=device == "gpu" and size == "full")
            elif slot == "ny":
                delta_stepping(r, g, slot, s)
            elif slot == "web":
                pagerank(r, g, slot)
        except Exception as exc:  # noqa: BLE001 - a harness failure on one graph is reported
            import traceback

            r.rows.append({"kernel": "(setup)", "graph": g.case.name, "system": "(harness)", "row": "(setup)",
                           "device": device, "status": "error", "validated": False, "runs": [], "roots": 0,
                           "note": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc(),
                           "slot": slot, "target": None, "us_per_op": None})
            progress.log(f"{g.case.name}: setup failed: {exc}")
        del g
        r.free()
    r.notes.append("times: the user's wall clock around the public call (device synchronized before the start "
                   "and the stop), after one warm-up call, median over the repeats (a row stops adding repeats "
                   f"after {r.budget:.0f} s)")
    if not hasattr(sr, "host_reads"):
        r.notes.append("sr.host_reads is not in this build: no host-read counts")
    if device != "gpu":
        r.notes.append("targets are for the GPU; on the CPU the rows give the per-operation costs (against "
                       "python-graphblas where installed)")
    return r.info, r.rows, r.notes


# -- report --------------------------------------------------------------------------------------
def _status(measured, t, why_not):
    if why_not:
        return "n/a"
    if measured is None:
        return "not run"
    return "met" if measured <= t["limit"] else "not met"


def targets(rows):
    """One entry per target: what, measured, limit, status, host reads per operation."""
    out = []
    for r in rows:
        reads = r.get("host_reads_per_op")
        for key, value in (("target", r.get("us_per_op")), ("target_ratio", None)):
            t = r.get(key)
            if t is None:
                continue
            if key == "target":
                measured = None if value is None else (value if t["unit"] == "us" else value / 1e3)
            else:
                measured = r.get("ratio_to_fused") or r.get("ratio_to_graph") or r.get("ratio_to_peer")
            unit = {"us": " us", "ms": " ms", "x": "x"}[t["unit"]]
            why_not = r.get("target_not_applicable")
            out.append({"target": f"{r['row']}, {r['graph']}: {t['what']} <= {t['limit']:g}{unit}",
                        "measured": None if measured is None else f"{measured:.3g}{unit}",
                        "system": r["system"], "status": _status(measured, t, why_not),
                        "host reads/op": "—" if reads is None else f"{reads:.3g}"}
                       | ({"not applicable": why_not} if why_not else {}))
    return out


def _fmt(x, digits=3):
    return "—" if x is None else (f"{x:.{digits}g}" if abs(x) < 1000 else f"{x:,.0f}")


def table(rows):
    """Markdown lines of the suite's table."""
    head = ["row", "graph", "system", "repeats", "median per call", "per operation", "host reads / op",
            "nodes / op", "ratio", "valid", "note"]
    out = ["", "## The algebra, per operation and per loop", "", "| " + " | ".join(head) + " |",
           "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        med = r.get("ms_median")
        ratio = r.get("ratio_to_fused") or r.get("ratio_to_graph") or r.get("ratio_to_peer")
        valid = "yes" if r.get("validated") else ("—" if r["status"] == "skipped" else "**NO**")
        note = "; ".join(x for x in ("" if r["status"] == "ok" else r["status"], r.get("note") or "") if x)
        out.append("| " + " | ".join([
            r["row"], r["graph"], r["system"], str(r.get("roots", 0)),
            "—" if med is None else (f"{med * 1e3:.1f} us" if med < 1 else f"{med:.3f} ms"),
            "—" if r.get("us_per_op") is None or r.get("ops", 1) == 1 else f"{r['us_per_op']:.2f} us",
            _fmt(r.get("host_reads_per_op")), _fmt(r.get("nodes_per_op")),
            "—" if ratio is None else f"{ratio:.2f}x", valid, note.replace("|", "/").replace("\n", " ")]) + " |")
    return out


def summary_lines(rows):
    """The short plain-text table printed at the end of a run: every row, its time per call (per
    operation for multi-operation rows), its target and whether it is met, its host reads per
    operation."""
    goals = {}
    for t, r in zip(targets(rows), [r for r in rows for k in ("target", "target_ratio") if r.get(k)]):
        goals.setdefault(id(r), []).append(t)
    head = f"{'row':<58} {'measured':>12}  {'target':<32} {'status':<8} {'host reads/op':>13}"
    lines = ["", head, "-" * len(head)]
    for r in rows:
        label = f"{r['row']} | {r['graph']} | {r['system']}"[:58]
        us = r.get("us_per_op")
        got = "—" if us is None else (f"{us:.1f} us" if us < 1000 else f"{us / 1e3:.2f} ms")
        reads = r.get("host_reads_per_op")
        reads = "—" if reads is None else f"{reads:.3g}"
        mine = goals.get(id(r)) or [None]
        for t in mine:
            what = "—" if t is None else t["target"].split(": ", 1)[1]
            status = r["status"] if r["status"] != "ok" else ("—" if t is None else t["status"])
            if t is not None and t.get("measured") and "x" in what.split("<=")[-1]:
                got_t = t["measured"]
            else:
                got_t = got
            lines.append(f"{label:<58} {got_t:>12}  {what[:32]:<32} {status:<8} {reads:>13}")
    why = {r.get("target_not_applicable") for r in rows} - {None}
    if why:
        lines.append(f"n/a: the targets are GPU targets on the named graphs ({'; '.join(sorted(why))})")
    return lines


__all__ = ["run", "table", "targets", "summary_lines", "readme_loop", "device_loop", "slots", "REPEATS"]
