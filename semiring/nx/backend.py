"""The ``semiring`` networkx backend: the object networkx's dispatcher loads.

networkx (>= 3.4) finds it through the ``networkx.backends`` entry point and calls, for a function
it dispatches, ``can_run(name, args, kwargs)`` and ``should_run(...)``, then converts networkx
graphs with ``convert_from_nx`` and calls the adapter of the same name; ``convert_to_nx`` turns
results back (graphs; other results pass through). ``on_start_tests`` marks the networkx tests
whose answers differ for a genuine reason when networkx's own suite runs with
``NETWORKX_TEST_BACKEND=semiring``.

Use
---
>>> import networkx as nx
>>> nx.single_source_shortest_path_length(nx.path_graph(4), 0, backend="semiring")
{0: 0, 1: 1, 2: 2, 3: 3}

References
----------
networkx backend guide: https://networkx.org/documentation/stable/backends.html
(``networkx/utils/backends.py``: ``_dispatchable``, ``_convert_and_call_for_tests``).
"""

from __future__ import annotations

import inspect

import networkx as nx

from . import _record, nxapi
from .graph import Graph, from_networkx, to_networkx

#: dispatch name -> adapter (networkx's exact signature; returns plain Python values).
FUNCTIONS = {name: getattr(nxapi, name) for name in nxapi.__all__}

#: why networkx's tests of exact Louvain partitions fail on the engine
_LOUVAIN_PARTITION = ("the engine's Louvain moves vertices in parallel rounds and draws another random stream: "
                      "for the same seed its partition differs from networkx's sequential sweep (its modularity "
                      "is tested instead)")

#: networkx tests whose expected answer differs for a genuine reason, with that reason. Keys are
#: pytest node ids relative to the networkx package; ``on_start_tests`` marks them xfail (strict).
XFAIL_TESTS = {
    "algorithms/tests/test_mis.py::test_random_seed":
        "a different random stream: Luby's algorithm on the engine draws another valid maximal independent set "
        "for the same seed",
    "algorithms/community/tests/test_louvain.py::test_karate_club_partition":
        _LOUVAIN_PARTITION,
    "algorithms/community/tests/test_louvain.py::test_undirected_selfloops":
        _LOUVAIN_PARTITION,
    "algorithms/community/tests/test_louvain.py::test_none_weight_param":
        _LOUVAIN_PARTITION,
    "algorithms/community/tests/test_louvain.py::test_multigraph":
        _LOUVAIN_PARTITION + " (the engine's partition of a Graph against networkx's of the declined MultiGraph)",
    "algorithms/community/tests/test_louvain.py::test_max_level":
        _LOUVAIN_PARTITION + " (against the levels of networkx's own louvain_partitions)",
    # structure
    "algorithms/tests/test_dag.py::TestDAG::test_topological_sort6":
        "the backend sorts the graph as converted when the iteration starts: it cannot see G change during the "
        "iteration (networkx raises RuntimeError or NetworkXUnfeasible there)",
}

#: should_run sends networkx graphs with fewer edges than this back to networkx (see should_run).
SHOULD_RUN_MIN_EDGES = 10_000

_RECORDER = _record.from_environment()


def _signature(name):
    return inspect.signature(FUNCTIONS[name])


class BackendInterface:
    """networkx's entry point object for the ``semiring`` backend (see the module docstring)."""

    @staticmethod
    def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                        preserve_node_attrs=False, preserve_graph_attrs=False, name=None, graph_name=None):
        """A :class:`semiring.nx.Graph` for networkx graph G.

        ``edge_attrs`` ({attribute: default}) become weight matrices; ``preserve_edge_attrs=True``
        keeps every numeric attribute. ``node_attrs`` ({attribute: default}) are held as
        ``H.node_attrs[attribute] = {node: value}`` (nodes without it are left out when the
        default is None). A multigraph's ``H.parallel_edges`` says whether it had any. The matrices go
        to ``nx.config.backends.semiring.device``.
        """
        if isinstance(G, Graph):
            return G
        attrs = dict(edge_attrs or {})
        H = from_networkx(G, weights=list(attrs), defaults={k: (1 if v is None else v) for k, v in attrs.items()},
                          preserve_all=preserve_edge_attrs is True, reuse=_cached_conversion(G))
        if G.is_multigraph():
            # whether answers that count parallel edges may run on the collapsed graph
            H.parallel_edges = any(len(keys) > 1 for nbrs in G._adj.values() for keys in nbrs.values())
        if node_attrs:
            H.node_attrs = {a: ({n: d[a] for n, d in G._node.items() if a in d} if default is None
                                else {n: d.get(a, default) for n, d in G._node.items()})
                            for a, default in node_attrs.items()}
        return H

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        """A networkx graph for a :class:`semiring.nx.Graph`; any other result unchanged."""
        if isinstance(obj, Graph):
            return to_networkx(obj)
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        """True, or the reason (a string) the backend declines this call (networkx then falls back).

        Called by networkx for a call that names the backend (``backend="semiring"``), where
        networkx would raise its own "not implemented ... for the given arguments" without the
        reason, it raises that NotImplementedError itself with the reason in the message.
        """
        _hide_cache_warning()
        reason = _why_not(name, args, kwargs)
        if reason is None:
            return True
        if _RECORDER is not None:
            _RECORDER.refused(name, reason)
        if _named_by_the_call():
            raise NotImplementedError(
                f"'{name}' is not implemented by 'semiring' backend for the given arguments, because: {reason}. "
                "No other backends will be attempted, because the backend was specified with the "
                "`backend='semiring'` keyword argument.")
        return reason

    @staticmethod
    def should_run(name, args, kwargs):
        """True, or why networkx itself is the better choice for this call.

        networkx asks only when it would convert a networkx graph automatically (the backend in
        ``nx.config.backend_priority``); ``backend="semiring"`` always runs. A graph with fewer
        than :data:`SHOULD_RUN_MIN_EDGES` edges stays with networkx: there the engine's fixed cost
        per call (about 15-20 ms for a BFS or components on the CPU, against under 2 ms for
        networkx on 1,000 nodes and 4,000 edges) outweighs its per-edge speed.
        """
        G = next(iter(args), kwargs.get("G"))
        if isinstance(G, nx.Graph) and G.number_of_edges() < SHOULD_RUN_MIN_EDGES:
            return (f"the graph has {G.number_of_edges()} edges (< {SHOULD_RUN_MIN_EDGES}): networkx is "
                    "faster than converting it and calling the engine")
        return True

    @staticmethod
    def on_start_tests(items):
        """Mark the networkx tests listed in :data:`XFAIL_TESTS` as strict expected failures."""
        import pytest

        for item in items:
            if _networkx_test_id(item) in XFAIL_TESTS:
                item.add_marker(pytest.mark.xfail(reason=XFAIL_TESTS[_networkx_test_id(item)], strict=True))


def _networkx_test_id(item):
    """``<path relative to the networkx package>::<test>`` of a pytest item (independent of rootdir)."""
    from pathlib import Path

    path = Path(str(getattr(item, "path", None) or item.fspath)).resolve()
    try:
        rel = path.relative_to(Path(nx.__file__).resolve().parent).as_posix()
    except ValueError:
        return None
    return f"{rel}::{item.nodeid.split('::', 1)[1]}" if "::" in item.nodeid else rel


def _hide_cache_warning():
    """Keep networkx's cache warning for this backend hidden unless the config shows it: the filter
    is added when networkx loads the backend's config, and again here, before networkx looks in its
    cache, where a ``warnings.catch_warnings`` block (pytest wraps each test and its collection in
    one) has dropped it since."""
    import _nx_semiring

    if not nx.config.backends.semiring.cache_warning:
        _nx_semiring.show_cache_warning(False)


def _named_by_the_call():
    """Whether networkx's dispatcher is asking for a call that named this backend with ``backend=``
    (it then raises, without the reason, when the backend declines). Found on the dispatcher's own
    frame (``_dispatchable._call_if_any_backends_installed``, whose ``backend`` argument holds the
    keyword); False when can_run is called any other way."""
    import sys

    target = getattr(getattr(nx.utils.backends, "_dispatchable", None), "_call_if_any_backends_installed", None)
    code = getattr(target, "__code__", None)
    frame = sys._getframe(2)
    for _ in range(4):
        if frame is None:
            return False
        if frame.f_code is code:
            return frame.f_locals.get("backend") == "semiring"
        frame = frame.f_back
    return False


def _cached_conversion(G):
    """A semiring conversion of networkx graph G that networkx's cache (``G.__networkx_cache__``)
    holds, or None. networkx clears that cache whenever G changes through its methods, so a graph
    found there has G's nodes and edges: a conversion with other attributes can share them."""
    cache = getattr(G, "__networkx_cache__", None)
    if not isinstance(cache, dict):
        return None
    found = cache.get("backends", {}).get("semiring", {})
    graphs = [g for g in list(found.values()) if isinstance(g, Graph)] if isinstance(found, dict) else []
    return max(graphs, key=lambda g: len(g.weights), default=None)


def _why_not(name, args, kwargs):
    if name not in FUNCTIONS:
        return f"{name} is not implemented by the semiring backend"
    try:
        bound = _signature(name).bind(*args, **kwargs)
    except TypeError as exc:
        return f"the arguments do not fit networkx's signature ({exc}); networkx raises the error"
    dispatcher = nx.utils.backends._registered_algorithms.get(name)
    if dispatcher is None or dispatcher.graphs:  # a function of a graph (generators take none)
        first, G = next(iter(bound.arguments.items()))
        if first in _list_graphs(name):  # compose_all(graphs), union_all(graphs, ...)
            if not isinstance(G, (list, tuple)) or not all(isinstance(g, (nx.Graph, Graph)) for g in G):
                return f"expected a list or tuple of networkx graphs; given {type(G).__name__}"
        elif not isinstance(G, (nx.Graph, Graph)):
            return f"expected a networkx graph or a semiring.nx.Graph; given {type(G).__name__}"
    check = getattr(FUNCTIONS[name], "can_run", None)
    return None if check is None else check(**bound.arguments)


def _list_graphs(name):
    """The parameters of networkx's function ``name`` that take a list of graphs."""
    dispatchable = nx.utils.backends._registered_algorithms.get(name)
    return getattr(dispatchable, "list_graphs", ()) or ()


for _name, _func in FUNCTIONS.items():
    setattr(BackendInterface, _name, staticmethod(_func if _RECORDER is None else _RECORDER.wrap(_name, _func)))


__all__ = ["BackendInterface", "FUNCTIONS", "XFAIL_TESTS", "SHOULD_RUN_MIN_EDGES"]
