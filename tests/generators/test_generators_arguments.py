"""``semiring.generators``: bad arguments raise InvalidValue naming the argument, what was
expected and what was given; a graph too big for the memory is refused before allocating, and
the estimate bounds the build; any arguments give a graph or a library error (Hypothesis)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring import InvalidValue
from semiring.generators import grid, kronecker, random_geometric
from _generators import assert_undirected


# ---------------------------------------------------------------------------------------------
# bad arguments
# ---------------------------------------------------------------------------------------------
BAD = [
    ("kron_scale_0", kronecker, (0,), {}),
    ("kron_scale_negative", kronecker, (-1,), {}),
    ("kron_scale_41", kronecker, (41,), {}),
    ("kron_scale_32", kronecker, (32,), {}),  # 2**64 positions: beyond a Matrix
    ("kron_scale_float", kronecker, (2.5,), {}),
    ("kron_scale_bool", kronecker, (True,), {}),
    ("kron_scale_str", kronecker, ("3",), {}),
    ("kron_edge_factor_negative", kronecker, (3, -1), {}),
    ("kron_probabilities_sum", kronecker, (3,), {"a": 0.5, "b": 0.3, "c": 0.3}),
    ("kron_a_zero", kronecker, (3,), {"a": 0.0}),
    ("kron_a_nan", kronecker, (3,), {"a": float("nan")}),
    ("kron_weights_reversed", kronecker, (3,), {"weights": (5, 1)}),
    ("kron_weights_str", kronecker, (3,), {"weights": "x"}),
    ("kron_weights_triple", kronecker, (3,), {"weights": (1, 2, 3)}),
    ("kron_device", kronecker, (3,), {"device": "tpu"}),
    ("grid_no_dims", grid, (), {}),
    ("grid_four_dims", grid, (1, 2, 3, 4), {}),
    ("grid_negative", grid, (-1, 3), {}),
    ("grid_float", grid, (2.0, 3), {}),
    ("grid_weights_reversed", grid, (3, 3), {"weights": (3, 1)}),
    ("rgg_n_1", random_geometric, (1,), {}),
    ("rgg_n_0", random_geometric, (0,), {}),
    ("rgg_n_float", random_geometric, (2.5,), {}),
    ("rgg_radius_zero", random_geometric, (10, 0), {}),
    ("rgg_radius_negative", random_geometric, (10, -1.0), {}),
    ("rgg_radius_nan", random_geometric, (10, float("nan")), {}),
    ("rgg_radius_str", random_geometric, (10, "abc"), {}),
    ("rgg_weights_unknown", random_geometric, (10,), {"weights": "other"}),
]


@pytest.mark.parametrize("name,fn,args,kwargs", BAD, ids=[b[0] for b in BAD])
def test_bad_arguments(name, fn, args, kwargs):
    with pytest.raises(InvalidValue) as info:
        fn(*args, **kwargs)
    assert type(info.value) is InvalidValue
    assert str(info.value)


def test_gpu_device_unavailable_is_a_semiring_error():
    try:
        import cupy  # noqa: F401
    except ImportError:
        with pytest.raises(sr.BackendUnavailable):
            kronecker(3, device="gpu")
    else:
        pytest.skip("CuPy present: the GPU device may be available")


def test_seed_none_draws_a_fresh_graph():
    A, B = kronecker(8, seed=None), kronecker(8, seed=None)
    assert_undirected(A)
    assert not A.isequal(B)


@pytest.mark.parametrize("fn, args", [(kronecker, (3,)), (grid, (3, 3)), (random_geometric, (10,))])
@pytest.mark.parametrize("seed", [-1, 1.5, True, "1"])
def test_bad_seed(fn, args, seed):
    with pytest.raises(InvalidValue, match="seed"):
        fn(*args, seed=seed)


@pytest.mark.parametrize("weights", [(2.0, 1.0), (0.0, float("inf")), (float("nan"), 1.0), (0, 2**63),
                                     (-(2**63) - 1, 0)])
def test_bad_weight_bounds(weights):
    with pytest.raises(InvalidValue, match="weights"):
        kronecker(3, weights=weights)


# every argument named in the message (what was expected and what was given)
NAMED = [
    (kronecker, (3,), {"a": "x"}, "expected numbers a, b, c"),
    (kronecker, (3,), {"b": None}, "expected numbers a, b, c"),
    (kronecker, (3,), {"c": True}, "expected numbers a, b, c"),
    (kronecker, (3,), {"a": 0.6, "b": 0.2, "c": 0.2}, "a + b + c < 1"),
    (kronecker, (3,), {"b": -0.1}, "b >= 0"),
    (kronecker, (0,), {}, "kronecker: scale must be an integer in [1, 31]; given 0"),
    (kronecker, (np.int64(40),), {}, "kronecker: scale must be an integer in [1, 31]; given 40"),
    (kronecker, (2**70,), {}, "kronecker: scale must be an integer in [1, 31]"),
    (kronecker, (None,), {}, "kronecker: scale must be an integer in [1, 31]; given None"),
    (kronecker, (10, 2**53), {}, "kronecker: edge_factor (scale 10) must be an integer in [1, 9007199254740991]; "
                                 "given 9007199254740992"),
    (kronecker, (10, 2.0), {}, "kronecker: edge_factor (scale 10) must be an integer in [1, "),
    (kronecker, (10, 0), {}, "kronecker: edge_factor (scale 10) must be an integer in [1, "),
    (kronecker, (3,), {"weights": ("1", "2")}, "weights: expected (low, high) numbers; given ('1', '2')"),
    (kronecker, (3,), {"weights": (1, None)}, "weights: expected (low, high) numbers"),
    (kronecker, (3,), {"weights": [1, 2]}, "weights: expected None or a (low, high) tuple"),
    (kronecker, (3,), {"weights": (True, 2)}, "weights: expected (low, high) numbers"),
    (kronecker, (3,), {"weights": (1.5, 10**400)}, "weights: expected finite (low, high)"),
    (kronecker, (3,), {"a": 10**400}, "a + b + c < 1"),
    (random_geometric, (10, 10**400), {}, "expected a positive finite radius"),
    (grid, (3000000000, 3000000000), {}, "3000000000 x 3000000000 give 9,000,000,000,000,000,000 vertices; "
                                         "expected at most 3,037,000,499"),
    (grid, (2**62, 2, 2), {}, "expected at most 3,037,000,499"),
    (grid, (3037000500,), {}, "expected at most 3,037,000,499"),
    (grid, (True, 3), {}, "grid: side 0 must be an integer >= 1; given True"),
    (grid, (3, 0), {}, "grid: side 1 must be an integer >= 1; given 0"),
    (grid, (3, "3"), {}, "grid: side 1 must be an integer >= 1; given '3'"),
    (grid, (3, 3), {"weights": (1, "9")}, "weights: expected (low, high) numbers"),
    (random_geometric, (3037000500,), {}, "random_geometric: n must be an integer in [2, 3037000499]; "
                                          "given 3037000500"),
    (random_geometric, (np.float64(100),), {}, "random_geometric: n must be an integer in [2, 3037000499]"),
    (random_geometric, (10, math.inf), {}, "expected a positive finite radius; given inf"),
    (random_geometric, (10, True), {}, "expected a positive finite radius; given True"),
    (random_geometric, (10, "0.1"), {}, "expected a positive finite radius; given '0.1'"),
    (random_geometric, (10, np.array([0.1, 0.2])), {}, "expected a positive finite radius"),
    (random_geometric, (10,), {"weights": np.array([1, 2])}, "weights: expected None, 'distance' or a (low, high)"),
    (random_geometric, (10,), {"weights": (3, 1)}, "weights: expected (low, high) with low <= high"),
]


@pytest.mark.parametrize("fn,args,kwargs,message", NAMED, ids=[f"{f.__name__}-{m[:30]}" for f, _, _, m in NAMED])
def test_bad_arguments_name_the_argument(fn, args, kwargs, message):
    with pytest.raises(InvalidValue) as info:
        fn(*args, **kwargs)
    assert type(info.value) is InvalidValue
    assert message in str(info.value), str(info.value)


# ---------------------------------------------------------------------------------------------
# memory: refused before allocating, and the estimate bounds the build
# ---------------------------------------------------------------------------------------------
TOO_BIG = [  # each needs well over 64 MiB (below that the memory is not looked at)
    (kronecker, (20,), {}, "kronecker(scale=20, edge_factor=16): 1,048,576 vertices"),
    (kronecker, (12, 2**20), {"weights": (1, 255)}, "kronecker(scale=12, edge_factor=1048576)"),
    (kronecker, (31,), {}, "kronecker(scale=31, edge_factor=16)"),
    (grid, (3000, 3000), {}, "grid(3000, 3000): 9,000,000 vertices"),
    (grid, (300, 300, 300), {"weights": (1.0, 2.0)}, "grid(300, 300, 300)"),
    (grid, (55108, 55108), {}, "grid(55108, 55108)"),
    (random_geometric, (2**21,), {}, "random_geometric(n=2097152"),
    (random_geometric, (10**4, 1.0), {}, "random_geometric(n=10000, radius=1)"),  # 5 * 10**7 pairs
    (random_geometric, (10**4, 0.5), {"weights": "distance"}, "random_geometric(n=10000, radius=0.5)"),
]


@pytest.mark.parametrize("fn,args,kwargs,what", TOO_BIG, ids=[w[:28] for _, _, _, w in TOO_BIG])
def test_out_of_memory_before_allocating(monkeypatch, fn, args, kwargs, what):
    import tracemalloc

    import semiring._memory as memory

    monkeypatch.setattr(memory, "available_bytes", lambda device="cpu": 2**20)  # 1 MiB free
    tracemalloc.start()
    try:
        with pytest.raises(sr.OutOfMemory) as info:
            fn(*args, **kwargs)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert what in str(info.value) and "of cpu memory; 1.00 MiB is free" in str(info.value)
    assert peak < 2**20, f"{peak} bytes allocated before the refusal"


def test_graphs_that_fit_are_built(monkeypatch):
    import semiring._memory as memory

    # 200 MiB free: a scale-12 Kronecker graph (about 10 MiB at its peak) is built
    monkeypatch.setattr(memory, "available_bytes", lambda device="cpu": 200 * 2**20)
    assert kronecker(12).nrows == 4096
    assert grid(300, 300).nrows == 90000


@pytest.mark.parametrize("call", [
    "kronecker(12)", "kronecker(12, weights=(1, 255))", "grid(300, 300)", "grid(300, 300, weights=(1, 9))",
    "grid(40, 40, 40, weights=(1.0, 9.0))", "random_geometric(2**14)", "random_geometric(2**14, weights='distance')",
    "random_geometric(2**12, radius=0.1, weights=(1, 255))",
])
def test_memory_estimate_bounds_the_build(monkeypatch, call):
    # the estimate given to require() is at least the traced peak of the build (so a graph is not
    # built into memory it was promised not to need) and at most twice it (so one that fits is
    # not refused)
    import tracemalloc

    import semiring._memory as memory

    seen = []
    monkeypatch.setattr(memory, "require", lambda nbytes, what, device="cpu": seen.append(nbytes))
    tracemalloc.start()
    try:
        eval(call, {"kronecker": kronecker, "grid": grid, "random_geometric": random_geometric})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(seen) == 1
    assert peak <= seen[0] <= 2 * peak, (peak, seen[0])


JUNK = st.one_of(st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=4),
                st.integers(-(2**70), 2**70), st.tuples(st.integers(), st.integers()),
                st.sampled_from([np.int64(5), np.float64(0.5), np.int8(-1), (1.0, math.inf), "distance", 10**400,
                                 (10**400, 1.5), (-(10**400), 1)]))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(fn=st.sampled_from(["kronecker", "grid", "random_geometric"]), first=st.integers(2, 9),
       second=st.integers(1, 9), seed=st.integers(0, 2**65),
       weights=st.one_of(st.none(), st.tuples(st.integers(-3, 3), st.integers(3, 6))),
       bad=st.sampled_from([None, "first", "second", "seed", "weights"]), junk=JUNK)
def test_any_arguments_give_a_graph_or_a_library_error(fn, first, second, seed, weights, bad, junk):
    # one argument at a time (or none) replaced by junk; positional sizes: kronecker(scale,
    # edge_factor), grid(side, side), random_geometric(n, radius). 32 MiB free, so that large
    # valid sizes are refused by the memory check instead of built
    import semiring._memory as memory

    kwargs = {"first": first, "second": second, "seed": seed, "weights": weights}
    if bad is not None:
        kwargs[bad] = junk
    saved = memory.available_bytes
    memory.available_bytes = lambda device="cpu": 32 * 2**20
    try:
        f = {"kronecker": kronecker, "grid": grid, "random_geometric": random_geometric}[fn]
        A = f(kwargs["first"], kwargs["second"], seed=kwargs["seed"], weights=kwargs["weights"])
    except (InvalidValue, sr.OutOfMemory) as exc:
        assert bad is not None, f"valid arguments refused: {exc}"
        assert type(exc) in (InvalidValue, sr.OutOfMemory) and str(exc)
    else:
        assert A.nrows == A.ncols >= 1
    finally:
        memory.available_bytes = saved
