"""Operations computed by SuiteSparse:GraphBLAS itself, for SuiteSparse containers.

Each function here takes an operation's checked arguments (the public function in
``semiring.core`` has validated them and normalized the write step: mask, accum, replace, out)
and either computes the whole operation with one call of the C library, mask, accumulator and
replace included (``GrB_mxv``, ``GrB_vxm``, ``GrB_mxm``, ``GrB_eWiseAdd``, ``GrB_eWiseMult``,
``GrB_apply``, ``GrB_select``, ``GrB_reduce``, ``GrB_transpose``; GraphBLAS C API 2.0, chapter
4), or returns ``NotImplemented`` and the NumPy code computes it. It declines where the two
libraries' answers would differ, so a SuiteSparse container gives the results of a NumPy one:

- an operator that is not one of semiring's built-in objects (:mod:`.optable` has no handle);
- a typecast semiring refuses (:func:`semiring.dtypes.cast`: NaN into bool or an integer, a
  float64 too large for float32) that the C library would make silently: every cast on the
  way (operands into the operator's domain, the result into ``out``'s type, through the
  accumulator) must be one that cannot fail (:func:`_safe`);
- a ``select`` thunk that the operator's type cannot hold exactly, an ``apply`` of a
  float-only function on integers (semiring raises);
- an output that is not a SuiteSparse container (``out=`` of the NumPy backend) or an operand
  too large for SuiteSparse, and ``trace=`` (the NumPy path records its choice).

Operands of the NumPy backend are imported for the call (:mod:`.convert`). A result is a new
SuiteSparse container, or ``out`` itself with its new content; nothing pending is left in it
(``GrB_wait(GrB_MATERIALIZE)``: python-graphblas runs SuiteSparse in non-blocking mode, and a
container may be read by several threads).

``FALLBACKS`` counts, by operation, the calls with a SuiteSparse operand that declined.
"""

from __future__ import annotations

import collections

import numpy as np

from ... import _checks
from ...core.matrix import Matrix
from ...exceptions import OutOfMemory, SemiringError
from ...ops._base import IndexUnaryOp, UnaryOp
from ...ops.semiring import SEMIRING as _SEMIRINGS
from . import GB_TYPES, convert, fits, load, optable
from .containers import SSMatrix, SSVector, from_gb

_gb = load()  # python-graphblas, GraphBLAS initialized (this module is imported for SuiteSparse operands)
from suitesparse_graphblas import ffi, lib  # noqa: E402  (after GrB_init)

FALLBACKS = collections.Counter()
_SS = (SSMatrix, SSVector)
_GTYPES = {d: _gb.dtypes.lookup_dtype(name) for d, name in GB_TYPES.items()}
_desc_cache = {}


def _safe(src, dst):
    """True when semiring's typecast of ``src`` values into ``dst`` can never raise, so that
    it equals C's (:func:`semiring.dtypes.cast` with ``wrap_integers``)."""
    src, dst = np.dtype(src), np.dtype(dst)
    if src == dst or src.kind == "b":
        return True
    if src.kind in "iu":
        return dst.kind in "biuf"
    return src.kind == "f" and dst.kind == "f" and dst.itemsize >= src.itemsize


def _obj(x):
    """The python-graphblas object of a CPU container (its own for a SuiteSparse one, an
    imported copy for a NumPy one), or None when SuiteSparse cannot hold it."""
    if type(x) in _SS:
        return x._gb()
    if x.device != "cpu" or not fits(x.shape):
        return None
    return convert.import_matrix(x) if isinstance(x, Matrix) else convert.import_vector(x)


def _descriptor(mask, replace, transpose_first=False):
    key = (None if mask is None else (mask.complement, mask.structural), replace, transpose_first)
    d = _desc_cache.get(key)
    if d is None:
        from graphblas.core import descriptor

        kw = dict(output_replace=replace, transpose_first=transpose_first)
        if mask is not None:
            kw.update(mask_complement=mask.complement, mask_structure=mask.structural)
        desc = descriptor.lookup(**kw)
        d = _desc_cache[key] = (desc, ffi.NULL if desc is None else desc._carg)
    return d[1]


class _Target:
    """The output of one native call: ``out``'s object or a new one of the result's type, the
    mask's object, the typed accumulator and the descriptor (the write step's arguments)."""

    __slots__ = ("out", "obj", "dtype", "mask", "accum", "desc", "keep")

    def finish(self):
        """Wait for the result, then give it to ``out`` or wrap it in a new container."""
        if isinstance(self.obj, _gb.Matrix):
            lib.GrB_Matrix_wait(self.obj._carg, lib.GrB_MATERIALIZE)
        else:
            lib.GrB_Vector_wait(self.obj._carg, lib.GrB_MATERIALIZE)
        if self.out is None:
            return from_gb(self.obj, self.dtype)
        self.out._publish(gbobj=self.obj)
        return self.out


def _target(write, shape, tdtype, transpose_first=False):
    """A :class:`_Target` for ``write = (out, mask, accum, replace)`` and a computed result T of
    type ``tdtype``, or None where the call must decline (see the module notes)."""
    out, mask, accum, replace = write
    t = _Target()
    t.keep = []
    t.out = out
    t.accum = ffi.NULL
    if out is None:
        gb = _gb
        gtype = _GTYPES[np.dtype(tdtype)]
        if len(shape) == 1:
            p = ffi.new("GrB_Vector*")
            _check(lib.GrB_Vector_new(p, gtype.gb_obj, shape[0]), "GrB_Vector_new")
            t.obj = gb.Vector._from_obj(p, gtype, shape[0])
        else:
            p = ffi.new("GrB_Matrix*")
            _check(lib.GrB_Matrix_new(p, gtype.gb_obj, shape[0], shape[1]), "GrB_Matrix_new")
            t.obj = gb.Matrix._from_obj(p, gtype, shape[0], shape[1])
        t.dtype = np.dtype(tdtype)
    else:
        if type(out) not in _SS:
            return None
        if accum is None:
            if not _safe(tdtype, out.dtype):
                return None
        else:
            a = accum.input_dtype(out.dtype, tdtype)
            z = accum.output_dtype(out.dtype, tdtype)
            h = optable.binary_op(accum, a)
            if h is None or not (_safe(out.dtype, a) and _safe(tdtype, a) and _safe(z, out.dtype)):
                return None
            t.accum = h
        t.obj = out._gb()
        t.dtype = out.dtype
    if mask is None:
        t.mask = ffi.NULL
    else:
        m = _obj(mask.parent)
        if m is None:
            return None
        if not mask.structural and mask.parent.dtype.kind == "f":
            # SuiteSparse reads a value mask's bytes (-0.0 would be true); the C API casts to bool
            m = m.dup(dtype="BOOL")
        t.keep.append(m)
        t.mask = m._carg
    t.desc = _descriptor(mask, replace, transpose_first)
    return t


def _check(info, what):
    if info == lib.GrB_SUCCESS:
        return
    if info == lib.GrB_OUT_OF_MEMORY:
        raise OutOfMemory(f"{what}: SuiteSparse:GraphBLAS ran out of memory")
    raise SemiringError(f"{what}: SuiteSparse:GraphBLAS returned error code {info}")


def _decline(what):
    FALLBACKS[what] += 1
    return NotImplemented


def _operands(*xs):
    objs = [_obj(x) for x in xs]
    return None if any(o is None for o in objs) else objs


def matvec(A, u, s, write, is_vxm, what):
    """``w<M, replace> = accum(w, A ⊕.⊗ u)`` (mxv) or ``u ⊕.⊗ A`` (vxm): ``GrB_mxv`` /
    ``GrB_vxm``; SuiteSparse picks the push (saxpy) or pull (dot) method itself."""
    dx, dy = (u.dtype, A.dtype) if is_vxm else (A.dtype, u.dtype)
    h, rtype = _semiring(s, dx, dy)
    if h is None:
        return _decline(what)
    t = _target(write, (A.ncols if is_vxm else A.nrows,), rtype)
    objs = _operands(A, u)
    if t is None or objs is None or (s.multiply.positional and _hypersparse(objs[0])):
        return _decline(what)
    a, v = objs[0]._carg, objs[1]._carg
    if is_vxm:
        _check(lib.GrB_vxm(t.obj._carg, t.mask, t.accum, h, v, a, t.desc), what)
    else:
        _check(lib.GrB_mxv(t.obj._carg, t.mask, t.accum, h, a, v, t.desc), what)
    return t.finish()


def mxm(A, B, s, write):
    """``C<M, replace> = accum(C, A ⊕.⊗ B)``: ``GrB_mxm`` (SuiteSparse chooses Gustavson,
    hash, dot or saxpy3 by the mask and the operands)."""
    h, rtype = _semiring(s, A.dtype, B.dtype)
    if h is None:
        return _decline("mxm")
    t = _target(write, (A.nrows, B.ncols), rtype)
    objs = _operands(A, B)
    if t is None or objs is None or (s.multiply.positional and (_hypersparse(objs[0]) or _hypersparse(objs[1]))):
        return _decline("mxm")
    _check(lib.GrB_mxm(t.obj._carg, t.mask, t.accum, h, objs[0]._carg, objs[1]._carg, t.desc), "mxm")
    return t.finish()


_by_semiring = {}


def _semiring(s, dx, dy):
    """(handle, result dtype) of semiring ``s`` on operands of ``dx``, ``dy``, or (None, None)."""
    key = (s, dx, dy)
    r = _by_semiring.get(key) if _SEMIRINGS.get(s.name) is s else None
    if r is None:
        r = _by_semiring[key] = _typed_semiring(s, dx, dy)
    return r


def _hypersparse(G):
    """True for a matrix SuiteSparse stores hypersparse: its positional products are computed on
    the NumPy side (SuiteSparse:GraphBLAS 9.4 gives ``firsti`` of a hypersparse A as the
    position in the list of nonempty rows, not the row index)."""
    return G.ss.format.startswith("hyper")


def _typed_semiring(s, dx, dy):
    mult = s.multiply
    rtype = s.output_dtype(dx, dy)
    if mult.positional:
        return optable.semiring(s, np.int64, rtype), rtype
    t = mult.input_dtype(dx, dy)
    if not (_safe(dx, t) and _safe(dy, t)) or mult.output_dtype(dx, dy) != rtype:
        return None, None
    return optable.semiring(s, t, rtype), rtype


def ewise(kind, x, y, f, write):
    """``ewise_add`` (the union of the structures) or ``ewise_mult`` (the intersection) by
    ``GrB_eWiseAdd_BinaryOp`` / ``GrB_eWiseMult_BinaryOp``."""
    what = f"ewise_{kind}"
    t_in = f.input_dtype(x.dtype, y.dtype)
    z = f.output_dtype(x.dtype, y.dtype)
    h = optable.binary_op(f, t_in)
    if h is None or not (_safe(x.dtype, t_in) and _safe(y.dtype, t_in)):
        return _decline(what)
    if kind == "add" and not (_safe(x.dtype, z) and _safe(y.dtype, z)):
        return _decline(what)  # a value present in one operand alone is cast into z
    t = _target(write, x.shape, z)
    objs = _operands(x, y)
    if t is None or objs is None:
        return _decline(what)
    fn = {("add", 1): lib.GrB_Vector_eWiseAdd_BinaryOp, ("add", 2): lib.GrB_Matrix_eWiseAdd_BinaryOp,
          ("mult", 1): lib.GrB_Vector_eWiseMult_BinaryOp, ("mult", 2): lib.GrB_Matrix_eWiseMult_BinaryOp}
    _check(fn[kind, len(x.shape)](t.obj._carg, t.mask, t.accum, h, objs[0]._carg, objs[1]._carg, t.desc), what)
    return t.finish()


_FLOAT_ONLY = ("sqrt", "exp", "log")


def _scalar(value, dtype):
    """A Python value of ``value`` cast to ``dtype`` (for a typed C scalar argument)."""
    return np.asarray(value).astype(dtype).item()


def apply(x, f, left, right, thunk, write):
    """``apply`` of a UnaryOp, a BinaryOp with a bound scalar or an IndexUnaryOp:
    ``GrB_apply`` (C API 2.0, section 4.3.8)."""
    kind = "Vector" if len(x.shape) == 1 else "Matrix"
    if isinstance(f, UnaryOp):
        if f.name in _FLOAT_ONLY and x.dtype.kind != "f":
            return _decline("apply")  # semiring raises DomainMismatch
        t_in = f.domain or x.dtype
        h = optable.unary_op(f, t_in)
        z = f.output_dtype(x.dtype)
        if h is None or not _safe(x.dtype, t_in):
            return _decline("apply")
        call = lambda t, xo: getattr(lib, f"GrB_{kind}_apply")(t.obj._carg, t.mask, t.accum, h, xo, t.desc)  # noqa: E731
    elif isinstance(f, IndexUnaryOp):
        th = 0 if thunk is None else thunk
        h, z, suffix, th = _indexunary(f, x.dtype, th)
        if h is None:
            return _decline("apply")
        fn = getattr(lib, f"GrB_{kind}_apply_IndexOp_{suffix}")
        call = lambda t, xo: fn(t.obj._carg, t.mask, t.accum, h, xo, th, t.desc)  # noqa: E731
    else:
        s = left if left is not None else right
        sd = np.asarray(s).dtype
        t_in = f.input_dtype(x.dtype, sd) if left is None else f.input_dtype(sd, x.dtype)
        z = f.output_dtype(x.dtype, sd) if left is None else f.output_dtype(sd, x.dtype)
        h = optable.binary_op(f, t_in)
        if h is None or not (_safe(x.dtype, t_in) and _safe(sd, t_in)):
            return _decline("apply")
        sv, suffix = _scalar(s, t_in), GB_TYPES[np.dtype(t_in)]
        fn = getattr(lib, f"GrB_{kind}_apply_BinaryOp{'1st' if left is not None else '2nd'}_{suffix}")
        if left is not None:
            call = lambda t, xo: fn(t.obj._carg, t.mask, t.accum, h, sv, xo, t.desc)  # noqa: E731
        else:
            call = lambda t, xo: fn(t.obj._carg, t.mask, t.accum, h, xo, sv, t.desc)  # noqa: E731
    t = _target(write, x.shape, z)
    objs = _operands(x)
    if t is None or objs is None:
        return _decline("apply")
    _check(call(t, objs[0]._carg), "apply")
    return t.finish()


def _indexunary(f, dtype, thunk):
    """(handle, output dtype, C thunk type suffix, thunk value) of a built-in IndexUnaryOp on
    values of ``dtype``, or a None handle where SuiteSparse would compute something else (a
    thunk the operator's thunk type cannot hold exactly)."""
    h = optable.indexunary_op(f, dtype)
    if h is None:
        return None, None, None, None
    if f.structural:
        th, suffix = thunk, "INT64"
        if not _checks.is_integer(th):
            return None, None, None, None
        if not -2**63 <= int(th) < 2**63:
            return None, None, None, None
        th = int(th)
    else:
        suffix = GB_TYPES[np.dtype(dtype)]
        with np.errstate(all="ignore"):
            try:
                th_c = np.asarray(thunk).astype(dtype)
            except (OverflowError, ValueError):
                return None, None, None, None
            exact = bool(np.asarray(th_c == np.asarray(thunk)))
        if not exact:
            return None, None, None, None
        th = th_c.item()
    return h, f.output_dtype(dtype), suffix, th


def select(x, f, thunk, write):
    """``select`` by a built-in index-unary predicate: ``GrB_select`` (C API 2.0, section 4.3.9)."""
    h, z, suffix, th = _indexunary(f, x.dtype, thunk)
    if h is None or z != np.bool_:
        return _decline("select")
    t = _target(write, x.shape, x.dtype)
    objs = _operands(x)
    if t is None or objs is None:
        return _decline("select")
    fn = getattr(lib, f"GrB_{'Vector' if len(x.shape) == 1 else 'Matrix'}_select_{suffix}")
    _check(fn(t.obj._carg, t.mask, t.accum, h, objs[0]._carg, th, t.desc), "select")
    return t.finish()


def reduce_lines(A, m, columns, write, what):
    """``w = ⊕_j A(i, j)`` (rows) or ``⊕_i A(i, j)`` (columns, through the descriptor's
    transpose of A): ``GrB_Matrix_reduce_Monoid`` (C API 2.0, section 4.3.10.1)."""
    from ...ops.monoid import Monoid

    if not isinstance(m, Monoid):
        return _decline(what)
    d = m.domain_for(A.dtype)
    h = optable.monoid(m, d)
    if h is None or not _safe(A.dtype, d):
        return _decline(what)
    t = _target(write, (A.ncols if columns else A.nrows,), d, transpose_first=columns)
    objs = _operands(A)
    if t is None or objs is None:
        return _decline(what)
    _check(lib.GrB_Matrix_reduce_Monoid(t.obj._carg, t.mask, t.accum, h, objs[0]._carg, t.desc), what)
    return t.finish()


def reduce_scalar(x, m):
    """``s = ⊕ x(i)`` over all entries: ``GrB_Vector_reduce_<T>`` / ``GrB_Matrix_reduce_<T>``
    into a C scalar (the monoid's identity when x is empty), as a NumPy scalar."""
    d = m.domain_for(x.dtype)
    h = optable.monoid(m, d)
    objs = _operands(x)
    if h is None or objs is None or not _safe(x.dtype, d):
        return _decline("reduce_scalar")
    suffix, ctype = _ctype(d)
    p = ffi.new(f"{ctype}*", _scalar(m.identity_for(d), d))
    kind = "Vector" if len(x.shape) == 1 else "Matrix"
    _check(getattr(lib, f"GrB_{kind}_reduce_{suffix}")(p, ffi.NULL, h, objs[0]._carg, ffi.NULL), "reduce_scalar")
    if m.name in ("min", "max") and np.dtype(d).kind == "f" and np.isinf(p[0]) and x.nvals:
        return _decline("reduce_scalar")  # every value NaN: semiring gives NaN, GraphBLAS the identity
    return np.dtype(d).type(p[0])


def transpose(A, write):
    """``C<M, replace> = accum(C, A')``: ``GrB_transpose`` (C API 2.0, section 4.3.10)."""
    t = _target(write, (A.ncols, A.nrows), A.dtype)
    objs = _operands(A)
    if t is None or objs is None:
        return _decline("transpose")
    _check(lib.GrB_transpose(t.obj._carg, t.mask, t.accum, objs[0]._carg, t.desc), "transpose")
    return t.finish()


def _index(idx, n, keep):
    """(C index list, its length) of an int64 index array, or (GrB_ALL, n) for None."""
    if idx is None:
        return lib.GrB_ALL, n
    arr = np.ascontiguousarray(idx, dtype=np.uint64)
    keep.append(arr)
    return ffi.from_buffer("GrB_Index[]", arr), arr.shape[0]


def _ctype(dtype):
    suffix = GB_TYPES[np.dtype(dtype)]
    return suffix, {"BOOL": "bool", "FP32": "float", "FP64": "double"}.get(suffix, suffix.lower() + "_t")


def assign(out, u, I, J, write):
    """``out<M, replace>(I, J) = accum(out(I, J), u)`` for a container or a scalar ``u`` (a NumPy
    scalar): ``GrB_assign`` (C API 2.0, section 4.3.7; the mask covers all of ``out``). ``I``,
    ``J``: int64 index arrays in u's order, None for all (J is None for a Vector)."""
    matrix = isinstance(out, Matrix)
    scalar = not hasattr(type(u), "nvals")
    tdtype = np.asarray(u).dtype if scalar else u.dtype
    t = _target(write, out.shape, tdtype)
    if t is None or type(out) not in _SS:
        return _decline("assign")
    ri, ni = _index(I, out.shape[0], t.keep)
    if matrix:
        rj, nj = _index(J, out.shape[1], t.keep)
        if not scalar and u.shape != (ni, nj):
            return _decline("assign")  # the NumPy path raises, naming the shapes
    elif not scalar and u.shape != (ni,):
        return _decline("assign")
    kind = "Matrix" if matrix else "Vector"
    if scalar:
        suffix, _ = _ctype(tdtype)
        fn, src = getattr(lib, f"GrB_{kind}_assign_{suffix}"), _scalar(u, tdtype)
    else:
        objs = _operands(u)
        if objs is None:
            return _decline("assign")
        fn, src = getattr(lib, f"GrB_{kind}_assign"), objs[0]._carg
    args = (ri, ni, rj, nj) if matrix else (ri, ni)
    _check(fn(t.obj._carg, t.mask, t.accum, src, *args, t.desc), "assign")
    return t.finish()


def extract(x, I, J, row, write):
    """``w<M> = accum(w, u(I))``, ``C<M> = accum(C, A(I, J))`` or, for ``row`` (an int), the row
    ``w = A(row, J)``: ``GrB_extract`` / ``GrB_Col_extract`` on A' (C API 2.0, section 4.3.6).
    ``I``, ``J``: int64 index arrays, None for all."""
    keep = []
    if len(x.shape) == 1:
        ri, ni = _index(I, x.size, keep)
        shape = (ni,)
    else:
        rj, nj = _index(J, x.ncols, keep)
        if row is None:
            ri, ni = _index(I, x.nrows, keep)
            shape = (ni, nj)
        else:
            shape = (nj,)
    t = _target(write, shape, x.dtype, transpose_first=row is not None)
    objs = _operands(x)
    if t is None or objs is None:
        return _decline("extract")
    if len(x.shape) == 1:
        info = lib.GrB_Vector_extract(t.obj._carg, t.mask, t.accum, objs[0]._carg, ri, ni, t.desc)
    elif row is None:
        info = lib.GrB_Matrix_extract(t.obj._carg, t.mask, t.accum, objs[0]._carg, ri, ni, rj, nj, t.desc)
    else:
        info = lib.GrB_Col_extract(t.obj._carg, t.mask, t.accum, objs[0]._carg, rj, nj, row, t.desc)
    _check(info, "extract")
    return t.finish()


__all__ = ["FALLBACKS", "apply", "assign", "ewise", "extract", "matvec", "mxm", "reduce_lines", "reduce_scalar",
           "select", "transpose"]
