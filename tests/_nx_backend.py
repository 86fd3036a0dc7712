"""Graphs of the networkx backend tests (tests/nx/test_nx_backend_*.py): undirected and directed
graphs whose node labels are strings inserted in a shuffled order (so label mapping and
adjacency order are exercised). Importing it sets the networkx config those tests share."""

from __future__ import annotations

import networkx as nx

from _nxgraphs import gnp

nx.config.warnings_to_ignore.add("cache")  # networkx's note that a converted graph came from its cache

UNDIRECTED = [gnp(40, 0.08, s) for s in range(3)] + [gnp(25, 0.02, 7)]  # the last has isolated nodes
DIRECTED = [gnp(40, 0.06, s, directed=True) for s in range(3)]
