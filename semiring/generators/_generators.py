"""Grids and random geometric graphs (the Graph500 Kronecker generator is in
:mod:`._kronecker`), from the counter-based random numbers of :mod:`._common`: a seed gives the
same graph on the CPU and on the GPU, and ``device="gpu"`` generates and builds on the device.

References
----------
DIMACS10 ``rgg_n_2_k``: 2^k points uniform in the unit square, joined when closer than
0.55 * sqrt(ln n / n) (Holtgrewe, Sanders, Schulz, "Engineering a scalable high quality graph
partitioner", IPDPS 2010).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial import cKDTree

from .. import _checks
from ..backends._xp import asnumpy, repeat, xp_of
from ..exceptions import InvalidValue
from ._common import (
    _POINTS, _WEIGHTS, MAX_VERTICES, _device, _float, _integer, _require_build, _seed_value, _stream_key,
    _undirected, _unit_floats, _weight_spec, _weights, _words,
)


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
    elif not _checks.is_real(radius) or not (0 < _float(radius) < math.inf):
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
