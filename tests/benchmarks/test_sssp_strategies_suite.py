"""The SSSP strategies' seed table (``python -m benchmarks run --suite seed-sssp``): its graphs are
the seed table's uniform graphs with symmetric weights 1..255, every strategy row validates, and
the Markdown has the time and work tables."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `pytest` (not `python -m pytest`) does not put the repository root there
    sys.path.insert(0, str(ROOT))

from benchmarks import seed_sssp, seed_table  # noqa: E402
from semiring.algorithms.sssp import STRATEGIES  # noqa: E402


def test_weighted_uniform_is_the_seed_tables_graph_with_symmetric_weights():
    W = seed_sssp.weighted_uniform(3).load("cpu", None)
    A = seed_table.uniform(3).load("cpu", None)
    S, P = W.to_scipy(), A.to_scipy()
    assert W.dtype == np.int64
    assert (S.indptr == P.indptr).all() and (S.indices == P.indices).all()
    assert S.data.min() >= 1 and S.data.max() <= 255
    assert (S != S.T).nnz == 0  # the same weight both ways
    assert len(np.unique(S.data)) > 200  # spread over the range, not a constant
    # fixed by the seed: the same weights again, other weights for another seed
    assert (seed_sssp.weighted_uniform(3).load("cpu", None).to_scipy().data == S.data).all()
    assert (seed_sssp.weighted_uniform(3, seed=2).load("cpu", None).to_scipy().data != S.data).mean() > 0.9


def test_seed_sssp_tiny_command_line(tmp_path):
    cmd = [sys.executable, "-m", "benchmarks", "run", "--suite", "seed-sssp", "--size", "tiny", "--out", str(tmp_path)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    js = sorted(tmp_path.glob("seed-sssp-tiny-*.json"))
    md = sorted(tmp_path.glob("seed-sssp-tiny-*.md"))
    assert len(js) == 1 and len(md) == 1
    doc, text = json.loads(js[0].read_text()), md[0].read_text()
    assert [g["n"] for g in doc["graphs"]] == [100, 1000, 10000]
    rows = doc["rows"]
    strat = [r for r in rows if (r["engine"] or "").startswith("strategy:")]
    assert sorted(r["engine"] for r in strat) == sorted(f"strategy:{s}" for s in STRATEGIES for _ in range(3))
    assert all(r["validated"] and r["roots"] >= 1 and r["rounds"] >= 1 for r in strat)
    assert all(r["edges_inspected"] > 0 and r["worklist_entries"] >= 1 for r in strat)
    for g in ("uniform 10^3", "uniform 10^4"):
        # the work gap: the topology-driven sweep reads several times the edges a worklist reads
        work = {r["engine"]: r["edges_inspected"] for r in strat if r["graph"] == g}
        assert work["strategy:topology"] > 3 * work["strategy:worklist_scan"]
    assert sum(r["system"] == "scipy.sparse.csgraph.dijkstra" and r["validated"] for r in rows) == 3
    assert "## Named SSSP strategies" in text and "| uniform 10^4 | 10,000 |" in text
    assert "Work per search" in text and "| uniform 10^4 | CPU |" in text
