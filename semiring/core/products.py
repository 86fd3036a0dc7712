"""Semiring products through the write step: ``mxv``, ``vxm``, ``mxm``
(GraphBLAS C API 2.0, sections 4.3.1-4.3.3: GrB_mxm, GrB_vxm, GrB_mxv)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..backends import _select
from ..backends._xp import xp_of
from ..backends.array import products as _array
from ..backends.array.sparse import group_starts
from ..backends.cpu import products as _cpu
from ..backends.cpu import spgemm as _cpu_spgemm
from ..backends.cpu import spmv as _cpu_spmv
from ..exceptions import DimensionMismatch, InvalidValue
from . import _hyper, _write
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
    _check_direction(direction, trace, what)
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


def _check_direction(direction, trace, what):
    """InvalidValue unless ``direction`` is one of :data:`_DIRECTIONS` and ``trace`` a list or None."""
    if not isinstance(direction, str) or direction not in _DIRECTIONS:
        raise InvalidValue(f"{what}: direction must be one of {_DIRECTIONS}; given {direction!r}"[:300])
    if trace is not None and not isinstance(trace, list):
        raise InvalidValue(f"{what}: trace must be a list (it receives a ProductChoice) or None; "
                           f"given {type(trace).__name__}")


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
        _v.require(x, cls, f"{what} {name}")
    s = _v.semiring(semiring, what)
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
    ss = _select.native(A, u, out, mask)
    if ss is not None and trace is None:
        _check_direction(direction, trace, what)
        # SuiteSparse containers: one GrB_mxv / GrB_vxm, mask and accum included
        w = ss.matvec(A, u, s, (out, mask, accum, replace), is_vxm, what)
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
    """Matrix-matrix product ``C<mask, replace> = accum(C, A ⊕.⊗ B)``.

    Without a mask, or with a complemented one, this is Gustavson's row-wise SpGEMM (the
    "saxpy" method: each row of A expands the rows of B it selects). Under a mask that is not
    complemented, it is either that expansion, which drops the terms the mask forbids before
    multiplying them, or the masked dot-product method, which computes only the allowed
    entries, ``C(i,j) = A(i,:) ⊕.⊗ B(:,j)`` by intersecting row i of A with column j of B (a
    row of the cached ``B.T``); the one of lower estimated cost is taken (see
    :func:`mxm_method`). The result is the same either way.

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

    References
    ----------
    F. G. Gustavson, "Two fast algorithms for sparse matrices: multiplication and permuted
    transposition", ACM TOMS 4(3), 1978 (the row-wise expansion). T. A. Davis, "Algorithm 1000:
    SuiteSparse:GraphBLAS: graph algorithms in the language of sparse linear algebra", ACM TOMS
    45(4), 2019 (the masked dot-product method and the choice between the two by their work).
    """
    what = "mxm"
    _v.require(A, Matrix, f"{what} A")
    _v.require(B, Matrix, f"{what} B")
    s = _v.semiring(semiring, what)
    if A.ncols != B.nrows:
        raise DimensionMismatch(f"{what}: inner dimensions differ: A is {A.nrows}x{A.ncols}, B is {B.nrows}x{B.ncols}")
    _v.same_device(A, B, out)
    s.output_dtype(A.dtype, B.dtype)
    shape = (A.nrows, B.ncols)
    mask, accum = _write.prepare(out, shape, mask, accum, replace, what)
    _v.same_device(A, B, out, None if mask is None else mask.parent)
    mats = (A, B, out, None if mask is None else mask.parent)
    ss = _select.native(*mats)
    if ss is not None:
        # SuiteSparse containers: one GrB_mxm, mask and accum included
        C = ss.mxm(A, B, s, (out, mask, accum, replace))
        if C is not NotImplemented:
            return C
    if _hyper.huge(A.shape, B.shape, shape) or any(M is not None and _rowptr.is_hyper(M._rowptr) for M in mats):
        # hypersparse operands: multiply their compressed forms (the kernels index rows directly)
        # (their sizes are at most the entries, so full row pointers cost no more than those)
        def step(axes, a, b, mask, accum, replace, out):
            shape = (a.nrows, b.ncols)
            return _mxm(a, b, _hyper.reindexed_semiring(s, axes), shape, mask, accum, replace, out)

        return _hyper.run(step, [(A, (0, 2)), (B, (2, 1))], shape, out, mask, accum, replace, naxes=3)
    return _mxm(A, B, s, shape, mask, accum, replace, out)


#: How ``mxm`` under a mask that is not complemented computes: "auto" takes the method of lower
#: estimated cost (:func:`mxm_method`); "dot" or "expand" (or "count" for ``plus.pair`` on the
#: CPU) forces one, for comparisons.
MXM_METHOD = "auto"

#: The cost model of a masked mxm, in nanoseconds per unit, measured with NumPy 2.4 and SciPy
#: 1.17 on 2 x86 cores over Kronecker graphs (scales 10-14), the New York road graph and uniform
#: random graphs (4-200 entries per row), with masks from 1% of A to the whole product (the dot
#: and expansion fits are within a factor of 1.6 of the 29 measured times; SciPy's, whose cost
#: per term varies with its cache use, within a factor of 4). The dot-product method costs per
#: needle (entry of a key's shorter list, looked up by binary search), per allowed key, per term
#: found and per entry of A and B (their row-major keys, searched), plus per entry of B for
#: building B' where it is not cached (SciPy's CSR -> CSC):
DOT_NS = {"needle": 27.0, "key": 39.0, "term": 12.0, "entry": 1.4, "transpose": 5.0}
#: Gustavson's expansion costs per term formed (and tested against the mask), per term kept
#: (multiplied and reduced by sorting), per allowed key (the mask's lookups) and per entry:
EXPAND_NS = {"term": 21.5, "kept": 56.0, "key": 27.0, "entry": 2.8}
#: SciPy's SpGEMM of the patterns (``plus.pair`` on the CPU, :func:`semiring.backends.cpu.products.
#: mxm_count_masked`) costs per term, per term kept, per allowed key (the mask's rows) and per
#: entry of A and B:
COUNT_NS = {"term": 3.4, "kept": 3.4, "key": 46.0, "entry": 6.2}
#: Allowed keys (evenly spaced) on which the dot method's needles, and where the choice depends
#: on them the terms kept, are counted and scaled to all keys; with fewer keys, all are counted.
DOT_SAMPLE_KEYS = 2048
_METHODS = ("auto", "dot", "expand", "count")


@dataclass
class MxmChoice:
    """How one masked ``mxm`` was computed, and the estimates that chose it (ns, by the cost
    model :data:`DOT_NS`, :data:`EXPAND_NS`, :data:`COUNT_NS`).

    ``terms``: the expansion's terms (A's entries in the mask's rows times B's row lengths);
    ``needles``: the dot method's lookups (per allowed key, the shorter of its two lists) and
    ``kept``: the terms found, both counted on :data:`DOT_SAMPLE_KEYS` keys and scaled (None
    where the choice did not need them).
    """

    method: str
    keys: int
    terms: int
    needles: float | None
    kept: float | None
    dot_ns: float | None
    other_ns: float


def mxm_method(A, B, semiring, keys, Bt=None):
    """The method of lower estimated cost for ``C<M> = A ⊕.⊗ B`` with M not complemented.

    Parameters
    ----------
    A : Matrix, shape (m, k)
    B : Matrix, shape (k, n)
    semiring : Semiring
    keys : int64 array, shape (nkeys,)
        The sorted row-major keys the mask allows (``mask.true_keys()``).
    Bt : Matrix, shape (n, k), optional
        ``B.T`` if already at hand (or cached on B); otherwise it is built only where the
        choice depends on the terms kept (their sample needs B's columns) or B has many more
        columns than entries.

    Returns
    -------
    MxmChoice
        ``method`` is "dot" (the masked dot-product method), "expand" (Gustavson's expansion)
        or "count" (``plus.pair`` on the CPU: SciPy's SpGEMM of the patterns).

    Notes
    -----
    With W the expansion's terms, N the dot method's needles and S the terms kept (found
    by both), the costs are linear in S: ``dot = DOT_NS . (N, keys, S, entries, transpose)``
    against ``expand = EXPAND_NS . (W, S, keys, entries)`` (or ``COUNT_NS . (W, S, keys,
    entries)``), ``entries`` being A's and B's, ``transpose`` B's where B' is not cached yet.
    W is computed exactly, in O(A's entries); N is counted on
    :data:`DOT_SAMPLE_KEYS` evenly spaced keys and scaled, and so is S, which lies in
    ``[0, min(W, N)]``, when the choice differs at the two ends. Davis (2019) chooses
    SuiteSparse:GraphBLAS's dot3 against saxpy by the same comparison of work.
    """
    xp = xp_of(keys)
    n, nkeys = B.ncols, int(keys.shape[0])
    other = "count" if A.device == "cpu" and _cpu.counts_terms(semiring) else "expand"
    entries = A.nvals + B.nvals
    W = 0  # the expansion's terms: B's row lengths summed over A's entries in the mask's rows
    if nkeys and A.nvals:
        per_entry = _row_lengths(B, A._indices)  # the terms each entry A(i,k) expands: deg_B(k)
        if _rowptr.is_hyper(A._rowptr):  # sum them over the mask's rows, by the rows' ranges
            rows = keys // n
            rows = rows[group_starts(rows)]
            sa, ca = _rowptr.ranges(A._rowptr, rows)
            per_entry = xp.concatenate([xp.zeros(1, dtype=np.int64), xp.cumsum(per_entry, dtype=np.int64)])
            W = int((per_entry[sa + ca] - per_entry[sa]).sum())
        else:  # ... by a flag per row
            held = xp.zeros(A.nrows, dtype=bool)
            held[keys // n] = True
            W = int((per_entry.astype(np.int64, copy=False) * held[A._row_ids()]).sum())

    def other_ns(S):
        if other == "count":
            return (COUNT_NS["term"] * W + COUNT_NS["kept"] * S + COUNT_NS["key"] * nkeys
                    + COUNT_NS["entry"] * entries)
        return (EXPAND_NS["term"] * W + EXPAND_NS["kept"] * S + EXPAND_NS["key"] * nkeys
                + EXPAND_NS["entry"] * entries)

    if Bt is None and B._T is not None and B._T[0] == B._version:
        Bt = B.T  # cached for B's current content (``_once.versioned``'s entry)
    transpose = 0 if Bt is not None else B.nvals  # B' to build first

    def dot_ns(N, S):
        return (DOT_NS["needle"] * N + DOT_NS["key"] * nkeys + DOT_NS["term"] * S + DOT_NS["entry"] * entries
                + DOT_NS["transpose"] * transpose)

    if nkeys == 0 or W == 0 or dot_ns(0, 0) >= other_ns(W):
        # settled without B': no product term at all, or the dot method's fixed costs alone
        # exceed the other's most
        return MxmChoice(other, nkeys, W, None, None, None, other_ns(0))
    sample = keys[::-(-nkeys // DOT_SAMPLE_KEYS)]  # evenly spaced keys, all when there are few
    scale = nkeys / sample.shape[0]
    i = sample // n
    # per key: its shorter list (column j of B's length from B' if at hand, else by counting)
    N = int(xp.minimum(_row_lengths(A, i), _col_lengths(B, Bt, sample - i * n)).sum()) * scale
    top = min(W, N)
    lo, hi = dot_ns(N, 0) < other_ns(0), dot_ns(N, top) < other_ns(top)
    if lo == hi:  # the same choice whatever the kept terms
        S = None
        use_dot = lo
    else:  # the kept terms decide: count them on the sample
        S = _array.mxm_dot_terms(A, B.T if Bt is None else Bt, sample) * scale
        use_dot = dot_ns(N, S) < other_ns(S)
    return MxmChoice("dot" if use_dot else other, nkeys, W, N, S, dot_ns(N, S or 0), other_ns(S or 0))


def _row_lengths(A, rows):
    """The number of entries in each of A's ``rows`` (int64 array of row ids)."""
    if _rowptr.is_hyper(A._rowptr):
        return _rowptr.ranges(A._rowptr, rows)[1]
    return xp_of(rows).diff(A._rowptr)[rows]


def _col_lengths(B, Bt, cols):
    """The number of entries in each of B's columns ``cols``: rows of ``Bt`` (B's transpose)
    when given; otherwise counted in B's column indices where B has no more columns than
    about its entries, and read off ``B.T`` (built and cached) where it has many more."""
    if Bt is None and B.ncols <= 4 * B.nvals + 4096:
        return xp_of(cols).bincount(B._indices, minlength=B.ncols)[cols]
    return _row_lengths(B.T if Bt is None else Bt, cols)


def _mxm(A, B, s, shape, mask, accum, replace, out):
    """The product and the write step of ``mxm`` (arguments checked and normalized)."""
    if MXM_METHOD not in _METHODS:
        raise InvalidValue(f"mxm: MXM_METHOD must be one of {_METHODS}; it is {MXM_METHOD!r}")
    if A.device == "cpu" and MXM_METHOD == "auto":
        # arithmetic semirings by SciPy's compiled SpGEMM where it is exact (unless a mask allows
        # far fewer outputs than the product has: the masked methods then form fewer terms)
        t = _cpu_spgemm.mxm(A, B, s, mask)
        if t is not NotImplemented:
            return _write.write(out, t[0], t[1], shape, mask, accum, replace)
    if mask is None or mask.complement:
        keep = mask.allows_fn() if mask is not None else None
        tk, tv = _kernels(A).mxm(A, B, s, keep=keep)
        return _write.write(out, tk, tv, shape, mask, accum, replace, masked=mask is not None)
    keys = mask.true_keys()
    counts = _cpu.counts_terms(s)
    if A.device == "gpu" and counts:
        method = "count"  # a sorted-list intersection per key (the dot method's own kernel)
    elif MXM_METHOD == "auto":
        method = mxm_method(A, B, s, keys).method
    else:
        method = "expand" if MXM_METHOD == "count" and not counts else MXM_METHOD
    if method == "dot":
        # C<M> = A (+).(x) B at M's keys only: row i of A against row j of B' per key (i, j)
        tk, tv = _kernels(A).mxm_dot(A, B.T, s, keys)
    elif method == "count":
        # plus.pair under a mask (triangle counting): only the mask's entries are counted
        # (CPU: SciPy's compiled SpGEMM, then the mask; GPU: a sorted-list intersection per key)
        tk, tv = _kernels(A).mxm_count_masked(A, B, s, keys)
    else:
        # C<M> = A (+).(x) B by expanding the rows of A the mask holds, terms outside M dropped
        tk, tv = _kernels(A).mxm(A, B, s, keep=mask.allows_fn(), row_allowed=mask.allowed_rows())
    # every method computes only the terms the mask allows
    return _write.write(out, tk, tv, shape, mask, accum, replace, masked=True)
