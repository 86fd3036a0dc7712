"""Distributed graph construction: each rank generates or reads its share of the edges and
routes them to their owners; no process holds the whole graph.

- :func:`kronecker`: the Graph500 generator of :func:`semiring.generators.kronecker`, edge
  for edge: its random numbers are counter-based (SplitMix64 of the seed, the edge and the
  bit), so rank r generates the edges ``[r m / P, (r + 1) m / P)`` of the same edge list,
  in chunks, on its device. Every rank computes the vertex permutation (n words).
- :func:`read`: Matrix Market (``.mtx``) and DIMACS (``.gr``) files, plain or gzip; every
  rank streams the file and parses only its blocks of lines (block b goes to rank b % P).

References
----------
Graph500 specification 3.0, sections 3 (generator) and 4 (kernel 1: graph construction).
"""

from __future__ import annotations

import gzip
import os
import re
import zlib

import numpy as np

from .. import _checks
from ..exceptions import InvalidValue
from ..generators import _generators as _g
from .comm import context
from .matrix import Blocks, DistMatrix, _Builder

#: Generated edges per chunk on each device (the GPU chunk bounds the routing temporaries).
_CHUNK = {"cpu": 1 << 18, "gpu": 1 << 26}
#: Bytes per block of a file read.
_READ_BLOCK = 1 << 23


def _kron_slice(xp, key, scale, e0, e1, a, b, c):
    """(u, v) int64 arrays of the R-MAT edges e0..e1-1 before the permutation; the same
    numbers as ``semiring.generators._generators._kronecker_edges`` gives for those edges."""
    t_a, t_ab, t_abc = _g._thresholds(a, b, c)
    npairs = (scale + 1) // 2
    udt = np.uint32 if scale <= 32 else np.uint64
    k = e1 - e0
    base = xp.arange(e0, e1, dtype=np.uint64)
    base *= _g._U64((npairs * _g._GOLDEN) & _g._MASK64)
    base += _g._U64(key)
    z, tmp = xp.empty(k, np.uint64), xp.empty(k, np.uint64)
    hi, mid, lo = xp.empty(k, bool), xp.empty(k, bool), xp.empty(k, bool)
    ub, vb, w = xp.zeros(k, udt), xp.zeros(k, udt), xp.empty(k, udt)
    low32 = _g._U64(0xFFFFFFFF)
    for p in range(npairs):
        xp.add(base, _g._U64(((p + 1) * _g._GOLDEN) & _g._MASK64), out=z)
        _g._mix(z, tmp)
        for half in range(2):
            bit = 2 * p + half
            if bit >= scale:
                break
            if half == 0:
                xp.bitwise_and(z, low32, out=tmp)
            else:
                xp.right_shift(z, _g._U64(32), out=tmp)
            xp.greater_equal(tmp, t_ab, out=hi)
            xp.greater_equal(tmp, t_a, out=mid)
            xp.greater_equal(tmp, t_abc, out=lo)
            xp.bitwise_xor(mid, lo, out=mid)
            xp.bitwise_xor(mid, hi, out=mid)
            xp.multiply(hi, udt(1 << bit), out=w)
            xp.bitwise_or(ub, w, out=ub)
            xp.multiply(mid, udt(1 << bit), out=w)
            xp.bitwise_or(vb, w, out=vb)
    return ub.astype(np.int64), vb.astype(np.int64)


def kronecker(scale, edge_factor=16, seed=0, *, weights=None, a=_g.GRAPH500_A, b=_g.GRAPH500_B, c=_g.GRAPH500_C,
              ctx=None, chunk=None):
    """The Graph500 Kronecker graph of :func:`semiring.generators.kronecker`, distributed.

    The same seed gives the same matrix as the single-process generator: the same edges,
    permutation and weights, self-loops dropped, repeated edges merged keeping the smallest
    weight (both directions share it). Each rank generates ``1/P`` of the edge list on its
    device, in chunks of ``chunk`` edges, and routes both directions of each edge to their
    owners. A collective call.

    Parameters
    ----------
    scale : int
        log2 of the vertex count, 1..31 (vertex ids fit int32).
    edge_factor : int, default 16
    seed : int, default 0
    weights : None or (low, high)
        As in :func:`semiring.generators.kronecker`.
    a, b, c : float
        Initiator probabilities.
    ctx : Context, optional
    chunk : int, optional
        Edges generated at once per rank (default 2**26 on a GPU, 2**18 on a CPU).

    Returns
    -------
    DistMatrix, shape (2**scale, 2**scale), kind "undirected".

    Raises
    ------
    InvalidValue
        Out-of-range scale, edge factor, probabilities, seed or weights.
    OutOfMemory
        This rank's share would need more memory than is free on its device (checked first).
    """
    ctx = context(ctx)
    xp = ctx.xp
    scale, edge_factor = _g._kronecker_sizes(scale, edge_factor)
    a, b, c = _g._probabilities(a, b, c)
    _g._weight_spec(weights)
    seed = _checks.seed(seed, "kronecker", draw=True)
    # each rank builds about 1/P of the edges (both directions of its share)
    _g._require_build((1 << scale) // ctx.size + 1, (edge_factor << scale) // ctx.size + 1, weights is not None,
                      f"kronecker(scale={scale}, edge_factor={edge_factor}) on rank {ctx.rank} of {ctx.size}",
                      ctx.device)
    chunk = chunk or _CHUNK[ctx.device]
    n, m = 1 << scale, int(edge_factor) << scale
    P, r = ctx.size, ctx.rank
    e0, e1 = r * m // P, (r + 1) * m // P
    most = max((q + 1) * m // P - q * m // P for q in range(P))
    nchunks = -(-most // chunk)
    wkey = _g._stream_key(seed, _g._WEIGHTS)
    _, dtype = _g._weights(np, weights, 0, wkey)  # validates weights; the same on every rank
    wrange = tuple(weights) if dtype == "int64" else None
    perm = _g._permutation(xp, _g._stream_key(seed, _g._PERMUTATION), n).astype(np.int32)
    kkey = _g._stream_key(seed, _g._KRON_BITS)
    builder = _Builder(ctx, Blocks(n, P), dtype, wrange)
    for i in range(nchunks):
        s, e = min(e1, e0 + i * chunk), min(e1, e0 + (i + 1) * chunk)
        u, v = _kron_slice(xp, kkey, scale, s, e, a, b, c)
        u, v = perm[u], perm[v]
        w, _ = _g._weights(xp, weights, e - s, wkey, counters=xp.arange(s, e, dtype=np.int64))
        keep = u != v
        u, v = u[keep], v[keep]
        w = None if w is None else w[keep]
        rows, cols = xp.concatenate([u, v]), xp.concatenate([v, u])
        del u, v, keep
        builder.route(rows, cols, None if w is None else xp.concatenate([w, w]))
        del rows, cols, w
    del perm
    indptr, cols, vals = builder.build("min", "kronecker")
    return DistMatrix(ctx, n, indptr, cols, vals, dtype, "undirected")


# -- files ---------------------------------------------------------------------------------------
def _open(path):
    return gzip.open(path, "rb") if os.fspath(path).lower().endswith(".gz") else open(path, "rb")


def _header(path):
    """(format, n, entries, field, symmetric, header lines) from the first lines of the file."""
    name = os.fspath(path).lower()
    stem = name[:-3] if name.endswith(".gz") else name
    with _open(path) as f:
        if stem.endswith(".mtx"):
            first = f.readline().decode(errors="replace")
            m = re.match(r"%%MatrixMarket\s+matrix\s+coordinate\s+(pattern|integer|real)\s+(general|symmetric)",
                         first, re.IGNORECASE)
            if not m:
                raise InvalidValue(f"read {path}: line 1: expected '%%MatrixMarket matrix coordinate "
                                   f"<pattern|integer|real> <general|symmetric>'; given {first.strip()[:60]!r}")
            lineno = 1
            for line in f:
                lineno += 1
                t = line.split()
                if not t or t[0].startswith(b"%"):
                    continue
                if len(t) != 3 or not all(x.isdigit() for x in t):
                    raise InvalidValue(f"read {path}: line {lineno}: expected '<rows> <cols> <entries>'")
                nr, nc, nnz = (int(x) for x in t)
                if nr != nc:
                    raise InvalidValue(f"read {path}: a distributed matrix is square; given {nr}x{nc}")
                return "mtx", nr, nnz, m.group(1).lower(), m.group(2).lower() == "symmetric", lineno
            raise InvalidValue(f"read {path}: no size line")
        if stem.endswith(".gr"):
            lineno = 0
            for line in f:
                lineno += 1
                t = line.split()
                if t and t[0] == b"p":
                    if len(t) != 4 or t[1] != b"sp":
                        raise InvalidValue(f"read {path}: line {lineno}: expected 'p sp <vertices> <arcs>'")
                    return "gr", int(t[2]), int(t[3]), "integer", False, lineno
                if t and t[0] not in (b"c",):
                    raise InvalidValue(f"read {path}: line {lineno}: an arc before the 'p sp' line")
            raise InvalidValue(f"read {path}: no problem line ('p sp <vertices> <arcs>')")
    raise InvalidValue(f"read {path}: semiring.distributed reads .mtx and .gr files (optionally .gz); "
                       "read other formats with semiring.io.read and distribute with DistMatrix.from_matrix")


def _my_lines(path, skip, rank, size):
    """The text of this rank's blocks of lines after the first ``skip`` lines (block b: rank b % P)."""
    out = []
    with _open(path) as f:
        for _ in range(skip):
            f.readline()
        b, carry = 0, b""
        while True:
            data = f.read(_READ_BLOCK)
            if not data:
                if carry and b % size == rank:
                    out.append(carry)
                break
            data = carry + data
            cut = data.rfind(b"\n") + 1
            block, carry = data[:cut], data[cut:]
            if b % size == rank:
                out.append(block)
            b += 1
    return b"".join(out)


def _parse(path, fmt, field, text, n):
    """(rows, cols, vals) 0-based int64 / values from this rank's text."""
    ncol = 2 if field == "pattern" else 3
    if fmt == "gr":
        lines = [ln for ln in text.split(b"\n") if ln.strip() and not ln.lstrip().startswith(b"c")]
        if any(not ln.lstrip().startswith(b"a ") for ln in lines):
            bad = next(ln for ln in lines if not ln.lstrip().startswith(b"a "))
            raise InvalidValue(f"read {path}: expected arc lines 'a <u> <v> <w>'; given {bad[:60]!r}")
        text = b"\n".join(ln.lstrip()[2:] for ln in lines)
    else:
        text = b"\n".join(ln for ln in text.split(b"\n") if not ln.lstrip().startswith(b"%"))
    dtype = np.float64 if field == "real" else np.int64
    flat = np.array(text.split(), dtype=dtype) if text.strip() else np.zeros(0, dtype)
    if flat.size % ncol:
        raise InvalidValue(f"read {path}: expected {ncol} numbers per entry line; the lines of one block "
                           f"hold {flat.size} numbers")
    arr = flat.reshape(-1, ncol)
    rows, cols = arr[:, 0].astype(np.int64) - 1, arr[:, 1].astype(np.int64) - 1
    if rows.size and (min(rows.min(), cols.min()) < 0 or max(rows.max(), cols.max()) >= n):
        raise InvalidValue(f"read {path}: expected vertices in 1..{n}")
    vals = None if ncol == 2 else arr[:, 2]
    return rows, cols, vals


def read(path, *, ctx=None, dup=None):
    """Read a Matrix Market or DIMACS ``.gr`` file into a :class:`DistMatrix` (a collective call).

    Every rank streams the file and parses only its blocks of lines, then routes them to
    their owners. Symmetric Matrix Market files give both triangles; ``.gr`` arcs are int64
    weights with parallel arcs merged by min (as :func:`semiring.io.read_gr`).

    Parameters
    ----------
    path : str or path-like
        ``.mtx``, ``.mtx.gz``, ``.gr`` or ``.gr.gz``; 1-based vertex ids in the file.
    ctx : Context, optional
    dup : {"error", "min"}, optional
        Repeated entries; default "error" for Matrix Market (as :func:`semiring.io.read_mtx`)
        and "min" for ``.gr``.

    Returns
    -------
    DistMatrix
        bool (pattern), int64 (integer, ``.gr``) or float64 (real) values.

    Raises
    ------
    InvalidValue
        A missing or malformed file, a non-square matrix, entry counts differing from the header,
        repeated entries with dup="error" (on every rank: errors are agreed).
    """
    ctx = context(ctx)
    err, info = None, None
    try:
        if not os.path.isfile(path):
            raise InvalidValue(f"read {path}: no such file")
        info = _header(path)
    except (InvalidValue, OSError, EOFError, zlib.error) as exc:  # gzip damage: BadGzipFile, EOFError, zlib.error
        err = exc if isinstance(exc, InvalidValue) else InvalidValue(f"read {path}: {exc or type(exc).__name__}")
    ctx.agree(err, "read")
    fmt, n, nnz, field, symmetric, skip = info
    rows = cols = vals = None
    try:
        rows, cols, vals = _parse(path, fmt, field, _my_lines(path, skip, ctx.rank, ctx.size), n)
    except (InvalidValue, ValueError, OSError, EOFError, zlib.error) as exc:
        err = exc if isinstance(exc, InvalidValue) else InvalidValue(f"read {path}: {exc or type(exc).__name__}")
    ctx.agree(err, "read")
    got = int(ctx.allreduce(np.int64(rows.size), "sum", "read"))
    if got != nnz:
        raise InvalidValue(f"read {path}: the header announces {nnz} entries; the file has {got}")
    if symmetric:
        off = rows != cols
        rows, cols = np.concatenate([rows, cols[off]]), np.concatenate([cols, rows[off]])
        vals = None if vals is None else np.concatenate([vals, vals[off]])
    dtype = {"pattern": "bool", "integer": "int64", "real": "float64"}[field]
    if vals is not None and dtype == "int64":
        vals = vals.astype(np.int64)
    dup = dup or ("min" if fmt == "gr" else "error")
    xp = ctx.xp
    return DistMatrix.from_edges(xp.asarray(rows), xp.asarray(cols), None if vals is None else xp.asarray(vals),
                                 n=n, dtype=dtype, dup=dup, ctx=ctx, what=f"read {os.path.basename(path)}")


__all__ = ["kronecker", "read"]
