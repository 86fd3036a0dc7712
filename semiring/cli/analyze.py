"""``semiring components|scc|pagerank|triangles|louvain|mst|betweenness|partition|apsp GRAPH``:
run one algorithm, print a summary, write ``--output``."""

from __future__ import annotations

import numpy as np

from .. import algorithms
from .._memory import require
from ..backends._xp import asnumpy
from ..core.matrix import Matrix
from ..exceptions import InvalidValue
from ..testing.validate import ValidationError
from . import output, progress
from .run import load, timed, write


def _dense(vec):
    """A Vector that holds every vertex, as a NumPy array."""
    return asnumpy(vec.to_dense())


def _labels_summary(labels):
    """(number of labels, size of the largest) of a per-vertex label array."""
    if labels.size == 0:
        return 0, 0
    _, counts = np.unique(labels, return_counts=True)
    return int(counts.size), int(counts.max())


def undirected(fn, A, *a, **k):
    """``fn(A, ...)`` for an algorithm of undirected graphs: an InvalidValue of a directed A gets
    a hint at --symmetrize."""
    try:
        return fn(A, *a, **k)
    except InvalidValue as exc:
        if algorithms.Graph(A).is_symmetric():
            raise
        raise InvalidValue(f"{exc} (--symmetrize runs on A + A^T)") from None


def cmd_components(args):
    A = load(args, weighted=False)
    c, secs = timed("connected components", algorithms.connected_components, A)
    k, big = _labels_summary(_dense(c))
    print(f"connected components: {k:,}, the largest {big:,} vertices, {1e3 * secs:.1f} ms")
    write(args, A.nrows, {"component": c}, "component = its smallest vertex (0-based)")
    return 0


def cmd_scc(args):
    A = load(args, weighted=False)
    c, secs = timed("strongly connected components", algorithms.strongly_connected_components, A,
                    seed=args.seed)
    k, big = _labels_summary(_dense(c))
    print(f"strongly connected components: {k:,}, the largest {big:,} vertices, {1e3 * secs:.1f} ms")
    write(args, A.nrows, {"component": c}, "component = its smallest vertex (0-based)")
    return 0


def cmd_pagerank(args):
    A = load(args, weighted=args.weighted)
    r, secs = timed("pagerank", algorithms.pagerank, A, alpha=args.alpha, tol=args.tol, max_iter=args.max_iter,
                    weighted=args.weighted)
    ranks = _dense(r)
    top = np.argsort(-ranks, kind="stable")[:3]
    best = ", ".join(f"{int(v)} ({ranks[v]:.3g})" for v in top)
    print(f"pagerank (alpha {args.alpha:g}, tol {args.tol:g}): converged, sum {ranks.sum():.6f}, "
          f"top vertices {best}, {1e3 * secs:.1f} ms")
    write(args, A.nrows, {"rank": r})
    return 0


def cmd_triangles(args):
    A = load(args, weighted=False)
    count, secs = timed("triangles", undirected, algorithms.triangle_count, A, method=args.method)
    print(f"triangles ({args.method}): {count:,}, {1e3 * secs:.1f} ms")
    if args.output:
        t, _ = timed("triangles per vertex", undirected, algorithms.triangles_per_vertex, A)
        total = int(_dense(t).sum())
        if total != 3 * count:  # every triangle has three corners
            raise ValidationError(f"triangles: the per-vertex counts sum to {total:,}, not 3 x {count:,}")
        write(args, A.nrows, {"triangles": t})
    return 0


def cmd_louvain(args):
    A = load(args, weighted=False)
    c, secs = timed("louvain", undirected, algorithms.louvain, A, resolution=args.resolution, seed=args.seed,
                    max_level=args.max_level)
    k, big = _labels_summary(_dense(c))
    quality = ""
    if A.nvals:  # modularity is undefined without edges
        q, _ = timed("modularity", algorithms.modularity, A, c, resolution=args.resolution)
        quality = f", modularity {q:.4f}"
    print(f"louvain (resolution {args.resolution:g}, seed {args.seed}): {k:,} communities, the largest "
          f"{big:,} vertices{quality}, {1e3 * secs:.1f} ms")
    write(args, A.nrows, {"community": c})
    return 0


def cmd_mst(args):
    A = load(args, weighted=True)
    F, secs = timed("minimum spanning forest", undirected, algorithms.minimum_spanning_forest, A, method=args.method)
    w = asnumpy(F.to_coo()[2])
    edges = F.nvals // 2
    total = w.sum() / 2 if w.dtype.kind == "f" else int(w.astype(np.int64).sum()) // 2
    trees = A.nrows - edges
    print(f"minimum spanning forest ({args.method}): {edges:,} edges, {trees:,} tree{'s' * (trees != 1)}, "
          f"total weight {total}, {1e3 * secs:.1f} ms")
    if args.output:
        output.write_pairs(args.output, output.format_of(args.output, args.format), F, "weight", upper=True,
                           comment="minimum spanning forest, both directions of each edge")
    return 0


def cmd_betweenness(args):
    A = load(args, weighted=False)
    n = A.nrows
    sources = None
    if args.samples is not None:
        if args.samples > n:
            raise InvalidValue(f"--samples: expected 1..{n} for a graph of {n:,} vertices; given {args.samples}")
        sources = np.sort(np.random.default_rng(args.seed).choice(n, size=args.samples, replace=False))
    b, secs = timed("betweenness", algorithms.betweenness_centrality, A, sources=sources,
                    normalized=not args.raw, endpoints=args.endpoints)
    scores = _dense(b)
    how = f"estimate from {args.samples:,} sources (seed {args.seed})" if sources is not None else "exact"
    top = int(np.argmax(scores)) if n else None
    best = f", highest {top} ({scores[top]:.4g})" if n else ""
    print(f"betweenness ({how}{', raw' if args.raw else ''}{', endpoints' if args.endpoints else ''}){best}, "
          f"{1e3 * secs:.1f} ms")
    write(args, n, {"betweenness": b})
    return 0


def cmd_partition(args):
    A = load(args, weighted=False)
    n, k = A.nrows, args.parts
    if n == 0:
        raise InvalidValue("partition: the graph has no vertices to partition")
    if k > n:
        raise InvalidValue(f"--parts: expected 1..{n} for a graph of {n:,} vertices; given {k}")
    if args.method == "kernighan_lin":
        p, secs = timed("kernighan_lin", undirected, algorithms.kernighan_lin_bisection, A, seed=args.seed)
    else:
        p, secs = timed("partition", undirected, algorithms.partition, A, k, method=args.method, seed=args.seed,
                        imbalance=args.imbalance)
    cut = algorithms.edge_cut(A, p)
    sizes = np.bincount(_dense(p), minlength=k)
    print(f"partition ({args.method}, {k} parts, seed {args.seed}): edge cut {cut:,}, balance "
          f"{algorithms.balance(p, k):.3f} (1 = equal parts), sizes {sizes.min():,}..{sizes.max():,}, "
          f"{1e3 * secs:.1f} ms")
    write(args, n, {"part": p})
    return 0


def cmd_apsp(args):
    A = load(args, weighted=args.method != "batched_bfs")
    n = A.nrows
    src = args.sources
    if src is not None:
        bad = [v for v in src if v >= n]
        if bad:
            raise InvalidValue(f"--sources: expected vertices in 0..{n - 1} (0-based); given {bad[0]}")
    rows = n if src is None else len(src)
    # at most rows x n entries, each a value and a column index (16 bytes)
    require(16 * rows * n, f"apsp: the distances from {rows:,} sources to {n:,} vertices (give fewer --sources)",
            device=A.device)
    D, secs = timed("apsp", algorithms.all_pairs_shortest_paths, A, method=args.method,
                    sources=None if src is None else np.asarray(src, dtype=np.int64))
    r, c, d = (asnumpy(a) for a in D.to_coo())
    far = f", the longest {d.max()}" if d.size else ""
    print(f"apsp ({args.method}): {rows:,} sources, {d.size:,} reachable pairs{far}, {1e3 * secs:.1f} ms")
    if args.output:
        if src is not None:  # row i of D is source src[i]: the n x n matrix with those rows
            with progress.phase("arranging"):
                D = Matrix.from_coo(np.asarray(src, dtype=np.int64)[r], c, d, nrows=n, ncols=n, dtype=d.dtype)
        output.write_pairs(args.output, output.format_of(args.output, args.format), D, "distance",
                           comment="shortest-path distances: row = source, column = target")
    return 0
