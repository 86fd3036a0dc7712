"""Distributed BFS and SSSP on P ranks: time, TEPS, bytes per level and per rank.

Usage (every rank runs the same command)::

    mpiexec -n P python -m benchmarks.distributed --graph kron:26 --algo bfs,sssp --roots 16 \\
        --device gpu --out DIR [--sssp-roots K] [--no-parents] [--single] [--compare DIR or JSON]

Each rank generates its share of the Graph500 Kronecker graph on its device (int64 weights
1..255 for SSSP), then for every algorithm: one warm-up run, then one timed run per Graph500
root (random vertices of degree >= 1, fixed seed, as semiring._bench.timing.graph500_roots draws them), each
timed on every rank between a barrier and the end of the call (CUDA events on a GPU) and
reported as the slowest rank's time, and each validated by the distributed Graph500 checks
(semiring.distributed.validate: every edge's endpoints at most one level apart, tree edges
exist; tight in-edges for SSSP). TEPS = undirected edges in the searched component / time
(Graph500's convention); the table gives the median over roots and the harmonic-mean TEPS.
``--single`` also times the single-device engine (sr.algorithms.bfs, fused) on the same
graph on rank 0 when P = 1; ``--compare`` (a JSON file, or a folder holding the P = 1 run)
adds the speed-up. Rank 0 writes ``distributed-<graph>-<algos>-p<P>-<device>.json`` and
``.md`` into DIR; a failed
validation makes every rank exit with status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

from semiring._bench.timing import graph500_roots, harmonic_mean, median


def _parse(argv):
    p = argparse.ArgumentParser(prog="python -m benchmarks.distributed", description=__doc__.split("\n")[0])
    p.add_argument("--graph", default="kron:16", help="kron:SCALE[:EDGE_FACTOR] (default kron:16)")
    p.add_argument("--algo", default="bfs,sssp", help="comma-separated: bfs, sssp")
    p.add_argument("--roots", type=int, default=16)
    p.add_argument("--sssp-roots", type=int, default=None, help="SSSP roots (default: --roots)")
    p.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    p.add_argument("--out", default="benchmarks/results")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-parents", dest="parents", action="store_false", help="BFS levels only")
    p.add_argument("--single", action="store_true", help="also time the single-device engine (P = 1)")
    p.add_argument("--compare", help="JSON of another run (e.g. P = 1) to compute the speed-up against")
    p.add_argument("--timeout", type=float, default=900.0, help="seconds a rank waits in one collective")
    return p.parse_args(argv)


def _stem(graph, algos, P, device):
    """File name stem of a run: distributed-kron26-bfs-sssp-p2-gpu."""
    return f"distributed-{graph.replace(':', '')}-{'-'.join(algos)}-p{P}-{device}"


def _timer(ctx):
    if ctx.device == "gpu":
        cp = ctx.xp

        def run(fn):
            ctx.barrier("benchmark start")
            cp.cuda.Device().synchronize()
            start, stop = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            out = fn()
            stop.record()
            stop.synchronize()
            return cp.cuda.get_elapsed_time(start, stop) / 1e3, out
    else:
        def run(fn):
            ctx.barrier("benchmark start")
            t = time.perf_counter()
            out = fn()
            return time.perf_counter() - t, out
    return run


def _component_edges(A, reached_present):
    """Undirected edges with both ends in the searched component: half the degree sum of the
    reached vertices (the graph is symmetric)."""
    deg = A.out_degree()
    local = int(deg[reached_present].sum()) if A.nlocal else 0
    return int(A.ctx.allreduce(np.int64(local), "sum", "teps")) // 2


def _roots(ctx, A, k, seed):
    """Graph500 roots from the allgathered degrees (int32, n words: small beside the graph)."""
    xp = ctx.xp
    local = xp.zeros(A.blocks.B, dtype=np.int32)
    local[:A.nlocal] = A.out_degree().astype(np.int32)
    deg = ctx.channel.allgather(local, "roots")[:A.n]
    return graph500_roots(deg, k, seed)


def _bench(ctx, A, algo, roots, parents, timer, log):
    import semiring.distributed as dist
    from semiring.distributed import validate

    def call(s):
        if algo == "bfs":
            return dist.bfs(A, s, parents=parents)
        return dist.sssp(A, s)

    call(roots[0])  # warm-up: kernel compilation, memory pools
    rows = []
    for s in roots:
        t, r = timer(lambda: call(s))
        t = float(ctx.allreduce(np.float64(t), "max", "time"))
        if algo == "bfs":
            reached = validate.check_bfs(A, s, r.level, r.parent if parents else None)
            present = r.level.present
            levels = [{"depth": x.depth, "direction": x.direction, "frontier": x.frontier,
                       "discovered": x.discovered, "edges_examined": x.edges_examined,
                       "bytes_sent": x.bytes_sent} for x in r.trace]
            extra = {"levels": levels, "kernels": r.kernels,
                     "bytes_total": int(sum(sum(x.bytes_sent) for x in r.trace))}
        else:
            reached = validate.check_sssp(A, s, r.distance)
            present = r.distance.present
            extra = {"buckets": r.buckets, "rounds": r.rounds, "delta": r.delta, "bytes_sent": r.bytes_sent,
                     "bytes_total": int(sum(r.bytes_sent))}
        m = _component_edges(A, present)
        rows.append({"root": int(s), "seconds": t, "reached": reached, "edges": m, "teps": m / t if t > 0 else None,
                     **extra})
        log(f"{algo} root {s}: {1e3 * t:.2f} ms, {reached:,} reached, "
            f"{(m / t / 1e9) if t > 0 else 0:.2f} GTEPS, {extra['bytes_total']:,} bytes exchanged, validated")
    return rows


def _single(ctx, spec, seed, algo, roots, timer_fn, log):
    """The single-device engine (sr.algorithms, fused on a GPU) on the same graph, made by the
    single-device generator (same seed: the same matrix). P = 1 only."""
    import semiring as sr

    weights = (1, 255) if algo == "sssp" else None
    M = sr.generators.kronecker(spec[0], *spec[1:], seed=seed, weights=weights, device=ctx.device)
    G = sr.algorithms.Graph(M, kind="undirected")
    fn = (lambda s: sr.algorithms.bfs(G, s, parents=True)) if algo == "bfs" else (lambda s: sr.algorithms.sssp(G, s))
    fn(roots[0])
    times = []
    for s in roots:
        t, _ = timer_fn(lambda: fn(s))
        times.append(t)
    log(f"single-device {algo}: median {1e3 * median(times):.2f} ms")
    return {"median_seconds": median(times), "seconds": times}


def _markdown(res):
    lines = [f"# Distributed {', '.join(res['algorithms'])} on {res['graph']}, P = {res['P']} ({res['device']})", "",
             f"Command: `{res['command']}`", "",
             f"Graph: {res['n']:,} vertices, {res['nvals']:,} stored entries (both directions); "
             f"built in {res['build_seconds']:.2f} s (slowest rank). Device: {res['device_name']}.", "",
             "| algorithm | roots | median time | harmonic-mean TEPS | median bytes exchanged per search (all ranks) "
             "| speed-up vs compared run |", "|---|---|---|---|---|---|"]
    for algo, s in res["summary"].items():
        sp = s.get("speedup")
        lines.append(f"| {algo} | {s['roots']} | {1e3 * s['median_seconds']:.2f} ms | "
                     f"{(s['hmean_teps'] or 0) / 1e9:.3f} G | {s['median_bytes']:,.0f} | "
                     f"{'' if sp is None else f'{sp:.2f}x'} |")
    for algo, rows in res["runs"].items():
        if algo != "bfs" or not rows:
            continue
        r0 = rows[0]
        lines += ["", f"BFS levels from root {r0['root']} (bytes each rank sent in the level's exchange):", "",
                  "| level | direction | frontier | discovered | edges examined | bytes per rank |",
                  "|---|---|---|---|---|---|"]
        for lv in r0["levels"]:
            lines.append(f"| {lv['depth']} | {lv['direction']} | {lv['frontier']:,} | {lv['discovered']:,} | "
                         f"{lv['edges_examined']:,} | {', '.join(f'{b:,}' for b in lv['bytes_sent'])} |")
    if res.get("single"):
        lines += ["", "Single-device engine on the same graph (median): " + ", ".join(
            f"{a} {1e3 * v['median_seconds']:.2f} ms" for a, v in res["single"].items())]
    return "\n".join(lines) + "\n"


def main(argv=None):
    args = _parse(argv)
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    import semiring.distributed as dist

    ctx = dist.init(device=args.device, timeout=args.timeout)
    name, _, rest = args.graph.partition(":")
    if name != "kron" or not rest:
        print(f"--graph: expected kron:SCALE[:EDGE_FACTOR]; given {args.graph!r}", file=sys.stderr)
        return 2
    nums = [int(x) for x in rest.split(":")]
    algos = [a for a in args.algo.split(",") if a]
    if set(algos) - {"bfs", "sssp"}:
        print(f"--algo: expected bfs and/or sssp; given {args.algo!r}", file=sys.stderr)
        return 2

    def log(msg):
        if ctx.rank == 0:
            print(msg, file=sys.stderr, flush=True)

    timer = _timer(ctx)
    runs, summary, single, built, nvals = {}, {}, {}, [], {}
    failed = None
    compare = None
    if args.compare:  # a JSON file, or a folder holding the P = 1 run of the same graph and algorithms
        path = args.compare
        if os.path.isdir(path):
            path = os.path.join(path, _stem(args.graph, algos, 1, args.device) + ".json")
        with open(path) as f:
            compare = json.load(f)
    for algo in algos:
        weights = (1, 255) if algo == "sssp" else None
        t, A = timer(lambda: dist.kronecker(nums[0], *nums[1:], seed=args.seed, weights=weights, ctx=ctx))
        built.append(float(ctx.allreduce(np.float64(t), "max", "build")))
        log(f"{args.graph} ({'weighted' if weights else 'pattern'}): {A.n:,} vertices, {A.nvals:,} entries, "
            f"built in {built[-1]:.2f} s on {ctx.size} rank(s)")
        nvals[algo] = A.nvals
        k = args.sssp_roots if algo == "sssp" and args.sssp_roots else args.roots
        roots = _roots(ctx, A, k, args.seed)
        try:
            rows = _bench(ctx, A, algo, roots, args.parents, timer, log)
        except dist.validate.ValidationError as exc:
            failed = f"{algo}: {exc}"
            break
        runs[algo] = rows
        s = {"roots": len(rows), "median_seconds": median([r["seconds"] for r in rows]),
             "hmean_teps": harmonic_mean([r["teps"] for r in rows]),
             "median_bytes": median([r["bytes_total"] for r in rows])}
        if compare and algo in compare.get("summary", {}):
            s["speedup"] = compare["summary"][algo]["median_seconds"] / s["median_seconds"]
        summary[algo] = s
        del A
        if ctx.device == "gpu":
            ctx.xp.get_default_memory_pool().free_all_blocks()
        if args.single and ctx.size == 1:
            single[algo] = _single(ctx, nums, args.seed, algo, roots, timer, log)
        if ctx.device == "gpu":
            ctx.xp.get_default_memory_pool().free_all_blocks()
    if failed:
        log(f"VALIDATION FAILED: {failed}")
        return 1
    if ctx.rank == 0:
        from semiring._bench.env import describe

        env = describe(ctx.xp if ctx.device == "gpu" else None)
        res = {"graph": args.graph, "P": ctx.size, "device": ctx.device, "algorithms": algos,
               "device_name": (env["gpu"] or {}).get("name") if env.get("gpu") else env["machine"].get("cpu"),
               "command": f"mpiexec -n {ctx.size} python -m benchmarks.distributed " + " ".join(argv or sys.argv[1:]),
               "channel": type(ctx.channel).__name__, "parents": args.parents, "n": 1 << nums[0],
               "nvals": max(nvals.values()) if nvals else 0, "build_seconds": max(built), "summary": summary,
               "runs": runs, "single": single,
               "env": env}
        os.makedirs(args.out, exist_ok=True)
        stem = os.path.join(args.out, _stem(args.graph, algos, ctx.size, ctx.device))
        with open(stem + ".json", "w") as f:
            json.dump(res, f, indent=1, default=str)
        with open(stem + ".md", "w") as f:
            f.write(_markdown(res))
        print(_markdown(res))
        print(f"wrote {stem}.json and .md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
