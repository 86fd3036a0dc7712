// Device-side loop control for recorded graphs (backends/gpu/recording.py; CUDA graph
// conditional WHILE nodes).
#include "common.cuh"

extern "C" __device__ void cudaGraphSetConditional(unsigned long long handle, unsigned int value);

// The loop goes on while u has entries and fewer than max_iterations have run; when it goes
// on, the iteration counter moves to the next iteration's number (the body reads it).
extern "C" __global__ void set_condition(unsigned long long handle, const i64* count, i64* it,
                                         i64 max_iterations) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        bool more = *count > 0 && *it < max_iterations;
        if (more) *it += 1;
        cudaGraphSetConditional(handle, more ? 1u : 0u);
    }
}
