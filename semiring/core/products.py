"""Semiring products through the write step: ``mxv``, ``vxm``, ``mxm``
(GraphBLAS C API 2.0, sections 4.3.1-4.3.3: GrB_mxm, GrB_vxm, GrB_mxv)."""

from __future__ import annotations

from dataclasses import dataclass

from ..backends._xp import xp_of
from ..backends.cpu import products as _cpu
from ..backends.cpu import spgemm as _cpu_spgemm
from ..backends.cpu import spmv as _cpu_spmv
from ..exceptions import DimensionMismatch, InvalidValue
from . import _args, _hyper, _write
from . import _rowptr
from . import _validate as _v
from .matrix import Matrix
from .vector import Vector

#: Push is chosen when the terms it expands (input entries times the mean degree) are below
#: this multiple of the terms a pull visits (allowed outputs times the mean degree). Beamer et
#: al., "Direction-optimizing breadth-first search", SC 2012 weigh edges the same way (their
#: alpha = 15 favours push because a pull may stop early); on the CPU with NumPy neither side
#: stops early and a term costs about the same either way, so the switch is at equal work.
PUSH_PULL_RATIO = 1.0
_DIRECTIONS = ("auto", "push", "pull", "edge")


@dataclass
class ProductChoice:
    """One ``mxv``/``vxm`` call's direction, as recorded in a caller's ``trace`` list.

    ``push_terms``/``pull_terms`` are the estimates the choice compared: input entries times
    the mean degree, and allowed outputs times the mean degree.
    """

    op: str
    direction: str
    input_nvals: int
    allowed_outputs: int
    push_terms: float
    pull_terms: float


def _direction(direction, u, A_nvals, n_in, n_out, mask, what, trace=None):
    """Push or pull, by the product terms each would expand.

    Push expands every entry of u (about ``nvals(u) * nvals(A) / n_in`` terms); pull visits
    the output positions the mask allows (about ``allowed * nvals(A) / n_out`` terms).
    "edge" (edge-centric: one GPU thread per stored entry of A, for small graphs) is taken
    only when asked for.
    """
    if not isinstance(direction, str) or direction not in _DIRECTIONS:
        raise InvalidValue(f"{what}: direction must be one of {_DIRECTIONS}; given {direction!r}"[:300])
    if trace is not None and not isinstance(trace, list):
        raise InvalidValue(f"{what}: trace must be a list (it receives a ProductChoice) or None; "
                           f"given {type(trace).__name__}")
    push_terms = u.nvals * A_nvals / max(n_in, 1)
    if mask is None:
        allowed = n_out
    else:
        m = mask.parent.nvals if mask.structural else mask.true_keys().shape[0]
        allowed = n_out - m if mask.complement else m
    pull_terms = allowed * A_nvals / max(n_out, 1)
    if direction == "auto":
        direction = "push" if push_terms < PUSH_PULL_RATIO * pull_terms else "pull"
    if trace is not None:
        trace.append(ProductChoice(what, direction, u.nvals, allowed, push_terms, pull_terms))
    return direction


def _rows(mask):
    """Sorted output positions a Vector mask allows (None: all)."""
    if mask is None:
        return None
    if mask.complement:
        allowed = mask.allows_dense()
        return xp_of(allowed).flatnonzero(allowed)
    return mask.true_keys()


def _keep(mask):
    return None if mask is None else mask.allows_fn()


def _kernels(A):
    """The product kernels of A's backend (each overrides the array layer's where it has faster)."""
    if A.device == "gpu":
        from ..backends.gpu import products as gpu_products

        return gpu_products
    return _cpu


def _allowed(A, mask):
    """For the GPU push kernel: the mask as one bool per output position (not for hypersparse
    operands, whose products run the generic code with the mask's index list)."""
    if A.device != "gpu" or mask is None or _rowptr.is_hyper(A._rowptr):
        return {}
    return {"allowed": mask.allows_dense()}


@_v.gpu_memory("mxv")
def mxv(A, u, semiring, *, mask=None, accum=None, replace=False, out=None, direction="auto", trace=None):
    """Matrix-vector product ``w<mask, replace> = accum(w, A ⊕.⊗ u)``.

    ``w(i) = ⊕_k A(i,k) ⊗ u(k)`` over the k where both are present; rows with no such k are
    absent in the result.

    Parameters
    ----------
    A : Matrix, shape (m, n)
    u : Vector, size n
    semiring : Semiring or str
        For example ``sr.semirings.min_plus`` or ``"any_pair"``.
    mask : Mask, optional
        ``w.S``, ``w.V``, ``~w.S``, ``~w.V`` of a size-m vector; a bare Vector means its ``.V``.
    accum : BinaryOp, optional
        Combines old entries of ``out`` with the result.
    replace : bool, default False
        Delete entries of ``out`` outside the mask (needs a mask).
    out : Vector, size m, optional
        Written in place and returned; otherwise a new Vector is returned.
    direction : {"auto", "push", "pull", "edge"}
        Pull = a dot product per allowed row of A; push = expand the columns of A selected by
        u's entries (via the cached ``A.T``); edge = one GPU thread per stored entry of A
        (edge-centric, for small graphs). The result is the same.
    trace : list, optional
        Receives a :class:`ProductChoice` recording the direction taken and why.

    Returns
    -------
    Vector, size m, dtype ``semiring.output_dtype(A.dtype, u.dtype)`` (or out's dtype).

    Raises
    ------
    DimensionMismatch
        ``A.ncols != u.size``, or mask/out not of size m.
    DomainMismatch
        The semiring cannot take these dtypes.
    InvalidValue
        ``replace`` without mask, wrong argument kinds, NaN in a value mask.
    """
    return _matvec("mxv", A, u, semiring, mask, accum, replace, out, direction, trace, is_vxm=False)


@_v.gpu_memory("vxm")
def vxm(u, A, semiring, *, mask=None, accum=None, replace=False, out=None, direction="auto", trace=None):
    """Vector-matrix product ``w<mask, replace> = accum(w, u ⊕.⊗ A)``.

    ``w(j) = ⊕_k u(k) ⊗ A(k,j)``: with ``u`` a frontier and ``any_pair``, the out-neighbours.

    Parameters
    ----------
    u : Vector, size m
    A : Matrix, shape (m, n)
    semiring : Semiring or str
    mask, accum, replace, out
        As in :func:`mxv`, for a size-n result.
    direction : {"auto", "push", "pull", "edge"}
        Push = expand the rows of A at u's entries (SpMSpV); pull = a dot product per
        allowed column of A (rows of the cached ``A.T``); edge = one GPU thread per stored
        entry of A.
    trace : list, optional
        Receives a :class:`ProductChoice` recording the direction taken and why.

    Returns
    -------
    Vector, size n.

    Raises
    ------
    DimensionMismatch, DomainMismatch, InvalidValue
        As in :func:`mxv`.
    """
    return _matvec("vxm", A, u, semiring, mask, accum, replace, out, direction, trace, is_vxm=True)


def _matvec(what, A, u, semiring, mask, accum, replace, out, direction, trace, is_vxm):
    """mxv (``A(i,k) * u(k)``) and vxm (``u(k) * A(k,j)``): checks, direction, kernel, write."""
    for x, cls, name in ((u, Vector, "u"), (A, Matrix, "A"))[:: 1 if is_vxm else -1]:
        _args.require(x, cls, f"{what} {name}")
    s = _args.semiring(semiring, what)
    n_in, n_out = (A.nrows, A.ncols) if is_vxm else (A.ncols, A.nrows)
    if u.size != n_in:
        raise DimensionMismatch(f"{what}: A is {A.nrows}x{A.ncols}, so u must have size {n_in}; given size {u.size}")
    _v.same_device(A, u, out)
    s.output_dtype(*((u.dtype, A.dtype) if is_vxm else (A.dtype, u.dtype)))
    mask, accum = _write.prepare(out, (n_out,), mask, accum, replace, what)
    if A.device == "gpu" and trace is None:
        # on the device from end to end: direction, product and write step (no host read)
        from ..backends.gpu import cusparse, resident

        write = resident.WriteStep(out, mask, accum, replace)
        # arithmetic semirings by cuSPARSE SpMV where it is exact, the resident kernels otherwise
        w = cusparse.matvec(A, u, s, write, direction, is_vxm)
        if w is NotImplemented:
            w = resident.matvec(A, u, s, write, direction, is_vxm)
        if w is not NotImplemented:
            return w
    if A.device == "cpu" and trace is None:
        # arithmetic semirings by SciPy's compiled SpMV where it is exact
        t = _cpu_spmv.matvec(A, u, s, mask, direction, is_vxm)
        if t is not NotImplemented:
            return _write.write(out, t[0], t[1], (n_out,), mask, accum, replace)
    k = _kernels(A)
    d = _direction(direction, u, A.nvals, n_in, n_out, mask, what, trace)
    if d == "edge":
        tk, tv = k.edge(A, u, s, keep=_keep(mask), is_vxm=is_vxm, **_allowed(A, mask))
    elif d == "push":
        # expand the rows of A (vxm) or of A^T (mxv; flip keeps the operands in the user's order)
        idx, vals = u._keys()
        tk, tv = k.vxm(idx, vals, A if is_vxm else A.T, s, keep=_keep(mask), flip=not is_vxm, **_allowed(A, mask))
    else:
        # a dot product per allowed row of A (mxv) or of A^T (vxm)
        tk, tv = k.mxv(A.T if is_vxm else A, u, s, rows=_rows(mask), flip=is_vxm)
    # every direction computes only the terms the mask allows
    return _write.write(out, tk, tv, (n_out,), mask, accum, replace, masked=True)


@_v.gpu_memory("mxm")
def mxm(A, B, semiring, *, mask=None, accum=None, replace=False, out=None):
    """Matrix-matrix product ``C<mask, replace> = accum(C, A ⊕.⊗ B)`` (Gustavson's row-wise SpGEMM).

    Parameters
    ----------
    A : Matrix, shape (m, k)
    B : Matrix, shape (k, n)
    semiring : Semiring or str
    mask : Mask of an m x n Matrix, optional
        Terms outside the mask are never multiplied (masked SpGEMM, as in triangle counting).
    accum, replace, out
        As in :func:`mxv`, for an m x n result.

    Returns
    -------
    Matrix, shape (m, n).

    Raises
    ------
    DimensionMismatch
        ``A.ncols != B.nrows`` or mask/out of the wrong shape.
    DomainMismatch, InvalidValue
        As in :func:`mxv`.
    """
    what = "mxm"
    _args.require(A, Matrix, f"{what} A")
    _args.require(B, Matrix, f"{what} B")
    s = _args.semiring(semiring, what)
    if A.ncols != B.nrows:
        raise DimensionMismatch(f"{what}: inner dimensions differ: A is {A.nrows}x{A.ncols}, B is {B.nrows}x{B.ncols}")
    _v.same_device(A, B, out)
    s.output_dtype(A.dtype, B.dtype)
    shape = (A.nrows, B.ncols)
    mask, accum = _write.prepare(out, shape, mask, accum, replace, what)
    _v.same_device(A, B, out, None if mask is None else mask.parent)
    mats = (A, B, out, None if mask is None else mask.parent)
    if _hyper.huge(A.shape, B.shape, shape) or any(M is not None and _rowptr.is_hyper(M._rowptr) for M in mats):
        # hypersparse operands: multiply their compressed forms (the kernels index rows directly)
        # (their sizes are at most the entries, so full row pointers cost no more than those)
        def step(axes, a, b, mask, accum, replace, out):
            shape = (a.nrows, b.ncols)
            return _mxm(a, b, _hyper.reindexed_semiring(s, axes), shape, mask, accum, replace, out)

        return _hyper.run(step, [(A, (0, 2)), (B, (2, 1))], shape, out, mask, accum, replace, naxes=3)
    return _mxm(A, B, s, shape, mask, accum, replace, out)


def _mxm(A, B, s, shape, mask, accum, replace, out):
    """The product and the write step of ``mxm`` (arguments checked and normalized)."""
    if mask is not None and not mask.complement and _cpu.counts_terms(s):
        # plus.pair under a mask (triangle counting): only the mask's entries are counted
        # (CPU: SciPy's compiled SpGEMM, then the mask; GPU: a sorted-list intersection per key)
        tk, tv = _kernels(A).mxm_count_masked(A, B, s, mask.true_keys())
    else:
        # arithmetic semirings on the CPU by SciPy's compiled SpGEMM where it is exact
        t = _cpu_spgemm.mxm(A, B, s, mask) if A.device == "cpu" else NotImplemented
        if t is not NotImplemented:
            return _write.write(out, t[0], t[1], shape, mask, accum, replace)
        keep = mask.allows_fn() if mask is not None else None
        rows = mask.allowed_rows() if mask is not None and not mask.complement else None
        tk, tv = _kernels(A).mxm(A, B, s, keep=keep, row_allowed=rows)
    return _write.write(out, tk, tv, shape, mask, accum, replace)
