// Push products: KIND is push (the frontier's edges, expanded by the host into one term per
// thread) or edge (one thread per stored entry, checking its source in the input's bitmap).
// Defined by the host (backends/gpu/products.py): KIND, IXT, TA, TU, TIN, TZ, I_EXPR, J_EXPR,
// X_EXPR, Y_EXPR, MULT (as products_pull.cu), POS_EXPR (the entry of thread t), SOURCE_CHECK
// (a statement clearing `active` when the source is absent, or nothing), COMBINE (the
// statement folding z into out[jj]: a store, a hardware atomic or a compare-and-swap loop).
#define QCAP 1024
extern "C" __global__ void KIND(long long nterms, const long long* kk, const long long* pos,
        const IXT* indices, const TA* avals, const TU* uvals_rep, const bool* allowed,
        int use_allowed, TZ* out, int* flag, const bool* srcpresent,
        long long* queue, unsigned long long* qlen) {
    // The output frontier is built as a queue: a thread that first touches a position
    // appends it to its block's shared-memory queue; the block then reserves room in the
    // global queue with one atomic and copies its queue there (privatization).
    __shared__ long long bq[QCAP];
    __shared__ unsigned int bn;
    __shared__ unsigned long long base;
    if (threadIdx.x == 0) bn = 0;
    __syncthreads();
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    bool active = t < nterms;
    long long p = 0, k = 0, jj = 0;
    if (active) {
        p = POS_EXPR; k = kk[t]; jj = indices[p];
        SOURCE_CHECK
        if (use_allowed && !allowed[jj]) active = false;
    }
    if (active) {
        TZ z;
        {
            long long i = I_EXPR, j = J_EXPR;
            TIN x = (TIN)(X_EXPR), y = (TIN)(Y_EXPR);
            z = (TZ)(MULT);
        }
        COMBINE
        if (atomicExch(&flag[jj], 1) == 0) {
            unsigned int slot = atomicAdd(&bn, 1u);
            if (slot < QCAP) bq[slot] = jj;
            else queue[atomicAdd(qlen, 1ull)] = jj;  // a full block queue spills to the global one
        }
    }
    __syncthreads();
    unsigned int n = bn < QCAP ? bn : QCAP;
    if (threadIdx.x == 0) base = atomicAdd(qlen, (unsigned long long)n);
    __syncthreads();
    for (unsigned int s = threadIdx.x; s < n; s += blockDim.x) queue[base + s] = bq[s];
}
