"""What the networkx adapters share: the can_run checks and engine results as Python values."""

from __future__ import annotations

import math

import numpy as np

from ...backends._xp import asnumpy


def checked_by(check):
    """Attach ``check`` to an adapter: ``check(**arguments)`` returns None when the backend can
    run the call faithfully, else the reason it declines (``BackendInterface.can_run`` uses it)."""

    def attach(func):
        func.can_run = check
        return func

    return attach


def weight_reason(weight):
    """Why a ``weight`` argument is declined, or None."""
    if callable(weight):
        return "a callable weight is evaluated per edge in Python; the backend holds attribute values only"
    if weight is not None and not isinstance(weight, str):
        # networkx's edge-data views read weight=True as "the whole attribute dict"
        return f"weight must name an edge attribute (a str); given {weight!r}"
    return None


def depth_of(cutoff):
    """networkx's ``while cutoff > level`` as a level count: ceil(cutoff), at least 0; None for
    None or inf."""
    if cutoff is None or cutoff == math.inf:
        return None
    return max(0, math.ceil(cutoff))


def entries(vector):
    """(indices, values) of a Vector as host numpy arrays."""
    idx, vals = vector.to_coo()
    return asnumpy(idx), asnumpy(vals)


def distance_dict(nodes, idx, vals, *, cutoff=None, source=None):
    """``{node: distance}`` sorted by distance (then index), as networkx's searches settle them;
    values as Python numbers; entries beyond ``cutoff`` dropped, except the ``source`` index
    (networkx settles the source before it looks at the cutoff)."""
    if cutoff is not None:
        keep = (vals <= cutoff) | (idx == source)
        idx, vals = idx[keep], vals[keep]
    o = np.lexsort((idx, vals))
    return {nodes[i]: d for i, d in zip(idx[o].tolist(), vals[o].tolist())}


__all__ = ["checked_by", "weight_reason", "depth_of", "entries", "distance_dict"]

