"""networkx's graph generators with ``backend="semiring"``: a :class:`semiring.nx.Graph` built from
NumPy arrays, equal to networkx's graph after ``convert_to_nx`` (nodes in networkx's order with
their attributes, edges with theirs, graph attributes).

Each generator lists its edges as arrays of node positions in the order networkx adds them
(``itertools.combinations`` as ``np.triu_indices``, ``pairwise`` as shifted ranges, ...);
:func:`build` turns that sequence into the adjacency (each node's neighbours in networkx's
iteration order, a repeated pair kept at its first place), the bool pattern and the weight
matrices. The fixed graphs (Zachary's karate club, the small named graphs) are data
(``_generator_data``). The nodes of a graph networkx grows edge by edge (e.g. ``barbell_graph``
with ``m2=1``) come in the order networkx adds them.

Declined (networkx then builds the graph): ``create_using`` other than None, ``nx.Graph`` or
``nx.DiGraph`` (multigraph classes, subclasses, graph instances networkx fills in place), node
containers that are iterators (networkx consumes them once), that repeat a node or hold
unhashable nodes. networkx's errors (negative sizes, directed graphs where it refuses them)
are raised as networkx raises them.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator

import networkx as nx
import numpy as np

from ... import _checks
from ... import _memory
from ...algorithms.graph import Graph as _EngineGraph
from ...io import _networkx as _io
from ..graph import Graph
from ._common import checked_by
from ._generator_data import GRAPHS


# -- the builder ---------------------------------------------------------------------------------
def build(nodes, u, v, *, directed=False, graph=None, node_data=None, weights=None):
    """A :class:`Graph` from the edges ``(u[k], v[k])`` (node positions) in networkx's insertion
    order.

    Parameters
    ----------
    nodes : list
        The nodes in networkx's order.
    u, v : array_like of int, shape (k,)
        Edge ends as positions in ``nodes``, in the order networkx adds the edges. A repeated
        pair keeps its first place (networkx's adjacency order) and its last weight (networkx
        updates the edge's data).
    directed : bool
    graph : dict, optional
        Graph attributes.
    node_data : list of dict, optional
        The attributes of each node.
    weights : dict, optional
        attribute -> array_like of one number per edge.

    Returns
    -------
    Graph
    """
    n = len(nodes)
    u = np.asarray(u, dtype=np.int64).reshape(-1)
    v = np.asarray(v, dtype=np.int64).reshape(-1)
    k = u.shape[0]
    _memory.require(k * 8 * 12, f"semiring networkx generator: {k:,} edges")
    if directed:
        rows, cols, seq = u, v, np.arange(k, dtype=np.int64)
    else:  # u -> v, then v -> u (a self-loop once), as networkx's add_edge fills both dicts
        rows = np.column_stack((u, v)).reshape(-1)
        cols = np.column_stack((v, u)).reshape(-1)
        seq = np.repeat(np.arange(k, dtype=np.int64), 2)
        keep = np.ones(2 * k, dtype=bool)
        keep[1::2] = u != v
        rows, cols, seq = rows[keep], cols[keep], seq[keep]
    key = rows * n + cols
    _, first = np.unique(key, return_index=True)
    _, last = np.unique(key[::-1], return_index=True)
    last = key.shape[0] - 1 - last  # aligned with first: both by sorted key
    o = np.argsort(first, kind="stable")
    first, last = first[o], last[o]  # each distinct entry once, in insertion order
    rows, cols, wseq = rows[first], cols[first], seq[last]
    by_row = np.argsort(rows, kind="stable")
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    order = (indptr, cols[by_row])
    pred_order = None
    if directed:
        by_col = np.argsort(cols, kind="stable")
        pindptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(cols, minlength=n), out=pindptr[1:])
        pred_order = (pindptr, rows[by_col])
    perm, sorted_indices = _io.row_sort(n, *order)
    device = nx.config.backends.semiring.device
    kind = "directed" if directed else "undirected"
    structure = _EngineGraph(_io.csr_matrix(n, indptr, sorted_indices, None, device=device), kind=kind)
    held = {}
    for name, values in (weights or {}).items():
        vals = np.asarray(values)[wseq[by_row]]
        held[name] = _EngineGraph(_io.csr_matrix(n, indptr, sorted_indices, vals[perm], device=device), kind=kind)
    out = Graph(nodes, structure, held, order, pred_order, directed=directed, multigraph=False, graph=graph,
                node_data=node_data)
    out._csr = (indptr, sorted_indices, perm)
    out.edge_attrs_complete = True
    return out


def _from_labels(initial, pairs, **kw):
    """:func:`build` from node labels: ``initial`` nodes first, then each new label of ``pairs``
    (``(a, b)`` in networkx's add order) where it first appears, as networkx's add_edge adds it."""
    index, nodes = {}, []
    for x in initial:
        if x not in index:
            index[x] = len(nodes)
            nodes.append(x)
    us, vs = [], []
    for a, b in pairs:
        for x in (a, b):
            if x not in index:
                index[x] = len(nodes)
                nodes.append(x)
        us.append(index[a])
        vs.append(index[b])
    return build(nodes, us, vs, **kw)


# -- arguments as networkx reads them --------------------------------------------------------------
def _nodes_or_number(n):
    """networkx's ``nodes_or_number``: ``(n, list(range(n)))`` for a number, ``(n, tuple(n))`` for a
    container; NetworkXError for a negative number."""
    try:
        nodes = list(range(n))
    except TypeError:
        return n, tuple(n)
    if n < 0:
        raise nx.NetworkXError(f"Negative number of nodes not valid: {n}")
    return n, nodes


def _nodes_reason(n, name="n"):
    """Why a node-count-or-container argument is declined, or None."""
    if isinstance(n, numbers.Integral):
        return None
    if hasattr(n, "__index__"):
        return None
    if isinstance(n, Iterator) or not hasattr(n, "__len__") or not hasattr(n, "__iter__"):
        return f"{name} must be an int or a container of nodes (networkx consumes iterators once); given {n!r}"[:300]
    try:
        items = list(n)
        if len(set(items)) != len(items):
            return f"{name} repeats a node: networkx's graph then depends on the repeats' places"
    except TypeError:
        return f"{name} holds an unhashable node: networkx raises the error"
    return None


def _create_reason(create_using, directed_ok=True):
    if create_using is None or create_using is nx.Graph or (directed_ok and create_using is nx.DiGraph):
        return None
    if isinstance(create_using, nx.Graph):
        return "create_using is a graph instance: networkx clears and fills that object"
    return (f"create_using={getattr(create_using, '__name__', create_using)!r}: the backend builds nx.Graph and "
            "nx.DiGraph graphs only")[:300]


def _ints_reason(**values):
    """Why the backend declines integer arguments: the first of ``values`` that is not an
    integer (``_checks.integer``'s message), or None."""
    return next(filter(None, (_checks.reason(_checks.integer, x, "", name) for name, x in values.items())), None)


def _directed(create_using):
    return create_using is nx.DiGraph


def _no_directed(create_using):
    if _directed(create_using):
        raise nx.NetworkXError("Directed Graph not supported")


def _pairwise(k, cyclic=False):
    """Positions of networkx's ``pairwise(range(k), cyclic)``."""
    if k == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    a = np.arange(k, dtype=np.int64)
    if cyclic:
        return a, np.roll(a, -1)
    return a[:-1], a[1:]


def _combinations(k, offset=0):
    """Positions of ``itertools.combinations(range(offset, offset + k), 2)``, in its order."""
    _memory.require(k * (k - 1) * 8, f"semiring networkx generator: a clique of {k:,} nodes")
    i, j = np.triu_indices(k, 1)
    return i.astype(np.int64) + offset, j.astype(np.int64) + offset


def _permutations(k):
    """Positions of ``itertools.permutations(range(k), 2)``, in its order."""
    _memory.require(k * (k - 1) * 16, f"semiring networkx generator: a complete digraph of {k:,} nodes")
    i = np.repeat(np.arange(k, dtype=np.int64), k - 1)
    j = np.tile(np.arange(k - 1, dtype=np.int64), k)
    return i, j + (j >= i)


# -- classic ---------------------------------------------------------------------------------------
def _n_reason(n, create_using=None):
    return _nodes_reason(n) or _create_reason(create_using)


def _create_only_reason(create_using=None):
    return _create_reason(create_using)


@checked_by(lambda n=0, create_using=None, default=nx.Graph: _nodes_reason(n) or _create_reason(create_using)
            or (None if default in (nx.Graph, nx.DiGraph) else f"default={default!r}: the backend builds nx.Graph "
                "and nx.DiGraph graphs only"))
def empty_graph(n=0, create_using=None, default=nx.Graph):
    """networkx.empty_graph: the nodes of ``n``, no edges."""
    _, nodes = _nodes_or_number(n)
    directed = _directed(create_using) if create_using is not None else default is nx.DiGraph
    return build(list(nodes), [], [], directed=directed)


@checked_by(_create_only_reason)
def null_graph(create_using=None):
    """networkx.null_graph: no nodes."""
    return build([], [], [], directed=_directed(create_using))


@checked_by(_create_only_reason)
def trivial_graph(create_using=None):
    """networkx.trivial_graph: the node 0."""
    return build([0], [], [], directed=_directed(create_using))


@checked_by(_n_reason)
def complete_graph(n, create_using=None):
    """networkx.complete_graph: every pair of nodes joined (both ways when directed)."""
    _, nodes = _nodes_or_number(n)
    k, directed = len(nodes), _directed(create_using)
    if k < 2:
        return build(list(nodes), [], [], directed=directed)
    u, v = _permutations(k) if directed else _combinations(k)
    return build(list(nodes), u, v, directed=directed)


@checked_by(_n_reason)
def path_graph(n, create_using=None):
    """networkx.path_graph: consecutive nodes joined."""
    _, nodes = _nodes_or_number(n)
    return build(list(nodes), *_pairwise(len(nodes)), directed=_directed(create_using))


@checked_by(_n_reason)
def cycle_graph(n, create_using=None):
    """networkx.cycle_graph: consecutive nodes joined, the last to the first."""
    _, nodes = _nodes_or_number(n)
    return build(list(nodes), *_pairwise(len(nodes), cyclic=True), directed=_directed(create_using))


@checked_by(_n_reason)
def star_graph(n, create_using=None):
    """networkx.star_graph: the first node (for an int n, of n + 1 nodes) joined to every other."""
    n, nodes = _nodes_or_number(n)
    nodes = list(nodes)
    if isinstance(n, numbers.Integral):
        nodes.append(int(n))
    k = len(nodes)
    if k < 2:
        return build(nodes, [], [], directed=_directed(create_using))
    return build(nodes, np.zeros(k - 1, np.int64), np.arange(1, k, dtype=np.int64), directed=_directed(create_using))


@checked_by(_n_reason)
def wheel_graph(n, create_using=None):
    """networkx.wheel_graph: a hub joined to a cycle of the other nodes."""
    _, nodes = _nodes_or_number(n)
    _no_directed(create_using)
    k = len(nodes)
    if k < 2:
        return build(list(nodes), [], [])
    hub_u, hub_v = np.zeros(k - 1, np.int64), np.arange(1, k, dtype=np.int64)
    if k > 2:
        ru, rv = _pairwise(k - 1, cyclic=True)
        hub_u, hub_v = np.concatenate((hub_u, ru + 1)), np.concatenate((hub_v, rv + 1))
    return build(list(nodes), hub_u, hub_v)


def _ladder_edges(n):
    a, b = _pairwise(n)
    r = np.arange(n, dtype=np.int64)
    return np.concatenate((a, a + n, r)), np.concatenate((b, b + n, r + n))


@checked_by(lambda n, create_using=None: _ints_reason(n=n) or _create_reason(create_using))
def ladder_graph(n, create_using=None):
    """networkx.ladder_graph: two paths of n nodes, joined rung by rung."""
    _nodes_or_number(2 * n)
    _no_directed(create_using)
    return build(list(range(2 * n)), *_ladder_edges(n))


@checked_by(lambda n, create_using=None: _ints_reason(n=n) or _create_reason(create_using))
def circular_ladder_graph(n, create_using=None):
    """networkx.circular_ladder_graph: a ladder whose two paths are closed into cycles."""
    _nodes_or_number(2 * n)
    _no_directed(create_using)
    u, v = _ladder_edges(n)
    ends = [(0, n - 1), (n, 2 * n - 1)]
    if n >= 1:
        return build(list(range(2 * n)), _cat(u, [0, n]), _cat(v, [n - 1, 2 * n - 1]))
    return _from_labels(range(2 * n), ends)  # n = 0: networkx adds the nodes 0 and -1


def _cat(*parts):
    """The parts (arrays or lists of positions) end to end, as int64."""
    return np.concatenate([np.asarray(p, dtype=np.int64) for p in parts])


@checked_by(lambda m1, m2, create_using=None: _ints_reason(m1=m1, m2=m2)
            or _create_reason(create_using))
def barbell_graph(m1, m2, create_using=None):
    """networkx.barbell_graph: two cliques of m1 nodes joined by a path of m2 nodes."""
    if m1 < 2:
        raise nx.NetworkXError("Invalid graph description, m1 should be >=2")
    if m2 < 0:
        raise nx.NetworkXError("Invalid graph description, m2 should be >=0")
    _no_directed(create_using)
    cu, cv = _combinations(m1)
    pu, pv = _pairwise(m2) if m2 > 1 else (np.zeros(0, np.int64),) * 2
    du, dv = _combinations(m1, offset=m1 + m2)
    u = _cat(cu, pu + m1, du, [m1 - 1], [m1 + m2 - 1] if m2 > 0 else [])
    v = _cat(cv, pv + m1, dv, [m1], [m1 + m2] if m2 > 0 else [])
    # nodes: the first clique, the path but its last node, then as the edges bring them
    initial = np.arange(m1 + max(m2 - 1, 0), dtype=np.int64)
    return _grown(initial, u, v)


def _grown(initial, u, v, **kw):
    """:func:`build` for integer labels: ``initial`` nodes, then each new label of the edges
    (u[0], v[0], u[1], ...) in the order it first appears."""
    seq = np.column_stack((u, v)).reshape(-1)
    labels, first = np.unique(seq, return_index=True)
    new = ~np.isin(labels, initial)
    extra = labels[new][np.argsort(first[new], kind="stable")]
    nodes = np.concatenate((initial, extra))
    where = np.argsort(nodes, kind="stable")
    pos = lambda x: where[np.searchsorted(nodes, x, sorter=where)]  # noqa: E731
    return build(nodes.tolist(), pos(u), pos(v), **kw)


def _two_parts_reason(m, n, create_using=None):
    return _nodes_reason(m, "m") or _nodes_reason(n, "n") or _create_reason(create_using)


def _two_parts(m, n):
    """The nodes of the two parts of a lollipop or tadpole graph, as networkx reads ``m`` (at
    least 2 nodes) and ``n`` (numbered on from ``m`` when both are numbers): ``(m_nodes,
    n_nodes, numbered)``."""
    m, m_nodes = _nodes_or_number(m)
    M = len(m_nodes)
    if M < 2:
        raise nx.NetworkXError("Invalid description: m should indicate at least 2 nodes")
    n, n_nodes = _nodes_or_number(n)
    numbered = isinstance(m, numbers.Integral) and isinstance(n, numbers.Integral)
    if numbered:
        n_nodes = list(range(M, M + n))
    return m_nodes, n_nodes, numbered


@checked_by(_two_parts_reason)
def lollipop_graph(m, n, create_using=None):
    """networkx.lollipop_graph: a clique of m nodes joined to a path of n nodes."""
    m_nodes, n_nodes, _ = _two_parts(m, n)
    M, N = len(m_nodes), len(n_nodes)
    _no_directed(create_using)
    nodes = list(m_nodes) + list(n_nodes)
    if len(set(nodes)) != M + N:
        raise nx.NetworkXError("Nodes must be distinct in containers m and n")
    cu, cv = _combinations(M)
    pu, pv = _pairwise(N) if N > 1 else (np.zeros(0, np.int64),) * 2
    return build(nodes, _cat(cu, pu + M, [M - 1] if N > 0 else []), _cat(cv, pv + M, [M] if N > 0 else []))


@checked_by(_two_parts_reason)
def tadpole_graph(m, n, create_using=None):
    """networkx.tadpole_graph: a cycle of m nodes joined to a path of n nodes."""
    m_nodes, n_nodes, numbered = _two_parts(m, n)
    M = len(m_nodes)
    _no_directed(create_using)
    cu, cv = _pairwise(M, cyclic=True)
    path = [m_nodes[-1], *n_nodes]
    pairs = [(m_nodes[a], m_nodes[b]) for a, b in zip(cu.tolist(), cv.tolist())] + list(zip(path, path[1:]))
    if len(n_nodes) > 64:  # integer labels: the same, vectorised
        if numbered:
            N = len(n_nodes)
            pu = np.concatenate(([M - 1], np.arange(M, M + N - 1, dtype=np.int64)))
            pv = np.arange(M, M + N, dtype=np.int64)
            return build(list(range(M + N)), np.concatenate((cu, pu)), np.concatenate((cv, pv)))
    return _from_labels(m_nodes, pairs)


@checked_by(lambda n, r: _ints_reason(n=n, r=r))
def turan_graph(n, r):
    """networkx.turan_graph: the complete r-partite graph of n nodes with parts as equal as can be."""
    if not 1 <= r <= n:
        raise nx.NetworkXError("Must satisfy 1 <= r <= n")
    partitions = [n // r] * (r - (n % r)) + [n // r + 1] * (n % r)
    return complete_multipartite_graph(*partitions)


def _multipartite_reason(*subset_sizes):
    if all(_checks.is_integer(s) for s in subset_sizes):
        return None
    if any(isinstance(s, numbers.Integral) for s in subset_sizes):
        return "subset sizes mix ints and containers: networkx raises the error"
    for s in subset_sizes:
        reason = _nodes_reason(s, "a subset")
        if reason:
            return reason
    try:
        nodes = [v for s in subset_sizes for v in s]
    except TypeError:
        return "a subset is not a container of nodes: networkx raises the error"
    if len(set(nodes)) != len(nodes):
        return "a node is in two subsets: networkx's graph then depends on the subsets' order"
    return None


@checked_by(lambda subset_sizes=(): _multipartite_reason(*subset_sizes))
def complete_multipartite_graph(*subset_sizes):
    """networkx.complete_multipartite_graph: every pair of nodes in different subsets joined; node
    attribute ``subset``."""
    if not subset_sizes:
        return build([], [], [])
    if all(isinstance(s, numbers.Integral) for s in subset_sizes):
        if any(s < 0 for s in subset_sizes):
            raise nx.NetworkXError(f"Negative number of nodes not valid: {subset_sizes}")
        sizes = [int(s) for s in subset_sizes]
        nodes = list(range(sum(sizes)))
    else:
        sizes = [len(s) for s in subset_sizes]
        nodes = [v for s in subset_sizes for v in s]
    starts = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    part = np.repeat(np.arange(len(sizes)), sizes)
    total = sum(sizes[i] * sizes[j] for i in range(len(sizes)) for j in range(i + 1, len(sizes)))
    _memory.require(total * 16, f"semiring networkx generator: complete_multipartite_graph with {total:,} edges")
    us, vs = [], []
    for i in range(len(sizes)):  # itertools.combinations(subsets, 2), each as product(s1, s2)
        for j in range(i + 1, len(sizes)):
            a = np.arange(starts[i], starts[i + 1], dtype=np.int64)
            b = np.arange(starts[j], starts[j + 1], dtype=np.int64)
            us.append(np.repeat(a, b.shape[0]))
            vs.append(np.tile(b, a.shape[0]))
    u = np.concatenate(us) if us else np.zeros(0, np.int64)
    v = np.concatenate(vs) if vs else np.zeros(0, np.int64)
    return build(nodes, u, v, node_data=[{"subset": i} for i in part.tolist()])


# -- bipartite and community -----------------------------------------------------------------------
@checked_by(lambda n1, n2, create_using=None: _nodes_reason(n1, "n1") or _nodes_reason(n2, "n2")
            or _create_reason(create_using))
def complete_bipartite_graph(n1, n2, create_using=None):
    """networkx.complete_bipartite_graph: every top node joined to every bottom node; node attribute
    ``bipartite`` (0 top, 1 bottom) and the graph's ``name``."""
    n1, top = _nodes_or_number(n1)
    n2, bottom = _nodes_or_number(n2)
    _no_directed(create_using)
    if isinstance(n1, numbers.Integral) and isinstance(n2, numbers.Integral):
        bottom = [n1 + i for i in bottom]
    nodes = list(top) + list(bottom)
    if len(set(nodes)) != len(nodes):
        raise nx.NetworkXError("Inputs n1 and n2 must contain distinct nodes")
    a, b = len(top), len(bottom)
    _memory.require(a * b * 16, f"semiring networkx generator: complete_bipartite_graph({a}, {b})")
    u = np.repeat(np.arange(a, dtype=np.int64), b)
    v = np.tile(np.arange(a, a + b, dtype=np.int64), a)
    node_data = [{"bipartite": 0} for _ in range(a)] + [{"bipartite": 1} for _ in range(b)]
    return build(nodes, u, v, node_data=node_data, graph={"name": f"complete_bipartite_graph({a}, {b})"})


@checked_by(lambda l, k: _ints_reason(l=l, k=k))  # noqa: E741
def caveman_graph(l, k):  # noqa: E741 (networkx's parameter name)
    """networkx.caveman_graph: l disjoint cliques of k nodes."""
    _nodes_or_number(l * k)
    if k > 1 and l > 0:
        i, j = _combinations(k)
        offsets = np.repeat(np.arange(0, l * k, k, dtype=np.int64), i.shape[0])
        return build(list(range(l * k)), np.tile(i, l) + offsets, np.tile(j, l) + offsets)
    return build(list(range(max(l * k, 0))), [], [])


# -- the fixed graphs --------------------------------------------------------------------------------
def _fixed(name, directed=False):
    data = GRAPHS[name + ("/directed" if directed else "")]
    nodes = data["nodes"]
    nodes = list(range(nodes)) if isinstance(nodes, int) else list(nodes)
    edges = np.array([e[:2] for e in data["edges"]], dtype=np.int64).reshape(-1, 2)
    weights = None
    if data["edges"] and len(data["edges"][0]) == 3:
        weights = {"weight": np.array([e[2] for e in data["edges"]], dtype=np.int64)}
    graph = dict(data["graph"])
    node_data = None if data["node_data"] is None else [dict(d) for d in data["node_data"]]
    if name == "davis_southern_women_graph":
        graph = {"top": [v for v, d in zip(nodes, node_data) if d["bipartite"] == 0],
                 "bottom": [v for v, d in zip(nodes, node_data) if d["bipartite"] == 1]}
    return build(nodes, edges[:, 0], edges[:, 1], directed=directed, graph=graph, node_data=node_data,
                 weights=weights)


def karate_club_graph():
    """networkx.karate_club_graph: Zachary's karate club (weights, node attribute ``club``)."""
    return _fixed("karate_club_graph")


def davis_southern_women_graph():
    """networkx.davis_southern_women_graph: women and the events they attended (``bipartite``)."""
    return _fixed("davis_southern_women_graph")


def florentine_families_graph():
    """networkx.florentine_families_graph: marriages between Renaissance Florentine families."""
    return _fixed("florentine_families_graph")


def les_miserables_graph():
    """networkx.les_miserables_graph: co-appearances of the characters of Les Misérables (weights)."""
    return _fixed("les_miserables_graph")


#: small named graphs: name -> whether networkx builds a directed one (else it raises on DiGraph)
_SMALL = {
    "bull_graph": False, "chvatal_graph": False, "cubical_graph": False, "desargues_graph": False,
    "diamond_graph": False, "dodecahedral_graph": False, "frucht_graph": True, "heawood_graph": False,
    "house_graph": False, "house_x_graph": False, "icosahedral_graph": False, "krackhardt_kite_graph": False,
    "moebius_kantor_graph": False, "octahedral_graph": False, "petersen_graph": False,
    "sedgewick_maze_graph": True, "tetrahedral_graph": True, "truncated_cube_graph": False,
    "truncated_tetrahedron_graph": True, "tutte_graph": False,
}
#: the small graphs networkx checks before dispatching (``_raise_on_directed``): its own message
_CHECKED_BEFORE = {"bull_graph", "chvatal_graph", "cubical_graph", "diamond_graph", "house_graph", "house_x_graph",
                   "icosahedral_graph", "krackhardt_kite_graph", "octahedral_graph", "petersen_graph",
                   "truncated_cube_graph", "tutte_graph"}


def _small(name):
    def generator(create_using=None):
        directed = _directed(create_using)
        if directed and not _SMALL[name]:
            raise nx.NetworkXError("Directed Graph not supported" + (" in create_using" if name in _CHECKED_BEFORE
                                                                      else ""))
        return _fixed(name, directed)

    generator.__name__ = generator.__qualname__ = name
    generator.__doc__ = f"networkx.{name}: a fixed graph, from data."
    return checked_by(_create_only_reason)(generator)


for _name in _SMALL:
    globals()[_name] = _small(_name)


def pappus_graph():
    """networkx.pappus_graph: a fixed graph, from data."""
    return _fixed("pappus_graph")


__all__ = [
    "empty_graph", "null_graph", "trivial_graph", "complete_graph", "path_graph", "cycle_graph", "star_graph",
    "wheel_graph", "ladder_graph", "circular_ladder_graph", "barbell_graph", "lollipop_graph", "tadpole_graph",
    "turan_graph", "complete_multipartite_graph", "complete_bipartite_graph", "caveman_graph",
    "karate_club_graph", "davis_southern_women_graph", "florentine_families_graph", "les_miserables_graph",
    *_SMALL, "pappus_graph",
]
