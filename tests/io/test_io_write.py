"""``semiring.io``: ``write_mtx`` (read back by ``scipy.io.mmread`` and by ``read``), the
networkx conversions, and the progress bar of large reads."""

from __future__ import annotations

import gzip

import numpy as np
import pytest
import scipy.io

import semiring as sr
from semiring import InvalidValue
from _iofiles import entries, scipy_entries


# ---------------------------------------------------------------------------------------------
# write_mtx
# ---------------------------------------------------------------------------------------------
class TestWriteMtx:
    @pytest.mark.parametrize("dtype,vals", [
        ("bool", [True, True, True, True]),
        ("int64", [0, -7, 2**62, np.iinfo(np.int64).min]),
        ("float64", [0.0, 0.1, 1 / 3, -2.5e300]),
    ])
    def test_round_trip(self, tmp_path, dtype, vals):
        A = sr.Matrix.from_coo([0, 1, 2, 2], [1, 3, 0, 2], vals, nrows=3, ncols=4, dtype=dtype)
        p = tmp_path / f"rt_{dtype}.mtx"
        sr.io.write_mtx(p, A, comment="round trip")
        assert p.exists()
        B = sr.io.read(p)
        assert B.isequal(A, check_dtype=True), (entries(A), entries(B))
        # scipy reads the same file to the same entries (stored zeros included)
        got = scipy_entries(scipy.io.mmread(p))
        if dtype == "bool":
            assert set(got) == set(entries(A))
        else:
            assert got == entries(A)
        assert "round trip" in p.read_text()

    def test_round_trip_random(self, tmp_path):
        rng = np.random.default_rng(5)
        for k, dtype in enumerate(["int64", "float64", "bool"]):
            n = 30
            keys = rng.choice(n * n, 100, replace=False)
            if dtype == "bool":
                vals = None
            elif dtype == "int64":
                vals = rng.integers(-(2**40), 2**40, 100)
                vals[::7] = 0
            else:
                vals = rng.standard_normal(100) * 10.0 ** rng.integers(-200, 200, 100)
                vals[::7] = 0.0
            A = sr.Matrix.from_coo(keys // n, keys % n, vals, nrows=n, ncols=n, dtype=dtype)
            p = tmp_path / f"rand{k}.mtx"
            sr.io.write_mtx(p, A)
            assert sr.io.read(p).isequal(A, check_dtype=True)

    def test_empty_round_trip(self, tmp_path):
        A = sr.Matrix.from_coo([], [], None, nrows=3, ncols=5, dtype="float64")
        p = tmp_path / "empty.mtx"
        sr.io.write_mtx(p, A)
        B = sr.io.read(p)
        assert B.shape == (3, 5) and B.nvals == 0

    def test_lower_triangle_explicit_zero_round_trip(self, tmp_path):
        # a single explicit zero below the diagonal: the matrix is not symmetric (A[0, 1] is absent)
        A = sr.Matrix.from_coo([1], [0], [0.0], nrows=2, ncols=2)
        p = tmp_path / "z.mtx"
        sr.io.write_mtx(p, A)
        assert entries(sr.io.read(p)) == {(1, 0): 0.0}

    def test_gz_path(self, tmp_path):
        A = sr.Matrix.from_coo([0, 1], [1, 0], [1.5, 2.5], nrows=2, ncols=2)
        p = tmp_path / "out.mtx.gz"
        sr.io.write_mtx(p, A)
        assert p.exists(), f"write_mtx wrote {sorted(x.name for x in tmp_path.iterdir())}, not out.mtx.gz"
        assert sr.io.read(p).isequal(A, check_dtype=True)

    def test_uint64_beyond_int64_not_wrapped(self, tmp_path):
        # the file's integers are int64 (write_mtx's docstring): a uint64 value above 2**63 - 1
        # is refused before anything is written, never wrapped to a negative number
        big = np.iinfo(np.uint64).max
        A = sr.Matrix.from_coo([0], [1], [big], nrows=2, ncols=2, dtype="uint64")
        p = tmp_path / "u.mtx"
        with pytest.raises(InvalidValue, match=f"write_mtx: uint64 value {big} does not fit the int64 integers "
                                               "written"):
            sr.io.write_mtx(p, A)
        assert not p.exists()
        # the largest value that fits is written as it is
        top = int(np.iinfo(np.int64).max)
        sr.io.write_mtx(p, sr.Matrix.from_coo([0], [1], [top], nrows=2, ncols=2, dtype="uint64"))
        assert f"1 2 {top}" in p.read_text()
        assert entries(sr.io.read(p)) == {(0, 1): top}

    def test_not_a_matrix(self, tmp_path):
        with pytest.raises(InvalidValue):
            sr.io.write_mtx(tmp_path / "x.mtx", np.eye(2))


# -- networkx ---------------------------------------------------------------------------------
def test_networkx_round_trip_keeps_weights_nodes_and_explicit_zeros():
    import networkx as nx

    G = nx.DiGraph()
    G.add_weighted_edges_from([("a", "b", 2.5), ("b", "c", 0.0), ("c", "a", 1.0)])
    G.add_node("lonely")
    A, nodes = sr.io.from_networkx(G, weight="weight")
    assert nodes == ["a", "b", "c", "lonely"] and A.dtype == np.float64 and A.nvals == 3
    assert A.get(1, 2) == 0.0  # an explicit zero is an entry, not an absent edge
    H = sr.io.to_networkx(A, nodes=nodes)
    assert set(H.nodes) == set(G.nodes)
    assert {(u, v, d["weight"]) for u, v, d in H.edges(data=True)} == set(G.edges(data="weight"))


def test_networkx_pattern_int_weights_nodelist_and_multigraph_sums():
    import networkx as nx

    G = nx.karate_club_graph()
    A, nodes = sr.io.from_networkx(G)
    assert A.dtype == np.bool_ and A.nvals == 2 * G.number_of_edges() and nodes == list(range(34))
    W, _ = sr.io.from_networkx(G, weight="weight")
    assert W.dtype == np.int64
    assert int(sr.reduce_scalar(W, sr.monoid.plus)) == 2 * sum(w for _, _, w in G.edges(data="weight"))
    order = list(reversed(range(34)))
    B, nodes = sr.io.from_networkx(G, nodelist=order)
    assert nodes == order and B.get(33 - 0, 33 - 1) is not None  # edge (0, 1) in reversed numbering
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    C, _ = sr.io.from_networkx(M, weight="weight")
    assert C.get(0, 1) == 2 and C.get(1, 2) == 1  # parallel edges add up, missing weights count 1


def test_networkx_bfs_levels_match_networkx():
    import networkx as nx

    G = nx.les_miserables_graph()
    A, nodes = sr.io.from_networkx(G)
    src = nodes.index("Valjean")
    lv = sr.algorithms.bfs(A, src).level.to_dense(-1)
    expect = nx.single_source_shortest_path_length(G, "Valjean")
    assert {nodes[i]: int(d) for i, d in enumerate(lv) if d >= 0} == expect
    back = sr.io.to_networkx(A, nodes=nodes, directed=False)
    assert nx.utils.graphs_equal(nx.Graph(back.edges), nx.Graph(G.edges))


def test_networkx_conversion_errors_say_what_was_expected():
    import networkx as nx

    with pytest.raises(sr.InvalidValue, match="expected a networkx graph"):
        sr.io.from_networkx([(0, 1)])
    with pytest.raises(sr.InvalidValue, match="exactly once"):
        sr.io.from_networkx(nx.path_graph(3), nodelist=[0, 1, 1])
    G = nx.Graph()
    G.add_edge(0, 1, weight="heavy")
    with pytest.raises(sr.InvalidValue, match="must be a number; given 'heavy'"):
        sr.io.from_networkx(G, weight="weight")
    with pytest.raises(sr.DimensionMismatch, match="square"):
        sr.io.to_networkx(sr.Matrix.from_coo([0], [1], nrows=2, ncols=3))
    with pytest.raises(sr.InvalidValue, match="symmetric"):
        sr.io.to_networkx(sr.Matrix.from_coo([0], [1], nrows=2, ncols=2), directed=False)
    with pytest.raises(sr.InvalidValue, match="name each of the 2 rows"):
        sr.io.to_networkx(sr.Matrix.from_coo([0], [1], nrows=2, ncols=2), nodes=["x"])


class _Terminal:
    """A stand-in stderr that says it is a terminal and records what is written."""

    def __init__(self, tty):
        self.tty, self.text = tty, []

    def isatty(self):
        return self.tty

    def write(self, s):
        self.text.append(s)
        return len(s)

    def flush(self):
        pass


@pytest.mark.parametrize("tty", [True, False])
@pytest.mark.parametrize("suffix", [".gr", ".gr.gz", ".mtx", ".mtx.gz", ".txt"])
def test_large_file_reads_show_progress_only_on_a_terminal(tmp_path, monkeypatch, tty, suffix):
    from semiring.io import _text

    n = 300
    u = np.arange(n - 1)
    if suffix.startswith(".gr"):
        body = f"p sp {n} {n - 1}\n" + "".join(f"a {i + 1} {i + 2} {i % 7 + 1}\n" for i in u)
    elif suffix.startswith(".mtx"):
        body = f"%%MatrixMarket matrix coordinate integer general\n{n} {n} {n - 1}\n" + "".join(
            f"{i + 1} {i + 2} {i % 7 + 1}\n" for i in u)
    else:
        body = "".join(f"{i} {i + 1}\n" for i in u)
    path = tmp_path / f"g{suffix}"
    data = body.encode()
    path.write_bytes(gzip.compress(data) if suffix.endswith(".gz") else data)
    err = _Terminal(tty)
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr(_text, "PROGRESS_MIN_BYTES", 0)
    monkeypatch.setattr(_text, "SHOW_PROGRESS", True)
    A = sr.io.read(path)
    r, c, _ = A.to_coo()
    np.testing.assert_array_equal(np.sort(r[r < c]), u)  # the file was read whole through the bar
    shown = "".join(err.text)
    assert (f"reading g{suffix}" in shown) == tty
    # below the size threshold there is no bar even on a terminal
    err.text.clear()
    monkeypatch.setattr(_text, "PROGRESS_MIN_BYTES", path.stat().st_size + 1)
    sr.io.read(path)
    assert "reading" not in "".join(err.text)


@pytest.mark.parametrize("quiet", [False, True])
def test_command_line_quiet_turns_the_reading_bar_off(tmp_path, monkeypatch, capsys, quiet):
    from semiring.cli import main
    from semiring.io import _text

    path = tmp_path / "g.gr"
    path.write_text("p sp 3 2\na 1 2 1\na 2 3 1\n")
    err = _Terminal(True)
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr(_text, "PROGRESS_MIN_BYTES", 0)
    monkeypatch.setattr(_text, "SHOW_PROGRESS", True)
    assert main(["bfs", str(path), "--source", "0"] + (["--quiet"] if quiet else [])) == 0
    assert ("reading g.gr" in "".join(err.text)) == (not quiet)
    assert "bfs from 0" in capsys.readouterr().out
