"""Compute kernels. A backend computes the temporary result T of an operation; the write step
(``semiring.core._write``) applies mask, accumulator and replace for every backend alike.

The CPU backend that stores new containers ("numpy" or "suitesparse") is chosen here:
:func:`cpu_backend`, :func:`set_cpu_backend`, :func:`use_cpu_backend`,
:func:`available_cpu_backends` (see :mod:`semiring.backends._select`).
"""

from ._select import available_cpu_backends, cpu_backend, set_cpu_backend, use_cpu_backend

__all__ = ["available_cpu_backends", "cpu_backend", "set_cpu_backend", "use_cpu_backend"]
