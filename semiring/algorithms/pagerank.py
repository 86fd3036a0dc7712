"""PageRank by power iteration, one ``plus.second`` (or ``plus.times``) product per iteration.

The rank ``x`` of every vertex is the stationary distribution of a random walk that, with
probability ``alpha``, follows an out-link of the current vertex (chosen in proportion to the
link weights, or uniformly) and otherwise jumps to a vertex drawn from the personalization
distribution ``p``. A *dangling* vertex (no out-link, or out-links of total weight 0) jumps to a
vertex drawn from the dangling distribution ``g`` (default ``p``). One iteration is

    x_new = alpha * P' x + alpha * (sum of x over the dangling vertices) * g + (1 - alpha) * p,

with ``P(i, j) = A(i, j) / d(i)`` and ``d(i)`` the out-degree (or out-weight) of i. As in
LAGraph's ``LAGr_PageRank``, ``P`` is never formed: the ranks are divided by the degrees,
``w = x .* (alpha ./ d)``, and one product ``t = A' plus.second w`` sums them over the
in-links. It stops when ``||x_new - x||_1 < n * tol`` (networkx's rule); ``tol=None`` runs a
fixed number of iterations, as the LDBC Graphalytics definition of PageRank does (there the
dangling vertices' rank is spread uniformly, this function's default).

References
----------
L. Page, S. Brin, R. Motwani, T. Winograd, "The PageRank citation ranking: bringing order to the
Web", Stanford InfoLab, 1999. A. Langville, C. Meyer, "A survey of eigenvector methods of Web
information retrieval", SIAM Review 47(1), 2005 (dangling nodes, personalization).
LAGraph ``LAGr_PageRank`` (Davis, Szarnyas: power iteration on plus.second, sinks handled).
A. Iosup et al., "LDBC Graphalytics: a benchmark for large-scale graph analysis on parallel and
distributed platforms", PVLDB 9(13), 2016 (PageRank with a fixed iteration count).
networkx ``pagerank`` (the stopping rule, the personalization and dangling arguments).
"""

from __future__ import annotations

import numpy as np

from .. import _checks
from .. import core as _core
from ..backends._xp import asnumpy
from ..core.vector import Vector
from ..exceptions import ConvergenceFailure, DimensionMismatch, InvalidValue
from ..ops import binary, indexunary, monoid, semiring, unary
from .graph import as_graph, on_graph_backend


def _check_parameters(alpha, max_iter, tol, weighted, what):
    alpha = _checks.real(alpha, what, "alpha (the damping factor)", low=0.0, high=1.0)
    max_iter = _checks.integer(max_iter, what, "max_iter", low=0)
    if tol is not None:
        tol = _checks.real(tol, what, "tol (None: a fixed number of iterations)", low=0.0)
    return alpha, max_iter, tol, _checks.flag(weighted, what, "weighted")


def _distribution(v, n, device, name, what):
    """A full float64 Vector summing to 1 from a Vector or 1-D array of n non-negative values
    (absent entries of a Vector are 0); None for None."""
    if v is None:
        return None
    if isinstance(v, Vector):
        if v.size != n:
            raise DimensionMismatch(f"{what}: {name} must have size {n} (one value per vertex); given size {v.size}")
        dense = asnumpy(v.dup("float64").to_dense(0.0))
    else:
        dense = np.asarray(v)
        if dense.dtype.kind not in "biuf" or dense.ndim != 1:
            raise InvalidValue(f"{what}: {name} must be a Vector or a 1-D numeric array; given {type(v).__name__} "
                               f"of dtype {dense.dtype} and shape {dense.shape}")
        if dense.shape[0] != n:
            raise DimensionMismatch(f"{what}: {name} must have size {n} (one value per vertex); "
                                    f"given size {dense.shape[0]}")
        dense = asnumpy(dense).astype(np.float64)
    bad = ~np.isfinite(dense) | (dense < 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InvalidValue(f"{what}: {name} values must be finite and >= 0; given {dense[i]} at vertex {i}")
    total = float(dense.sum())
    if not total > 0:
        raise InvalidValue(f"{what}: {name} must have a positive value somewhere (it is normalized to sum 1); "
                           "given all zeros")
    return Vector.from_dense(dense / total, device=device)


def _uniform(n, device):
    x = Vector(n, "float64", device=device)
    # x(:) = 1/n   (made where it lives: no transfer)
    _core.assign(x, 1.0 / n, None)
    return x


def links(G, weighted, what):
    """(W', d, sink): the transposed link matrix, the out-degree (pattern) or out-weight of
    every vertex that has a positive one (float64, absent at the dangling vertices), and the
    dangling vertices (bool, true). Kept on G as :meth:`Graph.pagerank_links`."""
    return _with_sinks(*_build_links(G, weighted, what))


def _with_sinks(WT, d):
    sink = Vector(d.size, "bool", device=d.device)
    # sink<!d.S> = true   (the dangling vertices)
    _core.assign(sink, True, None, mask=~d.S)
    sink.nvals  # noqa: B018  (read once here, so that every call knows it without a read)
    return WT, d, sink


def _build_links(G, weighted, what):
    if not weighted:
        # d = float64(out_degree)
        WT, d = G.AT, G.out_degree.dup("float64")
    else:
        A = G.A
        if A.dtype.kind not in "biuf":
            raise InvalidValue(f"{what}: weighted=True needs numeric edge weights; given dtype {A.dtype.name}")
        W = A if A.dtype == np.float64 else A.dup("float64")
        # ok = valuege(W, 0) and valuelt(W, inf): the entries that are valid link weights
        ok = _core.select(_core.select(W, indexunary.valuege, 0.0), indexunary.valuelt, np.inf)
        if ok.nvals != W.nvals:
            raise InvalidValue(f"{what}: link weights must be finite and >= 0; given {W.nvals - ok.nvals} negative, "
                               "infinite or NaN weights")
        WT = G.AT if (W is A and G.kind == "undirected") else _core.transpose(W)
        # d = reduce_rowwise(W, plus), kept where > 0 (a vertex whose links weigh 0 is dangling)
        d = _core.select(_core.reduce_rowwise(W, monoid.plus), indexunary.valuegt, 0.0)
    return WT, d


@on_graph_backend
def pagerank(A, *, alpha=0.85, personalization=None, max_iter=100, tol=1e-6, weighted=False, dangling=None,
             nstart=None):
    """PageRank of every vertex, by power iteration.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        ``A[i, j]`` present means a link i -> j. An undirected graph (symmetric A) links both
        ways. Self-loops are links.
    alpha : float in [0, 1], default 0.85
        Damping factor: the probability of following a link rather than teleporting.
    personalization : Vector or array of n non-negative floats, optional
        Teleport distribution (normalized to sum 1; absent entries of a Vector are 0).
        Default uniform, 1/n.
    max_iter : int >= 0, default 100
        Iteration limit (with ``tol=None``: the exact number of iterations).
    tol : float >= 0 or None, default 1e-6
        Stop after the first iteration with ``sum(|x_new - x|) < n * tol`` (networkx's rule).
        None runs exactly ``max_iter`` iterations and returns without a convergence test
        (LDBC Graphalytics' definition).
    weighted : bool, default False
        False: every link of a vertex gets an equal share of its rank (the values of A are
        ignored, explicit zeros included). True: shares in proportion to the values of A
        (float64; they must be finite and >= 0); a vertex whose links weigh 0 in total is
        dangling.
    dangling : Vector or array of n non-negative floats, optional
        Where the rank of dangling vertices (no out-link) goes (normalized to sum 1).
        Default: the personalization distribution.
    nstart : Vector or array of n non-negative floats, optional
        Starting ranks (normalized to sum 1). Default uniform.

    Returns
    -------
    Vector of float64, size n
        Every vertex present; the ranks are non-negative and sum to 1 (up to rounding).

    Raises
    ------
    ConvergenceFailure
        ``tol`` is not None and the ranks did not converge within ``max_iter`` iterations
        (``exc.iterations`` holds ``max_iter``).
    InvalidValue
        A is not a Matrix or Graph; alpha outside [0, 1] or not a number; max_iter not an
        integer >= 0; tol negative; weighted not a bool; personalization, dangling or nstart with
        a negative, NaN or infinite value, or all zero; negative, NaN or infinite weights with
        ``weighted=True``.
    DimensionMismatch
        A is not square, or personalization, dangling or nstart is not of size n.

    Notes
    -----
    Per iteration: one ``plus.second`` product with A' (``plus.times`` with the weights), an
    elementwise division by the degrees, a reduction over the dangling vertices, and (with a
    tolerance) an L1 norm: O(nvals(A) + n). Self-loops count as out-links, as in networkx.

    References
    ----------
    Page, Brin, Motwani, Winograd, Stanford InfoLab 1999; Langville and Meyer, SIAM Review 47(1),
    2005; LAGraph ``LAGr_PageRank``; LDBC Graphalytics (Iosup et al., PVLDB 2016).

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 1, 2, 2], [1, 2, 0, 1], nrows=3, ncols=3)
    >>> r = sr.algorithms.pagerank(A)
    >>> [round(v, 4) for v in r.to_dense().tolist()]
    [0.2148, 0.3974, 0.3878]
    """
    what = "pagerank"
    G = as_graph(A, what)
    alpha, max_iter, tol, weighted = _check_parameters(alpha, max_iter, tol, weighted, what)
    n, device = G.n, G.A.device
    p = _distribution(personalization, n, device, "personalization", what)
    g = _distribution(dangling, n, device, "dangling", what)
    x = _distribution(nstart, n, device, "nstart", what)
    if n == 0:
        return Vector(0, "float64", device=device)
    p = _uniform(n, device) if p is None else p
    x = _uniform(n, device) if x is None else x
    WT, d, sink = G.pagerank_links(weighted, what)
    product = semiring.plus_times if weighted else semiring.plus_second
    # scale = alpha ./ d   (at the vertices with out-links)
    scale = _core.apply(d, binary.div, left=alpha)
    for _ in range(max_iter):
        # w = x .* scale   (alpha times each vertex's rank share per link)
        w = _core.ewise_mult(x, scale, binary.times)
        # t = W' plus.second w   (plus.times with weights): the rank arriving over the in-links
        t = _core.mxv(WT, w, product)
        # s = plus_reduce(x<sink.S>)   (the rank held by the dangling vertices)
        s = float(_core.reduce_scalar(_core.ewise_mult(x, sink, binary.first), monoid.plus)) if sink.nvals else 0.0
        if g is None:
            # r = ((1 - alpha) + alpha s) p   (teleport and the dangling rank, both spread by p)
            r = _core.apply(p, binary.times, right=(1.0 - alpha) + alpha * s)
        else:
            # r = (1 - alpha) p .+ (alpha s) g   (both full: the intersection is every vertex)
            r = _core.ewise_mult(_core.apply(p, binary.times, right=1.0 - alpha),
                                 _core.apply(g, binary.times, right=alpha * s), binary.plus)
        # r<t.S> = r .+ t   (r is full; t is absent where no rank arrives, and r keeps its value there)
        _core.ewise_mult(r, t, binary.plus, mask=t.S, out=r)
        if tol is not None:
            # err = plus_reduce(abs(r .- x))   (both full)
            err = float(_core.reduce_scalar(_core.apply(_core.ewise_mult(r, x, binary.minus), unary.abs),
                                            monoid.plus))
            if err < n * tol:
                return r
        x = r
    if tol is None:
        return x
    raise ConvergenceFailure(f"{what}: the ranks did not converge to tol={tol} (sum |x_new - x| < n * tol) within "
                             f"max_iter={max_iter} iterations", iterations=max_iter)


__all__ = ["pagerank"]
