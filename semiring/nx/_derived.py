"""The networkx backend's own derived data of an engine graph: one :class:`Items` per
:class:`semiring.algorithms.Graph` (the pattern, a weight graph, a reversed one), for its
matrix's current content.

What every engine graph derives for any algorithm (patterns, degrees, float64 weights, the
SSSP weights) is an accessor of :class:`semiring.algorithms.Graph`; what only networkx's
answers need lives here, in the named slots of :class:`Items`, each filled by one function of
the module that owns it (listed with the slot). The items follow the graph's rules
(``semiring.algorithms.graph``, ``semiring._once``): built once under the engine graph's
lock, published whole, and a new, empty set after a write of the graph's matrix. The engine
graph does not hold them: a weak table of this module does, so they go with the graph.
"""

from __future__ import annotations

import threading
import weakref

from .._once import lock_of, once_item


class Items:
    """The networkx backend's derived data of one engine graph's content.

    Every slot is a dict, parameter -> item (None for an item without a parameter), only
    added to, each item whole and once (:func:`once`).

    Attributes
    ----------
    offdiag_counts : dict
        None -> host int64 array (n,): neighbours of each node, self-loops left out
        (``semiring.nx.nxapi.cluster``).
    undirected : dict
        None -> the engine Graph of ``A lor A'`` (``semiring.nx.nxapi.bipartite.undirected``).
    degrees : dict
        which ("in", "out", "in+out") -> read-only host array of networkx's degrees
        (``semiring.nx.nxapi._measures.degrees``).
    numpy_float64 : dict
        None -> the float64 operand of the power iterations, held by the NumPy/SciPy backend
        (``semiring.nx.nxapi._measures.host_operator``).
    scaled : dict
        kind ("ra", "aa") -> the offdiag pattern times the diagonal of degree reciprocals
        (``semiring.nx.nxapi.link_prediction``).
    leaf_neighbours : dict
        None -> host array: neighbours of degree 1 of each node (``link_prediction``).
    neighbour_sets : dict
        None -> (neighbour count, has a self-loop) host arrays (``link_prediction``).
    identity : dict
        None -> the n x n int64 identity Matrix on the graph's device (``link_prediction``).
    ordered_weights : dict
        None -> (indptr, indices, weights) in networkx's neighbour order
        (``semiring.nx.algorithms.paths.adjacency``).
    incidence : dict
        None -> (tails, heads, T, H): the edges and the n x m incidence matrices
        (``semiring.nx.algorithms.brandes``).
    """

    __slots__ = ("offdiag_counts", "undirected", "degrees", "numpy_float64", "scaled", "leaf_neighbours",
                 "neighbour_sets", "identity", "ordered_weights", "incidence")

    def __init__(self):
        for name in self.__slots__:
            setattr(self, name, {})


_table_lock = threading.Lock()
_table = weakref.WeakKeyDictionary()  # engine Graph -> (its matrix's content version, Items)


def items(graph):
    """The :class:`Items` of an engine graph's current content (a new, empty one after each
    write of ``graph.A``); made once when several threads ask."""
    version = graph.A._version
    with _table_lock:
        entry = _table.get(graph)
    if entry is not None and entry[0] == version:
        return entry[1]
    with lock_of(graph):
        version = graph.A._version
        with _table_lock:
            entry = _table.get(graph)
        if entry is not None and entry[0] == version:
            return entry[1]
        value = Items()
        with _table_lock:
            _table[graph] = (version, value)
        return value


def once(graph, slot, build, key=None):
    """Item ``key`` of the slot ``slot`` of ``graph``'s :class:`Items`: ``build()`` on first
    use, under the engine graph's lock, published with one assignment.

    Raises
    ------
    AttributeError
        ``slot`` is not a slot of :class:`Items`.
    """
    return once_item(getattr(items(graph), slot), key, build, lock_of(graph))


__all__ = ["Items", "items", "once"]
