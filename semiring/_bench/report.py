"""The report writer: a run's result dict (:mod:`semiring._bench.results`) as ``<stem>.json``
and ``<stem>.md``.

The JSON keeps everything (every per-root run). The Markdown has the title, the exact command,
the environment and the method at the top, then the graphs, the suite's own tables (Markdown
lines the suite renders from the rows), the targets with met / not met, the notes, and the
summary line. The helpers below (:func:`table`, :func:`cell`, :func:`ms`, :func:`num`) are the
ones the suites' tables use.
"""

from __future__ import annotations

import json
import os

import numpy as np


def _default(o):
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    return str(o)


def write_json(path, doc):
    """Write ``doc`` as indented JSON (NumPy scalars and arrays converted)."""
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, default=_default)
        f.write("\n")


def cell(text):
    """``text`` made safe for a Markdown table cell (no ``|``, no line breaks)."""
    return str(text).replace("|", "/").replace("\n", " ")


def table(header, lines):
    """Markdown lines of a table: ``header`` (names) and ``lines`` (lists of cells)."""
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return out + ["| " + " | ".join(str(c) for c in line) + " |" for line in lines]


def num(x, digits=3):
    """A number with ``digits`` significant digits, thousands separated from 1000 on; a dash for
    None; text as it is."""
    if x is None:
        return "—"
    if isinstance(x, str):
        return x
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"


def ms(x):
    """Milliseconds: three decimals below 10, one above; a dash for None."""
    if x is None:
        return "—"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def header(doc):
    """Markdown lines: title, command, environment, settings, method."""
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
    lines += [f"- {line}" for line in m.get("about", [])]
    if m.get("method"):
        lines += ["", m["method"]]
    return lines


def graphs_table(graphs):
    """Markdown lines of the graphs (none: no lines)."""
    if not graphs:
        return []
    return ["", "## Graphs", ""] + table(
        ["graph", "source", "n", "entries", "kind", "build s"],
        [[g["name"], cell(g.get("about", "")), f"{g['n']:,}", f"{g['nvals']:,}", g.get("kind", "—"),
          f"{g.get('load_s', 0):.2f}"] for g in graphs])


def targets_table(targets):
    """Markdown lines of the targets (none: no lines); the host reads per operation where the
    targets give them."""
    if not targets:
        return []
    reads = any("host reads/op" in t for t in targets)
    return ["", "## Targets", ""] + table(
        ["target", "measured", "system", "status"] + (["host reads/op"] if reads else []),
        [[cell(t["target"]), cell(t["measured"] or "—"), cell(t["system"] or "—"),
          {"met": "**met**", "not met": "not met"}.get(t["status"], t["status"])]
         + ([t.get("host reads/op", "—")] if reads else []) for t in targets])


def markdown(doc, tables):
    """The report as Markdown lines; ``tables`` are the suite's own (Markdown lines)."""
    lines = header(doc) + graphs_table(doc.get("graphs")) + list(tables) + targets_table(doc.get("targets"))
    if doc.get("notes"):
        lines += ["", "## Notes", ""] + [f"- {n}" for n in doc["notes"]]
    return lines + ["", f"Result: {doc['summary']}", ""]


def save(out_dir, stem, doc, tables):
    """Write ``<out_dir>/<stem>.json`` and ``.md``; return the two paths."""
    os.makedirs(out_dir, exist_ok=True)
    pj, pm = os.path.join(out_dir, stem + ".json"), os.path.join(out_dir, stem + ".md")
    write_json(pj, doc)
    with open(pm, "w") as f:
        f.write("\n".join(markdown(doc, tables)))
    return pj, pm
