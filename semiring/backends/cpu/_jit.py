"""Compiled whole-graph loops on the CPU, where the SuiteSparse CPU backend is in use.

The ``suitesparse`` extra is the compiled CPU profile: SuiteSparse:GraphBLAS runs the algebra,
and numba (which python-graphblas brings) compiles the CPU's whole-search engines (BFS, SSSP,
components, coloring) to machine code. Such a loop visits each vertex and edge a bounded number
of times in one call, the CPU counterpart of the GPU's persistent kernels; the NumPy backend
keeps its array-programming engines, which are the reference these loops are tested against.

:func:`enabled` says whether an algorithm running now takes the compiled loops: the CPU
backend in effect is ``"suitesparse"`` (inside an algorithm: its graph's) and numba imports.
:func:`compile` turns a module-level Python function into its compiled form once per process
(numba's on-disk cache keeps the machine code between processes). ``import semiring`` never
imports numba.

References: Lam, Pitrou, Seibert, "Numba: a LLVM-based Python JIT compiler", LLVM-HPC 2015.
"""

from __future__ import annotations

import threading

_compiled = {}
_lock = threading.Lock()
_numba = None


def _load():
    """The numba module, or False where it cannot be imported (cached)."""
    global _numba
    if _numba is None:
        try:
            import numba
        except Exception:  # an absent or broken numba: the NumPy engines run
            numba = False
        _numba = numba
    return _numba


def available():
    """True where numba can be imported."""
    return bool(_load())


def enabled():
    """True where the compiled loops run: the CPU backend in effect is SuiteSparse and numba
    imports."""
    from .._select import cpu_backend

    return cpu_backend() == "suitesparse" and available()


def compile(func):
    """``func`` compiled by ``numba.njit(cache=True, nogil=True)``, once per process.

    Parameters
    ----------
    func : function
        A module-level function written in numba's subset of Python (NumPy arrays, scalars,
        loops).

    Returns
    -------
    function
        The compiled dispatcher (specialized per argument types on first call).

    Raises
    ------
    BackendUnavailable
        numba cannot be imported.
    """
    got = _compiled.get(func)
    if got is None:
        numba = _load()
        if not numba:
            from ...exceptions import BackendUnavailable

            raise BackendUnavailable("compiled CPU loops need numba (pip install \"semiring[suitesparse]\"); "
                                     "it cannot be imported")
        with _lock:
            got = _compiled.get(func)
            if got is None:
                got = numba.njit(cache=True, nogil=True)(func)
                _compiled[func] = got
    return got


__all__ = ["available", "enabled", "compile"]
