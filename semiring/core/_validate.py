"""Input validation shared by constructors and operations: one place, one message style."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..backends._xp import asnumpy, xp_of
from ..exceptions import DimensionMismatch, DomainMismatch, IndexOutOfBound, InvalidValue

DEVICES = ("cpu", "gpu", "auto")


def device(dev):
    """Resolve a device name: "cpu", "gpu" (loads CuPy, BackendUnavailable if it cannot) or
    "auto" (the GPU when CuPy finds one, else the CPU)."""
    if not isinstance(dev, str) or dev not in DEVICES:
        raise InvalidValue(f"device: expected 'cpu', 'gpu' or 'auto'; given {dev!r}"[:300])
    if dev == "cpu":
        return dev
    from ..backends import gpu

    if dev == "auto":
        return "gpu" if gpu.available() else "cpu"
    gpu.load()
    return dev


def xp_for(dev):
    """The array module of a resolved device."""
    if dev == "gpu":
        from ..backends import gpu

        return gpu.load()
    return np


#: Dimensions are below 2**63: indices are int64.
MAX_DIMENSION = 2**63 - 1


def dimension(n, what):
    """``n`` as a Python int, checked to be an integer in ``[0, 2**63)``."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise InvalidValue(f"{what}: expected a non-negative integer; given {n!r}"[:300])
    if n < 0:
        raise InvalidValue(f"{what}: expected a non-negative integer; given {n}")
    if n > MAX_DIMENSION:
        raise InvalidValue(f"{what}: expected a non-negative integer below 2**63; given {n}")
    return int(n)


def host_array(x, what):
    """A NumPy array of ``x``: a CuPy array copied to the host, anything else through
    ``numpy.asarray``; InvalidValue when NumPy cannot make one array of it (ragged nested
    lists, objects that fail to convert)."""
    if xp_of(x) is not np:
        return asnumpy(x)
    try:
        return np.asarray(x)
    except (ValueError, TypeError, OverflowError) as exc:
        raise InvalidValue(f"{what}: expected an array (a rectangular nested list of numbers); given "
                           f"{type(x).__name__} that NumPy cannot convert: {exc}") from exc


def index_scalar(i, n, what):
    """One index: an int (not a bool) with 0 <= i < n, as a Python int."""
    if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
        raise InvalidValue(f"{what}: expected an integer index; given {i!r}"[:300])
    if not 0 <= i < n:
        raise IndexOutOfBound(f"{what}: expected indices in [0, {n}); given {i}")
    return int(i)


def index_array(idx, n, what):
    """Convert to a 1-d int64 (host) array and check 0 <= idx < n."""
    arr = host_array(idx, what)
    if arr.ndim != 1:
        raise InvalidValue(f"{what}: expected a 1-d array of indices; given shape {arr.shape}")
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            raise InvalidValue(f"{what}: expected integer indices; given non-integral {arr.dtype.name} values")
    elif arr.dtype.kind not in "iu":
        raise InvalidValue(f"{what}: expected integer indices; given dtype {arr.dtype}")
    if arr.dtype.kind == "u" and arr.dtype.itemsize == 8 and arr.max() > np.iinfo(np.int64).max:
        raise IndexOutOfBound(f"{what}: index {arr.max()} is out of range for size {n}")
    arr = arr.astype(np.int64)
    lo, hi = arr.min(), arr.max()
    if lo < 0 or hi >= n:
        bad = lo if lo < 0 else hi
        raise IndexOutOfBound(f"{what}: expected indices in [0, {n}); given {bad}")
    return arr


def values_array(values, count, dtype, what):
    """Values for ``count`` entries: None (True/1), a scalar (broadcast) or a 1-d array."""
    if values is None:
        d = _dt.BOOL if dtype is None else _dt.lookup(dtype, f"{what} dtype")
        return np.ones(count, dtype=d)
    arr = host_array(values, what)
    if arr.dtype.kind not in "biuf":
        raise DomainMismatch(f"{what}: expected bool, integer or float values; given dtype {arr.dtype}")
    if arr.ndim == 0:
        arr = np.full(count, arr, dtype=arr.dtype)
    elif arr.ndim != 1 or arr.shape[0] != count:
        raise DimensionMismatch(f"{what}: expected {count} values (one per index); given shape {arr.shape}")
    d = _dt.lookup(arr.dtype if dtype is None else dtype, f"{what} dtype")
    return _dt.cast(arr, d, what).copy() if arr.dtype != d else arr.copy()


def flag(value, what):
    """``value`` as a bool; InvalidValue unless it is a bool (Python or NumPy)."""
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidValue(f"{what}: expected True or False; given {value!r}"[:300])
    return bool(value)


def same_device(*objs):
    """InvalidValue if the containers among ``objs`` live on different devices (other
    objects are ignored: their kind is checked where they are used)."""
    devs = {o.device for o in objs if isinstance(getattr(o, "device", None), str) and hasattr(type(o), "nvals")}
    if len(devs) > 1:
        raise InvalidValue(f"operands live on different devices {sorted(devs)}; move them with .to(device)")


def backend_name(backend, dev=None):
    """``backend`` checked to be None or a backend name, and one that stores on ``dev`` when
    that is given as "cpu" or "gpu" (InvalidValue otherwise; checked before a GPU is looked for)."""
    if backend is not None:
        from ..backends._select import NAMES, _check_name, for_new

        _check_name(backend, "backend", NAMES + ("cupy",))
        if (dev == "gpu" and backend in ("numpy", "suitesparse")) or (dev == "cpu" and backend == "cupy"):
            for_new(backend, dev, ())  # raises, saying which device stores with which backend
    return backend


def backend_for(backend, dev, dims):
    """The backend ("numpy", "suitesparse" or "cupy") of a container of ``dims`` on the
    resolved device ``dev`` for the ``backend=`` keyword (None: the current CPU choice)."""
    from ..backends._select import for_new

    return for_new(backend, dev, dims)


def placed(x, dev, backend):
    """``x``, a new NumPy or CuPy container that nothing else holds, on device ``dev`` (a name
    to resolve) and stored by ``backend`` (the ``backend=`` keyword of a constructor: None is
    the current CPU choice)."""
    dev = device(dev)
    target = backend_for(backend, dev, x.shape)
    if target == "suitesparse" and x.device == "cpu":
        from ..backends.suitesparse.containers import adopt

        return adopt(x)
    return x.to(dev, backend=target)


def follow_inputs(result, args, kwargs):
    """The backend rule of operations: a new CPU result (no ``out=``) is a SuiteSparse container
    when any container argument (an operand, or a mask's parent) is one, a NumPy one otherwise;
    ``out=`` keeps its own backend, and a result that is one of the arguments stays as it is."""
    from ..backends._select import SS_TYPES

    if not SS_TYPES or kwargs.get("out") is not None or getattr(result, "device", None) != "cpu":
        return result
    rtype = type(result)
    if rtype in SS_TYPES or not hasattr(rtype, "nvals"):
        return result
    inputs = (*args, *kwargs.values())
    if not any(type(o) in SS_TYPES or type(getattr(o, "parent", None)) in SS_TYPES for o in inputs):
        return result
    if any(o is result for o in inputs):
        return result
    from ..backends.suitesparse.containers import adopt

    return adopt(result)


def gpu_memory(what):
    """Decorator of every operation: its result follows its inputs' backend (:func:`follow_inputs`),
    and a GPU out-of-memory error inside it becomes a MemoryError naming the operation and its
    operands' sizes. Operations write their output last, so the inputs and the output are
    intact when it is raised."""
    import functools

    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            try:
                return follow_inputs(fn(*args, **kwargs), args, kwargs)
            except Exception as exc:
                if type(exc).__name__ != "OutOfMemoryError":
                    raise
                sizes = ", ".join(f"{type(a).__name__} {a.shape} nvals={a.nvals}" for a in args
                                  if hasattr(a, "nvals") and hasattr(a, "shape"))
                raise MemoryError(f"{what}: the GPU ran out of memory ({exc}); operands: {sizes}; "
                                  "inputs and output are unchanged") from exc

        return inner

    return wrap
