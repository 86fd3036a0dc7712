// Multilevel partitioning on the device (backends/gpu/partition.py), shared by its kernel files:
// partition_coarsen.cu (heavy-edge matching and contraction), partition_refine.cu (Jet's label
// propagation, the status of a step, the cut and part weights) and partition_rebalance.cu (Jet's
// rebalancing). Which file holds which kernel: _partition_layout.KERNEL_FILES.
//
// Defined by the host: IPT (row pointer type), IXT (column index type), TPV (lanes per vertex of
// the group kernels, a power of two <= 32; 1 elsewhere), BUCKET_BITS (bits of a loss bucket).
//
// Refinement state: st (double[16], the S_* slots) holds the current and best (cut, imbalance),
// the patience count, the rounds, the done flag and the copy flag. Every round kernel is gated by
// st: a Jet label-propagation step runs while the partition is balanced (imbalance <= 0), a
// rebalancing step while it is not, and nothing after done; so the host queues rounds without
// reading, and reads st only to learn that the level is done.
//
// "Last block" kernels (common.cuh: last_block): every block adds its share (histogram bins,
// partial sums), then takes a ticket; the block with the last ticket sees all shares and finishes
// (a selection, a scan, the bookkeeping) and puts the ticket back at zero.
#pragma once
#include "common.cuh"
#define FULL 0xffffffffu
#define NEG_INF __longlong_as_double((long long)0xfff0000000000000ULL)
#define NONE_KEY 0x7fffffffffffffffLL
#ifndef BUCKET_BITS
#define BUCKET_BITS 12
#endif

// st slots
#define S_CUT 0
#define S_IMB 1
#define S_BCUT 2
#define S_BIMB 3
#define S_COUNT 4
#define S_ROUNDS 5
#define S_DONE 6
#define S_COPY 7
#define S_MAXR 8
#define S_ITER 9

// rebalancing: vertices per block of the chunked kernels (threads x items per thread)
#define CH_THREADS 256
#define CH_ITEMS 8
#define CH (CH_THREADS * CH_ITEMS)

// One group of TPV lanes per vertex; all 32 lanes of a warp reach every shuffle.
#define GROUP_SETUP                                                                         \
    const int lane = threadIdx.x & (TPV - 1);                                               \
    const int group = threadIdx.x / TPV;                                                    \
    const long long v = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / TPV;           \
    const bool active = v < (long long)n;

__device__ __forceinline__ bool lp_gate(const double* st) { return st[S_DONE] == 0.0 && st[S_IMB] <= 0.0; }
__device__ __forceinline__ bool rb_gate(const double* st) { return st[S_DONE] == 0.0 && st[S_IMB] > 0.0; }

// Better of two (connection, part) proposals: the larger connection, then the smaller part;
// part -1 is "none".
__device__ __forceinline__ void better(double& bc, int& bq, double c, int q) {
    if (q < 0) return;
    if (bq < 0 || c > bc || (c == bc && q < bq)) { bc = c; bq = q; }
}

// A vertex's connections: its part p, own = conn(p), and its best other part bq (-1: none) with
// bc = conn(bq).
struct Conn {
    int p;
    double own, bc;
    int bq;
};

// The group's vertex v (GROUP_SETUP): its connections to the parts (conn, the group's k slots of
// the block's dynamic shared memory, filled by the TPV lanes) and the best other part: conn > 0,
// allowed (pw[q] < limit[q], when pw is given), the largest connection, then the smallest q.
// Every lane of the warp must call it.
__device__ __forceinline__ Conn group_conn(const IPT* ptr, const IXT* idx, const double* w, const int* part, int k,
                                           bool active, long long v, int lane, int group, const long long* pw,
                                           const long long* limit) {
    extern __shared__ double conn_all[];
    double* conn = conn_all + (size_t)group * k;
    const int p = active ? part[v] : 0;
    for (int q = lane; q < k; q += TPV) conn[q] = 0.0;
    __syncwarp();
    const IPT lo = active ? ptr[v] : 0, hi = active ? ptr[v + 1] : 0;
    for (IPT e = lo + lane; e < hi; e += TPV) atomicAdd(conn + part[idx[e]], w[e]);
    __syncwarp();
    double bc = 0.0;
    int bq = -1;
    for (IPT e = lo + lane; e < hi; e += TPV) {
        const int q = part[idx[e]];
        if (q == p || (pw != nullptr && pw[q] >= limit[q])) continue;
        const double x = conn[q];
        if (x > 0.0) better(bc, bq, x, q);
    }
    for (int o = TPV / 2; o > 0; o >>= 1) {
        const double oc = __shfl_xor_sync(FULL, bc, o, TPV);
        const int oq = __shfl_xor_sync(FULL, bq, o, TPV);
        better(bc, bq, oc, oq);
    }
    return Conn{p, active ? conn[p] : 0.0, bc, bq};
}
