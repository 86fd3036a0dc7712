"""Triangle counting as masked ``plus.pair`` products, after LAGraph's ``LAGr_TriangleCount``.

With ``A`` the symmetric pattern of an undirected graph (self-loops dropped), ``L`` and ``U`` its
strictly lower and upper triangles, every method counts each triangle through one masked
product ``C<M> = X plus.pair Y`` (``C(i, j)`` = the number of k with ``X(i, k)`` and ``Y(k, j)``
present, computed only where the mask M has an entry) and a sum of C:

- ``"burkhardt"``: ``sum(C<A> = A plus.pair A) / 6`` (each triangle is closed by 6 wedges);
- ``"cohen"``: ``sum(C<A> = L plus.pair U) / 2``;
- ``"sandia"``: ``sum(C<L> = L plus.pair L)`` (each triangle once: at its (largest, smallest)
  vertex pair, through its middle vertex);
- ``"sandia2"``: ``sum(C<U> = U plus.pair U)``.

The work of the Sandia methods depends on the vertex order: ordering vertices by degree bounds
the wedges a product expands (Cohen 2009's degree ordering; Wolf et al. 2017's presort).
``presort="auto"`` follows LAGraph's rule in form (sort at least 1,000 vertices whose mean degree
is well above the median: a skewed, power-law degree distribution) with a threshold measured for
this engine, mean > 2 x median (LAGraph: 4 x, and a mean degree of at least 10), and sorts by
*descending* degree for both Sandia methods. The engine needs the sort more often than
SuiteSparse: the CPU product multiplies each row of L in full and then applies the mask (SciPy's
SpGEMM), so a hub's row must be short. Measured on 2 cores: Kronecker scale 16 (mean degree 27.8,
median 2), ``L*L`` 0.9 s after a descending sort, 4.4 s after an ascending one, 9.0 s unsorted;
cnr-2000 made undirected (mean 17.1, median 5, below LAGraph's 4 x) 2.7 s sorted against 24 s
unsorted; the USA North-East roads (mean 2.5, median 3) gain 0.07 s from a sort that costs 1.5 s.

Triangles per vertex use two Sandia products on the sorted order: with ``C<L> = L plus.pair L``
a triangle ``a < b < c`` is counted at ``C(c, a)``, so the row sums of C count the triangles
where a vertex is the largest and the column sums those where it is the smallest; with
``D<L> = U plus.pair L``, ``D(b, a)`` counts the c > b adjacent to b and a, so the row sums of
D count the triangles where a vertex is in the middle.

References
----------
M. M. Wolf, M. Deveci, J. W. Berry, S. D. Hammond, S. Rajamanickam, "Fast linear algebra-based
triangle counting with KokkosKernels", IEEE HPEC 2017 (the Sandia methods, presort).
A. Azad, A. Buluc, J. Gilbert, "Parallel triangle counting and enumeration using matrix
algebra", IPDPSW 2015. J. Cohen, "Graph twiddling in a MapReduce world", Computing in Science &
Engineering 11(4), 2009. P. Burkhardt, "Graphing trillions of triangles", Information
Visualization 16(3), 2017. LAGraph ``LAGr_TriangleCount`` (Davis), whose test answers (karate 45,
bcsstk13 342,300, jagmesh7 2,016) the tests check.
"""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..backends._xp import asnumpy
from ..core.vector import Vector
from ..exceptions import InvalidValue
from ..ops import binary, indexunary, monoid, semiring
from .graph import as_graph, on_graph_backend

METHODS = ("burkhardt", "cohen", "sandia", "sandia2")
PRESORTS = ("auto", "ascending", "descending", None)

#: presort="auto" sorts only graphs with at least this many vertices (LAGraph's 1,000) ...
PRESORT_MIN_VERTICES = 1000
#: ... whose mean degree is above this multiple of the median degree (LAGraph: 4; measured here,
#: see the module docstring).
PRESORT_MEAN_OVER_MEDIAN = 2


def _pattern(G, what):
    """The int64 ones pattern of A without self-loops (``G.offdiag_pattern("int64")``),
    checked symmetric."""
    # the values may differ both ways; the structure must not
    extra = G.unmirrored
    if extra:
        raise InvalidValue(f"{what}: A must be undirected (a symmetric pattern: A[i, j] present iff A[j, i] "
                           f"is); given a {G.n}x{G.n} matrix with {extra} entries whose mirror entry is absent")
    # P = offdiag(one(A)) as int64   (plus.pair over int64 counts; self-loops close no triangle)
    return G.offdiag_pattern("int64")


def _degrees(P):
    """Host int64 array of the number of neighbours of every vertex."""
    # d = reduce_rowwise(P, plus)
    d = _core.reduce_rowwise(P, monoid.plus)
    return asnumpy(d.to_dense(0)).astype(np.int64, copy=False)


def skewed(P):
    """Whether the degrees of the pattern P are skewed: a mean above
    :data:`PRESORT_MEAN_OVER_MEDIAN` times the median (the degrees are copied to the host)."""
    d = _degrees(P)
    return bool(d.mean() > PRESORT_MEAN_OVER_MEDIAN * float(np.median(d)))


def presorted(P, order):
    """(P(perm, perm), perm): the pattern with vertices relabelled by degree ``order``
    ("ascending" or "descending"; vertex perm[i] becomes vertex i)."""
    d = _degrees(P)
    perm = np.argsort(d if order == "ascending" else -d, kind="stable")
    # S = P(perm, perm)
    return _core.extract(P, perm, perm), perm


def _presort_order(G, P, presort, what):
    """None (no sort), or the vertex order by degree ("ascending"/"descending"; "auto" decides,
    once per Graph: :attr:`Graph.triangle_presort_skewed`)."""
    if presort not in PRESORTS:
        raise InvalidValue(f"{what}: presort must be one of {PRESORTS}; given {presort!r}")
    if presort is None:
        return None
    n = P.nrows
    if presort == "auto":
        if n < PRESORT_MIN_VERTICES or not G.triangle_presort_skewed:
            return None
        presort = "descending"
    return presort


def _check_method(method, what):
    if method not in METHODS:
        raise InvalidValue(f"{what}: method must be one of {METHODS}; given {method!r}")


@on_graph_backend
def triangle_count(A, *, method="sandia", presort="auto"):
    """The number of triangles of an undirected graph.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        Symmetric pattern: ``A[i, j]`` present iff ``A[j, i]`` is (values, explicit zeros
        included, are ignored). Self-loops are ignored.
    method : {"sandia", "sandia2", "cohen", "burkhardt"}, default "sandia"
        The masked product (see the module docstring): ``sum(L*L .* L)``, ``sum(U*U .* U)``,
        ``sum(L*U .* A) / 2`` or ``sum(A*A .* A) / 6``. All give the same count.
    presort : {"auto", "descending", "ascending", None}, default "auto"
        Relabel vertices by degree before a Sandia method (ignored by the others). "auto"
        sorts descending when the degree distribution is skewed (n >= 1000 and a mean degree
        above twice the median; LAGraph's rule with this engine's threshold).

    Returns
    -------
    int
        The number of vertex triples that are pairwise adjacent.

    Raises
    ------
    InvalidValue
        A is not a Matrix or Graph; its pattern is not symmetric (a directed graph: the message
        counts the entries without a mirror); unknown method or presort.
    DimensionMismatch
        A is not square.

    Notes
    -----
    One masked ``plus.pair`` product and one sum. On the CPU the masked ``plus.pair`` product
    runs through SciPy's compiled SpGEMM; its work is the wedges ``X(i, k) Y(k, j)`` of the rows
    that the mask holds.

    References
    ----------
    Wolf et al., IEEE HPEC 2017; Azad, Buluc, Gilbert, IPDPSW 2015; LAGraph ``LAGr_TriangleCount``.

    Examples
    --------
    >>> import semiring as sr
    >>> # a 4-cycle 0-1-2-3 with the chord 0-2: two triangles
    >>> r, c = [0, 1, 2, 3, 0], [1, 2, 3, 0, 2]
    >>> A = sr.Matrix.from_coo(r + c, c + r, nrows=4, ncols=4)
    >>> sr.algorithms.triangle_count(A)
    2
    """
    what = "triangle_count"
    G = as_graph(A, what)
    _check_method(method, what)
    P = _pattern(G, what)
    order = _presort_order(G, P, presort, what)  # validates presort for every method
    if method in ("sandia", "sandia2") and order is not None:
        P, _ = G.triangle_presorted(order)
        key = order
    else:
        key = None
    if method == "burkhardt":
        # C<P> = P plus.pair P;  ntri = sum(C) / 6
        return _total(_core.mxm(P, P, semiring.plus_pair, mask=P.S)) // 6
    if method == "cohen":
        # L = tril(P, -1);  U = triu(P, 1);  C<P> = L plus.pair U;  ntri = sum(C) / 2
        L, U = _triangle(G, P, "lower", key), _triangle(G, P, "upper", key)
        return _total(_core.mxm(L, U, semiring.plus_pair, mask=P.S)) // 2
    # T = tril(P, -1) (sandia) or triu(P, 1) (sandia2);  C<T> = T plus.pair T;  ntri = sum(C)
    T = _triangle(G, P, "lower" if method == "sandia" else "upper", key)
    return _total(_core.mxm(T, T, semiring.plus_pair, mask=T.S))


def _triangle(G, P, part, order):
    """tril(P, -1) ("lower") or triu(P, 1) ("upper") of the pattern P (of the given presort
    order, None: unsorted), kept on G (:meth:`Graph.triangle_part`)."""
    return G.triangle_part(part, order)


def _total(C):
    # ntri = plus_reduce(C)
    return int(_core.reduce_scalar(C, monoid.plus)) if C.nvals else 0


@on_graph_backend
def triangles_per_vertex(A, *, presort="auto"):
    """The number of triangles through each vertex of an undirected graph.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        Symmetric pattern, as for :func:`triangle_count`; self-loops are ignored.
    presort : {"auto", "descending", "ascending", None}, default "auto"
        Relabel vertices by degree before the products (the result is in the original labels).

    Returns
    -------
    Vector of int64, size n
        Every vertex present; ``t[v]`` is the number of triangles with v as a corner (0 where
        none). ``sum(t) == 3 * triangle_count(A)``. networkx's ``triangles``.

    Raises
    ------
    InvalidValue
        A is not a Matrix or Graph, its pattern is not symmetric, or an unknown presort.
    DimensionMismatch
        A is not square.

    Notes
    -----
    Two masked ``plus.pair`` products, ``C<L> = L plus.pair L`` and ``D<L> = U plus.pair L``
    (see the module docstring), their row and column sums, and an extract that undoes the
    relabelling.

    Examples
    --------
    >>> import semiring as sr
    >>> r, c = [0, 1, 2, 3, 0], [1, 2, 3, 0, 2]
    >>> A = sr.Matrix.from_coo(r + c, c + r, nrows=4, ncols=4)
    >>> sr.algorithms.triangles_per_vertex(A).to_dense().tolist()
    [2, 1, 2, 1]
    """
    what = "triangles_per_vertex"
    G = as_graph(A, what)
    P = _pattern(G, what)
    order = _presort_order(G, P, presort, what)
    n, device = G.n, G.A.device
    perm = None
    if order is not None:
        P, perm = G.triangle_presorted(order)
    # L = tril(P, -1);  U = L'
    L = _core.select(P, indexunary.tril, -1)
    U = _core.transpose(L)
    # C<L> = L plus.pair L   (C(c, a): the b with a < b < c closing the triangle)
    C = _core.mxm(L, L, semiring.plus_pair, mask=L.S)
    # D<L> = U plus.pair L   (D(b, a): the c > b closing the triangle)
    D = _core.mxm(U, L, semiring.plus_pair, mask=L.S)
    # t = 0 + rowsum(C) + colsum(C) + rowsum(D)   (largest, smallest and middle corner)
    t = Vector.from_dense(np.zeros(n, dtype=np.int64), device=device)
    for part in (_core.reduce_rowwise(C, monoid.plus), _core.reduce_columnwise(C, monoid.plus),
                 _core.reduce_rowwise(D, monoid.plus)):
        t = _core.ewise_add(t, part, binary.plus)
    if perm is None:
        return t
    # t_orig = t(inv)   (inv[v]: the sorted label of v)
    inv = np.empty(n, dtype=np.int64)
    inv[perm] = np.arange(n, dtype=np.int64)
    return _core.extract(t, inv)


__all__ = ["triangle_count", "triangles_per_vertex", "METHODS", "PRESORTS"]
