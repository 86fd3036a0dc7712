// The resident reduction of a vector to a scalar (resident.cuh): s = (+) of x's entries.
//
// Host definitions: TX TZ (C types), MONOID (in x, y), IS_ANY, HAS_TERMINAL, TERMINAL.
#include "common.cuh"
#include "resident_fold.cuh"

// Each block folds its threads' (found, value) pairs and leaves its pair in partial[]; the last
// block to finish folds them in order into result[0] (the identity when x has no entry) and
// puts the ticket (acc[1]) back at rest.
extern "C" __global__ void reduce_all(i64 n, const bool* xp, const TX* xv, TZ* partial, bool* pfound,
                                      i64* acc, TZ* result, TZ identity) {
    bool found = false;
    TZ a = (TZ)0;
    GRID_STRIDE(i, n) {
        if (xp[i]) fold(found, a, true, (TZ)xv[i]);
    }
    block_fold(found, a);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = a;
        pfound[blockIdx.x] = found;
    }
    if (last_block((unsigned int*)(acc + 1)) && threadIdx.x == 0) {
        bool tf = false;
        TZ total = (TZ)0;
        for (unsigned int k = 0; k < gridDim.x; ++k)
            fold(tf, total, ((volatile bool*)pfound)[k], ((volatile TZ*)partial)[k]);
        result[0] = tf ? total : identity;
    }
}
