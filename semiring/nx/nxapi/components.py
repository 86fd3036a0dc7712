"""networkx's component API on the engine's component labels (each vertex labelled with the
smallest vertex index of its component): ``semiring.algorithms.connected_components`` (weak
components: a directed graph taken as A + A^T) and ``strongly_connected_components``.

networkx yields (weakly) connected components in the order of their first node, which is the
order of the labels. The strongly connected components themselves are not adapted: networkx
yields them in the order its search closes them, which the labels do not give; their count and
``is_strongly_connected`` do not depend on it.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ... import algorithms as _alg
from ...backends._xp import asnumpy


def labels(G, strong=False):
    """Host int64 array: the smallest node index of each node's (weak, or strong) component."""
    find = _alg.strongly_connected_components if strong else _alg.connected_components
    return asnumpy(find(G.structure).to_dense()).astype(np.int64, copy=False)


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
    return _count(G)


def is_connected(G):
    """networkx.is_connected. Raises networkx.NetworkXPointlessConcept for the null graph."""
    return _connected(G)


def _count(G, strong=False):
    if not len(G):
        return 0
    lab = labels(G, strong)
    return int(np.count_nonzero(lab == np.arange(lab.shape[0])))  # one root per component


def _connected(G, strong=False):
    if not len(G):
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return bool(np.all(labels(G, strong) == 0))


def weakly_connected_components(G):
    """networkx.weakly_connected_components (directed graphs): node sets in the order of their first node."""
    return connected_components(G)


def number_weakly_connected_components(G):
    """networkx.number_weakly_connected_components."""
    return _count(G)


def is_weakly_connected(G):
    """networkx.is_weakly_connected. Raises networkx.NetworkXPointlessConcept for the null graph."""
    return _connected(G)


def number_strongly_connected_components(G):
    """networkx.number_strongly_connected_components."""
    return _count(G, strong=True)


def is_strongly_connected(G):
    """networkx.is_strongly_connected. Raises networkx.NetworkXPointlessConcept for the null graph."""
    return _connected(G, strong=True)


__all__ = ["connected_components", "number_connected_components", "is_connected", "weakly_connected_components",
           "number_weakly_connected_components", "is_weakly_connected", "number_strongly_connected_components",
           "is_strongly_connected"]
