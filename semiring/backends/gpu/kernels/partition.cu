// Multilevel partitioning on the device (backends/gpu/partition.py): heavy-edge proposals of the
// matching, merged coarse edge weights, part weights, the cut and imbalance, and Jet's rounds
// (connections to the parts, the afterburner).
// Defined by the host: IPT (row pointer type), IXT (column index type), TPV (lanes per vertex,
// a power of two <= 32).
#include "common.cuh"
#define FULL 0xffffffffu
#define NEG_INF __longlong_as_double((long long)0xfff0000000000000ULL)

// One group of TPV lanes per vertex; all 32 lanes of a warp reach every shuffle.
#define GROUP_SETUP                                                                         \
    const int lane = threadIdx.x & (TPV - 1);                                               \
    const int group = threadIdx.x / TPV;                                                    \
    const long long v = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / TPV;           \
    const bool active = v < (long long)n;

// v's heaviest neighbour u with selfm[v], nbrm[u], u != v (and part[u] == part[v] with
// use_part); ties go to the larger rank[u]; -1 when none. One thread per vertex.
extern "C" __global__ void match_propose(const IPT* ptr, const IXT* idx, const double* w, int n,
                                         const bool* selfm, const bool* nbrm, const int* rank,
                                         const int* part, int use_part, int* choice) {
    GRID_STRIDE(v, n) {
        int best = -1;
        if (selfm[v]) {
            double bw = 0.0;
            int br = 0;
            const int pv = use_part ? part[v] : 0;
            for (IPT e = ptr[v]; e < ptr[v + 1]; ++e) {
                const int u = (int)idx[e];
                if (u == v || !nbrm[u] || (use_part && part[u] != pv)) continue;
                const double x = w[e];
                const int r = rank[u];
                if (best < 0 || x > bw || (x == bw && r > br)) { best = u; bw = x; br = r; }
            }
        }
        choice[v] = best;
    }
}

// out[s] = sum of x[starts[s] .. starts[s + 1]) (the last segment ends at len), in order.
extern "C" __global__ void segment_sum(const double* x, const long long* starts, long long nseg, long long len,
                                       double* out) {
    GRID_STRIDE(s, nseg) {
        const long long lo = starts[s], hi = (s + 1 < nseg) ? starts[s + 1] : len;
        double t = 0.0;
        for (long long e = lo; e < hi; ++e) t += x[e];
        out[s] = t;
    }
}

// out[idx[i]] += val[i] (int64, exact in any order).
extern "C" __global__ void scatter_add_i64(const int* idx, const long long* val, long long m, long long* out) {
    GRID_STRIDE(i, m) atomicAdd((ull*)(out + idx[i]), (ull)val[i]);
}

// out[0] += the weight of the edges between parts (each once); out[1] = max_q (pw[q] - cap[q]).
// rows[e] is the row of entry e. out must be zero on entry.
extern "C" __global__ void jet_status(const int* rows, const IXT* idx, const double* w, long long nnz,
                                      const int* part, const long long* pw, const long long* cap, int k,
                                      double* out) {
    __shared__ double red[32];
    double s = 0.0;
    GRID_STRIDE(e, nnz) {
        if (part[rows[e]] != part[idx[e]]) s += w[e];
    }
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(FULL, s, o);
    const int wl = threadIdx.x & 31, wid = threadIdx.x >> 5;
    if (wl == 0) red[wid] = s;
    __syncthreads();
    if (wid == 0) {
        s = (wl < (int)(blockDim.x >> 5)) ? red[wl] : 0.0;
        for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(FULL, s, o);
        if (wl == 0 && s != 0.0) atomicAdd(out, 0.5 * s);
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        long long m = pw[0] - cap[0];
        for (int q = 1; q < k; ++q) m = max(m, pw[q] - cap[q]);
        out[1] = (double)m;
    }
}

// Better of two (connection, part) proposals: the larger connection, then the smaller part;
// part -1 is "none".
__device__ __forceinline__ void better(double& bc, int& bq, double c, int q) {
    if (q < 0) return;
    if (bq < 0 || c > bc || (c == bc && q < bq)) { bc = c; bq = q; }
}

// Connections of every vertex to the parts (a k-slot array per group in shared memory, filled by
// the group's lanes) and its best other part q: conn(v, q) > 0, allowed[q] (mode 1 only), the
// largest connection, then the smallest q.
// mode 0 (Jet label propagation): v is a candidate when q exists, lock[v] == 0 and
//   conn(q) >= conn(own) or conn(own) - conn(q) < floor(c * conn(own));
//   dest[v] = q or -1, gain[v] = conn(q) - conn(own) or -inf; lock[v] = 0 for every v.
// mode 1 (rebalancing): dest[v] = q or -1, gain[v] = (conn(q) or 0) - conn(own).
extern "C" __global__ void jet_conn(const IPT* ptr, const IXT* idx, const double* w, const int* part, int n,
                                    int k, int mode, const bool* allowed, double c, signed char* lock, int* dest,
                                    double* gain) {
    extern __shared__ double conn_all[];
    GROUP_SETUP
    double* conn = conn_all + (size_t)group * k;
    for (int q = lane; q < k; q += TPV) conn[q] = 0.0;
    __syncwarp();
    const int p = active ? part[v] : 0;
    const IPT lo = active ? ptr[v] : 0, hi = active ? ptr[v + 1] : 0;
    for (IPT e = lo + lane; e < hi; e += TPV) atomicAdd(conn + part[idx[e]], w[e]);
    __syncwarp();
    double bc = 0.0;
    int bq = -1;
    for (IPT e = lo + lane; e < hi; e += TPV) {
        const int q = part[idx[e]];
        if (q == p || (mode == 1 && !allowed[q])) continue;
        const double x = conn[q];
        if (x > 0.0) better(bc, bq, x, q);
    }
    for (int o = TPV / 2; o > 0; o >>= 1) {
        const double oc = __shfl_xor_sync(FULL, bc, o, TPV);
        const int oq = __shfl_xor_sync(FULL, bq, o, TPV);
        better(bc, bq, oc, oq);
    }
    const double own = active ? conn[p] : 0.0;
    if (lane == 0 && active) {
        if (mode == 0) {
            const bool cand = bq >= 0 && lock[v] == 0 && (bc >= own || (own - bc) < floor(c * own));
            lock[v] = 0;
            dest[v] = cand ? bq : -1;
            gain[v] = cand ? bc - own : NEG_INF;
        } else {
            dest[v] = bq;
            gain[v] = (bq >= 0 ? bc : 0.0) - own;
        }
    }
}

// Jet's afterburner: a candidate v (dest[v] >= 0) recomputes its gain as if every candidate
// neighbour u of higher priority (gain[u] > gain[v], or equal and u < v) had moved to dest[u];
// move[v] = the new gain >= 0.
extern "C" __global__ void jet_afterburner(const IPT* ptr, const IXT* idx, const double* w, const int* part,
                                           int n, const int* dest, const double* gain, bool* move) {
    GROUP_SETUP
    (void)group;
    const bool cand = active && dest[v] >= 0;
    double ch = 0.0;
    double gv = 0.0;
    if (cand) {
        const int p = part[v], b = dest[v];
        gv = gain[v];
        for (IPT e = ptr[v] + lane; e < ptr[v + 1]; e += TPV) {
            const int u = (int)idx[e];
            const int du = dest[u];
            if (du < 0) continue;
            const double gu = gain[u];
            if (gu > gv || (gu == gv && u < v)) {
                const double x = w[e];
                const int pu = part[u];
                if (du == p) ch -= x; else if (du == b) ch += x;
                if (pu == p) ch += x; else if (pu == b) ch -= x;
            }
        }
    }
    for (int o = TPV / 2; o > 0; o >>= 1) ch += __shfl_xor_sync(FULL, ch, o, TPV);
    if (lane == 0 && active) move[v] = cand && gv + ch >= 0.0;
}
