"""What every generator shares: counter-based random numbers, the argument checks, and the
build of a symmetric matrix from generated edges.

Random numbers are counter-based: the k-th number of a stream is a SplitMix64 hash of
(seed, stream, k), computed with 64-bit integer array arithmetic that NumPy and CuPy evaluate
identically. A seed therefore gives the same graph on the CPU and on the GPU, pieces of a graph
can be generated independently, and ``device="gpu"`` generates and builds on the device
without a host round trip.

References
----------
Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014 (SplitMix64).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _checks
from .._memory import require_graph_build
from ..backends._xp import xp_of
from ..backends.array.reduce import reduce_runs
from ..backends.array.sparse import group_starts
from ..core import _validate as _v
from ..core.matrix import Matrix
from ..exceptions import InvalidValue
from ..ops import binary

# -- counter-based random numbers (SplitMix64) ---------------------------------------------
_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_U64 = np.uint64
# streams of one seed: independent key per purpose
_KRON_BITS, _PERMUTATION, _WEIGHTS, _POINTS = 1, 2, 3, 4

#: The most vertices a generated graph may have: an undirected edge {u, v} is encoded as the
#: int64 key ``min(u, v) * n + max(u, v)``, so n * n must stay below 2**63.
MAX_VERTICES = math.isqrt(2**63 - 1)


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


def _seed_value(seed, what):
    """A non-negative int seed (None draws one from the OS)."""
    return _checks.seed(seed, what, draw=True)


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
    flo, fhi = _float(lo), _float(hi)
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


def _device(device):
    dev = _v.device(device)
    return dev, _v.xp_for(dev)


def _float(x):
    """A real number as a float; inf where it is too large for one (an int of 400 digits)."""
    return _checks.as_float(x)


def _integer(x, what, lo, hi=None):
    """``x`` as an int in lo..hi (hi None: no upper bound); ``what`` is "call: argument"."""
    call, _, name = what.partition(": ")
    return _checks.integer(x, call, name or "value", low=lo, high=hi)


def _require_build(n, m, weighted, what, device):
    """OutOfMemory before generating when a graph of ``n`` vertices built from ``m`` generated
    edges would not fit in the memory free on ``device`` (:func:`semiring._memory.require_graph_build`)."""
    require_graph_build(n, m, weighted, what, device)
