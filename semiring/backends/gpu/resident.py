"""Vector operations that stay on the GPU: no host round trip, one generated kernel each.

Every vector an operation here touches is kept in bitmap form (a presence array and a dense
value array) with its entry count in device memory (``Vector._resident``). The kernels in
``kernels/resident.cu`` are specialized per (operation, operator snippets, dtypes, mask
kind, accumulator, replace, device) and cached by :mod:`.compiler`:

- ``ewise_add``, ``ewise_mult``, ``apply``, ``select``, ``assign`` and ``extract`` over the
  whole vector: one ``pointwise`` launch computes T and applies the write step
  ``C<M, replace> = accum(C, T)`` (GraphBLAS C API 2.0, 3.5.4) and C's new count;
- ``mxv``/``vxm``: one ``product`` launch that decides on the device, from the input's and
  the mask's counts (on skewed matrices, from the exact edges of the input's entries, summed
  by an ``estimate`` launch), whether to push or pull (Beamer, Asanovic, Patterson,
  "Direction-optimizing breadth-first search", SC 2012; Yang, Buluc, Owens, "Implementing
  push-pull efficiently in GraphBLAS", ICPP 2018), writing T into a scratch bitmap, then the
  ``pointwise`` write step, which also returns the scratch to rest;
- ``reduce_scalar``: one ``reduce_all`` launch, then one read of the value.

Vectors of ``LIST_MIN`` positions or more that are written in place also keep an entry list
(their present positions, unordered; :func:`_lists`), the sparse device form: a kernel whose
positions to visit are listed and few walks the lists, O(entries), and the whole bitmap
otherwise; it decides on the device from the counts (as SuiteSparse:GraphBLAS switches
between sparse and bitmap forms, and GraphBLAST between sparse and dense vectors, but
without asking the host).

Launches go through :mod:`.launch` (``cuLaunchKernel`` with a parameter block per kernel).

Each entry point returns ``NotImplemented`` when it cannot compute the operation exactly (a
Matrix operand, an operator without a CUDA snippet, a cast C would do differently from
NumPy, a ``trace`` request, ...); the caller then runs the generic array code.
"""

from __future__ import annotations

import threading

import numpy as np

from ... import _host
from ..._once import once_item
from ...core._rowptr import is_hyper
from ...core.scalar import Scalar
from ...core.vector import Vector
from ..direction import ALPHA
from . import compiler, snippets
from .launch import NULL, Ptr, hold, launch, ptrs
from .compiler import CTYPE

#: Vectors larger than this stay on the generic path (a bitmap costs (1 + itemsize) bytes per
#: position, whatever the number of entries).
MAX_SIZE = 1 << 31

#: Push when the edges of u's entries (summed on the device) < (allowed outputs x mean degree) / ALPHA.
#: Pull stops at the monoid's terminal value (the first term for ``any``), so it usually visits
#: far fewer terms than its estimate, while push pays an atomic per term: Beamer's alpha
#: (``backends.direction.ALPHA``) weighs the two as in direction-optimizing BFS.
PULL_BIAS = 1.0 / ALPHA

#: Vectors of at least this many positions keep, once an operation writes them in place (or
#: the host gives their entries), a list of their present positions beside the bitmap: two
#: int32 buffers of ``size`` each (8 bytes a position). Smaller ones are walked whole.
LIST_MIN = 1 << 14

#: An operation walks entry lists instead of whole bitmaps when the positions it must visit
#: (the listed entries of its inputs, and of C where replace or a missing accumulator can
#: remove some) are at most ``size / LIST_DIV``; the device decides, from the counts.
LIST_DIV = 32

#: Each launch uses at most this many blocks per multiprocessor (grid-stride loops cover the rest).
BLOCKS_PER_SM = 8
_BLOCK = 256

#: The write step's kernel holds about 64 registers a thread: 4 blocks of 256 threads fill a
#: multiprocessor, so a larger grid would run in two waves (and take twice the tickets of
#: its count's publish).
POINTWISE_BLOCKS_PER_SM = 4

_lock = threading.RLock()
_scratch = {}
_dummies = {}
_failed = set()


def _cp():
    import cupy

    return cupy


class _Device:
    """Per-device constants of the launches, and per-thread scratch."""

    def __init__(self, cp, index):
        self.sms = cp.cuda.Device(index).attributes["MultiProcessorCount"]
        self.cap = self.sms * BLOCKS_PER_SM
        self.dummy = cp.zeros(8, dtype=np.uint64)  # (zeros: also an absent count array, an empty list)
        self.dummy_ptr = Ptr(self.dummy.data.ptr)
        self.local = threading.local()

    def grid(self, threads, per_sm=BLOCKS_PER_SM):
        return (max(1, min((int(threads) + _BLOCK - 1) // _BLOCK, self.sms * per_sm)),), (_BLOCK,)

    def accumulator(self):
        """Four int64 at rest at zero (a count's sum, the last-block ticket, a list cursor, a
        flag), one per thread."""
        acc = getattr(self.local, "acc", None)
        if acc is None:
            arr = _cp().zeros(4, dtype=np.int64)
            acc = self.local.acc = (arr, Ptr(arr.data.ptr))
        hold(acc)
        return acc[1]


_devices = {}


def _device():
    cp = _cp()
    index = cp.cuda.runtime.getDevice()
    d = _devices.get(index)
    if d is None:
        d = once_item(_devices, index, lambda: _Device(cp, index), _lock)
    return d


_NULL = NULL


_CTYPES = {np.dtype(k): v for k, v in CTYPE.items()}


def _ctype(d):
    return _CTYPES[np.dtype(d)]


def _castable(src, dst, never_nan=False):
    """A C cast from ``src`` to ``dst`` gives what the algebra's typecast
    (:func:`semiring.dtypes.cast` with ``wrap_integers``) gives for every value: same type,
    from bool, from an integer (integers wrap as in C; into bool is ``x != 0``), or from a
    float into a float at least as wide. A float into bool only where it cannot be NaN."""
    src, dst = np.dtype(src), np.dtype(dst)
    if src == dst or src.kind == "b" or (src.kind in "iu" and dst.kind in "biuf"):
        return True
    if src.kind == "f":
        return (dst.kind == "f" and dst.itemsize >= src.itemsize) or (dst.kind == "b" and never_nan)
    return False


def _on_gpu_vector(x):
    return isinstance(x, Vector) and x._device == "gpu" and x._size <= MAX_SIZE and x._dtype in _CTYPES


def _plan(key, build):
    """The launch plan cached for ``key`` (built once; None when the kernels cannot compute
    the case exactly). Keys hold the operator objects themselves, so an id is never reused."""
    plan = _plans.get(key, _MISSING)
    if plan is _MISSING:
        plan = once_item(_plans, key, build, _lock)
    return plan


_plans = {}
_MISSING = object()
_retired = []


# -- the write step --------------------------------------------------------------------------
class WriteStep:
    """The write step ``out<mask, replace> = accum(out, T)`` of one operation."""

    __slots__ = ("out", "mask", "accum", "replace")

    def __init__(self, out, mask, accum, replace):
        self.out, self.mask, self.accum, self.replace = out, mask, accum, bool(replace)

    def key(self):
        """What the kernel's specialization depends on."""
        m = self.mask
        mk = None if m is None else (m.structural, m.complement, m.parent._dtype, _on_gpu_vector(m.parent),
                                     m.parent is self.out)
        return (None if self.out is None else self.out._dtype, mk, self.accum, self.replace, self.list_out())

    def list_out(self):
        """Whether the result keeps an entry list (an in-place output of LIST_MIN positions)."""
        return self.out is not None and self.out._size >= LIST_MIN

    def driver(self, x=None):
        """Which list may stand for the positions this write visits (the kernel's DRIVER):
        1, x's (T's entries are among x's: apply, select, extract, assign of a vector,
        ewise_mult, a product's T); 2, the mask's (not complemented: the allowed positions
        are among its entries); 0, none (the whole bitmap is walked). Lists are walked only
        where no operand being read is C itself."""
        m, out = self.mask, self.out
        if not self.list_out() or (m is not None and m.parent is out):
            return 0
        if x is not None and x is not out:
            return 1
        if m is not None and not m.complement and _on_gpu_vector(m.parent):
            return 2
        return 0

    def ok(self, tz, tc, never_nan=False):
        """Can the kernels write T (of dtype ``tz``) into a result of dtype ``tc`` exactly?"""
        m = self.mask
        if m is not None and not _on_gpu_vector(m.parent):
            return False
        a = self.accum
        if a is None:
            return _castable(tz, tc, never_nan)
        if a.cuda is None or (a.name in ("div", "rdiv") and np.dtype(tc).kind in "biu"):
            return False
        tai = a.input_dtype(tc, tz)
        tao = a.output_dtype(tc, tz)
        return _castable(tc, tai) and _castable(tz, tai, never_nan) and _castable(tao, tc)

    def defines(self, tz, tc):
        m, a = self.mask, self.accum
        d = {"TC": _ctype(tc), "TZ": _ctype(tz), "OLD": int(self.out is not None),
             "REPLACE": int(self.replace), "ACCUM": int(a is not None)}
        if m is None:
            d.update(MASK=0, MCOMP=0, TM="bool")
        else:
            d.update(MASK=1 if m.structural else 2, MCOMP=int(m.complement), TM=_ctype(m.parent._dtype))
        if a is not None:
            d.update(TAI=_ctype(a.input_dtype(tc, tz)), TAO=_ctype(a.output_dtype(tc, tz)), ACCUM_OP=f"({a.cuda})")
        return d

    def mask_args(self):
        """(presence, values, device count) of the mask's vector, or dummies."""
        if self.mask is None:
            d = _device().dummy_ptr
            return d, d, d
        return self.mask.parent._resident_ptrs()


def _lists(v, create=False):
    """(buffer 0, buffer 1): the device addresses of ``v``'s entry-list buffers, or dummies
    where it keeps none. ``create``: allocate them (``v`` is an in-place output of LIST_MIN
    positions or more). A new count array (new content) starts with its list invalid; where
    the host holds the entries (sparse form), they are listed at once."""
    rl = getattr(v, "_rl", None)
    cnt = v._cnt
    if cnt is None:
        cnt = v._resident()[2]
    if rl is not None and rl[2] is cnt:  # (the common case: nothing to set up)
        hold(rl)
        return rl[1]
    if rl is None:
        if not create or v._size < LIST_MIN:
            d = _device().dummy_ptr
            return d, d
        L = _cp().empty((2, v._size), dtype=np.int32)
        rl = v._rl = [L, ptrs(L[0], L[1]), None]
    if rl[2] is not cnt:
        sp = v._sp
        if sp is not None and sp[0].shape[0] * LIST_DIV <= v._size:
            nv = sp[0].shape[0]
            if nv:
                rl[0][0, :nv] = sp[0]
            cnt[2] = 0
            cnt[1] = 1
        rl[2] = cnt
    hold(rl)
    return rl[1]


class _Pointwise:
    """A compiled ``pointwise`` kernel and what its launch needs."""

    __slots__ = ("kern", "tc", "reset", "ts", "driver", "list_out", "resets")

    def __init__(self, kern, tc, reset, ts, driver, list_out, resets):
        self.kern, self.tc, self.reset, self.ts = kern, tc, reset, ts
        self.driver, self.list_out, self.resets = driver, list_out, resets


def _build_pointwise(what, term, types, write, tz, never_nan=False, reset_x=None, driver=0):
    """The plan of a pointwise operation: T(i) from ``term`` (a C statement setting ``tp`` and
    ``tv`` from xp, xv, yp, yv, s, i), then the write step; None if it cannot be exact.
    ``driver``: :meth:`WriteStep.driver`."""
    tc = np.dtype(write.out._dtype if write.out is not None else tz)
    if not write.ok(tz, tc, never_nan):
        return None
    list_out = write.list_out()
    d = dict(POINTWISE=1, RESET_X=int(reset_x is not None), LIST_OUT=int(list_out), DRIVER=driver,
             **write.defines(tz, tc))
    d.update({k: _ctype(v) for k, v in types.items()})
    d["TERM"] = "{ " + term + " }"
    for k in ("TX", "TY", "TS"):
        d.setdefault(k, "bool")
    kern = _compile("pointwise", d)
    if kern is None:
        return None
    tx = np.dtype(types.get("TX", "bool"))
    return _Pointwise(kern, tc, tx.type(0 if reset_x is None else reset_x), np.dtype(types.get("TS", "bool")),
                      driver, list_out, reset_x is not None)


def _operand(x):
    """(presence, values, count array, list buffer 0, list buffer 1) of a GPU vector operand."""
    return x._resident_ptrs() + _lists(x)


def _launch_pointwise(plan, n, write, x=None, y=None, scalar=None, thunk=0):
    """Run a pointwise plan: into ``write.out`` in place, or into a new vector. ``x``, ``y``:
    (presence, values) or :func:`_operand` tuples (x's list is the driver 1 of the plan)."""
    cp = _cp()
    dev = _device()
    dummy = dev.dummy_ptr
    xp_, xv = (x[0], x[1]) if x is not None else (dummy, dummy)
    yp_, yv = (y[0], y[1]) if y is not None else (dummy, dummy)
    if scalar is None:
        sptr, sval = _NULL, plan.ts.type(0)
    elif type(scalar) is Scalar:
        sptr, sval = scalar._array, plan.ts.type(0)
    else:
        sptr, sval = _NULL, plan.ts.type(scalar)
    mp, mv, mh = write.mask_args()
    ml = _lists(write.mask.parent) if plan.driver == 2 else (dummy, dummy)
    # x's count array and lists: the driver's, or the product's scratch T (its header goes back to rest)
    xh, xl0, xl1 = x[2:5] if plan.driver == 1 or plan.resets else (dummy, dummy, dummy)
    out = write.out
    if out is not None:
        cp_, cv, cnt = out._resident_ptrs()
    else:
        cp_, cv, cnt = cp.empty(n, dtype=bool), cp.empty(n, dtype=plan.tc), cp.empty(4, dtype=np.int64)
    cl = _lists(out, create=True) if plan.list_out else (dummy, dummy)
    launch(plan.kern, *dev.grid((n + 3) // 4, POINTWISE_BLOCKS_PER_SM), (np.int64(n), xp_, xv, yp_, yv, sptr, sval, np.int64(thunk), mp, mv, cp_, cv,
                                     cnt, dev.accumulator(), plan.reset, xh, xl0, xl1, mh, *ml, *cl,
                                     np.int64(n // LIST_DIV)))
    if out is None:
        return Vector._from_resident(plan.tc, cp_, cv, cnt)
    out._wrote_resident()
    return out


def _compile(name, defines):
    """The compiled kernel, or None if NVRTC refuses this specialization (a user's snippet)."""
    try:
        return compiler.kernel("resident.cu", name, defines)
    except Exception as exc:  # noqa: BLE001 - a snippet NVRTC rejects: the generic path computes it
        if type(exc).__name__ not in ("CompileException", "NVRTCError"):
            raise
        return None


def _operator_ok(op, tin):
    return snippets.exact(op, tin)


# -- element-wise ----------------------------------------------------------------------------
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
    from ...ops._base import BinaryOp, IndexUnaryOp, UnaryOp

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


# -- reductions --------------------------------------------------------------------------------
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
    defs = dict(REDUCE=1, TX=_ctype(x.dtype), TZ=_ctype(d), TM="bool", IS_ANY=int(m.is_any),
                MONOID="(y)" if m.is_any else f"({m.op.cuda})", HAS_TERMINAL=0, TERMINAL=0)
    kern = _compile("reduce_all", defs)
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
        from ...ops.binary import first, second
        from ...ops.semiring import Semiring

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


# -- products --------------------------------------------------------------------------------
def _combine(m, tz):
    """The push kernel's statement combining term ``z`` into ``tv[jj]`` (None: no atomic fits)."""
    return snippets.combine(m, tz, "tv[jj]")


def _scratch_for(n, tz, rest):
    """The product's scratch T for (size, dtype, value at rest) on this device and thread: a
    bitmap all absent and equal to ``rest`` between operations, its {list length, listed}
    header (zero at rest) and room for its entry list; the write step puts
    them back at rest. Work of one thread runs in order on its stream, a recorded graph
    included, so one suffices. Returns the addresses (presence, values, header, list)."""
    cp = _cp()
    key = (cp.cuda.runtime.getDevice(), threading.get_ident(), n, tz, rest.tobytes())

    def build():
        tp, tv, th = cp.zeros(n, dtype=bool), cp.full(n, rest, dtype=tz), cp.zeros(4, dtype=np.int64)
        tl = cp.empty(max(n, 1), dtype=np.int32)
        return (tp, tv, th, tl) + ptrs(tp, tv, th, tl)

    return once_item(_scratch, key, build, _lock)[4:]


_DIRECTIONS = {"auto": 0, "push": 1, "pull": 2}

#: Stands for a product's scratch T as the write step's x.
_SCRATCH = object()


#: u's entries with this many edges or more are pushed by the whole grid, the others by warps.
HEAVY = 8192

#: Rows with this many edges or more are pulled by a block each, the others by groups of lanes
#: (``_row_lanes``): a warp alone on a web graph's largest rows (10**4 edges and more) would
#: leave the rest of the grid waiting.
PULL_HEAVY = 1024


class _Product:
    __slots__ = ("kern", "estimate", "code", "tz", "rest", "write", "lanes")

    def __init__(self, kern, estimate, code, tz, rest, write, lanes):
        self.kern, self.estimate, self.code, self.tz, self.rest = kern, estimate, code, tz, rest
        self.write, self.lanes = write, lanes


#: Lanes that push one entry of a listed input together, at least (more near a larger mean
#: degree): a short list leaves most of the grid idle, so each lane takes one edge rather than
#: a thread walking its row's edges one memory round trip after another.
PUSH_LIST_LANES = 8

#: A matrix whose largest row has this many times its mean degree (or HEAVY edges) is skewed.
SKEW = 16


def _skewed(M):
    """Whether M's rows are skewed (power-law graphs): its products then sum the exact edges of
    the input's entries for the direction and push heavy entries with the whole grid; on
    even degrees (roads, grids, meshes) entries x mean degree is the estimate, at no launch.
    One read of the largest degree per content of M (remembered until M is written)."""
    entry = getattr(M, "_resident_skew", None)
    if entry is None or entry[0] != M._version:
        rp = M._rowptr
        top = _host.read_int((rp[1:] - rp[:-1]).max()) if rp.shape[0] > 1 else 0
        entry = (M._version, top >= HEAVY or top > SKEW * max(M.nvals / max(M._nrows, 1), 1.0))
        M._resident_skew = entry
    return entry[1]


def _row_lanes(mean_degree):
    """Lanes that pull one row together: 1 below a mean degree of 4, else the power of two at
    or above the mean, up to a warp (32)."""
    if mean_degree < 4:
        return 1
    lanes = 4
    while lanes < 32 and lanes < mean_degree:
        lanes *= 2
    return lanes


def _heavy_rows(M):
    """(address, count) of the rows of M with PULL_HEAVY edges or more, listed once per content
    of M (one read of the largest degree, one more of the count when there are some)."""
    entry = getattr(M, "_resident_heavy", None)
    if entry is None or entry[0] != M._version:
        cp = _cp()
        rp = M._rowptr
        deg = rp[1:] - rp[:-1] if rp.shape[0] > 1 else None
        rows = None
        if deg is not None and _host.read_int(deg.max()) >= PULL_HEAVY:
            rows = cp.flatnonzero(deg >= PULL_HEAVY).astype(np.int64)
        value = (_device().dummy_ptr, np.int64(0)) if rows is None else (ptrs(rows)[0], np.int64(rows.shape[0]))
        entry = (M._version, value, rows)
        M._resident_heavy = entry
    hold(entry)
    return entry[1]


def _matrix_ptrs(M):
    """The device addresses of M's CSR arrays, remembered while they are M's."""
    arrays = (M._rowptr, M._indices, M._values)
    entry = getattr(M, "_resident_ptrs", None)
    if entry is None or any(a is not b for a, b in zip(entry[0], arrays)):
        entry = (arrays, ptrs(*arrays))
        M._resident_ptrs = entry
    hold(entry)
    return entry[1]


def _estimate_scratch(nnz):
    """(est, heavy) for the estimate kernel: five int64 (accumulators zero at rest) and room for
    every entry of HEAVY edges or more (at most nnz / HEAVY of them), per device and thread."""
    cp = _cp()
    cap = nnz // HEAVY + 1
    key = (cp.cuda.runtime.getDevice(), threading.get_ident(), "estimate")
    est, heavy = _scratch.get(key, (None, None))
    if heavy is None or heavy.shape[0] < cap:
        _retired.append(heavy)  # (a recorded graph may still use the smaller list)
        est = est if est is not None else cp.zeros(5, dtype=np.int64)
        heavy = cp.empty(max(cap, 64), dtype=np.int64)
        _scratch[key] = (est, heavy)
        _scratch[key + ("ptrs",)] = ptrs(est, heavy)
    return _scratch[key + ("ptrs",)]


def matvec(A, u, semiring, write, direction, is_vxm):
    """``mxv``/``vxm`` of a GPU Matrix and a GPU Vector, on the device from end to end: one
    product launch (direction taken on the device) and the pointwise write step."""
    code = _DIRECTIONS.get(direction)
    if code is None or not _on_gpu_vector(u) or A._device != "gpu" or is_hyper(A._rowptr):
        return NotImplemented
    n_in, n_out = (A._nrows, A._ncols) if is_vxm else (A._ncols, A._nrows)
    if n_in > MAX_SIZE or n_out > MAX_SIZE:
        return NotImplemented
    nnz = A.nvals
    lanes = _row_lanes(nnz / max(n_out, 1))
    push_lanes = max(PUSH_LIST_LANES, _row_lanes(nnz / max(n_in, 1)))
    B = (A if is_vxm else A.T) if code in (0, 1) else None
    P = (A.T if is_vxm else A) if code in (0, 2) else None
    shapes = tuple(None if M is None else (M._rowptr.dtype, M._indices.dtype) for M in (B, P))
    skewed = B is not None and _skewed(B)
    t_list = n_out >= LIST_MIN
    driver = write.driver(_SCRATCH) if t_list else 0  # (T, the scratch, is x: never C)
    key = ("matvec", semiring, A._dtype, u._dtype, is_vxm, code, lanes, push_lanes, skewed, shapes, write.key(),
           t_list, driver)
    plan = _plan(key, lambda: _matvec_plan(A, u, semiring, write, code, is_vxm, (lanes, push_lanes), skewed, B, P,
                                           t_list, driver))
    if plan is None:
        return NotImplemented
    tp, tv, th, tl = _scratch_for(n_out, plan.tz, plan.rest)
    present, dense, ucnt, ul0, ul1 = _operand(u)
    mp, mv, mcnt = write.mask_args()
    dev = _device()
    dummy = dev.dummy_ptr
    pushes = plan.code in (0, 1)
    b = _matrix_ptrs(B) if pushes else (dummy, dummy, dummy)
    p = _matrix_ptrs(P) if plan.code in (0, 2) else (dummy, dummy, dummy)
    est, heavy = dummy, dummy
    if plan.estimate is not None:  # the edges of u's entries (the direction) and its heavy entries
        est, heavy = _estimate_scratch(nnz)
        launch(plan.estimate, *dev.grid(n_in), (np.int64(n_in), b[0], present, ucnt, ul0, ul1, est, heavy))
    heavy_rows, n_heavy = _heavy_rows(P) if plan.code in (0, 2) else (dummy, np.int64(0))
    threads = max(n_in if pushes else 0, n_out * lanes if plan.code in (0, 2) else 0)
    launch(plan.kern, *dev.grid(threads), (np.int64(n_in), np.int64(n_out), *b, *p, present, dense, ucnt, est,
                                           heavy, mp, mv, mcnt, tp, tv, np.float64(nnz / max(n_in, 1)),
                                           np.float64(nnz / max(n_out, 1)), heavy_rows, n_heavy, ul0, ul1, th,
                                           tl))
    # the write step reads T (by its list when pushed and short) and puts the scratch back at rest
    return _launch_pointwise(plan.write, n_out, write, x=(tp, tv, th, tl, tl))


def _matvec_plan(A, u, semiring, write, code, is_vxm, lanes, skewed, B, P, t_list, driver):
    lanes, push_lanes = lanes
    from ..gpu import products as _products

    m, f = semiring.monoid, semiring.multiply
    da, du = A.dtype, u.dtype
    first, second = (du, da) if is_vxm else (da, du)
    tz = semiring.output_dtype(first, second)
    if not _products.supports(semiring, first, second, push=False):
        return None
    combine = _combine(m, tz) if (m.is_any or m.op.cuda is not None) else None
    if combine is None:
        if code == 1:
            return None
        code = 2
    if code == 0 and combine is None:
        code = 2
    if (code in (0, 1) and B is None) or (code in (0, 2) and P is None):
        return None
    tc = np.dtype(write.out.dtype if write.out is not None else tz)
    never_nan = f.builtin and f.name == "pair"  # T counts terms: 1 or more, never NaN
    if not write.ok(tz, tc, never_nan):
        return None
    rest = np.asarray(m.identity_for(tz) if not m.is_any else 0, dtype=tz)[()]
    tin = np.dtype(np.int64) if f.positional else f.input_dtype(first, second)
    mk = write.defines(tz, tc)
    term = None if m.is_any else m.terminal_for(tz)
    d = dict(PRODUCT=1, TZ=_ctype(tz), TIN=_ctype(tin), TU=_ctype(du), TA=_ctype(da), TM=mk["TM"],
             MASK=mk["MASK"], MCOMP=mk["MCOMP"], MULT=f"({f.cuda})",
             MONOID="(y)" if m.is_any else f"({m.op.cuda})", IS_ANY=int(m.is_any), IS_VXM=int(is_vxm),
             DIRECTION=code, PULL_BIAS=repr(float(PULL_BIAS)), COMBINE=combine or ";", ROW_LANES=lanes,
             PUSH_LANES=push_lanes,
             HEAVY=HEAVY, PULL_HEAVY=PULL_HEAVY, ESTIMATE=int(skewed), T_LIST=int(t_list),
             HAS_TERMINAL=int(term is not None), TERMINAL=_literal(term, tz))
    for name, M in (("B", B), ("P", P)):
        M = M if M is not None else A
        d[name + "PT"], d[name + "XT"] = _ctype(M._rowptr.dtype), _ctype(M._indices.dtype)
    kern = _compile("product", d)
    est = _compile("estimate", d) if skewed and code in (0, 1) else None
    wplan = _build_pointwise("product_write", "tp = xp[i]; if (tp) tv = xv[i];", dict(TX=tz), write, tz,
                             never_nan=never_nan, reset_x=rest, driver=driver)
    if kern is None or wplan is None or (skewed and code in (0, 1) and est is None):
        return None
    return _Product(kern, est, code, tz, np.asarray(rest, dtype=tz), wplan, lanes)


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
