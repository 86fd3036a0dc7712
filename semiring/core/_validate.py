"""Checks of the containers' and operations' arguments: devices, backends, operands, operators.

Plain values (integers, reals, flags, dimensions, indices, index and value arrays) are checked
by :mod:`semiring._checks`; this module holds what is about containers and operators: device
names and placement, the backend choice, operands' kinds, shapes and devices, the semiring,
monoid and operator arguments, and the index lists of ``assign`` and ``extract``.

It imports neither ``matrix`` nor ``vector`` at load time (both import it): the two checks
that name the container classes (``container``, ``same_shape``) look them up when called.
"""

from __future__ import annotations

import numpy as np

from .. import _checks
from .. import dtypes as _dt
from ..exceptions import DimensionMismatch, DomainMismatch, InvalidValue
from ..ops import binary as _binary
from ..ops import indexunary as _indexunary
from ..ops import monoid as _monoid
from ..ops import semiring as _semiring
from ..ops._base import BinaryOp, IndexUnaryOp, UnaryOp, check_not_positional
from ..ops.monoid import Monoid
from ..ops.semiring import Semiring

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


def moved(x, dev, backend, copy):
    """``x.to(dev, backend=backend)`` of a NumPy or CuPy container ``x``: ``x`` itself where it
    is already so stored, its SuiteSparse form for that backend on the CPU, else
    ``copy(dev, xp)`` (a new container on the resolved device ``dev``, ``xp`` its array module)
    stored by the target backend. InvalidValue or BackendUnavailable as ``x.to`` says."""
    backend_name(backend, dev)
    dev = device(dev)
    if backend is None and dev == x.device:
        return x
    target = backend_for(backend, dev, x.shape)
    if target == x.backend:
        return x
    if dev == x.device:  # the CPU, by the SuiteSparse backend
        from ..backends.suitesparse.containers import from_numpy

        return from_numpy(x)
    return placed(copy(dev, xp_for(dev)), dev, target)


def dense_dtype(x, fill_value, what):
    """The dtype of the dense form of the container ``x``: its own where ``fill_value`` is None
    (InvalidValue unless every position is present), else ``numpy.result_type(dtype,
    fill_value)`` (InvalidValue or DomainMismatch from :func:`semiring.dtypes.fill_dtype`)."""
    if fill_value is None:
        if x.nvals != x.size:
            raise InvalidValue(f"{what}: {x.size - x.nvals} of {x.size} positions are absent; give fill_value")
        return x.dtype
    return _dt.fill_dtype(x.dtype, fill_value, f"{what} fill_value")


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


def require(x, cls, what):
    if not isinstance(x, cls):
        names = cls.__name__ if isinstance(cls, type) else " or ".join(c.__name__ for c in cls)
        raise InvalidValue(f"{what}: expected a {names}; given {type(x).__name__}")
    return x


def _builtin_or(x, registry, cls, what):
    """``x`` checked to be a ``cls``, or the built-in of ``registry`` it names (a str)."""
    if isinstance(x, str):
        return registry.get(x)
    return require(x, cls, what)


def semiring(s, what):
    return _builtin_or(s, _semiring, Semiring, f"{what} semiring")


def monoid(m, what):
    return _builtin_or(m, _monoid, Monoid, f"{what} monoid")


def binary_or_monoid(op, what):
    """A BinaryOp from a BinaryOp, a Monoid (its operator) or a built-in name."""
    if isinstance(op, str):
        op = _binary.get(op)
    if isinstance(op, Monoid):
        op = op.op
    require(op, BinaryOp, f"{what} operator")
    if op.positional:
        raise DomainMismatch(f"{what}: positional operator {op.name} is only valid as a semiring's multiply")
    return op


def indexunary(op, what):
    return _builtin_or(op, _indexunary, IndexUnaryOp, f"{what} operator")


def unary_like(op, what):
    if isinstance(op, (UnaryOp, IndexUnaryOp)):
        return op
    return binary_or_monoid(op, what)


def _kind(x):
    """Vector, Matrix, or the type of anything else (containers of any backend compare equal)."""
    from .matrix import Matrix
    from .vector import Vector

    return Vector if isinstance(x, Vector) else Matrix if isinstance(x, Matrix) else type(x)


def same_shape(x, y, what):
    if _kind(x) is not _kind(y):
        raise InvalidValue(f"{what}: operands must both be Vectors or both Matrices; "
                           f"given {type(x).__name__} and {type(y).__name__}")
    if x.shape != y.shape:
        raise DimensionMismatch(f"{what}: operands must have the same shape; given {x.shape} and {y.shape}")
    same_device(x, y)


def container(x, what):
    from .matrix import Matrix
    from .vector import Vector

    return require(x, (Vector, Matrix), what)


def bound_scalar(value, dtype, what):
    """Type a scalar bound to an operator: a Python scalar takes the container's dtype where it
    fits (3 with int8 stays int8, 0.5 with int8 becomes float64); a NumPy scalar keeps its own."""
    if isinstance(value, np.generic):
        return value
    d = np.dtype(dtype)
    sd = _dt.scalar_dtype(value)
    if d.kind == "f" or (sd.kind in "bi" and d.kind in "iu" and sd.kind != "b") or d.kind == sd.kind == "b":
        try:
            if d.kind in "iu" and not (np.iinfo(d).min <= value <= np.iinfo(d).max):
                return _dt.scalar(value, sd, what)
        except TypeError:
            pass
        return _dt.scalar(value, d, what)
    return _dt.scalar(value, sd, what)


def slice_range(idx, n, what):
    """``range`` of the positions a slice selects out of ``n``; InvalidValue for a slice of
    non-integers or a zero step."""
    for part in (idx.start, idx.stop, idx.step):
        if part is not None and not _checks.is_integer(part):
            raise InvalidValue(f"{what}: a slice of integers; given {idx!r}")
    if idx.step == 0:
        raise InvalidValue(f"{what}: a slice step cannot be zero; given {idx!r}")
    return range(*idx.indices(n))


def covers_all(idx, n, what):
    """True when an index argument (None, a slice, an array) selects every position of ``n``
    in order: None, or a slice equal to ``[:]``."""
    if idx is None:
        return True
    return isinstance(idx, slice) and slice_range(idx, n, what) == range(n)


def thunk(value, what):
    """An index-unary operator's thunk: a bool or number scalar (a Python int within the 64-bit
    integers); DomainMismatch otherwise."""
    _dt.scalar_dtype(value, what)
    return value


def index_list(idx, n, what):
    """Index list for assign/extract: None = all, a slice, an int array.

    Raises OutOfMemory when None or a slice selects more positions than fit in memory."""
    if idx is None or isinstance(idx, slice):
        r = range(n) if idx is None else slice_range(idx, n, what)
        from .._memory import require

        require(len(r) * 8 * 4, f"{what}: a list of {len(r)} indices")
        return np.arange(r.start, r.stop, r.step, dtype=np.int64)
    if _checks.is_integer(idx):
        idx = [idx]
    from ._interop import host_array

    return _checks.index_array(host_array(idx, what), n, what)


def dup_op(op):
    """The BinaryOp combining duplicate entries of a build (a Monoid's operator), or None;
    InvalidValue for anything else, DomainMismatch for a positional operator."""
    if op is None:
        return None
    binop = op.op if isinstance(op, Monoid) else op
    if not isinstance(binop, BinaryOp):
        raise InvalidValue(f"dup_op: expected a BinaryOp or Monoid; given {op!r}"[:300])
    check_not_positional(binop, "dup_op")
    return binop
