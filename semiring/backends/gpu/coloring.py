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

import numpy as np

from . import _persistent as _p

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
    kern = _p.kernel("coloring.cu", "jp_fused", IPT=ipt, IXT=ixt)
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
