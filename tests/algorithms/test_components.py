"""Connected and strongly connected components against scipy.sparse.csgraph and published answers.

Oracles: ``scipy.sparse.csgraph.connected_components`` (weak and strong) for the partition; the
labelling (every vertex labelled by the smallest vertex of its component) is derived from
scipy's labels independently of the code under test. Published answers: LAGraph's component
counts (read from its test_ConnectedComponents.c), the LDBC Graphalytics WCC outputs, and the
LAW strongly connected components of cnr-2000 (100,977, per-vertex labels in
``web/cnr-2000.scc.txt.gz``).
"""

from __future__ import annotations

import doctest
import re
from unittest import mock

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.algorithms import _components_cc as cc_module
from semiring.algorithms import components as components_module
from semiring.backends._xp import asnumpy
from _componentgraphs import clustered_graphs, condensations, min_labels, scipy_labels
from _devices import DEVICES

cc = sr.algorithms.connected_components
scc = sr.algorithms.strongly_connected_components


def check(A, f, connection):
    """f(A) is int64, has every vertex, and equals scipy's min-vertex labelling."""
    got = f(A)
    assert got.dtype == np.int64 and got.size == A.nrows and got.nvals == A.nrows
    k, want = scipy_labels(A, connection)
    g = asnumpy(got.to_dense())
    np.testing.assert_array_equal(g, want)
    assert int((g == np.arange(A.nrows)).sum()) == k
    return k


def coo(n, edges, values=None, dtype=None):
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    return sr.Matrix.from_coo(edges[:, 0], edges[:, 1], values, nrows=n, ncols=n, dtype=dtype,
                              dup_op=sr.binary.first)


def algebra_engine():
    """The CPU algebra formulation (Afforest, Multistep) whatever the CPU backend: the compiled
    loops that the SuiteSparse backend otherwise runs are turned off."""
    return mock.patch.object(components_module._jit, "enabled", lambda: False)


def oriented(A, seed):
    """A directed graph: each edge {u, v} of a symmetric A kept in one random direction."""
    r, c, _ = A.to_coo()
    keep = r < c
    r, c = r[keep], c[keep]
    flip = np.random.default_rng(seed).random(r.size) < 0.5
    return sr.Matrix.from_coo(np.where(flip, c, r), np.where(flip, r, c), nrows=A.nrows, ncols=A.ncols)


# ---------------------------------------------------------------------------------------------
# small cases written out
# ---------------------------------------------------------------------------------------------

def test_hand_examples():
    # 0 <-> 1 -> 2 <-> 3, 4 alone with a self-loop
    A = coo(5, [(0, 1), (1, 0), (1, 2), (2, 3), (3, 2), (4, 4)])
    assert scc(A).to_dense().tolist() == [0, 0, 2, 2, 4]
    assert cc(A).to_dense().tolist() == [0, 0, 0, 0, 4]
    # labels are the smallest vertex even when the edges point to larger ones only
    B = coo(6, [(5, 3), (3, 1), (1, 5), (4, 0)])
    assert scc(B).to_dense().tolist() == [0, 1, 2, 1, 4, 1]
    assert cc(B).to_dense().tolist() == [0, 1, 2, 1, 0, 1]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("f", [cc, scc])
def test_empty_single_and_edgeless(f, device):
    for n, arcs in ((0, []), (1, []), (1, [(0, 0)]), (7, [])):
        e = np.asarray(arcs, dtype=np.int64).reshape(-1, 2)
        built = sr.Matrix.from_coo(e[:, 0], e[:, 1], nrows=n, ncols=n, dtype="bool", device=device)
        for A in ((built, sr.Matrix(n, n, "bool", device=device)) if not arcs else (built,)):
            for got in (f(A), f(sr.algorithms.Graph(A, "directed"))):
                assert got.device == device and got.dtype == np.int64 and got.size == n and got.nvals == n
                assert asnumpy(got.to_dense()).tolist() == list(range(n))


@pytest.mark.parametrize("f", [cc, scc])
def test_values_are_ignored_explicit_zeros_and_false_are_edges(f):
    # a directed 3-cycle stored with False, 0 and NaN values
    for vals, dtype in (([False, False, False], "bool"), ([0, 0, 0], "int64"), ([np.nan, 0.0, -1.0], "float64")):
        A = coo(4, [(0, 1), (1, 2), (2, 0)], vals, dtype)
        assert f(A).to_dense().tolist() == [0, 0, 0, 3]


@pytest.mark.parametrize("f", [cc, scc])
def test_graph_argument_and_caches(f):
    A = oriented(sr.generators.grid(6, 7), 3)
    G = sr.algorithms.Graph(A)
    first = f(G)
    assert f(G).isequal(first)  # a second call on the cached graph
    assert first.isequal(f(A))


@pytest.mark.parametrize("f", [cc, scc])
def test_bad_inputs_raise(f):
    with pytest.raises(sr.DimensionMismatch, match="square"):
        f(sr.Matrix(3, 4, "bool"))
    with pytest.raises(sr.InvalidValue, match="expected a Matrix or Graph"):
        f(np.eye(3))
    with pytest.raises(sr.InvalidValue, match="expected a Matrix or Graph"):
        f(sr.Vector(3, "bool"))


def test_docstring_examples():
    result = doctest.testmod(components_module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 2 and result.failed == 0


# ---------------------------------------------------------------------------------------------
# random graphs (hypothesis) and generated graphs, against scipy
# ---------------------------------------------------------------------------------------------

@st.composite
def graphs(draw):
    n = draw(st.integers(1, 40))
    m = draw(st.integers(0, 3 * n))
    r = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    c = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    A = sr.Matrix.from_coo(r, c, nrows=n, ncols=n, dtype="bool", dup_op=sr.binary.lor)
    if draw(st.booleans()):  # symmetric: the undirected paths of both algorithms
        A = sr.ewise_add(A, sr.transpose(A), sr.binary.lor)
    return A


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(A=graphs())
def test_random_graphs_match_scipy(A):
    check(A, cc, "weak")
    check(A, scc, "strong")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(A=clustered_graphs())
def test_clustered_graphs_match_scipy(A):
    """Giant and small components, no giant component, isolated vertices, self-loops, rows of
    one and of many neighbours, directed and undirected, any value type."""
    check(A, cc, "weak")
    check(A, scc, "strong")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(A=clustered_graphs(), data=st.data())
def test_cc_is_exact_whatever_the_sample_takes_for_the_giant_component(A, data):
    """The final phase must give the exact components whichever label the sample phase takes
    for the giant component (a small component's, a label no vertex has, or the true one),
    and whether it takes it for a giant component (final rounds from the vertices outside it
    and its edge) or not (final rounds from every vertex)."""
    real = cc_module._most_frequent

    def pick(L):
        labels = asnumpy(L.to_dense())
        share = data.draw(st.sampled_from([0.0, 1.0]))
        choice = data.draw(st.sampled_from(["real", "rarest", "absent", "vertex"]))
        if choice == "real":
            return real(L)[0], share
        if choice == "rarest":
            values, counts = np.unique(labels, return_counts=True)
            return int(values[np.argmin(counts)]), share
        if choice == "absent":
            return -1, share
        return data.draw(st.integers(0, labels.size - 1)), share

    with algebra_engine(), mock.patch.object(cc_module, "_most_frequent", pick):
        check(A, cc, "weak")


@pytest.mark.parametrize("fraction", [0.0, 2.0])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(A=clustered_graphs())
def test_cc_rounds_give_the_same_labels_with_masked_and_full_products(A, fraction):
    """The final rounds read the active rows through a mask (few rows) or through products
    over every row made full (many rows): both give the same components."""
    with algebra_engine(), mock.patch.object(cc_module, "MASKED_ROWS_FRACTION", fraction):
        check(A, cc, "weak")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 60), seed=st.integers(0, 2**32 - 1), groups=st.integers(1, 60),
       links=st.integers(0, 120))
def test_link_rounds_merge_star_forests_into_stars(n, seed, groups, links):
    """Hooking roots along links gives a star forest again (every vertex points at its root),
    whose trees are the components of the old trees joined by the links, each rooted at its
    smallest vertex: long chains of hooked roots in one round included."""
    rng = np.random.default_rng(seed)
    group = rng.integers(0, groups, n)
    # a star forest: each group rooted at its smallest vertex
    roots = np.full(groups, n)
    np.minimum.at(roots, group, np.arange(n))
    L = sr.Vector.from_dense(roots[group].astype(np.int64))
    src, dst = rng.integers(0, n, links), rng.integers(0, n, links)
    if links and rng.random() < 0.5:  # a chain of roots, each hooked under the next in one round
        chain = np.sort(np.unique(roots[group]))[::-1]
        src, dst = np.concatenate([src, chain[:-1]]), np.concatenate([dst, chain[1:]])
    got, _ = cc_module._link_rounds(L, src.astype(np.int64), dst.astype(np.int64), "cpu")
    g = asnumpy(got.to_dense())
    np.testing.assert_array_equal(g[g], g)
    # oracle: components of (vertex -- its group's root) and the links
    r = np.concatenate([np.arange(n), src])
    c = np.concatenate([roots[group], dst])
    import scipy.sparse as sparse

    _, labels = csgraph.connected_components(sparse.coo_matrix((np.ones(r.size), (r, c)), shape=(n, n)),
                                             directed=False)
    np.testing.assert_array_equal(g, min_labels(labels))


def test_a_chain_of_roots_hooked_in_one_round_becomes_one_star():
    """Roots hooked under roots that are hooked too (5 -> 4 -> ... -> 0 in one round) all end
    at the chain's last root in that round: pointer doubling over the hooked roots."""
    n = 9
    L = sr.Vector.from_dense(np.arange(n, dtype=np.int64))
    # the root v takes the offer v - 1, for v = 1 .. n - 1
    at = np.arange(1, n)
    lo = sr.Vector.from_coo(at, at - 1, size=n)
    assert cc_module._hook(L, lo, at, "cpu").to_dense().tolist() == [0] * n
    got, rounds = cc_module._link_rounds(L, np.arange(1, n), np.arange(0, n - 1), "cpu")
    assert got.to_dense().tolist() == [0] * n and rounds == 1


def test_cc_sample_phase_finds_the_giant_component():
    """On a graph with one large component, the sample phase alone labels it, so the final
    rounds read only the rows of the few vertices outside it and of its edge (Kronecker scale
    12: 3,332 vertices in the giant component, 764 isolated ones)."""
    A = sr.generators.kronecker(12, seed=3)
    seen = []
    real = cc_module._hooking_rounds

    def spy(mats, L, active, device):
        seen.append(active.nvals)
        return real(mats, L, active, device)

    with algebra_engine(), mock.patch.object(cc_module, "_hooking_rounds", spy):
        check(A, cc, "weak")
    _, labels = scipy_labels(A, "weak")
    assert np.bincount(labels).max() > A.nrows // 2
    assert len(seen) == 1 and seen[0] < A.nrows // 100


@pytest.mark.parametrize("dtype", ["uint64", "float32", "int8"])
def test_value_types_that_do_not_mix_with_int64_labels(dtype):
    """The labels are int64 whatever A holds (uint64 has no common type with int64)."""
    D = oriented(sr.generators.grid(7, 9), 1)
    r, c, _ = D.to_coo()
    A = sr.Matrix.from_coo(r, c, np.arange(r.size).astype(dtype), nrows=D.nrows, ncols=D.ncols)
    assert A.dtype == np.dtype(dtype)
    check(A, cc, "weak")
    check(A, scc, "strong")
    S = sr.ewise_add(A, sr.transpose(A), sr.binary.first)
    check(S, cc, "weak")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=condensations())
def test_scc_of_blocks_joined_by_a_dag(case):
    A, blocks = case
    assert check(A, scc, "strong") == blocks


@pytest.mark.parametrize("seed", [0, 1])
def test_scc_labels_do_not_depend_on_the_coloring_seed(seed):
    A = oriented(sr.generators.kronecker(9, seed=seed), seed)
    first = scc(A, seed=0)
    assert scc(A, seed=1 + seed).isequal(first)
    check(A, scc, "strong")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("seed", [1.5, "7", None, True, np.float64(2.0)])
def test_a_seed_that_is_not_an_integer_raises(device, seed):
    A = sr.Matrix.from_coo([0, 1], [1, 0], nrows=3, ncols=3, dtype="bool", dup_op=sr.binary.lor, device=device)
    with pytest.raises(sr.InvalidValue, match=r"seed must be an integer; given"):
        scc(A, seed=seed)


GENERATED = {
    "kronecker10": lambda: sr.generators.kronecker(10, seed=2),
    "grid_20x30": lambda: sr.generators.grid(20, 30),
    "grid_3d": lambda: sr.generators.grid(6, 5, 4),
    "rgg_800_sparse": lambda: sr.generators.random_geometric(800, radius=0.03, seed=4),
}


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_generated_graphs_undirected_and_directed(name):
    A = GENERATED[name]()
    k = check(A, cc, "weak")
    assert check(A, scc, "strong") == k  # symmetric: strong = weak
    D = oriented(A, 7)
    check(D, cc, "weak")
    check(D, scc, "strong")


def test_chain_of_cycles_in_index_order():
    """Many components in a chain: the coloring rounds break it up (random keys)."""
    n = 600
    i = np.arange(0, n - 2, 2)  # 2-cycles {0, 1}, ..., {596, 597}, then 598 and 599 alone
    A = coo(n, np.stack([np.concatenate([i, i + 1, i + 1]), np.concatenate([i + 1, i, i + 2])], 1))
    assert check(A, scc, "strong") == n // 2 + 1
    R = coo(n, np.stack([n - 1 - np.concatenate([i, i + 1, i + 1]), n - 1 - np.concatenate([i + 1, i, i + 2])], 1))
    assert check(R, scc, "strong") == n // 2 + 1


def test_long_cycle_and_tails():
    n = 300
    r = np.arange(n)
    edges = np.stack([r, (r + 1) % n], 1)
    tails = np.array([[n, 0], [n + 1, n], [5, n + 2], [n + 2, n + 3]])  # in-tail and out-tail
    A = coo(n + 4, np.concatenate([edges, tails]))
    assert check(A, scc, "strong") == 5
    assert check(A, cc, "weak") == 1


# ---------------------------------------------------------------------------------------------
# published answers (../shared/data)
# ---------------------------------------------------------------------------------------------

def lagraph_component_counts(data):
    """{matrix name: number of components} from LAGraph's test_ConnectedComponents.c."""
    text = (data / "small/lagraph/expected/test_ConnectedComponents.c").read_text()
    pairs = re.findall(r"\{\s*(\d+)\s*,\s*\"([^\"]+)\.mtx\"\s*\}", text)
    counts = {name: int(k) for k, name in pairs}
    assert len(counts) >= 10, counts
    return counts


@pytest.mark.data
def test_lagraph_component_counts(shared_data):
    counts = lagraph_component_counts(shared_data)
    # the counts the data README states, as a check on the parsing
    assert counts["karate"] == 1 and counts["LFAT5"] == 3 and counts["LFAT5_two"] == 6
    assert counts["LFAT5_hypersparse"] == 1989 and counts["zenios"] == 1391
    for name, k in counts.items():
        A = sr.io.read(shared_data / f"small/lagraph/{name}.mtx")
        got = cc(A)
        labels = got.to_dense()
        assert int((labels == np.arange(A.nrows)).sum()) == k, name
        assert check(A, cc, "weak") == k, name


def _ldbc_wcc_cases(data):
    from test_published_answers import ldbc_output, read_adjacency, read_e, read_v

    root = data / "small/ldbc_graphalytics"
    cases = []
    for case in ("example-directed", "example-undirected"):
        edges = [(a, b, None) for a, b, _ in read_e(root / f"example/{case}.e")]
        cases.append((case, edges, set(read_v(root / f"example/{case}.v")), case.endswith("-directed"),
                      ldbc_output(root / f"example/{case}-WCC")))
    for case in ("dir", "undir"):
        edges, labels = read_adjacency(root / f"wcc/{case}-input")
        cases.append((case, edges, labels, case == "dir", ldbc_output(root / f"wcc/{case}-output")))
    return cases


@pytest.mark.data
def test_ldbc_wcc(shared_data):
    from test_published_answers import ldbc_graph

    cases = _ldbc_wcc_cases(shared_data)
    assert len(cases) == 4
    for case, edges, labels, directed, expected in cases:
        labels = set(labels) | set(expected)
        assert set(expected) == labels
        A, index = ldbc_graph(edges, labels, directed)
        got = cc(A).to_dense()
        # LDBC labels each vertex by the smallest vertex label of its component; labels are
        # sorted into indices, so that is the smallest index
        for label, value in expected.items():
            assert got[index[label]] == index[int(value)], (case, label)
        check(A, cc, "weak")


@pytest.mark.data
@pytest.mark.parametrize("device", DEVICES)
def test_cnr2000_strongly_connected_components(cnr2000, device):
    A, law = cnr2000
    got = asnumpy(scc(A.to(device)).to_dense())
    assert got.size == law.size == A.nrows
    assert int((got == np.arange(A.nrows)).sum()) == 100_977
    # the same partition as LAW's labels, and labelled by each part's smallest vertex
    np.testing.assert_array_equal(got, min_labels(law))


@pytest.mark.data
def test_cnr2000_weakly_connected_components(cnr2000):
    A, _ = cnr2000
    k, want = scipy_labels(A, "weak")
    np.testing.assert_array_equal(cc(A).to_dense(), want)
    assert k == 1  # the crawl is weakly connected


# ---------------------------------------------------------------------------------------------
# CPU / GPU parity (one body)
# ---------------------------------------------------------------------------------------------

def _parity_graphs():
    return {
        "kronecker9_directed": oriented(sr.generators.kronecker(9, seed=5), 5),
        "grid_directed": oriented(sr.generators.grid(12, 9), 2),
        "rgg": sr.generators.random_geometric(400, radius=0.05, seed=3),
        "chain": coo(50, [(i, i + 1) for i in range(49)] + [(i + 1, i) for i in range(0, 49, 3)]),
        "edgeless": sr.Matrix(9, 9, "bool"),
    }


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(_parity_graphs()))
@pytest.mark.parametrize("f", [cc, scc], ids=["cc", "scc"])
def test_components_on_gpu_match_cpu(f, name):
    from _devices import same

    A = _parity_graphs()[name]
    cpu = f(A)
    dev = f(A.to("gpu"))
    same(cpu, dev)
    np.testing.assert_array_equal(cpu.to_dense(), scipy_labels(A, "weak" if f is cc else "strong")[1])
