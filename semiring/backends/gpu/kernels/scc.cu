// Strongly connected components in one persistent kernel (backends/gpu/scc.py explains the method).
// Defined by the host: IPT, IXT (the CSR's row pointer and column index types), LOCAL_SWEEPS (sweeps of a block over its
// arcs per pass, at most), and persistent.cuh's constants.
#include "persistent.cuh"
#include "priority.cuh"
#define VMASK 0xffffffffull

// The vertex's key: its coloring priority (priority.cuh), the vertex id in the low 32 bits.
__device__ __forceinline__ ull scc_key(ull v, ull seed) { return (ull)priority(v, seed); }

// warp_append for 64-bit items (every lane of the warp must call it).
__device__ __forceinline__ void warp_append64(bool pred, ull x, ull* q, ull* len) {
    const unsigned msk = __ballot_sync(FULL, pred);
    if (!msk) return;
    const int leader = __ffs(msk) - 1;
    ull base = 0;
    if ((int)lane_id() == leader) base = atomicAdd(len, (ull)__popc(msk));
    base = __shfl_sync(FULL, base, leader);
    if (pred) q[base + __popc(msk & ((1u << lane_id()) - 1))] = x;
}

// The row r in [lo, hi) with ptr[r] <= i < ptr[r + 1], given ptr[lo] <= i < ptr[hi].
__device__ __forceinline__ long long row_of(const IPT* ptr, long long lo, long long hi, long long i) {
    while (hi - lo > 1) {
        const long long mid = lo + (hi - lo) / 2;
        if ((long long)ptr[mid] <= i) lo = mid; else hi = mid;
    }
    return lo;
}

// ctl (16 words, zero at launch): three rotating slots of 4 counters ([0] changed, [1] vertices
// kept, [2] arcs kept), the slot of barrier step k being k % 3; then [12] rounds, [13] passes,
// [14] the barrier's failure flag, [15] a round limit exceeded (an internal error).
extern "C" __global__ void scc_fused(const IPT* ptr, const IXT* idx, long long m, int n, ull seed,
                                     ull* sig, int* stamp, int* comp, int* small, long long* label,
                                     int* q0, int* q1, ull* w0, ull* w1, ull* ctl, unsigned* bar) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long nthreads = (long long)gridDim.x * blockDim.x;
    const int lane = (int)lane_id();
    int* st_in = stamp;       // pass of the last rise of vin[v]
    int* st_out = stamp + n;  // pass of the last rise of vout[v]
    long long step = 0;       // barrier steps so far (picks the counter slot)

    // init: set 0 holds every vertex's key, as vin and vout
    for (long long v = tid; v < n; v += nthreads) {
        const ull k = scc_key((ull)v, seed);
        sig[v] = k;
        sig[n + v] = k;
        st_in[v] = -1;
        st_out[v] = -1;
        comp[v] = -1;
        small[v] = 0x7fffffff;
    }
    // and the CSR's arcs, packed (u << 32) | v, into w1 (round 0's list): each warp takes 256
    // consecutive arcs, brackets their rows by two searches, and finds each arc's row in the bracket
    {
        const long long warp = tid / 32, nwarps = nthreads / 32, per = 256;
        for (long long c0 = warp * per; c0 < m; c0 += nwarps * per) {
            const long long c1 = c0 + per < m ? c0 + per : m;
            const long long lo = row_of(ptr, 0, n, c0);
            const long long hi = row_of(ptr, lo, n, c1 - 1) + 1;
            for (long long i = c0 + lane; i < c1; i += 32)
                w1[i] = ((ull)row_of(ptr, lo, hi, i) << 32) | (ull)idx[i];
        }
    }
    bool ok = grid_sync(bar);
    ++step;

    long long ma = m;   // arcs of this round
    long long nq = n;   // vertices of this round (round 0: all, in order)
    int r = 0, p = 0;   // rounds, propagation passes
    bool overrun = false;
    while (ok) {
        if (r > n) { overrun = true; break; }  // each round places a component: never happens
        const long long s = r & 1;
        ull* vin = sig + 2 * s * n;
        ull* vout = vin + n;
        ull* nvin = sig + 2 * (1 - s) * n;
        ull* nvout = nvin + n;
        const ull* src = (r & 1) ? w0 : w1;  // round 0: the CSR's arcs
        ull* dst = (r & 1) ? w1 : w0;
        const int* qin = (r & 1) ? q0 : q1;
        int* qout = (r & 1) ? q1 : q0;

        // propagation to the fixed point vin[v] >= vin[u], vout[u] >= vout[v] over every arc u -> v,
        // in place (Gauss-Seidel) with one pointer jump per term; an arc is looked at only if
        // vin[u] or vout[v] rose in the previous pass or this one (round start: every arc)
        while (true) {
            ull* sl = ctl + 4 * (step % 3);
            if (tid == 0) { ull* nx = ctl + 4 * ((step + 1) % 3); nx[0] = nx[1] = nx[2] = nx[3] = 0; }
            bool changed = false;
            for (int sweep = 0; sweep < LOCAL_SWEEPS; ++sweep) {  // a block sweeps its arcs again while it raises
                bool raised = false;
                for (long long i = tid; i < ma; i += nthreads) {
                    const ull e = ld(src + i);
                    const int u = (int)(e >> 32), v = (int)(e & VMASK);
                    if (u == v || (ld(st_in + u) < p - 1 && ld(st_out + v) < p - 1)) continue;
                    ull a = ld(vin + u);
                    const ull a2 = ld(vin + (a & VMASK));  // vin[vin[u]] also reaches v
                    a = a2 > a ? a2 : a;
                    if (a > ld(vin + v) && atomicMax(vin + v, a) < a) { st_in[v] = p; raised = true; }
                    ull b = ld(vout + v);
                    const ull b2 = ld(vout + (b & VMASK));  // u also reaches vout[vout[v]]
                    b = b2 > b ? b2 : b;
                    if (b > ld(vout + u) && atomicMax(vout + u, b) < b) { st_out[u] = p; raised = true; }
                }
                changed |= raised;
                if (!__syncthreads_or(raised)) break;
            }
            if (__syncthreads_or(changed) && threadIdx.x == 0 && !ld(sl)) sl[0] = 1;
            ok = grid_sync(bar);
            ++step;
            ++p;
            if (!ok || ld(sl) == 0) break;
        }
        if (!ok) break;

        // classify and compact (one step): vin[v] == vout[v] puts v in the component of the vertex
        // with that key; the others start the next round with their own key in the other set; an
        // arc stays when its ends agree in both signatures and are not yet placed
        {
            ull* sl = ctl + 4 * (step % 3);
            if (tid == 0) { ull* nx = ctl + 4 * ((step + 1) % 3); nx[0] = nx[1] = nx[2] = nx[3] = 0; }
            for (long long base = tid - lane; base < nq; base += nthreads) {
                const long long i = base + lane;
                bool keep = false;
                int v = 0;
                if (i < nq) {
                    v = r == 0 ? (int)i : ld(qin + i);
                    const ull x = ld(vin + v), y = ld(vout + v);
                    if (x == y) {
                        comp[v] = (int)(x & VMASK);
                    } else {
                        keep = true;
                        const ull k = scc_key((ull)v, seed);
                        nvin[v] = k;
                        nvout[v] = k;
                        st_in[v] = p - 1;
                        st_out[v] = p - 1;
                    }
                }
                warp_append(keep, v, qout, sl + 1);
            }
            for (long long base = tid - lane; base < ma; base += nthreads) {
                const long long i = base + lane;
                bool keep = false;
                ull e = 0;
                if (i < ma) {
                    e = ld(src + i);
                    const int u = (int)(e >> 32), v = (int)(e & VMASK);
                    if (u != v) {
                        const ull xu = ld(vin + u), yu = ld(vout + u);
                        keep = xu != yu && xu == ld(vin + v) && yu == ld(vout + v);
                    }
                }
                warp_append64(keep, e, dst, sl + 2);
            }
            ok = grid_sync(bar);
            ++step;
            ++r;
            if (!ok) break;
            nq = (long long)ld(sl + 1);
            ma = (long long)ld(sl + 2);
            if (ma == 0) break;  // no arc left: every remaining vertex is a component alone
        }
    }

    // label each component by its smallest vertex (comp[v] < 0: v is alone)
    if (ok && !overrun) {
        for (long long v = tid; v < n; v += nthreads) {
            const int c = ld(comp + v);
            int* to = small + (c < 0 ? v : c);
            if ((int)v < ld(to)) atomicMin(to, (int)v);  // (a large component: few atomics)
        }
        ok = grid_sync(bar);
        if (ok) {
            for (long long v = tid; v < n; v += nthreads) {
                const int c = ld(comp + v);
                label[v] = (long long)ld(small + (c < 0 ? v : c));
            }
        }
    }
    if (tid == 0) { ctl[12] = (ull)r; ctl[13] = (ull)p; ctl[14] = ((volatile unsigned*)bar)[2]; ctl[15] = overrun; }
}
