"""JSON and Markdown output of a suite: ``<out>/<stem>.json`` and ``<out>/<stem>.md``.

The JSON keeps every per-root run; the Markdown has the environment and the exact command at
the top, one table per kernel, the targets with met / not met, and the notes.
"""

from __future__ import annotations

import json
import os

import numpy as np


def _default(o):
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    return str(o)


def write_json(path, doc):
    """Write ``doc`` as indented JSON (NumPy scalars converted)."""
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, default=_default)
        f.write("\n")


def _num(x, digits=3):
    if x is None:
        return "—"
    if isinstance(x, str):
        return x
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"


def _ms(x):
    if x is None:
        return "—"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def _valid(r):
    if r.get("validated"):
        return "yes"
    return {"not available": "n/a", "skipped": "—"}.get(r["status"], "**NO**")


def _note(r):
    status = "" if r["status"] == "ok" else r["status"]
    return "; ".join(x for x in (status, r.get("note") or "") if x).replace("|", "/").replace("\n", " ")


def _table(header, lines):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in line) + " |" for line in lines]
    return out


def _roots(r):
    req = r.get("roots_requested")
    return f"{r['roots']}" if req in (None, r["roots"]) else f"{r['roots']} of {req}"


def _bw(r, copy_bw):
    b = r.get("bytes_per_s")
    if not isinstance(b, (int, float)):
        return "—"
    return f"{b / 1e9:.1f}" + (f" ({100 * b / copy_bw:.0f}%)" if copy_bw else "")


def kernel_tables(rows, copy_bw):
    """Markdown lines of the BFS, SSSP and coloring tables (absent kernels omitted)."""
    out = []
    bfs = [r for r in rows if r["kernel"] == "bfs"]
    if bfs:
        out += ["", "## BFS", ""]
        out += _table(["graph", "system", "engine", "direction", "roots", "median ms", "GTEPS (hmean)",
                       "edges inspected", "levels", "launches", "host syncs", "GB/s (% of copy)", "valid", "note"],
                      [[r["graph"], r["system"], r.get("engine") or "", r.get("direction") or "", _roots(r),
                        _ms(r.get("ms_median")), _num(r["teps_hmean"] / 1e9 if r.get("teps_hmean") else None),
                        _num(r.get("edges_inspected")), _num(r.get("levels")), _num(r.get("launches")),
                        _num(r.get("host_syncs")), _bw(r, copy_bw), _valid(r), _note(r)] for r in bfs])
    sssp = [r for r in rows if r["kernel"] == "sssp"]
    if sssp:
        out += ["", "## SSSP", ""]
        out += _table(["graph", "system", "engine", "method", "roots", "median ms", "rounds", "launches",
                       "host syncs", "valid", "note"],
                      [[r["graph"], r["system"], r.get("engine") or "", r.get("direction") or "", _roots(r),
                        _ms(r.get("ms_median")), _num(r.get("rounds")), _num(r.get("launches")),
                        _num(r.get("host_syncs")), _valid(r), _note(r)] for r in sssp])
    col = [r for r in rows if r["kernel"] == "coloring"]
    if col:
        out += ["", "## Coloring", ""]
        out += _table(["graph", "system", "engine", "method", "runs", "median ms", "colors", "ratio to greedy",
                       "valid", "note"],
                      [[r["graph"], r["system"], r.get("engine") or "", r.get("direction") or "", _roots(r),
                        _ms(r.get("ms_median")), _num(r.get("colors")),
                        f"{r['colors_ratio']:.2f}" if r.get("colors_ratio") is not None else "—",
                        _valid(r), _note(r)] for r in col])
    return out


def header(doc):
    """Markdown lines: title, command, environment, method."""
    m, env = doc["meta"], doc["meta"]["env"]
    pk, mach, gpu = env["packages"], env["machine"], env["gpu"]
    lines = [f"# semiring benchmarks: {m['suite']} suite ({m['size']})", "",
             f"Command: `{m['command']}`", "",
             f"- date (UTC): {env['date']}; git {env['git']['commit'] or '?'}"
             + (" (uncommitted changes)" if env["git"]["dirty"] else ""),
             f"- machine: {mach['os']} {mach['arch']}, CPU {mach['cpu']}, {mach['logical_cpus']} logical CPUs, "
             f"{mach['memory_gib']} GiB",
             f"- python {env['python']}; " + ", ".join(f"{k} {v or 'not installed'}" for k, v in pk.items())]
    if gpu:
        lines.append(f"- GPU: {gpu['name']} ({gpu['memory_gib']} GiB, compute capability {gpu['compute_capability']}, "
                     f"{gpu['multiprocessors']} SMs); CuPy {gpu['cupy']}; CUDA driver {gpu['cuda_driver']}, "
                     f"runtime {gpu['cuda_runtime']}")
    else:
        lines.append(f"- GPU: none ({m.get('gpu_reason') or 'not requested'})")
    if m.get("copy_bandwidth"):
        lines.append(f"- device-to-device copy bandwidth: {m['copy_bandwidth'] / 1e9:.0f} GB/s "
                     "(cupy copy of a 1 GiB array, read + write counted, CUDA events)")
    warm = "every system" if m.get("cpu_warmup", True) else "GPU systems (not the CPU ones in this suite)"
    method = m.get("method") or (
        "Method: GPU runs timed with CUDA events, CPU runs with time.perf_counter; one untimed warm-up run per "
        f"system and graph for {warm}; median over roots. Roots: Graph500 search keys (random vertices of "
        "degree >= 1, seed 0); the main system (semiring's fused GPU engine, or semiring cpu on the CPU suite) "
        f"runs {m['roots_main']} roots, the others up to {m['roots_peers']} (fewer on the largest graphs or when "
        f"a system exceeds its time budget of {m.get('system_budget_s', 0):.0f} s per graph: see each row). "
        "TEPS: input edges in the traversed component (sum of degrees of reached vertices / 2; out-degrees for "
        "directed graphs) per second, harmonic mean over roots. GB/s: estimated bytes of indptr + indices read "
        "for the edges inspected plus 4 bytes per vertex per level, per second. Every result is validated "
        "(valid column; n/a = the system is not available in this build).")
    lines += ["", method]
    return lines


def write_markdown(path, doc, extra=None):
    """Write the Markdown report; ``extra`` replaces the kernel tables (the seed table)."""
    m = doc["meta"]
    lines = header(doc)
    if doc.get("graphs"):
        lines += ["", "## Graphs", ""]
        lines += _table(["graph", "source", "n", "entries", "kind", "build s"],
                        [[g["name"], g["about"], f"{g['n']:,}", f"{g['nvals']:,}", g["kind"], f"{g['load_s']:.2f}"]
                         for g in doc["graphs"]])
    lines += extra if extra is not None else kernel_tables(doc["rows"], m.get("copy_bandwidth"))
    if doc.get("targets"):
        reads = any("host reads/op" in t for t in doc["targets"])
        lines += ["", "## Targets", ""]
        lines += _table(["target", "measured", "system", "status"] + (["host reads/op"] if reads else []),
                        [[t["target"], t["measured"] or "—", t["system"] or "—",
                          {"met": "**met**", "not met": "not met"}.get(t["status"], t["status"])]
                         + ([t.get("host reads/op", "—")] if reads else [])
                         for t in doc["targets"]])
    if doc.get("notes"):
        lines += ["", "## Notes", ""] + [f"- {n}" for n in doc["notes"]]
    lines += ["", f"Result: {doc['summary']}", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def save(out_dir, stem, doc, extra=None):
    """Write ``<out_dir>/<stem>.json`` and ``.md``; return the two paths."""
    os.makedirs(out_dir, exist_ok=True)
    pj, pm = os.path.join(out_dir, stem + ".json"), os.path.join(out_dir, stem + ".md")
    write_json(pj, doc)
    write_markdown(pm, doc, extra)
    return pj, pm
