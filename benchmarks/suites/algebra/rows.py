"""The algebra suite's rows: the graph in each role (:func:`slots`), the helpers the rows share
(host copies, missing APIs, host-read and graph-node counts) and :class:`Rows`, which times a
row with the harness's timing loop and collects it."""

from __future__ import annotations

import gc
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

import semiring as sr
from semiring._bench.measure import System, run_system, skipped

from ...harness import graphs
from ...peers import host as peers

#: Repeats (timed calls) per row: single operations, loops, whole algorithms.
REPEATS = {"full": {"op": 500, "loop": 30, "algo": 20}, "tiny": {"op": 40, "loop": 5, "algo": 5}}
#: Seconds one row may spend adding repeats (at least one timed call runs).
ROW_BUDGET_S = {"full": 20.0, "tiny": 3.0}
#: PageRank parameters of both systems (semiring's defaults).
PAGERANK = {"alpha": 0.85, "tol": 1e-6, "max_iter": 100}


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


def require(cond, msg):
    if not cond:
        raise AssertionError(msg)


def check_pattern(v, expect, what):
    idx, vals = (host(a) for a in v.to_coo())
    require(expect.size > 0, f"{what}: the oracle's result is empty (the row would time nothing)")
    if not np.array_equal(idx, expect):
        diff = "" if idx.size != expect.size else f"; first difference at {int(np.flatnonzero(idx != expect)[0])}"
        raise AssertionError(f"{what}: {idx.size} positions, the oracle {expect.size}{diff}")
    require(bool(np.all(vals)), f"{what}: a value is not 1 (any_pair)")


def check_dense(v, expect, fill, what):
    got = host(v.to_dense(fill))
    require(np.array_equal(got, expect), f"{what}: differs from the oracle at "
            f"{np.flatnonzero(got != expect)[:5].tolist()}")


def _first_and_last(check, reps):
    """A runner check that validates the first and the last timed call (the others are the
    same call on the same data)."""
    def run(i, out):
        if i in (0, reps - 1):
            check(out)
        return {}
    return run


class Rows:
    """One run of the suite: device, sizes, timer, deadline (those of ``ctx``); collects the rows."""

    def __init__(self, ctx):
        self.size, self.device, self.ctx = ctx.size, ctx.device, ctx
        self.deadline, self.progress = ctx.deadline, ctx.progress
        self.cp = ctx.cp
        self.timer = ctx.timers[self.device]
        self.reps = REPEATS[self.size]
        self.budget = ROW_BUDGET_S[self.size]
        self.slots = slots(self.size, self.device)
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
        """The slot's graph loaded on the device (:class:`benchmarks.harness.graphs.Loaded`), or None with a note."""
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
