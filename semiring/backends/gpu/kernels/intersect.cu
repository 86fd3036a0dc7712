// Masked counting product by sorted-list intersection (backends/gpu/intersect.py): for each
// allowed key (i, j) of a mask, C(i, j) = |A(i, :) ∩ B(:, j)|, the rows of A and of B' being
// sorted CSR column lists. Defined by the host: IPA, IXA (A's CSR index types), IPB, IXB
// (B''s), GL (lanes per key, a power of two <= 32).
#include "common.cuh"

// The entries of the sorted list s (length ns) found in the sorted list l (length nl), each
// lane taking every GL-th entry of s and binary-searching it in l.
template <typename TS, typename TL>
__device__ __forceinline__ long long probe(const TS* s, long long ns, const TL* l, long long nl, int lane) {
    long long c = 0;
    if (ns == 0 || nl == 0) return 0;
    const long long lmin = (long long)l[0], lmax = (long long)l[nl - 1];
    for (long long t = lane; t < ns; t += GL) {
        const long long x = (long long)s[t];
        if (x < lmin || x > lmax) continue;
        long long lo = 0, hi = nl;
        while (lo < hi) {
            const long long mid = (lo + hi) >> 1;
            if ((long long)l[mid] < x) lo = mid + 1; else hi = mid;
        }
        c += (lo < nl && (long long)l[lo] == x);
    }
    return c;
}

// One group of GL lanes per key: out[e] = |A(i, :) ∩ B'(j, :)| with keys[e] = i * ncols + j.
// The launch covers exactly ceil(nkeys * GL / blockDim) blocks, so every lane of a warp reaches
// the shuffles.
extern "C" __global__ void count_masked(const long long* keys, long long nkeys, long long ncols,
                                        const IPA* ap, const IXA* ai, const IPB* bp, const IXB* bi,
                                        long long* out) {
    const long long e = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / GL;
    const int lane = threadIdx.x % GL;
    long long c = 0;
    if (e < nkeys) {
        const long long key = keys[e];
        const long long i = key / ncols, j = key - i * ncols;
        const long long a0 = (long long)ap[i], na = (long long)ap[i + 1] - a0;
        const long long b0 = (long long)bp[j], nb = (long long)bp[j + 1] - b0;
        c = na <= nb ? probe(ai + a0, na, bi + b0, nb, lane) : probe(bi + b0, nb, ai + a0, na, lane);
    }
#pragma unroll
    for (int d = GL / 2; d > 0; d >>= 1) c += __shfl_down_sync(0xffffffffu, c, d, GL);
    if (lane == 0 && e < nkeys) out[e] = c;
}
