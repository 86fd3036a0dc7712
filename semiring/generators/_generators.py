"""Synthetic graphs for tests and benchmarks.

Random numbers are counter-based: the k-th number of a stream is a SplitMix64 hash of
(seed, stream, k), computed with 64-bit integer array arithmetic that NumPy and CuPy evaluate
identically. A seed therefore gives the same graph on the CPU and on the GPU, chunks of edges
can be generated independently, and ``device="gpu"`` generates and builds on the device
without a host round trip.

References
----------
Graph500 specification 3.0, section 3 ("Graph generation": Kronecker generator with
A, B, C = 0.57, 0.19, 0.19, edge factor 16, vertex and edge permutation).
Chakrabarti, Zhan, Faloutsos, "R-MAT: a recursive model for graph mining", SDM 2004.
DIMACS10 ``rgg_n_2_k``: 2^k points uniform in the unit square, joined when closer than
0.55 * sqrt(ln n / n) (Holtgrewe, Sanders, Schulz, "Engineering a scalable high quality graph
partitioner", IPDPS 2010).
Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014 (SplitMix64).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial import cKDTree

from .. import _checks
from .._memory import require
from ..backends._xp import asnumpy, repeat, xp_of
from ..core import _validate as _v
from ..core.matrix import Matrix
from ..exceptions import InvalidValue
from ..ops import binary

GRAPH500_A, GRAPH500_B, GRAPH500_C = 0.57, 0.19, 0.19

# -- counter-based random numbers (SplitMix64) ---------------------------------------------
_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_U64 = np.uint64
# streams of one seed: independent key per purpose
_KRON_BITS, _PERMUTATION, _WEIGHTS, _POINTS = 1, 2, 3, 4
# edges per chunk: the CPU works on cache-sized pieces, the GPU on large ones
_CHUNK = {"cpu": 1 << 15, "gpu": 1 << 25}

#: The most vertices a generated graph may have: an undirected edge {u, v} is encoded as the
#: int64 key ``min(u, v) * n + max(u, v)``, so n * n must stay below 2**63.
MAX_VERTICES = math.isqrt(2**63 - 1)
# peak bytes of a build, measured (resident set size) on kronecker, grid and random_geometric
# at 10**5..10**7 edges and rounded up: per generated edge (endpoints, merge keys, the sorted
# symmetric entries and the CSR build) without and with weights, and per vertex
_BYTES_PER_EDGE = {False: 112, True: 208}
_BYTES_PER_VERTEX = 48


def _mix_int(z):
    """The SplitMix64 finalizer on a Python int (mod 2**64)."""
    z &= _MASK64
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
    return z ^ (z >> 31)


def _mix(z, tmp):
    """The SplitMix64 finalizer in place on a uint64 array (``tmp``: scratch of the same shape)."""
    xp = xp_of(z)
    for shift, mult in ((30, _MIX1), (27, _MIX2), (31, None)):
        xp.right_shift(z, _U64(shift), out=tmp)
        xp.bitwise_xor(z, tmp, out=z)
        if mult is not None:
            xp.multiply(z, _U64(mult), out=z)
    return z


def _stream_key(seed, stream):
    """64-bit key of one stream of a seed; distinct seeds below 2**64 give distinct keys."""
    key = _mix_int(stream * _GOLDEN + 0x243F6A8885A308D3)
    limbs = [seed & _MASK64]
    seed >>= 64
    while seed:
        limbs.append(seed & _MASK64)
        seed >>= 64
    for limb in limbs:
        key = _mix_int(key ^ limb)
    return key


def _words(xp, key, counters):
    """uint64 words ``splitmix64(key + (k + 1) * golden)`` for the counters k (any int array):
    the k-th output of SplitMix64 seeded with ``key``."""
    z = counters.astype(np.uint64)
    z *= _U64(_GOLDEN)
    z += _U64((key + _GOLDEN) & _MASK64)
    return _mix(z, xp.empty_like(z))


def _unit_floats(z):
    """Floats uniform in [0, 1) from uint64 words: the top 53 bits (exact on any device)."""
    return (z >> _U64(11)).astype(np.float64) * (2.0 ** -53)


def _weight_spec(weights):
    """Check a ``weights`` argument before anything is generated: None, ``("int", lo, hi)`` for
    int64 weights uniform in [lo, hi], or ``("float", lo, hi)`` for float64 weights in [lo, hi)."""
    if weights is None:
        return None
    if not (isinstance(weights, tuple) and len(weights) == 2):
        raise InvalidValue(f"weights: expected None or a (low, high) tuple (ints: inclusive integers, floats: "
                           f"uniform reals); given {weights!r}")
    lo, hi = weights
    if _checks.is_integer(lo) and _checks.is_integer(hi):
        lo, hi = int(lo), int(hi)
        if not (-(1 << 63) <= lo <= hi < (1 << 63)):
            raise InvalidValue(f"weights: expected (low, high) with low <= high, both in int64; given {weights}")
        return "int", lo, hi
    if not (_checks.is_real(lo) and _checks.is_real(hi)):
        raise InvalidValue(f"weights: expected (low, high) numbers; given {weights!r}")
    flo, fhi = _checks.as_float(lo), _checks.as_float(hi)
    if not (math.isfinite(flo) and math.isfinite(fhi) and flo <= fhi):
        raise InvalidValue(f"weights: expected finite (low, high) with low <= high; given {weights}")
    return "float", flo, fhi


def _weights(xp, weights, count, key, counters=None):
    """(values or None, dtype) for ``count`` edges; ``counters`` (default 0..count-1) name each
    edge's random number, so equal counters give equal weights on any device."""
    spec = _weight_spec(weights)
    if spec is None:
        return None, "bool"
    kind, lo, hi = spec
    if counters is None:
        counters = xp.arange(count, dtype=np.int64)
    if kind == "int":
        span = hi - lo + 1
        z = _words(xp, key, counters)
        if span < (1 << 64):  # modulo bias at most span / 2**64
            z %= _U64(span)
            z += _U64(lo & _MASK64)  # wraps to lo + offset in two's complement
        return z.view(np.int64), "int64"
    w = _unit_floats(_words(xp, key, counters))
    w *= hi - lo
    w += lo
    return w, "float64"


def _undirected(edges, w, n, dtype, device):
    """Symmetric matrix without self-loops; repeated edges keep the minimum weight.

    ``edges`` is a list [u, v] of arrays on the target device (a GPU build sorts and merges
    there); it is emptied, so that the endpoint arrays are freed as soon as they are used.
    Repeated edges are merged once, on the undirected keys ``min * n + max`` (half the entries
    of the symmetric matrix); the mirrored entries then have no duplicates left to merge.
    """
    from ..backends.array.sparse import group_starts
    from ..backends.array.reduce import reduce_runs

    u, v = edges
    edges.clear()
    xp = xp_of(u)
    keep = u != v
    key = xp.minimum(u, v)[keep] * n
    key += xp.maximum(u, v)[keep]
    del u, v
    if w is None:
        key = xp.sort(key)
    else:
        order = xp.argsort(key)  # any order of equal keys: min is commutative
        key, w = key[order], w[keep][order]
        del order
    starts = group_starts(key)
    if w is not None:
        w = reduce_runs(binary.min, w, starts) if starts.shape[0] < key.shape[0] else w
        w = xp.concatenate([w, w])
    key = key[starts]
    del starts
    lo, hi = key // n, key % n
    del key
    rows, cols = xp.concatenate([lo, hi]), xp.concatenate([hi, lo])
    del lo, hi
    return Matrix.from_coo(rows, cols, w, nrows=n, ncols=n, dtype=dtype, device=device)


def _thresholds(a, b, c):
    """uint64 thresholds T_a <= T_ab <= T_abc on 32-bit uniforms r: P(r < T_p) = p (to 2**-32)."""
    return tuple(_U64(min(int(round(p * 2.0**32)), 2**32 - 1)) for p in (a, a + b, a + b + c))


def _kronecker_edges(xp, key, scale, m, a, b, c, chunk):
    """(u, v) int64 arrays of the m R-MAT edges, before the vertex permutation.

    Edge e at bit t picks quadrant a (0, 0), b (0, 1), c (1, 0) or d (1, 1) from the 32-bit
    uniform number ``r``: half t % 2 of the word ``splitmix64(key, e * ceil(scale/2) + t // 2)``.
    Quadrant k = [r >= T_a] + [r >= T_ab] + [r >= T_abc]: the u bit is k >= 2 and the v bit
    is k odd, the same distribution as Graph500's two draws per bit (P(u bit) = c + d,
    P(v bit | u bit) = d / (c + d), P(v bit | not u bit) = b / (a + b)).
    """
    t_a, t_ab, t_abc = _thresholds(a, b, c)
    npairs = (scale + 1) // 2
    udt = np.uint32 if scale <= 32 else np.uint64
    u = xp.empty(m, dtype=np.int64)
    v = xp.empty(m, dtype=np.int64)
    size = min(chunk, m)
    z, tmp = xp.empty(size, np.uint64), xp.empty(size, np.uint64)
    base = xp.empty(size, np.uint64)
    hi, mid, lo = xp.empty(size, bool), xp.empty(size, bool), xp.empty(size, bool)
    ub, vb, w = xp.empty(size, udt), xp.empty(size, udt), xp.empty(size, udt)
    stride = _U64((npairs * _GOLDEN) & _MASK64)
    low32 = _U64(0xFFFFFFFF)
    for e0 in range(0, m, chunk):
        k = min(chunk, m - e0)
        if k < size:
            z, tmp, base, hi, mid, lo, ub, vb, w = (x[:k] for x in (z, tmp, base, hi, mid, lo, ub, vb, w))
        # base[e] = key + e * npairs * golden; word (e, p) = mix(base[e] + (p + 1) * golden)
        xp.copyto(base, xp.arange(e0, e0 + k, dtype=np.uint64))
        xp.multiply(base, stride, out=base)
        xp.add(base, _U64(key), out=base)
        ub.fill(0)
        vb.fill(0)
        for p in range(npairs):
            xp.add(base, _U64(((p + 1) * _GOLDEN) & _MASK64), out=z)
            _mix(z, tmp)
            for half in range(2):
                bit = 2 * p + half
                if bit >= scale:
                    break
                if half == 0:
                    xp.bitwise_and(z, low32, out=tmp)
                else:
                    xp.right_shift(z, _U64(32), out=tmp)
                xp.greater_equal(tmp, t_ab, out=hi)   # quadrant c or d: the u bit
                xp.greater_equal(tmp, t_a, out=mid)
                xp.greater_equal(tmp, t_abc, out=lo)
                xp.bitwise_xor(mid, lo, out=mid)
                xp.bitwise_xor(mid, hi, out=mid)      # quadrant b or d: the v bit
                xp.multiply(hi, udt(1 << bit), out=w)
                xp.bitwise_or(ub, w, out=ub)
                xp.multiply(mid, udt(1 << bit), out=w)
                xp.bitwise_or(vb, w, out=vb)
        xp.copyto(u[e0:e0 + k], ub, casting="unsafe")
        xp.copyto(v[e0:e0 + k], vb, casting="unsafe")
    return u, v


def _permutation(xp, key, n):
    """A random permutation of 0..n-1 (n a power of two, 2**bits): argsort of random keys whose
    low ``bits`` bits are the index, so all keys differ and every sort gives the same order."""
    bits = n.bit_length() - 1
    idx = xp.arange(n, dtype=np.uint64)
    z = _words(xp, key, idx)
    z >>= _U64(bits)
    z <<= _U64(bits)
    z |= idx
    return xp.argsort(z)


def _device(device):
    dev = _v.device(device)
    return dev, _v.xp_for(dev)


def _kronecker_sizes(scale, edge_factor):
    """(scale, edge_factor) checked: the edge count edge_factor * 2**scale is an int64."""
    scale = _checks.integer(scale, "kronecker", "scale", low=1, high=31)
    edge_factor = _checks.integer(edge_factor, "kronecker", f"edge_factor (scale {scale})", low=1,
                                  high=(1 << (63 - scale)) - 1)
    return scale, edge_factor


def _probabilities(a, b, c):
    """The Kronecker initiator (a, b, c) as floats: a > 0, b, c >= 0, a + b + c < 1."""
    if not all(_checks.is_real(p) for p in (a, b, c)):
        raise InvalidValue(f"kronecker: expected numbers a, b, c; given {a!r}, {b!r}, {c!r}")
    a, b, c = _checks.as_float(a), _checks.as_float(b), _checks.as_float(c)
    if not (0 < a and 0 <= b and 0 <= c and a + b + c < 1):
        raise InvalidValue(f"kronecker: expected a > 0, b >= 0, c >= 0 with a + b + c < 1; given {a}, {b}, {c}")
    return a, b, c


def _require_build(n, m, weighted, what, device):
    """OutOfMemory before generating when a graph of ``n`` vertices built from ``m`` generated
    edges would not fit in the memory free on ``device`` (the estimate of the build's peak)."""
    nbytes = _BYTES_PER_VERTEX * n + _BYTES_PER_EDGE[weighted] * m
    require(nbytes, f"{what}: {n:,} vertices, about {m:,} edges", device)


def kronecker(scale, edge_factor=16, seed=0, *, weights=None, a=GRAPH500_A, b=GRAPH500_B, c=GRAPH500_C,
              device="cpu"):
    """A Graph500 Kronecker graph: 2**scale vertices, edge_factor * 2**scale generated edges.

    The edges are generated bit by bit as in the Graph500 reference code (at each of the
    ``scale`` levels one of the quadrants a, b, c, d is drawn), vertex labels are randomly
    permuted, and the graph is made undirected: self-loops are dropped and repeated edges
    merged, so ``nvals`` is somewhat below ``2 * edge_factor * 2**scale``.

    The random numbers are counter-based (SplitMix64 of the seed, the edge and the level,
    32-bit uniforms), so a seed gives the same graph on every device: ``device="gpu"``
    generates the edges with CuPy and builds the matrix on the GPU, identical to the CPU
    result and much faster for large scales.

    Parameters
    ----------
    scale : int
        log2 of the number of vertices, 1..31 (edges are encoded in int64 as ``u * n + v``).
    edge_factor : int, default 16
        Generated edges per vertex, >= 1 (``edge_factor * 2**scale`` below 2**63).
    seed : int or None, default 0
        A non-negative integer; None draws a fresh seed.
    weights : None or (low, high), optional
        None gives a bool pattern; ``(1, 255)`` gives int64 weights uniform in [1, 255];
        float bounds give float64 weights uniform in [low, high). A repeated edge keeps the
        smallest weight, and both directions share it.
    a, b, c : float
        Kronecker initiator probabilities (d = 1 - a - b - c).
    device : {"cpu", "gpu", "auto"}
        Where the graph is generated and stored.

    Returns
    -------
    Matrix, shape (2**scale, 2**scale), symmetric.

    Raises
    ------
    InvalidValue
        Scale or edge factor not an integer or out of range, probabilities not numbers or not
        summing to less than 1, bad weights, a bad seed or device.
    OutOfMemory
        The build would need more memory than is free on the device (checked before generating).
    BackendUnavailable
        ``device="gpu"`` without a usable GPU.
    """
    scale, edge_factor = _kronecker_sizes(scale, edge_factor)
    a, b, c = _probabilities(a, b, c)
    wspec = _weight_spec(weights)
    seed = _checks.seed(seed, "kronecker", draw=True)
    dev, xp = _device(device)
    n, m = 1 << scale, edge_factor << scale
    _require_build(n, m, wspec is not None, f"kronecker(scale={scale}, edge_factor={edge_factor})", dev)
    u, v = _kronecker_edges(xp, _stream_key(seed, _KRON_BITS), scale, m, a, b, c, _CHUNK[dev])
    perm = _permutation(xp, _stream_key(seed, _PERMUTATION), n)
    edges = [perm[u], perm[v]]
    del u, v, perm
    w, dtype = _weights(xp, weights, m, _stream_key(seed, _WEIGHTS))
    return _undirected(edges, w, n, dtype, dev)


def grid(*dims, weights=None, seed=0, device="cpu"):
    """A 2-D or 3-D grid graph with 4 (6) neighbours per interior vertex, undirected.

    Parameters
    ----------
    *dims : int
        1 to 3 side lengths, each >= 1, with at most :data:`MAX_VERTICES` vertices in all, e.g.
        ``grid(1000, 1000)``; vertex (x, y) is index ``x * dims[1] + y``.
    weights : None or (low, high)
        As in :func:`kronecker` (counter-based: the same weights on every device).
    seed : int or None
        A non-negative integer; None draws a fresh seed.
    device : {"cpu", "gpu", "auto"}
        Where the graph is generated and stored.

    Returns
    -------
    Matrix, shape (prod(dims), prod(dims)).

    Raises
    ------
    InvalidValue
        No sides or more than 3, a side not an integer >= 1, too many vertices, bad weights,
        seed or device.
    OutOfMemory
        The build would need more memory than is free on the device (checked before generating).
    BackendUnavailable
        ``device="gpu"`` without a usable GPU.
    """
    if not 1 <= len(dims) <= 3:
        raise InvalidValue(f"grid: expected 1 to 3 side lengths; given {len(dims)}")
    dims = tuple(_checks.integer(d, "grid", f"side {k}", low=1) for k, d in enumerate(dims))
    n = math.prod(dims)
    if n > MAX_VERTICES:
        raise InvalidValue(f"grid: side lengths {' x '.join(map(str, dims))} give {n:,} vertices; expected at "
                           f"most {MAX_VERTICES:,} (edges are encoded in int64 as u * n + v)")
    wspec = _weight_spec(weights)
    seed = _checks.seed(seed, "grid", draw=True)
    dev, xp = _device(device)
    m = sum(n // d * (d - 1) for d in dims)  # along each axis: d - 1 edges per line of d vertices
    _require_build(n, m, wspec is not None, f"grid({', '.join(map(str, dims))})", dev)
    idx = xp.arange(n, dtype=np.int64).reshape(dims)
    us, vs = [], []
    for axis in range(len(dims)):
        lo = [slice(None)] * len(dims)
        hi = [slice(None)] * len(dims)
        lo[axis], hi[axis] = slice(None, -1), slice(1, None)
        us.append(idx[tuple(lo)].ravel())
        vs.append(idx[tuple(hi)].ravel())
    edges = [xp.concatenate(us), xp.concatenate(vs)]
    w, dtype = _weights(xp, weights, edges[0].shape[0], _stream_key(seed, _WEIGHTS))
    return _undirected(edges, w, n, dtype, dev)


def _pairs_within(x, y, r, budget=1 << 24):
    """All pairs (i, j), i < j, with ``(x[i]-x[j])**2 + (y[i]-y[j])**2 <= r*r``: the exact rule of
    ``cKDTree.query_pairs(r)`` (squared distance against r*r, x term first), found by bucketing
    the points into square cells wider than r and comparing each point with the points of its
    own cell and of 4 neighbouring cells (the other 4 are covered from their side).

    NumPy or CuPy arrays; the work is split into blocks of about ``budget`` candidate pairs.
    Returns int64 arrays (i, j).
    """
    xp = xp_of(x)
    n = x.shape[0]
    empty = xp.zeros(0, dtype=np.int64)
    if n < 2:
        return empty, empty
    r2 = float(r) * float(r)
    xmin, ymin = float(x.min()), float(y.min())
    span = max(float(x.max()) - xmin, float(y.max()) - ymin, 0.0)
    # cells a little wider than r, and not more of them than about n
    width = max(float(r) * (1 + 1e-6), span / max(1, math.isqrt(n)))
    g = int(span / width) + 1
    cx = xp.clip(xp.floor((x - xmin) / width).astype(np.int64), 0, g - 1)
    cy = xp.clip(xp.floor((y - ymin) / width).astype(np.int64), 0, g - 1)
    cell = cx * g + cy
    order = xp.argsort(cell)
    cell, cx, cy = cell[order], cx[order], cy[order]
    xs, ys = x[order], y[order]
    starts = xp.searchsorted(cell, xp.arange(g * g + 1, dtype=np.int64))
    pos = xp.arange(n, dtype=np.int64)
    out_i, out_j = [], []
    for dx, dy in ((0, 0), (0, 1), (1, -1), (1, 0), (1, 1)):
        nx, ny = cx + dx, cy + dy
        ok = (nx < g) & (ny >= 0) & (ny < g)
        nc = xp.where(ok, nx * g + ny, 0)
        if dx == 0 and dy == 0:  # the own cell: only later points, each pair once
            first = pos + 1
            count = starts[cell + 1] - first
        else:
            first = starts[nc]
            count = xp.where(ok, starts[nc + 1] - first, 0)
        ends = xp.cumsum(count)
        total = int(ends[-1])
        # blocks of points whose candidates number about `budget`
        cuts = [0] + [int(c) for c in asnumpy(xp.searchsorted(ends, xp.arange(budget, total, budget,
                                                                                 dtype=np.int64)))] + [n]
        for p0, p1 in zip(cuts[:-1], cuts[1:]):
            if p1 <= p0:
                continue
            cnt = count[p0:p1]
            src = repeat(pos[p0:p1], cnt)
            if src.shape[0] == 0:
                continue
            offs = xp.cumsum(cnt) - cnt
            dst = xp.arange(src.shape[0], dtype=np.int64) - repeat(offs, cnt) + repeat(first[p0:p1], cnt)
            ddx = xs[src] - xs[dst]
            ddy = ys[src] - ys[dst]
            d2 = ddx * ddx
            d2 += ddy * ddy
            hit = d2 <= r2
            a, b = order[src[hit]], order[dst[hit]]
            out_i.append(xp.minimum(a, b))
            out_j.append(xp.maximum(a, b))
    if not out_i:
        return empty, empty
    return xp.concatenate(out_i).astype(np.int64), xp.concatenate(out_j).astype(np.int64)


def _close_pairs(pts, r):
    """(i, j) int64 arrays of the pairs of points (rows of ``pts``) within distance r: scipy's
    cKDTree on the host, the cell-bucket search (the same pairs) on the GPU."""
    if xp_of(pts) is np:
        pairs = cKDTree(pts).query_pairs(r, output_type="ndarray").astype(np.int64)
        return pairs[:, 0], pairs[:, 1]
    return _pairs_within(pts[:, 0].copy(), pts[:, 1].copy(), r)


def random_geometric(n, radius=None, seed=0, *, weights=None, device="cpu"):
    """Random geometric graph (DIMACS10 rgg rule): n points uniform in the unit square, an edge
    between points closer than ``radius`` (default ``0.55 * sqrt(ln n / n)``).

    The points and weights are counter-based random numbers, the same on every device; the
    CPU finds the close pairs with scipy's cKDTree, the GPU with a cell-bucket search that
    applies the same test (squared distance <= radius**2), so a seed gives the same graph on
    both.

    Parameters
    ----------
    n : int
        Number of vertices, 2..:data:`MAX_VERTICES`.
    radius : float, optional
        A positive finite distance.
    seed : int or None
        A non-negative integer; None draws a fresh seed.
    weights : None, (low, high) or "distance"
        "distance" gives float64 Euclidean lengths.
    device : {"cpu", "gpu", "auto"}
        Where the graph is generated and stored.

    Returns
    -------
    Matrix, shape (n, n), symmetric.

    Raises
    ------
    InvalidValue
        n not an integer in range, a radius that is not a positive finite number, bad weights,
        seed or device.
    OutOfMemory
        The expected number of close pairs would need more memory than is free on the device
        (checked before generating).
    BackendUnavailable
        ``device="gpu"`` without a usable GPU.
    """
    n = _checks.integer(n, "random_geometric", "n", low=2, high=MAX_VERTICES)
    if radius is None:
        r = float(0.55 * np.sqrt(np.log(n) / n))
    elif not _checks.is_real(radius) or not (0 < _checks.as_float(radius) < math.inf):
        raise InvalidValue(f"random_geometric: expected a positive finite radius; given {radius!r}")
    else:
        r = float(radius)
    distance = isinstance(weights, str) and weights == "distance"
    if not (distance or weights is None or isinstance(weights, tuple)):
        raise InvalidValue(f"weights: expected None, 'distance' or a (low, high) tuple; given {weights!r}")
    wspec = None if distance else _weight_spec(weights)
    seed = _checks.seed(seed, "random_geometric", draw=True)
    dev, xp = _device(device)
    # the expected number of close pairs: each of the n(n-1)/2 pairs is closer than r with
    # probability at most the disc's area pi r**2
    m = math.ceil(n * (n - 1) / 2 * min(1.0, math.pi * r * r))
    _require_build(n, m, distance or wspec is not None, f"random_geometric(n={n}, radius={r:g})", dev)
    pts = _unit_floats(_words(xp, _stream_key(seed, _POINTS), xp.arange(2 * n, dtype=np.int64))).reshape(n, 2)
    x, y = pts[:, 0].copy(), pts[:, 1].copy()
    u, v = _close_pairs(pts, r)
    if distance:
        dx, dy = x[u] - x[v], y[u] - y[v]
        d2 = dx * dx
        d2 += dy * dy
        w, dtype = xp.sqrt(d2), "float64"
    else:  # one random number per pair {u, v}, whichever order the search found it in
        w, dtype = _weights(xp, weights, u.shape[0], _stream_key(seed, _WEIGHTS),
                            counters=xp.minimum(u, v) * n + xp.maximum(u, v))
    return _undirected([u, v], w, n, dtype, dev)
