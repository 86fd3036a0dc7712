"""Shared by the GPU algebra tests: random vectors and BFS levels from SciPy."""

from __future__ import annotations

import numpy as np

import semiring as sr


def random_vector(rng, n, density, dtype, device="cpu"):
    """A vector of size n with about n * density entries at random positions, values 1..5
    (bool: True where the drawn value is above 2)."""
    k = int(n * density)
    idx = np.sort(rng.choice(n, size=k, replace=False)) if n else np.zeros(0, np.int64)
    vals = rng.integers(1, 6, k)
    if dtype == "bool":
        vals = vals > 2
    return sr.Vector.from_coo(idx, vals.astype(dtype), size=n, dtype=dtype, device=device)


def bfs_levels_scipy(S, s):
    """BFS levels from ``s`` of the SciPy CSR matrix ``S`` (-1: unreached), by SciPy's
    breadth-first order and predecessors."""
    from scipy.sparse.csgraph import breadth_first_order

    order, pred = breadth_first_order(S, s, directed=True, return_predecessors=True)
    lv = np.full(S.shape[0], -1, np.int64)
    lv[s] = 0
    for v in order[1:]:
        lv[v] = lv[pred[v]] + 1
    return lv
