"""How a traversal runs: the engines and strategies of bfs, sssp and coloring, named once.

A traversal runs as one of

- ``engine="algebra"``: one masked semiring product per level or round (any device);
- ``engine="fused"``: the whole search in one backend call (a persistent kernel on the GPU,
  a whole-search loop on the CPU where one exists);
- ``strategy=<name>``: one of the classic GPU work organizations, each its own
  level-synchronous implementation (CuPy kernels on the GPU, the same organization in NumPy
  on the CPU).

``engine="auto"`` (the default) picks "fused" where it can run and pays (on the CPU: graphs of
average degree up to :data:`CPU_FUSED_MAX_DEGREE`; for a graph stored by SuiteSparse, whose
whole-search engines are compiled loops, BFS at any degree and SSSP up to
:data:`SUITESPARSE_FUSED_MAX_DEGREE`; coloring's compiled loop, which runs only where
:func:`semiring.backends.cpu._jit.enabled`, at any degree), else "algebra". :data:`REGISTRY` records
for every traversal which engines and strategies exist, on which devices, and which values of
the other options each takes; :func:`select` checks a call against it and returns what runs,
raising InvalidValue with one wording for one mistake whichever traversal makes it. The
strategy names (BFS_STRATEGIES, SSSP_BELLMAN_FORD, SSSP_STRATEGIES) are defined once in
:mod:`semiring.backends.strategies`, whose kernels implement them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..backends.strategies import BFS_STRATEGIES, SSSP_BELLMAN_FORD, SSSP_STRATEGIES
from ..exceptions import InvalidValue

#: Values of ``engine=``.
ENGINES = ("auto", "algebra", "fused")
DEVICES = ("cpu", "gpu")

#: On the CPU, "auto" picks the whole-search engine for graphs of at most this many stored
#: entries per vertex. Measured on the 2-core machine (BFS / SSSP): the engine is 3-5x faster
#: than the algebra on road networks (average degree 2.8), 4x on 2-D grids (4), 2-3.5x on random
#: geometric graphs (10.5) and 100x+ on paths, and 1.3-1.8x slower on Kronecker graphs (26-30),
#: whose few levels are wide.
CPU_FUSED_MAX_DEGREE = 16
#: The same limit for SSSP where the graph is stored by SuiteSparse:GraphBLAS, whose products
#: run multithreaded, and the whole-search engines are compiled loops
#: (:mod:`semiring.backends.cpu.compiled_paths`). Medians of interleaved runs on the 2-core EPYC,
#: fused against algebra: cnr-2000 (average degree 9.9) 34 against 73 ms; Kronecker scale 16
#: (27.8) 33 against 38 ms; Kronecker scale 18 (29.0) 176-187 against 126-149 ms; Kronecker
#: scale 16 with edge factor 64 (95), on a loaded machine, 51 ms of CPU time against 58 ms over
#: the algebra's two threads. The crossing is near degree 28.
SUITESPARSE_FUSED_MAX_DEGREE = 16
#: BFS where the graph is stored by SuiteSparse: the compiled search
#: (:mod:`semiring.backends.cpu.compiled_traversal`) at any average degree. It was the faster
#: at every degree measured (2-core EPYC, fused against algebra): cnr-2000 (9.9) 18-21 against
#: 35-39 ms; Kronecker scale 16 (27.8) 2.2 against 4.5 ms, scale 18 (29.0) 8.8-9.1 against
#: 10.0-10.5 ms; scale 16 with edge factor 64 (95), on a loaded machine, 3 ms against 35 ms
#: (18 ms of CPU time over the algebra's two threads). It also keeps its time on a loaded
#: machine, where the products' threads wait on each other (Kronecker 18: 25 against 78 ms).
SUITESPARSE_BFS_FUSED_MAX_DEGREE = math.inf


def _cpu_fused_max_degree(what):
    """The average degree up to which "auto" takes the CPU whole-search engine of traversal
    ``what``: where the compiled loops run (new CPU containers are SuiteSparse ones, inside an
    algorithm its graph is, and numba imports) :data:`SUITESPARSE_BFS_FUSED_MAX_DEGREE` for BFS
    and :data:`SUITESPARSE_FUSED_MAX_DEGREE` for the others; else :data:`CPU_FUSED_MAX_DEGREE`."""
    from ..backends.cpu import _jit

    if not _jit.enabled():
        return CPU_FUSED_MAX_DEGREE
    return SUITESPARSE_BFS_FUSED_MAX_DEGREE if what == "bfs" else SUITESPARSE_FUSED_MAX_DEGREE


#: The GPU kernels keep vertex ids in int32: graphs of fewer vertices than this.
GPU_MAX_VERTICES = 2**31 - 1


@dataclass(frozen=True)
class Rule:
    """``option`` must take one of ``allowed`` with a choice, on ``devices``."""

    option: str
    allowed: tuple
    devices: tuple = DEVICES

    def admits(self, value):
        return any(value is None if a is None else (value is not None and value == a) for a in self.allowed)


@dataclass(frozen=True)
class Choice:
    """One way to run a traversal.

    Attributes
    ----------
    traversal : str
        "bfs", "sssp" or "coloring".
    name : str
        "algebra", "fused", or a strategy name.
    kind : str
        "engine" or "strategy".
    devices : tuple of str
        Devices with an implementation.
    role : str
        What it is, for messages.
    rules : tuple of Rule
        The values the other options must take with it (an option not named takes any valid value).
    compiled : tuple of str
        Devices where it exists only as a compiled loop (:mod:`semiring.backends.cpu._jit`):
        there it runs where compiled loops are enabled (the SuiteSparse CPU backend and numba),
        and "auto" takes it whatever the graph's average degree.
    """

    traversal: str
    name: str
    kind: str
    devices: tuple
    role: str
    rules: tuple = ()
    compiled: tuple = ()

    @property
    def label(self):
        """How a call names it: ``engine='fused'`` or ``strategy='edge'``."""
        return f"{self.kind}={self.name!r}"

    @property
    def engine(self):
        """The ``engine`` attribute of a result it produced: "algebra", "fused" or "strategy:<name>"."""
        return self.name if self.kind == "engine" else f"strategy:{self.name}"

    def accepts(self, device):
        """``{option: allowed values}`` this choice requires on ``device``."""
        return {r.option: r.allowed for r in self.rules if device in r.devices}

    def problem(self, what, device, n, options):
        """Why it cannot run on ``device`` with ``n`` vertices and ``options``, or None."""
        dev = device.upper()
        if device not in self.devices:
            where = " and ".join(d.upper() for d in self.devices)
            return (f"{what}: {self.label} has no {dev} implementation (it runs on the {where}); "
                    f"given a graph on the {dev}")
        if device in self.compiled:
            why = _no_compiled_loops()
            if why:
                return (f"{what}: {self.label} runs on the {dev} as a compiled loop, which needs the "
                        f"SuiteSparse CPU backend and numba (pip install \"semiring[suitesparse]\"); {why}")
        if device == "gpu" and self.name != "algebra" and n >= GPU_MAX_VERTICES:
            return (f"{what}: {self.label} keeps vertex ids in int32 on the GPU (n < 2**31 - 1); "
                    f"given n = {n}")
        for r in self.rules:
            if device in r.devices and r.option in options and not r.admits(options[r.option]):
                where = f" on the {dev}" if r.devices != DEVICES else ""
                allowed = _either(r.allowed)
                return (f"{what}: {self.label} {self.role}; {r.option} must be {allowed} with it{where}; "
                        f"given {r.option}={options[r.option]!r}")
        return None


def _no_compiled_loops():
    """Why the compiled CPU loops cannot run now, or None where they can."""
    from ..backends import cpu_backend
    from ..backends.cpu import _jit

    if _jit.enabled():
        return None
    if cpu_backend() != "suitesparse":
        return "given a graph on the NumPy backend"
    return "numba cannot be imported"


def _either(values):
    names = [repr(v) for v in values]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


_WHOLE = "runs the whole search in one backend call"
_ALGEBRA = "one masked semiring product per level or round"
_ONLY_FREE = "fixes its own work organization (only parents and max_depth combine with it)"
_NO_OTHER_ENGINE = Rule("engine", ("auto",))


def _registry():
    out = [Choice("bfs", "algebra", "engine", DEVICES, _ALGEBRA),
           Choice("bfs", "fused", "engine", DEVICES, _WHOLE,
                  (Rule("direction", ("auto", "push", "pull")), Rule("deterministic", (False,), ("gpu",)))),
           Choice("sssp", "algebra", "engine", DEVICES, _ALGEBRA),
           Choice("sssp", "fused", "engine", DEVICES, _WHOLE,
                  (Rule("method", ("auto", "delta_stepping"), ("gpu",)),)),
           Choice("coloring", "algebra", "engine", DEVICES, _ALGEBRA),
           Choice("coloring", "fused", "engine", DEVICES, _WHOLE,
                  (Rule("method", ("jones_plassmann", "gebremedhin_manne")),), compiled=("cpu",))]
    for s in BFS_STRATEGIES:
        out.append(Choice("bfs", s, "strategy", DEVICES, _ONLY_FREE,
                          (Rule("direction", ("auto",)), _NO_OTHER_ENGINE, Rule("deterministic", (False,)))))
    for s in SSSP_BELLMAN_FORD:
        out.append(Choice("sssp", s, "strategy", DEVICES, "is a Bellman-Ford method",
                          (_NO_OTHER_ENGINE, Rule("method", ("auto", "bellman_ford")), Rule("delta", (None,)))))
    out.append(Choice("sssp", "near_far", "strategy", DEVICES, "is a delta-stepping method",
                      (_NO_OTHER_ENGINE, Rule("method", ("auto", "delta_stepping")))))
    return {(c.traversal, c.name): c for c in out}


#: Every way to run each traversal: ``{(traversal, name): Choice}``.
REGISTRY = _registry()


def strategies(traversal):
    """The strategy names of ``traversal`` (a tuple, in registry order)."""
    return tuple(c.name for c in REGISTRY.values() if c.traversal == traversal and c.kind == "strategy")


def runnable(traversal, device):
    """The engines and strategies of ``traversal`` with an implementation on ``device``."""
    return tuple(c.name for c in REGISTRY.values() if c.traversal == traversal and device in c.devices)


def check_names(what, engine, strategy=None):
    """InvalidValue unless ``engine`` is one of :data:`ENGINES` and ``strategy`` is None or one
    of the traversal's strategies (``what`` names the traversal)."""
    if not isinstance(engine, str) or engine not in ENGINES:
        raise InvalidValue(f"{what}: engine must be one of {ENGINES}; given {engine!r}")
    names = strategies(what)
    if strategy is not None and (not isinstance(strategy, str) or strategy not in names):
        raise InvalidValue(f"{what}: strategy must be None or one of {names}; given {strategy!r}")


def select(what, engine, strategy, device, n, nedges, **options):
    """The :class:`Choice` that runs a call of traversal ``what``.

    Parameters
    ----------
    what : {"bfs", "sssp", "coloring"}
    engine : str
        The call's ``engine``.
    strategy : str or None
        The call's ``strategy``.
    device : {"cpu", "gpu"}
        Where the graph lives.
    n, nedges : int
        Vertices and stored edges.
    **options
        The call's other options (each already checked on its own), as the search will use
        them.

    Returns
    -------
    Choice
        The strategy when one is named; else "fused" or "algebra" as ``engine`` says ("auto":
        "fused" where it has no problem here, and on the CPU only for average degree up to
        :data:`CPU_FUSED_MAX_DEGREE`, or the SuiteSparse limits where SuiteSparse stores the
        graph; a compiled-only choice at any degree where compiled loops are enabled).

    Raises
    ------
    InvalidValue
        Unknown engine or strategy; a strategy, or engine="fused", that cannot run on this
        device, this size or with these options.
    """
    check_names(what, engine, strategy)
    if strategy is not None:
        choice = REGISTRY[what, strategy]
        why = choice.problem(what, device, n, dict(options, engine=engine))
        if why:
            raise InvalidValue(why)
        return choice
    algebra = REGISTRY[what, "algebra"]
    if engine == "algebra":
        return algebra
    fused = REGISTRY[what, "fused"]
    why = fused.problem(what, device, n, options)
    if engine == "fused":
        if why:
            raise InvalidValue(why)
        return fused
    if why or (device == "cpu" and device not in fused.compiled and nedges > _cpu_fused_max_degree(what) * n):
        # on the CPU the whole-search engine wins where levels are many and small (roads,
        # meshes, long paths); on graphs of high average degree (few, wide levels) the
        # algebra's products are faster (with SuiteSparse: for SSSP; the compiled BFS wins at
        # every degree measured)
        return algebra
    return fused


__all__ = ["ENGINES", "BFS_STRATEGIES", "SSSP_STRATEGIES", "SSSP_BELLMAN_FORD", "DEVICES", "REGISTRY", "Choice",
           "Rule", "CPU_FUSED_MAX_DEGREE", "SUITESPARSE_FUSED_MAX_DEGREE", "SUITESPARSE_BFS_FUSED_MAX_DEGREE",
           "GPU_MAX_VERTICES", "strategies", "runnable", "check_names", "select"]
