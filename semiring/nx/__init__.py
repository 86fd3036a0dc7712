"""The networkx dispatch backend ``semiring``: networkx's API on the semiring engine.

>>> import networkx as nx
>>> G = nx.karate_club_graph()
>>> nx.number_connected_components(G, backend="semiring")
1

A networkx graph converts to a :class:`Graph` holding the adjacency as ``semiring.Matrix``
objects on ``nx.config.backends.semiring.device`` ("cpu" by default, "gpu", or "auto"; the
``SEMIRING_NX_DEVICE`` environment variable sets it at startup), read once from networkx's
adjacency dicts (about a second per million edges on two cores; edge attributes only when a
call asks for them). networkx keeps the conversion in the graph's cache
(``G.__networkx_cache__``, cleared by every change made through the graph's methods), so later
calls on the same graph skip it; a conversion with another attribute shares the cached one's
pattern. networkx's warning at each cache hit is hidden for this backend
(``nx.config.backends.semiring.cache_warning = True`` shows it; after changing edge data in
place, ``G[u][v]["weight"] = x``, call ``G.__networkx_cache__.clear()``).

Calls the backend cannot answer faithfully (a callable weight, a coloring strategy the engine
lacks, ...) are declined by ``can_run`` with a reason. With ``backend="semiring"`` the reason is in
the NotImplementedError's message; where the backend is only in ``nx.config.backend_priority``,
networkx runs the call itself and its debug log says why (``logging.basicConfig()`` and
``logging.getLogger("networkx").setLevel(logging.DEBUG)``). The generators (``nx.path_graph(n,
backend="semiring")``, ...) return a :class:`Graph` built from arrays.

Layout (as graphblas-algorithms): ``algorithms/`` holds engine-level pieces, ``nxapi/`` the
adapters with networkx's signatures and return types, ``backend.py`` the dispatcher's interface,
``graph.py`` the graph type; the backend's info (``_nx_semiring``) lives outside this package so
that ``import networkx`` does not import the engine.
"""

from .graph import Graph, from_networkx, to_networkx

__all__ = ["Graph", "from_networkx", "to_networkx"]
