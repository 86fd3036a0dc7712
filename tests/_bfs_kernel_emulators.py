"""Python emulations of the CUDA kernels of ``semiring.backends.gpu.bfs_strategies``, for the
NumPy stand-in for CuPy (which cannot run RawKernels): each function takes the kernel's
arguments in the kernel's order and does what the kernel does, thread by thread in one valid
interleaving (threads in order; a block's threads in order between barriers). With them the
host loops, buffers, counters and result assembly of the GPU module run without a GPU; the
kernels themselves are only checked by the real GPU run of the same tests.
"""

from __future__ import annotations

import numpy as np

from semiring.backends.gpu import bfs_strategies as K

SLOT = K.SLOT


def _threads(grid, block):
    return range(grid * block)


def _clear_old(ctl, depth):
    s = ((depth + 2) % 3) * SLOT
    ctl[s:s + SLOT] = 0


def _next(ctl, depth):
    return ((depth + 1) % 3) * SLOT


def _claim(level, parent, wp, w, u, nd):
    if level[w] != -1:
        return False
    level[w] = nd
    if wp:
        parent[w] = u
    return True


def bfs_init(grid, block, n, source, level, parent, wp, q, ctl):
    level[:n] = -1
    level[source] = 0
    if wp:
        parent[source] = source
    q[0] = source
    ctl[:3 * SLOT] = 0


def bfs_vertex_push(grid, block, optr, oidx, n, depth, level, parent, wp, ctl):
    _clear_old(ctl, depth)
    found = False
    for v in range(n):
        if level[v] != depth:
            continue
        for e in range(optr[v], optr[v + 1]):
            w = oidx[e]
            if level[w] == -1:
                level[w] = depth + 1
                if wp:
                    parent[w] = v
                found = True
    if found:
        ctl[_next(ctl, depth)] = 1


def bfs_vertex_pull(grid, block, iptr, iidx, n, depth, level, parent, wp, ctl):
    _clear_old(ctl, depth)
    found = False
    for v in range(n):
        if level[v] != -1:
            continue
        for e in range(iptr[v], iptr[v + 1]):
            u = iidx[e]
            if level[u] == depth:
                level[v] = depth + 1
                if wp:
                    parent[v] = u
                found = True
                break
    if found:
        ctl[_next(ctl, depth)] = 1


def bfs_edge(grid, block, rows, cols, nnz, depth, level, parent, wp, ctl):
    _clear_old(ctl, depth)
    found = False
    for e in range(nnz):
        u = rows[e]
        if level[u] != depth:
            continue
        w = cols[e]
        if level[w] == -1:
            level[w] = depth + 1
            if wp:
                parent[w] = u
            found = True
    if found:
        ctl[_next(ctl, depth)] = 1


def bfs_queue_atomic(grid, block, optr, oidx, q, nq, depth, level, parent, wp, qn, ctl):
    _clear_old(ctl, depth)
    c = _next(ctl, depth)
    for i in range(nq):
        u = q[i]
        for e in range(optr[u], optr[u + 1]):
            w = oidx[e]
            if _claim(level, parent, wp, w, u, depth + 1):
                qn[ctl[c]] = w
                ctl[c] += 1


def bfs_queue_privatized(grid, block, optr, oidx, q, nq, depth, level, parent, wp, qn, ctl):
    _clear_old(ctl, depth)
    c = _next(ctl, depth)
    stride = grid * block
    for b in range(grid):
        lq = []
        for t in range(b * block, (b + 1) * block):
            for i in range(t, nq, stride):
                u = q[i]
                for e in range(optr[u], optr[u + 1]):
                    w = oidx[e]
                    if _claim(level, parent, wp, w, u, depth + 1):
                        if len(lq) < K.LOCAL_CAP:
                            lq.append(w)
                        else:
                            qn[ctl[c]] = w
                            ctl[c] += 1
        base = int(ctl[c])
        ctl[c] += len(lq)
        qn[base:base + len(lq)] = lq


def bfs_single_block(grid, block, optr, oidx, qin, nq, depth, max_depth, level, parent, wp, qout, sb, ctl):
    assert (grid, block) == (1, K.SB_THREADS) and nq <= K.SB_CAP
    cur = [int(x) for x in qin[:nq]]
    d, overflow = int(depth), 0
    while cur and d != max_depth:
        nxt = []
        for u in cur:
            for e in range(optr[u], optr[u + 1]):
                w = oidx[e]
                if _claim(level, parent, wp, w, u, d + 1):
                    if len(nxt) >= K.SB_CAP:
                        qout[len(nxt)] = w
                    nxt.append(w)
        d += 1
        cur = nxt
        if len(nxt) > K.SB_CAP:
            overflow = 1
            break
    m = min(len(cur), K.SB_CAP)
    qout[:m] = cur[:m]
    sb[0], sb[1], sb[2] = d, len(cur), overflow
    ctl[:3 * SLOT] = 0


def _bucket_append(optr, w, qn, ctl, c):
    d = optr[w + 1] - optr[w]
    b = 0 if d < K.WARP_DEGREE else (1 if d < K.BLOCK_DEGREE else 2)
    qn[b][ctl[c + b]] = w
    ctl[c + b] += 1


def _bucket(grid, block, optr, oidx, q, nq, depth, level, parent, wp, qn0, qn1, qn2, ctl):
    _clear_old(ctl, depth)
    c = _next(ctl, depth)
    for i in range(nq):
        u = q[i]
        for e in range(optr[u], optr[u + 1]):
            w = oidx[e]
            if _claim(level, parent, wp, w, u, depth + 1):
                _bucket_append(optr, w, (qn0, qn1, qn2), ctl, c)


bfs_bucket_thread = bfs_bucket_warp = bfs_bucket_block = _bucket


def bfs_split_counts(grid, block, vfirst, q, nq, cnt):
    for i in range(nq):
        cnt[i] = vfirst[q[i] + 1] - vfirst[q[i]]


def bfs_split_expand(grid, block, vptr, vfirst, oidx, q, off, nq, items, depth, level, parent, wp, qn, ctl):
    _clear_old(ctl, depth)
    c = _next(ctl, depth)
    for t in range(items):
        lo, hi = 0, nq - 1
        while lo < hi:
            mid = lo + (hi - lo) // 2
            if off[mid] > t:
                hi = mid
            else:
                lo = mid + 1
        u = q[lo]
        j = vfirst[u] + (t - (off[lo - 1] if lo > 0 else 0))
        assert vptr[j + 1] - vptr[j] <= K.SPLIT_K
        for e in range(vptr[j], vptr[j + 1]):
            w = oidx[e]
            if _claim(level, parent, wp, w, u, depth + 1):
                qn[ctl[c]] = w
                ctl[c] += 1
                ctl[c + 1] += int(vfirst[w + 1] - vfirst[w])


def bfs_finish(grid, block, n, optr, iptr, with_in, level, parent, wp, out_level, out_parent, present, hist, nlev):
    lv = np.asarray(level[:n])
    present[:] = lv >= 0
    out_level[:] = np.where(lv >= 0, lv, 0)
    if wp:
        out_parent[:] = np.where(lv >= 0, parent[:n], 0)
    for v in np.flatnonzero((lv >= 0) & (lv < nlev)).tolist():
        hist[lv[v]] += 1
        hist[nlev + lv[v]] += int(optr[v + 1] - optr[v])
        if with_in:
            hist[2 * nlev + lv[v]] += int(iptr[v + 1] - iptr[v])


def launch(types, name, grid, block, args):
    """Stand-in for ``bfs_strategies._launch``: check the arguments, then emulate the kernel."""
    K.check_args(types, name, args)
    globals()[name](grid[0], block[0], *args)
