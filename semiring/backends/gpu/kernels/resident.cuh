// Device-resident vector operations: every vector is a bitmap (a presence array and a dense
// value array) with its entry count in device memory, so no operation needs the host.
//
// resident_write.cu:    pointwise: T(i) from the operands at i (TERM), then the write step of
//                       the GraphBLAS C API (section 3.5.4): mask, accumulate, replace, typecast
//                       into C, and C's new count (published by the last block: no memset before
//                       the launch).
// resident_products.cu: product: T = A (+).(x) u in one launch that takes its direction on the
//                       device, written into a scratch bitmap that the pointwise write step
//                       consumes and puts back at rest.
// resident_reduce.cu:   reduce_all: s = (+) of a vector's entries.
//
// Shared here: the mask test (host definitions MASK: 0 none, 1 structure, 2 value; MCOMP; TM,
// the mask's C type) and the entry lists' device helpers.
#pragma once
#include "common.cuh"

#ifndef MASK
#define MASK 0
#endif
#ifndef MCOMP
#define MCOMP 0
#endif

__device__ __forceinline__ bool allowed_at(i64 i, const bool* mp, const TM* mv) {
    bool a = true;
#if MASK == 1
    a = mp[i];
#elif MASK == 2
    a = mp[i] && (mv[i] != (TM)0);
#endif
#if MCOMP
    a = !a;
#endif
    return a;
}

// Entry lists. A vector of LIST_MIN positions or more (chosen on the host) also keeps the list
// of its present positions, unordered, in one of two int32 buffers, next to the bitmap. Its
// count array holds {count, list valid, current buffer, 0}: when valid, buffer [current] lists
// exactly the count present positions. An operation whose inputs are listed and few (at most
// `cap` positions to visit) walks the lists instead of the whole bitmap: its work is then
// O(entries), not O(size), which is what a traversal of a road network needs (a frontier of
// a thousand vertices among millions). The decision is taken on the device from the counts.

// A block's ticket: an atomic increment with acquire-release semantics at the device's scope
// (the block's writes, ordered before it by a barrier, are visible to whoever takes a later
// ticket), so no separate fences are needed.
__device__ __forceinline__ unsigned int ticket(unsigned int* p) {
    unsigned int old;
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
    return old;
}

// Ask for the line holding *p now (a hint: no register waits on it), so that a load of it
// behind a branch does not start a memory round trip of its own.
__device__ __forceinline__ void prefetch(const void* p) {
    asm volatile("prefetch.global.L1 [%0];" :: "l"(p));
}

// Append p to list[base + slot], the slots numbered by an atomic cursor, one atomic per warp.
__device__ __forceinline__ void append(int* list, i64 base, u64* cursor, i64 p) {
    const unsigned am = __activemask();
    const int leader = __ffs(am) - 1, lane = (int)lane_id();
    u64 start = 0;
    if (lane == leader) start = atomicAdd(cursor, (u64)__popc(am));
    start = __shfl_sync(am, start, leader);
    list[base + (i64)start + __popc(am & ((1u << lane) - 1u))] = (int)p;
}
