"""``mpiexec -n P semiring bfs|sssp GRAPH --distributed``: the distributed engine from the command line.

Every rank runs the command; each generates (``kron:SCALE[:EDGE_FACTOR]``) or reads (``.mtx``,
``.gr``, optionally gzipped) its share of the graph, runs the search, validates it with the
distributed Graph500 checks, and rank 0 prints the summary (and writes ``--output``).
"""

from __future__ import annotations

import os
import time

import numpy as np

from ..exceptions import InvalidValue


def _load(args, weighted, ctx):
    """The DistMatrix of ``args.graph`` (a GraphSpec: kron or a .mtx/.gr file, checked by the parser)."""
    from .. import distributed as dist

    spec = args.graph
    if spec.kind == "file":
        return dist.read(spec.path, ctx=ctx)
    if spec.kind != "kron":
        raise InvalidValue(f"graph: --distributed takes a .mtx/.gr file or kron:SCALE[:EDGE_FACTOR]; "
                           f"given {spec.text!r}")
    return dist.kronecker(*spec.numbers, seed=args.seed, weights=(1, 255) if weighted else None, ctx=ctx)


def _source(args, A, ctx, say):
    """``--source`` checked against the graph, else the first vertex with an out-edge (one
    collective: each rank's first local row with an entry, the smallest over the ranks)."""
    if args.source is not None:
        if not 0 <= args.source < A.n:
            raise InvalidValue(f"--source: expected a vertex in 0..{A.n - 1} (0-based); given {args.source}")
        return args.source
    rows = np.flatnonzero(ctx.to_host(A.out_degree(), "source") > 0)
    s = int(ctx.allreduce(np.int64(A.lo + rows[0] if rows.size else A.n), "min", "source"))
    if s == A.n:
        say("source 0: no vertex has an out-edge (--source chooses another)")
        return 0
    say(f"source {s}: the first vertex with an out-edge (--source chooses another)")
    return s


def run(args):
    """Run ``args.command`` (bfs or sssp) on the ranks of ``mpiexec``; returns the exit status."""
    from .. import distributed as dist
    from ..distributed import validate
    from .run import write

    ctx = dist.init(device=args.device)

    def say(msg):
        if ctx.rank == 0:
            print(msg, flush=True)

    t0 = time.perf_counter()
    A = _load(args, args.command == "sssp", ctx)
    ctx.barrier("load")
    say(f"graph {os.path.basename(args.graph.text)}: {A.n:,} vertices, {A.nvals:,} entries, {A.dtype.name}, "
        f"loaded in {time.perf_counter() - t0:.2f} s on {ctx.size} ranks ({ctx.device}, "
        f"{type(ctx.channel).__name__})")
    s = _source(args, A, ctx, say)
    t0 = time.perf_counter()
    if args.command == "bfs":
        r = dist.bfs(A, s, parents=args.parents, direction=args.direction)
        ctx.barrier("bfs")
        t1 = time.perf_counter()
        reached = validate.check_bfs(A, s, r.level, r.parent)
        pulls = sum(t.direction == "pull" for t in r.trace)
        sent = sum(sum(t.bytes_sent) for t in r.trace)
        say(f"bfs from {s}: {reached:,} reached, {r.depth} levels ({pulls} pull), "
            f"{1e3 * (t1 - t0):.1f} ms, {sent:,} bytes exchanged, validated")
        out = {"level": r.level, **({"parent": r.parent} if args.parents else {})}
    else:
        r = dist.sssp(A, s, delta=args.delta)
        ctx.barrier("sssp")
        t1 = time.perf_counter()
        reached = validate.check_sssp(A, s, r.distance)
        say(f"sssp from {s} (delta-stepping, delta {r.delta:g}): {reached:,} reached, {r.buckets} buckets, "
            f"{r.rounds} rounds, {1e3 * (t1 - t0):.1f} ms, {sum(r.bytes_sent):,} bytes exchanged, validated")
        out = {"distance": r.distance}
    if args.output:
        columns = {name: v.to_vector(root=0, device="cpu") for name, v in out.items()}
        if ctx.rank == 0:
            write(args, A.n, columns, f"{args.command} from vertex {s} (0-based)")
    return 0
