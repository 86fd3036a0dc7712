"""Which CPU backend stores new containers: NumPy/SciPy arrays or SuiteSparse:GraphBLAS objects.

A CPU Matrix or Vector is stored by one of two backends:

- ``"numpy"``: CSR arrays (and a vector's sparse or bitmap arrays) computed on by NumPy and
  SciPy; the reference implementation of every operation.
- ``"suitesparse"``: a SuiteSparse:GraphBLAS object (Davis, "Algorithm 1000: SuiteSparse:
  GraphBLAS: graph algorithms in the language of sparse linear algebra", ACM TOMS 45(4), 2019;
  Davis, "Algorithm 10xx: SuiteSparse:GraphBLAS: parallel graph algorithms in the language of
  sparse linear algebra", ACM TOMS, 2023) reached through python-graphblas, with the same CSR
  arrays exported on demand. It needs the optional extra: ``pip install "semiring[suitesparse]"``.

GPU containers are stored by ``"cupy"``; the choice here is about the CPU only.

The backend of a new container is, in order: the ``backend=`` keyword of its constructor (or
of ``.to()``); the innermost :func:`use_cpu_backend` block of the running thread or task; the
process-wide :func:`set_cpu_backend`; the environment variable ``SEMIRING_CPU_BACKEND`` (read
once, on first use); ``"auto"``. ``"auto"`` is ``"suitesparse"`` where python-graphblas can be
imported (the extra is installed) and ``"numpy"`` otherwise.

A SuiteSparse:GraphBLAS index is below ``GrB_INDEX_MAX + 1 = 2**60`` (GraphBLAS C API 2.0,
section 3.3, and SuiteSparse's ``GxB_INDEX_MAX``): a container with a larger dimension is
stored by NumPy whatever the choice (its ``backend`` says ``"numpy"``).
"""

from __future__ import annotations

import contextvars
import os
import threading
from contextlib import contextmanager

from ..exceptions import InvalidValue

#: The environment variable giving the initial process-wide choice.
ENV = "SEMIRING_CPU_BACKEND"
#: The names a choice may take.
NAMES = ("numpy", "suitesparse", "auto")

#: The SuiteSparse container classes once they are imported (empty before: nothing to follow).
SS_TYPES = set()

_setting = None  # the process-wide choice; None until first read from the environment
_setting_lock = threading.Lock()
_local = contextvars.ContextVar("semiring_cpu_backend", default=None)


def _check_name(name, what, names=NAMES):
    if not isinstance(name, str) or name not in names:
        shown = ", ".join(repr(n) for n in names)
        raise InvalidValue(f"{what}: expected one of {shown}; given {name!r}"[:300])
    return name


def _resolve(name):
    """``"numpy"`` or ``"suitesparse"`` for a valid choice; BackendUnavailable when the
    SuiteSparse backend is asked for and python-graphblas cannot be imported."""
    if name == "auto":
        from . import suitesparse

        return "suitesparse" if suitesparse.available() else "numpy"
    if name == "suitesparse":
        from . import suitesparse

        suitesparse.load()
    return name


def _process_setting():
    global _setting
    setting = _setting
    if setting is None:
        with _setting_lock:
            setting = _setting
            if setting is None:
                value = os.environ.get(ENV, "").strip() or "auto"
                setting = _check_name(value, f"environment variable {ENV}")
                _setting = setting
    return setting


def cpu_backend():
    """The backend new CPU containers get when none is named: ``"numpy"`` or ``"suitesparse"``.

    Returns
    -------
    str

    Raises
    ------
    InvalidValue
        ``SEMIRING_CPU_BACKEND`` holds an unknown name.
    BackendUnavailable
        The choice is ``"suitesparse"`` and python-graphblas cannot be imported.

    Examples
    --------
    >>> import semiring as sr
    >>> with sr.backends.use_cpu_backend("numpy"):
    ...     sr.backends.cpu_backend(), sr.Matrix(2, 2).backend
    ('numpy', 'numpy')
    """
    local = _local.get()
    return _resolve(local if local is not None else _process_setting())


def set_cpu_backend(name):
    """Set the process-wide CPU backend of new containers (threads and tasks inside a
    :func:`use_cpu_backend` block keep theirs).

    Parameters
    ----------
    name : {"numpy", "suitesparse", "auto"}

    Returns
    -------
    str
        The previous process-wide choice (pass it back to restore it).

    Raises
    ------
    InvalidValue
        An unknown name.
    BackendUnavailable
        ``"suitesparse"`` without python-graphblas (``pip install "semiring[suitesparse]"``).
    """
    global _setting
    _resolve(_check_name(name, "set_cpu_backend name"))
    try:
        _process_setting()  # the environment's choice is the previous one if none was set yet
    except InvalidValue:  # an unknown name there: replaced by this one
        pass
    with _setting_lock:
        previous, _setting = _setting or "auto", name
    return previous


@contextmanager
def use_cpu_backend(name):
    """A block in which new CPU containers get backend ``name`` (this thread or task only:
    the choice lives in a ``contextvars.ContextVar``).

    Parameters
    ----------
    name : {"numpy", "suitesparse", "auto"}

    Yields
    ------
    str
        The resolved backend, ``"numpy"`` or ``"suitesparse"``.

    Raises
    ------
    InvalidValue
        An unknown name.
    BackendUnavailable
        ``"suitesparse"`` without python-graphblas.
    """
    resolved = _resolve(_check_name(name, "use_cpu_backend name"))
    token = _local.set(name)
    try:
        yield resolved
    finally:
        _local.reset(token)


def available_cpu_backends():
    """The CPU backends that can be used here: ``("numpy",)`` or ``("numpy", "suitesparse")``."""
    from . import suitesparse

    return ("numpy", "suitesparse") if suitesparse.available() else ("numpy",)


def for_new(backend, device, dims):
    """The backend of a new container: ``"numpy"``, ``"suitesparse"`` or ``"cupy"``.

    Parameters
    ----------
    backend : str or None
        The ``backend=`` keyword: None (the current choice), a name of :data:`NAMES`, or
        ``"cupy"`` (GPU only).
    device : {"cpu", "gpu"}
        Resolved.
    dims : tuple of int
        The container's dimensions; above ``2**60`` the SuiteSparse backend cannot hold it.

    Raises
    ------
    InvalidValue
        An unknown name, or a backend that does not store on ``device``.
    BackendUnavailable
        ``"suitesparse"`` without python-graphblas.
    """
    if backend is not None:
        _check_name(backend, "backend", NAMES + ("cupy",))
    if device == "gpu":
        if backend in (None, "auto", "cupy"):
            return "cupy"
        raise InvalidValue(f"backend={backend!r} stores on the CPU; device='gpu' stores with 'cupy' "
                           "(give backend=None, 'auto' or 'cupy', or device='cpu')")
    if backend == "cupy":
        raise InvalidValue("backend='cupy' stores on the GPU; give device='gpu' or a CPU backend "
                           "('numpy', 'suitesparse' or 'auto')")
    name = cpu_backend() if backend is None else _resolve(backend)
    if name == "suitesparse":
        from .suitesparse import fits

        if not fits(dims):
            return "numpy"
    return name


__all__ = ["ENV", "NAMES", "available_cpu_backends", "cpu_backend", "set_cpu_backend", "use_cpu_backend"]


def native(*objs):
    """The SuiteSparse dispatch module (:mod:`semiring.backends.suitesparse.dispatch`) when one
    of ``objs`` (containers, masks, None) is a SuiteSparse container, else None."""
    if not SS_TYPES:
        return None
    for o in objs:
        if type(o) in SS_TYPES or type(getattr(o, "parent", None)) in SS_TYPES:
            from .suitesparse import dispatch

            return dispatch
    return None
