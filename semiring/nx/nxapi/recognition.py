"""networkx's tree recognition (``is_tree``, ``is_forest``, ``is_arborescence``,
``is_branching``) on the engine's component labels and degrees.

A graph is a forest iff it has n - c edges (c its components, weak ones for a directed graph):
each component has at least as many edges as nodes less one, with equality iff it is a tree. A
tree is a forest with one component; an arborescence (a branching) is a tree (a forest) whose
in-degrees are at most 1. Multigraphs with parallel edges decline: networkx counts each
parallel edge, the backend graph one edge per node pair.
"""

from __future__ import annotations

import networkx as nx

from ...backends._xp import asnumpy
from ._common import checked_by
from ._graphs import parallel_reason
from .components import _count


def _reason(G):
    return parallel_reason(G)


def _nonempty(G):
    if not len(G):
        raise nx.NetworkXPointlessConcept("G has no nodes.")


def _in_degree_at_most_one(G):
    # d = reduce_columnwise(one(A), plus)   (the engine's cached in-degrees)
    d = asnumpy(G.structure.in_degree.to_coo()[1])
    return bool((d <= 1).all())


@checked_by(_reason)
def is_tree(G):
    """networkx.is_tree: n - 1 edges and (weakly) connected.

    Raises networkx.NetworkXPointlessConcept for the null graph.
    """
    _nonempty(G)
    return len(G) - 1 == G.number_of_edges() and _count(G) == 1


@checked_by(_reason)
def is_forest(G):
    """networkx.is_forest: every (weak) component is a tree.

    Raises networkx.NetworkXPointlessConcept for the null graph.
    """
    _nonempty(G)
    return G.number_of_edges() == len(G) - _count(G)


@checked_by(_reason)
def is_arborescence(G):
    """networkx.is_arborescence: a directed tree with in-degrees at most 1."""
    return is_tree(G) and _in_degree_at_most_one(G)


@checked_by(_reason)
def is_branching(G):
    """networkx.is_branching: a directed forest with in-degrees at most 1."""
    return is_forest(G) and _in_degree_at_most_one(G)


__all__ = ["is_tree", "is_forest", "is_arborescence", "is_branching"]
