// Blocked Floyd-Warshall on a dense n x n distance matrix (backends/gpu/floyd_warshall.py).
// Defined by the host: VT (double or long long), INFINITE (VT's "no path"), T (tile side, the
// block is T x T threads). Round kb closes the pivots of tile kb: phase 1 the diagonal tile,
// phase 2 its row and column of tiles, phase 3 every other tile (a min.plus product of a column
// tile and a row tile, both final).
#include "common.cuh"

__device__ __forceinline__ VT add(VT a, VT b) {
#if IS_FLOAT
    return a + b;
#else
    return (a == INFINITE || b == INFINITE) ? INFINITE : a + b;
#endif
}

__device__ __forceinline__ VT load(const VT* D, int n, int r, int c) {
    return (r < n && c < n) ? D[(i64)r * n + c] : INFINITE;
}

extern "C" __global__ void fw_diagonal(VT* D, int n, int kb) {
    __shared__ VT s[T][T];
    const int i = threadIdx.y, j = threadIdx.x, base = kb * T;
    s[i][j] = load(D, n, base + i, base + j);
    __syncthreads();
    const int kmax = min(T, n - base);
    for (int k = 0; k < kmax; ++k) {
        const VT v = min(s[i][j], add(s[i][k], s[k][j]));
        __syncthreads();
        s[i][j] = v;
        __syncthreads();
    }
    if (base + i < n && base + j < n) D[(i64)(base + i) * n + base + j] = s[i][j];
}

// blockIdx.y == 0: the row tiles (kb, t); 1: the column tiles (t, kb); t = blockIdx.x, t != kb.
extern "C" __global__ void fw_panels(VT* D, int n, int kb) {
    __shared__ VT d[T][T];
    __shared__ VT s[T][T];
    const int t = blockIdx.x;
    if (t == kb) return;
    const int i = threadIdx.y, j = threadIdx.x, base = kb * T;
    const bool row = blockIdx.y == 0;
    const int r0 = row ? base : t * T, c0 = row ? t * T : base;
    d[i][j] = load(D, n, base + i, base + j);
    s[i][j] = load(D, n, r0 + i, c0 + j);
    __syncthreads();
    const int kmax = min(T, n - base);
    for (int k = 0; k < kmax; ++k) {
        const VT v = row ? min(s[i][j], add(d[i][k], s[k][j])) : min(s[i][j], add(s[i][k], d[k][j]));
        __syncthreads();
        s[i][j] = v;
        __syncthreads();
    }
    if (r0 + i < n && c0 + j < n) D[(i64)(r0 + i) * n + c0 + j] = s[i][j];
}

// Tile (blockIdx.y, blockIdx.x) off row and column kb: D = min(D, D(:, kb tile) min.plus D(kb tile, :)).
extern "C" __global__ void fw_rest(VT* D, int n, int kb) {
    const int ti = blockIdx.y, tj = blockIdx.x;
    if (ti == kb || tj == kb) return;
    __shared__ VT a[T][T];
    __shared__ VT b[T][T];
    const int i = threadIdx.y, j = threadIdx.x, base = kb * T;
    const int r = ti * T + i, c = tj * T + j;
    a[i][j] = load(D, n, r, base + j);
    b[i][j] = load(D, n, base + i, c);
    __syncthreads();
    if (r >= n || c >= n) return;
    VT v = D[(i64)r * n + c];
    const int kmax = min(T, n - base);
    for (int k = 0; k < kmax; ++k) v = min(v, add(a[i][k], b[k][j]));
    D[(i64)r * n + c] = v;
}

// The first vertex whose diagonal distance is negative (a negative cycle), or n: *first = min.
extern "C" __global__ void fw_negative(const VT* D, int n, int* first) {
    GRID_STRIDE(k, n) {
        if (D[k * (i64)n + k] < 0) atomicMin(first, (int)k);
    }
}
