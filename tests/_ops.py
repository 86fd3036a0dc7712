"""Helpers of the operator-value tests (tests/ops/test_ops*.py): the dtype lists, an array of
a dtype, the comparison of a result with its expected values in that dtype, and the operands
of the built-in semiring cases with their products worked by hand."""

from __future__ import annotations

import numpy as np

import semiring as sr

B, M, U = sr.binary, sr.monoid, sr.unary
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]


def arr(values, dtype):
    return np.array(values, dtype=dtype)


def check(got, expected, dtype):
    got = np.asarray(got)
    assert got.dtype == np.dtype(dtype), f"dtype {got.dtype}, expected {dtype}"
    np.testing.assert_array_equal(got, np.array(expected, dtype=dtype))


F, T = False, True


# the built-in semirings by hand: A (4x3): row 0: (0,0)=2, (0,1)=3, (0,2)=4; row 1: (1,1)=5; row 2: (2,0)=-1, (2,2)=6; row 3: (3,1)=7
# u: u(0)=10, u(2)=1 (u(1) absent).  Terms (A(i,k), u(k)):
#   row 0: (2, 10), (4, 1);  row 1: none;  row 2: (-1, 10), (6, 1);  row 3: none.
SEMI_A = ([0, 0, 0, 1, 2, 2, 3], [0, 1, 2, 1, 0, 2, 1], [2, 3, 4, 5, -1, 6, 7])
SEMI_U = ([0, 2], [10, 1])
SEMI_EXPECTED = {
    "plus_times": [2 * 10 + 4 * 1, -1 * 10 + 6 * 1],
    "min_plus": [min(12, 5), min(9, 7)],
    "max_plus": [max(12, 5), max(9, 7)],
    "min_times": [min(20, 4), min(-10, 6)],
    "max_times": [max(20, 4), max(-10, 6)],
    "plus_pair": [2, 2],
    "any_pair": [1, 1],
    "min_first": [min(2, 4), min(-1, 6)],
    "min_second": [min(10, 1), min(10, 1)],
    "max_second": [10, 10],
    "min_secondi": [0, 0],       # k in {0, 2}
    "plus_plus": [12 + 5, 9 + 7],
    "max_first": [4, 6],
    "plus_first": [6, 5],
    "plus_second": [11, 11],
    "times_times": [20 * 4, -10 * 6],
    "min_max": [min(10, 4), min(10, 6)],
    "max_min": [max(2, 1), max(-1, 1)],
}
