"""Segmented reduction on the GPU: ``out[r] = op-fold of values[starts[r]:starts[r+1]]``.

plus, min and max on numbers use CuPy's atomic scatter (``cupy.add.at``, ``cupy.minimum.at``,
``cupy.maximum.at``); every other operator with a CUDA snippet gets a kernel generated from it, compiled
once per (snippet, dtype) and cached; an operator without a snippet (a user's Python
function) is reduced on the host.
"""

from __future__ import annotations

import numpy as np

CTYPE = {
    "bool": "bool", "int8": "signed char", "int16": "short", "int32": "int", "int64": "long long",
    "uint8": "unsigned char", "uint16": "unsigned short", "uint32": "unsigned int",
    "uint64": "unsigned long long", "float32": "float", "float64": "double",
}

_SOURCE = r"""
extern "C" __global__ void seg_fold(const T* vals, const long long* starts, long long nseg, long long n, T* out) {
    long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nseg) return;
    long long a = starts[s], b = (s + 1 < nseg) ? starts[s + 1] : n;
    T acc = vals[a];
    for (long long p = a + 1; p < b; ++p) {
        T x = acc, y = vals[p];
        acc = (T)(SNIPPET);
    }
    out[s] = acc;
}
"""
_cache = {}


def _kernel(cp, snippet, dtype):
    key = (snippet, dtype.name, cp.cuda.runtime.getDevice())
    if key not in _cache:
        src = _SOURCE.replace("SNIPPET", snippet).replace("T*", CTYPE[dtype.name] + "*").replace(
            "T acc", CTYPE[dtype.name] + " acc").replace("T x", CTYPE[dtype.name] + " x").replace(
            "(T)", "(" + CTYPE[dtype.name] + ")")
        _cache[key] = cp.RawKernel(src, "seg_fold")
    return _cache[key]


def segment_fold(op, values, starts):
    """Fold each run of ``values`` (cupy) with ``op``; ``starts`` are the runs' first offsets."""
    import cupy as cp

    nseg, n = int(starts.shape[0]), int(values.shape[0])
    kind = values.dtype.kind
    if op.name in ("plus", "min", "max") and kind in "iuf" and values.dtype.itemsize >= 4:
        seg = cp.searchsorted(starts, cp.arange(n, dtype=starts.dtype), side="right") - 1
        if op.name == "plus":
            out = cp.zeros(nseg, dtype=values.dtype)
            cp.add.at(out, seg, values)
        else:
            out = values[starts].copy()
            (cp.minimum if op.name == "min" else cp.maximum).at(out, seg, values)
        return out
    if op.cuda is None:
        from ...ops.monoid import reduce_runs

        return cp.asarray(reduce_runs(op, cp.asnumpy(values), cp.asnumpy(starts)))
    out = cp.empty(nseg, dtype=values.dtype)
    if nseg:
        block = 256
        _kernel(cp, op.cuda, values.dtype)(((nseg + block - 1) // block,), (block,),
                                           (values, starts.astype(cp.int64), np.int64(nseg), np.int64(n), out))
    return out
