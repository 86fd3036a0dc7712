// Segmented fold: out[s] = fold of vals[starts[s]:starts[s + 1]] by the snippet SNIPPET (in x, y),
// one thread per segment. Defined by the host (backends/gpu/reduce.py): TV (the values' type), SNIPPET.
extern "C" __global__ void seg_fold(const TV* vals, const long long* starts, long long nseg, long long n, TV* out) {
    long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nseg) return;
    long long a = starts[s], b = (s + 1 < nseg) ? starts[s + 1] : n;
    TV acc = vals[a];
    for (long long p = a + 1; p < b; ++p) {
        TV x = acc, y = vals[p];
        acc = (TV)(SNIPPET);
    }
    out[s] = acc;
}
