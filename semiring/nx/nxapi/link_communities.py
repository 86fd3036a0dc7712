"""networkx's community-aware link prediction (Soundarajan and Hopcroft) on masked products.

The nodes' communities (the node attribute ``community``, held by the converted graph) give
``Pc``, the pattern without self-loops restricted to edges inside one community. At the requested
pairs (u, v), the row products of :func:`semiring.nx.nxapi.link_prediction.pair_sums` give the
common neighbours ``P(u, :) . P(v, :)``, the common neighbours in u's community when u and v
share it ``Pc(u, :) . Pc(v, :)``, their ``1 / degree`` sum ``(Pc diag(1/d))(u, :) . Pc(v, :)``,
and the common neighbours without a community ``(P diag(unknown))(u, :) . P(v, :)`` (networkx
raises on meeting one; the node it names is found by networkx's own set order, in that case
only).

References
----------
S. Soundarajan, J. Hopcroft, "Using community information to improve the precision of link
prediction methods", WWW 2012 Companion. R. R. Valverde-Rebaza, A. de Andrade Lopes, "Link
prediction in complex networks based on cluster information", SBIA 2012 (within-inter-cluster).
networkx ``cn_soundarajan_hopcroft``, ``ra_index_soundarajan_hopcroft``,
``within_inter_cluster``.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ... import _checks
from ...backends._xp import asnumpy
from ...core.matrix import Matrix
from ._common import checked_by
from ._measures import degrees, offdiag_pattern
from .link_prediction import _check, _pairs, _scaled, _scored, pair_sums


def _held_reason(G, community):
    if isinstance(G, nx.Graph):
        return None
    if community not in (getattr(G, "node_attrs", None) or {}):
        return (f"the semiring graph holds no node attribute {community!r}; convert it with "
                f"node_attrs={{{community!r}: None}}")
    return None


def _ids(G, community):
    """Host int64 community id per node (-1: no community), ids by first appearance."""
    data = (getattr(G, "node_attrs", None) or {}).get(community)
    if data is None:
        raise NotImplementedError(_held_reason(G, community))
    ids, cid = {}, np.full(len(G), -1, dtype=np.int64)
    try:
        for v, c in data.items():
            cid[G.index[v]] = ids.setdefault(c, len(ids))
    except TypeError:
        raise NotImplementedError(f"{community!r} values must be hashable for the backend") from None
    return cid


class _Counts:
    """Engine counts at the pairs (rows, cols) of a chunk (:func:`pair_sums`)."""

    def __init__(self, G, cid, rows, cols, ratio=False):
        n = len(G)
        P = offdiag_pattern(G)
        r, c, _ = (asnumpy(a) for a in P.to_coo())
        keep = (cid[r] == cid[c]) & (cid[r] >= 0)
        # Pc = P on the edges inside one community
        Pc = Matrix.from_coo(r[keep], c[keep], None, nrows=n, ncols=n, dtype="int64", device=P.device)
        # common = P(u,:) . P(v,:);  same = Pc(u,:) . Pc(v,:);  unknown = (P diag(no community))(u,:) . P(v,:)
        self.common = pair_sums(P, P, rows, cols)[0].tolist()
        self.same = pair_sums(Pc, Pc, rows, cols)[0].tolist()
        unknown = _scaled(P, (cid < 0).astype(np.float64))
        self.unknown = pair_sums(unknown, P, rows, cols)[0].tolist()
        if ratio:
            d = degrees(G).astype(np.float64)
            inv = np.divide(1.0, d, out=np.zeros_like(d), where=d > 0)
            # ra = (Pc diag(1/d))(u,:) . Pc(v,:)   (0, an int, where no common neighbour shares the community)
            vals, present = pair_sums(_scaled(Pc, inv), Pc, rows, cols)
            self.ra = [x if p else 0 for x, p in zip(vals.tolist(), present.tolist())]


def _missing(u):
    return nx.NetworkXAlgorithmError(f"No community information available for Node {u}")


def _first_unknown(G, u, v, cid):
    """The common neighbour without a community that networkx meets first (its set order)."""
    indptr, indices = G.order
    names, index = G.nodes, G.index

    def keys(x):
        i = index[x]
        return dict.fromkeys(names[j] for j in indices[indptr[i]:indptr[i + 1]].tolist()).keys()

    for w in keys(u) & keys(v) - {u, v}:
        if cid[index[w]] < 0:
            return _missing(w)
    raise AssertionError("a common neighbour without a community was counted")


def _predict(G, ebunch, community, rule, *, ratio=False):
    """(u, v, rule(...)) over the pairs: ``rule(k, cu, cv, counts)`` for the pair's position k."""
    _check(G)
    pairs = _pairs(G, ebunch)
    cid = _ids(G, community)
    names = G.nodes

    def score(rows, cols):
        counts = _Counts(G, cid, rows, cols, ratio=ratio)
        out = []
        for k, (i, j) in enumerate(zip(rows.tolist(), cols.tolist())):
            if cid[i] < 0:
                out.append(_missing(names[i]))
            elif cid[j] < 0:
                out.append(_missing(names[j]))
            elif cid[i] == cid[j] and counts.unknown[k]:
                out.append(_first_unknown(G, names[i], names[j], cid))
            else:
                out.append(rule(k, cid[i] == cid[j], counts))
        return out

    return _scored(G, pairs, score)


def _reason(G, ebunch=None, community="community"):
    return _held_reason(G, community)


@checked_by(_reason)
def cn_soundarajan_hopcroft(G, ebunch=None, community="community"):
    """networkx.cn_soundarajan_hopcroft: an iterator of (u, v, common neighbours + those in the
    community of u and v when they share one).

    Raises networkx.NetworkXNotImplemented and networkx.NodeNotFound at the call, and
    networkx.NetworkXAlgorithmError on reaching a node without a community, as networkx does.
    """
    return _predict(G, ebunch, community,
                    lambda k, same, c: c.common[k] + (c.same[k] if same else 0))


@checked_by(_reason)
def ra_index_soundarajan_hopcroft(G, ebunch=None, community="community"):
    """networkx.ra_index_soundarajan_hopcroft: an iterator of (u, v, sum of 1 / degree over the
    common neighbours in the community of u and v; 0 when u and v differ in community).

    Raises as :func:`cn_soundarajan_hopcroft`.
    """
    return _predict(G, ebunch, community, lambda k, same, c: c.ra[k] if same else 0, ratio=True)


def _within_reason(G, ebunch=None, delta=0.001, community="community"):
    reason = _checks.reason(_checks.real, delta, "", "delta", none=True) or _held_reason(G, community)
    if reason:
        return reason
    if delta is None:
        return "delta must be a real number; given None"
    return None


@checked_by(_within_reason)
def within_inter_cluster(G, ebunch=None, delta=0.001, community="community"):
    """networkx.within_inter_cluster: an iterator of (u, v, |within| / (|inter| + delta)) over
    the common neighbours inside and outside the shared community (0 when u and v differ).

    Raises networkx.NetworkXAlgorithmError for delta <= 0, and as :func:`cn_soundarajan_hopcroft`.
    """
    _check(G)
    if delta <= 0:
        raise nx.NetworkXAlgorithmError("Delta must be greater than zero")
    return _predict(G, ebunch, community,
                    lambda k, same, c: c.same[k] / ((c.common[k] - c.same[k]) + delta) if same else 0)


__all__ = ["cn_soundarajan_hopcroft", "ra_index_soundarajan_hopcroft", "within_inter_cluster"]
