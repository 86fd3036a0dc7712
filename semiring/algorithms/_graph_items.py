"""The per-algorithm items of a :class:`~semiring.algorithms.graph.Graph`: what one algorithm
derives from the graph and reads again on its next call (checked weights, light/heavy splits,
presorted patterns, device-side start data), one named accessor each.

Each accessor builds its item with a function of the algorithm's own module (imported when
first needed: those modules import the graph module) and keeps it through ``Graph._once``: for
A's current content, built once under the graph's lock, published whole. An accessor that
checks the graph takes ``what``, the public function named in its error messages; a refused
graph stores nothing, so every call raises again.
"""

from __future__ import annotations

from .. import core as _core
from ..ops import indexunary


class AlgorithmItems:
    """The per-algorithm accessors of :class:`~semiring.algorithms.graph.Graph` (a base class
    of it; every method reads ``self.A`` and stores through ``self._once``)."""

    # -- single-source shortest paths (semiring.algorithms.sssp) ---------------------------
    @property
    def sssp_weights(self):
        """The SSSP weights of A, checked: a :class:`semiring.algorithms._sssp_weights.SSSPWeights`
        (``W``, the finite part ``Wf``, ``wmin``, ``top``, ``unbounded``, ``negative``).

        Raises
        ------
        InvalidValue
            NaN or -inf weights.
        DomainMismatch
            Integer weights whose distances could overflow int64.
        """
        from ._sssp_weights import SSSPWeights

        return self._once("sssp_weights", lambda: SSSPWeights(self))

    @property
    def sssp_delta(self):
        """The default bucket width of delta-stepping (:func:`semiring.algorithms.sssp.auto_delta`
        of the finite weights)."""
        from .sssp import auto_delta

        return self._once("sssp_delta", lambda: auto_delta(self.sssp_weights.Wf, self))

    def sssp_split(self, delta):
        """``(AL, AH)``: the light (w <= delta) and heavy (w > delta) entries of the finite SSSP
        weights ``sssp_weights.Wf``, as Matrices of its dtype (the algebra delta-stepping's
        operands)."""
        def build():
            W = self.sssp_weights.Wf
            # AL = select(W, w <= delta);  AH = select(W, w > delta)
            return _core.select(W, indexunary.valuele, delta), _core.select(W, indexunary.valuegt, delta)

        return self._once("sssp_split", build, delta)

    def sssp_split_arrays(self, delta):
        """The light and heavy parts of the finite SSSP weights as host CSR arrays, each
        ``(indptr, indices, weights)`` (:func:`semiring.backends.cpu.paths.split`)."""
        def build():
            from ..backends.cpu import paths

            W = self.sssp_weights.Wf
            return paths.split(W._indptr, W._indices, W._values, delta)

        return self._once("sssp_split_arrays", build, delta)

    def sssp_partition(self, delta):
        """The finite SSSP weights' CSR with each row's light edges (w <= delta) first, as the
        compiled delta-stepping reads it (:func:`semiring.backends.cpu.compiled_paths.partition`)."""
        def build():
            from ..backends.cpu import compiled_paths

            W = self.sssp_weights.Wf
            return compiled_paths.partition(W._indptr, W._indices, W._values, delta)

        return self._once("sssp_partition", build, delta)

    @property
    def sssp_floor(self):
        """The distance below which the SSSP strategies report a negative cycle: an int for
        integer weights, None for floats (:func:`semiring.algorithms._sssp_engines.distance_floor`).

        Raises
        ------
        DomainMismatch
            A candidate distance could overflow int64.
        """
        from ._sssp_engines import distance_floor

        return self._once("sssp_floor", lambda: distance_floor(self, self.sssp_weights.Wf))

    @property
    def sssp_edge_rows(self):
        """The row of every entry of the finite SSSP weights, a device array of their index
        dtype (the ``topology`` GPU strategy's COO rows)."""
        def build():
            from ..backends.gpu import sssp_strategies

            return sssp_strategies.row_ids(self.sssp_weights.Wf)

        return self._once("sssp_edge_rows", build)

    # -- all-pairs shortest paths (semiring.algorithms.apsp) -------------------------------
    def apsp_weights(self, what):
        """The all-pairs weight Matrix: int64 for integer and bool (unit) weights, float64 for
        floats; checked (:func:`semiring.algorithms.apsp.checked_weights`).

        Raises
        ------
        InvalidValue
            NaN weights.
        DomainMismatch
            A dtype that is not bool, integer or float; integer distances that could overflow.
        """
        from .apsp import checked_weights

        return self._once("apsp_weights", lambda: checked_weights(self, what))

    def apsp_searches(self, what):
        """The kernels and row chunks of batched Bellman-Ford on the GPU over
        :meth:`apsp_weights` (a :class:`semiring.backends.gpu.multi_source.Searches`)."""
        def build():
            from ..backends.gpu import multi_source

            return multi_source.Searches(self.apsp_weights(what))

        return self._once("apsp_searches", build)

    # -- PageRank (semiring.algorithms.pagerank) -------------------------------------------
    def pagerank_links(self, weighted, what):
        """``(W', d, sink)``: the transposed link matrix, the out-degree (``weighted`` False) or
        out-weight of every vertex that has a positive one (float64 Vector, absent at the
        dangling vertices) and the dangling vertices (bool Vector)
        (:func:`semiring.algorithms.pagerank.links`).

        Raises
        ------
        InvalidValue
            ``weighted`` and weights that are not finite and >= 0, or not numbers.
        """
        from .pagerank import links

        weighted = bool(weighted)
        return self._once("pagerank_links", lambda: links(self, weighted, what), weighted)

    # -- triangles (semiring.algorithms.triangles) -----------------------------------------
    @property
    def triangle_presort_skewed(self):
        """bool: whether the degrees of ``offdiag_pattern("int64")`` are skewed enough for the
        "auto" presort (:func:`semiring.algorithms.triangles.skewed`)."""
        from .triangles import skewed

        return self._once("triangle_presort_skewed", lambda: skewed(self.offdiag_pattern("int64")))

    def triangle_presorted(self, order):
        """``(S, perm)``: ``offdiag_pattern("int64")`` with its vertices relabelled by degree,
        ``order`` "ascending" or "descending" (vertex ``perm[i]`` becomes i; host int64 perm)."""
        from .triangles import presorted

        return self._once("triangle_presorted", lambda: presorted(self.offdiag_pattern("int64"), order), order)

    def triangle_part(self, part, order):
        """tril(P, -1) (``part`` "lower") or triu(P, 1) ("upper") of the triangle pattern P:
        ``offdiag_pattern("int64")``, or with ``order`` its :meth:`triangle_presorted` form."""
        def build():
            P = self.offdiag_pattern("int64") if order is None else self.triangle_presorted(order)[0]
            # T = tril(P, -1) or triu(P, 1)
            return _core.select(P, indexunary.tril, -1) if part == "lower" else _core.select(P, indexunary.triu, 1)

        return self._once("triangle_part", build, (part, order))

    # -- Louvain and modularity (semiring.algorithms.community) ----------------------------
    def community_weights(self, what):
        """Modularity's weights of an undirected graph: ``W = A + diag(A)`` as float64 with its
        degrees, self weights and total (``semiring.algorithms.community._Weights``).

        Raises
        ------
        InvalidValue
            A directed graph; NaN, infinite or negative weights.
        DomainMismatch
            Weights that are not real numbers.
        """
        from .community import _build_weights

        return self._once("community_weights", lambda: _build_weights(self, what))

    def louvain_start(self, what):
        """The GPU Louvain's level 0 over :meth:`community_weights`: the weights in fixed point,
        copied as many times as the ensemble runs (:func:`semiring.backends.gpu.louvain.prepare`)."""
        def build():
            from ..backends.gpu import louvain

            weights = self.community_weights(what)
            return louvain.prepare(weights.W, weights.two_m)

        return self._once("louvain_start", build)

    # -- partitioning (semiring.algorithms.partition) --------------------------------------
    def partition_weights(self, what):
        """``offdiag(A)`` as float64, its weights checked (bool, integer or float; no NaN; >= 0).

        Raises
        ------
        InvalidValue
            NaN or negative weights.
        DomainMismatch
            Weights that are not bool, integer or float.
        """
        from .partition import _build_weights

        return self._once("partition_weights", lambda: _build_weights(self, what))

    def partition_weight_summary(self, what="partition"):
        """``(uniform, total)`` of :meth:`partition_weights`: whether every edge weighs the same,
        and the sum of the weights (read from the device once). ``what`` names the caller in
        the errors of :meth:`partition_weights`, when they are not built yet."""
        from .partition import _weight_summary

        return self._once("partition_weight_summary", lambda: _weight_summary(self.partition_weights(what)))


__all__ = ["AlgorithmItems"]
