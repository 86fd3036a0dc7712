"""The Markdown page of ``benchmarks.algorithms``: header, graphs, the targets table (GPU), the
timings table with each row's CPU peer, and the summary line."""

from __future__ import annotations

from . import targets


def ms(x):
    """Milliseconds, three significant-ish digits; a dash for none."""
    if x is None:
        return "—"
    return f"{x:.3f}" if x < 1 else f"{x:.2f}" if x < 100 else f"{x:,.0f}"


def yes_no(value, yes="yes", no="**no**", none="—"):
    return {True: yes, False: no, None: none}[value]


def peer_ms(r):
    """The peer's time, "> limit" when it ran past its limit, or why there is none."""
    status = r.get("peer_status")
    if status == "ok":
        return ms(r["peer_ms"])
    if status == "timeout":
        return f"> {r['peer_limit_s'] * 1e3:,.0f}"
    return status or "—"


def _valid(r):
    if r["status"] == "skipped":
        return "—"
    return {True: "yes", False: "**NO**", None: "n/a"}[r["validated"]]


def _cell(text):
    return str(text).replace("|", "/").replace("\n", " ")


def _note(r):
    note = r["check"] if r["status"] == "ok" else f"{r['status']}: {r['error'] or ''} {r['check']}".strip()
    if r.get("peer_detail"):
        note += f"; peer: {r['peer_detail']}"
    return note


def _median(r):
    if r["status"] not in ("ok",) and r["median_ms"] is None:
        return r["status"]
    return ms(r["median_ms"])


def _target(r):
    if r["target_ms"] is None:
        return "—"
    return ms(r["target_ms"]) + (" (previous)" if r["target_source"] != "target" else "")


def header(doc):
    m, e = doc["meta"], doc["meta"]["env"]
    gpu, mach = e["gpu"], e["machine"]
    b = m["budget"]
    extra = {k: v for k, v in (m.get("peer_packages") or {}).items() if k not in e["packages"]}
    packages = {**e["packages"], **extra}
    timer = ("wall clock, the device synchronized before the start and the stop" if m["device"] == "gpu"
             else "wall clock (time.perf_counter)")
    lines = [f"# semiring: graph algorithm timings ({m['device']}{', quick' if m['quick'] else ''})", "",
             f"Command: `{m['command']}`", "",
             f"- date (UTC): {e['date']}; git {e['git']['commit'] or '?'}"
             + (" (uncommitted changes)" if e["git"]["dirty"] else ""),
             f"- machine: {mach['os']} {mach['arch']}, CPU {mach['cpu']}, {mach['logical_cpus']} logical CPUs, "
             f"{mach['memory_gib']} GiB",
             "- python " + e["python"] + "; " + ", ".join(f"{k} {v or 'not installed'}" for k, v in packages.items()),
             f"- GPU: {gpu['name']} ({gpu['memory_gib']} GiB), CuPy {gpu['cupy']}, CUDA runtime {gpu['cuda_runtime']}"
             if gpu else "- GPU: none used",
             f"- limits: {b['budget_s']:g} s of timed runs per row (at most {b['runs']} runs), "
             f"{b['row_timeout_s']:g} s per row, {b.get('peer_s', 0):g} s per CPU peer, {b['total_s']:g} s in all",
             f"- previous run (\"before ms\"): {m.get('previous') or 'none'}", "",
             f"Method: one fresh `Graph` per row; one warm-up run (its time is the \"warm-up\" column: it also builds "
             f"what the algorithm caches on the Graph, and on a fresh machine compiles its kernels), then timed runs "
             f"(median; at least one), {timer}. `1*`: the warm-up alone took over half the budget and a third of "
             "the row's limit, and its time is the one reported. The warm-up's result is checked against "
             "the oracle. The CPU peer runs on the host in the same run (median of up to 3 runs while under 1 s; "
             "\"> X\": it ran past its limit); where the peer is the oracle, its time is the oracle's single run. "
             "\"beats peer\": the median is below the peer's time."]
    return lines


def markdown(doc):
    """The result as Markdown lines."""
    lines = header(doc)
    lines += ["", "## Graphs", "", "| graph | source | role | n | entries | about | load s |",
              "|---|---|---|---|---|---|---|"]
    for g in doc["graphs"]:
        lines.append(f"| {g['name']} | {g['source']} | {g['role']} | {g['n']:,} | {g['nvals']:,} | {_cell(g['about'])} "
                     f"| {g['load_s']:.1f} |")
    rows = sorted(doc["rows"], key=lambda r: r.get("order", 0))
    with_target = sorted((r for r in rows if r.get("target_ms") is not None),
                         key=lambda r: (targets.algorithm_target_order(r["algorithm"], r["variant"], r["graph"]),
                                        r.get("order", 0)))
    if with_target:
        lines += ["", "## Targets", "",
                  "| algorithm | variant | graph | target ms | semiring ms | validated | meets target | CPU peer "
                  "| peer ms | beats peer | before ms |", "|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in with_target:
            lines.append(f"| {r['algorithm']} | {_cell(r['variant'])} | {r['graph']} | {_target(r)} | {_median(r)} "
                         f"| {_valid(r)} | {yes_no(r['meets_target'])} | {_cell(r['peer'] or '—')} | {peer_ms(r)} "
                         f"| {yes_no(r['beats_peer'])} | {ms(r['before_ms'])} |")
    lines += ["", "## Timings", "",
              "| algorithm | variant | graph | n | entries | median ms | runs | warm-up ms | validated | target ms "
              "| meets target | CPU peer | peer ms | beats peer | before ms | result / check |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        runs = "1*" if r["warmup_only"] else str(r["runs"])
        lines.append(f"| {r['algorithm']} | {_cell(r['variant'])} | {r['graph']} | {r['n']:,} | {r['nvals']:,} "
                     f"| {_median(r)} | {runs if r['status'] == 'ok' else '—'} | {ms(r['warmup_ms'])} "
                     f"| {_valid(r)} | {_target(r)} | {yes_no(r['meets_target'])} | {_cell(r['peer'] or '—')} "
                     f"| {peer_ms(r)} | {yes_no(r['beats_peer'])} | {ms(r['before_ms'])} | {_cell(_note(r))} |")
    oracles = sorted({(r["algorithm"], r["oracle"]) for r in rows if r.get("oracle")})
    if oracles:
        lines += ["", "Oracles: " + "; ".join(f"{a}: {o}" for a, o in oracles) + "."]
    lines += ["", f"Summary: {doc['summary']}"]
    for note in doc["notes"]:
        lines.append(f"- {note}")
    return lines
