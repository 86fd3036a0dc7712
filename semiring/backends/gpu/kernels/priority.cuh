// The vertex priorities of semiring.algorithms.coloring.priorities: a splitmix64 hash of the
// vertex and the seed in the high 32 bits, the vertex id in the low 32 (distinct: no ties).
// Shared by the coloring, Louvain and strong-components kernels.
#pragma once
#include "common.cuh"

__device__ __forceinline__ long long priority(ull v, ull seed) {
    ull z = (v + 1ull) * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z = z ^ (z >> 31);
    return (long long)(((z >> 33) << 32) | v);
}
