"""The ``semiring`` command with ``--device gpu``: bfs, sssp, color and bench run and validate,
and the levels written with ``--output`` pass Graph500's checks. Marked ``gpu``: skipped with
CuPy's reason where no GPU is present; run with ``pytest -m gpu``.
"""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring.testing.validate import check_bfs

gpu = pytest.mark.gpu


@gpu
def test_command_line_on_gpu(tmp_path, capsys):
    from semiring.cli import main

    out = tmp_path / "levels.csv"
    assert main(["bfs", "kron:10", "--device", "gpu", "--source", "0", "--parents", "--output", str(out)]) == 0
    assert main(["sssp", "grid2d:20", "--device", "gpu"]) == 0
    assert main(["color", "rgg:10", "--device", "gpu"]) == 0
    assert main(["bench", "--scale", "8", "--roots", "2", "--sssp-roots", "1", "--device", "gpu"]) == 0
    text = capsys.readouterr().out
    assert "device gpu" in text and "all results validated" in text
    A = sr.generators.kronecker(10)
    table = np.loadtxt(out, delimiter=",", skiprows=1, dtype=np.int64, ndmin=2)  # vertex,level,parent
    check_bfs(A, 0, sr.algorithms.bfs(A, 0).level,
              sr.Vector.from_coo(table[:, 0], table[:, 2], size=A.nrows, dtype="int64"))
