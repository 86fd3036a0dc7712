"""Device-resident strongly connected components: one persistent kernel, one host read.

The method is the max-signature propagation of Orzan (2004) and Barnat et al. (2011) as
ECL-SCC (Alabandi, Sands, Biros, Burtscher, SC 2023) runs it on a GPU, over an arc list that
shrinks from round to round:

- every remaining vertex v holds two signatures, ``vin[v]`` (the largest key of a vertex that
  reaches v) and ``vout[v]`` (the largest key of a vertex v reaches), both its own key at the
  start of a round. Keys are a splitmix64 hash of the vertex above its id (as
  :func:`semiring.algorithms.coloring.priorities`), so a signature names a vertex and keys are
  distinct; a hash rather than the id itself keeps a cycle or chain numbered in order from
  needing one pass per vertex;
- propagation to the fixed point ``vin[v] >= vin[u]`` and ``vout[u] >= vout[v]`` over every
  remaining arc u -> v: in place (Gauss-Seidel), each term raised by one pointer jump
  (``vin[vin[u]]`` also reaches v), an arc looked at only when ``vin[u]`` or ``vout[v]`` rose in
  the previous pass or the current one (a per-vertex stamp of the last rise); one grid barrier
  and one device flag per pass;
- a vertex with ``vin[v] == vout[v]`` lies in the component of the vertex that key names (it
  reaches v and v reaches it); that vertex is the component's largest key, so the vertex with
  the largest key among those left is always placed and every round places at least one
  component;
- an arc whose ends differ in either signature joins two components (the ends of an arc inside
  one have the same signatures) and is dropped, as are the arcs of placed vertices; the others
  are compacted into the next round's list, whose vertices restart from their own keys (in a
  second signature array, so the step that compacts also resets). No arc left: every remaining
  vertex is a component alone.

The first list is the CSR's entries, packed ``(u << 32) | v`` by the kernel (each warp finds the
rows of 256 consecutive entries by binary search in the row pointers). Self-loops are skipped
(they connect nothing). A last step labels each component by its
smallest vertex (an atomic minimum per component, then a gather), which is what the CPU path
returns. The whole search is one launch (``kernels/scc.cu``, grid barriers of
``kernels/persistent.cuh``); the host reads one small control array at the end.

References: S. Orzan, "On distributed verification and verified distribution", PhD thesis,
VU Amsterdam, 2004; J. Barnat, P. Bauch, L. Brim, M. Ceska, "Computing strongly connected
components in parallel on CUDA", IPDPS 2011; G. Alabandi, W. Sands, G. Biros, M. Burtscher,
"A GPU algorithm for detecting strongly connected components", SC 2023 (ECL-SCC).
"""

from __future__ import annotations

import numpy as np

from ... import _host
from ..._memory import require
from . import _persistent as _p

#: Device launches of one call: the zeroed control words and the persistent kernel.
LAUNCHES = 2
#: Sweeps of a block over its share of the arcs within one pass, at most: a block that raised a
#: signature sweeps again (seeing the other blocks' raises so far) before the grid barrier, as
#: ECL-SCC's kernel iterates locally. 1: one sweep per pass. Measured on cnr-2000 (H100, warm):
#: 1 sweep, 168 passes, 3.2 ms; 4 sweeps, 53 passes, 2.5 ms.
LOCAL_SWEEPS = 4


def strongly_connected(A, seed=0):
    """Strongly connected components of the pattern of A on the device.

    Parameters
    ----------
    A : Matrix on the GPU, shape (n, n), n < 2**31
        ``A[u, v]`` present means an arc u -> v; values, explicit zeros and self-loops are
        ignored.
    seed : int
        Seed of the vertex keys (the result does not depend on it).

    Returns
    -------
    label : cupy int64 array, shape (n,)
        ``label[v]`` is the smallest vertex of v's component.
    stats : dict
        ``rounds``, ``passes`` (propagation passes over all rounds), ``launches`` and
        ``host_syncs`` (device-to-host reads: 1).

    Raises
    ------
    OutOfMemory
        The work arrays (two arc lists of 8 bytes per entry, about 60 bytes per vertex) do not
        fit on the device.
    RuntimeError
        A grid barrier timed out (not every block was resident), or a round placed nothing
        (an internal error); no result.
    """
    import cupy as cp

    n, m = A.nrows, A.nvals
    require(16 * m + 64 * n, f"strongly_connected_components: work arrays for {n} vertices and {m} arcs",
            device="gpu")
    ptr, idx = A._indptr, A._indices  # full row pointers (built once from a hypersparse form)
    ipt, ixt = _p.index_types(ptr, idx)
    kern = _p.kernel("scc.cu", "scc_fused", IPT=ipt, IXT=ixt, LOCAL_SWEEPS=int(LOCAL_SWEEPS))
    nn = max(n, 1)
    sig = cp.empty(4 * nn, dtype=cp.uint64)  # (vin, vout) of the even rounds, then of the odd ones
    stamp = cp.empty(2 * nn, dtype=cp.int32)
    comp = cp.empty(nn, dtype=cp.int32)
    small = cp.empty(nn, dtype=cp.int32)
    label = cp.empty(nn, dtype=cp.int64)
    q0, q1 = cp.empty(nn, dtype=cp.int32), cp.empty(nn, dtype=cp.int32)
    w0, w1 = cp.empty(max(m, 1), dtype=cp.uint64), cp.empty(max(m, 1), dtype=cp.uint64)
    words = cp.zeros(64 + 32, dtype=cp.uint32)  # the barrier's 64 words, then 16 control words
    bar, ctl = words[:64], words[64:].view(cp.uint64)
    blocks = _p.grid_size(kern, ("scc", ipt, ixt, int(LOCAL_SWEEPS)))
    kern((blocks,), (_p.BLOCK,), (ptr, idx, np.int64(m), np.int32(n), np.uint64(int(seed) % 2**64), sig, stamp,
                                  comp, small, label, q0, q1, w0, w1, ctl, bar))
    c = _host.read(ctl[12:16])
    if int(c[2]):
        raise RuntimeError("strongly_connected_components: a grid barrier timed out (not every block was "
                           "resident); no result")
    if int(c[3]):
        raise RuntimeError(f"strongly_connected_components: more than {n} rounds (a round places at least one "
                           "component); no result")
    return label[:n], {"rounds": int(c[0]), "passes": int(c[1]), "launches": LAUNCHES, "host_syncs": 1}
