"""``semiring bfs|sssp|color GRAPH``: run one algorithm, validate it, print a summary, write it."""

from __future__ import annotations

import os
import time

import numpy as np

from .. import algorithms, io
from ..backends._xp import asnumpy
from ..core.matrix import Matrix
from ..exceptions import InvalidValue
from ..testing import validate
from . import graphs


def write_result(path, vec, header):
    """Write a result Vector: ``.csv`` (``vertex,value`` per present entry) or ``.mtx``
    (an n x 1 Matrix Market coordinate matrix). An OSError names ``path``."""
    idx, vals = (asnumpy(a) for a in vec.to_coo())
    try:
        if path.lower().endswith(".mtx"):
            io.write_mtx(path, Matrix.from_coo(idx, np.zeros_like(idx), vals, nrows=vec.size, ncols=1),
                         comment=header)
        elif path.lower().endswith(".csv"):
            fmt = "%d,%.17g" if vals.dtype.kind == "f" else "%d,%d"
            np.savetxt(path, np.column_stack([idx, vals]), fmt=fmt, header=f"vertex,{header}", comments="")
        else:
            raise InvalidValue(f"--output: expected a .csv or .mtx file name; given {path!r}")
    except OSError as exc:
        if exc.filename is not None:
            raise
        if exc.errno is not None:  # e.g. ENOSPC when the data is flushed: no file name attached
            raise OSError(exc.errno, exc.strerror, path) from exc
        raise OSError(f"{path}: {exc}") from exc


def _load(args, weighted):
    t0 = time.perf_counter()
    A = graphs.load(args.graph, weighted=weighted, seed=args.seed, device=args.device)
    t1 = time.perf_counter()
    print(f"graph {os.path.basename(args.graph.text)}: {A.nrows:,} vertices, {A.nvals:,} entries, "
          f"{A.dtype.name}, loaded in {t1 - t0:.2f} s, device {A.device}")
    return A


def _source(args, A):
    if not 0 <= args.source < A.nrows:
        raise InvalidValue(f"--source: expected a vertex in 0..{A.nrows - 1} (0-based); given {args.source}")
    return args.source


def cmd_bfs(args):
    A = _load(args, weighted=False)
    G = algorithms.Graph(A)
    s = _source(args, A)
    t0 = time.perf_counter()
    r = algorithms.bfs(G, s, parents=args.parents, direction=args.direction)
    t1 = time.perf_counter()
    reached = validate.check_bfs(A, s, r.level, r.parent)
    pulls = r.trace.directions.count("pull")  # the names, without a LevelTrace object per level
    print(f"bfs from {s}: {reached:,} reached, {r.depth} levels ({pulls} pull), {1e3 * (t1 - t0):.1f} ms, "
          f"validated")
    if args.output:
        write_result(args.output, r.parent if args.parents else r.level, "parent" if args.parents else "level")
    return 0


def cmd_sssp(args):
    A = _load(args, weighted=True)
    G = algorithms.Graph(A)
    s = _source(args, A)
    t0 = time.perf_counter()
    r = algorithms.sssp(G, s, method=args.method, delta=args.delta)
    t1 = time.perf_counter()
    reached = validate.check_sssp(A, s, r.distance)
    idx, d = (asnumpy(a) for a in r.distance.to_coo())
    extra = f", delta {r.delta:g}" if r.delta else ""
    print(f"sssp from {s} ({r.method}{extra}): {reached:,} reached, max distance {d.max()}, "
          f"sum {d.sum()}, {r.rounds} rounds, {1e3 * (t1 - t0):.1f} ms, validated")
    if args.output:
        write_result(args.output, r.distance, "distance")
    return 0


def cmd_color(args):
    A = _load(args, weighted=False)
    t0 = time.perf_counter()
    c = algorithms.coloring(A, method=args.method, seed=args.seed)
    t1 = time.perf_counter()
    k = validate.check_coloring(A, c)
    print(f"coloring ({args.method}, seed {args.seed}): {k} colors, {1e3 * (t1 - t0):.1f} ms, validated")
    if args.output:
        write_result(args.output, c, "color")
    return 0
