"""The algorithms suite's measurements: one row (warm-up, timed runs until the row's budget,
the oracle check, all within the row's time limit), its CPU peer on the host, and the verdicts
(meets its target, beats its peer).
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass

import numpy as np

from semiring._bench.results import FAILED
from semiring._bench.timing import OverBudget, time_limit

from ...peers import algorithms as peers

@dataclass(frozen=True)
class Budget:
    """Time limits of a run (seconds), the most timed runs per row and the peers' limit."""

    budget_s: float
    total_s: float
    row_timeout_s: float
    runs: int
    peer_s: float = 20.0


#: Defaults per device at full size, and at ``--size tiny``. The GPU run must fit in about 4 to 5 minutes.
DEFAULTS = {"cpu": Budget(20.0, 570.0, 150.0, 5, 60.0), "gpu": Budget(4.0, 230.0, 45.0, 5, 20.0)}
TINY = Budget(1.0, 120.0, 30.0, 2, 10.0)

#: A peer faster than this is run again (at most PEER_RUNS times) and its median reported.
PEER_BUDGET_S = 1.0
PEER_RUNS = 3


def _error(exc):
    return f"{type(exc).__name__}: {exc}".replace("\n", " ")[:300]


def blank_row(b, spec, order=0):
    """A result row before anything ran."""
    return {"order": order, "algorithm": b.algorithm, "variant": b.variant, "graph": spec.name,
            "source": spec.source, "n": 0, "nvals": 0, "status": "ok", "validated": None, "median_ms": None,
            "warmup_ms": None, "runs": 0, "times_ms": [], "warmup_only": False, "check": "", "oracle": None,
            "oracle_ms": None, "error": None, "target_ms": None, "target_source": None, "meets_target": None,
            "before_ms": None, "peer": None, "peer_status": None, "peer_ms": None, "peer_runs": 0,
            "peer_limit_s": None, "peer_detail": None, "beats_peer": None}


def run_row(b, L, timer, budget, limit, data, row=None):
    """Warm-up, timed runs, oracle check: one result row (never raises, except KeyboardInterrupt)."""
    row = blank_row(b, L.spec) if row is None else row
    row.update(n=int(L.n), nvals=int(L.nvals))
    G = L.graph(b.weighted)
    result = None
    try:
        with time_limit(limit, "the row limit"):
            warm, result = timer.time(b.run, G, L)
            row["warmup_ms"] = warm * 1e3
            times = []
            # the warm-up may include compiling the row's kernels (once per machine): one timed
            # run follows it unless it alone took a third of the row's time limit
            if warm <= budget.budget_s / 2 or warm <= budget.row_timeout_s / 3:
                while not times or (len(times) < budget.runs and sum(times) < budget.budget_s):
                    times.append(timer.time(b.run, G, L)[0])
            row["times_ms"] = [t * 1e3 for t in times]
            row["runs"] = len(times)
            row["warmup_only"] = not times
            row["median_ms"] = float(np.median(row["times_ms"])) if times else row["warmup_ms"]
    except OverBudget as exc:
        row["status"], row["error"] = "timeout", str(exc)
    except Exception as exc:  # one algorithm's failure is this row's, not the run's
        row["status"], row["error"] = "error", _error(exc)
        row["traceback"] = traceback.format_exc(limit=8)
    if result is None or row["status"] != "ok" and row["warmup_ms"] is None:
        return row
    try:
        with time_limit(limit, "the row limit"):
            v = b.check(result, L, data)
        row.update(validated=v.ok, check=v.detail, oracle=v.oracle,
                   oracle_ms=None if v.oracle_s is None else v.oracle_s * 1e3)
        if v.ok is False:
            row["status"] = "validation failed"
    except OverBudget as exc:
        row["check"] = f"the check {exc}"
    except Exception as exc:
        row["check"] = f"the check raised {_error(exc)}"
        row["check_traceback"] = traceback.format_exc(limit=8)
    return row


def measure_peer(peer, L, limit, prepare_limit):
    """Time a peer on the host: its first run within ``limit`` seconds (else "timeout"), then
    again while it has taken under PEER_BUDGET_S (at most PEER_RUNS runs); the median.

    Returns a dict: peer, peer_status ("ok", "timeout", "unavailable", "error"), peer_ms,
    peer_runs, peer_limit_s, peer_detail. Memoized per graph (rows sharing a peer time it once).
    """
    key = ("peer", peer.name)
    if key in L.cache:
        return L.cache[key]
    out = {"peer": peer.name, "peer_status": "ok", "peer_ms": None, "peer_runs": 0, "peer_limit_s": limit,
           "peer_detail": None}
    try:
        with time_limit(prepare_limit, "the row limit"):
            thunk, describe = peer.prepare(L)
        times, res = [], None
        while len(times) < PEER_RUNS and sum(times) < PEER_BUDGET_S:
            try:
                with time_limit(limit, "the row limit"):
                    t = time.perf_counter()
                    res = thunk()
                    times.append(time.perf_counter() - t)
            except OverBudget:
                if not times:
                    out["peer_status"] = "timeout"
                break
        if times:
            out.update(peer_ms=float(np.median(times)) * 1e3, peer_runs=len(times))
            with time_limit(prepare_limit, "the row limit"):
                out["peer_detail"] = describe(res)
    except peers.PeerUnavailable as exc:
        out.update(peer_status="unavailable", peer_detail=str(exc))
    except OverBudget as exc:
        out.update(peer_status="error", peer_detail=f"its preparation {exc}")
    except Exception as exc:
        out.update(peer_status="error", peer_detail=_error(exc))
    L.cache[key] = out
    return out


def add_peer(row, b, L, limit, prepare_limit):
    """The row's peer columns (the oracle's time where the oracle is the peer)."""
    if b.peer is None:
        return row
    if b.peer.from_oracle:
        ok = row["oracle_ms"] is not None
        row.update(peer=b.peer.name, peer_status="ok" if ok else "not run", peer_ms=row["oracle_ms"],
                   peer_runs=1 if ok else 0, peer_detail=None if ok else "the oracle (the peer) did not run")
    else:
        row.update(measure_peer(b.peer, L, limit, prepare_limit))
    return row


def judge(row):
    """Fill meets_target and beats_peer: None where there is nothing to compare with, False for a
    row that failed (error, timeout, wrong answer)."""
    good = row["status"] == "ok" and row["validated"] is not False and row["median_ms"] is not None
    if row["target_ms"] is not None:
        row["meets_target"] = bool(good and row["median_ms"] <= row["target_ms"])
    if row["peer_status"] == "ok" and row["peer_ms"] is not None:
        row["beats_peer"] = bool(good and row["median_ms"] < row["peer_ms"])
    elif row["peer_status"] == "timeout":
        row["beats_peer"] = bool(good and row["median_ms"] < row["peer_limit_s"] * 1e3)
    return row


def failed(row):
    """Whether the row fails the run (an error, a timeout or a wrong answer)."""
    return row["status"] in FAILED
