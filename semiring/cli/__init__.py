"""The ``semiring`` command: ``demo``, ``bench``, ``bfs``, ``sssp``, ``color``.

Vertices are 0-based everywhere; 1-based file formats are converted on read.
"""

from __future__ import annotations

import argparse
import sys

from ..exceptions import SemiringError
from . import graphs


def _parser():
    p = argparse.ArgumentParser(prog="semiring", description="GraphBLAS-style graph algorithms over semirings.")
    sub = p.add_subparsers(dest="command", required=True)

    d = sub.add_parser("demo", help="a short tour of the algebra, checked against SciPy")
    d.add_argument("--side", type=int, default=64, help="grid side (vertices = side**2; default 64)")
    d.add_argument("--seed", type=int, default=0)

    b = sub.add_parser("bench", help="BFS, SSSP and coloring on a Graph500 Kronecker graph, validated")
    b.add_argument("--scale", type=int, default=16, help="log2 of the vertex count (default 16)")
    b.add_argument("--roots", type=int, default=16, help="BFS roots (default 16)")
    b.add_argument("--sssp-roots", type=int, default=4, help="SSSP roots (default 4)")
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--device", choices=("cpu", "gpu", "auto"), default="cpu")

    for name, helptext in (("bfs", "breadth-first search"), ("sssp", "single-source shortest paths"),
                           ("color", "graph coloring")):
        c = sub.add_parser(name, help=helptext)
        c.add_argument("graph", help=f"a .mtx/.gr/.col/edge-list file, or a generator spec: {graphs.SPECS}")
        c.add_argument("--device", choices=("cpu", "gpu", "auto"), default="cpu")
        c.add_argument("--output", help="write the result to a .csv or .mtx file")
        c.add_argument("--seed", type=int, default=0, help="generator and coloring seed")
        if name != "color":
            c.add_argument("--source", type=int, default=0, help="0-based source vertex (default 0)")
    for name in ("bfs", "sssp"):
        sub.choices[name].add_argument("--distributed", action="store_true",
                                       help="run on the ranks of mpiexec (semiring.distributed): "
                                            "mpiexec -n 2 semiring bfs kron:22 --distributed")
    sub.choices["bfs"].add_argument("--parents", action="store_true", help="also compute (and write) parents")
    sub.choices["bfs"].add_argument("--direction", choices=("auto", "push", "pull"), default="auto")
    sub.choices["sssp"].add_argument("--method", choices=("auto", "bellman_ford", "delta_stepping"), default="auto")
    sub.choices["sssp"].add_argument("--delta", type=float, default=None, help="delta-stepping bucket width")
    sub.choices["color"].add_argument("--method", choices=("jones_plassmann", "luby", "greedy"),
                                      default="jones_plassmann")
    return p


def _device(name):
    """The device for --device: "auto" is the GPU when CuPy finds one, else the CPU."""
    if name == "auto":
        from ..backends import gpu

        return "gpu" if gpu.available() else "cpu"
    return name


def main(argv=None):
    args = _parser().parse_args(argv)
    if hasattr(args, "device"):
        args.device = _device(args.device)
    output = getattr(args, "output", None)
    if output and not output.endswith((".csv", ".mtx")):
        print(f"semiring {args.command}: --output: expected a .csv or .mtx file name; given {output!r}",
              file=sys.stderr)
        return 1
    try:
        if args.command == "demo":
            from .demo import demo

            return demo(args.side, args.seed)
        if args.command == "bench":
            from .bench import bench

            return bench(args.scale, args.roots, args.sssp_roots, args.seed, args.device)
        if getattr(args, "distributed", False):
            from . import distributed

            return distributed.run(args)
        from . import run

        return {"bfs": run.cmd_bfs, "sssp": run.cmd_sssp, "color": run.cmd_color}[args.command](args)
    except (SemiringError, OSError) as exc:
        print(f"semiring {args.command}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
