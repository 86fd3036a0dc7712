"""Louvain on the GPU (``semiring.backends.gpu.louvain``) against networkx and a NumPy model.

Oracles:

- networkx's own ``louvain_communities`` (backend="networkx"): on every graph of the collection
  the device partition's modularity is at least the best of networkx's seeds 0-4 (seed 0 alone
  on the road network, for time), at the same resolution;
- networkx's and the engine's ``modularity`` of the device partition: equal (so the labels are a
  valid partition whose quality is what the method claims);
- ``tests/_louvain_model.py``, a whole-array NumPy model of the same rounds written from the
  module's description: the device labels equal the model's exactly (the weights are fixed
  point, so the device is deterministic and its sums exact);
- connected components (scipy) at resolution 0, where one community per component is optimal.

The collection (public graphs): networkx's karate_club_graph (weighted), davis_southern_women,
florentine_families, les_miserables (weighted); LAGraph's karate, jagmesh7, bcsstk13 (pattern),
test_FW_2003, zenios, ldbc-undirected-example, A, tree-example; the DIMACS coloring graphs anna,
huck, homer, le450_5a, miles250, queen8_8, myciel7, games120; DIMACS USA-road-t.NY (pattern and
travel times); Graph500 Kronecker scales 10 and 12.

The tests not marked ``gpu`` run the module's host code on a NumPy stand-in for CuPy with the
kernels emulated by the model (every launch's arguments checked against the CUDA signature), so
the levels, coarsening, union of copies, refinement and choice of a copy are checked without a
GPU; the ``gpu`` tests check the same launches' arguments on the device.
"""

from __future__ import annotations

import functools

import networkx as nx
import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph

import _louvain_model as model
import semiring as sr
from semiring.algorithms import community
from semiring.backends._xp import asnumpy
from semiring.backends.gpu import louvain as dev
from _nxgraphs import to_nx

gpu = pytest.mark.gpu
NX = {"backend": "networkx"}


# ---------------------------------------------------------------------------------------------
# the collection
# ---------------------------------------------------------------------------------------------

def from_nx(G):
    S = nx.to_scipy_sparse_array(G, nodelist=list(G), weight="weight", dtype=np.float64)
    return sr.Matrix.from_scipy(S)


def _file(path, pattern=False):
    def load(data):
        A = sr.io.read(data / path)
        return sr.apply(A, sr.unary.one).dup("bool") if pattern else A
    return load


def _nx_graph(make):
    return lambda data: from_nx(nx.convert_node_labels_to_integers(make()))


#: name -> (loader(data dir) -> Matrix on the CPU, needs ../shared/data)
SMALL = {
    "nx_karate": (_nx_graph(nx.karate_club_graph), False),
    "nx_davis_southern_women": (_nx_graph(nx.davis_southern_women_graph), False),
    "nx_florentine_families": (_nx_graph(nx.florentine_families_graph), False),
    "nx_les_miserables": (_nx_graph(nx.les_miserables_graph), False),
    "kronecker10": (lambda data: sr.generators.kronecker(10, seed=1), False),
    "kronecker12": (lambda data: sr.generators.kronecker(12, seed=1), False),
    "karate": (_file("small/lagraph/karate.mtx"), True),
    "jagmesh7": (_file("small/lagraph/jagmesh7.mtx"), True),
    "bcsstk13": (_file("small/lagraph/bcsstk13.mtx", pattern=True), True),
    "test_FW_2003": (_file("small/lagraph/test_FW_2003.mtx"), True),
    "zenios": (_file("small/lagraph/zenios.mtx"), True),
    "ldbc-undirected-example": (_file("small/lagraph/ldbc-undirected-example.mtx"), True),
    "A": (_file("small/lagraph/A.mtx"), True),
    "tree-example": (_file("small/lagraph/tree-example.mtx"), True),
    **{name: (_file(f"coloring/{name}.col"), True)
       for name in ("anna", "huck", "homer", "le450_5a", "miles250", "queen8_8", "myciel7", "games120")},
}
ROADS = {
    "USA-road-t.NY pattern": (_file("roads/USA-road-t.NY.gr.gz", pattern=True), True),
    "USA-road-t.NY": (_file("roads/USA-road-t.NY.gr.gz"), True),
}


def _params(graphs):
    return [pytest.param(name, marks=[pytest.mark.data] if data else []) for name, (_, data) in graphs.items()]


@functools.lru_cache(maxsize=None)
def _loaded(name, data):
    load, _ = {**SMALL, **ROADS}[name]
    return load(data)


def load(name, request):
    """(the named graph on the CPU, its data folder or None); graphs from ../shared/data through
    the shared_data fixture (which fails under CI=true when the folder is missing)."""
    needs = {**SMALL, **ROADS}[name][1]
    data = request.getfixturevalue("shared_data") if needs else None
    return _loaded(name, data), data


@functools.lru_cache(maxsize=None)
def nx_best(name, data, seeds):
    """networkx's best Louvain modularity over ``seeds`` (its own implementation)."""
    G = to_nx(_loaded(name, data))
    return max(nx.community.modularity(G, nx.community.louvain_communities(G, seed=s, **NX), **NX) for s in seeds)


def check_labels(lab, n):
    """int64, every vertex labelled, labels 0..K-1 numbered in order of their smallest vertex."""
    assert lab.dtype == np.int64 and lab.size == n and lab.nvals == n
    x = asnumpy(lab.to_dense())
    if n:
        first = [int(np.flatnonzero(x == c)[0]) for c in range(int(x.max()) + 1)]
        assert first == sorted(first) and first[0] == 0
    return x


def parts(x):
    return [set(np.flatnonzero(x == c).tolist()) for c in range(int(x.max()) + 1)] if x.size else []


def scipy_of(A):
    return A.to_scipy().tocsr().astype(np.float64)


# ---------------------------------------------------------------------------------------------
# argument checks of every launch on the device
# ---------------------------------------------------------------------------------------------

class _Checked:
    def __init__(self, name, kern, sigs):
        self.name, self.kern, self.sigs = name, kern, sigs

    def __getattr__(self, attr):  # .kernel (occupancy) and the rest: the real kernel's
        return getattr(self.kern, attr)

    def __call__(self, grid, block, args):
        model.check_args(self.name, args, self.sigs)
        return self.kern(grid, block, args)


@pytest.fixture(autouse=True)
def _checked_launches(request, monkeypatch):
    if request.node.get_closest_marker("gpu") is None:
        return
    sigs = model.signatures()
    real = dev._kern
    monkeypatch.setattr(dev, "_kern", lambda name: _Checked(name, real(name), sigs))


# ---------------------------------------------------------------------------------------------
# the device against networkx and the model
# ---------------------------------------------------------------------------------------------

def _device_case(name, request, seeds):
    A, data = load(name, request)
    lab = sr.algorithms.louvain(A.to("gpu"))
    assert lab.device == "gpu"
    x = check_labels(lab, A.nrows)
    G = to_nx(A)
    q = sr.algorithms.modularity(A, lab.to("cpu"))
    assert q == pytest.approx(nx.community.modularity(G, parts(x), **NX), rel=1e-9, abs=1e-12)
    assert sr.algorithms.modularity(A.to("gpu"), lab) == pytest.approx(q, rel=1e-12, abs=1e-12)
    assert q >= nx_best(name, data, seeds) - 1e-12
    return A, x


@gpu
@pytest.mark.parametrize("name", _params(SMALL))
def test_device_beats_networkx_and_equals_the_model(name, request):
    A, x = _device_case(name, request, (0, 1, 2, 3, 4))
    np.testing.assert_array_equal(x, model.louvain(scipy_of(A)))


@gpu
@pytest.mark.parametrize("name", _params(ROADS))
def test_device_on_the_road_network(name, request):
    A, x = _device_case(name, request, (0,))
    np.testing.assert_array_equal(x, model.louvain(scipy_of(A)))


@functools.lru_cache(maxsize=1)
def _rgg():
    return sr.generators.random_geometric(2**11, seed=3, weights=(0.5, 2.0))


@functools.lru_cache(maxsize=None)
def _rgg_nx_best(resolution):
    G = to_nx(_rgg())
    return max(nx.community.modularity(G, nx.community.louvain_communities(G, seed=s, resolution=resolution, **NX),
                                       resolution=resolution, **NX) for s in range(3))


@gpu
@pytest.mark.parametrize("seed", [1, 7])
@pytest.mark.parametrize("deactivation", [0.0, 0.5])
@pytest.mark.parametrize("resolution", [0.5, 1.0, 2.0])
def test_device_parameters_equal_the_model(seed, deactivation, resolution):
    A = _rgg()
    lab = sr.algorithms.louvain(A.to("gpu"), seed=seed, deactivation=deactivation, resolution=resolution)
    x = check_labels(lab, A.nrows)
    want = model.louvain(scipy_of(A), seed=seed, deactivation=deactivation, resolution=resolution)
    np.testing.assert_array_equal(x, want)
    q = sr.algorithms.modularity(A, lab.to("cpu"), resolution=resolution)
    assert q >= _rgg_nx_best(resolution) - 1e-12


@gpu
def test_device_levels_and_threshold():
    A = sr.generators.kronecker(12, seed=2)
    Ad = A.to("gpu")
    full = sr.algorithms.louvain(Ad, seed=3)
    one = sr.algorithms.louvain(Ad, seed=3, max_level=1)
    q_one, q_full = (sr.algorithms.modularity(A, x.to("cpu")) for x in (one, full))
    assert q_one < q_full
    # a threshold above any gain stops every copy after its first level: max_level=1's result
    assert sr.algorithms.louvain(Ad, seed=3, threshold=1.0).isequal(one)
    for kw in ({"max_level": 1}, {"max_level": 2}, {"threshold": 1.0}, {"threshold": -1.0}):
        got = asnumpy(sr.algorithms.louvain(Ad, seed=3, **kw).to_dense())
        np.testing.assert_array_equal(got, model.louvain(scipy_of(A), seed=3, **kw))


@gpu
@pytest.mark.parametrize("block_deg, hub_deg", [(8, 40), (64, 300)])
def test_device_degree_tiers_equal_the_model(block_deg, hub_deg, monkeypatch):
    # low tiers put many vertices in the block tier and make hubs (own class, whole grid)
    monkeypatch.setattr(dev, "BLOCK_DEG", block_deg)
    monkeypatch.setattr(dev, "HUB_DEG", hub_deg)
    for A in (sr.generators.kronecker(10, seed=1), sr.generators.random_geometric(2**11, seed=3, weights=(0.5, 2.0))):
        for deactivation in (0.0, 0.1):
            lab = sr.algorithms.louvain(A.to("gpu"), deactivation=deactivation)
            want = model.louvain(scipy_of(A), deactivation=deactivation)
            np.testing.assert_array_equal(check_labels(lab, A.nrows), want)


@gpu
def test_device_is_deterministic_and_caches_per_graph():
    A = sr.generators.kronecker(12, seed=4, weights=(1, 20)).dup("float64")
    G = sr.algorithms.Graph(A.to("gpu"))
    one = sr.algorithms.louvain(G, seed=11)
    assert "louvain_start" in G.derived()
    for _ in range(3):
        assert sr.algorithms.louvain(G, seed=11).isequal(one)
    assert sr.algorithms.louvain(A.to("gpu"), seed=11).isequal(one)
    # seed None: a valid partition
    check_labels(sr.algorithms.louvain(G, seed=None), A.nrows)


@gpu
def test_device_edge_cases():
    def dev_lab(A, **kw):
        lab = sr.algorithms.louvain(A.to("gpu"), **kw)
        assert lab.device == "gpu"
        return check_labels(lab, A.nrows)

    # empty graph, isolated vertices, self-loops only, zero weights only: every vertex alone
    assert dev_lab(sr.Matrix(0, 0, "bool")).tolist() == []
    assert dev_lab(sr.Matrix(5, 5, "bool")).tolist() == list(range(5))
    loops = sr.Matrix.from_coo([0, 1, 2], [0, 1, 2], [1.0, 2.0, 3.0], nrows=4, ncols=4)
    assert dev_lab(loops).tolist() == [0, 1, 2, 3]
    zeros = sr.Matrix.from_coo([0, 1], [1, 0], [0.0, 0.0], nrows=3, ncols=3)
    assert dev_lab(zeros).tolist() == [0, 1, 2]
    # two vertices: together; with heavy self-loops each stays apart (networkx's convention)
    assert dev_lab(sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 1.0], nrows=2, ncols=2)).tolist() == [0, 0]
    B = sr.Matrix.from_coo([0, 1, 0, 1], [1, 0, 0, 1], [1.0, 1.0, 100.0, 100.0], nrows=2, ncols=2)
    assert dev_lab(B).tolist() == [0, 1]
    # disconnected: two triangles and an isolated vertex; a ring of cliques; weights decide
    T = from_nx(nx.disjoint_union_all([nx.complete_graph(3), nx.empty_graph(1), nx.complete_graph(3)]))
    assert dev_lab(T).tolist() == [0, 0, 0, 1, 2, 2, 2]
    assert dev_lab(from_nx(nx.ring_of_cliques(6, 5))).tolist() == [v // 5 for v in range(30)]
    P = sr.Matrix.from_coo([0, 1, 1, 2, 2, 3], [1, 0, 2, 1, 3, 2], [10.0, 10.0, 1.0, 1.0, 10.0, 10.0], nrows=4, ncols=4)
    assert dev_lab(P).tolist() == [0, 0, 1, 1]
    # bool, int and float weights of one structure: one result
    R = sr.apply(from_nx(nx.ring_of_cliques(4, 4)), sr.unary.one)
    want = dev_lab(R)
    for dt in ("bool", "int64", "int32"):
        np.testing.assert_array_equal(dev_lab(R.dup(dt)), want)
    # weighted, with self-loops: equal to the model, and no community spans two components
    rng = np.random.default_rng(5)
    H = nx.disjoint_union(nx.gnm_random_graph(60, 200, seed=1), nx.gnm_random_graph(40, 120, seed=2))
    for u, v in H.edges():
        H[u][v]["weight"] = float(rng.uniform(0.1, 5.0))
    for v in (0, 7, 70):
        H.add_edge(v, v, weight=3.0)
    A = from_nx(H)
    x = dev_lab(A)
    np.testing.assert_array_equal(x, model.louvain(scipy_of(A)))
    _, comp = csgraph.connected_components(scipy_of(A), directed=False)
    for p in parts(x):
        assert len({int(comp[v]) for v in p}) == 1


@gpu
def test_device_resolution_zero_gives_connected_components():
    for A in (sr.generators.random_geometric(600, radius=0.04, seed=3), sr.generators.kronecker(8, seed=2),
              from_nx(nx.disjoint_union_all([nx.path_graph(9), nx.cycle_graph(5), nx.star_graph(4)]))):
        _, comp = csgraph.connected_components(scipy_of(A), directed=False)
        x = asnumpy(sr.algorithms.louvain(A.to("gpu"), resolution=0.0).to_dense())
        assert sorted(map(sorted, parts(x))) == sorted(map(sorted, parts(comp)))


@gpu
def test_device_host_reads_per_level():
    A = sr.generators.kronecker(12, seed=1)
    G = sr.algorithms.Graph(A.to("gpu"))
    W = community._weights(G, "louvain")
    start = G.louvain_start("louvain")  # the level-0 data, kept on G
    dev.louvain(W.W, W.two_m, 1.0, 1e-7, 0, None, True, start=start)  # warm
    stats = {}
    with sr.host_reads() as hr:
        dev.louvain(W.W, W.two_m, 1.0, 1e-7, 0, None, True, stats=stats, start=start)
    # per level: the counters and the coarse size; at the end the copies' modularity
    assert hr.count == stats["host_reads"] <= 2 * stats["levels"] + 2


# ---------------------------------------------------------------------------------------------
# the host code on a NumPy stand-in for CuPy (no GPU)
# ---------------------------------------------------------------------------------------------

def _standin_run(monkeypatch, A, **kw):
    log = model.install_stand_in(monkeypatch)
    G = sr.algorithms.Graph(A)
    W = community._weights(G, "louvain")
    args = dict(gamma=1.0, threshold=1e-7, seed=0, max_level=None, prune=True)
    args.update(kw)
    stats = {}
    got = dev.louvain(W.W, W.two_m, args["gamma"], args["threshold"], args["seed"], args["max_level"],
                      args["prune"], stats=stats)
    return np.asarray(got), log, stats


@pytest.mark.parametrize("name", [p for p in _params(SMALL) if p.values[0] in
                                  ("nx_karate", "nx_les_miserables", "kronecker10", "jagmesh7", "miles250",
                                   "queen8_8", "zenios")])
def test_host_code_on_stand_in_equals_the_model(name, request, monkeypatch):
    A, _ = load(name, request)
    got, log, stats = _standin_run(monkeypatch, A)
    np.testing.assert_array_equal(got, model.louvain(scipy_of(A)))
    # a coloring and a local moving per level tried, a refinement per level kept
    assert log.count("louvain_color") == stats["colorings"] >= stats["levels"] >= 1
    assert log.count("louvain_move") == stats["colorings"] + stats["levels"]


@pytest.mark.parametrize("kw, model_kw", [
    ({"seed": 5, "gamma": 2.0}, {"seed": 5, "resolution": 2.0}),
    ({"prune": False}, {"deactivation": 0.0}),
    ({"max_level": 1}, {"max_level": 1}),
    ({"threshold": 1.0}, {"threshold": 1.0}),
    ({"gamma": 0.0}, {"resolution": 0.0}),
])
def test_host_code_parameters_on_stand_in(kw, model_kw, monkeypatch):
    A = sr.generators.random_geometric(600, seed=4, weights=(0.5, 2.0))
    got, _, _ = _standin_run(monkeypatch, A, **kw)
    np.testing.assert_array_equal(got, model.louvain(scipy_of(A), **model_kw))


@pytest.mark.parametrize("block_deg, hub_deg", [(8, 40), (64, 300)])
def test_host_code_degree_tiers_on_stand_in(block_deg, hub_deg, monkeypatch):
    monkeypatch.setattr(dev, "BLOCK_DEG", block_deg)
    monkeypatch.setattr(dev, "HUB_DEG", hub_deg)
    A = sr.generators.kronecker(10, seed=1)
    assert int(np.diff(scipy_of(A).indptr).max()) > hub_deg
    got, _, _ = _standin_run(monkeypatch, A)
    np.testing.assert_array_equal(got, model.louvain(scipy_of(A)))


def test_host_code_edge_cases_on_stand_in(monkeypatch):
    loops = sr.Matrix.from_coo([0, 1, 2], [0, 1, 2], [1.0, 2.0, 3.0], nrows=4, ncols=4)
    got, log, stats = _standin_run(monkeypatch, loops)
    assert got.tolist() == [0, 1, 2, 3] and stats["levels"] == 0 and log.count("louvain_move") == 1
    H = nx.disjoint_union(nx.complete_graph(4), nx.path_graph(5))
    H.add_edge(2, 2, weight=2.0)
    A = from_nx(H)
    got, _, _ = _standin_run(monkeypatch, A)
    np.testing.assert_array_equal(got, model.louvain(scipy_of(A)))
    assert got.tolist()[:4] == [0, 0, 0, 0]


def test_copies_and_seeds():
    assert dev.copies_for(10, 5) == dev.ENSEMBLE_MAX
    assert dev.copies_for(dev.ENSEMBLE_ENTRIES // 3, 100) == 3
    assert dev.copies_for(10**7, 10**6) == 1
    assert dev.copies_for(10, 2**30) == 1  # R * n must stay below 2**31
    assert dev.level_seed(5, 0) == 5 and dev.level_seed(0, 1) == dev.GOLDEN
    assert 0 <= dev.level_seed(2**64 - 1, 3) < 2**64


# ---------------------------------------------------------------------------------------------
# the model itself against networkx (the formulation's quality, without a GPU)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", [p for p in _params(SMALL) if p.values[0] in
                                  ("nx_karate", "nx_davis_southern_women", "nx_florentine_families",
                                   "nx_les_miserables", "karate", "A", "anna", "queen8_8", "myciel7",
                                   "kronecker10")])
def test_model_reaches_networkx(name, request):
    A, data = load(name, request)
    x = model.louvain(scipy_of(A))
    q = sr.algorithms.modularity(A, sr.Vector.from_dense(x))
    assert q >= nx_best(name, data, (0, 1, 2, 3, 4)) - 1e-12
