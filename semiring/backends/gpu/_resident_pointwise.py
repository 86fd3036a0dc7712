"""The element-wise resident operations on the GPU: ``ewise_add``, ``ewise_mult``, ``apply``,
``select``, ``assign`` and ``extract`` over the whole vector, each one ``pointwise`` launch that
computes T and applies the write step (:mod:`._resident_write`).
"""

from __future__ import annotations

import numpy as np

from ...core.scalar import Scalar
from ...ops._base import BinaryOp, IndexUnaryOp, UnaryOp
from ._resident_write import (
    _build_pointwise, _castable, _launch_pointwise, _on_gpu_vector, _operand, _operator_ok, _plan,
)


def ewise(kind, x, y, f, write):
    """``ewise_add`` (kind "add", the union) or ``ewise_mult`` ("mult", the intersection)."""
    if not (_on_gpu_vector(x) and _on_gpu_vector(y)):
        return NotImplemented
    driver = write.driver(x if kind == "mult" else None)
    plan = _plan(("ewise", kind, f, x._dtype, y._dtype, write.key(), driver),
                 lambda: _ewise_plan(kind, x, y, f, write, driver))
    if plan is None:
        return NotImplemented
    return _launch_pointwise(plan, x._size, write, x=_operand(x) if driver == 1 else x._resident_ptrs(),
                             y=y._resident_ptrs())


def _ewise_plan(kind, x, y, f, write, driver):
    tin = f.input_dtype(x.dtype, y.dtype)
    tz = f.output_dtype(x.dtype, y.dtype)
    if not (_operator_ok(f, tin) and _castable(x.dtype, tin) and _castable(y.dtype, tin)):
        return None
    if kind == "add" and not (_castable(x.dtype, tz) and _castable(y.dtype, tz)):
        return None
    both = f"TIN x = (TIN)xv[i], y = (TIN)yv[i]; tv = (TZ)({f.cuda});"
    if kind == "add":
        term = (f"bool a = xp[i], b = yp[i]; tp = a || b; if (a && b) {{ {both} }} "
                "else if (a) tv = (TZ)xv[i]; else if (b) tv = (TZ)yv[i];")
    else:
        term = f"tp = xp[i] && yp[i]; if (tp) {{ {both} }}"
    return _build_pointwise(f"ewise_{kind}", term, dict(TX=x.dtype, TY=y.dtype, TIN=tin), write, tz, driver=driver)


def apply(x, f, left, right, thunk, write):
    """``apply`` of a UnaryOp, a BinaryOp with a bound scalar, or an IndexUnaryOp."""
    if not _on_gpu_vector(x) or f.cuda is None:
        return NotImplemented
    s = left if left is not None else (right if right is not None else (0 if thunk is None else thunk))
    sd = np.asarray(s).dtype
    driver = write.driver(x)
    plan = _plan(("apply", f, left is not None, x._dtype, sd, write.key(), driver),
                 lambda: _apply_plan(x, f, left is not None, sd, write, driver))
    if plan is None:
        return NotImplemented
    return _launch_pointwise(plan, x._size, write, x=_operand(x) if driver == 1 else x._resident_ptrs(), scalar=s)


def _apply_plan(x, f, bound_left, sd, write, driver):
    if isinstance(f, UnaryOp):
        tin = f.domain or x.dtype
        tz = f.output_dtype(tin)
        ok = tin.kind == "f" or f.name in ("identity", "ainv", "one", "lnot", "abs") and not (
            f.name == "abs" and tin.kind in "bu") or not f.builtin
        if not (ok and _castable(x.dtype, tin)):
            return None
        term = f"tp = xp[i]; if (tp) {{ TIN x = (TIN)xv[i]; tv = (TZ)({f.cuda}); }}"
        return _build_pointwise("apply", term, dict(TX=x.dtype, TIN=tin), write, tz, driver=driver)
    if isinstance(f, BinaryOp):
        tin = f.input_dtype(sd, x.dtype) if bound_left else f.input_dtype(x.dtype, sd)
        tz = f.output_dtype(tin, tin)
        if not (_operator_ok(f, tin) and _castable(x.dtype, tin) and _castable(sd, tin)):
            return None
        pair = "(TIN)s, y = (TIN)xv[i]" if bound_left else "(TIN)xv[i], y = (TIN)s"
        term = f"tp = xp[i]; if (tp) {{ TIN x = {pair}; tv = (TZ)({f.cuda}); }}"
        return _build_pointwise("apply", term, dict(TX=x.dtype, TIN=tin, TS=sd), write, tz, driver=driver)
    if isinstance(f, IndexUnaryOp) and f.builtin and sd.kind in "biuf":
        tz = f.output_dtype(x.dtype)
        term = ("tp = xp[i]; if (tp) { TX x = xv[i]; TS thunk = s; i64 j = 0; (void)x; (void)j; (void)thunk; "
                f"tv = (TZ)({f.cuda}); }}")
        return _build_pointwise("apply", term, dict(TX=x.dtype, TS=sd), write, tz, driver=driver)
    return None


def select(x, f, thunk, write):
    """``select``: keep x's entries where the index-unary predicate holds."""
    if not (_on_gpu_vector(x) and f.cuda is not None and f.builtin):
        return NotImplemented
    sd = np.asarray(thunk).dtype
    driver = write.driver(x)
    plan = _plan(("select", f, x._dtype, sd, write.key(), driver), lambda: _select_plan(x, f, sd, write, driver))
    if plan is None:
        return NotImplemented
    return _launch_pointwise(plan, x._size, write, x=_operand(x) if driver == 1 else x._resident_ptrs(),
                             scalar=thunk)


def _select_plan(x, f, sd, write, driver):
    if f.output_dtype(x.dtype).kind != "b" or sd.kind not in "biuf":
        return None
    term = ("tp = false; if (xp[i]) { TX x = xv[i]; TS thunk = s; i64 j = 0; (void)x; (void)j; (void)thunk; "
            f"tp = (bool)({f.cuda}); tv = (TZ)x; }}")
    return _build_pointwise("select", term, dict(TX=x.dtype, TS=sd), write, x.dtype, driver=driver)


def assign(u, write):
    """``assign`` over every position (indices None): a scalar (Python, NumPy or Scalar) or a
    Vector written through the write step."""
    out = write.out
    if not _on_gpu_vector(out):
        return NotImplemented
    if _on_gpu_vector(u):
        driver = write.driver(u)
        plan = _plan(("assign", u._dtype, write.key(), driver), lambda: _build_pointwise(
            "assign", "tp = xp[i]; if (tp) tv = (TZ)xv[i];", dict(TX=u.dtype), write, u.dtype, driver=driver))
        if plan is None:
            return NotImplemented
        return _launch_pointwise(plan, out._size, write, x=_operand(u) if driver == 1 else u._resident_ptrs())
    if isinstance(u, Scalar):
        if u.device != "gpu":
            return NotImplemented
        sd = u.dtype
    else:
        sd = np.asarray(u).dtype
    if sd.kind not in "biuf":
        return NotImplemented
    driver = write.driver()
    plan = _plan(("assign scalar", sd, write.key(), driver), lambda: _build_pointwise(
        "assign", "tp = true; tv = (TZ)s;", dict(TS=sd), write, sd, driver=driver))
    if plan is None:
        return NotImplemented
    return _launch_pointwise(plan, out._size, write, scalar=u)


def extract(x, write):
    """``extract`` of a whole vector (indices None): the write step from x."""
    if not _on_gpu_vector(x):
        return NotImplemented
    driver = write.driver(x)
    plan = _plan(("extract", x._dtype, write.key(), driver), lambda: _build_pointwise(
        "extract", "tp = xp[i]; if (tp) tv = (TZ)xv[i];", dict(TX=x.dtype), write, x.dtype, driver=driver))
    if plan is None:
        return NotImplemented
    return _launch_pointwise(plan, x._size, write, x=_operand(x) if driver == 1 else x._resident_ptrs())
