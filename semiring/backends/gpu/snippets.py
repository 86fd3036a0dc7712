"""CUDA statements shared by the product kernels' specializations (``products`` and
``resident``): which operators a kernel computes exactly, and how a term ``z`` is folded into
an output slot by several threads at once (an atomic per monoid and type).
"""

from __future__ import annotations

import numpy as np

from .compiler import ctype

#: Word types of the compare-and-swap loop, by item size in bytes.
CAS = {4: "unsigned int", 8: "unsigned long long"}

#: Monoids with a hardware atomic per output type: (monoid, dtype) -> CUDA function and the
#: pointer/value type it takes. int64 plus goes through the unsigned 64-bit atomicAdd (two's
#: complement sums are the same bits).
NATIVE = {("plus", "int32"): ("atomicAdd", "int"), ("plus", "uint32"): ("atomicAdd", "unsigned int"),
          ("plus", "int64"): ("atomicAdd", "unsigned long long"),
          ("plus", "uint64"): ("atomicAdd", "unsigned long long"),
          ("plus", "float32"): ("atomicAdd", "float"), ("plus", "float64"): ("atomicAdd", "double"),
          ("min", "int32"): ("atomicMin", "int"), ("min", "uint32"): ("atomicMin", "unsigned int"),
          ("min", "int64"): ("atomicMin", "long long"), ("min", "uint64"): ("atomicMin", "unsigned long long"),
          ("max", "int32"): ("atomicMax", "int"), ("max", "uint32"): ("atomicMax", "unsigned int"),
          ("max", "int64"): ("atomicMax", "long long"), ("max", "uint64"): ("atomicMax", "unsigned long long")}

#: The CUDA expressions of the built-in monoids that NATIVE's atomics compute.
NATIVE_OPS = ("x + y", "min(x, y)", "max(x, y)")


def exact(op, dtype):
    """Whether ``op``'s CUDA snippet computes it exactly on ``dtype`` (division of integers
    differs from the algebra's: it is left to the generic code)."""
    return op.cuda is not None and not (op.name in ("div", "rdiv", "minv") and np.dtype(dtype).kind in "biu")


def native(monoid, tz):
    """(function, type) of the hardware atomic for this monoid and output type, or None."""
    return NATIVE.get((monoid.op.name, np.dtype(tz).name)) if monoid.op.cuda in NATIVE_OPS else None


def combine(monoid, tz, target):
    """A statement folding the term ``z`` into ``target`` (an lvalue such as ``tv[jj]``)
    safely under concurrent writers, or None where no atomic fits the type. Hardware atomics
    where they exist: a compare-and-swap loop serializes under contention (a web graph's hub
    with 10**4 in-links: 200 ms for one plus.second product, against 1 ms)."""
    tz = np.dtype(tz)
    if monoid.is_any:
        return f"{target} = z;"
    if tz.kind == "b" and monoid.name in ("lor", "plus", "max"):
        return f"if (z) {target} = true;"
    if tz.kind == "b" and monoid.name in ("land", "times", "min"):
        return f"if (!z) {target} = false;"
    hit = native(monoid, tz)
    if hit is not None:
        fn, at = hit
        return f"{fn}(({at}*)&{target}, ({at})z);"
    w = CAS.get(tz.itemsize)
    if w is None:
        return None
    ct = ctype(tz)
    return (f"{{ {w}* addr = ({w}*)&{target}; {w} old = *addr, assumed;"
            f" do {{ assumed = old; {ct} x = *({ct}*)&assumed, y = z; {ct} nv = ({ct})({monoid.op.cuda});"
            f" old = atomicCAS(addr, assumed, *({w}*)&nv); }} while (assumed != old); }}")


__all__ = ["CAS", "NATIVE", "NATIVE_OPS", "combine", "exact", "native"]
