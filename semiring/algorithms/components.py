"""Connected and strongly connected components as ``min_second`` / ``max_first`` products.

- Weakly connected components by subgraph sampling, as Afforest (Sutton, Ben-Nun, Barak 2018)
  and LAGraph's ``LG_CC_FastSV6`` do it, with Shiloach-Vishkin hooking of roots:

  1. *Sample*: each vertex's smallest and largest neighbour (``reduce_rowwise`` of
     ``colindex(A)`` by ``min`` and ``max``; out- and in-neighbours of a directed A). The links
     to the smallest neighbours form a forest (every parent is smaller than its child), which
     pointer jumping compresses to stars; the links to the largest neighbours (and to the
     smallest, where it is larger than the vertex) join those stars by Shiloach-Vishkin rounds:
     the larger root of each link's ends is hooked under the smallest root offered to it (the
     scatter ``f(r) = min(f(r), x)`` is the product ``C min.second x`` with ``C(r, k)`` present
     for each offer k, LAGraph's matrix C), the hooked roots are compressed by pointer doubling,
     and only the links whose ends were in two trees go on.
  2. *Giant component*: the most frequent label among 1024 sampled vertices (``key``); when it
     holds less than 1/8 of them there is none, and step 3 starts from every vertex.
  3. *Final rounds* on the rows of the vertices outside it and of the giant vertices next to
     one of them (a push from the former; every other giant vertex has only giant neighbours):
     each active vertex takes the smallest label among its neighbours (``A min.second L``), the
     root of its star is hooked under the smallest such label below its own, and the trees are
     compressed. A vertex whose neighbours all share its label leaves the active set for good
     (trees only merge), as LACC (Azad, Buluc 2019) stops visiting converged vertices.

  Labels are vertex ids and only fall, and every root is the smallest vertex of its tree, so
  each component ends as one star rooted at its smallest vertex: the result is that labelling.
  Which label the sample takes for the giant component changes the work, never the result.
- Strongly connected components by the Multistep method of Slota, Rajamanickam and Madduri
  (2014): one trimming pass (a vertex with no in-edge or no out-edge other than a self-loop is
  its own component; the degrees are computed once per graph), the component of a high-degree
  pivot as the vertices that reach it (a masked ``any.pair`` search along the transpose) among
  which those it reaches (a second search inside the first; it is usually the giant
  component), then the coloring algorithm (Orzan 2004; McLendon et al. 2005) on what is left:
  propagate the largest key forward to a fixed point (``color = max(color, color max.first A)``,
  a push from the vertices whose color rose), every vertex whose color is its own key is a
  root, and the vertices of its color that reach it (a push along the transpose restricted to
  that color) are its component. The keys are a hash-based random permutation
  (:func:`semiring.algorithms.coloring.priorities`) rather than the vertex ids, so that a chain of
  components sorted by id does not cost one round per component. A final ``min`` reduction over
  each component relabels it by its smallest vertex.
  On the GPU (a directed graph of fewer than 2**31 vertices) the search is instead one
  persistent kernel (:mod:`semiring.backends.gpu.scc`): the max-signature propagation of Orzan
  (2004) and Barnat et al. (2011) as ECL-SCC runs it (Alabandi et al. 2023). Each remaining
  vertex keeps the largest key that reaches it and the largest key it reaches, propagated over
  the remaining arcs to a fixed point in place with pointer jumping; a vertex whose two
  signatures agree is in the component of the vertex they name, arcs whose ends differ in
  either signature are dropped, and the rest repeats. The labels (smallest vertex of each
  component) equal the CPU path's.
- With the SuiteSparse CPU backend (numba importable: :func:`semiring.backends.cpu._jit.enabled`)
  both run as compiled whole-graph loops (:mod:`semiring.backends.cpu.components`), the CPU
  counterparts of those kernels: ECL-CC's union-find, run sequentially, for the weak
  components, and Pearce's (2016) space-efficient iterative form of Tarjan's (1972)
  depth-first search for the strong ones. Their labels equal the algebra's.

References
----------
M. Sutton, T. Ben-Nun, A. Barak, "Optimizing parallel graph connectivity computation via
subgraph sampling", IPDPS 2018 (Afforest). A. Azad, A. Buluc, "LACC: a linear-algebraic
algorithm for finding connected components in distributed memory", IPDPS 2019.
Y. Zhang, A. Azad, Z. Hu, "FastSV: a distributed-memory connected component algorithm with fast
convergence", SIAM PP 2020. Y. Zhang, A. Azad, A. Buluc, "Parallel algorithms for finding
connected components using linear algebra", J. Parallel Distrib. Comput. 144, 2020.
Y. Shiloach, U. Vishkin, "An O(log n) parallel connectivity algorithm", J. Algorithms 3, 1982.
G. M. Slota, S. Rajamanickam, K. Madduri, "BFS and coloring-based parallel algorithms for
strongly connected components and related problems", IPDPS 2014.
S. Orzan, "On distributed verification and verified distribution", PhD thesis, VU Amsterdam, 2004.
W. McLendon III, B. Hendrickson, S. Plimpton, L. Rauchwerger, "Finding strongly connected
components in distributed graphs", J. Parallel Distrib. Comput. 65, 2005 (trimming).
J. Barnat, P. Bauch, L. Brim, M. Ceska, "Computing strongly connected components in parallel on
CUDA", IPDPS 2011. G. Alabandi, W. Sands, G. Biros, M. Burtscher, "A GPU algorithm for
detecting strongly connected components", SC 2023 (ECL-SCC).
L. Fleischer, B. Hendrickson, A. Pinar, "On identifying strongly connected components in
parallel", IPDPS Workshops 2000 (forward-backward).
R. E. Tarjan, "Depth-first search and linear graph algorithms", SIAM J. Comput. 1(2), 1972.
D. J. Pearce, "A space-efficient algorithm for finding strongly connected components", Inf.
Process. Lett. 116(1), 2016. J. Jaiganesh, M. Burtscher, "A high-performance connected
components implementation for GPUs", HPDC 2018 (ECL-CC).
LAGraph ``LG_CC_FastSV6`` / ``LAGr_ConnectedComponents`` (Zhang, Davis).
"""

from __future__ import annotations

import numpy as np

from .. import _checks
from ..backends.cpu import _jit
from ..core.vector import Vector
from ..exceptions import InvalidValue
from ._components_cc import (  # noqa: F401 (the sampling's constants: importable here too)
    GIANT_FRACTION, GIANT_SAMPLES, MASKED_ROWS_FRACTION, _afforest,
)
from ._components_scc import _multistep
from .engines import GPU_MAX_VERTICES
from .graph import as_graph, on_graph_backend


@on_graph_backend
def connected_components(A):
    """Weakly connected components, each labelled by its smallest vertex.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        ``A[i, j]`` present means an edge i -> j; values (and explicit zeros) are ignored, and a
        directed graph is taken as the pattern of ``A + A^T``. Self-loops are allowed.

    Returns
    -------
    Vector of int64, size n
        Every vertex present; ``c[v]`` is the smallest vertex index of v's component, so
        ``c[v] == v`` exactly at one vertex per component (the number of components is the
        number of such vertices).

    Raises
    ------
    InvalidValue
        A is not a Matrix or Graph.
    DimensionMismatch
        A is not square.

    Notes
    -----
    With the NumPy CPU backend, subgraph sampling as in Afforest (Sutton, Ben-Nun and Barak
    2018) and LAGraph's ``LG_CC_FastSV6``: the components of the links from each vertex to its
    smallest and largest neighbour (two row reductions of ``colindex(A)``, a forest compressed
    by pointer jumping, and Shiloach-Vishkin rounds over the other links), then hooking rounds
    (``A min.second L`` over the active rows) only on the vertices outside the sample's most
    frequent label and the giant vertices next to them. On the cnr-2000 web crawl (325,557
    vertices) the sample labels 98% of the vertices and the final rounds read about 7,000 rows.

    On the GPU, ECL-CC (Jaiganesh and Burtscher 2018): one pass over the arcs hooks the larger
    root of each arc's ends under the smaller by compare-and-swap, with path halving, and a
    last pass points every vertex at its root (:mod:`semiring.backends.gpu.forest`): four
    launches and no host read.

    With the SuiteSparse CPU backend (and numba, which it brings), ECL-CC's union-find runs
    as one compiled loop (:mod:`semiring.backends.cpu.components`): every vertex starts under
    its first smaller neighbour, one pass over the arcs (over the arcs to smaller vertices
    only, for a Graph given as undirected) hooks the larger root of each arc's ends under the
    smaller, with path halving, and a pass in increasing vertex order points every vertex at
    its root: O(n + nnz) time and one int64 array of n.

    Every engine gives every vertex the smallest vertex of its component.

    References
    ----------
    Sutton, Ben-Nun, Barak, "Optimizing parallel graph connectivity computation via subgraph
    sampling", IPDPS 2018; Shiloach, Vishkin, "An O(log n) parallel connectivity algorithm",
    J. Algorithms 3, 1982; Azad, Buluc, "LACC", IPDPS 2019; LAGraph ``LG_CC_FastSV6``; Jaiganesh, Burtscher,
    "A high-performance connected components implementation for GPUs", HPDC 2018 (ECL-CC);
    Tarjan, van Leeuwen, "Worst-case analysis of set union algorithms", J. ACM 31(2), 1984
    (path halving).

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([1, 3, 4], [2, 4, 5], nrows=6, ncols=6)
    >>> sr.algorithms.connected_components(A).to_dense().tolist()
    [0, 1, 1, 3, 3, 3]
    """
    G = as_graph(A, "connected_components")
    n, device = G.n, G.A.device
    if n == 0:
        return Vector(0, "int64", device=device)
    if device == "gpu":
        return _components_on_device(G)
    if _jit.enabled():
        return _compiled(G, strong=False)
    return _afforest(G, device)[0]


def _components_on_device(G):
    """ECL-CC union-find on the GPU (semiring.backends.gpu.forest): the same labels as FastSV."""
    import cupy as cp

    from ..backends.gpu import forest

    labels = forest.components(G.A, symmetric=G._given_kind == "undirected")
    return Vector._from_bitmap("int64", cp.ones(G.n, dtype=bool), labels, G.n)


def _compiled(G, strong):
    """The compiled whole-graph loop on the CPU (semiring.backends.cpu.components): ECL-CC
    union-find, or Pearce's iterative Tarjan for ``strong``; the same labels as the algebra."""
    from ..backends.cpu import components as _loops
    from ..backends.suitesparse.containers import adopt

    if strong:
        labels = _loops.strongly_connected_components(G.A)
    else:
        labels = _loops.connected_components(G.A, symmetric=G._given_kind == "undirected")
    # the labels as a Vector of the graph's backend (SuiteSparse, which _jit.enabled() implies)
    return adopt(Vector._from_bitmap("int64", np.ones(G.n, dtype=bool), labels, G.n))


def _scc_device(G, seed):
    """Max-signature propagation in one persistent kernel (semiring.backends.gpu.scc)."""
    import cupy as cp

    from ..backends.gpu import scc as _gpu

    label, _ = _gpu.strongly_connected(G.A, seed)
    n = G.n
    return Vector._from_bitmap("int64", cp.ones(n, dtype=bool), label, n)


@on_graph_backend
def strongly_connected_components(A, *, seed=0):
    """Strongly connected components, each labelled by its smallest vertex.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        ``A[i, j]`` present means an edge i -> j; values (and explicit zeros) are ignored.
        A symmetric A gives its connected components.
    seed : int, default 0
        Seed of the random vertex keys (the coloring phase of the NumPy CPU backend, the
        signatures on the GPU); the result does not depend on it.

    Returns
    -------
    Vector of int64, size n
        Every vertex present; ``c[v]`` is the smallest vertex index of the component of v
        (the vertices u with a path v -> u and a path u -> v).

    Raises
    ------
    InvalidValue
        A is not a Matrix or Graph, seed is not an integer, or n >= 2**32 (the coloring keys
        hold vertex ids in 32 bits).
    DimensionMismatch
        A is not square.

    Notes
    -----
    With the NumPy CPU backend, Multistep (Slota, Rajamanickam, Madduri 2014): one trimming
    pass, the component of the vertex of largest in-degree x out-degree by a backward search and
    a forward search inside it, then coloring rounds. Each level of a search or step of a
    coloring round is one product, so the cost follows the depth of the graph: on cnr-2000 about
    370 products in sequence (86 search levels, then 6 coloring rounds of 194 forward and 91
    backward steps in all), each a push from the vertices that changed.

    On the GPU a directed graph (fewer than 2**31 vertices) runs in one persistent kernel
    with a single device-to-host read: ECL-SCC's max-signature propagation (Alabandi et al.
    2023, after Orzan 2004 and Barnat et al. 2011). Every remaining vertex keeps an
    in-signature (the largest key that reaches it) and an out-signature (the largest key it
    reaches), propagated over the remaining arcs to a fixed point in place with pointer
    jumping; a vertex whose signatures agree belongs to the component of the vertex they name
    (that component's largest key, so each round places at least one component); arcs whose
    ends differ in either signature are dropped and the rest starts again. Keys are
    ``priorities(n, seed)``. A final minimum per component gives the same labels as the CPU
    path. cnr-2000 takes 6 rounds.

    With the SuiteSparse CPU backend (and numba, which it brings), one compiled depth-first
    search (:mod:`semiring.backends.cpu.components`): Tarjan's algorithm (1972) in Pearce's
    space-efficient form (2016, ``PEA_FIND_SCC2``), with an explicit stack so that a path of
    any length runs without recursion, then a pass that labels each component by its smallest
    vertex: O(n + nnz) time, four int64 arrays and one bool array of n. The seed is not used.

    An undirected graph (a symmetric A) takes :func:`connected_components` on every device.

    References
    ----------
    Slota, Rajamanickam, Madduri, "BFS and coloring-based parallel algorithms for strongly
    connected components and related problems", IPDPS 2014. Orzan, PhD thesis, 2004.
    McLendon et al., J. Parallel Distrib. Comput. 65, 2005. Fleischer, Hendrickson, Pinar,
    IPDPS Workshops 2000. Barnat, Bauch, Brim, Ceska, "Computing strongly connected components
    in parallel on CUDA", IPDPS 2011. Alabandi, Sands, Biros, Burtscher, "A GPU algorithm for
    detecting strongly connected components", SC 2023 (ECL-SCC). Tarjan, "Depth-first search
    and linear graph algorithms", SIAM J. Comput. 1(2), 1972. Pearce, "A space-efficient
    algorithm for finding strongly connected components", Inf. Process. Lett. 116(1), 2016.

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 1, 1, 2, 3], [1, 0, 2, 3, 2], nrows=5, ncols=5)
    >>> sr.algorithms.strongly_connected_components(A).to_dense().tolist()
    [0, 0, 2, 2, 4]
    """
    G = as_graph(A, "strongly_connected_components")
    n, device = G.n, G.A.device
    _checks.integer(seed, "strongly_connected_components", "seed")
    if n >= 2**32:
        raise InvalidValue(f"strongly_connected_components: at most 2**32 - 1 vertices; given {n}")
    if n == 0:
        return Vector(0, "int64", device=device)
    if G.kind == "undirected":
        return connected_components(G)
    if device == "gpu" and n <= GPU_MAX_VERTICES:
        return _scc_device(G, seed)
    if device == "cpu" and _jit.enabled():
        return _compiled(G, strong=True)
    return _multistep(G, seed)


__all__ = ["connected_components", "strongly_connected_components"]
