"""The networkx suite's tables: the conversion table, the function table, the summary."""

from __future__ import annotations


def _s(x):
    if x is None:
        return "—"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def _x(x):
    return "—" if x is None else f"{x:.2f}x"


def table(rows):
    """Markdown lines: the conversion table, then the function table."""
    conv = [r for r in rows if r["table"] == "conversion"]
    out = ["", "## Conversion: networkx graph to the engine, seconds per million edges (median)", "",
           "| graph | edges | way | seconds | s per million edges |", "|---|---|---|---|---|"]
    out += [f"| {r['graph']} | {r['edges']:,} | {r['system']} | {_s(r['seconds'])} | {r['s_per_million_edges']:.3f} |"
            for r in conv]
    fun = [r for r in rows if r["table"] == "functions"]
    out += ["", "## Functions: networkx against the backend (median seconds)", "",
            "first: the backend's call with the conversion; warm: the converted graph from networkx's cache. "
            "Speedups are networkx's time over the backend's.", "",
            "| function | graph | networkx s | first s | warm s | first speedup | warm speedup | valid | note |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(fun, key=lambda r: (r["status"] == "not timed", r["function"], r["graph"])):
        valid = "yes" if r.get("validated") else ("—" if r["status"] in ("not timed", "skipped", "declined")
                                                   else "**NO**")
        nx_cell = _s(r.get("nx_s")) if r.get("nx_s") is not None else ("> budget" if r.get("first_s") else "—")
        status = "" if r["status"] == "ok" else r["status"]
        note = "; ".join(x for x in (status, r.get("note") or "") if x).replace("|", "/").replace("\n", " ")
        out.append(f"| {r['function']} | {r['graph']} | {nx_cell} | {_s(r.get('first_s'))} | {_s(r.get('warm_s'))} | "
                   f"{_x(r.get('speedup_first'))} | {_x(r.get('speedup_warm'))} | {valid} | {note} |")
    return out


def summary(rows):
    fun = [r for r in rows if r["table"] == "functions" and r.get("speedup_warm")]
    slower = sorted(f"{r['function']} ({r['graph']})" for r in fun if r["speedup_warm"] < 1)
    return (f"{len(fun)} function rows timed, warm slower than networkx: {', '.join(slower) or 'none'}; "
            f"{sum(1 for r in rows if r['status'] == 'not timed')} functions not timed")
