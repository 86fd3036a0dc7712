"""Graph's named derived items: each equals what SciPy computes from the matrix, is built once
per content (the same object on every call), starts afresh after a write of the matrix, and a
refused build stores nothing. The networkx backend's slots follow the same rules."""

import numpy as np
import pytest
import scipy.sparse as sp

import semiring as sr
from semiring.algorithms import Graph
from semiring.exceptions import InvalidValue


def _matrix(seed, n=40, density=0.08):
    rng = np.random.default_rng(seed)
    S = sp.random_array((n, n), density=density, random_state=rng, format="csr")
    S.setdiag(np.where(rng.random(n) < 0.2, 2.0, 0.0))  # a few self-loops
    S.eliminate_zeros()
    S.data[:] = rng.integers(1, 9, size=S.nnz)
    return sr.Matrix.from_scipy(S), sp.csr_array(S)


def _dense(M):
    return M.to_scipy().toarray()


@pytest.mark.parametrize("seed", range(3))
def test_structure_items_match_scipy(seed):
    A, S = _matrix(seed)
    G = Graph(A)
    P = (S != 0).astype(np.int64).toarray()  # no explicit zeros in S
    off = P * (1 - np.eye(P.shape[0], dtype=np.int64))
    for dtype in ("bool", "int64", "float64"):
        assert G.pattern(dtype).dtype == np.dtype(dtype)
        np.testing.assert_array_equal(_dense(G.pattern(dtype)), P.astype(dtype))
        np.testing.assert_array_equal(_dense(G.offdiag_pattern(dtype)), off.astype(dtype))
    np.testing.assert_array_equal(_dense(G.undirected_pattern), (off | off.T).astype(bool))
    assert G.unmirrored == int((P & (1 - P.T)).sum())
    din, dout = G.offdiag_degrees
    np.testing.assert_array_equal(din.to_dense(), off.sum(axis=0))
    np.testing.assert_array_equal(dout.to_dense(), off.sum(axis=1))
    assert G.nan_count == 0
    np.testing.assert_array_equal(_dense(G.float64_weights), S.toarray())


def test_items_are_built_once_and_start_afresh_after_a_write():
    A, _ = _matrix(7)
    G = Graph(A)
    first = (G.pattern("int64"), G.undirected_pattern, G.edge_rows, G.node_split(4), G.sssp_weights)
    again = (G.pattern("int64"), G.undirected_pattern, G.edge_rows, G.node_split(4), G.sssp_weights)
    assert all(a is b for a, b in zip(first, again))
    assert set(G.derived()) >= {("pattern", "int64"), "undirected_pattern", "edge_rows", ("node_split", 4),
                                "sssp_weights"}
    # A<0, 39> = 1: a new content, so a new, empty set of items built from it
    sr.assign(A, 1.0, ([0], [39]))
    assert not G.derived()
    assert G.pattern("int64") is not first[0] and _dense(G.pattern("int64"))[0, 39] == 1


def test_a_refused_build_stores_nothing():
    A = sr.Matrix.from_coo([0, 1], [1, 0], [np.nan, 1.0], nrows=2, ncols=2)
    G = Graph(A)
    assert G.nan_count == 1
    for _ in range(2):  # raised on every call: nothing is kept
        with pytest.raises(InvalidValue, match="NaN"):
            G.apsp_weights("all_pairs_shortest_paths")
    assert "apsp_weights" not in G.derived()


def test_nx_items_are_typed_slots_that_follow_writes():
    from semiring.nx import _derived

    A, _ = _matrix(3)
    G = Graph(A)
    got = _derived.once(G, "identity", lambda: object())
    assert _derived.once(G, "identity", lambda: object()) is got
    with pytest.raises(AttributeError):
        _derived.once(G, "no such slot", lambda: 1)
    sr.assign(A, 1.0, ([0], [39]))
    assert _derived.once(G, "identity", lambda: object()) is not got
