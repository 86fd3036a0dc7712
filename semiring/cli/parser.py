"""The ``semiring`` command line: every subcommand, its options and their help texts.

Each option is checked while the command line is parsed (:mod:`.args`), so that a bad value is
a usage error before any graph is read or generated.
"""

from __future__ import annotations

import argparse

from . import args as _a
from . import graphs
from .output import FORMATS

SEED = _a.integer(0, 2**63 - 1)
VERTEX = _a.integer(0, 2**63 - 1)
DEVICES = ("cpu", "gpu", "auto")
DEVICE_HELP = ("where the graph lives and the algorithm runs: cpu (NumPy/SciPy), gpu (CuPy on an NVIDIA GPU; "
               "fails if none is usable), auto (the GPU when CuPy finds one, else the CPU); default cpu")
QUIET_HELP = "no progress bars on stderr (they are shown only when stderr is a terminal)"

#: the algorithm commands: name -> (one-line help, what --output writes)
ALGORITHMS = {
    "bfs": ("breadth-first search: the level of every reached vertex (and its parent with --parents)",
            "vertex,level[,parent] for every reached vertex"),
    "sssp": ("single-source shortest paths: distances (and a shortest-path tree with --parents)",
             "vertex,distance[,parent] for every reached vertex"),
    "color": ("graph coloring: a color per vertex, no edge joining two of one color",
              "vertex,color for every vertex"),
    "mis": ("a maximal independent set (Luby): no two members adjacent, every other vertex next to one",
            "vertex,member (1 in the set, 0 not) for every vertex"),
    "components": ("connected components (edges followed both ways)",
                   "vertex,component for every vertex (the component's smallest vertex)"),
    "scc": ("strongly connected components (paths both ways along the edges' directions)",
            "vertex,component for every vertex (the component's smallest vertex)"),
    "pagerank": ("PageRank: the stationary distribution of a random surfer",
                 "vertex,rank for every vertex (the ranks sum to 1)"),
    "triangles": ("triangle count, in all and per vertex (an undirected graph)",
                  "vertex,triangles for every vertex (the triangles it is a corner of)"),
    "louvain": ("community detection by Louvain modularity maximization (an undirected graph)",
                "vertex,community for every vertex (communities 0..K-1)"),
    "mst": ("minimum spanning forest (an undirected weighted graph)",
            "source,target,weight per forest edge, source < target (.mtx: the symmetric forest matrix)"),
    "betweenness": ("betweenness centrality (shortest paths, unweighted)",
                    "vertex,betweenness for every vertex"),
    "partition": ("graph partitioning into --parts balanced parts with few cut edges (an undirected graph)",
                  "vertex,part for every vertex (parts 0..k-1)"),
    "apsp": ("all-pairs (or --sources-to-all) shortest paths",
             "source,target,distance per reachable pair (.mtx: the n x n distance matrix, rows of the sources)"),
}
COMMANDS = ("demo", "bench", *ALGORITHMS)


def _common(c, outputs):
    """The options every algorithm command has."""
    c.add_argument("graph", type=_a.graph,
                   help="a readable graph file (.mtx, .gr, .col, optionally .gz; any other name is a "
                        f"whitespace edge list) or a generator spec: {graphs.SPEC_RANGES}")
    c.add_argument("--device", choices=DEVICES, default="cpu", help=DEVICE_HELP)
    c.add_argument("--output", type=_a.output, metavar="FILE",
                   help=f"write the result to FILE: {outputs}; CSV for .csv, Matrix Market for .mtx (either "
                        "may end in .gz: compressed), else as --format says (the directory must exist and be "
                        "writable)")
    c.add_argument("--format", choices=FORMATS, default=None,
                   help="the format of --output: csv or mtx (default: from the file name's suffix)")
    c.add_argument("--symmetrize", action="store_true",
                   help="use the graph with every edge both ways (A + A^T; the smaller weight where both "
                        "directions exist), e.g. to run an undirected algorithm on a directed file")
    c.add_argument("--seed", type=SEED, default=0,
                   help="seed of the generated graph (and its weights) and of the randomized algorithms, "
                        "0..2**63-1 (default 0)")
    c.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)


def _source(c):
    c.add_argument("--source", type=VERTEX, default=None,
                   help="0-based source vertex, 0..n-1 for a graph of n vertices (default: the first vertex "
                        "with an out-edge, printed; checked before generating a graph, after reading a file)")


def _distributed(c):
    c.add_argument("--distributed", action="store_true",
                   help="run on the ranks of mpiexec (semiring.distributed), on kron:SCALE[:EDGE_FACTOR] or "
                        "a .mtx/.gr file: mpiexec -n 2 semiring bfs kron:22 --distributed")


def _bfs(c):
    _source(c)
    _distributed(c)
    c.add_argument("--parents", action="store_true",
                   help="also compute a BFS tree: the parent of every reached vertex (written with the levels)")
    c.add_argument("--direction", choices=("auto", "push", "pull"), default="auto",
                   help="how each level expands: push (from the frontier's out-edges), pull (unvisited "
                        "vertices look for a parent in the frontier), auto (switches by the frontier's size, "
                        "as direction-optimizing BFS does); default auto")


def _sssp(c):
    _source(c)
    _distributed(c)
    c.add_argument("--method", choices=("auto", "bellman_ford", "delta_stepping"), default="auto",
                   help="bellman_ford (negative weights allowed), delta_stepping (non-negative weights), or "
                        "auto (chosen from the weights); default auto; --distributed runs delta_stepping only")
    c.add_argument("--delta", type=_a.positive_float, default=None,
                   help="delta-stepping bucket width, a positive finite number "
                        "(default: chosen from the weights; not with --method bellman_ford)")
    c.add_argument("--parents", action="store_true",
                   help="also compute a shortest-path tree: the parent of every reached vertex "
                        "(written with the distances; not with --distributed)")


def _color(c):
    c.add_argument("--method", choices=("jones_plassmann", "luby", "greedy", "gebremedhin_manne"),
                   default="jones_plassmann",
                   help="jones_plassmann (parallel rounds, random priorities seeded by --seed), luby (rounds "
                        "of independent sets), greedy (sequential, largest degree first), gebremedhin_manne "
                        "(speculative block coloring); default jones_plassmann")


def _pagerank(c):
    c.add_argument("--alpha", type=_a.real(0.0, 1.0), default=0.85,
                   help="damping factor: the probability of following an edge, in [0, 1] (default 0.85)")
    c.add_argument("--tol", type=_a.real(0.0, None), default=1e-6,
                   help="convergence tolerance: stop when the ranks change by less than n*TOL in L1 norm, "
                        ">= 0 (default 1e-6, as networkx)")
    c.add_argument("--max-iter", type=_a.integer(0, 2**31), default=100,
                   help="most power iterations, 0..2**31 (default 100); not converged by then is an error")
    c.add_argument("--weighted", action="store_true",
                   help="follow edges in proportion to their weights (default: every out-edge equally); "
                        "generated graphs get weights 1..255")


def _triangles(c):
    c.add_argument("--method", choices=("sandia", "sandia2", "cohen", "burkhardt"), default="sandia",
                   help="the masked product that counts (L, U: the lower, upper triangle of A): sandia "
                        "(sum(L*L .* L)), sandia2 (sum(U*U .* U)), cohen (sum(L*U .* A) / 2), burkhardt "
                        "(sum(A*A .* A) / 6); all give the same count; default sandia")


def _louvain(c):
    c.add_argument("--resolution", type=_a.real(0.0, None), default=1.0,
                   help="modularity resolution gamma >= 0: larger finds more, smaller communities (default 1)")
    c.add_argument("--max-level", type=_a.integer(1, 2**31), default=None,
                   help="most coarsening levels, 1..2**31 (default: until no move improves modularity)")


def _mst(c):
    c.add_argument("--method", choices=("boruvka", "prim"), default="boruvka",
                   help="boruvka (parallel rounds of cheapest edges) or prim; both give the same forest "
                        "(ties broken by edge index); default boruvka")


def _betweenness(c):
    c.add_argument("--samples", type=_a.integer(1, 2**63 - 1), default=None,
                   help="estimate from this many random source vertices (seeded by --seed), as networkx's "
                        "k; 1..n (default: every vertex, exact; the work is n searches)")
    c.add_argument("--raw", action="store_true",
                   help="unnormalized sums (default: normalized as networkx's normalized=True)")
    c.add_argument("--endpoints", action="store_true",
                   help="count a path's endpoints as on the path (networkx's endpoints=True)")


def _partition(c):
    c.add_argument("--parts", type=_a.integer(1, 2**63 - 1), default=2,
                   help="number of parts k, 1..n (default 2)")
    c.add_argument("--method", choices=("multilevel", "bfs", "kernighan_lin"), default="multilevel",
                   help="multilevel (METIS-style coarsening and refinement), bfs (BFS-grown parts, exactly "
                        "balanced), kernighan_lin (bisection by Kernighan-Lin swaps; --parts 2 only); "
                        "default multilevel")
    c.add_argument("--imbalance", type=_a.real(0.0, None), default=0.03,
                   help="allowed imbalance of multilevel parts: each holds at most (1 + IMBALANCE) * n / k "
                        "vertices, >= 0 (default 0.03)")


def _apsp(c):
    c.add_argument("--sources", type=_a.vertex_list, default=None, metavar="V[,V...]",
                   help="distances from these 0-based vertices only, comma-separated (default: every vertex; "
                        "the result is n x n, refused when it would not fit)")
    c.add_argument("--method", choices=("auto", "floyd_warshall", "repeated", "batched_bfs"), default="auto",
                   help="floyd_warshall (blocked, all pairs), repeated (one SSSP per source), batched_bfs "
                        "(hop counts, weights ignored), auto (batched_bfs for unweighted graphs, Floyd-Warshall "
                        "for up to 1024 vertices, else repeated); default auto")


_EXTRA = {"bfs": _bfs, "sssp": _sssp, "color": _color, "pagerank": _pagerank, "triangles": _triangles,
          "louvain": _louvain, "mst": _mst, "betweenness": _betweenness, "partition": _partition, "apsp": _apsp}

def _bench_epilog():
    from .bench import SCIPY_ROUTINES

    lines = ["columns:", "  runs       searches timed (one per root; coloring once)",
             "  median ms  the median time of semiring's algorithm",
             "  scipy ms   the median time of SciPy on the same graph and roots:"]
    lines += [f"             {k + ':':<9} {r or 'none (SciPy has no coloring)'}" for k, r in SCIPY_ROUTINES.items()]
    return "\n".join(lines) + "\n"


def build(exit_statuses):
    """The ``semiring`` ArgumentParser (subcommand parsers included)."""
    formatter = argparse.RawDescriptionHelpFormatter
    p = _a.Parser(prog="semiring", description="GraphBLAS-style graph algorithms over semirings.",
                  epilog=exit_statuses, formatter_class=formatter)
    sub = p.add_subparsers(dest="command", required=True, metavar="{" + ",".join(COMMANDS) + "}")

    d = sub.add_parser("demo", help="a short tour of the algebra, checked against SciPy", epilog=exit_statuses,
                       formatter_class=formatter)
    from .demo import MAX_SIDE

    d.add_argument("--side", type=_a.integer(1, MAX_SIDE), default=64,
                   help=f"grid side, 1..{MAX_SIDE} (vertices = side**2; default 64)")
    d.add_argument("--seed", type=SEED, default=0, help="weight seed, 0..2**63-1 (default 0)")
    d.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)

    b = sub.add_parser("bench", help="BFS, SSSP and coloring on a Graph500 Kronecker graph, validated, timed "
                                     "against SciPy's csgraph",
                       description="Generate a Graph500 Kronecker graph (edge factor 16), run BFS, SSSP and "
                                   "coloring on it, validate every result, and time BFS and SSSP against "
                                   "SciPy's csgraph on the same roots.",
                       epilog=_bench_epilog() + "\n" + exit_statuses, formatter_class=formatter)
    b.add_argument("--scale", type=_a.integer(1, 31), default=16,
                   help="log2 of the vertex count, 1..31 (default 16; the graphs must fit in memory)")
    b.add_argument("--roots", type=_a.integer(0, 2**31), default=16,
                   help="BFS searches from random vertices with an edge, 0..2**31 (default 16; 0 runs no BFS "
                        "and says so; at most one per vertex with an edge)")
    b.add_argument("--sssp-roots", type=_a.integer(0, 2**31), default=4,
                   help="SSSP searches, 0..2**31 (default 4; 0 runs no SSSP and says so), from the first "
                        "of the same random roots")
    b.add_argument("--seed", type=SEED, default=0,
                   help="seed of the Kronecker graph, its SSSP weights (1..255), the random roots and the "
                        "coloring, 0..2**63-1 (default 0)")
    b.add_argument("--device", choices=DEVICES, default="cpu", help=DEVICE_HELP)
    b.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)

    for name, (helptext, outputs) in ALGORITHMS.items():
        c = sub.add_parser(name, help=helptext, description=helptext[0].upper() + helptext[1:] + ".",
                           epilog=exit_statuses, formatter_class=formatter)
        _common(c, outputs)
        if name in _EXTRA:
            _EXTRA[name](c)
    return p
