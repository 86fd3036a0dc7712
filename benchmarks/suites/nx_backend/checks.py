"""How the networkx suite checks a backend result against networkx's: equal, close, the same
partition, the same edges, a tree of shortest paths for the same distances, or valid where the
answer depends on a random stream. Each check raises :class:`Invalid` with the first difference.
"""

from __future__ import annotations

import numpy as np


class Invalid(Exception):
    """A backend result differs from networkx's (or is not valid)."""


def equal(got, want, G=None):
    if got != want:
        raise Invalid(_first_difference(got, want))


def _first_difference(got, want):
    if isinstance(got, dict) and isinstance(want, dict):
        if got.keys() != want.keys():
            return f"keys differ ({len(got)} against {len(want)})"
        k = next(k for k in want if got[k] != want[k])
        return f"at {k!r}: {got[k]!r}, networkx {want[k]!r}"
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        i = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
        return f"item {i}: {got[i]!r}, networkx {want[i]!r}"
    return f"{str(got)[:80]}, networkx {str(want)[:80]}"


def close(tol=1e-6):
    def check(got, want, G=None):
        if got.keys() != want.keys():
            raise Invalid(f"keys differ ({len(got)} against {len(want)})")
        worst = max((abs(got[k] - want[k]) / max(1.0, abs(want[k])) for k in want), default=0.0)
        if not worst <= tol:
            raise Invalid(f"largest difference {worst:.3g} > {tol} (relative to values above 1)")
    return check


def hits_vectors(tol=1e-6):
    """HITS hubs and authorities: networkx's within ``tol``, or, where the top singular value of
    the adjacency matrix is repeated (a bipartite graph such as a grid: networkx's answer then
    depends on ARPACK's random start), any normalized top singular pair of the same value: the
    hubs ``A a`` and the authorities proportional to ``A^T h``."""
    def check(got, want, G):
        try:
            close(tol)(got, want)
            return
        except Invalid as exc:
            differ = exc
        import networkx as nx

        nodes = list(G)
        A = nx.to_scipy_sparse_array(G, nodelist=nodes, dtype=float)
        h, a = (np.array([got[(k, v)] for v in nodes]) for k in ("h", "a"))
        a_nx = np.array([want[("a", v)] for v in nodes])
        sigma, sigma_nx = (np.linalg.norm(A @ x) / np.linalg.norm(x) for x in (a, a_nx))
        hub = A @ a
        auth = A.T @ h
        if not (abs(sigma - sigma_nx) <= tol * sigma_nx and np.allclose(hub / hub.sum(), h, rtol=0, atol=tol)
                and np.allclose(auth / auth.sum(), a, rtol=0, atol=tol)):
            raise differ
    return check


def _w(G, u, v):
    return G._adj[u][v].get("weight", 1)


def dists_of(paths, G):
    """{node: length} of a dict of shortest paths that share prefixes (a shortest-path tree)."""
    d = {}
    for p in paths.values():
        i = len(p) - 1
        while i >= 0 and p[i] not in d:
            i -= 1
        if i < 0:
            d[p[0]], i = 0, 0
        acc = d[p[i]]
        for j in range(i + 1, len(p)):
            acc += _w(G, p[j - 1], p[j])
            d[p[j]] = acc
    return d


def path_tree(got, dist, G):
    """``got`` ({node: path}) is a tree of shortest paths for the distances ``dist``: the same
    nodes, each path its last hop's tail's path plus the node, that hop tight."""
    if got.keys() != dist.keys():
        raise Invalid(f"keys differ ({len(got)} against {len(dist)})")
    for v, p in got.items():
        if len(p) == 1:
            if dist[v] != 0:
                raise Invalid(f"the path to {v!r} is one node at distance {dist[v]}")
            continue
        u = p[-2]
        if p[:-1] != got[u] or dist[u] + _w(G, u, v) != dist[v]:
            raise Invalid(f"the path to {v!r} is not a shortest path")


def lengths_and_paths(got, want, G):
    """(distances, paths): the same distances; the paths any tree of shortest paths (networkx
    does not say which of equally short paths it returns)."""
    equal(got[0], want[0])
    path_tree(got[1], want[0], G)


def paths_only(got, want, G):
    path_tree(got, dists_of(want, G), G)


def first_path_trees(got, want, G):
    if [v for v, _ in got] != [v for v, _ in want]:
        raise Invalid("other sources")
    for (_, a), (_, b) in zip(got, want):
        paths_only(a, b, G)


def one_path(got, want, G):
    """A path between the same ends of the same length."""
    if got[0] != want[0] or got[-1] != want[-1]:
        raise Invalid(f"ends {got[0]!r}, {got[-1]!r}; networkx {want[0]!r}, {want[-1]!r}")
    a, b = (sum(_w(G, u, v) for u, v in zip(p, p[1:])) for p in (got, want))
    if a != b:
        raise Invalid(f"length {a}, networkx {b}")


def pred_lists(got, want, G):
    """(pred, dist): the same distances and the same tight predecessors of each node (in any order)."""
    equal(got[1], want[1])
    if got[0].keys() != want[0].keys():
        raise Invalid("pred keys differ")
    bad = [v for v in want[0] if set(got[0][v]) != set(want[0][v])]
    if bad:
        raise Invalid(f"pred[{bad[0]!r}] = {got[0][bad[0]]!r}, networkx {want[0][bad[0]]!r}")


def tight_pred(got, want, G):
    """(pred, dist) with one predecessor per node: the same distances, each pred a tight one."""
    pred, dist = got
    equal(dist, want[1])
    if pred.keys() != want[0].keys():
        raise Invalid("pred keys differ")
    bad = [v for v, u in pred.items() if (u is None) != (dist[v] == 0 and want[0][v] is None)
           or (u is not None and dist[u] + _w(G, u, v) != dist[v])]
    if bad:
        raise Invalid(f"pred[{bad[0]!r}] = {pred[bad[0]]!r} is not a tight predecessor")


def scalar(tol):
    """A number within ``tol`` of networkx's."""
    def check(got, want, G=None):
        close(tol)({0: got}, {0: want})
    return check


def same_parts(got, want, G=None):
    a, b = {frozenset(p) for p in got}, {frozenset(p) for p in want}
    if a != b:
        raise Invalid(f"{len(a)} parts, networkx {len(b)}; {len(a ^ b)} differ")


def same_edges(got, want, G=None):
    def edges(H):
        return {(frozenset((u, v)) if not H.is_directed() else (u, v)): d for u, v, d in H.edges(data=True)}
    if set(got) != set(want) or edges(got) != edges(want):
        raise Invalid(f"{got.number_of_edges()} edges, networkx {want.number_of_edges()}; edge sets differ")


def independent_and_maximal(got, want, G):
    s = set(got)
    if any(v in s for u in s for v in G[u] if v != u):
        raise Invalid("two nodes of the set are adjacent")
    if any(not any(v in s for v in G[u]) for u in G if u not in s):
        raise Invalid("a node outside the set has no neighbour in it: not maximal")


def partition_modularity(slack=0.02):
    """A partition of the nodes whose modularity is within ``slack`` of networkx's."""
    def check(got, want, G):
        import networkx as nx

        nodes = [v for p in got for v in p]
        if len(nodes) != len(set(nodes)) or set(nodes) != set(G):
            raise Invalid("not a partition of the nodes")
        q, qn = (nx.community.modularity(G, p, backend="networkx") for p in (got, want))
        if q < qn - slack:
            raise Invalid(f"modularity {q:.4f}, networkx {qn:.4f}")
    return check


def bisection(got, want, G):
    a, b = got
    if a & b or (a | b) != set(G) or abs(len(a) - len(b)) > 1:
        raise Invalid("not a balanced bisection of the nodes")
