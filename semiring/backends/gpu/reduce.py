"""Segmented reduction on the GPU: ``out[r] = op-fold of values[starts[r]:starts[r+1]]``.

plus, min and max on numbers use CuPy's atomic scatter (``cupy.add.at``, ``cupy.minimum.at``,
``cupy.maximum.at``); every other operator with a CUDA snippet gets ``kernels/seg_fold.cu``
specialized by it, compiled once per (snippet, dtype) and cached; an operator without a snippet (a user's Python
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

import numpy as np

from ..array.reduce import host_runs
from .compiler import ctype, kernel


def _defines(snippet, dtype):
    """Definitions specializing ``kernels/seg_fold.cu``: the values' C type and the snippet."""
    return {"TV": ctype(dtype), "SNIPPET": snippet}


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
        return cp.asarray(host_runs(op, cp.asnumpy(values), cp.asnumpy(starts)))
    out = cp.empty(nseg, dtype=values.dtype)
    if nseg:
        block = 256
        fold = kernel("seg_fold.cu", "seg_fold", _defines(op.cuda, values.dtype))
        fold(((nseg + block - 1) // block,), (block,),
             (values, starts.astype(cp.int64), np.int64(nseg), np.int64(n), out))
    return out
