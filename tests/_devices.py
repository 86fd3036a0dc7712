"""Helpers for tests that run on the CPU and on the GPU.

``DEVICES`` parametrizes one test body over ``"cpu"`` and ``"gpu"``
(``@pytest.mark.parametrize("device", DEVICES)``; the latter is marked ``gpu``: skipped with
CuPy's reason where no GPU is present, see conftest.py); ``same`` compares a GPU result with the CPU's; ``random_matrix`` and
``random_vector`` draw the operands of the parity tests over ``SEMIRINGS``; ``no_host_build``
makes a build of a Matrix on the device fail if it passes through the host.
"""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring.backends._xp import asnumpy

DEVICES = ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)]

SEMIRINGS = ["plus_times", "min_plus", "max_second", "lor_land", "any_pair", "plus_pair", "min_secondi",
             "any_secondi", "min_first", "max_times", "bor_second"]


def random_matrix(rng, m, n, density, dtype):
    """An m x n Matrix of dtype with about ``density * m * n`` entries at distinct random positions
    (values 0..4; bool: values above 1)."""
    nnz = int(m * n * density)
    keys = rng.choice(m * n, size=nnz, replace=False) if m * n else np.zeros(0, int)
    vals = rng.integers(0, 5, nnz)
    if dtype == "bool":
        vals = vals > 1
    return sr.Matrix.from_coo(keys // max(n, 1), keys % max(n, 1), vals.astype(dtype), nrows=m, ncols=n,
                              dtype=dtype)


def random_vector(rng, n, density, dtype):
    """A Vector of size n and dtype with ``int(n * density)`` entries (values as ``random_matrix``)."""
    nnz = int(n * density)
    idx = rng.choice(n, size=nnz, replace=False) if n else np.zeros(0, int)
    vals = rng.integers(0, 5, nnz)
    if dtype == "bool":
        vals = vals > 1
    return sr.Vector.from_coo(idx, vals.astype(dtype), size=n, dtype=dtype)


def no_host_build(monkeypatch):
    """Make Matrix.from_coo fail where it would copy the entries to the host: a device build
    must keep them on the GPU."""
    from semiring.core import _interop

    def boom(*args, **kwargs):
        raise AssertionError("Matrix.from_coo copied the entries to the host")

    monkeypatch.setattr(_interop, "host_array", boom)


def same(cpu, dev, any_value=False):
    """The GPU result equals the CPU result: same kind, shape, dtype, positions and values
    (positions only with ``any_value``: an ``any`` monoid may keep a different term)."""
    assert type(cpu) is type(dev)
    assert dev.device == "gpu"
    assert cpu.shape == dev.shape and cpu.dtype == dev.dtype
    a = [asnumpy(t) for t in cpu.to_coo()]
    b = [asnumpy(t) for t in dev.to_coo()]
    for x, y in zip(a[:-1], b[:-1]):
        np.testing.assert_array_equal(x, y)
    if any_value:
        return
    if a[-1].dtype.kind == "f":
        np.testing.assert_allclose(a[-1], b[-1], rtol=1e-6)
    else:
        np.testing.assert_array_equal(a[-1], b[-1])
