// Multilevel partitioning on the device, refinement (partition.cuh): Jet's label propagation,
// afterburner and moves (balanced steps), the status of a step and the best partition, the
// device loop of a level, and the cut and part weights of a partition.
#include "partition.cuh"

// Sum of one double per thread over the block, in a fixed order (valid in thread 0).
__device__ double block_sum_f64(double s) {
    __shared__ double red[32];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(FULL, s, o);
    const int l = threadIdx.x & 31, wid = threadIdx.x >> 5;
    if (l == 0) red[wid] = s;
    __syncthreads();
    if (wid == 0) {
        s = (l < (int)(blockDim.x >> 5)) ? red[l] : 0.0;
        for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(FULL, s, o);
    }
    __syncthreads();
    return s;
}

// The block's part of the weight of the edges between parts (each edge counted from both ends;
// valid in thread 0). Every thread of the block must call it.
__device__ double block_cut(const int* rows, const IXT* idx, const double* w, long long nnz, const int* part) {
    double s = 0.0;
    GRID_STRIDE(e, nnz) {
        if (part[rows[e]] != part[idx[e]]) s += w[e];
    }
    return block_sum_f64(s);
}

// ---------------------------------------------------------------------------------------------
// Jet refinement: connections, label propagation, afterburner, moves
// ---------------------------------------------------------------------------------------------

// Jet label propagation (balanced steps): v is a candidate when it has a best other part q,
// lock[v] == 0 and conn(q) >= conn(own) or conn(own) - conn(q) < floor(c * conn(own));
// dest[v] = q or -1, gain[v] = conn(q) - conn(own) or -inf.
extern "C" __global__ void jet_lp(const IPT* ptr, const IXT* idx, const double* w, const int* part, int n, int k,
                                  double c, const signed char* lock, int* dest, double* gain, const double* st) {
    if (!lp_gate(st)) return;
    GROUP_SETUP
    const Conn vc = group_conn(ptr, idx, w, part, k, active, v, lane, group, nullptr, nullptr);
    if (lane == 0 && active) {
        const bool cand = vc.bq >= 0 && lock[v] == 0 && (vc.bc >= vc.own || (vc.own - vc.bc) < floor(c * vc.own));
        dest[v] = cand ? vc.bq : -1;
        gain[v] = cand ? vc.bc - vc.own : NEG_INF;
    }
}

// Jet's afterburner: a candidate v (dest[v] >= 0) recomputes its gain as if every candidate
// neighbour u of higher priority (gain[u] > gain[v], or equal and u < v) had moved to dest[u];
// move[v] = the new gain >= 0.
extern "C" __global__ void jet_afterburner(const IPT* ptr, const IXT* idx, const double* w, const int* part, int n,
                                           const int* dest, const double* gain, signed char* move,
                                           const double* st) {
    if (!lp_gate(st)) return;
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

// The label-propagation moves: part[v] = dest[v] where move[v] (part weights follow);
// lock[v] = move[v].
extern "C" __global__ void jet_apply(int n, const int* dest, const signed char* move, const long long* vw,
                                     int* part, long long* pw, signed char* lock, const double* st) {
    if (!lp_gate(st)) return;
    GRID_STRIDE(v, n) {
        const signed char m = move[v];
        if (m) {
            const int p = part[v], d = dest[v];
            part[v] = d;
            atomicAdd((ull*)(pw + p), (ull)(-vw[v]));
            atomicAdd((ull*)(pw + d), (ull)vw[v]);
        }
        lock[v] = m;
    }
}

// ---------------------------------------------------------------------------------------------
// Jet refinement: the status of a step and the best partition
// ---------------------------------------------------------------------------------------------

// The cut and imbalance (max over parts of pw - cap) of the partition after a step, and the
// bookkeeping of the round loop. kind 0: the start (no gate; best = start, counts zero); kind 1:
// after a label-propagation step; kind 2: after a rebalancing step (each gated as its step was).
// Bookkeeping: rounds and count go up by one; a first balanced partition, a less imbalanced one
// while none is balanced, or a lower cut no more imbalanced becomes the best (st[S_COPY] = 1:
// jet_copy copies it); a cut below tol times the best also sets count to zero; done when
// count >= patience or rounds >= st[S_MAXR]. A gated-off call sets st[S_COPY] = 0.
extern "C" __global__ void jet_status(const int* rows, const IXT* idx, const double* w, long long nnz,
                                      const int* part, const long long* pw, const long long* cap, int k, double* st,
                                      double* partial, unsigned int* ticket, int kind, int patience, double tol) {
    const bool on = kind == 0 || (kind == 1 ? lp_gate(st) : rb_gate(st));
    if (!on) {
        if (blockIdx.x == 0 && threadIdx.x == 0) st[S_COPY] = 0.0;
        return;
    }
    const double s = block_cut(rows, idx, w, nnz, part);
    if (threadIdx.x == 0) partial[blockIdx.x] = s;
    if (!last_block(ticket)) return;
    if (threadIdx.x != 0) return;
    double cut = 0.0;
    for (unsigned int b = 0; b < gridDim.x; ++b) cut += __ldcg(partial + b);
    cut *= 0.5;
    long long m = __ldcg(pw) - cap[0];
    for (int q = 1; q < k; ++q) m = max(m, __ldcg(pw + q) - cap[q]);
    const double imb = (double)m;
    if (kind == 0) {
        st[S_CUT] = cut;
        st[S_IMB] = imb;
        st[S_BCUT] = cut;
        st[S_BIMB] = imb;
        st[S_COUNT] = 0.0;
        st[S_ROUNDS] = 0.0;
        st[S_DONE] = st[S_MAXR] <= 0.0 ? 1.0 : 0.0;
        st[S_COPY] = 1.0;
        return;
    }
    double bcut = st[S_BCUT], bimb = st[S_BIMB];
    double count = st[S_COUNT] + 1.0, rounds = st[S_ROUNDS] + 1.0;
    double copy = 0.0;
    if (bimb > 0.0 && imb < bimb) {
        copy = 1.0;
        bcut = cut;
        bimb = imb;
        count = 0.0;
    } else if (cut < bcut && (imb <= 0.0 || imb <= bimb)) {
        if (cut < tol * bcut) count = 0.0;
        copy = 1.0;
        bcut = cut;
        bimb = imb;
    }
    st[S_CUT] = cut;
    st[S_IMB] = imb;
    st[S_BCUT] = bcut;
    st[S_BIMB] = bimb;
    st[S_COUNT] = count;
    st[S_ROUNDS] = rounds;
    st[S_COPY] = copy;
    st[S_DONE] = (count < (double)patience && rounds < st[S_MAXR]) ? 0.0 : 1.0;
}

#ifdef LOOP
// Device-side loop of a level's refinement (a CUDA graph conditional WHILE node, CUDA >= 12.4):
// the loop goes on while the level is not done; st[S_ITER] counts the pairs of steps and stops
// the loop after S_MAXR + 1 of them whatever happens (each pair runs at least one step).
extern "C" __device__ void cudaGraphSetConditional(unsigned long long handle, unsigned int value);

extern "C" __global__ void jet_condition(unsigned long long handle, double* st) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        const bool more = st[S_DONE] == 0.0 && st[S_ITER] <= st[S_MAXR];
        st[S_ITER] += 1.0;
        cudaGraphSetConditional(handle, more ? 1u : 0u);
    }
}
#endif

// best = part when the last status asked for it.
extern "C" __global__ void jet_copy(int n, const int* part, int* best, const double* st) {
    if (st[S_COPY] == 0.0) return;
    GRID_STRIDE(v, n) best[v] = part[v];
}

// ---------------------------------------------------------------------------------------------
// the part weights and the cut of a partition
// ---------------------------------------------------------------------------------------------

// out[idx[i]] += val[i] (int64, exact in any order).
extern "C" __global__ void scatter_add_i64(const int* idx, const long long* val, long long m, long long* out) {
    GRID_STRIDE(i, m) atomicAdd((ull*)(out + idx[i]), (ull)val[i]);
}

// out[0] += the weight of the edges between parts (each once). out must be zero on entry.
extern "C" __global__ void edge_cut(const int* rows, const IXT* idx, const double* w, long long nnz, const int* part,
                                    double* out) {
    const double s = block_cut(rows, idx, w, nnz, part);
    if (threadIdx.x == 0 && s != 0.0) atomicAdd(out, 0.5 * s);
}
