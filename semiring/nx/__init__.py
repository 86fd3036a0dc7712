"""The networkx dispatch backend ``semiring``: networkx's API on the semiring engine.

>>> import networkx as nx
>>> G = nx.karate_club_graph()
>>> nx.number_connected_components(G, backend="semiring")
1

Graphs convert once per call (or are cached by networkx on the input graph) to a
:class:`Graph` holding the adjacency as ``semiring.Matrix`` objects on
``nx.config.backends.semiring.device`` ("cpu" by default, "gpu", or "auto"; the
``SEMIRING_NX_DEVICE`` environment variable sets it at startup). Calls the backend cannot answer
faithfully (a callable weight, a coloring strategy the engine lacks, ...) are declined by
``can_run`` with a reason, and networkx runs them itself where ``nx.config.fallback_to_nx`` is
set (or where the backend is only in ``nx.config.backend_priority``).

Layout (as graphblas-algorithms): ``algorithms/`` holds engine-level pieces, ``nxapi/`` the
adapters with networkx's signatures and return types, ``backend.py`` the dispatcher's interface,
``graph.py`` the graph type; the backend's info (``_nx_semiring``) lives outside this package so
that ``import networkx`` does not import the engine.
"""

from .graph import Graph, from_networkx, to_networkx

__all__ = ["Graph", "from_networkx", "to_networkx"]
