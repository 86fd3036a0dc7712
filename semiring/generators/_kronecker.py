"""The Graph500 Kronecker (R-MAT) generator: the whole graph (:func:`kronecker`), and its block
form, the edges of any range of its edge list (:func:`kronecker_range`) and its vertex
permutation (:func:`kronecker_permutation`), from which a graph can be built in pieces.

Edge e's bits, its weight and the permutation are counter-based random numbers
(:mod:`._common`): they depend only on the seed and on e (on the vertex for the permutation),
never on how the list is split or on the device.

References
----------
Graph500 specification 3.0, section 3 ("Graph generation": Kronecker generator with
A, B, C = 0.57, 0.19, 0.19, edge factor 16, vertex and edge permutation), and its reference
code's ``generate_kronecker_range`` (``generator/graph_generator.c``), which generates the
edges of one range of the list.
Chakrabarti, Zhan, Faloutsos, "R-MAT: a recursive model for graph mining", SDM 2004.
"""

from __future__ import annotations

import numpy as np

from .. import _checks
from .._memory import require
from ..exceptions import InvalidValue
from ._common import (
    _GOLDEN, _KRON_BITS, _MASK64, _PERMUTATION, _U64, _WEIGHTS, _device, _float, _integer, _mix, _require_build,
    _seed_value, _stream_key, _undirected, _weight_spec, _weights, _words,
)

GRAPH500_A, GRAPH500_B, GRAPH500_C = 0.57, 0.19, 0.19

# edges per chunk: the CPU works on cache-sized pieces, the GPU on large ones
_CHUNK = {"cpu": 1 << 15, "gpu": 1 << 25}
# edge indices are counted in int64
_MAX_EDGE = (1 << 63) - 1
# peak bytes of a permutation per vertex (the random keys, their argsort and its scratch)
_PERMUTATION_BYTES_PER_VERTEX = 32


def _thresholds(a, b, c):
    """uint64 thresholds T_a <= T_ab <= T_abc on 32-bit uniforms r: P(r < T_p) = p (to 2**-32)."""
    return tuple(_U64(min(int(round(p * 2.0**32)), 2**32 - 1)) for p in (a, a + b, a + b + c))


def _kronecker_edges(xp, key, scale, start, stop, a, b, c, chunk):
    """(u, v) int64 arrays of the R-MAT edges start..stop-1, before the vertex permutation.

    Edge e at bit t picks quadrant a (0, 0), b (0, 1), c (1, 0) or d (1, 1) from the 32-bit
    uniform number ``r``: half t % 2 of the word ``splitmix64(key, e * ceil(scale/2) + t // 2)``.
    Quadrant k = [r >= T_a] + [r >= T_ab] + [r >= T_abc]: the u bit is k >= 2 and the v bit
    is k odd, the same distribution as Graph500's two draws per bit (P(u bit) = c + d,
    P(v bit | u bit) = d / (c + d), P(v bit | not u bit) = b / (a + b)). The edges are made
    ``chunk`` at a time in reused buffers.
    """
    t_a, t_ab, t_abc = _thresholds(a, b, c)
    npairs = (scale + 1) // 2
    udt = np.uint32 if scale <= 32 else np.uint64
    m = stop - start
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
        xp.copyto(base, xp.arange(start + e0, start + e0 + k, dtype=np.uint64))
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


def _probabilities(a, b, c, what="kronecker"):
    """The Kronecker initiator (a, b, c) as floats: a > 0, b, c >= 0, a + b + c < 1."""
    if not all(_checks.is_real(p) for p in (a, b, c)):
        raise InvalidValue(f"{what}: expected numbers a, b, c; given {a!r}, {b!r}, {c!r}")
    a, b, c = _float(a), _float(b), _float(c)
    if not (0 < a and 0 <= b and 0 <= c and a + b + c < 1):
        raise InvalidValue(f"{what}: expected a > 0, b >= 0, c >= 0 with a + b + c < 1; given {a}, {b}, {c}")
    return a, b, c


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
    result and much faster for large scales. :func:`kronecker_range` gives any range of the
    same edge list, for a graph built in pieces.

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
    scale = _integer(scale, "kronecker: scale", 1, 31)
    # m = edge_factor * 2**scale edges are counted in int64
    edge_factor = _integer(edge_factor, f"kronecker: edge_factor (scale {scale})", 1, (1 << (63 - scale)) - 1)
    a, b, c = _probabilities(a, b, c)
    wspec = _weight_spec(weights)
    seed = _seed_value(seed, "kronecker")
    dev, xp = _device(device)
    n, m = 1 << scale, edge_factor << scale
    _require_build(n, m, wspec is not None, f"kronecker(scale={scale}, edge_factor={edge_factor})", dev)
    u, v = _kronecker_edges(xp, _stream_key(seed, _KRON_BITS), scale, 0, m, a, b, c, _CHUNK[dev])
    perm = _permutation(xp, _stream_key(seed, _PERMUTATION), n)
    edges = [perm[u], perm[v]]
    del u, v, perm
    w, dtype = _weights(xp, weights, m, _stream_key(seed, _WEIGHTS))
    return _undirected(edges, w, n, dtype, dev)


def kronecker_range(scale, start, stop, seed=0, *, weights=None, a=GRAPH500_A, b=GRAPH500_B, c=GRAPH500_C,
                    permute=True, device="cpu"):
    """The edges ``start`` to ``stop - 1`` of the Graph500 Kronecker edge list of :func:`kronecker`.

    The block form of the generator, as the Graph500 reference code's
    ``generate_kronecker_range``: edge e of the list depends only on the seed and on e (its
    ``scale`` bits are counter-based random numbers of the seed, e and the bit; its weight is
    the e-th number of the weight stream), so any range of edges can be generated alone, on any
    device, and the ranges of a split of ``0 .. edge_factor * 2**scale - 1`` concatenate to the
    list that ``kronecker(scale, edge_factor, seed, ...)`` builds its matrix from. This is how a
    graph is generated in pieces, e.g. one range per process
    (:func:`semiring.distributed.kronecker`).

    Parameters
    ----------
    scale : int
        log2 of the number of vertices, 1..31.
    start, stop : int
        The range of edge indices: ``0 <= start <= stop <= 2**63 - 1``.
    seed : int, default 0
        A non-negative integer, the seed of :func:`kronecker` (None is refused: the ranges of
        one graph share one seed).
    weights : None or (low, high), optional
        As in :func:`kronecker`.
    a, b, c : float
        Kronecker initiator probabilities (d = 1 - a - b - c).
    permute : bool, default True
        Label the vertices through the graph's random permutation, as :func:`kronecker` does.
        False gives the labels before it: a caller generating many ranges of one graph takes
        the permutation once from :func:`kronecker_permutation` and applies it (``perm[u]``).
    device : {"cpu", "gpu", "auto"}
        Where the edges are generated (NumPy arrays on "cpu", CuPy arrays on "gpu").

    Returns
    -------
    u, v : int64 array, shape (stop - start,)
        The endpoints of the edges, in 0..2**scale - 1. Self-loops and repeated edges are kept
        (:func:`kronecker` drops the former and merges the latter when it builds its matrix).
    w : int64 or float64 array of shape (stop - start,), or None
        The edges' weights (int64 for integer bounds, float64 for float ones); None without
        ``weights``.

    Raises
    ------
    InvalidValue
        Scale, start or stop not an integer or out of range, probabilities not numbers or not
        summing to less than 1, bad weights, seed, permute or device.
    OutOfMemory
        The arrays would need more memory than is free on the device (checked before
        generating).
    BackendUnavailable
        ``device="gpu"`` without a usable GPU.

    Notes
    -----
    Edge e at bit t picks quadrant a (0, 0), b (0, 1), c (1, 0) or d (1, 1) from the 32-bit
    uniform number ``r``, half ``t % 2`` (low, then high) of output number
    ``e * ceil(scale / 2) + t // 2`` of SplitMix64 seeded with the seed's key of the edge bits:
    the quadrant is ``[r >= T_a] + [r >= T_ab] + [r >= T_abc]`` with
    ``T_p = min(round(p * 2**32), 2**32 - 1)`` for p = a, a + b, a + b + c, its u bit
    ``quadrant >= 2`` and its v bit ``quadrant`` odd: the quadrants of Graph500's two draws per
    bit, with the same probabilities.

    References
    ----------
    Graph500 specification 3.0, section 3 (graph generation); its reference code's
    ``generate_kronecker_range`` (``generator/graph_generator.c``). Chakrabarti, Zhan,
    Faloutsos, "R-MAT: a recursive model for graph mining", SDM 2004.

    Examples
    --------
    >>> import semiring as sr
    >>> u, v, w = sr.generators.kronecker_range(6, 0, 100, seed=1, weights=(1, 9))
    >>> u2, v2, w2 = sr.generators.kronecker_range(6, 40, 100, seed=1, weights=(1, 9))
    >>> bool((u[40:] == u2).all() and (v[40:] == v2).all() and (w[40:] == w2).all())
    True
    """
    what = "kronecker_range"
    scale = _integer(scale, f"{what}: scale", 1, 31)
    start = _integer(start, f"{what}: start", 0, _MAX_EDGE)
    stop = _integer(stop, f"{what}: stop", start, _MAX_EDGE)
    a, b, c = _probabilities(a, b, c, what)
    wspec = _weight_spec(weights)
    seed = _checks.integer(seed, what, "seed", low=0)
    permute = _checks.flag(permute, what, "permute")
    dev, xp = _device(device)
    m, n = stop - start, 1 << scale
    require(m * (24 if wspec is not None else 16) + (_PERMUTATION_BYTES_PER_VERTEX * n if permute else 0),
            f"{what}(scale={scale}, {m:,} edges)", dev)
    u, v = _kronecker_edges(xp, _stream_key(seed, _KRON_BITS), scale, start, stop, a, b, c, _CHUNK[dev])
    if permute:
        perm = _permutation(xp, _stream_key(seed, _PERMUTATION), n)
        u, v = perm[u], perm[v]
        del perm
    w, _ = _weights(xp, weights, m, _stream_key(seed, _WEIGHTS), counters=xp.arange(start, stop, dtype=np.int64))
    return u, v, w


def kronecker_permutation(scale, seed=0, *, device="cpu"):
    """The random vertex permutation of the Kronecker graph of ``scale`` and ``seed``.

    :func:`kronecker` labels vertex x of the generated edges ``perm[x]`` (Graph500's vertex
    permutation); with :func:`kronecker_range` and ``permute=False``, a caller applies it
    itself, computing it once for any number of ranges.

    Parameters
    ----------
    scale : int
        log2 of the number of vertices, 1..31.
    seed : int, default 0
        A non-negative integer, the seed of :func:`kronecker`.
    device : {"cpu", "gpu", "auto"}
        Where the permutation is computed (a NumPy or a CuPy array).

    Returns
    -------
    int64 array, shape (2**scale,)
        A permutation of ``0 .. 2**scale - 1``: an argsort of counter-based random keys (one
        per vertex, the vertex id in their low bits, so all keys differ and every sort gives
        the same order).

    Raises
    ------
    InvalidValue
        Scale not an integer in 1..31, a bad seed or device.
    OutOfMemory
        The permutation would need more memory than is free on the device.
    BackendUnavailable
        ``device="gpu"`` without a usable GPU.

    References
    ----------
    Graph500 specification 3.0, section 3 (vertex permutation).

    Examples
    --------
    >>> import numpy as np
    >>> import semiring as sr
    >>> perm = sr.generators.kronecker_permutation(4, seed=1)
    >>> sorted(perm.tolist()) == list(range(16))
    True
    """
    what = "kronecker_permutation"
    scale = _integer(scale, f"{what}: scale", 1, 31)
    seed = _checks.integer(seed, what, "seed", low=0)
    dev, xp = _device(device)
    require(_PERMUTATION_BYTES_PER_VERTEX << scale, f"{what}(scale={scale})", dev)
    return _permutation(xp, _stream_key(seed, _PERMUTATION), 1 << scale)


__all__ = ["GRAPH500_A", "GRAPH500_B", "GRAPH500_C", "kronecker", "kronecker_range", "kronecker_permutation"]
