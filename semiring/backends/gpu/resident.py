"""Vector operations that stay on the GPU: no host round trip, one generated kernel each.

Every vector an operation here touches is kept in bitmap form (a presence array and a dense
value array) with its entry count in device memory (``Vector._resident``). The kernels in
``kernels/resident.cu`` are specialized per (operation, operator snippets, dtypes, mask
kind, accumulator, replace, device) and cached by :mod:`.compiler`:

- ``ewise_add``, ``ewise_mult``, ``apply``, ``select``, ``assign`` and ``extract`` over the
  whole vector: one ``pointwise`` launch computes T and applies the write step
  ``C<M, replace> = accum(C, T)`` (GraphBLAS C API 2.0, 3.5.4) and C's new count;
- ``mxv``/``vxm``: a ``push`` and a ``pull`` launch that each decide on the device, from the
  input's and the mask's counts, which of them runs (Beamer, Asanovic, Patterson,
  "Direction-optimizing breadth-first search", SC 2012; Yang, Buluc, Owens, "Implementing
  push-pull efficiently in GraphBLAS", ICPP 2018), writing T into a scratch bitmap, then the
  ``pointwise`` write step, which also returns the scratch to rest.

Each entry point returns ``NotImplemented`` when it cannot compute the operation exactly (a
Matrix operand, an operator without a CUDA snippet, a cast C would do differently from
NumPy, a ``trace`` request, ...); the caller then runs the generic array code.
"""

from __future__ import annotations

import threading

import numpy as np

from ..._once import once_item
from ...core._rowptr import is_hyper
from . import compiler
from .reduce import CTYPE

#: Vectors larger than this stay on the generic path (a bitmap costs (1 + itemsize) bytes per
#: position, whatever the number of entries).
MAX_SIZE = 1 << 31

#: Push when (entries of u x mean row degree) < PULL_BIAS x (allowed outputs x mean degree).
#: Pull stops at the monoid's terminal value (the first term for ``any``), so it usually visits
#: far fewer terms than its estimate; push pays an atomic per term.
PULL_BIAS = 1.0

#: Each launch uses at most this many blocks per multiprocessor (grid-stride loops cover the rest).
BLOCKS_PER_SM = 8
_BLOCK = 256

_lock = threading.RLock()
_scratch = {}
_dummies = {}
_failed = set()


def _cp():
    import cupy

    return cupy


def _sms():
    cp = _cp()
    dev = cp.cuda.runtime.getDevice()
    return once_item(_dummies, ("sms", dev), lambda: cp.cuda.Device(dev).attributes["MultiProcessorCount"], _lock)


def _grid(threads):
    blocks = max(1, min((int(threads) + _BLOCK - 1) // _BLOCK, _sms() * BLOCKS_PER_SM))
    return (blocks,), (_BLOCK,)


def _dummy():
    cp = _cp()
    dev = cp.cuda.runtime.getDevice()
    return once_item(_dummies, ("dummy", dev), lambda: cp.zeros(1, dtype=np.uint64), _lock)


_NULL = np.uint64(0)


def _ctype(d):
    return CTYPE[np.dtype(d).name]


def _castable(src, dst):
    """A C cast from ``src`` to ``dst`` gives what NumPy's checked cast gives, for every value."""
    return np.can_cast(np.dtype(src), np.dtype(dst), "safe")


def _on_gpu_vector(x):
    from ...core.vector import Vector

    return isinstance(x, Vector) and x.device == "gpu" and x.size <= MAX_SIZE and x.dtype.name in CTYPE


# -- the write step --------------------------------------------------------------------------
class WriteStep:
    """Definitions and arguments of the write step ``out<mask, replace> = accum(out, T)``."""

    def __init__(self, out, mask, accum, replace, tz=None):
        self.out, self.mask, self.accum, self.replace = out, mask, accum, replace
        self.tz = None if tz is None else np.dtype(tz)

    def ok(self, tc):
        """Can the kernels write T (of dtype tz) into a result of dtype ``tc`` exactly?"""
        m = self.mask
        if m is not None and not _on_gpu_vector(m.parent):
            return False
        if self.accum is None:
            return _castable(self.tz, tc)
        a = self.accum
        if a.cuda is None or (a.name in ("div", "rdiv") and np.dtype(tc).kind in "biu"):
            return False
        tai = a.input_dtype(tc, self.tz)
        tao = a.output_dtype(tc, self.tz)
        return _castable(tc, tai) and _castable(self.tz, tai) and _castable(tao, tc)

    def defines(self, tc):
        m, a = self.mask, self.accum
        d = {"TC": _ctype(tc), "TZ": _ctype(self.tz), "OLD": int(self.out is not None),
             "REPLACE": int(bool(self.replace)), "ACCUM": int(a is not None)}
        if m is None:
            d.update(MASK=0, MCOMP=0, TM="bool")
        else:
            d.update(MASK=1 if m.structural else 2, MCOMP=int(m.complement), TM=_ctype(m.parent.dtype))
        if a is not None:
            d.update(TAI=_ctype(a.input_dtype(tc, self.tz)), TAO=_ctype(a.output_dtype(tc, self.tz)),
                     ACCUM_OP=f"({a.cuda})")
        return d

    def mask_args(self):
        """(presence, values, device count) of the mask's vector, or dummies."""
        if self.mask is None:
            d = _dummy()
            return d, d, d
        return self.mask.parent._resident()


def _pointwise(what, n, term, defines, write, x=None, y=None, scalar=None, thunk=0, reset_x=None):
    """Launch the fused ``pointwise`` kernel: T from ``term`` (a C statement), then the write
    step into ``write.out`` (in place) or into a new vector. Returns the result, or
    NotImplemented if the kernel cannot be built."""
    from ...core.vector import Vector

    cp = _cp()
    out = write.out
    tc = np.dtype(out.dtype if out is not None else write.tz)
    if not write.ok(tc):
        return NotImplemented
    d = dict(POINTWISE=1, RESET_X=int(reset_x is not None), **write.defines(tc))
    d.update(defines)
    d["TERM"] = "{ " + term + " }"
    d.setdefault("TX", "bool")
    d.setdefault("TY", "bool")
    d.setdefault("TS", "bool")
    kern = _kernel(what, d)
    if kern is None:
        return NotImplemented
    dummy = _dummy()
    xp_, xv = (x[0], x[1]) if x is not None else (dummy, dummy)
    yp_, yv = (y[0], y[1]) if y is not None else (dummy, dummy)
    sptr, sval = _scalar_args(scalar, defines.get("TS_DTYPE"))
    mp, mv, _ = write.mask_args()
    if out is not None:
        cp_, cv, cnt = out._resident()
    else:
        cp_, cv, cnt = cp.empty(n, dtype=bool), cp.empty(n, dtype=tc), cp.empty(1, dtype=np.int64)
    stream = cp.cuda.get_current_stream()
    cp.cuda.runtime.memsetAsync(cnt.data.ptr, 0, 8, stream.ptr)
    reset = np.dtype(defines.get("TX_DTYPE", "bool")).type(0 if reset_x is None else reset_x)
    kern(*_grid(n), (np.int64(n), xp_, xv, yp_, yv, sptr, sval, np.int64(thunk), mp, mv, cp_, cv, cnt, reset))
    if out is None:
        return Vector._from_resident(tc, cp_, cv, cnt)
    out._wrote_resident()
    return out


def _scalar_args(scalar, ts):
    """(device pointer or NULL, host value) for the kernel's scalar slot."""
    from ...core.scalar import Scalar

    if scalar is None:
        return _NULL, np.bool_(False)
    if isinstance(scalar, Scalar):
        return scalar._array, np.dtype(ts).type(0)
    return _NULL, np.dtype(ts).type(scalar)


def _kernel(what, defines):
    """The compiled kernel, or None if NVRTC refuses this specialization (remembered)."""
    key = (what, tuple(sorted(defines.items())))
    if key in _failed:
        return None
    name = "pointwise" if "POINTWISE" in defines else what
    try:
        return compiler.kernel("resident.cu", name, defines)
    except Exception as exc:  # noqa: BLE001 - a snippet NVRTC rejects: the generic path computes it
        if type(exc).__name__ not in ("CompileException", "NVRTCError"):
            raise
        _failed.add(key)
        return None


def _types(**dtypes):
    """Type definitions for the kernel (C names) and their NumPy names (``*_DTYPE``)."""
    d = {}
    for k, v in dtypes.items():
        d[k] = _ctype(v)
        d[k + "_DTYPE"] = np.dtype(v).name
    return d


def _operator_ok(op, tin):
    return op.cuda is not None and not (op.name in ("div", "rdiv", "minv") and np.dtype(tin).kind in "biu")


# -- element-wise ----------------------------------------------------------------------------
def ewise(kind, x, y, f, write):
    """``ewise_add`` (kind "add", the union) or ``ewise_mult`` ("mult", the intersection)."""
    if not (_on_gpu_vector(x) and _on_gpu_vector(y)):
        return NotImplemented
    tin = f.input_dtype(x.dtype, y.dtype)
    tz = f.output_dtype(x.dtype, y.dtype)
    if not (_operator_ok(f, tin) and _castable(x.dtype, tin) and _castable(y.dtype, tin)):
        return NotImplemented
    if kind == "add" and not (_castable(x.dtype, tz) and _castable(y.dtype, tz)):
        return NotImplemented
    write.tz = np.dtype(tz)
    both = f"TIN x = (TIN)xv[i], y = (TIN)yv[i]; tv = (TZ)({f.cuda});"
    if kind == "add":
        term = (f"bool a = xp[i], b = yp[i]; tp = a || b; if (a && b) {{ {both} }} "
                "else if (a) tv = (TZ)xv[i]; else if (b) tv = (TZ)yv[i];")
    else:
        term = f"tp = xp[i] && yp[i]; if (tp) {{ {both} }}"
    d = _types(TX=x.dtype, TY=y.dtype, TIN=tin)
    return _pointwise(f"ewise_{kind}", x.size, term, d, write, x=x._resident(), y=y._resident())


def apply(x, f, left, right, thunk, write):
    """``apply`` of a UnaryOp, a BinaryOp with a bound scalar, or an IndexUnaryOp."""
    from ...ops._base import BinaryOp, IndexUnaryOp, UnaryOp

    if not _on_gpu_vector(x) or f.cuda is None:
        return NotImplemented
    if isinstance(f, UnaryOp):
        tin = f.domain or x.dtype
        tz = f.output_dtype(tin)
        ok = tin.kind == "f" or f.name in ("identity", "ainv", "one", "lnot", "abs") and not (
            f.name == "abs" and tin.kind in "bu") or not f.builtin
        if not (ok and _castable(x.dtype, tin)):
            return NotImplemented
        term = f"tp = xp[i]; if (tp) {{ TIN x = (TIN)xv[i]; tv = (TZ)({f.cuda}); }}"
        d, scalar = _types(TX=x.dtype, TIN=tin), None
    elif isinstance(f, BinaryOp):
        s = left if left is not None else right
        sd = np.asarray(s).dtype
        tin = f.input_dtype(sd, x.dtype) if left is not None else f.input_dtype(x.dtype, sd)
        tz = f.output_dtype(tin, tin)
        if not (_operator_ok(f, tin) and _castable(x.dtype, tin) and _castable(sd, tin)):
            return NotImplemented
        pair = "(TIN)s, y = (TIN)xv[i]" if left is not None else "(TIN)xv[i], y = (TIN)s"
        term = f"tp = xp[i]; if (tp) {{ TIN x = {pair}; tv = (TZ)({f.cuda}); }}"
        d, scalar = _types(TX=x.dtype, TIN=tin, TS=sd), s
    elif isinstance(f, IndexUnaryOp):
        th = 0 if thunk is None else thunk
        sd = np.asarray(th).dtype
        tz = f.output_dtype(x.dtype)
        if not (f.builtin and sd.kind in "biuf"):
            return NotImplemented
        term = ("tp = xp[i]; if (tp) { TX x = xv[i]; TS thunk = s; i64 j = 0; (void)x; (void)j; (void)thunk; "
                f"tv = (TZ)({f.cuda}); }}")
        d, scalar = _types(TX=x.dtype, TS=sd), th
    else:
        return NotImplemented
    write.tz = np.dtype(tz)
    return _pointwise("apply", x.size, term, d, write, x=x._resident(), scalar=scalar)


def select(x, f, thunk, write):
    """``select``: keep x's entries where the index-unary predicate holds."""
    if not (_on_gpu_vector(x) and f.cuda is not None and f.builtin):
        return NotImplemented
    if f.output_dtype(x.dtype).kind != "b":
        return NotImplemented
    sd = np.asarray(thunk).dtype
    if sd.kind not in "biuf":
        return NotImplemented
    write.tz = np.dtype(x.dtype)
    term = ("tp = false; if (xp[i]) { TX x = xv[i]; TS thunk = s; i64 j = 0; (void)x; (void)j; (void)thunk; "
            f"tp = (bool)({f.cuda}); tv = (TZ)x; }}")
    return _pointwise("select", x.size, term, _types(TX=x.dtype, TS=sd), write, x=x._resident(), scalar=thunk)


def assign(u, write):
    """``assign`` over every position (indices None): a scalar (Python, NumPy or Scalar) or a
    Vector written through the write step."""
    from ...core.scalar import Scalar

    out = write.out
    if not _on_gpu_vector(out):
        return NotImplemented
    if _on_gpu_vector(u):
        write.tz = np.dtype(u.dtype)
        return _pointwise("assign", out.size, "tp = xp[i]; if (tp) tv = (TZ)xv[i];", _types(TX=u.dtype), write,
                          x=u._resident())
    if isinstance(u, Scalar):
        if u.device != "gpu":
            return NotImplemented
        sd = u.dtype
    else:
        sd = np.asarray(u).dtype
    if sd.kind not in "biuf":
        return NotImplemented
    write.tz = np.dtype(sd)
    return _pointwise("assign", out.size, "tp = true; tv = (TZ)s;", _types(TS=sd), write, scalar=u)


def extract(x, write):
    """``extract`` of a whole vector (indices None): the write step from x."""
    if not _on_gpu_vector(x):
        return NotImplemented
    write.tz = np.dtype(x.dtype)
    return _pointwise("extract", x.size, "tp = xp[i]; if (tp) tv = (TZ)xv[i];", _types(TX=x.dtype), write,
                      x=x._resident())


# -- products --------------------------------------------------------------------------------
_CAS = {4: "unsigned int", 8: "unsigned long long"}
_NATIVE = {("plus", "int32"): ("atomicAdd", "int"), ("plus", "uint32"): ("atomicAdd", "unsigned int"),
           ("plus", "int64"): ("atomicAdd", "unsigned long long"),
           ("plus", "uint64"): ("atomicAdd", "unsigned long long"),
           ("plus", "float32"): ("atomicAdd", "float"), ("plus", "float64"): ("atomicAdd", "double"),
           ("min", "int32"): ("atomicMin", "int"), ("min", "uint32"): ("atomicMin", "unsigned int"),
           ("min", "int64"): ("atomicMin", "long long"), ("min", "uint64"): ("atomicMin", "unsigned long long"),
           ("max", "int32"): ("atomicMax", "int"), ("max", "uint32"): ("atomicMax", "unsigned int"),
           ("max", "int64"): ("atomicMax", "long long"), ("max", "uint64"): ("atomicMax", "unsigned long long")}


def _combine(m, tz):
    """The push kernel's statement combining term ``z`` into ``tv[jj]`` (None: no atomic fits)."""
    ct = _ctype(tz)
    if m.is_any:
        return "tv[jj] = z;"
    if tz.kind == "b" and m.name in ("lor", "plus", "max"):
        return "if (z) tv[jj] = true;"
    if tz.kind == "b" and m.name in ("land", "times", "min"):
        return "if (!z) tv[jj] = false;"
    hit = _NATIVE.get((m.op.name, tz.name)) if m.op.cuda in ("x + y", "min(x, y)", "max(x, y)") else None
    if hit is not None:
        fn, at = hit
        return f"{fn}(({at}*)&tv[jj], ({at})z);"
    w = _CAS.get(tz.itemsize)
    if w is None:
        return None
    return (f"{{ {w}* addr = ({w}*)&tv[jj]; {w} old = *addr, assumed;"
            f" do {{ assumed = old; {ct} x = *({ct}*)&assumed, y = z; {ct} nv = ({ct})({m.op.cuda});"
            f" old = atomicCAS(addr, assumed, *({w}*)&nv); }} while (assumed != old); }}")


def _scratch_for(n, tz, rest):
    """The product's scratch bitmap T for (size, dtype, value at rest) on this stream and thread:
    all absent and equal to ``rest`` between operations (the write step puts it back)."""
    cp = _cp()
    stream = cp.cuda.get_current_stream().ptr
    key = (cp.cuda.runtime.getDevice(), stream, threading.get_ident(), n, tz.name, rest.tobytes())

    def build():
        return cp.zeros(n, dtype=bool), cp.full(n, rest, dtype=tz)

    return once_item(_scratch, key, build, _lock)


def matvec(A, u, semiring, write, direction, is_vxm):
    """``mxv``/``vxm`` of a GPU Matrix and a GPU Vector, on the device from end to end."""
    from ..gpu import products as _products

    if not (_on_gpu_vector(u) and A.device == "gpu" and direction in ("auto", "push", "pull")):
        return NotImplemented
    if is_hyper(A._rowptr) or A.nrows > MAX_SIZE or A.ncols > MAX_SIZE:
        return NotImplemented
    m, f = semiring.monoid, semiring.multiply
    da, du = A.dtype, u.dtype
    tz = semiring.output_dtype(da, du) if not is_vxm else semiring.output_dtype(du, da)
    can_pull = _products.supports(semiring, da, du, push=False) if not is_vxm else \
        _products.supports(semiring, du, da, push=False)
    combine = _combine(m, tz) if m.is_any or m.op.cuda is not None else None
    can_push = combine is not None and can_pull
    if direction == "auto":
        code = 0 if (can_push and can_pull) else (1 if can_push else 2)
    else:
        code = 1 if direction == "push" else 2
    if (code == 1 and not can_push) or (code == 2 and not can_pull):
        return NotImplemented
    write.tz = np.dtype(tz)
    n_in, n_out = (A.nrows, A.ncols) if is_vxm else (A.ncols, A.nrows)
    tc = np.dtype(write.out.dtype) if write.out is not None else tz
    if not write.ok(tc):
        return NotImplemented
    rest = np.asarray(m.identity_for(tz) if not m.is_any else 0, dtype=tz)
    tin = f.input_dtype(du, da) if is_vxm else f.input_dtype(da, du)
    if f.positional:
        tin = np.dtype(np.int64)
    mk = write.defines(tc)
    base = dict(PRODUCT=1, TZ=_ctype(tz), TIN=_ctype(tin), TU=_ctype(du), TA=_ctype(da), TM=mk["TM"],
                MASK=mk["MASK"], MCOMP=mk["MCOMP"], MULT=f"({f.cuda})",
                MONOID="(y)" if m.is_any else f"({m.op.cuda})", IS_ANY=int(m.is_any),
                DIRECTION=code, PULL_BIAS=repr(float(PULL_BIAS)), COMBINE=combine or ";")
    term = None if m.is_any else m.terminal_for(tz)
    base.update(HAS_TERMINAL=int(term is not None), TERMINAL=_literal(term, tz))
    tp, tv = _scratch_for(n_out, tz, rest)
    present, dense, ucnt = u._resident()
    mp, mv, mcnt = write.mask_args()
    nnz = A.nvals
    in_degree, out_degree = nnz / max(n_in, 1), nnz / max(n_out, 1)
    if code in (0, 1):  # push expands rows of A (vxm) or of A^T (mxv)
        B = A if is_vxm else A.T
        kern = _kernel("push", dict(base, FLIP=int(not is_vxm), IPT=_ctype(B._indptr.dtype),
                                    IXT=_ctype(B._indices.dtype), ROW_WARP=1))
        if kern is None:
            return NotImplemented
        pargs = (B._indptr, B._indices, B._values, present, dense, ucnt, mp, mv, mcnt, tp, tv,
                 np.float64(in_degree), np.float64(out_degree))
    if code in (0, 2):  # pull walks rows of A (mxv) or of A^T (vxm)
        P = A.T if is_vxm else A
        warp = nnz >= 8 * max(n_out, 1)
        lkern = _kernel("pull", dict(base, FLIP=int(is_vxm), IPT=_ctype(P._indptr.dtype),
                                     IXT=_ctype(P._indices.dtype), ROW_WARP=int(warp)))
        if lkern is None:
            return NotImplemented
        largs = (P._indptr, P._indices, P._values, present, dense, ucnt, mp, mv, mcnt, tp, tv,
                 np.float64(in_degree), np.float64(out_degree))
    if code in (0, 1):
        kern(*_grid(n_in), (np.int64(n_in), np.int64(n_out), *pargs))
    if code in (0, 2):
        lkern(*_grid(n_out * (32 if warp else 1)), (np.int64(n_out), np.int64(n_in), *largs))
    # the write step reads T and puts the scratch back at rest
    return _pointwise("product_write", n_out, "tp = xp[i]; if (tp) tv = xv[i];",
                      _types(TX=tz), write, x=(tp, tv), reset_x=rest)


def _literal(value, dtype):
    """A C literal of ``value`` (a NumPy scalar of ``dtype``) or 0."""
    if value is None:
        return "0"
    d = np.dtype(dtype)
    if d.kind == "b":
        return "true" if bool(value) else "false"
    if d.kind == "f":
        v = float(value)
        if np.isinf(v):
            return "(1.0/0.0)" if v > 0 else "(-1.0/0.0)"
        return repr(v)
    if d.kind == "u":
        return f"{int(value)}ULL"
    return f"{int(value)}LL"
