"""``semiring bfs|sssp|color|mis GRAPH``: run one algorithm, validate it, print a summary, write it.

Also the steps every algorithm command shares: loading the graph (:func:`load`), choosing a
source (:func:`source`), timing a step under a progress spinner (:func:`timed`) and writing
``--output`` (:func:`write`).
"""

from __future__ import annotations

import os
import time

import numpy as np

from .. import algorithms
from ..backends._xp import asnumpy
from ..core import ewise_add
from ..exceptions import InvalidValue
from ..ops import binary
from ..testing import validate
from . import graphs, output, progress


def write(args, n, columns, comment=""):
    """Write per-vertex ``columns`` (name -> Vector, or a NumPy array of every vertex's value) to
    ``--output`` when it is given."""
    if args.output:
        output.write_vertices(args.output, output.format_of(args.output, args.format), n, columns,
                              comment=comment)


def timed(desc, fn, *a, **k):
    """``fn(*a, **k)`` under a progress spinner named ``desc``; returns (result, seconds)."""
    with progress.phase(desc):
        t0 = time.perf_counter()
        result = fn(*a, **k)
        return result, time.perf_counter() - t0


def symmetrize(A):
    """A + A^T, the smaller weight where both directions exist."""
    # S = A min.+ A^T (element-wise union; min where both hold an entry)
    return ewise_add(A, A.T, binary.min)


def load(args, weighted):
    """The graph of ``args.graph`` (read or generated under a progress spinner), symmetrized
    with ``--symmetrize``; prints one line about it."""
    spec = args.graph
    name = os.path.basename(spec.text)
    t0 = time.perf_counter()
    with progress.phase(f"reading {name}" if spec.kind == "file" else f"generating {spec.text}"):
        A = graphs.load(spec, weighted=weighted, seed=args.seed, device=args.device)
    if getattr(args, "symmetrize", False):
        with progress.phase("symmetrizing"):
            A = symmetrize(A)
    t1 = time.perf_counter()
    sym = ", symmetrized" if getattr(args, "symmetrize", False) else ""
    print(f"graph {name}: {A.nrows:,} vertices, {A.nvals:,} entries{sym}, {A.dtype.name}, loaded in {t1 - t0:.2f} s, "
          f"device {A.device}")
    return A


def first_with_edge(G):
    """The smallest vertex with an out-edge, or None when no vertex has one."""
    idx = asnumpy(G.out_degree.to_coo()[0])
    return int(idx.min()) if idx.size else None


def source(args, G):
    """``--source`` checked against the graph, else the first vertex with an out-edge (printed)."""
    n = G.n
    if args.source is not None:
        if not 0 <= args.source < n:
            raise InvalidValue(f"--source: expected a vertex in 0..{n - 1} (0-based); given {args.source}")
        return args.source
    s = first_with_edge(G)
    if s is None:
        if n == 0:
            raise InvalidValue(f"{args.command}: the graph has no vertices, so no source")
        print("source 0: no vertex has an out-edge (--source chooses another)")
        return 0
    print(f"source {s}: the first vertex with an out-edge (--source chooses another)")
    return s


def cmd_bfs(args):
    A = load(args, weighted=False)
    G = algorithms.Graph(A)
    s = source(args, G)
    r, secs = timed("bfs", algorithms.bfs, G, s, parents=args.parents, direction=args.direction)
    with progress.phase("validating"):
        reached = validate.check_bfs(A, s, r.level, r.parent)
    pulls = r.trace.directions.count("pull")  # the names, without a LevelTrace object per level
    print(f"bfs from {s}: {reached:,} reached, {r.depth} levels ({pulls} pull), {1e3 * secs:.1f} ms, validated")
    columns = {"level": r.level}
    if args.parents:
        columns["parent"] = r.parent
    write(args, A.nrows, columns, f"bfs from vertex {s} (0-based)")
    return 0


def cmd_sssp(args):
    A = load(args, weighted=True)
    G = algorithms.Graph(A)
    s = source(args, G)
    r, secs = timed("sssp", algorithms.sssp, G, s, method=args.method, delta=args.delta, parents=args.parents)
    with progress.phase("validating"):
        reached = validate.check_sssp(A, s, r.distance, r.parent if args.parents else None)
    d = asnumpy(r.distance.to_coo()[1])
    extra = f", delta {r.delta:g}" if r.delta else ""
    print(f"sssp from {s} ({r.method}{extra}): {reached:,} reached, max distance {d.max()}, "
          f"sum {d.sum()}, {r.rounds} rounds, {1e3 * secs:.1f} ms, validated")
    columns = {"distance": r.distance}
    if args.parents:
        columns["parent"] = r.parent
    write(args, A.nrows, columns, f"sssp from vertex {s} (0-based)")
    return 0


def cmd_color(args):
    A = load(args, weighted=False)
    c, secs = timed("coloring", algorithms.coloring, A, method=args.method, seed=args.seed)
    with progress.phase("validating"):
        k = validate.check_coloring(A, c)
    print(f"coloring ({args.method}, seed {args.seed}): {k} colors, {1e3 * secs:.1f} ms, validated")
    write(args, A.nrows, {"color": c})
    return 0


def cmd_mis(args):
    A = load(args, weighted=False)
    m, secs = timed("mis", algorithms.mis, A, seed=args.seed)
    with progress.phase("validating"):
        validate.check_mis(A, m)
    member = np.zeros(A.nrows, dtype=np.int8)
    member[asnumpy(m.to_coo()[0])] = 1
    print(f"maximal independent set (Luby, seed {args.seed}): {int(member.sum()):,} of {A.nrows:,} vertices, "
          f"{1e3 * secs:.1f} ms, validated")
    write(args, A.nrows, {"member": member})
    return 0
