"""Every device-to-host read of the library goes through :func:`read`, which counts it.

A read of a GPU value stops the host until the device has finished everything queued before
it (about 15-25 us on an H100 or H200, more than a whole operation). The operations of the
algebra never read: sizes, ``nvals`` and the push/pull choice stay on the device, and the host
reads only when the user asks for a value (``nvals``, ``to_coo``, ``to_dense``, ``get``,
``Scalar.value``, a reduction to a Python scalar, an error that depends on the data).
:func:`host_reads` counts them over a block of code.
"""

from __future__ import annotations

import threading

import numpy as np

_lock = threading.Lock()
_total = [0]


def read(array):
    """``array`` (a CuPy or NumPy array) as a NumPy array, counting one read if it is on a GPU."""
    if isinstance(array, np.ndarray) or np.isscalar(array):
        return np.asarray(array)
    with _lock:
        _total[0] += 1
    return array.get()


def read_int(array):
    """The first element of a one-element device (or host) array, as a Python int."""
    return int(read(array).reshape(-1)[0])


class host_reads:
    """Count the device-to-host reads made by the library inside a ``with`` block.

    Examples
    --------
    >>> import semiring as sr
    >>> u = sr.Vector.from_coo([1], [2.0], size=4)
    >>> with sr.host_reads() as hr:
    ...     w = sr.apply(u, sr.unary.ainv)
    >>> hr.count      # a CPU vector is never read back; on a GPU this is 0 as well
    0

    Notes
    -----
    The count is process-wide (reads by other threads during the block are included).
    """

    def __init__(self):
        self.count = 0
        self._start = None

    def __enter__(self):
        self._start = _total[0]
        return self

    def __exit__(self, *exc):
        self.count = _total[0] - self._start
        return False

    def __repr__(self):
        return f"<host_reads count={self.count}>"
