// Union-find on the device: connected components (ECL-CC) and Boruvka's minimum spanning
// forest (backends/gpu/forest.py). Defined by the host: IPT, IXT (CSR index types), VW (lanes
// per vertex in the hooking kernel, a power of two <= 32).
#include "common.cuh"
#ifdef BLOCK_THREADS
#include "persistent.cuh"
#endif

#define NONE 0x7fffffff

__device__ __forceinline__ int vload(const int* p) { return *(const volatile int*)p; }

// The root of v's tree, halving the path on the way (every parent is at most its child, so
// the walk ends at the smallest vertex of the tree). ECL-CC's "representative".
__device__ __forceinline__ int representative(int v, int* parent) {
    int cur = vload(parent + v);
    if (cur != v) {
        int prev = v, next;
        while (cur > (next = vload(parent + cur))) {
            parent[prev] = next;
            prev = cur;
            cur = next;
        }
    }
    return cur;
}

// Join the trees of a and b: the larger root is hooked under the smaller one by a
// compare-and-swap that fails (and is retried from the root it found) when another thread
// hooked that root first.
__device__ __forceinline__ void unite(int a, int b, int* parent) {
    int ra = representative(a, parent), rb = representative(b, parent);
    while (ra != rb) {
        if (ra < rb) {
            const int old = atomicCAS(parent + rb, rb, ra);
            if (old == rb) break;
            rb = old;
        } else {
            const int old = atomicCAS(parent + ra, ra, rb);
            if (old == ra) break;
            ra = old;
        }
    }
}

// parent(v) = the smaller of v and its first smaller out-neighbour (ECL-CC's initialization).
extern "C" __global__ void cc_init(const IPT* ptr, const IXT* idx, int n, int* parent) {
    GRID_STRIDE(v, n) {
        int p = (int)v;
        for (IPT e = ptr[v]; e < ptr[v + 1]; ++e) {
            const int u = (int)idx[e];
            if (u < p) { p = u; break; }
        }
        parent[v] = p;
    }
}

// Unite the ends of every arc (VW lanes per vertex). An undirected graph's arcs come in pairs:
// with SYMMETRIC only the one with u < v is used.
extern "C" __global__ void cc_hook(const IPT* ptr, const IXT* idx, int n, int* parent, int symmetric) {
    const i64 lanes = (i64)gridDim.x * blockDim.x;
    for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t / VW < n; t += lanes) {
        const int v = (int)(t / VW);
        const int lane = (int)(t % VW);
        for (IPT e = ptr[v] + lane; e < ptr[v + 1]; e += VW) {
            const int u = (int)idx[e];
            if (u == v || (symmetric && u > v)) continue;
            unite(v, u, parent);
        }
    }
}

// parent(v) = the root of v's tree: after this every tree is a star.
extern "C" __global__ void cc_flatten(int n, int* parent) {
    GRID_STRIDE(v, n) {
        int cur = parent[v];
        const int old = cur;
        int next;
        while (cur > (next = parent[cur])) cur = next;
        if (cur != old) parent[v] = cur;
    }
}

// labels(v) = parent(v) as int64 (the output Vector's values).
extern "C" __global__ void cc_labels(int n, const int* parent, i64* labels) {
    GRID_STRIDE(v, n) labels[v] = (i64)parent[v];
}

// ---- Boruvka: edges u[k] < v[k] numbered in increasing (weight, tie-break) order: k is the key.

// best(c) = none for every vertex.
extern "C" __global__ void bv_reset(int n, int* best) {
    GRID_STRIDE(v, n) best[v] = NONE;
}

// For every edge between two components: best(c) = min(best(c), k) at both components; an edge
// inside a component is dead for good.
extern "C" __global__ void bv_lightest(int m, const int* eu, const int* ev, const int* comp, unsigned char* dead,
                                       int* best) {
    GRID_STRIDE(k, m) {
        if (dead[k]) continue;
        const int a = comp[eu[k]], b = comp[ev[k]];
        if (a == b) {
            dead[k] = 1;
            continue;
        }
        atomicMin(best + a, (int)k);
        atomicMin(best + b, (int)k);
    }
}

// Every component c with an outgoing edge k = best(c) hooks onto the component across it; of
// two components that chose the same edge, the smaller stays the root. Hooked edges join the
// forest. parent = comp elsewhere. *hooked counts the hooks.
extern "C" __global__ void bv_hook(int n, const int* eu, const int* ev, const int* comp, const int* best,
                                   int* parent, unsigned char* in_forest, int* hooked) {
    GRID_STRIDE(c, n) {
        int p = comp[c];
        if (p == (int)c && best[c] != NONE) {
            const int k = best[c];
            const int a = comp[eu[k]], b = comp[ev[k]];
            const int other = (a == (int)c) ? b : a;
            if (!(best[other] == k && other > (int)c)) {
                p = other;
                in_forest[k] = 1;
                atomicAdd(hooked, 1);
            }
        }
        parent[c] = p;
    }
}

// comp(v) = the root of v in the hook forest (path halving in place; the hooks form no cycle).
__device__ __forceinline__ void bv_jump_at(i64 v, int* parent, int* comp) {
    int r = (int)v;
    while (true) {
        const int y = vload(parent + r);
        if (y == r) break;
        const int z = vload(parent + y);
        if (z != y) parent[r] = z;
        r = z;
    }
    comp[v] = r;
}

extern "C" __global__ void bv_jump(int n, int* parent, int* comp) {
    GRID_STRIDE(v, n) bv_jump_at(v, parent, comp);
}

// keys = the k with in_forest(k), increasing (pos = inclusive prefix sum of in_forest).
extern "C" __global__ void bv_collect(int m, const unsigned char* in_forest, const int* pos, i64* keys) {
    GRID_STRIDE(k, m) {
        if (in_forest[k]) keys[pos[k] - 1] = k;
    }
}

// ---- Borůvka on a symmetric CSR matrix's own entries: the edge {u, v} is its entry p = (u, v)
// with u < v, and its key is (weight, p), compared as the 64-bit order key of the weight and
// then p (row-major positions order the edges by (min, max) end). Defined by the host: VT (the
// value type), VKIND (0 float, 1 signed integer, 2 unsigned integer or bool) and RXT (the type
// of the entries' row ids).

#ifdef VT
__device__ __forceinline__ ull order_key(VT x) {
#if VKIND == 0
    const ull b = (ull)__double_as_longlong((double)x + 0.0);  // -0.0 and 0.0 are one weight
    return (b >> 63) ? ~b : (b | (1ull << 63));
#elif VKIND == 1
    return (ull)(long long)x ^ (1ull << 63);
#else
    return (ull)x;
#endif
}

#define NOEDGE 0xffffffffffffffffull

// The steps of a Borůvka round, one item each (an entry p or a component c), run by the
// persistent msf_rounds.

__device__ __forceinline__ void msf_reset_at(i64 v, ull* bw, ull* be) { bw[v] = NOEDGE; be[v] = NOEDGE; }

// bw(c) = the smallest weight key of an edge leaving component c (edges inside die for good).
__device__ __forceinline__ void msf_weight_at(i64 p, const RXT* rows, const IXT* idx, const VT* vals,
                                              const int* comp, unsigned char* dead, ull* bw) {
    const int u = (int)rows[p], v = (int)idx[p];
    if (v <= u || dead[p]) return;
    const int a = comp[u], b = comp[v];
    if (a == b) { dead[p] = 1; return; }
    const ull k = order_key(vals[p]);
    atomicMin(bw + a, k);
    atomicMin(bw + b, k);
}

// be(c) = the first entry among c's leaving edges of weight key bw(c).
__device__ __forceinline__ void msf_edge_at(i64 p, const RXT* rows, const IXT* idx, const VT* vals,
                                            const int* comp, const unsigned char* dead, const ull* bw, ull* be) {
    const int u = (int)rows[p], v = (int)idx[p];
    if (v <= u || dead[p]) return;
    const int a = comp[u], b = comp[v];
    const ull k = order_key(vals[p]);
    if (k == bw[a]) atomicMin(be + a, (ull)p);
    if (k == bw[b]) atomicMin(be + b, (ull)p);
}

// As bv_hook, with edges named by their entry.
__device__ __forceinline__ void msf_hook_at(i64 c, const RXT* rows, const IXT* idx, const int* comp, const ull* be,
                                            int* parent, unsigned char* in_forest, int* hooked) {
    int p = comp[c];
    if (p == (int)c && be[c] != NOEDGE) {
        const i64 e = (i64)be[c];
        const int a = comp[(int)rows[e]], b = comp[(int)idx[e]];
        const int other = (a == (int)c) ? b : a;
        if (!(be[other] == (ull)e && other > (int)c)) {
            p = other;
            in_forest[e] = 1;
            atomicAdd(hooked, 1);
        }
    }
    parent[c] = p;
}

#ifdef BLOCK_THREADS
// Every round in one launch, the steps separated by grid barriers (co-resident blocks only):
// the rounds go on while the last one hooked a component. Round r counts its hooks in
// hooked[r % 3] and zeroes hooked[(r + 1) % 3], last read at the end of round r - 2, which
// every block has left (it passed round r - 1's barriers). comp starts as the identity (the
// first reset's barrier orders it). ctl[0] = the rounds; ctl[1] = 1 when a barrier timed out
// (the result is then incomplete).
extern "C" __global__ void msf_rounds(int n, i64 nnz, const RXT* rows, const IXT* idx, const VT* vals, int* comp,
                                      int* parent, ull* bw, ull* be, unsigned char* dead, unsigned char* in_forest,
                                      int* hooked, int* ctl, unsigned* bar) {
    const i64 first = (i64)blockIdx.x * blockDim.x + threadIdx.x, step = (i64)gridDim.x * blockDim.x;
    for (i64 v = first; v < n; v += step) comp[v] = (int)v;
    for (int r = 0;; ++r) {
        int* h = hooked + r % 3;
        for (i64 v = first; v < n; v += step) msf_reset_at(v, bw, be);
        if (first == 0) hooked[(r + 1) % 3] = 0;
        if (!grid_sync(bar)) break;
        for (i64 p = first; p < nnz; p += step) msf_weight_at(p, rows, idx, vals, comp, dead, bw);
        if (!grid_sync(bar)) break;
        for (i64 p = first; p < nnz; p += step) msf_edge_at(p, rows, idx, vals, comp, dead, bw, be);
        if (!grid_sync(bar)) break;
        for (i64 c = first; c < n; c += step) msf_hook_at(c, rows, idx, comp, be, parent, in_forest, h);
        if (!grid_sync(bar)) break;
        for (i64 v = first; v < n; v += step) bv_jump_at(v, parent, comp);
        if (!grid_sync(bar)) break;
        if (*(volatile int*)h == 0) {
            if (first == 0) ctl[0] = r + 1;
            return;
        }
    }
    if (first == 0) ctl[1] = 1;
}
#endif

// Mark each forest edge's mirror entry (v, u) too (binary search in row v, columns sorted).
extern "C" __global__ void msf_mirror(i64 nnz, const IPT* ptr, const RXT* rows, const IXT* idx,
                                      unsigned char* in_forest) {
    GRID_STRIDE(p, nnz) {
        const int u = (int)rows[p], v = (int)idx[p];
        if (v <= u || !in_forest[p]) continue;
        i64 lo = ptr[v], hi = ptr[v + 1];
        while (lo < hi) {
            const i64 mid = (lo + hi) >> 1;
            if ((int)idx[mid] < u) lo = mid + 1; else hi = mid;
        }
        in_forest[lo] = 1;
    }
}

// The forest's entries, in the input's order: pos = exclusive prefix sum of in_forest.
extern "C" __global__ void msf_collect(i64 nnz, const unsigned char* in_forest, const i64* pos, const IXT* idx,
                                       const VT* vals, IXT* out_idx, VT* out_vals) {
    GRID_STRIDE(p, nnz) {
        if (in_forest[p]) {
            out_idx[pos[p]] = idx[p];
            out_vals[pos[p]] = vals[p];
        }
    }
}
#endif
