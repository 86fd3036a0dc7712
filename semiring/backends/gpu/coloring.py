"""Device-resident Jones-Plassmann coloring: one persistent kernel, one grid barrier per round.

Each vertex has a distinct random priority (``semiring.algorithms.coloring.priorities``: a
splitmix64 hash of the vertex and the seed in the high bits, the vertex id in the low bits,
computed the same way here and on the host). In round r every uncolored vertex checks its
neighbours; if none of higher priority is still uncolored (or was colored in this same round)
it takes the smallest color no neighbour colored in an earlier round has (64 colors per pass
as a bit set, lowest zero bit by ``__ffsll``); the others go on the next round's worklist.
The result is the greedy coloring in priority order, so it equals the algebra engine's.

References: Jones, Plassmann, "A parallel graph coloring heuristic", SIAM J. Sci. Comput.
14(3), 1993; Deveci, Boman, Devine, Rajamanickam, "Parallel graph coloring for manycore
architectures", IPDPS 2016; Steele, Lea, Flood, "Fast splittable pseudorandom number
generators", OOPSLA 2014 (splitmix64).
"""

from __future__ import annotations

import threading

import numpy as np

from ..._once import once_item
from . import _persistent as _p

_SRC = r"""
__device__ __forceinline__ long long priority(ull v, ull seed) {
    ull z = (v + 1ull) * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z = z ^ (z >> 31);
    return (long long)(((z >> 33) << 32) | v);
}

extern "C" __global__ void jp_fused(const IPT* ptr, const IXT* idx, int n, ull seed, int* color, int* done,
                                    int* q0, int* q1, ull* ctl, unsigned* bar) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long nthreads = (long long)gridDim.x * blockDim.x;
    const int lane = lane_id();
    int r = 0;
    ull count = (ull)n;
    while (count > 0) {
        const int* q = (r & 1) ? q1 : q0;
        int* q_next = (r & 1) ? q0 : q1;
        ull* cnt_next = ctl + ((r + 1) % 3);
        if (tid == 0) ctl[(r + 2) % 3] = 0;
        for (long long base = tid - lane; base < (long long)count; base += nthreads) {
            const long long i = base + lane;
            int v = 0;
            bool waits = false;
            if (i < (long long)count) {
                v = (r == 0) ? (int)i : ld(q + i);
                const long long pv = priority((ull)v, seed);
                const long long lo = ptr[v], hi = ptr[v + 1];
                for (long long p = lo; p < hi; ++p) {
                    const int u = (int)idx[p];
                    if (u == v) continue;
                    const int du = ld(done + u);
                    if ((du < 0 || du == r) && priority((ull)u, seed) > pv) { waits = true; break; }
                }
                if (!waits) {
                    int c = 0;
                    for (int cbase = 0;; cbase += 64) {
                        ull used = 0;
                        for (long long p = lo; p < hi; ++p) {
                            const int u = (int)idx[p];
                            const int du = ld(done + u);
                            if (u != v && du >= 0 && du < r) {
                                const int k = ld(color + u) - cbase;
                                if (k >= 0 && k < 64) used |= 1ull << k;
                            }
                        }
                        if (used != ~0ull) { c = cbase + __ffsll((long long)~used) - 1; break; }
                    }
                    color[v] = c;
                    done[v] = r;
                }
            }
            warp_append(waits, v, q_next, cnt_next);
        }
        if (!grid_sync(bar)) break;
        count = ld(cnt_next);
        ++r;
    }
    if (tid == 0) { ctl[3] = (ull)r; ctl[4] = ((volatile unsigned*)bar)[2]; }
}
"""

_kernels = {}
_lock = threading.RLock()  # one compilation per key when threads ask together (semiring._once)


def _kernel(ipt, ixt):
    import cupy as cp

    key = (ipt, ixt, cp.cuda.runtime.getDevice())
    return once_item(_kernels, key,
                     lambda: _p.compile_kernel(f"typedef {ipt} IPT; typedef {ixt} IXT;\n" + _SRC, "jp_fused"), _lock)


def jones_plassmann(S, seed):
    """Color the symmetric pattern S (self-loops ignored) on the device.

    Parameters
    ----------
    S : Matrix on the GPU, shape (n, n)
        Symmetric: ``S[i, j]`` present iff ``S[j, i]`` is.
    seed : int
        Priorities are ``semiring.algorithms.coloring.priorities(n, seed)``.

    Returns
    -------
    color : cupy int32 array, shape (n,)
    rounds : int
    stats : dict
        ``launches`` and ``host_syncs``.
    """
    import cupy as cp

    n = S.nrows
    ipt, ixt = _p.index_types(S._indptr, S._indices)
    kern = _kernel(ipt, ixt)
    color = cp.empty(max(n, 1), dtype=cp.int32)
    done = cp.full(max(n, 1), -1, dtype=cp.int32)
    q0, q1 = cp.empty(max(n, 1), dtype=cp.int32), cp.empty(max(n, 1), dtype=cp.int32)
    ctl = cp.zeros(8, dtype=cp.uint64)
    bar = _p.barrier()
    blocks = _p.grid_size(kern, ("jp", ipt, ixt))
    kern((blocks,), (_p.BLOCK,), (S._indptr, S._indices, np.int32(n), np.uint64(seed % 2**64), color, done,
                                  q0, q1, ctl, bar))
    c = ctl[3:5].get()
    if int(c[1]):
        raise RuntimeError("coloring: a grid barrier timed out (not every block was resident); no result")
    return color[:n], int(c[0]), {"launches": 4, "host_syncs": 1}
