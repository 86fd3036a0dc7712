"""The performance targets of the gpu and cpu suites' per-root kernels, evaluated on a suite's
rows: met, not met, or not measured (the graph or the system is not in this run).

GPU targets are judged on the best validated semiring GPU row of the graph (any engine and
direction; the row is named), CPU targets on the best validated semiring CPU row.
"""

from __future__ import annotations


def _ok(rows, kernel, graph, system, method=None):
    return [r for r in rows if r["kernel"] == kernel and r["graph"] == graph and r["system"] == system
            and r.get("validated") and r.get("ms_median") is not None
            and (method is None or r.get("direction") == method)]


def _label(r):
    return " ".join(x for x in (r["system"], r.get("engine"), r.get("direction")) if x) + f" ({r['roots']} roots)"


def _best(rows, key=lambda r: r["ms_median"]):
    return min(rows, key=key) if rows else None


def _result(target, row, measured, met):
    return {"target": target, "measured": measured, "system": _label(row) if row else None,
            "status": "not measured" if measured is None else ("met" if met else "not met")}


def _ms_target(rows, target, kernel, graph, bound, system="semiring gpu", method=None):
    r = _best(_ok(rows, kernel, graph, system, method))
    if r is None:
        return _result(target, None, None, False)
    return _result(target, r, f"{r['ms_median']:.3f} ms", r["ms_median"] <= bound)


def gpu_targets(rows):
    """Targets of the GPU suite (list of dicts: target, measured, system, status)."""
    out = [_ms_target(rows, "BFS kron21 <= 0.5 ms", "bfs", "kron21", 0.5),
           _ms_target(rows, "BFS kron24 <= 2 ms", "bfs", "kron24", 2.0)]
    cand = [r for r in _ok(rows, "bfs", "kron24", "semiring gpu") if r.get("teps_hmean")]
    r = _best(cand, key=lambda r: -r["teps_hmean"])
    out.append(_result("BFS kron24 >= 130 GTEPS (harmonic mean)", r,
                       f"{r['teps_hmean'] / 1e9:.1f} GTEPS" if r else None, bool(r) and r["teps_hmean"] >= 130e9))
    out.append(_ms_target(rows, "BFS USA-road-NE <= 15 ms", "bfs", "USA-road-NE", 15.0))
    out.append(_ms_target(rows, "SSSP delta-stepping kron21 (weights 1..255) <= 10 ms", "sssp", "kron21", 10.0,
                          method="delta_stepping"))
    out.append(_ms_target(rows, "SSSP USA-road-t.NY <= 20 ms", "sssp", "USA-road-t.NY", 20.0))
    cand = [r for r in _ok(rows, "coloring", "rgg2^20", "semiring gpu") if r.get("colors_ratio") is not None]
    r = _best(cand)
    out.append(_result("coloring rgg2^20 <= 10 ms with <= 1.5x greedy colors", r,
                       f"{r['ms_median']:.3f} ms, {r['colors']:.0f} colors = {r['colors_ratio']:.2f}x greedy"
                       if r else None, bool(r) and r["ms_median"] <= 10 and r["colors_ratio"] <= 1.5))
    return out


def _vs_graphblas(rows, target, kernel, graph, factor, gb_system, method=None):
    mine = _best(_ok(rows, kernel, graph, "semiring cpu", method))
    gb = _best(_ok(rows, kernel, graph, gb_system))
    if mine is None or gb is None:
        return _result(target, mine, None, False)
    a, b = (r.get("ms_median_same_roots", r["ms_median"]) for r in (mine, gb))  # over the same roots
    ratio = a / b
    return _result(target, mine, f"{a:.1f} ms vs {b:.1f} ms ({ratio:.2f}x, same roots)",
                   ratio <= factor if factor is not None else ratio < 1)


def cpu_targets(rows):
    """Targets of the CPU suite: BFS kron20 within 2x python-graphblas; SSSP (delta-stepping)
    faster than python-graphblas Bellman-Ford on every SSSP graph."""
    out = [_vs_graphblas(rows, "BFS kron20: semiring cpu within 2x python-graphblas", "bfs", "kron20", 2.0,
                         "python-graphblas (any_pair, push)")]
    graphs = sorted({r["graph"] for r in rows if r["kernel"] == "sssp"})
    for g in graphs:
        out.append(_vs_graphblas(rows, f"SSSP {g}: semiring cpu delta-stepping faster than python-graphblas "
                                 "Bellman-Ford", "sssp", g, None, "python-graphblas Bellman-Ford (min_plus)",
                                 method="delta_stepping"))
    return out
