"""The distributed BFS model against the committed 2-GPU measurements.

The model's pull bytes must equal what the runs sent, and the time constants in model.py must
be the ones a fit of those runs gives (so the docs' predictions rest on the measurements).
"""

import json
from pathlib import Path

import pytest

from benchmarks.distributed import model as distributed_model
from semiring.distributed import model

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "distributed-nvidia-h200-x2-20261122"


def test_pull_bytes_equal_the_measured_bytes():
    d = json.loads((RESULTS / "distributed-kron25-bfs-p2-gpu.json").read_text())
    pulls = [lv for r in d["runs"]["bfs"] for lv in r["levels"] if lv["direction"] == "pull"]
    assert pulls
    for lv in pulls:
        assert lv["bytes_sent"] == [model.pull_bytes_per_rank(d["n"], 2)] * 2


def test_model_constants_are_the_fit_of_the_runs(capsys):
    searches = []
    for scale in (25, 26):
        for P in (1, 2):
            n, runs = distributed_model._runs(RESULTS, scale, P)
            searches += [(n, P, r["levels"], r["seconds"], r["edges"]) for r in runs]
    assert len(searches) == 32
    rate, overhead = model.fit_time(searches)
    assert rate == pytest.approx(model.EDGE_RATE, rel=0.05)
    assert overhead == pytest.approx(model.LEVEL_OVERHEAD, rel=0.05)
    assert distributed_model.main([str(RESULTS)]) == 0
    assert "| 25 | pull | 19 | 39.85 | 39.85 | 1.00 |" in capsys.readouterr().out
