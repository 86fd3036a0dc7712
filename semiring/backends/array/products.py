"""Semiring products over NumPy or CuPy arrays: mxv (pull / dot), vxm (push / SpMSpV), mxm
(Gustavson row-by-row expansion) and masked mxm by dot products, for any semiring, positional
multiplies included. The CPU backend runs them on NumPy (with SciPy's compiled paths where they
win), the GPU backend on CuPy for what its kernels do not cover.

Each product is computed as "expand the product terms, multiply, reduce equal output
keys by the monoid". Terms outside the mask are dropped before the multiply (a masked
product), which is what makes pull BFS over the unvisited rows cheap. A masked mxm whose mask
is much sparser than the product forms no term outside the mask at all: :func:`mxm_dot`
intersects row i of A with column j of B for each allowed (i, j) only.

References: Gustavson, "Two fast algorithms for sparse matrices: multiplication and permuted
transposition", ACM TOMS 4(3), 1978 (the row-wise "saxpy" expansion); Davis, "Algorithm 1000:
SuiteSparse:GraphBLAS: graph algorithms in the language of sparse linear algebra", ACM TOMS
45(4), 2019 (the masked dot-product method); Yang, Buluc, Owens, "Implementing push-pull
efficiently in GraphBLAS", ICPP 2018 (push = SpMSpV, pull = masked SpMV).
"""

from __future__ import annotations

import numpy as np

from ...core import _rowptr
from .._xp import repeat, xp_of
from .reduce import reduce_segments
from .sparse import group_starts, member, ragged_arange, reduce_by_key, reduce_by_key_dense

#: Product terms expanded at once in mxm; rows are processed in chunks below this.
MXM_CHUNK_TERMS = 1 << 22


def _multiply(semiring, x, y, i, k, j):
    return semiring.multiply.eval(x, y, (i, k, j) if semiring.multiply.positional else None)


def _empty(xp, semiring, dx, dy):
    return xp.zeros(0, dtype=np.int64), xp.zeros(0, dtype=semiring.output_dtype(dx, dy))


def mxv(A, u, semiring, rows=None, flip=False):
    """``w(i) = monoid_k A(i,k) * u(k)`` (pull: a dot product per row); returns (indices, values).

    ``A`` is a Matrix (CSR), ``u`` a Vector (looked up by ``u._values_at``: direct in bitmap
    form, binary search in sparse form). ``rows`` (sorted int64) restricts the rows computed
    (the mask); None computes all. With ``flip``, ``A`` is the transpose of the user's matrix
    and this computes ``vxm`` by pull: ``w(j) = monoid_k u(k) * A'(k,j)``, operands in the
    user's order.

    A row stops at the monoid's terminal value (early exit): at its first term for ``any``,
    and, for a bool result, when its partial reduction reaches the terminal (``lor``: True).
    """
    m = semiring.monoid
    if u.nvals == 0:
        return _empty(xp_of(A._indices), semiring, A.dtype, u.dtype)
    if m.is_any:
        return _pull_early_exit(A, u, semiring, rows, flip, None)
    tz = semiring.output_dtype(*((u.dtype, A.dtype) if flip else (A.dtype, u.dtype)))
    term = m.terminal_for(tz) if tz.kind == "b" else None
    if term is not None:
        return _pull_early_exit(A, u, semiring, rows, flip, term)
    return _pull_all(A, u, semiring, rows, flip)


def _pull_all(A, u, semiring, rows, flip):
    """The pull without early exit: every term of every row, reduced per row by segments."""
    indices, avals = A._indices, A._values
    xp = xp_of(indices)
    if rows is None and _rowptr.is_hyper(A._rowptr):
        rows = A._rowptr[0]  # the nonempty rows
    if rows is None:
        pos, cols, bounds = None, indices, A._rowptr  # every entry, rows in place
    else:
        starts, counts = _rowptr.ranges(A._rowptr, rows)
        pos = ragged_arange(starts, counts)
        cols = indices[pos]
        bounds = xp.concatenate([xp.zeros(1, dtype=np.int64), xp.cumsum(counts)])
    if u.nvals == u.size and pos is None:
        # a full u and every row: every entry is a term, the row bounds are A's own
        present, dense = u._bitmap()
        k = cols.astype(np.int64, copy=False)
        if k.shape[0] == 0:
            return _empty(xp, semiring, A.dtype, u.dtype)
        seg = bounds.astype(np.int64, copy=False)
        nz = xp.flatnonzero(seg[1:] > seg[:-1])
        r = nz if rows is None else rows[nz]
        rr = repeat(r, seg[nz + 1] - seg[nz]) if semiring.multiply.positional else None
        z = _pull_multiply(semiring, avals, dense[k], rr, k, flip)
        return r, reduce_segments(semiring.monoid, z, seg[nz])
    if cols.shape[0] * 8 > u.size or u.format == "bitmap":
        present, dense = u._bitmap()  # many lookups: index a bitmap (built once, O(size))
        sel = xp.flatnonzero(present[cols])
        k = cols[sel].astype(np.int64, copy=False)
        uv = dense[k]
    else:
        hit, uv = u._values_at(cols)  # few lookups: binary search in u's indices
        sel = xp.flatnonzero(hit)
        k = cols[sel].astype(np.int64, copy=False)
    if sel.shape[0] == 0:
        return _empty(xp, semiring, A.dtype, u.dtype)
    seg = xp.searchsorted(sel, bounds)  # the terms before each row boundary
    nz = xp.flatnonzero(seg[1:] > seg[:-1])  # the rows with terms
    r = nz if rows is None else rows[nz]
    rr = repeat(r, seg[nz + 1] - seg[nz]) if semiring.multiply.positional else None
    z = _pull_multiply(semiring, avals[sel if pos is None else pos[sel]], uv, rr, k, flip)
    return r, reduce_segments(semiring.monoid, z, seg[nz])


def _pull_multiply(semiring, a, uv, r, k, flip):
    """The product terms of a pull: ``A(r,k) * u(k)``, or ``u(k) * A'(k,r)`` with ``flip``
    (``r``, the row of each term, is needed by positional multiplies only)."""
    if not semiring.multiply.positional:
        return _multiply(semiring, uv, a, None, None, None) if flip else _multiply(semiring, a, uv, None, None, None)
    if flip:
        return _multiply(semiring, uv, a, k * 0, k, r)
    return _multiply(semiring, a, uv, r, k, k * 0)


#: Terms a pull with early exit examines per round at least: each running row examines its next
#: ``c`` entries, c = 1 while at least this many rows run, else the power of two that brings the
#: round to about this many terms. A row thus stops within its chunk of its exit term, and the
#: rounds cost O(terms) plus a bounded number of vectorized steps.
PULL_ROUND_TERMS = 1 << 16


def _pull_early_exit(A, u, semiring, rows, flip, terminal):
    """Pull, each row walking its entries in rounds and retiring at the monoid's terminal value
    (``terminal``; None for ``any``: its first term) or at its last entry."""
    indices, avals = A._indices, A._values
    xp = xp_of(indices)
    if rows is None:
        rows = A._rowptr[0] if _rowptr.is_hyper(A._rowptr) else xp.arange(A.nrows, dtype=np.int64)
    s, left = _rowptr.ranges(A._rowptr, rows)
    active = xp.flatnonzero(left > 0)  # positions in rows of the rows still running
    if active.shape[0] == 0:
        return _empty(xp, semiring, A.dtype, u.dtype)
    s, left = s[active], left[active]  # each running row's next entry, and entries left
    if u.format == "bitmap" or int(left.sum()) > u.size // 8:
        present, dense = u._bitmap()  # many lookups: index a bitmap (built once, O(size))
        contains, values_of = present.__getitem__, dense.__getitem__
    else:
        contains = u._contains  # few lookups: binary search in u's indices
        values_of = lambda k: u._values_at(k)[1]  # noqa: E731  (every k is present)
    is_any = terminal is None
    found_r, found_p = [], []  # any: each finished row's chosen term (position in rows, entry)
    acc = has = None  # terminal: the partial reduction of each row (over rows)
    while active.shape[0]:
        m = active.shape[0]
        c = 1
        while m * c < PULL_ROUND_TERMS:
            c *= 2
        if c == 1:
            tp = s
            h = contains(indices[tp])
            tr = None  # term t belongs to running row t
        else:
            cnt = xp.minimum(left, c)
            tp = ragged_arange(s, cnt)
            tr = repeat(xp.arange(m, dtype=np.int64), cnt)
            h = contains(indices[tp])
        hits = xp.flatnonzero(h)
        hr = hits if tr is None else tr[hits]  # running row of each hit, sorted
        done = None
        if is_any:
            if tr is not None and hits.shape[0]:
                first = group_starts(hr)  # a row's first hit in its chunk
                hits, hr = hits[first], hr[first]
            found_r.append(active[hr])
            found_p.append(tp[hits])
            done = hr
        elif hits.shape[0]:
            rr = active[hr]
            tpos = tp[hits]
            k = indices[tpos].astype(np.int64, copy=False)
            z = _pull_multiply(semiring, avals[tpos], values_of(k), rows[rr], k, flip)
            gk, gv = reduce_by_key(rr, z, semiring.monoid, presorted=True)
            if acc is None:
                acc = xp.zeros(rows.shape[0], dtype=gv.dtype)
                has = xp.zeros(rows.shape[0], dtype=bool)
            old = has[gk]
            if bool(old.any()):
                gv[old] = semiring.monoid.op.eval(acc[gk[old]], gv[old]).astype(gv.dtype, copy=False)
            acc[gk] = gv
            has[gk] = True
            grp = hr if tr is None else hr[group_starts(hr)]  # the running row of each gk
            done = grp[xp.flatnonzero(gv == terminal)]
        more = left > c
        if done is not None and done.shape[0]:
            more[done] = False
        keep = xp.flatnonzero(more)
        active, s, left = active[keep], s[keep] + c, left[keep] - c
    if is_any:
        r = xp.concatenate(found_r) if found_r else xp.zeros(0, dtype=np.int64)
        if r.shape[0] == 0:
            return _empty(xp, semiring, A.dtype, u.dtype)
        pos = xp.concatenate(found_p)
        if 8 * r.shape[0] >= rows.shape[0]:  # sort the finished rows by a scatter over rows
            chosen = xp.full(rows.shape[0], -1, dtype=np.int64)
            chosen[r] = pos
            r = xp.flatnonzero(chosen >= 0)
            pos = chosen[r]
        else:
            order = xp.argsort(r)
            r, pos = r[order], pos[order]
        r = rows[r]
        k = indices[pos].astype(np.int64, copy=False)
        z = _pull_multiply(semiring, avals[pos], values_of(k), r, k, flip)
        return reduce_by_key(r, z, semiring.monoid, presorted=True)
    if acc is None:
        return _empty(xp, semiring, A.dtype, u.dtype)
    sel = xp.flatnonzero(has)
    return rows[sel], acc[sel]


def rows_of(A, rows):
    """(entries per row, column indices, values) of the given rows of A, concatenated in order
    (a ragged arange over the rows' ranges)."""
    starts, counts = _rowptr.ranges(A._rowptr, rows)
    pos = ragged_arange(starts, counts)
    return counts, A._indices[pos], A._values[pos]


def vxm(u_idx, u_vals, A, semiring, keep=None, flip=False, gather=rows_of):
    """``w(j) = monoid_k u(k) * A(k,j)`` by expanding the rows of the frontier (push).

    ``keep(j) -> bool`` drops terms whose output position the mask does not allow.

    With ``flip``, ``A`` is the transpose of the user's matrix and this computes ``mxv`` by
    push: ``w(i) = monoid_k A'(i,k) * u(k)`` with the operands in the user's order.

    ``gather(A, rows)`` returns the frontier rows' entries as :func:`rows_of` does (a backend may
    pass a faster one).
    """
    xp = xp_of(A._indices)
    counts, j, a = gather(A, u_idx)
    hit = None
    if keep is not None:
        hit = xp.flatnonzero(keep(j))
        j, a = j[hit], a[hit]
    if j.shape[0] == 0:
        return _empty(xp, semiring, u_vals.dtype, A.dtype)
    x = repeat(u_vals, counts)  # u(k) for each term
    k = repeat(u_idx, counts).astype(np.int64, copy=False) if semiring.multiply.positional else None
    if hit is not None:
        x = x[hit]
        k = None if k is None else k[hit]
    if flip:
        z = _multiply(semiring, a, x, j, k, None if k is None else xp.zeros_like(k))
    else:
        z = _multiply(semiring, x, a, None if k is None else xp.zeros_like(k), k, j)
    return reduce_by_key_dense(j, z, semiring.monoid, A.ncols)


def mxm(A, B, semiring, keep=None, row_allowed=None):
    """``C(i,j) = monoid_k A(i,k) * B(k,j)``; returns (row-major keys, values).

    ``keep(keys) -> bool`` drops terms outside the mask before the multiply;
    ``row_allowed`` skips whole rows of A.
    """
    n = B.ncols
    xp = xp_of(B._indptr)
    degB = xp.diff(B._indptr)
    a_rows = A._row_ids()
    terms = degB[A._indices].astype(np.int64)
    rows = xp.arange(A.nrows) if row_allowed is None else xp.flatnonzero(row_allowed)
    csum_terms = xp.concatenate([xp.zeros(1, dtype=terms.dtype), xp.cumsum(terms)])
    row_terms = (csum_terms[A._indptr[1:]] - csum_terms[A._indptr[:-1]])[rows]
    out_k, out_v = [], []
    start = 0
    while start < rows.size:
        csum = xp.cumsum(row_terms[start:])
        stop = start + max(1, int(xp.searchsorted(csum, xp.asarray(MXM_CHUNK_TERMS, dtype=csum.dtype), side="right")))
        chunk = rows[start:stop]
        start = stop
        a_pos = ragged_arange(A._indptr[chunk], A._indptr[chunk + 1] - A._indptr[chunk])
        kk = A._indices[a_pos].astype(np.int64, copy=False)
        cnt = degB[kk]
        b_pos = ragged_arange(B._indptr[kk], cnt)
        i = repeat(a_rows[a_pos], cnt)
        k = repeat(kk, cnt)
        x = repeat(A._values[a_pos], cnt)
        j = B._indices[b_pos].astype(np.int64, copy=False)
        keys = i * n + j
        if keep is not None:
            hit = keep(keys)
            b_pos, i, k, x, j, keys = b_pos[hit], i[hit], k[hit], x[hit], j[hit], keys[hit]
        if keys.size == 0:
            continue
        z = _multiply(semiring, x, B._values[b_pos], i, k, j)
        kk_, vv_ = reduce_by_key(keys, z, semiring.monoid)
        out_k.append(kk_)
        out_v.append(vv_)
    if not out_k:
        return _empty(xp, semiring, A.dtype, B.dtype)
    return xp.concatenate(out_k), xp.concatenate(out_v)


#: Shorter-list entries (needles) the masked dot-product mxm looks up at once; the allowed keys
#: are taken in blocks of at most this many, and each block's needles in chunks below this.
DOT_CHUNK_TERMS = 1 << 20


def _dot_matches(A, Bt, keys):
    """The product terms of the allowed keys, chunk by chunk, for :func:`mxm_dot`.

    Yields ``(block, i, j, e, a_pos, b_pos, k)``: a block of ``keys`` with its rows i and
    columns j, and for each term ``A(i,k) * B(k,j)`` found, its key's position ``e`` in the
    block (sorted; within a key k increases), the positions of ``A(i,k)`` in A and of
    ``B'(j,k)`` in ``Bt``, and k. A block may be yielded several times (once per chunk and
    direction); a key's terms all come in one chunk.
    """
    xp = xp_of(keys)
    n, K = Bt.nrows, A.ncols
    haystacks = {}  # row-major keys of A and of B' (``row * K + k``, sorted), built on first use

    def haystack(M):
        if id(M) not in haystacks:
            haystacks[id(M)] = M._row_ids() * K + M._indices.astype(np.int64, copy=False)
        return haystacks[id(M)]

    for b0 in range(0, keys.shape[0], DOT_CHUNK_TERMS):
        block = keys[b0:b0 + DOT_CHUNK_TERMS]
        i = block // n
        j = block - i * n
        sa, ca = _rowptr.ranges(A._rowptr, i)
        sb, cb = _rowptr.ranges(Bt._rowptr, j)
        live = (ca > 0) & (cb > 0)
        from_a = ca <= cb
        # needles from row i of A looked up in row j of B', or the other way round
        for sel, src, starts, counts, other, other_row in (
                (xp.flatnonzero(live & from_a), A, sa, ca, Bt, j),
                (xp.flatnonzero(live & ~from_a), Bt, sb, cb, A, i)):
            if sel.shape[0] == 0:
                continue
            counts = counts[sel].astype(np.int64, copy=False)
            csum = xp.cumsum(counts)
            lo = 0
            while lo < sel.shape[0]:
                base = int(csum[lo - 1]) if lo else 0
                bound = xp.asarray(base + DOT_CHUNK_TERMS, dtype=csum.dtype)
                hi = max(lo + 1, int(xp.searchsorted(csum, bound, side="right")))
                e, c = sel[lo:hi], counts[lo:hi]
                lo = hi
                pos = ragged_arange(starts[e], c)  # the needles' positions in src
                te = repeat(xp.arange(e.shape[0], dtype=np.int64), c)  # each needle's key (in e)
                k = src._indices[pos].astype(np.int64, copy=False)
                target = other_row[e][te] * K + k
                hk = haystack(other)
                at = xp.minimum(xp.searchsorted(hk, target), hk.shape[0] - 1)
                hit = xp.flatnonzero(hk[at] == target)
                if hit.shape[0] == 0:
                    continue
                te, k, pos, at = te[hit], k[hit], pos[hit], at[hit]
                a_pos, b_pos = (pos, at) if src is A else (at, pos)
                yield block, i, j, e[te], a_pos, b_pos, k


def mxm_dot(A, Bt, semiring, keys):
    """``C(i,j) = monoid_k A(i,k) * B(k,j)`` at the allowed keys only (the masked dot-product
    method); returns (row-major keys, values) of the allowed entries with at least one term.

    Parameters
    ----------
    A : Matrix, shape (m, K)
    Bt : Matrix, shape (n, K)
        The transpose of ``B`` (``B.T``, cached on B): its row j is column j of B.
    semiring : Semiring
        Any semiring :func:`mxm` takes, positional multiplies included (they see the
        ``(i, k, j)`` of each term ``A(i,k) * B(k,j)``).
    keys : int64 array (NumPy or CuPy, as A's arrays), shape (nkeys,)
        Sorted, distinct row-major keys ``i * n + j`` of the allowed outputs (a mask's
        ``true_keys()``).

    Returns
    -------
    keys : int64 array
        The sorted subset of ``keys`` where row i of A and column j of B share a k.
    values : array
        ``C`` there, of the dtype :func:`mxm` gives (the monoid's domain for the multiply's
        output; narrow integers wrap as in the expansion).

    Notes
    -----
    For each allowed (i, j), the sorted column lists of row i of A and row j of B' are
    intersected: each entry of the shorter list (a needle) is looked up by binary search in the
    other matrix, addressed by its row-major keys ``row * K + k``, which are sorted across the
    whole matrix, so one ``searchsorted`` serves every key of a chunk. The work is about
    ``sum over keys of min(deg_A(i), deg_B'(j))`` lookups of ``log2(nvals)`` steps, plus one
    pass over each searched matrix's entries; no term outside the mask is formed (Gustavson's
    expansion, :func:`mxm`, forms ``sum over A's entries (i,k) in the mask's rows of deg_B(k)``
    terms and drops the forbidden ones). Each key's terms are reduced in increasing k (``any``
    keeps the term of the smallest k). This is SuiteSparse:GraphBLAS's masked dot-product
    method ("dot3", Davis 2019), which likewise looks the entries of a much shorter list up by
    binary search instead of merging.
    """
    xp = xp_of(keys)
    if keys.shape[0] == 0 or A.nvals == 0 or Bt.nvals == 0:
        return _empty(xp, semiring, A.dtype, Bt.dtype)
    positional = semiring.multiply.positional
    out_k, out_v = [], []
    blocks = []  # (block, [(keys' positions in block, values)]) in block order

    for block, i, j, e, a_pos, b_pos, k in _dot_matches(A, Bt, keys):
        z = _multiply(semiring, A._values[a_pos], Bt._values[b_pos],
                      i[e] if positional else None, k, j[e] if positional else None)
        seg = group_starts(e)
        if not blocks or blocks[-1][0] is not block:
            blocks.append((block, []))
        blocks[-1][1].append((e[seg], reduce_segments(semiring.monoid, z, seg)))
    for block, found in blocks:
        if len(found) == 1:
            out_k.append(block[found[0][0]])
            out_v.append(found[0][1])
            continue
        # keys found in several chunks or both directions: scatter them into the block's order
        ee = xp.concatenate([f[0] for f in found])
        vv = xp.concatenate([f[1] for f in found])
        present = xp.zeros(block.shape[0], dtype=bool)
        present[ee] = True
        vals = xp.empty(block.shape[0], dtype=vv.dtype)
        vals[ee] = vv
        got = xp.flatnonzero(present)
        out_k.append(block[got])
        out_v.append(vals[got])
    if not out_k:
        return _empty(xp, semiring, A.dtype, Bt.dtype)
    return xp.concatenate(out_k), xp.concatenate(out_v)


def mxm_dot_terms(A, Bt, keys):
    """The number of product terms ``A(i,k) * B(k,j)`` over the allowed ``keys`` (the terms
    :func:`mxm_dot` multiplies and reduces): an int. For a sample of keys (a cost estimate):
    both lists of each key are gathered whole and merged (``searchsorted`` of one in the other,
    both tagged ``key * K + k``), with no pass over the whole matrices."""
    xp = xp_of(keys)
    n, K = Bt.nrows, max(A.ncols, 1)
    step = max(1, (1 << 62) // K)  # keys per pass: tags key * K + k stay below 2**62
    total = 0
    for b0 in range(0, keys.shape[0], step):
        block = keys[b0:b0 + step]
        i = block // n
        sa, ca = _rowptr.ranges(A._rowptr, i)
        sb, cb = _rowptr.ranges(Bt._rowptr, block - i * n)
        e = xp.arange(block.shape[0], dtype=np.int64)
        ka = repeat(e, ca) * K + A._indices[ragged_arange(sa, ca)].astype(np.int64, copy=False)
        kb = repeat(e, cb) * K + Bt._indices[ragged_arange(sb, cb)].astype(np.int64, copy=False)
        total += int(member(kb, ka).sum())
    return total

def edge(A, u, semiring, keep=None, is_vxm=False, gather=rows_of):
    """Edge-centric product over every stored entry of A (COO order). Over arrays this is the
    push expansion of all of u's entries; ``is_vxm`` means the user's product is ``vxm``
    (u(k) * A(k, j), expanding A's rows) rather than ``mxv`` (A(i, k) * u(k), A's columns)."""
    idx, vals = u._keys()
    if is_vxm:
        return vxm(idx, vals, A, semiring, keep=keep, gather=gather)
    return vxm(idx, vals, A.T, semiring, keep=keep, flip=True, gather=gather)
