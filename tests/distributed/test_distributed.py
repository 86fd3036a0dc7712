"""semiring.distributed under ``mpiexec -n 2`` and ``-n 3`` (uneven blocks), run from pytest.

The MPI programs are this file run as a script (``python tests/distributed/test_distributed.py worker
OUT CASES``): every rank builds the distributed graphs, runs BFS and SSSP, and rank 0 saves
the gathered results in ``OUT``. The tests compare them here, in the pytest process, with
oracles that do not use the distributed code: scipy.sparse.csgraph (unweighted shortest paths
for levels, Dijkstra for distances), the single-process engine (levels, distances and the
direction of every level), and Graph500's checks of the parents (semiring.testing.validate).

Failure runs inject a fault into one rank's data channel mid-BFS (an exception, or a hang)
and check that every rank exits with a message, well inside the hard timeout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
HARD_TIMEOUT = 240


def run_mpi(nprocs, *args, timeout=HARD_TIMEOUT, env=None):
    from _mpi import mpiexec  # (here: the MPI ranks run this file as a script, without tests/ on sys.path)

    cmd = [mpiexec(), "-n", str(nprocs), sys.executable, str(Path(__file__).resolve()), *args]
    e = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
             OMP_NUM_THREADS="1", **(env or {}))
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=e)
    return p, time.monotonic() - t0


# ------------------------------------------------------------------------------------------------
# the MPI program (rank code)
# ------------------------------------------------------------------------------------------------
KRON = {2: 10, 3: 9}  # scale per rank count
ROOTS = (0, 7, 100)
#: weighted shared graphs (non-negative weights; test_FW_1000 has zero-length edges)
SSSP_FILES = ("test_FW_1000", "test_FW_2003", "ldbc-directed-example")


def _directed(n=1000, m=6000, seed=3):
    """A random directed graph with float weights (n not a multiple of 32: uneven blocks)."""
    rng = np.random.default_rng(seed)
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    key = np.unique(r * n + c)
    r, c = key // n, key % n
    return r, c, rng.uniform(0.5, 4.0, r.size), n


def _worker(out, cases, data):
    import semiring as sr
    import semiring.distributed as dist

    ctx = dist.init(timeout=120)
    P = ctx.size
    res = {}

    def save(name, vec):
        v = vec.to_vector(root=0, device="cpu")
        if ctx.rank == 0:
            idx, vals = v.to_coo()
            res[name + ":idx"], res[name + ":val"] = idx, vals

    def bfs_cases(tag, A, roots, parents=True):
        for s in roots:
            r = dist.bfs(A, s, parents=parents)
            save(f"{tag}:bfs:{s}:level", r.level)
            if parents:
                save(f"{tag}:bfs:{s}:parent", r.parent)
            res[f"{tag}:bfs:{s}:dirs"] = np.array([t.direction for t in r.trace])
            res[f"{tag}:bfs:{s}:bytes"] = np.array([t.bytes_sent for t in r.trace], dtype=np.int64).reshape(-1, P)

    if "kron" in cases:
        scale = KRON[P]
        A = dist.kronecker(scale, seed=1)
        M = A.to_matrix()
        if ctx.rank == 0:
            res["kron:rows"], res["kron:cols"], _ = M.to_coo()
        bfs_cases("kron", A, ROOTS)
        for d in ("push", "pull"):
            save(f"kron:bfs:0:{d}", dist.bfs(A, 0, direction=d).level)
        W = dist.kronecker(scale, seed=1, weights=(1, 255))
        for s in ROOTS[:2]:
            r = dist.sssp(W, s)
            save(f"kronw:sssp:{s}", r.distance)
            res[f"kronw:sssp:{s}:delta"] = np.array([r.delta])
        sssp_module = sys.modules["semiring.distributed.sssp"]
        sssp_module._EDGES_PER_CHUNK = 50  # relaxations split into many chunks
        save("kronw:sssp:chunked", dist.sssp(W, ROOTS[0]).distance)
        sssp_module._EDGES_PER_CHUNK = 1 << 26
        r, c, w, n = _directed()
        sl = slice(ctx.rank, None, P)  # each rank holds a strided share of the edges
        D = dist.DistMatrix.from_edges(r[sl], c[sl], w[sl], n=n)
        bfs_cases("dir", D, (0, 999))
        save("dir:sssp:0", dist.sssp(D, 0).distance)
        # the distributed Graph500 checks pass on a correct result and fail on every rank when
        # one rank's part is wrong (a level off by two)
        r = dist.bfs(A, 0, parents=True)
        res["checked"] = np.array([dist.validate.check_bfs(A, 0, r.level, r.parent)])
        if ctx.rank == 1:
            r.level.values[int(np.nonzero(r.level.present)[0][0])] += 2
        try:
            dist.validate.check_bfs(A, 0, r.level, r.parent)
        except dist.validate.ValidationError as exc:
            res["caught"] = np.array([str(exc)])
        res["caught_all"] = np.array(ctx.allgather_obj("caught" in res))
        # an error on one rank only is raised on every rank
        rows = np.array([0, 1]) if ctx.rank != 1 else np.array([0, 5000])
        try:
            dist.DistMatrix.from_edges(rows, np.array([1, 0]), n=10)
        except sr.IndexOutOfBound as exc:
            res["agree"] = np.array([str(exc)])
        res["agree_all"] = np.array(ctx.allgather_obj("agree" in res))
    if "data" in cases:
        base = Path(data)
        lag = base / "small" / "lagraph"
        for name in ("karate", "west0067", "jagmesh7"):
            bfs_cases(name, dist.read(lag / f"{name}.mtx"), (0, 5))
        for name in SSSP_FILES:
            save(f"{name}:sssp:0", dist.sssp(dist.read(lag / f"{name}.mtx"), 0).distance)
    if ctx.rank == 0:
        np.savez(Path(out) / f"p{P}.npz", **res)


def _fault_worker(mode):
    import semiring.distributed as dist

    ctx = dist.init(timeout=3)
    A = dist.kronecker(8, ctx=ctx)
    inner = ctx.channel

    class Faulty:
        """The real channel, except that rank 1 fails at its third exchange (BFS level 3)."""

        calls = 0

        def alltoallv(self, *a, **k):
            Faulty.calls += 1
            if ctx.rank == 1 and Faulty.calls == 3:
                if mode == "raise":
                    raise RuntimeError("injected failure")
                time.sleep(600)
            return inner.alltoallv(*a, **k)

        def allgather(self, *a, **k):
            return inner.allgather(*a, **k)

    ctx.channel = Faulty()
    dist.bfs(A, 0, direction="push")
    print("finished without noticing the fault", flush=True)


def _gpu_worker(out):
    """GPU ranks: NCCL channel, CUDA and array BFS kernels, SSSP; rank 0 saves the results."""
    import semiring.distributed as dist

    ctx = dist.init(device="gpu", timeout=300)
    xp = ctx.xp
    res = {"channel": np.array([type(ctx.channel).__name__])}
    # the channel itself: every rank sends rank * 100 + destination to each destination
    send = xp.asarray([ctx.rank * 100 + j for j in range(ctx.size) for _ in range(j + 1)], dtype=np.int64)
    counts = np.arange(1, ctx.size + 1, dtype=np.int64)
    got = ctx.channel.alltoallv([send], counts, ctx.alltoall(counts), "check")[0]
    res["a2a"] = ctx.to_host(got)
    res["gather"] = ctx.to_host(ctx.channel.allgather(xp.full(3, ctx.rank, dtype=np.uint32)))
    A = dist.kronecker(12, seed=1, ctx=ctx)
    for kernels in ("cuda", "array"):
        for d in ("auto", "push", "pull"):
            r = dist.bfs(A, 0, parents=True, direction=d, kernels=kernels)
            dist.validate.check_bfs(A, 0, r.level, r.parent)
            v = r.level.to_vector(root=0, device="cpu")
            if ctx.rank == 0:
                res[f"{kernels}:{d}:idx"], res[f"{kernels}:{d}:val"] = v.to_coo()
    W = dist.kronecker(12, seed=1, weights=(1, 255), ctx=ctx)
    v = dist.sssp(W, 0).distance.to_vector(root=0, device="cpu")
    if ctx.rank == 0:
        res["sssp:idx"], res["sssp:val"] = v.to_coo()
        np.savez(Path(out) / "gpu.npz", **res)


if __name__ == "__main__":
    if sys.argv[1] == "worker":
        _worker(sys.argv[2], sys.argv[3].split(","), sys.argv[4] if len(sys.argv) > 4 else None)
    elif sys.argv[1] == "gpu":
        _gpu_worker(sys.argv[2])
    elif sys.argv[1] == "cli":
        from semiring.cli import main

        sys.exit(main(["bfs", "kron:9", "--distributed", "--source", "1", "--output", sys.argv[2]]))
    elif sys.argv[1] == "bench":
        from benchmarks.distributed import main

        sys.exit(main(["--graph", "kron:9", "--roots", "2", "--out", sys.argv[2]]))
    else:
        _fault_worker(sys.argv[2])
    sys.exit(0)


# ------------------------------------------------------------------------------------------------
# the tests (pytest process)
# ------------------------------------------------------------------------------------------------
def _launch(tmp_path_factory, cases, data=None):
    out = {}
    for P in (2, 3):
        d = tmp_path_factory.mktemp(f"dist{P}")
        args = ["worker", str(d), cases] + ([str(data)] if data else [])
        p, secs = run_mpi(P, *args)
        assert p.returncode == 0, f"mpiexec -n {P} failed ({secs:.1f} s):\n{p.stdout}\n{p.stderr[-4000:]}"
        with np.load(d / f"p{P}.npz", allow_pickle=False) as z:
            out[P] = dict(z)
    return out


@pytest.fixture(scope="module")
def kron_runs(tmp_path_factory):
    return _launch(tmp_path_factory, "kron")


@pytest.fixture(scope="module")
def data_runs(tmp_path_factory, shared_data):
    return _launch(tmp_path_factory, "data", shared_data)


def _vec(res, name, n, fill):
    out = np.full(n, fill, dtype=np.float64)
    out[res[name + ":idx"]] = res[name + ":val"]
    return out


def _check_bfs_against_oracles(res, tag, M, roots, parents=True):
    import scipy.sparse.csgraph as csg

    import semiring as sr
    from semiring.testing import validate

    S = M.to_scipy()
    n = M.nrows
    for s in roots:
        lv = _vec(res, f"{tag}:bfs:{s}:level", n, np.inf)
        hops = csg.shortest_path(S, unweighted=True, indices=s)  # out-edges, as BFS
        np.testing.assert_array_equal(lv, hops)
        ref = sr.algorithms.bfs(M, s)
        assert list(res[f"{tag}:bfs:{s}:dirs"]) == [t.direction for t in ref.trace]
        if parents:
            level = sr.Vector.from_coo(res[f"{tag}:bfs:{s}:level:idx"], res[f"{tag}:bfs:{s}:level:val"], size=n)
            parent = sr.Vector.from_coo(res[f"{tag}:bfs:{s}:parent:idx"], res[f"{tag}:bfs:{s}:parent:val"], size=n)
            validate.check_bfs(M, s, level, parent)


@pytest.mark.parametrize("P", [2, 3])
def test_kronecker_graph_equals_single_process(kron_runs, P):
    import semiring as sr

    res = kron_runs[P]
    M = sr.generators.kronecker(KRON[P], seed=1)
    r, c, _ = M.to_coo()
    np.testing.assert_array_equal(res["kron:rows"], r)
    np.testing.assert_array_equal(res["kron:cols"], c)


@pytest.mark.parametrize("P", [2, 3])
def test_bfs_kronecker(kron_runs, P):
    import semiring as sr

    res = kron_runs[P]
    M = sr.generators.kronecker(KRON[P], seed=1)
    _check_bfs_against_oracles(res, "kron", M, ROOTS)
    assert {"push", "pull"} <= set(res["kron:bfs:0:dirs"])  # both directions ran
    lv = _vec(res, "kron:bfs:0:level", M.nrows, -1)
    for d in ("push", "pull"):
        np.testing.assert_array_equal(_vec(res, f"kron:bfs:0:{d}", M.nrows, -1), lv)


@pytest.mark.parametrize("P", [2, 3])
def test_bfs_bytes_per_level(kron_runs, P):
    """Push levels send 8 bytes (int32 vertex, int32 parent) per target; pull levels send this
    rank's bitmap words to each other rank."""
    from semiring.distributed import Blocks

    res = kron_runs[P]
    n = 1 << KRON[P]
    by = res["kron:bfs:0:bytes"]
    dirs = res["kron:bfs:0:dirs"]
    words = Blocks(n, P).words
    from semiring.distributed.model import pull_bytes_per_rank

    for d, row in zip(dirs, by):
        if d == "pull":
            assert list(row) == [4 * words * (P - 1)] * P
            assert pull_bytes_per_rank(n, P) == 4 * words * (P - 1)  # the model counts what is sent
        else:
            assert all(b % 8 == 0 for b in row)
    assert by.sum() > 0


@pytest.mark.parametrize("P", [2, 3])
def test_sssp_kronecker_exact(kron_runs, P):
    import scipy.sparse.csgraph as csg

    import semiring as sr

    res = kron_runs[P]
    M = sr.generators.kronecker(KRON[P], seed=1, weights=(1, 255))
    for s in ROOTS[:2]:
        d = _vec(res, f"kronw:sssp:{s}", M.nrows, np.inf)
        np.testing.assert_array_equal(d, csg.dijkstra(M.to_scipy(), indices=s))
        ref = sr.algorithms.sssp(M, s, method="delta_stepping")
        assert res[f"kronw:sssp:{s}:delta"][0] == ref.delta
        assert res[f"kronw:sssp:{s}:val"].dtype == np.int64
    np.testing.assert_array_equal(_vec(res, "kronw:sssp:chunked", M.nrows, np.inf),
                                  _vec(res, f"kronw:sssp:{ROOTS[0]}", M.nrows, np.inf))


@pytest.mark.parametrize("P", [2, 3])
def test_directed_float_graph(kron_runs, P):
    import scipy.sparse.csgraph as csg

    import semiring as sr

    res = kron_runs[P]
    r, c, w, n = _directed()
    M = sr.Matrix.from_coo(r, c, w, nrows=n, ncols=n)
    _check_bfs_against_oracles(res, "dir", M.dup("bool"), (0, 999))
    d = _vec(res, "dir:sssp:0", n, np.inf)
    np.testing.assert_allclose(d, csg.dijkstra(M.to_scipy(), indices=0), rtol=1e-12)


@pytest.mark.parametrize("P", [2, 3])
def test_distributed_validation(kron_runs, P):
    import scipy.sparse.csgraph as csg

    import semiring as sr

    res = kron_runs[P]
    hops = csg.shortest_path(sr.generators.kronecker(KRON[P], seed=1).to_scipy(), unweighted=True, indices=0)
    assert res["checked"][0] == np.isfinite(hops).sum()
    assert res["caught_all"].all() and "level" in str(res["caught"][0])


@pytest.mark.parametrize("P", [2, 3])
def test_error_on_one_rank_is_raised_on_all(kron_runs, P):
    res = kron_runs[P]
    assert "raised on rank 1" in str(res["agree"][0]) and "0..9" in str(res["agree"][0])
    assert res["agree_all"].all()


@pytest.mark.data
@pytest.mark.parametrize("P", [2, 3])
def test_shared_graphs(data_runs, shared_data, P):
    """BFS (levels, directions, parents) and SSSP on LAGraph's test matrices (karate with
    P = 3 leaves rank 2 without rows)."""
    import scipy.sparse.csgraph as csg

    import semiring as sr

    res = data_runs[P]
    for name in ("karate", "west0067", "jagmesh7"):
        M = sr.io.read(shared_data / "small" / "lagraph" / f"{name}.mtx").dup("bool")
        _check_bfs_against_oracles(res, name, M, (0, 5))
    for name in SSSP_FILES:
        M = sr.io.read(shared_data / "small" / "lagraph" / f"{name}.mtx")
        d = _vec(res, f"{name}:sssp:0", M.nrows, np.inf)
        np.testing.assert_allclose(d, csg.dijkstra(M.to_scipy(), indices=0), rtol=1e-12)
        np.testing.assert_allclose(d, sr.algorithms.sssp(M, 0).distance.to_dense(np.inf), rtol=1e-12)


@pytest.mark.parametrize("mode, message", [
    ("raise", "rank 1 of 2 failed with RuntimeError: injected failure; aborting all ranks"),
    ("hang", "rank 0 of 2: no answer from the other ranks within 3 s in bfs level 3"),
])
def test_rank_failure_ends_every_rank(mode, message):
    p, secs = run_mpi(2, "fault", mode, timeout=120)
    assert p.returncode != 0
    assert message in p.stderr, p.stderr[-3000:]
    assert "finished without noticing" not in p.stdout
    assert secs < 60


def test_single_process_in_pytest():
    """P = 1 in this process (MPI singleton): the same results and clear argument errors."""
    import semiring as sr
    import semiring.distributed as dist

    ctx = dist.init()
    A = dist.kronecker(7, ctx=ctx)
    M = sr.generators.kronecker(7)
    assert A.to_matrix().isequal(M) and A.nvals == M.nvals and A.kind == "undirected"
    assert dist.bfs(A, 3).level.to_vector().isequal(sr.algorithms.bfs(M, 3).level)
    with pytest.raises(sr.IndexOutOfBound, match="0..127"):
        dist.bfs(A, 128)
    with pytest.raises(sr.InvalidValue, match="direction"):
        dist.bfs(A, 0, direction="sideways")
    with pytest.raises(sr.InvalidValue, match="DistMatrix"):
        dist.bfs(M, 0)
    with pytest.raises(sr.InvalidValue, match="repeated"):
        dist.DistMatrix.from_edges([0, 0], [1, 1], n=4)
    with pytest.raises(sr.InvalidValue, match="non-negative"):
        dist.sssp(dist.DistMatrix.from_edges([0], [1], [-1.0], n=2), 0)
    with pytest.raises(sr.InvalidValue, match="finite weights"):
        dist.sssp(dist.DistMatrix.from_edges([0, 1], [1, 2], [1.0, np.inf], n=3), 0)
    # a delta below the spacing of the floats at the distances reached still advances
    far = dist.sssp(dist.DistMatrix.from_edges([0, 1], [1, 2], [1e16, 2.0], n=3), 0, delta=1e-10)
    assert far.distance.to_vector().to_dense(np.inf).tolist() == [0.0, 1e16, 1e16 + 2.0]
    with pytest.raises(sr.InvalidValue, match="kronecker"):
        dist.kronecker(0)
    with pytest.raises(sr.InvalidValue, match="edge_factor"):
        dist.kronecker(7, edge_factor=True)
    with pytest.raises(sr.OutOfMemory, match=r"kronecker\(scale=31.*rank 0 of 1"):
        dist.kronecker(31, ctx=ctx)  # refused before generating: about 4 TiB
    with pytest.raises(sr.InvalidValue, match="reads .mtx and .gr"):
        dist.read(__file__)
    r = dist.bfs(A, 3, parents=True)
    lv = r.level.values
    i = int(np.flatnonzero(r.level.present & (lv == 2))[0])
    nbrs = set(A.cols[A.indptr[i]:A.indptr[i + 1]].tolist())
    r.parent.values[i] = next(int(u) for u in np.flatnonzero(r.level.present & (lv == 1)) if u not in nbrs)
    with pytest.raises(dist.validate.ValidationError, match="is not an edge"):
        dist.validate.check_bfs(A, 3, r.level, r.parent)
    W = dist.kronecker(7, weights=(1, 9), ctx=ctx)
    d = dist.sssp(W, 3)
    assert dist.validate.check_sssp(W, 3, d.distance) == d.distance.nvals
    d.distance.values[int(np.flatnonzero(d.distance.present)[5])] += 1
    with pytest.raises(dist.validate.ValidationError, match="tight in-edge|relaxes"):
        dist.validate.check_sssp(W, 3, d.distance)
    v = sr.Vector.from_coo([1, 5], [2.5, 4.0], size=9)
    assert dist.DistVector.from_vector(v).to_vector().isequal(v)
    assert json.loads(json.dumps(dist.bfs(A, 3).trace[0].bytes_sent)) == [0]


@pytest.mark.parametrize("damage", ["truncated", "junk after the gzip header", "not gzip"])
def test_damaged_gzip_is_invalid_value(tmp_path, damage):
    import gzip

    import semiring as sr
    import semiring.distributed as dist

    body = b"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n" + b"% padding\n" * 200
    data = gzip.compress(body)
    data = {"truncated": data[: len(data) // 2], "junk after the gzip header": data[:12] + b"junk" * 50,
            "not gzip": body}[damage]
    path = tmp_path / "g.mtx.gz"
    path.write_bytes(data)
    with pytest.raises(sr.InvalidValue, match="g.mtx.gz"):
        dist.read(path, ctx=dist.init())


def test_cli_and_benchmark_script(tmp_path):
    """``mpiexec -n 2 semiring bfs ... --distributed`` validates and writes levels that match
    scipy; ``python -m benchmarks.distributed`` writes its JSON and Markdown."""
    import scipy.sparse.csgraph as csg

    import semiring as sr

    out = tmp_path / "levels.csv"
    p, _ = run_mpi(2, "cli", str(out))
    assert p.returncode == 0, p.stderr[-3000:]
    assert "validated" in p.stdout and "on 2 ranks" in p.stdout
    got = np.loadtxt(out, delimiter=",", skiprows=1, dtype=np.int64).reshape(-1, 2)
    hops = csg.shortest_path(sr.generators.kronecker(9).to_scipy(), unweighted=True, indices=1)
    reached = np.flatnonzero(np.isfinite(hops))
    np.testing.assert_array_equal(got[:, 0], reached)
    np.testing.assert_array_equal(got[:, 1], hops[reached])
    p, _ = run_mpi(2, "bench", str(tmp_path))
    assert p.returncode == 0, p.stderr[-3000:]
    res = json.loads((tmp_path / "distributed-kron9-bfs-sssp-p2-cpu.json").read_text())
    assert res["P"] == 2 and set(res["summary"]) == {"bfs", "sssp"}
    assert all(r["reached"] > 1 and r["seconds"] > 0 for rows in res["runs"].values() for r in rows)
    assert "| level | direction |" in (tmp_path / "distributed-kron9-bfs-sssp-p2-cpu.md").read_text()


@pytest.mark.gpu
def test_gpu_ranks(tmp_path):
    """One rank per GPU (up to 2): NCCL exchanges, the CUDA BFS kernels and the array steps on
    CuPy give the levels of scipy; SSSP distances equal Dijkstra's (NCCL_NVLS_ENABLE=0)."""
    import cupy
    import scipy.sparse.csgraph as csg

    import semiring as sr

    P = min(2, cupy.cuda.runtime.getDeviceCount())
    p, _ = run_mpi(P, "gpu", str(tmp_path), env={"NCCL_NVLS_ENABLE": "0"})
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    with np.load(tmp_path / "gpu.npz") as z:
        res = dict(z)
    assert res["channel"][0] == "NcclChannel"
    np.testing.assert_array_equal(res["a2a"], [j * 100 + 0 for j in range(P)])  # rank 0 got one from each
    np.testing.assert_array_equal(res["gather"], np.repeat(np.arange(P), 3))
    M = sr.generators.kronecker(12, seed=1)
    hops = csg.shortest_path(M.to_scipy(), unweighted=True, indices=0)
    for kernels in ("cuda", "array"):
        for d in ("auto", "push", "pull"):
            np.testing.assert_array_equal(_vec(res, f"{kernels}:{d}", M.nrows, np.inf), hops)
    W = sr.generators.kronecker(12, seed=1, weights=(1, 255))
    np.testing.assert_array_equal(_vec(res, "sssp", W.nrows, np.inf), csg.dijkstra(W.to_scipy(), indices=0))
