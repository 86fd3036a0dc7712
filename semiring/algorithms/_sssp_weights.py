"""The weights of single-source shortest paths: the checked weight matrix of a graph and the
measures the searches read (:class:`SSSPWeights`, kept on a Graph as
:attr:`~semiring.algorithms.graph.Graph.sssp_weights`)."""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..exceptions import DomainMismatch, InvalidValue
from ..ops import indexunary, monoid, unary

_FMAX = float(np.finfo(np.float64).max)


def _weights(G):
    """The weight matrix: integer weights as int64, floats as float64, bool as int64 ones.
    InvalidValue for NaN or -inf weights, DomainMismatch where int64 distances could overflow."""
    A = G.A
    if A.dtype.kind == "b":
        # W = one(A) as int64: an unweighted graph has unit weights
        return _core.apply(A, unary.one).dup("int64")
    if A.dtype.kind in "iu":
        W = A if A.dtype == np.int64 else A.dup("int64")
        if A.nvals:
            top = max(abs(int(_core.reduce_scalar(A, monoid.max))), abs(int(_core.reduce_scalar(A, monoid.min))))
            if top * max(G.n - 1, 1) >= 2**63:
                raise DomainMismatch(
                    f"sssp: integer weights up to {top} over paths of up to {G.n - 1} edges can overflow the "
                    "int64 distances; give float64 weights (A.dup('float64'))")
        return W
    W = A if A.dtype == np.float64 else A.dup("float64")
    vals = W.to_coo()[2]
    nan = int(np.isnan(vals).sum())
    if nan:
        raise InvalidValue(f"sssp: edge weights must be numbers; given {nan} NaN weights")
    neg_inf = int((vals == -np.inf).sum())
    if neg_inf:
        raise InvalidValue(f"sssp: edge weights must be finite or +inf (no path); given {neg_inf} weights of -inf")
    return W


def _min_weight(W):
    return _core.reduce_scalar(W, monoid.min) if W.nvals else 0


class SSSPWeights:
    """A graph's SSSP weights, checked and measured (:attr:`Graph.sssp_weights` keeps one per
    graph content).

    Parameters
    ----------
    G : Graph
        Its matrix A holds the edge lengths (bool: unit lengths).

    Attributes
    ----------
    W : Matrix, shape (n, n)
        The weights: integer and bool (ones) as int64, floats as float64.
    Wf : Matrix, shape (n, n)
        W without its +inf entries (W itself when there are none).
    wmin : int or float
        The smallest finite weight (0 without edges).
    top : int or float
        The largest finite absolute weight (0 without edges).
    unbounded : bool
        Whether some vertex can get distance +inf: +inf weights, or float sums that can overflow.
    negative : bool
        Whether some finite weight is negative.

    Raises
    ------
    InvalidValue
        NaN or -inf weights.
    DomainMismatch
        Integer weights whose distances could overflow int64.
    """

    def __init__(self, G):
        W = _weights(G)
        Wf, infinite = W, 0
        if W.dtype.kind == "f" and W.nvals:
            # Wf = select(W, w < inf)
            Wf = _core.select(W, indexunary.valuelt, np.inf)
            infinite = W.nvals - Wf.nvals
            if not infinite:
                Wf = W
        self.W, self.Wf = W, Wf
        self.wmin = _min_weight(Wf)
        if Wf.nvals:
            top = max(abs(_core.reduce_scalar(Wf, monoid.max)), abs(_core.reduce_scalar(Wf, monoid.min)))
        else:
            top = 0
        self.top = int(top) if W.dtype.kind == "i" else float(top)
        self.unbounded = bool(infinite) or (W.dtype.kind == "f" and self.top * max(G.n - 1, 1) >= _FMAX)
        self.negative = Wf.nvals > 0 and self.wmin < 0


__all__ = ["SSSPWeights"]
