"""The named BFS strategies as CuPy RawKernels, one level-synchronous host loop each.

Every strategy keeps a level array (int32, -1 = unvisited) and, with parents, a parent array;
the host launches one level (or, for ``single_block``, several) at a time and reads back one
small counter per launch to decide whether to go on.

- ``vertex_push``: one thread per vertex every level, no frontier; a vertex on the current
  level writes ``level + 1`` into each unvisited out-neighbour with a plain store (every writer
  stores the same value, so no atomic is needed) and raises a "changed" flag (Harish and
  Narayanan 2007).
- ``vertex_pull``: one thread per unvisited vertex scans its in-edges and stops at the first
  in-neighbour on the current level (the ``any`` monoid's early exit; Beamer et al. 2012).
- ``edge``: one thread per edge (COO: a row-id array built once per graph); an edge whose
  source is on the current level and whose target is unvisited writes the target's level.
- ``queue_atomic``: a frontier queue; a thread per frontier vertex claims each unvisited
  out-neighbour with ``atomicCAS`` and appends it with a global ``atomicAdd`` on the queue's
  length (Harish, Narayanan 2007 with a queue; Hwu, Kirk, El Hajj 2022, ch. 15).
- ``queue_privatized``: the same, but each block appends to its own queue in shared memory
  (a shared-memory ``atomicAdd``), then reserves room in the global queue with one
  ``atomicAdd`` per block and copies its queue there; a block whose shared queue is full
  appends the rest straight to the global queue (Luo, Wong, Hwu 2010, hierarchical queues).
- ``single_block``: while the frontier fits the shared-memory queue of one block
  (:data:`SB_CAP` vertices), ONE block of :data:`SB_THREADS` threads runs level after level
  inside one launch, with ``__syncthreads`` between levels; when a level's output outgrows the
  shared queue the block writes it to the global queue and returns, and the search goes on with
  ``queue_privatized`` launches until the frontier is small again. The point is fewer launches
  and host round trips on long thin searches (Luo, Wong, Hwu 2010; Hwu, Kirk, El Hajj 2022).
- ``degree_bucketed``: the next frontier goes into three queues by out-degree (below
  :data:`WARP_DEGREE`, below :data:`BLOCK_DEGREE`, above), expanded by a thread, a warp or a
  block per vertex (three kernels per level; Merrill, Garland, Grimshaw 2012; Hong et al. 2011).
- ``node_split``: each vertex's adjacency is cut into virtual nodes of at most
  :data:`SPLIT_K` edges (built once per graph: ``vfirst`` per vertex, ``vptr`` per virtual
  node); per level a scan over the frontier's virtual-node counts gives every virtual node one
  thread, which finds its frontier vertex by binary search, so no thread handles more than
  :data:`SPLIT_K` edges whatever the degrees (node splitting, as in Nasre, Burtscher, Pingali
  2013).

The queue strategies expand a frontier vertex's edges in one thread (the textbook form, Hwu,
Kirk, El Hajj 2022, ch. 15) except ``degree_bucketed`` and ``node_split``, whose point is load
balance on skewed degrees.

Counters live in a small uint64 array ``ctl`` of three slots of :data:`SLOT` words: the
kernels of level d read nothing from it, append into slot (d + 1) % 3 and zero slot
(d + 2) % 3, so no separate memset is needed between levels. The result (int64 levels and
parents, presence, and a per-level histogram of vertices and their out- and in-edges for the
trace) is written by one ``bfs_finish`` launch.

All kernels take int32 vertex ids; edge offsets (``IPT``) and column indices (``IXT``) are
int32 or int64 as the matrix stores them (one compiled module per pair).

References
----------
Harish, Narayanan, "Accelerating large graph algorithms on the GPU using CUDA", HiPC 2007.
Luo, Wong, Hwu, "An effective GPU implementation of breadth-first search", DAC 2010.
Hong, Kim, Oguntebi, Olukotun, "Accelerating CUDA graph algorithms at maximum warp", PPoPP 2011.
Merrill, Garland, Grimshaw, "Scalable GPU graph traversal", PPoPP 2012.
Beamer, Asanovic, Patterson, "Direction-optimizing breadth-first search", SC 2012.
Nasre, Burtscher, Pingali, "Data-driven versus topology-driven irregular computations on
GPUs", IPDPS 2013.
Hwu, Kirk, El Hajj, "Programming Massively Parallel Processors", 4th ed., 2022, ch. 15.
"""

from __future__ import annotations

import re

import numpy as np

from ..strategies import BFS_STRATEGIES as STRATEGIES
from ...exceptions import InvalidValue
from ..results import TraversalResult
from . import compiler

#: Threads per block of the multi-block kernels.
BLOCK = 256
#: Largest grid of the grid-stride kernels.
MAX_GRID = 65535
#: Counter words per level slot of ``ctl`` (three slots in rotation).
SLOT = 8
#: Capacity (vertices) of a block's shared-memory queue in ``queue_privatized``.
LOCAL_CAP = 2048
#: Threads of the ``single_block`` kernel and the capacity of its two shared-memory queues:
#: it is launched while the frontier has at most SB_CAP vertices and returns when a level
#: discovers more.
SB_THREADS = 1024
SB_CAP = 2048
#: ``degree_bucketed``: out-degree from which a vertex is expanded by a warp, and by a block.
WARP_DEGREE = 32
BLOCK_DEGREE = 1024
#: ``node_split``: edges per virtual node at most.
SPLIT_K = 32
#: Levels up to which ``bfs_finish`` builds its histogram in shared memory.
HIST_CAP = 512
#: Check every launch's arguments against its kernel's CUDA signature (count, array dtypes,
#: scalar types) before launching; the tests turn it on.
CHECK_ARGS = False

def defines(types):
    """Definitions of ``kernels/bfs_strategies.cu`` for index types ``(IPT, IXT)`` (C type names)."""
    return {"IPT": types[0], "IXT": types[1], "SLOT": SLOT, "BLOCK": BLOCK, "LOCAL_CAP": LOCAL_CAP,
            "SB_THREADS": SB_THREADS, "SB_CAP": SB_CAP, "WARP_DEGREE": WARP_DEGREE, "BLOCK_DEGREE": BLOCK_DEGREE,
            "HIST_CAP": HIST_CAP}


def source(types):
    """The CUDA text compiled for index types ``(IPT, IXT)`` (C type names)."""
    return compiler.code("bfs_strategies.cu", defines(types))


def _function(types, name):
    """Kernel ``name`` for these index types (compiled once per definitions and device)."""
    return compiler.kernel("bfs_strategies.cu", name, defines(types))


def _launch(types, name, grid, block, args):
    """Launch kernel ``name`` (the one place that calls into CuPy; the tests on the NumPy
    stand-in for CuPy replace it with emulations of the kernels)."""
    _function(types, name)(grid, block, args)


# -- the kernel-call layer: counts launches and (CHECK_ARGS) checks arguments ------------------

_SIG = re.compile(r'extern "C" __global__ void (?:__launch_bounds__\([^)]*\)\s*)?(\w+)\(([^)]*)\)')
_C_TYPES = {"int": np.int32, "long long": np.int64, "ull": np.uint64, "bool": np.bool_,
            "unsigned": np.uint32, "double": np.float64}


def signatures():
    """``{kernel: [(is_pointer, C type), ...]}`` parsed from the CUDA source."""
    out = {}
    for name, params in _SIG.findall(compiler.source("bfs_strategies.cu")):
        sig = []
        for p in params.split(","):
            p = " ".join(p.replace("*", " * ").split())
            ptr = "*" in p
            words = [w for w in p.replace("*", "").split() if w != "const"]
            sig.append((ptr, " ".join(words[:-1])))
        out[name] = sig
    return out


_sigs = signatures()


def check_args(types, name, args):
    """Raise TypeError unless ``args`` match kernel ``name``'s parameters: one per parameter,
    arrays of the exact dtype for pointers, NumPy scalars of the exact dtype for values."""
    if name not in _sigs:
        raise TypeError(f"no kernel named {name!r}; the module has {sorted(_sigs)}")
    sig = _sigs[name]
    if len(args) != len(sig):
        raise TypeError(f"{name}: {len(sig)} arguments expected, {len(args)} given")
    ctypes = dict(_C_TYPES, IPT=_C_TYPES[types[0]], IXT=_C_TYPES[types[1]])
    for k, ((ptr, ctype), a) in enumerate(zip(sig, args)):
        want = np.dtype(ctypes[ctype])
        if ptr:
            if isinstance(a, np.generic) or not hasattr(a, "dtype") or not hasattr(a, "shape"):
                raise TypeError(f"{name}: argument {k} must be a device array of {want}; given {type(a).__name__}")
        elif not isinstance(a, np.generic):
            raise TypeError(f"{name}: argument {k} must be a NumPy scalar of {want}; given {type(a).__name__}")
        if a.dtype != want:
            raise TypeError(f"{name}: argument {k} ({ctype}{'*' if ptr else ''}) must have dtype {want}; "
                            f"given {a.dtype}")


class _Launcher:
    """Launches this module's kernels for one search and counts them."""

    def __init__(self, types):
        self.types = types
        self.launches = 0

    def __call__(self, name, grid, block, args):
        if CHECK_ARGS:
            check_args(self.types, name, args)
        self.launches += 1
        _launch(self.types, name, (int(grid),), (int(block),), args)


def _grid(work, per_block=BLOCK):
    """Blocks for ``work`` items at ``per_block`` items a block (grid-stride beyond MAX_GRID)."""
    return max(1, min(-(-int(work) // per_block), MAX_GRID))


def _ctype(a):
    return "int" if a.dtype == np.int32 else "long long"


# -- per-graph data, built once ------------------------------------------------------------------

def edge_rows(optr, oidx):
    """Row id of every entry (the COO rows of the ``edge`` strategy), dtype of ``oidx``. A Graph
    keeps it (``Graph.edge_rows``)."""
    import cupy as cp

    from .._xp import repeat

    n = optr.shape[0] - 1
    return repeat(cp.arange(n, dtype=oidx.dtype), cp.diff(optr)).astype(oidx.dtype, copy=False)


def split(optr, k=None):
    """The node split: ``(vfirst, vptr)``, both of ``optr``'s dtype. Vertex u owns virtual
    nodes ``vfirst[u] .. vfirst[u + 1] - 1`` (ceil(out-degree / k) of them); virtual node j
    covers the edges ``vptr[j] .. vptr[j + 1] - 1`` (at most k). One host read (the count of
    virtual nodes). A Graph keeps it (``Graph.node_split``)."""
    import cupy as cp

    from .._xp import repeat

    k = SPLIT_K if k is None else int(k)
    n = optr.shape[0] - 1
    deg = cp.diff(optr).astype(cp.int64)
    c = (deg + (k - 1)) // k
    vfirst = cp.zeros(n + 1, dtype=cp.int64)
    vfirst[1:] = cp.cumsum(c)
    nv = int(vfirst[-1:].get()[0])
    owner = repeat(cp.arange(n, dtype=cp.int64), c)
    local = cp.arange(nv, dtype=cp.int64) - vfirst[owner]
    vptr = cp.empty(nv + 1, dtype=cp.int64)
    vptr[:nv] = optr[owner].astype(cp.int64) + local * k
    vptr[nv:] = optr[n:].astype(cp.int64)
    return vfirst.astype(optr.dtype), vptr.astype(optr.dtype)


# -- the host loops --------------------------------------------------------------------------------

class _Search:
    """Device state of one search: levels, parents, counters, and the launch / sync counts."""

    def __init__(self, cp, n, optr, oidx, source, parents):
        self.cp, self.n, self.optr, self.oidx, self.source = cp, n, optr, oidx, source
        self.L = _Launcher((_ctype(optr), _ctype(oidx)))
        self.level = cp.empty(max(n, 1), dtype=cp.int32)
        self.parent = cp.empty(max(n, 1), dtype=cp.int32) if parents else self.level
        self.wp = np.int32(1 if parents else 0)
        self.ctl = cp.empty(3 * SLOT, dtype=cp.uint64)
        self.syncs = 0

    def queue(self):
        return self.cp.empty(max(self.n, 1), dtype=self.cp.int32)

    def init(self, q):
        """Levels -1 but the source's 0, ``q = [source]``, counters zero (one launch)."""
        self.L("bfs_init", _grid(self.n), BLOCK, (np.int32(self.n), np.int32(self.source), self.level, self.parent,
                                                  self.wp, q, self.ctl))

    def read_next(self, depth):
        """The counter slot the kernels of level ``depth`` appended to (one device-to-host copy)."""
        s = ((depth + 1) % 3) * SLOT
        self.syncs += 1
        return self.ctl[s:s + SLOT].get()


def _go_on(nq, depth, max_depth):
    return nq > 0 and (max_depth is None or depth < max_depth)


def _flagged(S, name, work, extra, max_depth):
    """vertex_push, vertex_pull, edge: one launch per level until no vertex changed."""
    depth = 0
    while max_depth is None or depth < max_depth:
        S.L(name, _grid(work), BLOCK, extra(depth))
        changed = int(S.read_next(depth)[0])
        depth += 1
        if not changed:
            break
    return depth


def _run_vertex_push(S, max_depth, **_):
    S.init(S.queue())
    args = (S.optr, S.oidx, np.int32(S.n))
    return _flagged(S, "bfs_vertex_push", S.n,
                    lambda d: args + (np.int32(d), S.level, S.parent, S.wp, S.ctl), max_depth)


def _run_vertex_pull(S, max_depth, in_edges, **_):
    iptr, iidx = in_edges
    S.init(S.queue())
    args = (iptr, iidx, np.int32(S.n))
    return _flagged(S, "bfs_vertex_pull", S.n,
                    lambda d: args + (np.int32(d), S.level, S.parent, S.wp, S.ctl), max_depth)


def _run_edge(S, max_depth, rows, **_):
    rows = rows()
    S.init(S.queue())
    nnz = int(S.oidx.shape[0])
    args = (rows, S.oidx, np.int64(nnz))
    return _flagged(S, "bfs_edge", nnz, lambda d: args + (np.int32(d), S.level, S.parent, S.wp, S.ctl),
                    max_depth)


def _queue_level(S, name, q, nq, depth, qn):
    S.L(name, _grid(nq), BLOCK, (S.optr, S.oidx, q, np.int32(nq), np.int32(depth), S.level, S.parent, S.wp, qn,
                                 S.ctl))
    return int(S.read_next(depth)[0])


def _run_queue(name):
    def run(S, max_depth, **_):
        q, qn = S.queue(), S.queue()
        S.init(q)
        nq, depth = 1, 0
        while _go_on(nq, depth, max_depth):
            nq = _queue_level(S, name, q, nq, depth, qn)
            q, qn = qn, q
            depth += 1
        return depth
    return run


def _run_single_block(S, max_depth, **_):
    q, qn = S.queue(), S.queue()
    S.init(q)
    sb = S.cp.zeros(4, dtype=S.cp.int32)
    md = np.int32(-1 if max_depth is None else max_depth)
    nq, depth = 1, 0
    while _go_on(nq, depth, max_depth):
        if nq <= SB_CAP:
            S.L("bfs_single_block", 1, SB_THREADS, (S.optr, S.oidx, q, np.int32(nq), np.int32(depth), md, S.level,
                                                   S.parent, S.wp, qn, sb, S.ctl))
            out = sb.get()
            S.syncs += 1
            depth, nq = int(out[0]), int(out[1])
        else:
            nq = _queue_level(S, "bfs_queue_privatized", q, nq, depth, qn)
            depth += 1
        q, qn = qn, q
    return depth


_BUCKET_KERNELS = ("bfs_bucket_thread", "bfs_bucket_warp", "bfs_bucket_block")


def bucket_of(degree):
    """The bucket (0: thread, 1: warp, 2: block) of a vertex of this out-degree."""
    return 0 if degree < WARP_DEGREE else (1 if degree < BLOCK_DEGREE else 2)


def _run_degree_bucketed(S, max_depth, source_degree, **_):
    cur = [S.queue() for _ in range(3)]
    nxt = [S.queue() for _ in range(3)]
    b = bucket_of(source_degree)
    S.init(cur[b])
    counts = [0, 0, 0]
    counts[b] = 1
    depth = 0
    while _go_on(sum(counts), depth, max_depth):
        for k, name in enumerate(_BUCKET_KERNELS):
            if counts[k]:
                grid = _grid(counts[k], BLOCK // 32) if k == 1 else (_grid(counts[k], 1) if k == 2 else _grid(counts[k]))
                S.L(name, grid, BLOCK, (S.optr, S.oidx, cur[k], np.int32(counts[k]), np.int32(depth), S.level,
                                        S.parent, S.wp, nxt[0], nxt[1], nxt[2], S.ctl))
        counts = [int(c) for c in S.read_next(depth)[:3]]
        cur, nxt = nxt, cur
        depth += 1
    return depth


def _run_node_split(S, max_depth, splits, source_degree, **_):
    cp = S.cp
    vfirst, vptr = splits(SPLIT_K)
    q, qn = S.queue(), S.queue()
    S.init(q)
    cnt = cp.empty(max(S.n, 1), dtype=cp.int64)
    nq, items, depth = 1, -(-int(source_degree) // SPLIT_K), 0
    while _go_on(nq, depth, max_depth):
        if items == 0:  # only vertices without out-edges: nothing to expand, the search ends
            depth += 1
            break
        S.L("bfs_split_counts", _grid(nq), BLOCK, (vfirst, q, np.int32(nq), cnt))
        off = cp.cumsum(cnt[:nq])  # CuPy's scan, counted as one launch
        S.L.launches += 1
        S.L("bfs_split_expand", _grid(items), BLOCK, (vptr, vfirst, S.oidx, q, off, np.int32(nq), np.int64(items),
                                                      np.int32(depth), S.level, S.parent, S.wp, qn, S.ctl))
        got = S.read_next(depth)
        nq, items = int(got[0]), int(got[1])
        q, qn = qn, q
        depth += 1
    return depth


_RUNNERS = {"vertex_push": _run_vertex_push, "vertex_pull": _run_vertex_pull, "edge": _run_edge,
            "queue_atomic": _run_queue("bfs_queue_atomic"), "queue_privatized": _run_queue("bfs_queue_privatized"),
            "single_block": _run_single_block, "degree_bucketed": _run_degree_bucketed,
            "node_split": _run_node_split}


def bfs(strategy, optr, oidx, source, *, parents=False, max_depth=None, in_edges=None, rows=None, splits=None):
    """Run one BFS with the named strategy on the GPU.

    Parameters
    ----------
    strategy : str
        One of :data:`STRATEGIES`.
    optr, oidx : cupy arrays, int32 or int64
        CSR of the out-edges (``indptr``, shape (n + 1,); ``indices``, shape (nnz,)).
    source : int
        0 <= source < n (checked by the caller).
    parents : bool
    max_depth : int or None
        Run at most this many levels.
    in_edges : callable, optional
        Returns the CSR ``(indptr, indices)`` of the in-edges (A^T), with the dtypes of
        ``optr, oidx``; ``vertex_pull`` needs it.
    rows : callable, optional
        Returns the row of every entry, as :func:`edge_rows` (the ``edge`` strategy calls it);
        default: :func:`edge_rows` of ``optr, oidx``, built for this search.
    splits : callable, optional
        ``splits(k)`` returns the node split of :func:`split` (the ``node_split`` strategy
        calls it); default: :func:`split` of ``optr``. A Graph passes the ones it keeps
        (``Graph.edge_rows``, ``Graph.node_split``).

    Returns
    -------
    TraversalResult
        ``level`` (cupy int64, shape (n,), 0 where absent), ``present`` (cupy bool),
        ``parent`` (cupy int64 or None), ``nvals``, ``trace`` (one entry per level run),
        ``launches`` (kernel launches; CuPy's scan in ``node_split`` counts as one),
        ``host_syncs`` (device-to-host reads of the search, not those of the once-per-graph
        builds of the edge rows and the node split, which ``rows`` and ``splits`` return).

    Raises
    ------
    InvalidValue
        Unknown strategy, or vertex ids beyond int32.
    """
    from . import load

    if strategy not in _RUNNERS:
        raise InvalidValue(f"bfs: strategy must be one of {STRATEGIES}; given {strategy!r}")
    cp = load()
    n = int(optr.shape[0]) - 1
    if n >= 2**31 - 1:
        raise InvalidValue(f"bfs: strategy={strategy!r} needs vertex ids in int32 (n < 2**31 - 1); given n = {n}")
    S = _Search(cp, n, optr, oidx, int(source), parents)
    kw = {"rows": rows or (lambda: edge_rows(optr, oidx)), "splits": splits or (lambda k: split(optr, k))}
    if strategy == "vertex_pull":
        iptr, iidx = in_edges()
        if iptr.dtype != optr.dtype or iidx.dtype != oidx.dtype:
            iptr, iidx = iptr.astype(optr.dtype), iidx.astype(oidx.dtype)
        kw["in_edges"] = (iptr, iidx)
    if strategy in ("degree_bucketed", "node_split"):
        deg = optr[source:source + 2].get()
        S.syncs += 1
        kw["source_degree"] = int(deg[1] - deg[0])
    depth = _RUNNERS[strategy](S, max_depth, **kw)
    # the result and the per-level histogram, in one launch
    nlev = depth + 1
    out_level = cp.empty(n, dtype=cp.int64)
    out_parent = cp.empty(n, dtype=cp.int64) if parents else out_level
    present = cp.empty(n, dtype=cp.bool_)
    hist = cp.zeros(3 * nlev, dtype=cp.uint64)
    iptr = kw["in_edges"][0] if "in_edges" in kw else optr
    S.L("bfs_finish", _grid(n), BLOCK, (np.int32(n), optr, iptr, np.int32("in_edges" in kw), S.level, S.parent,
                                        S.wp, out_level, out_parent, present, hist, np.int32(nlev)))
    h = hist.get().astype(np.int64).reshape(3, nlev)
    S.syncs += 1
    from ..cpu.bfs_strategies import steps_from_histogram

    steps = steps_from_histogram(strategy, h[0], h[1], h[2] if "in_edges" in kw else None, depth,
                                 int(oidx.shape[0]))
    return TraversalResult.from_rows(out_level, present, out_parent if parents else None, int(h[0].sum()), steps,
                                     S.L.launches, S.syncs)


__all__ = ["bfs", "STRATEGIES", "source", "signatures", "check_args", "split", "edge_rows", "bucket_of"]
