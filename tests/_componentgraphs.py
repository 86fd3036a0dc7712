"""Component labellings and random graphs shared by the component tests (algorithms, the
compiled CPU loops, the GPU kernel): scipy's components as smallest-vertex labels, and
Hypothesis families of clustered graphs and of strongly connected blocks joined by a DAG."""

from __future__ import annotations

import numpy as np
import scipy.sparse.csgraph as csgraph
from hypothesis import strategies as st

import semiring as sr


def min_labels(labels):
    """Relabel a partition so that each vertex carries the smallest vertex of its part."""
    labels = np.asarray(labels)
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    return first[inverse].astype(np.int64)


def scipy_labels(A, connection):
    """scipy's components of A's pattern (every stored entry is an edge), as min-vertex labels."""
    S = A.to_scipy().astype(np.float64)
    S.data[:] = 1.0
    k, labels = csgraph.connected_components(S, directed=True, connection=connection)
    return k, min_labels(labels)


@st.composite
def clustered_graphs(draw, directed=None):
    """Blocks of vertices, each weakly connected by a random spanning tree plus extra edges,
    under a random vertex numbering: optionally one giant block, small blocks of 1-6 vertices
    (isolated vertices among them), rows with one neighbour and rows with many (the sample keeps
    each vertex's smallest and largest neighbour), self-loops, and any value type (values are
    ignored). Directed graphs orient every edge at random (and may add its reverse)."""
    giant = draw(st.integers(0, 150))
    small = draw(st.lists(st.integers(1, 6), max_size=25))
    sizes = [s for s in [giant] + small if s]
    if not sizes:
        sizes = [1]
    extra = draw(st.sampled_from([0.0, 0.3, 1.0, 4.0]))  # extra edges per vertex, inside blocks
    directed = draw(st.booleans()) if directed is None else directed
    loops = draw(st.booleans())
    dtype = draw(st.sampled_from(["bool", "int64", "uint64", "float32"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = sum(sizes)
    ids = rng.permutation(n)
    rows, cols, start = [], [], 0
    for size in sizes:
        block = ids[start:start + size]
        start += size
        if size > 1:
            child = np.arange(1, size)
            rows.append(block[child])
            cols.append(block[rng.integers(0, child)])  # a spanning tree: each to an earlier one
            m = int(extra * size)
            rows.append(block[rng.integers(0, size, m)])
            cols.append(block[rng.integers(0, size, m)])
    if loops:
        some = rng.integers(0, n, max(1, n // 10))
        rows.append(some)
        cols.append(some)
    r = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    c = np.concatenate(cols) if cols else np.zeros(0, np.int64)
    if directed:
        flip = rng.random(r.size) < 0.5
        r, c = np.where(flip, c, r), np.where(flip, r, c)
        both = rng.random(r.size) < 0.2  # some edges in both directions (cycles)
        r, c = np.concatenate([r, c[both]]), np.concatenate([c, r[both]])
    else:
        r, c = np.concatenate([r, c]), np.concatenate([c, r])
    vals = rng.integers(0, 3, r.size).astype(dtype)  # explicit zeros and False among them
    return sr.Matrix.from_coo(r, c, vals, nrows=n, ncols=n, dtype=dtype, dup_op=sr.binary.first)


@st.composite
def condensations(draw):
    """Strongly connected blocks (random cycles plus chords) joined by random DAG edges
    between blocks, under a random numbering: many components per coloring round."""
    sizes = draw(st.lists(st.integers(1, 8), min_size=1, max_size=30))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = sum(sizes)
    ids = rng.permutation(n)
    rows, cols, start, blocks = [], [], 0, []
    for size in sizes:
        b = ids[start:start + size]
        start += size
        blocks.append(b)
        if size > 1:
            rows.append(b)
            cols.append(np.roll(b, 1))  # a cycle
            k = int(rng.integers(0, size))
            rows.append(b[rng.integers(0, size, k)])
            cols.append(b[rng.integers(0, size, k)])
    m = int(draw(st.integers(0, 3 * len(sizes))))
    i = rng.integers(0, len(sizes), m)
    j = rng.integers(0, len(sizes), m)
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    keep = lo < hi  # only from an earlier block to a later one: the blocks stay the components
    for a, b in zip(lo[keep], hi[keep]):
        rows.append(blocks[a][rng.integers(0, blocks[a].size, 1)])
        cols.append(blocks[b][rng.integers(0, blocks[b].size, 1)])
    r = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    c = np.concatenate(cols) if cols else np.zeros(0, np.int64)
    return sr.Matrix.from_coo(r, c, nrows=n, ncols=n, dtype="bool", dup_op=sr.binary.lor), len(sizes)
