// Union-find on the device: connected components (ECL-CC) and Boruvka's minimum spanning
// forest (backends/gpu/forest.py). Defined by the host: IPT, IXT (CSR index types), VW (lanes
// per vertex in the hooking kernel, a power of two <= 32).
#include "common.cuh"

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
extern "C" __global__ void bv_jump(int n, int* parent, int* comp) {
    GRID_STRIDE(v, n) {
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
}

// keys = the k with in_forest(k), increasing (pos = inclusive prefix sum of in_forest).
extern "C" __global__ void bv_collect(int m, const unsigned char* in_forest, const int* pos, i64* keys) {
    GRID_STRIDE(k, m) {
        if (in_forest[k]) keys[pos[k] - 1] = k;
    }
}
