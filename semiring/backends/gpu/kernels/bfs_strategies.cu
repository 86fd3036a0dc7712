// The level-synchronous BFS strategies (backends/gpu/bfs_strategies.py).
// Defined by the host: IPT, IXT, SLOT, BLOCK, LOCAL_CAP, SB_THREADS, SB_CAP, WARP_DEGREE,
// BLOCK_DEGREE, HIST_CAP.
#include "common.cuh"

__device__ __forceinline__ long long gtid() { return (long long)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ long long gstride() { return (long long)gridDim.x * blockDim.x; }

// Zero slot (depth + 2) % 3 of the counters: no kernel of level depth reads or writes it.
__device__ __forceinline__ void clear_old_slot(ull* ctl, int depth) {
    if (blockIdx.x == 0 && threadIdx.x < SLOT) ctl[((depth + 2) % 3) * SLOT + threadIdx.x] = 0ull;
}

__device__ __forceinline__ ull* next_slot(ull* ctl, int depth) { return ctl + ((depth + 1) % 3) * SLOT; }

// Claim unvisited w for level nd (the first CAS wins) and record its parent u.
__device__ __forceinline__ bool claim(int* level, int* parent, int with_parent, int w, int u, int nd) {
    if (level[w] != -1) return false;
    if (atomicCAS(level + w, -1, nd) != -1) return false;
    if (with_parent) parent[w] = u;
    return true;
}

// level[v] = -1 except level[source] = 0; q[0] = source; every counter zero.
extern "C" __global__ void bfs_init(int n, int source, int* level, int* parent, int with_parent, int* q, ull* ctl) {
    for (long long v = gtid(); v < n; v += gstride()) level[v] = (v == source) ? 0 : -1;
    if (gtid() == 0) {
        if (with_parent) parent[source] = source;
        q[0] = source;
        for (int k = 0; k < 3 * SLOT; ++k) ctl[k] = 0ull;
    }
}

// vertex_push: every vertex looks at its own level; those on level depth expand their out-edges.
extern "C" __global__ void bfs_vertex_push(const IPT* optr, const IXT* oidx, int n, int depth, int* level,
                                           int* parent, int with_parent, ull* ctl) {
    clear_old_slot(ctl, depth);
    const int nd = depth + 1;
    bool found = false;
    for (long long v = gtid(); v < n; v += gstride()) {
        if (level[v] != depth) continue;
        const IPT hi = optr[v + 1];
        for (IPT e = optr[v]; e < hi; ++e) {
            const int w = (int)oidx[e];
            if (level[w] == -1) {  // every writer stores nd: a plain store is enough
                level[w] = nd;
                if (with_parent) parent[w] = (int)v;
                found = true;
            }
        }
    }
    if (found) next_slot(ctl, depth)[0] = 1ull;
}

// vertex_pull: every unvisited vertex scans its in-edges for one on level depth (early exit).
extern "C" __global__ void bfs_vertex_pull(const IPT* iptr, const IXT* iidx, int n, int depth, int* level,
                                           int* parent, int with_parent, ull* ctl) {
    clear_old_slot(ctl, depth);
    bool found = false;
    for (long long v = gtid(); v < n; v += gstride()) {
        if (level[v] != -1) continue;
        const IPT hi = iptr[v + 1];
        for (IPT e = iptr[v]; e < hi; ++e) {
            const int u = (int)iidx[e];
            if (level[u] == depth) {  // a vertex set during this launch holds depth + 1, never depth
                level[v] = depth + 1;
                if (with_parent) parent[v] = u;
                found = true;
                break;
            }
        }
    }
    if (found) next_slot(ctl, depth)[0] = 1ull;
}

// edge: every edge u -> w with u on level depth and w unvisited writes w's level.
extern "C" __global__ void bfs_edge(const IXT* rows, const IXT* cols, long long nnz, int depth, int* level,
                                    int* parent, int with_parent, ull* ctl) {
    clear_old_slot(ctl, depth);
    bool found = false;
    for (long long e = gtid(); e < nnz; e += gstride()) {
        const int u = (int)rows[e];
        if (level[u] != depth) continue;
        const int w = (int)cols[e];
        if (level[w] == -1) {
            level[w] = depth + 1;
            if (with_parent) parent[w] = u;
            found = true;
        }
    }
    if (found) next_slot(ctl, depth)[0] = 1ull;
}

// queue_atomic: a thread per frontier vertex; each claimed vertex takes one global atomicAdd.
extern "C" __global__ void bfs_queue_atomic(const IPT* optr, const IXT* oidx, const int* q, int nq, int depth,
                                            int* level, int* parent, int with_parent, int* qn, ull* ctl) {
    clear_old_slot(ctl, depth);
    ull* count = next_slot(ctl, depth);
    for (long long i = gtid(); i < nq; i += gstride()) {
        const int u = q[i];
        const IPT hi = optr[u + 1];
        for (IPT e = optr[u]; e < hi; ++e) {
            const int w = (int)oidx[e];
            if (claim(level, parent, with_parent, w, u, depth + 1)) qn[atomicAdd(count, 1ull)] = w;
        }
    }
}

// queue_privatized: claims go to the block's shared queue (overflow: the global queue), which is
// copied to the global queue after one atomicAdd per block.
extern "C" __global__ void __launch_bounds__(BLOCK) bfs_queue_privatized(const IPT* optr, const IXT* oidx,
        const int* q, int nq, int depth, int* level, int* parent, int with_parent, int* qn, ull* ctl) {
    __shared__ int lq[LOCAL_CAP];
    __shared__ unsigned int ln;
    __shared__ ull base;
    clear_old_slot(ctl, depth);
    ull* count = next_slot(ctl, depth);
    if (threadIdx.x == 0) ln = 0u;
    __syncthreads();
    for (long long i = gtid(); i < nq; i += gstride()) {
        const int u = q[i];
        const IPT hi = optr[u + 1];
        for (IPT e = optr[u]; e < hi; ++e) {
            const int w = (int)oidx[e];
            if (claim(level, parent, with_parent, w, u, depth + 1)) {
                const unsigned k = atomicAdd(&ln, 1u);
                if (k < LOCAL_CAP) lq[k] = w;
                else qn[atomicAdd(count, 1ull)] = w;
            }
        }
    }
    __syncthreads();
    const unsigned m = min(ln, (unsigned)LOCAL_CAP);
    if (threadIdx.x == 0 && m > 0) base = atomicAdd(count, (ull)m);
    __syncthreads();
    for (unsigned k = threadIdx.x; k < m; k += blockDim.x) qn[base + k] = lq[k];
}

// single_block: ONE block runs levels depth, depth + 1, ... on shared-memory queues until the
// frontier is empty, max_depth is reached, or a level discovers more than SB_CAP vertices. Then
// it leaves the frontier in qout (sb[0] = its level, sb[1] = its size, sb[2] = 1 if it
// overflowed) and zeroes the counters for the multi-block launches that follow.
extern "C" __global__ void __launch_bounds__(SB_THREADS) bfs_single_block(const IPT* optr, const IXT* oidx,
        const int* qin, int nq, int depth, int max_depth, int* level, int* parent, int with_parent, int* qout,
        int* sb, ull* ctl) {
    __shared__ int qs[2][SB_CAP];
    __shared__ unsigned int s_next;
    for (int i = threadIdx.x; i < nq; i += blockDim.x) qs[0][i] = qin[i];
    if (threadIdx.x == 0) s_next = 0u;
    __syncthreads();
    int cur = 0, d = depth, overflow = 0;
    unsigned nc = (unsigned)nq;
    while (nc > 0 && d != max_depth) {  // nc and d are the same in every thread
        const int nd = d + 1;
        for (unsigned i = threadIdx.x; i < nc; i += blockDim.x) {
            const int u = qs[cur][i];
            const IPT hi = optr[u + 1];
            for (IPT e = optr[u]; e < hi; ++e) {
                const int w = (int)oidx[e];
                if (claim(level, parent, with_parent, w, u, nd)) {
                    const unsigned k = atomicAdd(&s_next, 1u);
                    if (k < SB_CAP) qs[cur ^ 1][k] = w;
                    else qout[k] = w;  // past the shared queue: straight to its place in qout
                }
            }
        }
        __syncthreads();
        const unsigned nn = s_next;
        __syncthreads();
        if (threadIdx.x == 0) s_next = 0u;
        d = nd;
        cur ^= 1;
        nc = nn;
        if (nn > SB_CAP) { overflow = 1; break; }
        __syncthreads();
    }
    const unsigned m = min(nc, (unsigned)SB_CAP);
    for (unsigned i = threadIdx.x; i < m; i += blockDim.x) qout[i] = qs[cur][i];
    if (threadIdx.x == 0) {
        sb[0] = d;
        sb[1] = (int)nc;
        sb[2] = overflow;
        for (int k = 0; k < 3 * SLOT; ++k) ctl[k] = 0ull;
    }
}

// degree_bucketed: append w to the next frontier's bucket by its out-degree (counts in next[0..2]).
__device__ __forceinline__ void bucket_append(const IPT* optr, int w, int* qn0, int* qn1, int* qn2, ull* next) {
    const long long d = (long long)(optr[w + 1] - optr[w]);
    if (d < WARP_DEGREE) qn0[atomicAdd(next + 0, 1ull)] = w;
    else if (d < BLOCK_DEGREE) qn1[atomicAdd(next + 1, 1ull)] = w;
    else qn2[atomicAdd(next + 2, 1ull)] = w;
}

// Small out-degree bucket: a thread per vertex.
extern "C" __global__ void bfs_bucket_thread(const IPT* optr, const IXT* oidx, const int* q, int nq, int depth,
        int* level, int* parent, int with_parent, int* qn0, int* qn1, int* qn2, ull* ctl) {
    clear_old_slot(ctl, depth);
    ull* next = next_slot(ctl, depth);
    for (long long i = gtid(); i < nq; i += gstride()) {
        const int u = q[i];
        const IPT hi = optr[u + 1];
        for (IPT e = optr[u]; e < hi; ++e) {
            const int w = (int)oidx[e];
            if (claim(level, parent, with_parent, w, u, depth + 1)) bucket_append(optr, w, qn0, qn1, qn2, next);
        }
    }
}

// Medium bucket: a warp per vertex, its lanes striding over the out-edges.
extern "C" __global__ void bfs_bucket_warp(const IPT* optr, const IXT* oidx, const int* q, int nq, int depth,
        int* level, int* parent, int with_parent, int* qn0, int* qn1, int* qn2, ull* ctl) {
    clear_old_slot(ctl, depth);
    ull* next = next_slot(ctl, depth);
    const int lane = threadIdx.x & 31;
    for (long long i = gtid() / 32; i < nq; i += gstride() / 32) {
        const int u = q[i];
        const IPT hi = optr[u + 1];
        for (IPT e = optr[u] + lane; e < hi; e += 32) {
            const int w = (int)oidx[e];
            if (claim(level, parent, with_parent, w, u, depth + 1)) bucket_append(optr, w, qn0, qn1, qn2, next);
        }
    }
}

// Large bucket: a block per vertex, its threads striding over the out-edges.
extern "C" __global__ void bfs_bucket_block(const IPT* optr, const IXT* oidx, const int* q, int nq, int depth,
        int* level, int* parent, int with_parent, int* qn0, int* qn1, int* qn2, ull* ctl) {
    clear_old_slot(ctl, depth);
    ull* next = next_slot(ctl, depth);
    for (long long i = blockIdx.x; i < nq; i += gridDim.x) {
        const int u = q[i];
        const IPT hi = optr[u + 1];
        for (IPT e = optr[u] + threadIdx.x; e < hi; e += blockDim.x) {
            const int w = (int)oidx[e];
            if (claim(level, parent, with_parent, w, u, depth + 1)) bucket_append(optr, w, qn0, qn1, qn2, next);
        }
    }
}

// node_split: the number of virtual nodes of each frontier vertex.
extern "C" __global__ void bfs_split_counts(const IPT* vfirst, const int* q, int nq, long long* cnt) {
    for (long long i = gtid(); i < nq; i += gstride()) {
        const int u = q[i];
        cnt[i] = (long long)(vfirst[u + 1] - vfirst[u]);
    }
}

// node_split: one thread per virtual node of the frontier (off: inclusive scan of the counts).
// A claimed vertex joins the next frontier and adds its virtual nodes to next[1].
extern "C" __global__ void bfs_split_expand(const IPT* vptr, const IPT* vfirst, const IXT* oidx, const int* q,
        const long long* off, int nq, long long items, int depth, int* level, int* parent, int with_parent,
        int* qn, ull* ctl) {
    clear_old_slot(ctl, depth);
    ull* next = next_slot(ctl, depth);
    for (long long t = gtid(); t < items; t += gstride()) {
        int lo = 0, hi = nq - 1;  // the first frontier entry whose inclusive offset exceeds t
        while (lo < hi) {
            const int mid = lo + (hi - lo) / 2;
            if (off[mid] > t) hi = mid; else lo = mid + 1;
        }
        const int u = q[lo];
        const long long j = (long long)vfirst[u] + (t - (lo > 0 ? off[lo - 1] : 0LL));
        const IPT end = vptr[j + 1];
        for (IPT e = vptr[j]; e < end; ++e) {
            const int w = (int)oidx[e];
            if (claim(level, parent, with_parent, w, u, depth + 1)) {
                qn[atomicAdd(next, 1ull)] = w;
                atomicAdd(next + 1, (ull)(vfirst[w + 1] - vfirst[w]));
            }
        }
    }
}

// The result in the Vector's bitmap form (int64 levels and parents, 0 where absent; presence),
// and per level l < nlev: hist[l] vertices, hist[nlev + l] their out-edges, hist[2 nlev + l]
// their in-edges (with_in; iptr is then the in-edge offsets).
extern "C" __global__ void __launch_bounds__(BLOCK) bfs_finish(int n, const IPT* optr, const IPT* iptr, int with_in,
        const int* level, const int* parent, int with_parent, long long* out_level, long long* out_parent,
        bool* present, ull* hist, int nlev) {
    __shared__ ull sh[3 * HIST_CAP];
    const bool local = nlev <= HIST_CAP;
    if (local) {
        for (int k = threadIdx.x; k < 3 * nlev; k += blockDim.x) sh[k] = 0ull;
    }
    __syncthreads();
    ull* h = local ? sh : hist;
    for (long long v = gtid(); v < n; v += gstride()) {
        const int lv = level[v];
        const bool in = lv >= 0;
        present[v] = in;
        out_level[v] = in ? lv : 0;
        if (with_parent) out_parent[v] = in ? parent[v] : 0;
        if (in && lv < nlev) {
            atomicAdd(h + lv, 1ull);
            atomicAdd(h + nlev + lv, (ull)(optr[v + 1] - optr[v]));
            if (with_in) atomicAdd(h + 2 * nlev + lv, (ull)(iptr[v + 1] - iptr[v]));
        }
    }
    __syncthreads();
    if (local) {
        for (int k = threadIdx.x; k < 3 * nlev; k += blockDim.x) {
            if (sh[k]) atomicAdd(hist + k, sh[k]);
        }
    }
}
