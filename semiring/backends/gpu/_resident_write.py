"""The write step of the resident vector operations on the GPU, and what every family of them
shares: the per-device launch constants, the bitmap form of a resident vector and its entry
lists, the plan cache, and the generated ``pointwise`` kernel that applies
``C<M, replace> = accum(C, T)`` (GraphBLAS C API 2.0, 3.5.4) and C's new count.

See :mod:`semiring.backends.gpu.resident` for the families (element-wise, reductions,
products) and the forms they keep.
"""

from __future__ import annotations

import threading

import numpy as np

from ..._once import once_item
from ...core.scalar import Scalar
from ...core.vector import Vector
from . import compiler, snippets
from .compiler import CTYPE
from .launch import NULL, Ptr, hold, launch, ptrs

#: Vectors larger than this stay on the generic path (a bitmap costs (1 + itemsize) bytes per
#: position, whatever the number of entries).
MAX_SIZE = 1 << 31

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
    d = dict(RESET_X=int(reset_x is not None), LIST_OUT=int(list_out), DRIVER=driver,
             **write.defines(tz, tc))
    d.update({k: _ctype(v) for k, v in types.items()})
    d["TERM"] = "{ " + term + " }"
    for k in ("TX", "TY", "TS"):
        d.setdefault(k, "bool")
    kern = _compile("resident_write.cu", "pointwise", d)
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


def _compile(filename, name, defines):
    """The compiled kernel ``name`` of ``kernels/<filename>``, or None if NVRTC refuses this
    specialization (a user's snippet)."""
    try:
        return compiler.kernel(filename, name, defines)
    except Exception as exc:  # noqa: BLE001 - a snippet NVRTC rejects: the generic path computes it
        if type(exc).__name__ not in ("CompileException", "NVRTCError"):
            raise
        return None


def _operator_ok(op, tin):
    return snippets.exact(op, tin)
