"""Command line: ``python -m benchmarks run --suite NAME [options]``.

The options every suite takes are below; a suite adds its own (``python -m benchmarks run
--suite NAME --help`` lists them). Exit status: 0 when every result validated (and for a suite
that needs a GPU on a machine without one, which prints why and does nothing), 1 when a result
failed validation or a system raised, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from semiring._bench import runner

from . import suites
from .harness.graphs import DATA_DIR


def parser(suite=None, listing=False):
    """The parser of the command line: the common options, and ``suite``'s own when given;
    ``listing``: the help lists every suite."""
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run a suite and write <out>/<suite>[-tiny]-<device>-<date>.json and .md",
                       epilog="suites: " + "; ".join(f"{n}: {suites.load(n).about}" for n in suites.SUITES)
                       if listing else None)
    r.add_argument("--suite", required=True, choices=list(suites.SUITES))
    r.add_argument("--size", default="full", choices=("tiny", "full"))
    r.add_argument("--roots", type=int, default=None,
                   help="roots of the main system (semiring fused on GPU, semiring cpu on CPU); default 64 (tiny 8)")
    r.add_argument("--roots-peers", type=int, default=None, help="roots of every other system; default 8 (tiny 4)")
    r.add_argument("--out", default=os.path.join("benchmarks", "results"), help="output folder")
    r.add_argument("--data", default=DATA_DIR, help="real-graph folder (default ../shared/data)")
    r.add_argument("--graphs", default=None,
                   help="comma-separated graph names to run (e.g. kron21,USA-road-NE); default all of the suite")
    r.add_argument("--system-budget-s", type=float, default=None,
                   help="stop a system on a graph after this many seconds (at least one root runs)")
    r.add_argument("--budget-s", type=float, default=None,
                   help="soft deadline of the whole suite: past it only the main systems run")
    r.add_argument("--device", default=None, choices=("auto", "gpu", "cpu"),
                   help="the device of the suites that offer a choice (algebra: default auto; algorithms: cpu; "
                        "partition-gpu: gpu)")
    for o in suite.options if suite is not None else ():
        r.add_argument(*o.flags, **o.kwargs)
    return p


def main(argv=None):
    """Entry point; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    named = any(a == "--suite" or a.startswith("--suite=") for a in argv)
    probe = [a for a in argv if a not in ("-h", "--help")] if named else argv  # the suite's own help comes next
    first, _ = parser(listing=not named).parse_known_args(probe)
    suite = suites.load(first.suite)
    p = parser(suite)
    args = p.parse_args(argv)
    if any(v is not None and v < 1 for v in (args.roots, args.roots_peers)):
        p.error("--roots and --roots-peers must be >= 1")
    if args.device is not None and args.device not in suite.device_option:
        offer = [n for n in suites.SUITES if suites.load(n).device_option]
        p.error(f"--device applies to the {', '.join(offer)} suites (--suite {args.suite} names its device)"
                if not suite.device_option else
                f"--device: expected one of {', '.join(suite.device_option)} for --suite {args.suite}; "
                f"given {args.device}")
    if suite.check is not None:
        suite.check(args, p.error)
    if args.graphs:
        if suite.graph_names is None:
            with_graphs = [n for n in suites.SUITES if suites.load(n).graph_names]
            p.error(f"--graphs applies to the {', '.join(with_graphs)} suites")
        names = suite.graph_names(args.size)
        unknown = set(args.graphs.split(",")) - set(names)
        if unknown:
            p.error(f"--graphs: unknown {sorted(unknown)}; the {args.suite} suite ({args.size}) has {names}")
        args.graphs = sorted(set(args.graphs.split(",")))
    return runner.run(suite, args, "python -m benchmarks " + shlex.join(argv))


if __name__ == "__main__":
    sys.exit(main())
