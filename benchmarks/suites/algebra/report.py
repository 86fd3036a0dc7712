"""The algebra suite's report: its targets, its table, and the plain-text summary printed at the
end of a run."""

from __future__ import annotations

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

