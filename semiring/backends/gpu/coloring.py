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


def gebremedhin_manne(S, seed, blocks, steps_cap):
    """Gebremedhin-Manne speculative coloring of the symmetric pattern S on the device.

    The same passes as ``semiring.algorithms.coloring.gebremedhin_manne``: each pass cuts the
    vertices still to color (increasing) into p blocks of ``steps`` consecutive positions and
    colors position j of every block in step j, each vertex taking the smallest color no
    neighbour colored before its step has; then every vertex of the pass that shares its color
    with a neighbour of higher priority (``priorities(n, seed)``) is cleared and colored again
    in the next pass. One launch per step, one host read per pass (the conflicts' count).

    Parameters
    ----------
    S : Matrix on the GPU, shape (n, n)
        Symmetric (self-loops are skipped).
    seed : int
    blocks : int or None
        p; None: ``ceil(count / steps_cap)`` in each pass.
    steps_cap : int
        The steps of a pass when ``blocks`` is None.

    Returns
    -------
    color : cupy int32 array, shape (n,)
    passes : list of int
        The vertices colored in each pass.
    """
    import cupy as cp

    from ... import _host

    n = S.nrows
    ipt, ixt = _p.index_types(S._indptr, S._indices)
    k = {name: _p.kernel("coloring.cu", name, IPT=ipt, IXT=ixt)
         for name in ("gm_mark", "gm_step", "gm_conflicts", "gm_next")}
    color = cp.full(max(n, 1), -1, dtype=cp.int32)
    step_of = cp.full(max(n, 1), -1, dtype=cp.int32)
    clash = cp.zeros(max(n, 1), dtype=cp.uint8)
    todo = cp.arange(max(n, 1), dtype=cp.int32)
    count, passes = n, []
    grid = lambda c: (max(1, min(65535, -(-c // _p.BLOCK))),)  # noqa: E731
    while count:
        passes.append(count)
        p = -(-count // steps_cap) if blocks is None else blocks
        steps = -(-count // p)
        k["gm_mark"](grid(count), (_p.BLOCK,), (todo, np.int32(count), np.int32(steps), step_of))
        for j in range(steps):
            k["gm_step"](grid(-(-count // steps)), (_p.BLOCK,),
                         (S._indptr, S._indices, todo, np.int32(count), np.int32(steps), np.int32(j), step_of, color))
        k["gm_conflicts"](grid(count), (_p.BLOCK,),
                          (S._indptr, S._indices, todo, np.int32(count), np.uint64(seed % 2**64), color, clash))
        k["gm_mark"](grid(count), (_p.BLOCK,), (todo, np.int32(count), np.int32(0), step_of))
        pos = cp.cumsum(clash[:n], dtype=cp.int32)
        count = _host.read_int(pos[-1:])
        k["gm_next"](grid(n), (_p.BLOCK,), (np.int32(n), pos, clash, todo, color))
    return color[:n], passes
