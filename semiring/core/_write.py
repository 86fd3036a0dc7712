"""The one write step every operation ends with: ``C<M, replace> = accum(C, T)``.

GraphBLAS C API 2.0, section 3.5.4 ("the mask, accumulate and replace"):

1. ``Z = T`` without an accumulator; with one, ``Z`` holds ``accum(C(i), T(i))`` where both
   exist and the one present value elsewhere (an absent entry is not a zero).
2. Where the mask allows, ``C`` takes ``Z`` (absent in ``Z`` means deleted). Where it does not,
   ``C`` keeps its old entry, or loses it if ``replace``.

Values are typecast to ``C``'s dtype (an entry of only one of ``C`` and ``T`` straight into it, not
through the accumulator's type). Nothing is modified until everything has been computed
and checked, so an operation that raises leaves ``C`` as it was.
"""

from __future__ import annotations


from .. import _checks
from .. import dtypes as _dt
from ..backends.array import sparse as _sp
from ..exceptions import DimensionMismatch, InvalidValue
from ..ops._base import BinaryOp, check_not_positional
from ..ops.monoid import Monoid
from . import _construct
from .mask import Mask
from .matrix import Matrix
from .vector import Vector


def _kind(shape):
    return "Vector" if len(shape) == 1 else "Matrix"


def _shape_str(shape):
    return f"size {shape[0]}" if len(shape) == 1 else f"shape {shape[0]}x{shape[1]}"


def as_mask(mask, what):
    """Normalize ``mask=``: a Mask, None, or a bare Vector/Matrix (taken as its value mask)."""
    if mask is None or isinstance(mask, Mask):
        return mask
    if isinstance(mask, (Vector, Matrix)):
        return mask.V
    raise InvalidValue(f"{what}: mask must be u.S, u.V, ~u.S, ~u.V (or a Vector/Matrix); given {type(mask).__name__}")


def as_accum(accum, what):
    if accum is None:
        return None
    op = accum.op if isinstance(accum, Monoid) else accum
    if not isinstance(op, BinaryOp):
        raise InvalidValue(f"{what}: accum must be a BinaryOp (e.g. sr.binary.plus); given {accum!r}")
    check_not_positional(op, f"{what} accum")
    return op


def prepare(out, shape, mask, accum, replace, what):
    """Validate the write step's arguments before anything is computed.

    Returns ``(mask, accum)`` normalized. Raises DimensionMismatch for a mask or output of
    the wrong shape or kind, InvalidValue for ``replace=True`` without a mask, a read-only
    output, or arguments of the wrong kind.
    """
    mask = as_mask(mask, what)
    accum = as_accum(accum, what)
    replace = _checks.flag(replace, f"{what} replace")
    if replace and mask is None:
        raise InvalidValue(f"{what}: replace=True needs a mask (it deletes the entries outside it); given mask=None")
    if mask is not None and mask.shape != shape:
        raise DimensionMismatch(
            f"{what}: the mask must match the output, {_kind(shape)} of {_shape_str(shape)}; "
            f"given a {type(mask.parent).__name__} of {_shape_str(mask.shape)}"
        )
    if out is not None:
        cls = Vector if len(shape) == 1 else Matrix
        if not isinstance(out, cls):
            raise InvalidValue(f"{what}: out must be a {cls.__name__}; given {type(out).__name__}")
        if out.shape != shape:
            raise DimensionMismatch(f"{what}: out must have {_shape_str(shape)}; given {_shape_str(out.shape)}")
        if getattr(out, "_readonly", False):
            raise InvalidValue(f"{what}: out is a read-only view (A.T); write into sr.transpose(A) instead")
        if accum is not None:
            accum.input_dtype(out.dtype, out.dtype)
    if mask is not None:
        mask.check()  # NaN in a value mask raises here, before any work
    return mask, accum


def write(out, tk, tv, shape, mask, accum, replace, positions=None, masked=False):
    """Apply ``out<mask, replace> = accum(out, T)``; T given as sorted keys ``tk`` and values ``tv``.

    Returns ``out``, or a new Vector/Matrix of T's dtype when ``out`` is None.

    ``positions`` (sorted keys) may be given by a caller that knows only those positions can
    change (``assign`` passes its region); T must then lie within them. ``masked`` says that
    T lies within the mask already (a masked product computes no term outside it).
    """
    inside_fn = None
    if out is None:
        if mask is not None and not masked:
            keep = mask.allows(tk)
            tk, tv = tk[keep], tv[keep]
        return _new(shape, tv.dtype, tk, tv)
    if mask is not None and not mask.complement and not replace:
        # Only the positions the mask allows can change: update them alone (in place for a
        # bitmap vector), O(|mask| + |T|) instead of O(|out|).
        mkeys = mask.true_keys()
        if positions is None or positions is mkeys:
            positions, inside_fn = mkeys, mask.allows_fn()  # membership in positions = the mask's test
        else:
            positions = positions[_sp.member(mkeys, positions)]
        mask = None
    if mask is None and positions is not None:
        if tk is not positions:  # (T given at exactly the positions, e.g. a scalar assign, is inside)
            inside = _sp.member(positions, tk) if inside_fn is None else inside_fn(tk)
            tk, tv = tk[inside], tv[inside]
        if accum is None:
            zk, zv = tk, _dt.cast(tv, out.dtype, "result", wrap_integers=True)
        else:
            hit, cv = out._values_at(positions)
            zk, zv = accumulate(positions[hit], cv, tk, tv, accum, out.dtype)
        out._apply_delta(positions, zk, zv)
        return out
    ck, cv = out._keys()
    if accum is None:
        zk, zv = tk, _dt.cast(tv, out.dtype, "result", wrap_integers=True)
    else:
        zk, zv = accumulate(ck, cv, tk, tv, accum, out.dtype)
    if mask is None:
        rk, rv = zk, zv
    else:
        keep = mask.allows(zk)
        rk, rv = zk[keep], zv[keep]
        if not replace:
            old = ~mask.allows(ck)
            rk, rv = _sp.merge_disjoint(rk, rv, ck[old], cv[old])
    _store(out, rk, rv)
    return out


def accumulate(ck, cv, tk, tv, accum, dtype):
    """``Z = accum(C, T)`` in C's type ``dtype``: the accumulator where both have an entry (computed
    in its own type, then typecast); elsewhere the one present value, typecast straight into C's
    type (as SuiteSparse:GraphBLAS does), so that an entry of C that T does not touch keeps its
    value exactly (an int64 near 2**63 would not survive a pass through float64)."""
    accum.output_dtype(cv.dtype, tv.dtype)  # DomainMismatch for types the accumulator cannot combine
    return _sp.union(ck, cv, tk, tv, accum, dtype, what=("output", f"result of accum {accum.name}"))


def _new(shape, dtype, keys, vals):
    if len(shape) == 1:
        return Vector._from_parts(shape[0], dtype, keys, vals)
    return Matrix._from_csr(shape[0], shape[1], dtype, *_construct.csr_parts(keys, vals, shape[0], shape[1]))


def _store(out, keys, vals):
    if isinstance(out, Vector):
        out._set(keys, vals)
    else:
        out._assign_keys(keys, vals)
