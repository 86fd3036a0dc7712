"""The networkx suite's measurements: the conversion of a networkx graph (seconds per million
edges) and one dispatched function, networkx against the backend (first call and warm calls),
its result checked against networkx's.
"""

from __future__ import annotations

from semiring._bench.timing import OverBudget, median, timed

from .checks import Invalid

#: Runs of each conversion (median).
CONVERSION_REPEAT = 3
#: Warm backend calls timed per function and graph (median), and networkx calls at most.
REPEAT = 3
#: Seconds one networkx call may take before it is interrupted (per function: ``Spec.budget_s``).
NX_BUDGET_S = 120.0
#: networkx calls are repeated only while one takes less than this many seconds.
REPEAT_BELOW_S = 3.0


def conversion_rows(name, G):
    """Seconds per million edges of each conversion of G (median of CONVERSION_REPEAT)."""
    import networkx as nx

    from semiring.nx import from_networkx

    m = G.number_of_edges()
    ways = {
        "semiring pattern": lambda: from_networkx(G, device="cpu"),
        "semiring weighted": lambda: from_networkx(G, weights=["weight"], device="cpu"),
        "networkx to_scipy_sparse_array pattern": lambda: nx.to_scipy_sparse_array(G, weight=None,
                                                                                    backend="networkx"),
        "networkx to_scipy_sparse_array weighted": lambda: nx.to_scipy_sparse_array(G, weight="weight",
                                                                                     backend="networkx"),
    }
    rows = []
    for way, fn in ways.items():
        secs = [timed(fn)[0] for _ in range(CONVERSION_REPEAT)]
        rows.append({"table": "conversion", "kernel": "conversion", "graph": name, "system": way, "edges": m,
                     "seconds": median(secs), "runs_s": secs, "s_per_million_edges": median(secs) / (m / 1e6),
                     "status": "ok", "validated": True})
    return rows


def function_row(name, graph, G, P, spec, function):
    """Time ``name`` on G with networkx and the backend (first call and warm); check the results."""
    args, kwargs = spec.call(G, P)
    row = {"table": "functions", "function": name, "kernel": name, "system": "semiring", "graph": graph,
           "status": "ok", "note": spec.note}

    def call(backend):
        return spec.consume(function(G, *args, backend=backend, **kwargs))

    # networkx: up to REPEAT calls while one takes less than REPEAT_BELOW_S
    nx_s, want = [], None
    try:
        for _ in range(REPEAT):
            s, want = timed(lambda: call("networkx"), spec.budget_s)
            nx_s.append(s)
            if s > REPEAT_BELOW_S:
                break
    except OverBudget:
        nx_s, want = None, None
        row["note"] = "; ".join(x for x in (row["note"], f"networkx past its {spec.budget_s:.0f} s budget") if x)
    except Exception as exc:  # noqa: BLE001 - networkx refuses this graph: the backend must refuse it alike
        return _both_raise(row, exc, lambda: call("semiring"))
    # the backend's first call: the graph's cache cleared, so the conversion is in the time
    try:
        G.__networkx_cache__.clear()
        first_s, got = timed(lambda: call("semiring"))
        warm = []
        for _ in range(REPEAT):
            s, got = timed(lambda: call("semiring"))
            warm.append(s)
            if s > REPEAT_BELOW_S:
                break
    except NotImplementedError as exc:
        row.update(status="declined", note=str(exc)[:300], nx_s=median(nx_s) if nx_s else None)
        return row
    except Exception as exc:  # noqa: BLE001 - a benchmark reports what went wrong
        row.update(status="error", note=f"{type(exc).__name__}: {exc}"[:300])
        return row
    row.update(nx_s=median(nx_s) if nx_s else None, nx_runs_s=nx_s, first_s=first_s, warm_s=median(warm),
               warm_runs_s=warm)
    try:
        if want is not None:
            spec.check(got, want, G)
            row["validated"] = True
        elif spec.valid_alone:
            spec.check(got, None, G)
            row["validated"] = True
        else:
            row.update(validated=False, status="not checked")
    except Invalid as exc:
        row.update(validated=False, status="validation failed", note=str(exc)[:300])
    if row.get("nx_s"):
        row["speedup_first"] = row["nx_s"] / first_s
        row["speedup_warm"] = row["nx_s"] / row["warm_s"]
    return row


def _both_raise(row, exc, backend_call):
    """The row of a call networkx answers with an exception: valid when the backend raises the
    same exception type."""
    why = f"networkx raises {type(exc).__name__}"
    try:
        backend_call()
    except Exception as mine:  # noqa: BLE001
        same = type(mine) is type(exc)
        row.update(status="ok" if same else "validation failed", validated=same,
                   note=f"{why}; the backend raises {type(mine).__name__}")
        return row
    row.update(status="validation failed", validated=False, note=f"{why}; the backend returns a value")
    return row
