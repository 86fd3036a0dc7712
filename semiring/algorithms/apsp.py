"""All-pairs shortest paths: blocked Floyd-Warshall on ``min_plus`` products, repeated
single-source searches, and batched multi-source BFS.

- Floyd-Warshall in the algebraic form of Fineman and Robinson (2011): for each pivot k,
  ``D = min(D, D(:, k) min.plus D(k, :))``, a rank-1 ``min_plus`` update. The blocked form of
  Venkataraman, Sahni and Mukhopadhyaya (2003) takes the pivots b at a time: close the diagonal
  block ``D(K, K)`` with rank-1 updates, update the row panel ``D(K, :)`` and the column panel
  ``D(:, K)`` by products with it, then the whole matrix by one rank-b product
  ``D = min(D, D(:, K) min.plus D(K, :))`` (the form Buluc, Gilbert and Budak 2010 run on GPUs).
  D stays sparse: an unreachable pair has no entry and costs no term.
- Repeated single-source searches: the source-partitioned formulation (Grama et al. 2003,
  section 10.4): one :func:`~semiring.algorithms.sssp` (or :func:`~semiring.algorithms.bfs`
  on an unweighted graph) per source, its distances as one row. On the GPU the searches of a
  batch of sources run together on the device (Okuyama, Ino and Hagihara 2012): batched
  Bellman-Ford over an n x b distance array, a lane per source, one persistent kernel and one
  host read per batch (``semiring.backends.gpu.multi_source``); an unweighted graph takes the
  batched BFS sweeps below. Same rows and errors as the searches one by one.
- Batched BFS for hop counts: a frontier matrix F holds one row per source of a batch;
  ``F<!L.S, replace> = F any.pair A`` advances every search one level in one masked product
  and ``L<F.S> = depth`` records the levels. Batches bound the memory.

References
----------
R. W. Floyd, "Algorithm 97: shortest path", CACM 5(6), 1962. S. Warshall, "A theorem on Boolean
matrices", JACM 9(1), 1962. J. T. Fineman, E. Robinson, "Fundamental graph algorithms", in
Kepner and Gilbert (eds.), Graph Algorithms in the Language of Linear Algebra, SIAM 2011.
G. Venkataraman, S. Sahni, S. Mukhopadhyaya, "A blocked all-pairs shortest-paths algorithm",
ACM J. Exp. Algorithmics 8, 2003. A. Buluc, J. R. Gilbert, C. Budak, "Solving path problems on
the GPU", Parallel Computing 36(5-6), 2010. A. Grama, A. Gupta, G. Karypis, V. Kumar,
Introduction to Parallel Computing, 2nd ed., Addison-Wesley 2003, section 10.4.
R. Bellman, "On a routing problem", Quarterly of Applied Mathematics 16, 1958. L. R. Ford,
"Network flow theory", RAND P-923, 1956. T. Okuyama, F. Ino, K. Hagihara, "A task parallel
algorithm for finding all-pairs shortest paths using the GPU", IJHPCN 7(2), 2012.
LAGraph ``LAGraph_FW`` (experimental).
"""

from __future__ import annotations


import numpy as np

from .. import core as _core
from .. import _checks
from .._memory import available_bytes
from ..core.matrix import Matrix
from ..exceptions import DomainMismatch, InvalidValue, NegativeCycleError
from ..ops import binary, indexunary, monoid, semiring, unary
from .bfs import bfs
from .engines import GPU_MAX_VERTICES
from .graph import as_graph, on_graph_backend
from .sssp import sssp

_METHODS = ("auto", "floyd_warshall", "repeated", "batched_bfs")
#: Pivots per block of Floyd-Warshall: one rank-b product per block updates the whole matrix.
FW_BLOCK = 128
#: The default ``max_bytes``: this fraction of the memory available on the device.
MEMORY_FRACTION = 0.5
#: Floyd-Warshall's peak memory as a multiple of the stored result (n * n values and int64
#: indices): the rank-b product, the merged copy the write step makes and its key arrays. A
#: conservative round number: on the CPU backend the measured peak of one rank-b update at
#: n = 2000 was 6.2x the result, most of it the product's fixed-size chunk buffers.
FW_WORKSPACE = 6
#: "auto" runs Floyd-Warshall for every row of a weighted graph with at most this many
#: vertices (its work is n**3 terms; a search per source costs a round of products per level).
AUTO_FW_MAX_N = 1024
#: Sources per batch of the batched BFS: at most this many, and few enough that a batch's
#: frontier and levels (batch x n entries) take at most 1/8 of ``max_bytes``.
BFS_BATCH = 256
#: Sources per batch of the GPU's batched BFS (lanes of a warp serve the sources, 32 at a time).
DEVICE_BFS_BATCH = 64


def _budget(max_bytes, device, what):
    """``max_bytes`` checked, or the default share of the free memory."""
    if max_bytes is None:
        return int(MEMORY_FRACTION * available_bytes(device))
    return _checks.integer(max_bytes, what, "max_bytes", low=1, none=True)


def _entry_bytes(dtype):
    """Bytes per stored entry of a result row: the value and its int64 column index."""
    return np.dtype(dtype).itemsize + 8


def _too_big(what, need, allowed, detail):
    return InvalidValue(f"{what}: {detail} needs {need:,} bytes but max_bytes allows {allowed:,} "
                        "(give max_bytes=, fewer sources, or another method)")


def _weights(G, what):
    """The weight matrix: int64 for integer (and bool: unit) weights, float64 for floats; built
    and checked once per graph (a refusal is not kept: every call raises it again)."""
    return G.apsp_weights(what)


def checked_weights(G, what):
    """The all-pairs weight matrix of G (see :func:`_weights`); raises what it refuses."""
    A = G.A
    if A.dtype.kind == "b":
        # W = one(A) as int64: an unweighted graph has unit weights
        return _core.apply(A, unary.one).dup("int64")
    if A.dtype.kind in "iu":
        if A.nvals:
            # top = max(|max_reduce(A)|, |min_reduce(A)|)   (the largest weight magnitude)
            top = max(abs(int(_core.reduce_scalar(A, monoid.max))), abs(int(_core.reduce_scalar(A, monoid.min))))
            if top * max(G.n - 1, 1) >= 2**63:
                raise DomainMismatch(f"{what}: integer weights up to {top} over paths of up to {G.n - 1} edges can "
                                     "overflow int64 distances; give float64 weights (A.dup('float64'))")
        return A if A.dtype == np.int64 else A.dup("int64")
    if A.dtype.kind != "f":
        raise DomainMismatch(f"{what}: weights must be bool, integer or float; given {A.dtype.name}")
    W = A if A.dtype == np.float64 else A.dup("float64")
    # nan = number of entries where W == W is false
    nan = _core.select(_core.ewise_mult(W, W, binary.eq), indexunary.valueeq, False).nvals
    if nan:
        raise InvalidValue(f"{what}: edge weights must be numbers; given {nan} NaN weights")
    return W


def _sources(sources, n, what):
    """Sources as an int64 host array (all vertices for None), checked."""
    if sources is None:
        return np.arange(n, dtype=np.int64)
    if _checks.is_integer(sources):
        sources = [sources]
    arr = np.asarray(sources) if not hasattr(sources, "get") else sources.get()
    if arr.dtype.kind == "b":
        raise InvalidValue(f"{what}: sources must be vertex indices; given a bool array")
    return _checks.index_array(arr, n, f"{what} sources")


def _diagonal(n, value, dtype, device):
    """An n x n Matrix with ``value`` on the diagonal."""
    idx = np.arange(n, dtype=np.int64)
    return Matrix.from_coo(idx, idx, np.full(n, value, dtype=dtype), nrows=n, ncols=n, dtype=dtype, device=device)


def _negative_cycle(what, k, d):
    return NegativeCycleError(f"{what}: vertex {k} lies on a negative-weight cycle (a closed walk of length {d}); "
                              "shortest paths are undefined")


def _close_block(DKK, offset, what):
    """Floyd-Warshall on the diagonal block in place: DKK = min(DKK, DKK(:, k) min.plus DKK(k, :))
    for each of its pivots k in order; a negative diagonal entry is a negative cycle."""
    for k in range(DKK.nrows):
        d = DKK.get(k, k)
        if d is not None and d < 0:
            raise _negative_cycle(what, offset + k, d)
        # c = DKK(:, k); r = DKK(k, :)   (b x 1 and 1 x b)
        c = _core.extract(DKK, None, [k])
        r = _core.extract(DKK, [k], None)
        # DKK = min(DKK, c min.plus r)
        _core.mxm(c, r, semiring.min_plus, accum=binary.min, out=DKK)
    for k in range(DKK.nrows):  # a later pivot of the block can close a cycle through k
        d = DKK.get(k, k)
        if d is not None and d < 0:
            raise _negative_cycle(what, offset + k, d)


def _floyd_warshall(W, n, what, block):
    # D = min(W, 0 on the diagonal)   (every vertex reaches itself at length 0)
    D = _core.ewise_add(W, _diagonal(n, 0, W.dtype, W.device), binary.min)
    for start in range(0, n, block):
        K = np.arange(start, min(start + block, n), dtype=np.int64)
        # DKK = D(K, K), closed over its own pivots
        DKK = _core.extract(D, K, K)
        _close_block(DKK, start, what)
        # row panel: R = D(K, :);  R = min(R, DKK min.plus R)
        R = _core.extract(D, K, None)
        _core.mxm(DKK, R, semiring.min_plus, accum=binary.min, out=R)
        # column panel: C = D(:, K);  C = min(C, C min.plus DKK)
        C = _core.extract(D, None, K)
        _core.mxm(C, DKK, semiring.min_plus, accum=binary.min, out=C)
        # D = min(D, C min.plus R)   (rank-b update; it also writes the closed panels into D)
        _core.mxm(C, R, semiring.min_plus, accum=binary.min, out=D)
    return D


@on_graph_backend
def floyd_warshall(A, *, max_bytes=None, block=FW_BLOCK):
    """Shortest-path lengths between every pair of vertices (blocked Floyd-Warshall).

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        ``A[i, j]`` is the length of edge i -> j; explicit zeros are zero-length edges; negative
        lengths are allowed. A bool matrix means unit lengths.
    max_bytes : int, optional
        Refuse to run when the stored result (n * n entries of value + int64 index) times the
        workspace factor :data:`FW_WORKSPACE` exceeds this. Default: :data:`MEMORY_FRACTION` of the
        memory free on A's device (``/proc/meminfo`` on the CPU, CuPy's memory info on the GPU).
    block : int, default :data:`FW_BLOCK`
        Pivots per block.

    Returns
    -------
    Matrix, shape (n, n)
        ``D[i, j]`` = length of a shortest path i -> j (int64 for integer and bool weights,
        float64 for float weights), present exactly where j is reachable from i; the diagonal
        is present and 0 (or the length of the shortest cycle if negative: see Raises).

    Raises
    ------
    NegativeCycleError
        The graph has a negative-weight cycle (anywhere).
    InvalidValue
        NaN weights; the result would exceed ``max_bytes`` (the message gives both numbers);
        a bad ``max_bytes`` or ``block``.
    DomainMismatch
        Integer weights large enough to overflow int64 path lengths.
    DimensionMismatch
        A is not square.

    Notes
    -----
    On the CPU: n**3 ``min_plus`` terms in the worst case (fewer when few pairs are connected),
    in about n / block * 3 products plus n small rank-1 products. On the GPU the distances are
    a dense n x n array closed in 32 x 32 tiles (Katz and Kider 2008): three launches per
    tile row, no host synchronization between them, one read at the end (``block`` is not
    used there).

    References
    ----------
    Fineman, Robinson, in Graph Algorithms in the Language of Linear Algebra, SIAM 2011;
    Venkataraman, Sahni, Mukhopadhyaya, ACM JEA 8, 2003; Katz, Kider, "All-pairs
    shortest-paths for large graphs on the GPU", Graphics Hardware 2008.

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 1, 0], [1, 2, 2], [1.0, 2.0, 5.0], nrows=3, ncols=3)
    >>> sr.algorithms.floyd_warshall(A).to_dense(float("inf")).tolist()
    [[0.0, 1.0, 3.0], [inf, 0.0, 2.0], [inf, inf, 0.0]]
    """
    what = "floyd_warshall"
    G = as_graph(A, what)
    _checks.integer(block, what, "block", low=1)
    W = _weights(G, what)
    allowed = _budget(max_bytes, G.A.device, what)
    need = G.n * G.n * _entry_bytes(W.dtype) * FW_WORKSPACE
    if need > allowed:
        raise _too_big(what, need, allowed, f"the {G.n} x {G.n} distance matrix and its workspace")
    if G.A.device == "gpu":
        return _floyd_warshall_on_device(W, what)
    return _floyd_warshall(W, G.n, what, int(block))


def _floyd_warshall_on_device(W, what):
    """Dense blocked Floyd-Warshall in tiles (semiring.backends.gpu.floyd_warshall)."""
    from ..backends.gpu import floyd_warshall as _gpu

    D, first = _gpu.distances(W)
    if first >= 0:
        raise _negative_cycle(what, first, D[first, first].item())
    return _gpu.to_matrix(D, W.dtype)


def _stack_rows(parts, nrows, n, dtype, device):
    """A nrows x n Matrix from (first row, Vector or Matrix) pairs: a Vector is one row, a
    Matrix the rows from its first row on."""
    from ..backends._xp import xp_of

    coo = []
    for r, x in parts:
        if isinstance(x, Matrix):
            rows, cols, vals = x.to_coo()
            coo.append((rows + r, cols, vals))
        else:
            cols, vals = x.to_coo()
            coo.append((xp_of(cols).full(cols.shape[0], r, dtype=np.int64), cols, vals))
    if not coo:
        return Matrix(nrows, n, dtype, device=device)
    xp = xp_of(coo[0][0])
    return Matrix.from_coo(xp.concatenate([t[0] for t in coo]), xp.concatenate([t[1] for t in coo]),
                           xp.concatenate([t[2].astype(dtype, copy=False) for t in coo]),
                           nrows=nrows, ncols=n, dtype=dtype, device=device)


def _repeated(G, W, srcs, allowed, what):
    """One search per source (BFS levels on a bool graph, else SSSP distances); on the GPU the
    searches run in batches on the device, with the same rows and errors."""
    n = G.n
    if G.A.device == "gpu" and srcs.size and n < GPU_MAX_VERTICES:
        if W is None:
            per = _entry_bytes(np.int64)
            batch = int(max(1, min(DEVICE_BFS_BATCH, srcs.size, allowed // 8 // max(n * per * 2, 1))))
            return _batched_bfs_on_device(G, srcs, batch, allowed, what, by_source=True)
        return _searches_on_device(G, W, srcs, allowed, what)
    dtype = np.dtype(np.int64) if W is None else W.dtype
    per = _entry_bytes(dtype)
    rows, stored = [], 0
    for r, s in enumerate(srcs.tolist()):
        d = bfs(G, s).level if W is None else sssp(G, s).distance
        stored += d.nvals * per
        if stored > allowed:
            raise _too_big(what, stored, allowed, f"the rows of the first {r + 1} of {srcs.size} sources")
        rows.append((r, d))
    return _stack_rows(rows, srcs.size, n, dtype, G.A.device)


def _batched_bfs(G, srcs, allowed, what):
    """Hop counts from each source: multi-source BFS over a frontier matrix, batch by batch."""
    n, device = G.n, G.A.device
    per = _entry_bytes(np.int64)
    batch = int(max(1, min(BFS_BATCH, srcs.size, allowed // 8 // max(n * per * 2, 1))))
    if device == "gpu":
        return _batched_bfs_on_device(G, srcs, min(batch, DEVICE_BFS_BATCH), allowed, what)
    rows, stored = [], 0
    for start in range(0, srcs.size, batch):
        S = srcs[start:start + batch]
        b = S.size
        ids = np.arange(b, dtype=np.int64)
        # F(t, S[t]) = true;  L(t, S[t]) = 0
        F = Matrix.from_coo(ids, S, None, nrows=b, ncols=n, dtype="bool", device=device)
        L = Matrix.from_coo(ids, S, 0, nrows=b, ncols=n, dtype="int64", device=device)
        depth = 0
        while F.nvals:
            depth += 1
            # F<!L.S, replace> = F any.pair A   (each search's next level)
            F = _core.mxm(F, G.A, semiring.any_pair, mask=~L.S)
            # L<F.S> = depth
            _core.assign(L, depth, (None, None), mask=F.S)
        stored += L.nvals * per
        if stored > allowed:
            raise _too_big(what, stored, allowed, f"the rows of the first {start + b} of {srcs.size} sources")
        rows.append((start, L))
    if len(rows) == 1:
        return rows[0][1]
    return _stack_rows(rows, srcs.size, n, np.int64, device)


def _batched_bfs_on_device(G, srcs, batch, allowed, what, by_source=False):
    """The same hop counts from the GPU's batched BFS sweeps (semiring.backends.gpu.centrality):
    a warp per row chunk and a lane per source, one host read per level of each batch.
    ``by_source``: ``max_bytes`` is checked source by source, as the repeated searches do (else
    batch by batch)."""
    import cupy as cp

    from ..backends.gpu import centrality as _gpu

    n, per = G.n, _entry_bytes(np.int64)
    ptrs, cols, vals, stored, done = [cp.zeros(1, dtype=cp.int64)], [], [], 0, 0
    for indptr, c, v, rows in _gpu.levels(G.A, srcs, batch):
        if by_source:
            stored = _count_rows(np.diff(rows), done, stored, per, allowed, what, srcs)
        else:
            stored += int(c.size) * per
        done += int(indptr.size) - 1
        if stored > allowed:
            raise _too_big(what, stored, allowed, f"the rows of the first {done} of {srcs.size} sources")
        ptrs.append(indptr[1:] + sum(int(x.size) for x in cols))
        cols.append(c)
        vals.append(v)
    idx = np.int32 if max(n, stored // per) < 2**31 else np.int64
    indptr = cp.concatenate(ptrs).astype(idx)
    indices = (cp.concatenate(cols) if cols else cp.zeros(0, dtype=cp.int64)).astype(idx)
    values = cp.concatenate(vals) if vals else cp.zeros(0, dtype=cp.int64)
    return Matrix._from_csr(int(srcs.size), n, np.int64, indptr, indices, values)


def _count_rows(counts, first, stored, per, allowed, what, srcs, cycles=None, n=0):
    """``stored`` plus the bytes of the rows of sources ``first, first + 1, ...`` (``counts``
    entries each), checked source by source as :func:`_repeated` checks them: a negative cycle
    reachable from a source (``cycles`` nonzero) or the rows so far over ``allowed`` raise."""
    for t, k in enumerate(np.asarray(counts).tolist()):
        if cycles is not None and cycles[t]:
            why = ("a distance fell below minus the largest weight times n - 1" if cycles[t] & 2
                   else f"distances still fell in round {n}")
            raise NegativeCycleError(f"sssp: a negative-weight cycle is reachable from source {int(srcs[first + t])} "
                                     f"({why}); shortest paths are undefined")
        stored += k * per
        if stored > allowed:
            raise _too_big(what, stored, allowed, f"the rows of the first {first + t + 1} of {srcs.size} sources")
    return stored


def _searches_on_device(G, W, srcs, allowed, what):
    """Distances from each source by batched Bellman-Ford on the device
    (semiring.backends.gpu.multi_source): one persistent kernel and one host read per batch of
    sources, the rows written on the device. Rows, errors and their order are those of one
    :func:`~semiring.algorithms.sssp` per source."""
    import cupy as cp

    from ..backends.gpu import multi_source as _gpu

    n = G.n
    info = G.sssp_weights  # sssp's checks of the weights (-inf is refused), once per graph
    floor = -int(info.top) * max(n - 1, 0) if W.dtype.kind == "i" else 0
    per = _entry_bytes(W.dtype)
    # a batch's state (n x batch pairs) takes at most 1/8 of max_bytes, as the CPU's batched BFS
    batch = int(max(1, min(_gpu.BATCH, srcs.size, allowed // 8 // max(n * _gpu.STATE_BYTES, 1))))
    run = G.apsp_searches(what)  # the kernels and row chunks over W, once per graph
    idx = np.int32 if max(n, srcs.size * n) < 2**31 else np.int64
    counts, cols, vals, stored = [], [], [], 0
    for B in run.batches(srcs, batch, floor, what):
        stored = _count_rows(B.counts, B.start, stored, per, allowed, what, srcs, B.cycles, n)
        c, v = B.rows(idx)
        counts.append(B.counts)
        cols.append(c)
        vals.append(v)
    counts = np.concatenate(counts)
    if idx is np.int64 and max(n, int(counts.sum())) < 2**31:
        idx = np.int32
    indptr = np.zeros(srcs.size + 1, dtype=idx)
    indptr[1:] = np.cumsum(counts)
    indices = cols[0] if len(cols) == 1 else cp.concatenate(cols)
    values = vals[0] if len(vals) == 1 else cp.concatenate(vals)
    return Matrix._from_csr(int(srcs.size), n, W.dtype, cp.asarray(indptr), indices.astype(idx, copy=False), values)


@on_graph_backend
def all_pairs_shortest_paths(A, *, method="auto", sources=None, max_bytes=None):
    """Shortest-path lengths from each of several sources (by default every vertex) to every vertex.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        ``A[i, j]`` is the length of edge i -> j (explicit zeros are zero-length edges); a bool
        matrix means unit lengths.
    method : {"auto", "floyd_warshall", "repeated", "batched_bfs"}
        "floyd_warshall": :func:`floyd_warshall`, then the rows of the sources.
        "repeated": one :func:`~semiring.algorithms.sssp` per source (one
        :func:`~semiring.algorithms.bfs` for a bool A); on the GPU, the same searches run in
        batches of sources on the device (see Notes).
        "batched_bfs": hop counts (values of A ignored, as in BFS) by multi-source BFS, up to
        :data:`BFS_BATCH` sources per masked ``any.pair`` product.
        "auto": "batched_bfs" for a bool A; "floyd_warshall" when every vertex is a source and
        n <= :data:`AUTO_FW_MAX_N`; "repeated" otherwise.
    sources : int or sequence of int, optional
        Row r of the result belongs to ``sources[r]``; default all vertices in order.
    max_bytes : int, optional
        Memory the result may take (value + int64 index per stored entry; Floyd-Warshall also
        counts its workspace up front, the searches count the entries as they are produced).
        Default: :data:`MEMORY_FRACTION` of the memory free on A's device.

    Returns
    -------
    Matrix, shape (len(sources), n)
        ``D[r, j]`` = length of a shortest path sources[r] -> j, present exactly where j is
        reachable; ``D[r, sources[r]] == 0``. int64 for integer and bool weights and for
        "batched_bfs", float64 for float weights.

    Raises
    ------
    NegativeCycleError
        A negative-weight cycle: anywhere ("floyd_warshall"), or reachable from a source
        ("repeated").
    InvalidValue
        Unknown method, NaN weights, a result over ``max_bytes``, a bool ``sources`` array.
    IndexOutOfBound
        A source is not a vertex.
    DomainMismatch
        Integer weights that can overflow int64 path lengths.
    DimensionMismatch
        A is not square.

    Notes
    -----
    "repeated" on the GPU: batched Bellman-Ford (``semiring.backends.gpu.multi_source``). Up to
    128 sources share an n x b distance array; in each round the (vertex, source) pairs whose
    distance fell in the round before relax their out-edges by ``atomicMin`` on an
    order-preserving integer key of the distance (exact for int64 and float64 lengths of any
    sign and for +inf), a warp per row chunk and a lane per source. One persistent kernel runs
    a batch's rounds with a grid barrier between them; the host reads once per batch (each
    source's row length and negative-cycle flag), then the rows are written on the device.
    A change in round n, or an integer distance below minus the largest weight times n - 1,
    proves a negative cycle reachable from that source. The result, ``max_bytes`` refusals
    and errors are those of one search per source, in source order.

    References
    ----------
    Grama, Gupta, Karypis, Kumar, Introduction to Parallel Computing, 2003, section 10.4
    (source-partitioned APSP); Fineman, Robinson, SIAM 2011 (algebraic Floyd-Warshall);
    Bellman 1958 and Ford 1956 (Bellman-Ford); Okuyama, Ino, Hagihara, IJHPCN 7(2), 2012
    (many single-source searches at once on the GPU).

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 1, 2], [1, 2, 0], nrows=3, ncols=3)
    >>> sr.algorithms.all_pairs_shortest_paths(A).to_dense().tolist()
    [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
    """
    what = "all_pairs_shortest_paths"
    G = as_graph(A, what)
    n = G.n
    if method not in _METHODS:
        raise InvalidValue(f"{what}: method must be one of {_METHODS}; given {method!r}")
    srcs = _sources(sources, n, what)
    allowed = _budget(max_bytes, G.A.device, what)
    unweighted = G.A.dtype.kind == "b"
    if method == "auto":
        if unweighted:
            method = "batched_bfs"
        elif sources is None and n <= AUTO_FW_MAX_N:
            method = "floyd_warshall"
        else:
            method = "repeated"
    if method == "batched_bfs":
        return _batched_bfs(G, srcs, allowed, what)
    W = _weights(G, what)
    if method == "repeated":
        return _repeated(G, None if unweighted else W, srcs, allowed, what)
    need = n * n * _entry_bytes(W.dtype) * FW_WORKSPACE
    if need > allowed:
        raise _too_big(what, need, allowed, f"Floyd-Warshall's {n} x {n} distance matrix and its workspace")
    D = _floyd_warshall_on_device(W, what) if G.A.device == "gpu" else _floyd_warshall(W, n, what, FW_BLOCK)
    if sources is None:
        return D
    # the sources' rows: D(srcs, :)
    return _core.extract(D, srcs, None)


__all__ = ["floyd_warshall", "all_pairs_shortest_paths", "FW_BLOCK", "AUTO_FW_MAX_N", "BFS_BATCH"]
