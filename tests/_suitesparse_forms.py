"""The three forms of a container in the SuiteSparse backend tests
(tests/backends/test_suitesparse_*.py): ``"numpy"`` (a NumPy container), ``"ss"``
(SuiteSparse, NumPy form authoritative) and ``"gb"`` (SuiteSparse, only the graphblas object
present), so that both directions of the conversion are exercised by every operation; the
operator namespaces the tests use (``B``, ``M``, ``S``, ``U``, ``IU``) and ``numpy_only``, a
context in which new containers take the NumPy backend."""

from __future__ import annotations

import semiring as sr

B, M, S, U, IU = sr.binary, sr.monoid, sr.semirings, sr.unary, sr.indexunary


def as_form(x, form):
    """``x`` (a NumPy container, or None) in ``form`` (see the module notes); a new object."""
    from semiring.backends.suitesparse.containers import from_gb

    if x is None or form == "numpy":
        return None if x is None else x.dup()
    y = x.to("cpu", backend="suitesparse")
    if form == "gb":
        g = y._gb().dup()
        y = from_gb(g, x.dtype)
        assert y._current_host() is None
    return y


def numpy_only():
    return sr.backends.use_cpu_backend("numpy")
