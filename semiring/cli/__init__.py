"""The ``semiring`` command: ``demo``, ``bench``, ``bfs``, ``sssp``, ``color``.

Vertices are 0-based everywhere; 1-based file formats are converted on read.

Every argument is checked when the command line is parsed; a bad one is a usage error. Errors
are one line on stderr (``semiring: error: ...``, no traceback) with the exit statuses of
:data:`EXIT_STATUSES`: the library's errors (:class:`~semiring.exceptions.SemiringError`, OutOfMemory
included) and OS errors on files. Any other exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import sys

from ..exceptions import SemiringError
from ..testing.validate import ValidationError
from . import args as _a
from . import graphs

EXIT_FAILURE = 1  # the command could not complete
EXIT_USAGE = 2  # a bad command line (as argparse)
EXIT_INVALID_RESULT = 3  # a computed result failed its validation
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as a shell reports it)

EXIT_STATUSES = f"""exit status:
  0  success
  {EXIT_FAILURE}  the command failed: a graph file that cannot be read or is malformed, a graph too large
     for the memory free (checked before generating or reading it), a --source outside the
     graph read from a file, an unavailable GPU, an --output that cannot be written
  {EXIT_USAGE}  usage error: a bad argument, found before any work starts
  {EXIT_INVALID_RESULT}  a result failed its validation (a bug in semiring: please report it)
  {EXIT_INTERRUPTED}  interrupted (Ctrl-C)
Errors are one line on stderr: "semiring: error: ..."."""

SEED = _a.integer(0, 2**63 - 1)


def _parser():
    formatter = argparse.RawDescriptionHelpFormatter
    p = _a.Parser(prog="semiring", description="GraphBLAS-style graph algorithms over semirings.",
                  epilog=EXIT_STATUSES, formatter_class=formatter)
    sub = p.add_subparsers(dest="command", required=True, metavar="{demo,bench,bfs,sssp,color}")

    d = sub.add_parser("demo", help="a short tour of the algebra, checked against SciPy", epilog=EXIT_STATUSES,
                       formatter_class=formatter)
    from .demo import MAX_SIDE

    d.add_argument("--side", type=_a.integer(1, MAX_SIDE), default=64,
                   help=f"grid side, 1..{MAX_SIDE} (vertices = side**2; default 64)")
    d.add_argument("--seed", type=SEED, default=0, help="weight seed, 0..2**63-1 (default 0)")

    b = sub.add_parser("bench", help="BFS, SSSP and coloring on a Graph500 Kronecker graph, validated",
                       epilog=EXIT_STATUSES, formatter_class=formatter)
    b.add_argument("--scale", type=_a.integer(1, 31), default=16,
                   help="log2 of the vertex count, 1..31 (default 16; the graphs must fit in memory)")
    b.add_argument("--roots", type=_a.integer(0, 2**31), default=16,
                   help="BFS searches from random vertices with an edge, 0..2**31 (default 16; 0 runs no BFS "
                        "and says so; at most one per vertex with an edge)")
    b.add_argument("--sssp-roots", type=_a.integer(0, 2**31), default=4,
                   help="SSSP searches, 0..2**31 (default 4; 0 runs no SSSP and says so), from the first "
                        "of the same random roots")
    b.add_argument("--seed", type=SEED, default=0, help="graph and root seed, 0..2**63-1 (default 0)")
    b.add_argument("--device", choices=("cpu", "gpu", "auto"), default="cpu")

    for name, helptext in (("bfs", "breadth-first search"), ("sssp", "single-source shortest paths"),
                           ("color", "graph coloring")):
        c = sub.add_parser(name, help=helptext, epilog=EXIT_STATUSES, formatter_class=formatter)
        c.add_argument("graph", type=_a.graph,
                       help="a readable graph file (.mtx, .gr, .col, optionally .gz; any other name is a "
                            f"whitespace edge list) or a generator spec: {graphs.SPEC_RANGES}")
        c.add_argument("--device", choices=("cpu", "gpu", "auto"), default="cpu")
        c.add_argument("--output", type=_a.output,
                       help="write the result to a .csv or .mtx file (in an existing, writable directory)")
        c.add_argument("--seed", type=SEED, default=0, help="generator and coloring seed, 0..2**63-1 (default 0)")
        if name != "color":
            c.add_argument("--source", type=_a.integer(0, 2**63 - 1), default=0,
                           help="0-based source vertex, 0..n-1 for a graph of n vertices (default 0; checked "
                                "before generating a graph, after reading a file)")
    for name in ("bfs", "sssp"):
        sub.choices[name].add_argument("--distributed", action="store_true",
                                       help="run on the ranks of mpiexec (semiring.distributed), on kron:SCALE"
                                            "[:EDGE_FACTOR] or a .mtx/.gr file: "
                                            "mpiexec -n 2 semiring bfs kron:22 --distributed")
    sub.choices["bfs"].add_argument("--parents", action="store_true", help="also compute (and write) parents")
    sub.choices["bfs"].add_argument("--direction", choices=("auto", "push", "pull"), default="auto")
    sub.choices["sssp"].add_argument("--method", choices=("auto", "bellman_ford", "delta_stepping"), default="auto",
                                     help="default auto; --distributed runs delta_stepping only")
    sub.choices["sssp"].add_argument("--delta", type=_a.positive_float, default=None,
                                     help="delta-stepping bucket width, a positive finite number "
                                          "(default: chosen from the weights; not with --method bellman_ford)")
    sub.choices["color"].add_argument("--method", choices=("jones_plassmann", "luby", "greedy"),
                                      default="jones_plassmann")
    return p


def _check_combinations(args):
    """Usage errors that involve more than one argument."""
    prog = f"semiring {args.command}"
    spec = getattr(args, "graph", None)
    source = getattr(args, "source", None)
    if source is not None and spec.vertices is not None and source >= spec.vertices:
        raise _a.UsageError(f"argument --source: expected a vertex in 0..{spec.vertices - 1} of {spec.text} "
                            f"(0-based); given {source}", prog)
    if args.command == "sssp" and args.delta is not None and args.method == "bellman_ford":
        raise _a.UsageError(f"argument --delta: expected with --method delta_stepping or auto; given "
                            f"--delta {args.delta:g} with --method bellman_ford", prog)
    if not getattr(args, "distributed", False):
        return
    stem = spec.text.lower().removesuffix(".gz")
    if not (spec.kind == "kron" or (spec.kind == "file" and stem.endswith((".mtx", ".gr")))):
        raise _a.UsageError(f"argument --distributed: expected the graph kron:SCALE[:EDGE_FACTOR] or a .mtx/.gr "
                            f"file; given {spec.text!r}", prog)
    if args.command == "sssp" and args.method not in ("auto", "delta_stepping"):
        raise _a.UsageError(f"argument --method: expected auto or delta_stepping with --distributed; "
                            f"given {args.method}", prog)


def _device(name):
    """The device for --device: "auto" is the GPU when CuPy finds one, else the CPU."""
    if name == "auto":
        from ..backends import gpu

        return "gpu" if gpu.available() else "cpu"
    return name


def _run(args):
    if hasattr(args, "device"):
        args.device = _device(args.device)
    if args.command == "demo":
        from .demo import demo

        return EXIT_INVALID_RESULT if demo(args.side, args.seed) else 0
    if args.command == "bench":
        from .bench import bench

        return bench(args.scale, args.roots, args.sssp_roots, args.seed, args.device)
    if getattr(args, "distributed", False):
        from . import distributed

        return distributed.run(args)
    from . import run

    return {"bfs": run.cmd_bfs, "sssp": run.cmd_sssp, "color": run.cmd_color}[args.command](args)


def _os_message(exc):
    """An OSError as ``FILE: reason`` (the file first, as cat and ls say it)."""
    if exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    return str(exc) or type(exc).__name__


def _fail(message, status):
    """Print ``semiring: error: MESSAGE`` as one line on stderr; return ``status``."""
    line = " ".join(part.strip() for part in str(message).splitlines() if part.strip())
    print(f"semiring: error: {line}", file=sys.stderr)
    return status


def main(argv=None):
    """Run the ``semiring`` command with ``argv`` (default ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0, or one of ``EXIT_FAILURE`` (1), ``EXIT_USAGE`` (2),
        ``EXIT_INVALID_RESULT`` (3) and ``EXIT_INTERRUPTED`` (130, Ctrl-C), after one line on stderr.
    """
    try:
        args = _parser().parse_args(argv)
        _check_combinations(args)
    except _a.UsageError as exc:
        return _fail(f"{exc} (see '{exc.prog} --help')", EXIT_USAGE)
    try:
        return _run(args)
    except ValidationError as exc:
        return _fail(f"{args.command}: a result failed validation: {exc}", EXIT_INVALID_RESULT)
    except SemiringError as exc:  # OutOfMemory included: raised before allocating
        return _fail(exc, EXIT_FAILURE)
    except OSError as exc:  # a file that cannot be read or written
        return _fail(_os_message(exc), EXIT_FAILURE)
    except KeyboardInterrupt:  # Ctrl-C: the shell's status for SIGINT, no traceback
        return _fail(f"{args.command}: interrupted", EXIT_INTERRUPTED)


if __name__ == "__main__":
    sys.exit(main())
