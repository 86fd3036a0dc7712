"""Scalar: one value of a dtype kept on a device (``GrB_Scalar``, GraphBLAS C API 2.0, 3.5.2).

Operations that take a scalar (``assign``'s value) take a Scalar too; on the GPU its value
stays in device memory, so an operation reading it needs no host round trip, and a recorded
block (:func:`semiring.record`, :func:`semiring.while_nonempty`) sees the value the device
holds when it runs, not the one it held when recorded: a loop's iteration counter is one.
"""

from __future__ import annotations

import numpy as np

from .. import _host
from .. import dtypes as _dt
from ..exceptions import InvalidValue
from . import _validate as _v


class Scalar:
    """A value of ``dtype`` on ``device`` (always present).

    Parameters
    ----------
    value : bool or number
    dtype : dtype, optional
        Default: the value's (a Python int is int64, a float float64, a bool bool).
    device : {"cpu", "gpu", "auto"}, default "cpu"

    Raises
    ------
    DomainMismatch
        ``value`` is not a bool or number, or ``dtype`` is not supported.
    InvalidValue
        ``value`` does not fit ``dtype`` (:func:`semiring.dtypes.cast`).
    BackendUnavailable
        ``device="gpu"`` without a usable GPU.

    Examples
    --------
    >>> import semiring as sr
    >>> s = sr.Scalar(3)
    >>> u = sr.Vector.from_coo([0, 2], [1, 1], size=3, dtype="int64")
    >>> sr.assign(u, s, None, mask=u.S).to_coo()[1].tolist()
    [3, 3]
    >>> s.value
    3
    """

    def __init__(self, value, dtype=None, *, device="cpu"):
        d = _dt.scalar_dtype(value, "Scalar value") if dtype is None else _dt.lookup(dtype, "Scalar dtype")
        self._dtype = d
        self._device = _v.device(device)
        xp = _v.xp_for(self._device)
        host = _dt.cast(np.asarray([value]), d, "Scalar value")
        self._array = xp.asarray(host)

    @property
    def dtype(self):
        return self._dtype

    @property
    def device(self):
        return self._device

    @property
    def nvals(self):
        """Always 1: a Scalar holds a value."""
        return 1

    @property
    def value(self):
        """The value as a Python bool, int or float (a device-to-host read on the GPU)."""
        return _host.read(self._array)[0].item()

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __repr__(self):
        return f"<Scalar {self.value!r} dtype={self._dtype.name} {self._device}>"
