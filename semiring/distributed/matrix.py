"""Row-block (1D) distributed containers: :class:`DistMatrix` and :class:`DistVector`.

Rank r of P owns the vertices (rows) ``[lo_r, hi_r)``: blocks of ``B = ceil(n / P)`` rounded
up to a multiple of 32, so that each rank's part of a frontier bitmap is whole 32-bit words
and the allgathered bitmap is the plain n-bit bitmap (bit v in word v // 32). The last ranks
may hold fewer rows, or none.

A rank stores its rows as CSR with *global* column ids (int32 while n < 2**31, else int64)
and int64 row pointers. It is built from edges that any rank may hold: each rank routes its
edges to their owners with one all-to-all-v per chunk and the owner sorts and merges them,
so no process ever holds the whole graph.

References
----------
Buluc, Madduri, "Parallel breadth-first search on distributed memory systems", SC 2011
(1D and 2D partitionings of the adjacency matrix).
Graph500 specification 3.0 (edge list to graph construction is kernel 1).
"""

from __future__ import annotations

import numpy as np

from ..core.matrix import Matrix
from ..core.vector import Vector
from ..exceptions import DimensionMismatch, InvalidValue
from .comm import context

#: Rows per block are a multiple of this (one 32-bit word of a bitmap per 32 rows).
ALIGN = 32
#: Entries handled at once when merging a rank's sorted keys (bounds GPU temporaries).
_SEGMENT = 1 << 27


class Blocks:
    """The row blocks of n vertices over P ranks.

    Attributes
    ----------
    n, P : int
    B : int
        Rows per block (a multiple of :data:`ALIGN`); rank r owns ``[min(r*B, n), min((r+1)*B, n))``.
    bounds : ndarray of int64, shape (P + 1,)
    """

    def __init__(self, n, P):
        self.n, self.P = int(n), int(P)
        B = -(-self.n // self.P)
        self.B = max(ALIGN, -(-B // ALIGN) * ALIGN)
        self.bounds = np.minimum(np.arange(self.P + 1, dtype=np.int64) * self.B, self.n)

    def lo(self, r):
        return int(self.bounds[r])

    def hi(self, r):
        return int(self.bounds[r + 1])

    def size(self, r):
        return self.hi(r) - self.lo(r)

    def owner(self, v):
        """Owner rank of vertex ids ``v`` (array or int)."""
        return v // self.B

    @property
    def words(self):
        """32-bit words of one rank's part of a bitmap (B / 32)."""
        return self.B // ALIGN

    def __repr__(self):
        return f"<Blocks n={self.n} P={self.P} B={self.B}>"


def _vid_dtype(n):
    return np.int32 if n < 2**31 - 1 else np.int64


def _bits(x):
    return int(x).bit_length()


class _Builder:
    """Collect one rank's entries (routed from every rank in chunks), then sort and merge them.

    Keys are ``(row - lo) * n + col``; integer values whose range fits are packed below the
    key (``key << wbits | (w - wlo)``), so one sort orders by (row, col, weight) and the first
    entry of a run is the smallest weight. Other values travel beside the keys.
    """

    def __init__(self, ctx, blocks, dtype, wrange):
        self.ctx, self.blocks, self.dtype = ctx, blocks, np.dtype(dtype)
        self.lo = blocks.lo(ctx.rank)
        self.nl = blocks.size(ctx.rank)
        n = blocks.n
        self.wbits = None
        if self.dtype.kind in "iu" and wrange is not None:
            span = int(wrange[1]) - int(wrange[0])
            self.wlo = int(wrange[0])
            bits = _bits(span) if span > 0 else 0
            if _bits(max(self.nl, 1) * n) + bits <= 63:
                self.wbits = bits
        self.keys, self.vals = [], []

    def route(self, rows, cols, vals):
        """Send this rank's entries (any rows) to their owners and keep what arrives."""
        ctx, xp, bl = self.ctx, self.ctx.xp, self.blocks
        P = ctx.size
        if P > 1:
            owner = rows // bl.B
            order = xp.argsort(owner)
            send = xp.bincount(owner, minlength=P)[:P]
            rows, cols = rows[order], cols[order]
            vals = None if vals is None else vals[order]
            del owner, order
            send = ctx.to_host(send, "routing edges").astype(np.int64)
            recv = ctx.alltoall(send, "routing edges to their owners")
            arrays = [rows, cols] + ([] if vals is None else [vals])
            got = ctx.channel.alltoallv(arrays, send, recv, "routing edges to their owners")
            rows, cols = got[0], got[1]
            vals = got[2] if vals is not None else None
        key = rows.astype(np.int64)
        key -= self.lo
        key *= bl.n
        key += cols
        del rows, cols
        if vals is not None and self.wbits is not None:
            key <<= self.wbits
            key += vals.astype(np.int64) - self.wlo
            vals = None
        self.keys.append(key)
        if vals is not None:
            self.vals.append(vals.astype(self.dtype))

    def build(self, dup, what):
        """(indptr, cols, vals) of the local CSR; ``dup`` is "min" or "error"."""
        from ..backends.array.sparse import group_starts
        from ..ops import binary
        from ..backends.array.reduce import reduce_runs

        ctx, xp, bl = self.ctx, self.ctx.xp, self.blocks
        n = bl.n
        key = xp.concatenate(self.keys) if len(self.keys) != 1 else self.keys[0]
        self.keys = []
        valued = self.dtype != np.bool_
        shift = self.wbits or 0
        vals = None
        ndup = 0
        if valued and self.wbits is None:  # values beside the keys: argsort, merge runs by min
            v = xp.concatenate(self.vals) if len(self.vals) != 1 else self.vals[0]
            self.vals = []
            order = xp.argsort(key)
            key, vals = key[order], v[order]
            del order, v
            starts = group_starts(key)
            ndup = int(key.shape[0] - starts.shape[0])
            if ndup:
                vals = reduce_runs(binary.min, vals, starts)
                key = key[starts]
            del starts
        else:
            key.sort()
        counts = xp.zeros(self.nl + 1, dtype=np.int64)
        out_cols, out_vals = [], []
        vdt = _vid_dtype(n)
        total = key.shape[0]
        for s in range(0, total, _SEGMENT):  # segments bound the temporaries of a large GPU build
            e = min(total, s + _SEGMENT)
            rc = key[s:e] >> shift if shift else key[s:e]
            keep = xp.empty(e - s, dtype=bool)
            keep[1:] = rc[1:] != rc[:-1]
            keep[:1] = True if s == 0 else bool((key[s - 1] >> shift) != rc[0])
            kept = rc[keep]
            ndup += (e - s) - int(kept.shape[0])
            row = kept // n
            counts += xp.bincount(row, minlength=self.nl + 1)[:self.nl + 1]
            out_cols.append((kept - row * n).astype(vdt))
            if valued and shift:
                w = (key[s:e][keep] & ((1 << shift) - 1)) + self.wlo
                out_vals.append(w.astype(self.dtype))
            del rc, keep, kept, row
        ctx.agree(InvalidValue(f"{what}: {ndup} repeated entries (give dup='min' to merge them)")
                  if dup == "error" and ndup else None, what)
        del key
        if valued and shift:
            vals = xp.concatenate(out_vals) if out_vals else xp.zeros(0, self.dtype)
        elif valued and vals is None:
            vals = xp.zeros(0, self.dtype)
        cols = xp.concatenate(out_cols) if out_cols else xp.zeros(0, vdt)
        indptr = xp.zeros(self.nl + 1, dtype=np.int64)
        xp.cumsum(counts[:self.nl], out=indptr[1:])
        return indptr, cols, vals


class DistMatrix:
    """A square n x n matrix in row blocks over the ranks of a :class:`~semiring.distributed.Context`.

    Build one with :meth:`from_edges`, :func:`semiring.distributed.kronecker`,
    :func:`semiring.distributed.read` or :meth:`from_matrix`; every rank makes the same call.

    Attributes
    ----------
    ctx : Context
    n : int
        Rows and columns.
    blocks : Blocks
    indptr : array of int64, shape (rows of this rank + 1,)
        Local CSR row pointers (NumPy or CuPy, as the context's device).
    cols : array of int32 (int64 when n >= 2**31 - 1)
        Global column ids of the local entries, sorted within each row.
    vals : array or None
        Values of the local entries (None for a bool pattern).
    dtype : numpy.dtype
    kind : {"directed", "undirected", None}
        None until :attr:`T` or :meth:`is_symmetric` has checked.
    """

    def __init__(self, ctx, n, indptr, cols, vals, dtype, kind=None):
        self.ctx, self.n = ctx, int(n)
        self.blocks = Blocks(n, ctx.size)
        self.indptr, self.cols, self.vals = indptr, cols, vals
        self.dtype = np.dtype(dtype)
        self._kind = kind
        self._T = None
        self._nvals = None

    @property
    def nrows(self):
        return self.n

    @property
    def ncols(self):
        return self.n

    @property
    def lo(self):
        """First row of this rank."""
        return self.blocks.lo(self.ctx.rank)

    @property
    def nlocal(self):
        """Rows of this rank."""
        return self.blocks.size(self.ctx.rank)

    @property
    def local_nvals(self):
        return int(self.cols.shape[0])

    @property
    def nvals(self):
        """Entries over all ranks (one collective the first time)."""
        if self._nvals is None:
            self._nvals = int(self.ctx.allreduce(np.int64(self.local_nvals), "sum", "nvals"))
        return self._nvals

    def __repr__(self):
        return (f"<DistMatrix {self.n}x{self.n}, {self.dtype.name}, rank {self.ctx.rank}/{self.ctx.size} rows "
                f"[{self.lo}, {self.lo + self.nlocal}), {self.local_nvals} local entries>")

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def from_edges(cls, rows, cols, values=None, *, n, dtype=None, dup="error", ctx=None, kind=None,
                   what="from_edges"):
        """Build from the edges each rank holds (any rows, any rank; a collective call).

        Parameters
        ----------
        rows, cols : array of int, shape (k,)
            This rank's edges ``rows[i] -> cols[i]`` (0-based, global ids); k may differ by rank.
        values : array, shape (k,), or None
            None gives a bool pattern.
        n : int
            Vertices (the same on every rank).
        dtype : dtype, optional
            Default: bool for a pattern, else the values' dtype.
        dup : {"error", "min"}
            Repeated (row, col) pairs: an error, or merged keeping the smallest value.
        ctx : Context, optional
        kind : {"directed", "undirected", None}
            "undirected" asserts the edges already hold both directions.

        Raises
        ------
        IndexOutOfBound
            A vertex id outside 0..n-1 (on any rank).
        InvalidValue
            Repeated entries with dup="error", mismatched lengths, an unknown dup.
        """
        ctx = context(ctx)
        xp = ctx.xp
        if dup not in ("error", "min"):
            raise InvalidValue(f"{what}: dup must be 'error' or 'min'; given {dup!r}")
        rows, cols = xp.asarray(rows), xp.asarray(cols)
        values = None if values is None else xp.asarray(values)
        dtype = np.dtype("bool" if values is None and dtype is None else (dtype or values.dtype))
        err = None
        if rows.shape != cols.shape or rows.ndim != 1 or (values is not None and values.shape != rows.shape):
            err = InvalidValue(f"{what}: rows, cols and values must be 1-D of one length; given "
                               f"{rows.shape}, {cols.shape}, {None if values is None else values.shape}")
        elif rows.shape[0]:
            lo = min(int(rows.min()), int(cols.min()))
            hi = max(int(rows.max()), int(cols.max()))
            if lo < 0 or hi >= n:
                from ..exceptions import IndexOutOfBound

                err = IndexOutOfBound(f"{what}: vertex ids must be in 0..{n - 1}; given ids from {lo} to {hi}")
        ctx.agree(err, what)
        if values is not None and dtype == np.bool_:
            values = None
        wrange = None
        if values is not None and dtype.kind in "iu":
            local = (np.array([int(values.min()), -int(values.max())], dtype=np.int64) if values.shape[0]
                     else np.array([np.iinfo(np.int64).max, np.iinfo(np.int64).max], dtype=np.int64))
            g = ctx.allreduce(local, "min", what)
            wrange = (int(g[0]), -int(g[1])) if g[0] <= -g[1] else (0, 0)
        b = _Builder(ctx, Blocks(n, ctx.size), dtype, wrange)
        b.route(rows.astype(np.int64), cols.astype(np.int64), values)
        indptr, c, v = b.build(dup, what)
        return cls(ctx, n, indptr, c, v, dtype, kind)

    @classmethod
    def from_matrix(cls, A, *, ctx=None):
        """Distribute a :class:`semiring.Matrix` that every rank holds (rank r sends entries r::P).

        For tests and small graphs; large graphs come from :func:`~semiring.distributed.read`
        or a generator, where no rank holds the whole graph.
        """
        ctx = context(ctx)
        if not isinstance(A, Matrix):
            raise InvalidValue(f"from_matrix: expected a semiring Matrix; given {type(A).__name__}")
        if A.nrows != A.ncols:
            raise DimensionMismatch(f"from_matrix: the matrix must be square; given {A.nrows}x{A.ncols}")
        r, c, v = (np.asarray(x.get() if hasattr(x, "get") and not isinstance(x, np.ndarray) else x)
                   for x in A.to_coo())
        sl = slice(ctx.rank, None, ctx.size)
        vals = None if A.dtype == np.bool_ else v[sl]
        return cls.from_edges(r[sl], c[sl], vals, n=A.nrows, dtype=A.dtype, dup="error", ctx=ctx,
                              what="from_matrix")

    # -- structure ---------------------------------------------------------------------------------
    def out_degree(self):
        """int64 array: out-degree of each local row."""
        return self.indptr[1:] - self.indptr[:-1]

    @property
    def T(self):
        """The transpose, distributed the same way (an exchange the first time, then cached)."""
        if self._T is None:
            if self._kind == "undirected":
                return self
            rows = _rows_of(self.ctx.xp, self.indptr, self.lo)
            wrange = None
            if self.vals is not None and self.dtype.kind in "iu":
                local = (np.array([int(self.vals.min()), -int(self.vals.max())], dtype=np.int64)
                         if self.local_nvals else np.full(2, np.iinfo(np.int64).max, dtype=np.int64))
                g = self.ctx.allreduce(local, "min", "transpose")
                wrange = (int(g[0]), -int(g[1])) if g[0] <= -g[1] else (0, 0)
            b = _Builder(self.ctx, self.blocks, self.dtype, wrange)
            b.route(self.cols.astype(np.int64), rows, self.vals)
            indptr, c, v = b.build("error", "transpose")
            self._T = DistMatrix(self.ctx, self.n, indptr, c, v, self.dtype, self._kind)
            self._T._T = self
        return self._T

    @property
    def kind(self):
        """"undirected" if the matrix equals its transpose, else "directed" (checked once)."""
        if self._kind is None:
            self._kind = "undirected" if self.is_symmetric() else "directed"
        return self._kind

    def is_symmetric(self):
        """True if A equals its transpose (structure and values), on every rank."""
        xp = self.ctx.xp
        T = self.T
        same = (self.local_nvals == T.local_nvals and bool(xp.all(self.indptr == T.indptr))
                and bool(xp.all(self.cols == T.cols))
                and (self.vals is None or bool(xp.all(self.vals == T.vals))))
        return self.ctx.all_true(same, "symmetry check")

    # -- gathering ---------------------------------------------------------------------------------
    def local_coo(self):
        """(rows, cols, vals) of this rank's entries, global ids, on the context's device."""
        xp = self.ctx.xp
        rows = _rows_of(xp, self.indptr, self.lo)
        return rows, self.cols.astype(np.int64), self.vals

    def to_matrix(self, *, device="cpu"):
        """The whole matrix as a :class:`semiring.Matrix` on every rank (a gather; small graphs)."""
        ctx = self.ctx
        r, c, v = (None if x is None else ctx.to_host(x) for x in self.local_coo())
        parts = ctx.allgather_obj((r, c, v), "to_matrix")
        rows = np.concatenate([p[0] for p in parts])
        cols = np.concatenate([p[1] for p in parts])
        vals = None if self.vals is None else np.concatenate([p[2] for p in parts])
        return Matrix.from_coo(rows, cols, vals, nrows=self.n, ncols=self.n, dtype=self.dtype, device=device)


def _rows_of(xp, indptr, lo):
    """Global row id (int64) of every local entry."""
    total = int(indptr[-1])
    e = xp.arange(total, dtype=np.int64)
    return xp.searchsorted(indptr, e, side="right") - 1 + lo


class DistVector:
    """A vector of size n in the row blocks of a :class:`Context`: each rank holds its block as
    dense ``values`` plus a ``present`` mask (an absent entry is not a zero).

    Attributes
    ----------
    ctx : Context
    n : int
    dtype : numpy.dtype
    values : array, shape (rows of this rank,)
    present : bool array, shape (rows of this rank,)
    """

    def __init__(self, ctx, n, values, present):
        self.ctx, self.n = ctx, int(n)
        self.blocks = Blocks(n, ctx.size)
        self.values, self.present = values, present
        self.dtype = np.dtype(values.dtype)

    @property
    def size(self):
        return self.n

    @property
    def lo(self):
        return self.blocks.lo(self.ctx.rank)

    @property
    def nvals(self):
        """Entries over all ranks (a collective)."""
        return int(self.ctx.allreduce(np.int64(int(self.present.sum())), "sum", "nvals"))

    def local_coo(self):
        """(global indices, values) of this rank's entries."""
        xp = self.ctx.xp
        idx = xp.nonzero(self.present)[0]
        return idx.astype(np.int64) + self.lo, self.values[idx]

    def to_vector(self, *, root=None, device=None):
        """Gather into a :class:`semiring.Vector` (a collective).

        Parameters
        ----------
        root : int, optional
            Gather on this rank only (the others get None); default every rank.
        device : {"cpu", "gpu"}, optional
            Where the Vector lives; default the context's device.
        """
        ctx = self.ctx
        if root is not None and not (isinstance(root, (int, np.integer)) and 0 <= root < ctx.size):
            raise InvalidValue(f"to_vector: root must be a rank in 0..{ctx.size - 1} or None; given {root!r}")
        idx, vals = (ctx.to_host(a, "to_vector") for a in self.local_coo())
        parts = ctx.allgather_obj((idx, vals), "to_vector")
        if root is not None and ctx.rank != root:
            return None
        idx = np.concatenate([p[0] for p in parts])
        vals = np.concatenate([p[1] for p in parts])
        return Vector.from_coo(idx, vals, size=self.n, dtype=self.dtype, device=device or ctx.device)

    @classmethod
    def from_vector(cls, v, *, ctx=None):
        """Each rank keeps its block of a :class:`semiring.Vector` that every rank holds."""
        ctx = context(ctx)
        if not isinstance(v, Vector):
            raise InvalidValue(f"from_vector: expected a semiring Vector; given {type(v).__name__}")
        bl = Blocks(v.size, ctx.size)
        lo, hi = bl.lo(ctx.rank), bl.hi(ctx.rank)
        idx, vals = (np.asarray(a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else a)
                     for a in v.to_coo())
        sel = (idx >= lo) & (idx < hi)
        values = np.zeros(hi - lo, dtype=v.dtype)
        present = np.zeros(hi - lo, dtype=bool)
        values[idx[sel] - lo] = vals[sel]
        present[idx[sel] - lo] = True
        return cls(ctx, v.size, ctx.xp.asarray(values), ctx.xp.asarray(present))

    def __repr__(self):
        return f"<DistVector size {self.n}, {self.dtype.name}, rank {self.ctx.rank}/{self.ctx.size}>"


__all__ = ["Blocks", "DistMatrix", "DistVector", "ALIGN"]
