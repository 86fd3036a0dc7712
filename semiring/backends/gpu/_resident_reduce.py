"""The resident reductions on the GPU: ``reduce_scalar`` (one ``reduce_all`` launch, then one
read of the value) and the row or column reductions of a matrix into a vector (a pull product
with a full vector, then the write step).
"""

from __future__ import annotations

import threading

import numpy as np

from ... import _host
from ...core.vector import Vector
from ...ops.binary import first, second
from ...ops.semiring import Semiring
from ._resident_products import matvec
from ._resident_write import (
    MAX_SIZE, _castable, _compile, _cp, _ctype, _device, _on_gpu_vector, _plan, _scratch,
)
from .launch import launch


def reduce_scalar(x, monoid):
    """``s = (+) x(i)`` of a GPU vector: one launch, then one read of the value (the caller
    asked for a host scalar). NotImplemented where the kernel cannot be exact."""
    if not _on_gpu_vector(x) or not (monoid.is_any or monoid.op.cuda is not None):
        return NotImplemented
    d = np.dtype(monoid.domain_for(x._dtype))
    plan = _plan(("reduce", monoid, x._dtype), lambda: _reduce_plan(x, monoid, d))
    if plan is None:
        return NotImplemented
    kern, ident = plan
    cp = _cp()
    dev = _device()
    grid, block = dev.grid(x._size)
    key = (cp.cuda.runtime.getDevice(), threading.get_ident(), "reduce", d)
    parts = _scratch.get(key)
    if parts is None:
        parts = (cp.empty(dev.cap, dtype=d), cp.empty(dev.cap, dtype=bool), cp.empty(1, dtype=d))
        _scratch[key] = parts
    present, dense, _ = x._resident()
    launch(kern, grid, block, (np.int64(x._size), present, dense, parts[0], parts[1], dev.accumulator(), parts[2],
                               ident))
    return d.type(_host.read(parts[2])[0])


def _reduce_plan(x, m, d):
    if not _castable(x.dtype, d) or (not m.is_any and m.op.name in ("div", "rdiv") and d.kind in "biu"):
        return None
    ident = m.identity_for(d)
    defs = dict(TX=_ctype(x.dtype), TZ=_ctype(d), IS_ANY=int(m.is_any),
                MONOID="(y)" if m.is_any else f"({m.op.cuda})", HAS_TERMINAL=0, TERMINAL=0)
    kern = _compile("resident_reduce.cu", "reduce_all", defs)
    return None if kern is None else (kern, d.type(0 if ident is None else ident))


def reduce_lines(A, monoid, columns, write):
    """``w(i) = (+)_j A(i,j)`` (rows; ``columns``: ``w(j) = (+)_i A(i,j)``) with the write step:
    the pull product ``A (+).first u`` (columns: ``u (+).second A``) with u full, whose terms
    are A's entries of the line (a line without entries gives no term, so it stays absent):
    one launch and the write step, no host read. NotImplemented where the reduction's type is
    not the product's."""
    n_in = A._nrows if columns else A._ncols
    if n_in > MAX_SIZE:
        return NotImplemented
    s = _line_semirings.get((monoid, columns))
    if s is None:
        s = _line_semirings.setdefault((monoid, columns), Semiring(monoid, second if columns else first))
    try:
        args = (np.dtype(bool), A._dtype) if columns else (A._dtype, np.dtype(bool))
        same = np.dtype(s.output_dtype(*args)) == np.dtype(monoid.domain_for(A._dtype))
    except Exception:  # noqa: BLE001 - a type the product refuses: the generic path says why
        return NotImplemented
    if not same:
        return NotImplemented
    return matvec(A, _full(n_in), s, write, "pull", columns)


_line_semirings = {}


def _full(n):
    """A read-only bool vector of n positions, all present (per device), for reductions."""
    cp = _cp()
    key = (cp.cuda.runtime.getDevice(), "full", n)
    v = _scratch.get(key)
    if v is None:
        v = Vector.from_dense(cp.ones(n, dtype=bool))
        v._resident()
        v = _scratch.setdefault(key, v)
    return v
