"""The ``semiring`` command: ``demo``, ``bench`` and a command for every algorithm of
:mod:`semiring.algorithms` (:data:`.parser.ALGORITHMS`: bfs, sssp, color, mis, components, scc,
pagerank, triangles, louvain, mst, betweenness, partition, apsp).

Vertices are 0-based everywhere; 1-based file formats are converted on read. Steps that take
longer than about half a second show a progress line on stderr when it is a terminal (not with
``--quiet``).

Every argument is checked when the command line is parsed; a bad one is a usage error. Errors
are one line on stderr (``semiring: error: ...``, no traceback) with the exit statuses of
:data:`EXIT_STATUSES`: the library's errors (:class:`~semiring.exceptions.SemiringError`, OutOfMemory
included) and OS errors on files. Any other exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import sys

from ..exceptions import SemiringError
from ..testing.validate import ValidationError
from . import args as _a
from . import output, parser, progress

EXIT_FAILURE = 1  # the command could not complete
EXIT_USAGE = 2  # a bad command line (as argparse)
EXIT_INVALID_RESULT = 3  # a computed result failed its validation
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as a shell reports it)

EXIT_STATUSES = f"""exit status:
  0  success
  {EXIT_FAILURE}  the command failed: a graph file that cannot be read or is malformed, a graph too large
     for the memory free (checked before generating or reading it), a --source outside the
     graph read from a file, an input the algorithm refuses (e.g. a directed graph where an
     undirected one is needed), an unavailable GPU, an --output that cannot be written
  {EXIT_USAGE}  usage error: a bad argument, found before any work starts
  {EXIT_INVALID_RESULT}  a result failed its validation (a bug in semiring: please report it)
  {EXIT_INTERRUPTED}  interrupted (Ctrl-C)
Errors are one line on stderr: "semiring: error: ..."."""


def _parser():
    return parser.build(EXIT_STATUSES)


def _check_combinations(args):
    """Usage errors that involve more than one argument."""
    prog = f"semiring {args.command}"
    spec = getattr(args, "graph", None)
    n = spec.vertices if spec is not None else None
    source = getattr(args, "source", None)
    if source is not None and n is not None and source >= n:
        raise _a.UsageError(f"argument --source: expected a vertex in 0..{n - 1} of {spec.text} "
                            f"(0-based); given {source}", prog)
    sources = getattr(args, "sources", None)
    if sources is not None and n is not None and max(sources) >= n:
        raise _a.UsageError(f"argument --sources: expected vertices in 0..{n - 1} of {spec.text} "
                            f"(0-based); given {max(sources)}", prog)
    for option in ("parts", "samples"):
        value = getattr(args, option, None)
        if value is not None and n is not None and value > n:
            raise _a.UsageError(f"argument --{option}: expected 1..{n} for {spec.text} ({n:,} vertices); "
                                f"given {value}", prog)
    if getattr(args, "output", None) and output.format_of(args.output, args.format) is None:
        raise _a.UsageError(f"argument --output: expected a .csv or .mtx file name (optionally .gz), or "
                            f"--format csv|mtx; given {args.output!r}", prog)
    if args.command == "sssp" and args.delta is not None and args.method == "bellman_ford":
        raise _a.UsageError(f"argument --delta: expected with --method delta_stepping or auto; given "
                            f"--delta {args.delta:g} with --method bellman_ford", prog)
    if args.command == "partition" and args.method == "kernighan_lin" and args.parts != 2:
        raise _a.UsageError(f"argument --parts: expected 2 with --method kernighan_lin (a bisection); "
                            f"given {args.parts}", prog)
    if not getattr(args, "distributed", False):
        return
    stem = spec.text.lower().removesuffix(".gz")
    if not (spec.kind == "kron" or (spec.kind == "file" and stem.endswith((".mtx", ".gr")))):
        raise _a.UsageError(f"argument --distributed: expected the graph kron:SCALE[:EDGE_FACTOR] or a .mtx/.gr "
                            f"file; given {spec.text!r}", prog)
    if args.command == "sssp" and args.method not in ("auto", "delta_stepping"):
        raise _a.UsageError(f"argument --method: expected auto or delta_stepping with --distributed; "
                            f"given {args.method}", prog)
    if args.symmetrize:
        raise _a.UsageError("argument --symmetrize: not with --distributed; given --symmetrize --distributed",
                            prog)
    if args.command == "sssp" and args.parents:
        raise _a.UsageError("argument --parents: not with --distributed (the distributed SSSP computes "
                            "distances only); given --parents --distributed", prog)


def _device(name):
    """The device for --device: "auto" is the GPU when CuPy finds one, else the CPU."""
    if name == "auto":
        from ..backends import gpu

        return "gpu" if gpu.available() else "cpu"
    return name


def _run(args):
    progress.configure(quiet=args.quiet)
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
    from . import analyze, run

    command = getattr(run, f"cmd_{args.command}", None) or getattr(analyze, f"cmd_{args.command}")
    return command(args)


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
