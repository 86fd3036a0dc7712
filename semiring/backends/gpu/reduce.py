"""Segmented reduction on the GPU: ``out[r] = op-fold of values[starts[r]:starts[r+1]]``.

plus, min and max on numbers use CuPy's atomic scatter (``cupy.add.at``, ``cupy.minimum.at``,
``cupy.maximum.at``); every other operator with a CUDA snippet gets a kernel generated from it, compiled
once per (snippet, dtype) and cached; an operator without a snippet (a user's Python
function) is reduced on the host.

min and max on floats are not given to ``cupy.minimum.at`` / ``cupy.maximum.at``: on float64
they round to float32 precision (seen with CuPy 14.2 on an H200: every merged value off by up
to 6e-8). They scatter instead on integer keys with the floats' order (the IEEE bit pattern,
its magnitude bits flipped for negative numbers), where integer atomics are exact; NaN takes
the key that loses, so a run's result is NaN only when all its terms are NaN (fmin / fmax, as
NumPy's reduceat on the CPU). plus on floats stays atomic: its rounding depends on the order
of the terms, which the GraphBLAS specification leaves open.
"""

from __future__ import annotations

import threading

import numpy as np

from ..._once import once_item

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
_lock = threading.RLock()  # one compilation per key when threads ask together (semiring._once)


def _kernel(cp, snippet, dtype):
    key = (snippet, dtype.name, cp.cuda.runtime.getDevice())

    def build():
        src = _SOURCE.replace("SNIPPET", snippet).replace("T*", CTYPE[dtype.name] + "*").replace(
            "T acc", CTYPE[dtype.name] + " acc").replace("T x", CTYPE[dtype.name] + " x").replace(
            "(T)", "(" + CTYPE[dtype.name] + ")")
        return cp.RawKernel(src, "seg_fold")

    return once_item(_cache, key, build, _lock)


def _ordered_keys(cp, values, nan_loses_to):
    """Signed integer keys ordered as the floats ``values`` (-0.0 just below +0.0); NaN gets the
    extreme key that never wins a ``nan_loses_to`` ("min" or "max") against a number."""
    itype = cp.int64 if values.dtype.itemsize == 8 else cp.int32
    info = cp.iinfo(itype)
    bits = values.view(itype)
    keys = bits ^ ((bits >> (8 * values.dtype.itemsize - 1)) & itype(info.max))
    return cp.where(cp.isnan(values), itype(info.max if nan_loses_to == "min" else info.min), keys)


def _from_ordered_keys(cp, keys, dtype):
    """The floats of ``_ordered_keys`` (the NaN keys map back to NaN bit patterns)."""
    itype = keys.dtype.type
    bits = keys ^ ((keys >> (8 * keys.dtype.itemsize - 1)) & itype(cp.iinfo(itype).max))
    return bits.view(dtype)


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
            return out
        ufunc = cp.minimum if op.name == "min" else cp.maximum
        if kind == "f":
            keys = _ordered_keys(cp, values, nan_loses_to=op.name)
            out = keys[starts].copy()
            ufunc.at(out, seg, keys)
            return _from_ordered_keys(cp, out, values.dtype)
        out = values[starts].copy()
        ufunc.at(out, seg, values)
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
