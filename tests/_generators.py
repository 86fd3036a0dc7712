"""Helpers of the generator tests (tests/generators/test_generators*.py): the entries of a
Matrix as a dict, and the check that a graph is undirected."""

from __future__ import annotations


import numpy as np


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def entries(A):
    r, c, v = A.to_coo()
    return {(int(i), int(j)): x.item() for i, j, x in zip(r, c, v)}


def assert_undirected(A):
    """Square, symmetric in structure and values, without self-loops."""
    assert A.nrows == A.ncols
    r, c, v = A.to_coo()
    assert not np.any(r == c), "self-loop"
    S = A.to_scipy()
    T = S.T.tocsr()
    T.sort_indices()
    S.sort_indices()
    assert np.array_equal(S.indptr, T.indptr) and np.array_equal(S.indices, T.indices), "not structurally symmetric"
    assert np.array_equal(S.data, T.data), "A[i, j] != A[j, i]"
