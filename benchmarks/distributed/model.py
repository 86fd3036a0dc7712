"""Check the distributed BFS communication model against measured runs, fit its time constants,
and print its extrapolation.

    python -m benchmarks.distributed.model benchmarks/results/distributed-nvidia-h200-x2-20261122

Reads the ``distributed-kron<S>-bfs-p<P>-gpu.json`` files that ``python -m benchmarks.distributed`` wrote
(P = 1 and 2). Where a P = 2 JSON is missing, its per-root times are read from ``bfs<S>.log`` (the
run's own output) and paired with the P = 1 levels of the same roots, which are the same levels
since both runs take the same direction at every level. Prints Markdown: bytes per level measured
against :func:`semiring.distributed.model.level_bytes`, the fitted ``EDGE_RATE`` and
``LEVEL_OVERHEAD`` (:func:`~semiring.distributed.model.fit_time`), predicted against measured median
times, and :func:`~semiring.distributed.model.table` for Graph500 scales 30 to 36.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from pathlib import Path

from semiring.distributed import model


def _runs(folder, scale, P):
    """(n, runs) of one scale and rank count; None where neither the JSON nor the log has it."""
    f = folder / f"distributed-kron{scale}-bfs-p{P}-gpu.json"
    if f.exists():
        d = json.loads(f.read_text())
        return d["n"], d["runs"]["bfs"]
    p1, log = folder / f"distributed-kron{scale}-bfs-p1-gpu.json", folder / f"bfs{scale}.log"
    if P == 1 or not (p1.exists() and log.exists()):
        return None
    text = log.read_text().split(f"on {P} rank")
    if len(text) < 2:
        return None
    ms = {int(r): float(t) for r, t in re.findall(r"bfs root (\d+): ([\d.]+) ms", text[1])}
    d = json.loads(p1.read_text())
    return d["n"], [dict(r, seconds=ms[r["root"]] / 1e3, from_log=True) for r in d["runs"]["bfs"] if r["root"] in ms]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--scales", default="25,26")
    args = ap.parse_args(argv)
    scales = [int(s) for s in args.scales.split(",")]
    data = {(s, P): _runs(args.folder, s, P) for s in scales for P in (1, 2)}
    out = ["## Bytes per rank and level, measured against the model (P = 2)", "",
           "| scale | direction | levels | measured MB (mean of ranks, summed) | model MB | model / measured |",
           "|---|---|---|---|---|---|"]
    for s in scales:
        got = data.get((s, 2))
        if not got or any(r.get("from_log") for r in got[1]):  # the log has no bytes per level
            continue
        n, runs = got
        for direction in ("push", "pull"):
            meas = pred = 0.0
            count = 0
            for r in runs:
                for lv, x in zip(r["levels"], model.trace_levels(r["levels"], n)):
                    if lv["direction"] == direction:
                        meas += statistics.mean(lv["bytes_sent"])
                        pred += model.level_bytes(n, 2, x)
                        count += 1
            out.append(f"| {s} | {direction} | {count} | {meas / 1e6:.2f} | {pred / 1e6:.2f} | "
                       f"{pred / meas if meas else float('nan'):.2f} |")
    searches = [(n, P, r["levels"], r["seconds"], r["edges"])
                for (s, P), got in data.items() if got for n, runs in [got] for r in runs]
    rate, overhead = model.fit_time(searches)
    out += ["", f"Fitted on {len(searches)} searches: EDGE_RATE = {rate / 1e9:.1f} G edges/s per GPU, "
            f"LEVEL_OVERHEAD = {overhead * 1e3:.3f} ms per level (model.py holds {model.EDGE_RATE / 1e9:.0f} G "
            f"and {model.LEVEL_OVERHEAD * 1e3:.2f} ms).", "",
            "| scale | P | measured median ms | model (fitted constants, measured levels) ms |", "|---|---|---|---|"]
    for (s, P), got in sorted(data.items()):
        if not got:
            continue
        n, runs = got
        pred = [model.search_time(n, P, model.trace_levels(r["levels"], n), r["edges"], edge_rate=rate,
                                  overhead=overhead) for r in runs]
        out.append(f"| {s} | {P} | {statistics.median(r['seconds'] for r in runs) * 1e3:.2f} | "
                   f"{statistics.median(pred) * 1e3:.2f} |")
    out += ["", "## Predictions (model.table: measured profile, model.py's constants)", "",
            "| scale | GPUs | link | 1D MiB/rank | 1D ms | 2D MiB/rank | 2D ms | 1D GTEPS |",
            "|---|---|---|---|---|---|---|---|"]
    for s, P, link, mb1, ms1, mb2, ms2, gteps in model.table(scales=(30, 32, 34, 36), gpus=(8, 64, 1024)):
        out.append(f"| {s} | {P} | {link} | {mb1:,.0f} | {ms1:,.1f} | {mb2:,.0f} | {ms2:,.1f} | {gteps:,.0f} |")
    out += ["", "Smallest power-of-4 GPU count where 2D beats 1D: "
            + ", ".join(f"scale {s} {link}: {model.crossover(s, link)}" for s in (30, 36)
                        for link in ("nvlink", "infiniband"))]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
