"""Synthetic graphs for tests and benchmarks.

References
----------
Graph500 specification 3.0, section 3 ("Graph generation": Kronecker generator with
A, B, C = 0.57, 0.19, 0.19, edge factor 16, vertex and edge permutation).
Chakrabarti, Zhan, Faloutsos, "R-MAT: a recursive model for graph mining", SDM 2004.
DIMACS10 ``rgg_n_2_k``: 2^k points uniform in the unit square, joined when closer than
0.55 * sqrt(ln n / n) (Holtgrewe, Sanders, Schulz, "Engineering a scalable high quality graph
partitioner", IPDPS 2010).
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from ..core.matrix import Matrix
from ..core import _validate as _v
from ..exceptions import InvalidValue
from ..ops import binary

GRAPH500_A, GRAPH500_B, GRAPH500_C = 0.57, 0.19, 0.19


def _undirected(u, v, w, n, dtype, device):
    """Symmetric matrix without self-loops; repeated edges keep the minimum weight."""
    keep = u != v
    u, v = u[keep], v[keep]
    rows, cols = np.concatenate([u, v]), np.concatenate([v, u])
    vals = None if w is None else np.concatenate([w[keep], w[keep]])
    op = binary.lor if w is None else binary.min
    return Matrix.from_coo(rows, cols, vals, nrows=n, ncols=n, dtype=dtype, dup_op=op, device=device)


def _weights(weights, m, rng):
    if weights is None:
        return None, "bool"
    if isinstance(weights, tuple) and len(weights) == 2:
        lo, hi = weights
        if isinstance(lo, (int, np.integer)) and isinstance(hi, (int, np.integer)):
            if not lo <= hi:
                raise InvalidValue(f"weights: expected (low, high) with low <= high; given {weights}")
            return rng.integers(lo, hi + 1, m, dtype=np.int64), "int64"
        return rng.uniform(float(lo), float(hi), m), "float64"
    raise InvalidValue(f"weights: expected None or a (low, high) tuple (ints: inclusive integers, floats: "
                       f"uniform reals); given {weights!r}")


def kronecker(scale, edge_factor=16, seed=0, *, weights=None, a=GRAPH500_A, b=GRAPH500_B, c=GRAPH500_C,
              device="cpu"):
    """A Graph500 Kronecker graph: 2**scale vertices, edge_factor * 2**scale generated edges.

    The edges are generated bit by bit as in the Graph500 reference code, vertex labels are
    randomly permuted, and the graph is made undirected: self-loops are dropped and repeated
    edges merged, so ``nvals`` is somewhat below ``2 * edge_factor * 2**scale``.

    Parameters
    ----------
    scale : int
        log2 of the number of vertices (1..40).
    edge_factor : int, default 16
    seed : int, default 0
    weights : None or (low, high), optional
        None gives a bool pattern; ``(1, 255)`` gives int64 weights uniform in [1, 255];
        float bounds give float64 weights uniform in [low, high). A repeated edge keeps the
        smallest weight, and both directions share it.
    a, b, c : float
        Kronecker initiator probabilities (d = 1 - a - b - c).
    device : {"cpu", "gpu"}

    Returns
    -------
    Matrix, shape (2**scale, 2**scale), symmetric.

    Raises
    ------
    InvalidValue
        Scale or edge factor out of range, probabilities not summing to at most 1.
    """
    scale = _v.dimension(scale, "scale")
    edge_factor = _v.dimension(edge_factor, "edge_factor")
    if not 1 <= scale <= 40:
        raise InvalidValue(f"kronecker: expected 1 <= scale <= 40; given {scale}")
    if edge_factor < 1:
        raise InvalidValue(f"kronecker: expected edge_factor >= 1; given {edge_factor}")
    if not (0 < a and 0 <= b and 0 <= c and a + b + c < 1):
        raise InvalidValue(f"kronecker: expected positive a, b, c with a + b + c < 1; given {a}, {b}, {c}")
    rng = np.random.default_rng(seed)
    n, m = 1 << scale, edge_factor << scale
    u = np.zeros(m, dtype=np.int64)
    v = np.zeros(m, dtype=np.int64)
    ab, c_norm, a_norm = a + b, c / (1 - (a + b)), a / (a + b)
    thresholds = np.array([a_norm, c_norm], dtype=np.float32)
    for bit in range(scale):
        ii = rng.random(m, dtype=np.float32) > ab
        jj = rng.random(m, dtype=np.float32) > thresholds[ii.view(np.uint8)]
        u |= ii.astype(np.int64) << bit
        v |= jj.astype(np.int64) << bit
    perm = rng.permutation(n)
    u, v = perm[u], perm[v]
    w, dtype = _weights(weights, m, rng)
    return _undirected(u, v, w, n, dtype, device)


def grid(*dims, weights=None, seed=0, device="cpu"):
    """A 2-D or 3-D grid graph with 4 (6) neighbours per interior vertex, undirected.

    Parameters
    ----------
    *dims : int
        Side lengths, e.g. ``grid(1000, 1000)``; vertex (x, y) is index ``x * dims[1] + y``.
    weights : None or (low, high)
        As in :func:`kronecker`.
    seed : int
    device : {"cpu", "gpu"}

    Returns
    -------
    Matrix, shape (prod(dims), prod(dims)).
    """
    if not 1 <= len(dims) <= 3:
        raise InvalidValue(f"grid: expected 1 to 3 side lengths; given {len(dims)}")
    dims = tuple(_v.dimension(d, "grid side") for d in dims)
    if min(dims) < 1:
        raise InvalidValue(f"grid: expected side lengths >= 1; given {dims}")
    n = int(np.prod(dims))
    idx = np.arange(n, dtype=np.int64).reshape(dims)
    us, vs = [], []
    for axis in range(len(dims)):
        lo = [slice(None)] * len(dims)
        hi = [slice(None)] * len(dims)
        lo[axis], hi[axis] = slice(None, -1), slice(1, None)
        us.append(idx[tuple(lo)].ravel())
        vs.append(idx[tuple(hi)].ravel())
    u, v = np.concatenate(us), np.concatenate(vs)
    w, dtype = _weights(weights, u.size, np.random.default_rng(seed))
    return _undirected(u, v, w, n, dtype, device)


def random_geometric(n, radius=None, seed=0, *, weights=None, device="cpu"):
    """Random geometric graph (DIMACS10 rgg rule): n points uniform in the unit square, an edge
    between points closer than ``radius`` (default ``0.55 * sqrt(ln n / n)``).

    Parameters
    ----------
    n : int
        Number of vertices (>= 2).
    radius : float, optional
    seed : int
    weights : None, (low, high) or "distance"
        "distance" gives float64 Euclidean lengths.
    device : {"cpu", "gpu"}

    Returns
    -------
    Matrix, shape (n, n), symmetric.
    """
    n = _v.dimension(n, "n")
    if n < 2:
        raise InvalidValue(f"random_geometric: expected n >= 2; given {n}")
    try:
        r = 0.55 * np.sqrt(np.log(n) / n) if radius is None else float(radius)
    except (TypeError, ValueError):
        raise InvalidValue(f"random_geometric: expected a positive number as radius; given {radius!r}") from None
    if not r > 0:
        raise InvalidValue(f"random_geometric: expected a positive radius; given {radius}")
    rng = np.random.default_rng(seed)
    pts = rng.random((n, 2))
    pairs = cKDTree(pts).query_pairs(r, output_type="ndarray").astype(np.int64)
    u, v = pairs[:, 0], pairs[:, 1]
    if weights == "distance":
        w, dtype = np.linalg.norm(pts[u] - pts[v], axis=1), "float64"
    else:
        w, dtype = _weights(weights, u.size, rng)
    return _undirected(u, v, w, n, dtype, device)
