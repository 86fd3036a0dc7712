"""networkx's connected-component API on the engine's component labels
(``semiring.algorithms.connected_components``: each vertex labelled with the smallest vertex
index of its component)."""

from __future__ import annotations

import networkx as nx
import numpy as np

from ... import algorithms as _alg
from ...backends._xp import asnumpy


def labels(G):
    """Host int64 array: the smallest node index of each node's component."""
    return asnumpy(_alg.connected_components(G.structure).to_dense()).astype(np.int64, copy=False)


def _components(G):
    lab = labels(G)
    order = np.argsort(lab, kind="stable")
    cuts = np.flatnonzero(np.diff(lab[order])) + 1
    nodes = G.nodes
    # components in the order of their first node (the label is that node's index), as networkx
    for part in np.split(order, cuts):
        yield {nodes[i] for i in part.tolist()}


def connected_components(G):
    """networkx.connected_components: a generator of node sets, in the order of their first node."""
    if not len(G):
        return iter(())
    return _components(G)


def number_connected_components(G):
    """networkx.number_connected_components."""
    if not len(G):
        return 0
    return int(np.unique(labels(G)).shape[0])


def is_connected(G):
    """networkx.is_connected. Raises networkx.NetworkXPointlessConcept for the null graph."""
    if not len(G):
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return bool(np.all(labels(G) == 0))


__all__ = ["connected_components", "number_connected_components", "is_connected"]
