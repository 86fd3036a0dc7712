"""Operator value types: BinaryOp, UnaryOp, IndexUnaryOp.

An operator is a value: a name, a vectorized function over NumPy (or CuPy) arrays, the rule
that gives its output type, and optionally a CUDA expression for the GPU backend.
GraphBLAS C API 2.0, sections 3.4 (operators) and 4.2.1 (GrB_BinaryOp_new, GrB_UnaryOp_new,
GrB_IndexUnaryOp_new).
"""

from __future__ import annotations

import numpy as np

from .. import _checks
from .. import dtypes as _dt
from ..exceptions import DomainMismatch, InvalidValue, SemiringError

_POSITIONAL = ("firsti", "firstj", "secondi", "secondj")


def _user_func(func, vectorized, name):
    """Adapt a user function f(x, y, ...) to the internal signature f(xp, x, y, ...).

    Its result is checked (:func:`_user_result`); an exception it raises becomes InvalidValue
    naming the operator (SemiringErrors pass through). A scalar function (``vectorized=False``)
    is applied element by element and its results collected as Python values, so that their
    common type is inferred from all of them, not from the first (``numpy.vectorize`` would
    truncate ``[1, 0.5]`` to ``[1, 0]``)."""
    if not vectorized:
        elementwise = np.vectorize(func, otypes=[object])

        def func_(x, *rest):
            if not x.size:
                return np.empty(0, dtype=x.dtype)
            return _collect(elementwise(np.asarray(x), *(np.asarray(a) for a in rest)))
    else:
        func_ = func

    def call(xp, *args):
        try:
            z = func_(*args)
        except SemiringError:
            raise
        except Exception as exc:
            raise InvalidValue(f"operator {name}: its function raised {type(exc).__name__}: {exc}") from exc
        return _user_result(xp, z, args[0].shape, name)

    return call


def _collect(objs):
    """A NumPy array of the Python values in object array ``objs``, in their common type."""
    try:
        return np.asarray(objs.tolist())
    except (TypeError, ValueError):
        return objs


def _describe(z):
    if z is None:
        return "None"
    shape = getattr(z, "shape", None)
    dtype = getattr(z, "dtype", None)
    if shape is not None and dtype is not None:
        first = ""
        if getattr(z, "size", 0) and dtype.kind not in "biuf":
            flat = np.asarray(z).ravel()
            odd = [v for v in flat[:10000] if not isinstance(v, (bool, int, float, np.number, np.bool_))]
            first = f", holding {odd[0]!r}" if odd else f", first element {flat[0]!r}"
        return f"an array of dtype {dtype} and shape {tuple(shape)}{first}"
    return f"{type(z).__name__} {z!r}"[:200]


def _user_result(xp, z, shape, name):
    """The array a user function returned, checked: numbers or bools of ``shape`` (a scalar is
    broadcast to it); otherwise DomainMismatch (not numbers: None, strings, objects) or
    InvalidValue (another shape), naming the operator and what it returned."""
    given = _describe(z)
    try:
        arr = xp.asarray(z)
    except Exception as exc:
        raise DomainMismatch(f"operator {name}: expected its function to return bool, integer or float values "
                             f"of shape {shape}; it returned {given}") from exc
    if arr.dtype.kind not in "biuf":
        raise DomainMismatch(f"operator {name}: expected its function to return bool, integer or float values "
                             f"of shape {shape}; it returned {given}")
    if arr.shape != tuple(shape):
        if arr.ndim != 0:
            raise InvalidValue(f"operator {name}: expected its function to return values of shape {tuple(shape)} "
                               f"(one per entry); it returned {given}")
        arr = xp.broadcast_to(arr, shape)
    return arr


def _check_args(kind, func, name, vectorized, cuda):
    """The name of a user operator, after checking its constructor's arguments."""
    if not callable(func):
        raise InvalidValue(f"{kind}: expected a callable func; given {func!r}"[:300])
    if name is not None and not isinstance(name, str):
        raise InvalidValue(f"{kind}: name must be a str or None; given {type(name).__name__}")
    _checks.flag(vectorized, kind, "vectorized")
    if cuda is not None and not isinstance(cuda, str):
        raise InvalidValue(f"{kind}: cuda must be a CUDA C expression (a str) or None; given {type(cuda).__name__}")
    default = {"BinaryOp": "user_binary", "UnaryOp": "user_unary", "IndexUnaryOp": "user_indexunary"}[kind]
    return name or getattr(func, "__name__", None) or default


def _setup(op, kind, func, name, output, vectorized, cuda, internal):
    """The fields every operator has: its name (a user operator's checked by
    :func:`_check_args`), its function (a user one adapted by :func:`_user_func`), ``output``,
    ``cuda``, and ``builtin`` (``internal``)."""
    op.name = name if internal else _check_args(kind, func, name, vectorized, cuda)
    op._func = func if internal else _user_func(func, vectorized, op.name)
    op._output = output
    op.cuda = cuda
    op.builtin = internal


def _resolve_output(output, in_dtype, name):
    if output is None:
        return in_dtype
    if callable(output) and not isinstance(output, (str, type, np.dtype)):
        try:
            d = output(in_dtype)
        except SemiringError:
            raise
        except Exception as exc:
            raise InvalidValue(f"output type of {name}: the output function raised {type(exc).__name__}: "
                               f"{exc}") from exc
        return _dt.lookup(d, f"output type of {name}")
    return _dt.lookup(output, f"output type of {name}")


class BinaryOp:
    """A binary operator ``z = f(x, y)`` applied elementwise.

    Parameters
    ----------
    func : callable
        ``func(x, y) -> z`` on NumPy arrays of equal shape. With ``vectorized=False`` it is a
        scalar function, applied element by element (slow; for prototypes).
    name : str, optional
        Name used in messages and in semiring names.
    output : dtype or callable, optional
        Output type: a fixed dtype (``"bool"`` for a comparison), a callable mapping the
        input dtype to the output dtype, or None for "same as the inputs".
    domain : dtype, optional
        If given, both inputs are cast to this type first (``"bool"`` for logical operators;
        NaN then raises InvalidValue).
    vectorized : bool, default True
        Whether ``func`` accepts arrays.
    cuda : str, optional
        CUDA C expression in ``x`` and ``y`` for GPU kernels (e.g. ``"x + y"``).

    Notes
    -----
    Inputs of different types are combined in :func:`semiring.dtypes.unify` of the two
    (GraphBLAS C API 2.0, section 3.5 typecasting).
    """

    def __init__(self, func, name=None, *, output=None, domain=None, vectorized=True, cuda=None,
                 _internal=False, _ufunc=None, _positional=None):
        _setup(self, "BinaryOp", func, name, output, vectorized, cuda, _internal)
        self.domain = None if domain is None else _dt.lookup(domain, f"domain of {self.name}")
        self._ufunc = _ufunc
        self.positional = _positional

    def __repr__(self):
        return f"BinaryOp({self.name})"

    def input_dtype(self, dx, dy) -> np.dtype:
        """Type the inputs are cast to before ``func`` runs."""
        if self.domain is not None:
            return self.domain
        return _dt.unify(dx, dy, f"operands of {self.name}")

    def output_dtype(self, dx, dy=None) -> np.dtype:
        """Type of ``f(x, y)`` for inputs of types ``dx`` and ``dy``."""
        if self.positional:
            return _dt.INT64
        dy = dx if dy is None else dy
        return _resolve_output(self._output, self.input_dtype(dx, dy), self.name)

    def ufunc_for(self, dtype):
        """The NumPy ufunc that computes this operator on ``dtype`` (for reduceat), or None."""
        return self._ufunc(np.dtype(dtype)) if self._ufunc else None

    def __call__(self, x, y):
        """Apply to two arrays (or scalars) elementwise; returns an array of the output type."""
        x, y = np.asarray(x), np.asarray(y)
        if self.positional:
            raise InvalidValue(f"{self.name} is positional: it needs entry indices; use it in a semiring")
        return self.eval(x, y)

    def eval(self, x, y, idx=None):
        """Internal: apply to arrays ``x``, ``y``; ``idx`` = (i, k, j) index arrays for positional ops."""
        if self.positional:
            i, k, j = idx
            pick = {"firsti": i, "firstj": k, "secondi": k, "secondj": j}[self.positional]
            return pick.astype(np.int64, copy=False)
        xp = _dt._xp(x)
        t = self.input_dtype(x.dtype, y.dtype)
        x = _dt.cast(x, t, f"first input of {self.name}", wrap_integers=True)
        y = _dt.cast(y, t, f"second input of {self.name}", wrap_integers=True)
        with np.errstate(all="ignore"):
            z = xp.asarray(self._func(xp, x, y))
        out = self.output_dtype(t, t)
        if z.shape != np.broadcast_shapes(x.shape, y.shape):
            raise InvalidValue(f"{self.name}: func returned shape {z.shape}; expected {x.shape}")
        return _dt.cast(z, out, f"result of {self.name}")


class UnaryOp:
    """A unary operator ``z = f(x)`` applied elementwise (GraphBLAS C API 2.0, section 4.2.1.2).

    Parameters
    ----------
    func : callable
        ``func(x) -> z`` on NumPy arrays (or a scalar function with ``vectorized=False``).
    name : str, optional
    output : dtype or callable, optional
        As for :class:`BinaryOp`.
    domain : dtype, optional
        Inputs are cast to this type first.
    vectorized : bool, default True
    cuda : str, optional
        CUDA C expression in ``x``.
    """

    def __init__(self, func, name=None, *, output=None, domain=None, vectorized=True, cuda=None,
                 _internal=False):
        _setup(self, "UnaryOp", func, name, output, vectorized, cuda, _internal)
        self.domain = None if domain is None else _dt.lookup(domain, f"domain of {self.name}")

    def __repr__(self):
        return f"UnaryOp({self.name})"

    def output_dtype(self, dx) -> np.dtype:
        return _resolve_output(self._output, self.domain or np.dtype(dx), self.name)

    def __call__(self, x):
        return self.eval(np.asarray(x))

    def eval(self, x):
        xp = _dt._xp(x)
        t = self.domain or x.dtype
        x = _dt.cast(x, t, f"input of {self.name}", wrap_integers=True)
        with np.errstate(all="ignore"):
            z = xp.asarray(self._func(xp, x))
        if z.shape != x.shape:
            raise InvalidValue(f"{self.name}: func returned shape {z.shape}; expected {x.shape}")
        return _dt.cast(z, self.output_dtype(t), f"result of {self.name}")


class IndexUnaryOp:
    """An index-unary operator ``z = f(x, i, j, thunk)`` (GraphBLAS C API 2.0, section 3.4.3).

    Used by :func:`semiring.select` (keep entries where ``z`` is true) and
    :func:`semiring.apply` (replace each value by ``z``). For a vector, ``j`` is 0.

    Parameters
    ----------
    func : callable
        ``func(x, i, j, thunk) -> z`` on arrays ``x`` (values), ``i``, ``j`` (int64 indices) and a
        scalar ``thunk``.
    name : str, optional
    output : dtype or callable, optional
        ``"bool"`` for a selection predicate; None for "same as x".
    structural : bool, default False
        True if ``func`` ignores ``x`` (tril, rowle, ...), so it also applies to any dtype.
    cuda : str, optional
        CUDA C expression in ``x``, ``i``, ``j``, ``thunk``.
    """

    def __init__(self, func, name=None, *, output=None, structural=False, vectorized=True, cuda=None,
                 _internal=False):
        _setup(self, "IndexUnaryOp", func, name, output, vectorized, cuda, _internal)
        if not _internal:
            _checks.flag(structural, "IndexUnaryOp", "structural")
        self.structural = structural

    def __repr__(self):
        return f"IndexUnaryOp({self.name})"

    def output_dtype(self, dx) -> np.dtype:
        return _resolve_output(self._output, np.dtype(dx), self.name)

    def eval(self, x, i, j, thunk):
        xp = _dt._xp(x)
        with np.errstate(all="ignore"):
            z = xp.asarray(self._func(xp, x, i, j, thunk))
        if z.shape != x.shape:
            z = xp.broadcast_to(z, x.shape)
        return _dt.cast(z, self.output_dtype(x.dtype), f"result of {self.name}")


def check_not_positional(op, where):
    if getattr(op, "positional", None):
        raise DomainMismatch(f"{where}: a positional operator ({op.name}) is only valid as a semiring's multiply")
