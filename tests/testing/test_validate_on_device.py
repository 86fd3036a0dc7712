"""The result validators (``semiring.testing.validate``) on device data: they run on the GPU's
array module without copying to the host, accept correct results, reject corrupted ones with
the same messages as on the host, and take a graph and results on different devices. Marked
``gpu``: skipped with CuPy's reason where no GPU is present; run with ``pytest -m gpu``.
"""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring.backends._xp import asnumpy
from semiring.testing.validate import ValidationError, check_bfs, check_coloring, check_mis, check_sssp

gpu = pytest.mark.gpu


@pytest.fixture
def _device_validation(monkeypatch):
    """Record the array module each validator runs on, and forbid host copies inside them."""
    import cupy as cp

    from semiring.testing import validate

    seen = []
    edges = validate._edges

    def spy(A):
        out = edges(A)
        seen.append(out[1])
        return out

    def no_host_copy(a):
        if isinstance(a, cp.ndarray) and a.size > 10:
            raise AssertionError("a validator copied device data to the host")
        return asnumpy(a)

    monkeypatch.setattr(validate, "_edges", spy)
    monkeypatch.setattr(validate, "asnumpy", no_host_copy)
    return seen


def _gpu_vec(dense, missing=-1):
    return sr.Vector.from_dense(asnumpy(dense), missing=missing, device="gpu")


@gpu
def test_validators_run_on_the_device_and_accept_correct_results(_device_validation):
    import cupy as cp

    A = sr.generators.kronecker(12, seed=7, device="gpu")
    W = sr.generators.kronecker(12, seed=7, weights=(1, 255), device="gpu")
    src = int(cp.argmax(cp.diff(A._indptr)))
    r = sr.algorithms.bfs(A, src, parents=True)
    assert check_bfs(A, src, r.level, r.parent) == r.level.nvals
    assert check_bfs(sr.algorithms.Graph(A, "undirected"), src, r.level) == r.level.nvals
    s = sr.algorithms.sssp(W, src, parents=True)
    assert check_sssp(W, src, s.distance, s.parent) == s.distance.nvals
    assert check_sssp(A, src, r.level.dup("float64")) == r.level.nvals  # unit weights
    col = sr.algorithms.coloring(A)
    assert check_coloring(A, col) >= 2
    m = sr.algorithms.mis(A, seed=1)
    assert check_mis(A, m) == m.nvals
    assert _device_validation and all(xp is cp for xp in _device_validation)


@gpu
def test_validators_with_the_graph_and_the_results_on_different_devices():
    import cupy as cp

    A = sr.generators.kronecker(11, seed=4, device="gpu")
    src = int(cp.argmax(cp.diff(A._indptr)))
    r = sr.algorithms.bfs(A, src, parents=True)
    rc = sr.algorithms.bfs(A.to("cpu"), src, parents=True)
    assert check_bfs(A.to("cpu"), src, r.level, r.parent) == r.level.nvals  # on the host
    assert check_bfs(A, src, rc.level, rc.parent) == rc.level.nvals         # on the device
    col = sr.algorithms.coloring(A.to("cpu"))
    assert check_coloring(A, col) == check_coloring(A.to("cpu"), col.to("gpu"))
    m = sr.algorithms.mis(A, seed=3)
    assert check_mis(A.to("cpu"), m) == check_mis(A, m.to("cpu")) == m.nvals


@gpu
def test_validators_on_the_device_reject_corrupted_results(_device_validation):
    import cupy as cp

    A = sr.generators.kronecker(12, seed=9, device="gpu")
    W = sr.generators.kronecker(12, seed=9, weights=(1, 255), device="gpu")
    deg = cp.diff(A._indptr)
    src = int(cp.argmax(deg))
    r = sr.algorithms.bfs(A, src, parents=True)
    level, parent = r.level.to_dense(-1), r.parent.to_dense(-1)
    v = int(cp.flatnonzero(level == level.max())[0])
    bad = level.copy()
    bad[v] += 1  # wrong level
    with pytest.raises(ValidationError, match="check 3"):
        check_bfs(A, src, _gpu_vec(bad))
    iso = int(cp.flatnonzero(deg == 0)[0])
    bad = level.copy()
    bad[iso] = 0  # a second root
    with pytest.raises(ValidationError, match=f"only the source {src} may have level 0; vertex {iso}"):
        check_bfs(A, src, _gpu_vec(bad))
    bad = parent.copy()
    bad[v] = v  # not a tree: a vertex its own parent
    with pytest.raises(ValidationError, match=f"check 1: vertex {v} "):
        check_bfs(A, src, r.level, _gpu_vec(bad))
    k = int(cp.flatnonzero(level == 2)[0])
    others = asnumpy(cp.flatnonzero(level == 1))
    nbrs = set(asnumpy(A.T._indices[int(A.T._indptr[k]):int(A.T._indptr[k + 1])]).tolist())
    stranger = int(next(u for u in others if u not in nbrs))
    bad = parent.copy()
    bad[k] = stranger  # a parent one level up that is not an in-neighbour
    with pytest.raises(ValidationError, match=f"check 2: tree edge {stranger} -> {k}"):
        check_bfs(A, src, r.level, _gpu_vec(bad))

    s = sr.algorithms.sssp(W, src, parents=True)
    dist, sp_parent = s.distance.to_dense(np.inf), s.parent.to_dense(-1)
    far = int(cp.argmax(cp.where(cp.isfinite(dist), dist, -1)))
    bad = dist.copy()
    bad[far] += 1  # a relaxable edge
    with pytest.raises(ValidationError, match=f"gives {far} a shorter distance"):
        check_sssp(W, src, _gpu_vec(bad, missing=np.inf))
    bad = dist.copy()
    bad[far] -= 0.5  # no tight in-edge
    with pytest.raises(ValidationError, match=f"vertex {far} has distance .* no in-edge that attains it"):
        check_sssp(W, src, _gpu_vec(bad, missing=np.inf))
    bad = sp_parent.copy()
    bad[far] = far
    with pytest.raises(ValidationError, match=f"parent edge {far} -> {far} is not a tight edge"):
        check_sssp(W, src, s.distance, _gpu_vec(bad))
    Z = sr.Matrix.from_coo([0, 1, 2, 3], [1, 2, 3, 2], [1, 0, 0, 0], nrows=4, ncols=4, dtype="int64", device="gpu")
    with pytest.raises(ValidationError, match="never lead back to the source"):  # a tight zero-weight cycle
        check_sssp(Z, 0, _gpu_vec(np.array([0.0, 1.0, 1.0, 1.0])), _gpu_vec(np.array([0, 0, 3, 2])))

    col = sr.algorithms.coloring(A).to_dense()
    rows, cols, _ = A.to_coo()
    e = int(cp.flatnonzero(cp.bincount(col)[col[cols]] >= 2)[0])  # recolouring cols[e] leaves no gap
    bad = col.copy()
    bad[int(cols[e])] = bad[int(rows[e])]  # conflicting colours on an edge
    with pytest.raises(ValidationError, match="joins two vertices of color"):
        check_coloring(A, _gpu_vec(bad, missing=None))
    m = sr.algorithms.mis(A, seed=1)
    members = asnumpy(m.to_coo()[0])
    smaller = sr.Vector.from_coo(members[1:], True, size=A.nrows, device="gpu")
    with pytest.raises(ValidationError, match="not maximal"):
        check_mis(A, smaller)
    assert _device_validation and all(xp is cp for xp in _device_validation)
