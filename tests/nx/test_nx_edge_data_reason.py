"""The edge-data check of results that carry G's attributes (``semiring.nx.nxapi.tree._attribute_kinds``)
is kept in networkx's cache of G: asked again, the same answer without a pass over the edges; after
a change through G's methods (which clears networkx's cache), the new edge data decide."""

from __future__ import annotations

import networkx as nx

from semiring.nx.nxapi import tree


def test_edge_data_reason_is_cached_until_the_graph_changes(monkeypatch):
    G = nx.path_graph(6)
    for u, v in G.edges():
        G[u][v]["weight"] = u + 1
    assert tree._attribute_kinds(G) is None
    passes = []
    original = tree._edge_data_reason
    monkeypatch.setattr(tree, "_edge_data_reason", lambda H: passes.append(H) or original(H))
    assert tree._attribute_kinds(G) is None
    assert passes == []  # answered from the cache
    G.add_edge(5, 6, weight="heavy")  # clears networkx's cache
    assert "holds str values" in tree._attribute_kinds(G)
    assert len(passes) == 1
    G.remove_edge(5, 6)
    G.add_edge(5, 6, weight=2.5)
    assert "mixes ints and floats" in tree._attribute_kinds(G)


def test_edge_data_reasons():
    G = nx.Graph()
    G.add_edge(0, 1, weight=1)
    G.add_edge(1, 2, cost=1)
    assert "different attribute names" in tree._attribute_kinds(G)
    H = nx.Graph()
    H.add_edge(0, 1, **{"weight": True})
    assert "holds bool values" in tree._attribute_kinds(H)
    K = nx.Graph()
    K.add_edge(0, 1)
    K[0][1][7] = 1.0
    assert "is not named by a str" in tree._attribute_kinds(K)
