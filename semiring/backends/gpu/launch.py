"""Kernel launches with little host work: ``cuLaunchKernel`` of the CUDA driver called
through ctypes with a parameter block built once per kernel and refilled in place.

CuPy's ``RawKernel.__call__`` inspects every argument on every call (10-20 us for the 15-20
arguments of the resident kernels); the algebra's operations launch one or two kernels each,
so that inspection would be most of an operation's cost. Here an argument list's types are
fixed at the first launch of a kernel: arrays become device pointers, NumPy scalars their C
types. Where the driver library cannot be loaded, CuPy's launch is used.
"""

from __future__ import annotations

import contextlib
import ctypes
import threading

import numpy as np

_CT = {np.dtype(k): v for k, v in {
    "bool": ctypes.c_bool, "int8": ctypes.c_int8, "int16": ctypes.c_int16, "int32": ctypes.c_int32,
    "int64": ctypes.c_int64, "uint8": ctypes.c_uint8, "uint16": ctypes.c_uint16, "uint32": ctypes.c_uint32,
    "uint64": ctypes.c_uint64, "float32": ctypes.c_float, "float64": ctypes.c_double}.items()}

#: Stands for a NULL pointer argument.
NULL = object()


class Ptr(int):
    """A device address known already (an int): passed as a pointer argument without asking
    the array for it again. Hold the array it came from as long as it is used."""

    __slots__ = ()


_recording = threading.local()


@contextlib.contextmanager
def before_recording():
    """Mark the eager run that comes before a recording on this thread (``record``,
    ``while_nonempty``): operations then take the paths a CUDA graph can capture, so that the
    recording finds their kernels compiled and their scratch allocated."""
    before = getattr(_recording, "soon", False)
    _recording.soon = True
    try:
        yield
    finally:
        _recording.soon = before


def capturable_only():
    """Whether operations must take capturable paths now: a recording is being made on this
    thread, or its eager run is (:func:`before_recording`)."""
    return getattr(_recording, "keep", None) is not None or getattr(_recording, "soon", False)


def hold(owner):
    """Keep ``owner`` (the arrays behind some :class:`Ptr`) alive as long as the CUDA graph being
    recorded on this thread, if one is (``semiring.backends.gpu.recording``)."""
    keep = getattr(_recording, "keep", None)
    if keep is not None:
        keep.append(owner)


def ptrs(*arrays):
    """The :class:`Ptr` of each CuPy array."""
    return tuple(Ptr(a.data.ptr) for a in arrays)

_lock = threading.Lock()
_launchers = {}
#: Launches made through :func:`launch` so far (process-wide; tells a block that ran device
#: kernels from one that did not).
launches = [0]
_driver = []


def _cu_launch():
    if not _driver:
        try:
            lib = ctypes.CDLL("libcuda.so.1")
            fn = lib.cuLaunchKernel
            fn.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 6 + [ctypes.c_uint, ctypes.c_void_p,
                                                                     ctypes.c_void_p, ctypes.c_void_p]
            fn.restype = ctypes.c_int
            _driver.append(fn)
        except (OSError, AttributeError):
            _driver.append(None)
    return _driver[0]


class _Launcher:
    __slots__ = ("fn", "vals", "params", "pointer", "lock")

    def __init__(self, kern, args):
        import cupy as cp

        self.fn = ctypes.c_void_p(kern.kernel.ptr)
        self.pointer = tuple(a is NULL or isinstance(a, (cp.ndarray, Ptr)) for a in args)
        self.vals = [ctypes.c_void_p() if p else _CT[np.asarray(a).dtype]() for a, p in zip(args, self.pointer)]
        self.params = (ctypes.c_void_p * len(args))(*[ctypes.addressof(v) for v in self.vals])
        self.lock = threading.Lock()


def launch(kern, grid, block, args, shared=0):
    """Launch ``kern`` (a ``cupy.RawKernel``) on the current stream: ``grid`` and ``block`` are
    1-tuples, ``args`` its arguments (CuPy arrays, :class:`Ptr` addresses, :data:`NULL`, NumPy
    scalars of the kernel's parameter types; the same kinds at every call of one kernel);
    ``shared``: bytes of dynamic shared memory."""
    import cupy as cp

    launches[0] += 1
    fn = _cu_launch()
    if fn is None:
        kern(grid, block, tuple(np.uint64(0) if a is NULL else (np.uint64(a) if type(a) is Ptr else a)
                                for a in args), shared_mem=shared)
        return
    L = _launchers.get(kern)
    if L is None:
        with _lock:
            L = _launchers.get(kern) or _Launcher(kern, args)
            _launchers[kern] = L
    stream = cp.cuda.get_current_stream().ptr
    with L.lock:
        for v, a, p in zip(L.vals, args, L.pointer):
            if p:
                v.value = a if type(a) is Ptr else (None if a is NULL else a.data.ptr)
            else:
                v.value = a
        r = fn(L.fn, grid[0], 1, 1, block[0], 1, 1, shared, stream, L.params, None)
    if r:
        raise RuntimeError(f"cuLaunchKernel failed with CUDA driver error {r}")
