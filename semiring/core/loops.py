"""Blocks of algebra operations recorded once and replayed, and loops that run on the device.

On the GPU, :func:`record` captures a block as a CUDA graph (one launch replays every kernel
of it) and :func:`while_nonempty` runs a block while a vector has entries as one CUDA graph
with a conditional WHILE node (CUDA >= 12.4 with cuda-bindings): all iterations run without
returning to the host. On the CPU, and where conditional nodes are unavailable, both run the
block eagerly with the same results.

The block must keep its data in place: it writes loop-carried vectors with ``out=`` (or
``assign``), and values that change between runs are :class:`semiring.Scalar` values (the
loop's iteration counter is one). Its Python code runs when recorded (and, for the eager
fallbacks, at every iteration), so it should contain algebra calls only.
"""

from __future__ import annotations

from .. import _checks
from ..exceptions import InvalidValue
from .scalar import Scalar
from .vector import Vector

_NO_LIMIT = 2 ** 62


class Recording:
    """A recorded block of operations; call it to run the block again.

    Attributes
    ----------
    device : {"cpu", "gpu"}
    nodes : int or None
        Kernel launches and memsets in the CUDA graph (None when not recorded as a graph).
    """

    def __init__(self, body, args, device, graph):
        self._body, self._args, self.device, self._graph = body, args, device, graph
        self.nodes = None if graph is None else graph.nodes

    def __call__(self):
        """Run the block once more (on the GPU: one graph launch, no host wait)."""
        if self._graph is None:
            self._body(*self._args)
        else:
            self._graph.launch()

    def __repr__(self):
        return f"<Recording {self.device} nodes={self.nodes}>"


def record(body, *args, device=None):
    """Run ``body(*args)`` once and record it for replays.

    Parameters
    ----------
    body : callable
        A block of algebra operations on GPU objects that writes its results in place
        (``out=``, ``assign``); it is called once now, eagerly (compiling the kernels it
        needs and putting its vectors in their device form), and once more while recording
        (nothing runs then).
    *args
        Passed to ``body``.
    device : {"gpu", "cpu"}, optional
        Where the block's objects live; by default, "gpu" when its first run launched the
        GPU backend's device kernels. "cpu" (or a GPU without CUDA graph support) gives a
        Recording that calls ``body`` again.

    Returns
    -------
    Recording
        ``rec()`` runs the block again: on the GPU as one CUDA graph launch.

    Raises
    ------
    InvalidValue
        ``body`` is not callable, or an operation of it needs the host (reads ``nvals``,
        ``to_coo``, ..., or runs outside the device kernels) and cannot be recorded.

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 1, 2], [1, 2, 0], nrows=3, ncols=3)
    >>> q = sr.Vector.from_coo([0], [True], size=3)
    >>> level = sr.Vector.from_coo([0], [0], size=3, dtype="int64")
    >>> def step():
    ...     sr.vxm(q, A, sr.semirings.any_pair, mask=~level.S, replace=True, out=q)  # q<!level.S, replace> = q any.pair A
    ...     sr.assign(level, 1, None, mask=q.S, accum=sr.binary.plus)               # level<q.S> += 1
    >>> rec = sr.record(step)                   # runs step once: q = {1}
    >>> rec(); q.to_coo()[0].tolist()           # and once more: q = {2}
    [2]

    References
    ----------
    CUDA Programming Guide, "CUDA Graphs" (stream capture).
    """
    if not callable(body):
        raise InvalidValue(f"record: body must be callable; given {type(body).__name__}")
    if device is not None:
        _device_of(device, "record")
    from ..backends.gpu.launch import before_recording, launches

    before = launches[0]
    with before_recording():
        body(*args)
    ran_kernels = launches[0] != before
    dev = _device_of(device if device is not None else ("gpu" if ran_kernels else "cpu"), "record")
    graph = None
    if dev == "gpu":
        from ..backends.gpu import recording

        graph = recording.record(lambda: body(*args))
    return Recording(body, args, dev, graph)


def while_nonempty(u, body, *, max_iterations=None):
    """Run ``body(it)`` while ``u`` has entries: the algebra's ``while (nvals(u) > 0)`` loop.

    ``it`` is a :class:`Scalar` (int64) holding the iteration number: 1 in the first run.
    On the GPU the iterations after the first run as one CUDA graph with a conditional WHILE
    node whose condition, ``nvals(u) > 0``, is computed on the device: no host round trip per
    iteration. Without conditional nodes (CUDA < 12.4, no cuda-bindings) and on the CPU, the
    loop runs eagerly with one read of ``nvals(u)`` per iteration.

    Parameters
    ----------
    u : Vector
        The loop runs while it has entries; ``body`` must write it (``out=u`` or ``assign``).
    body : callable
        ``body(it)``: algebra operations that write their results in place (``out=``).
    max_iterations : int, optional
        Stop after this many iterations even if ``u`` still has entries.

    Returns
    -------
    Scalar
        The number of iterations run (``int(...)`` reads it).

    Raises
    ------
    InvalidValue
        ``u`` is not a Vector, ``body`` not callable, ``max_iterations`` not a non-negative
        int; ``body`` did not write ``u`` in its first iteration (the loop would not end);
        an operation of ``body`` needs the host and cannot be recorded on the GPU.

    Examples
    --------
    Breadth-first search levels (the frontier ``q`` is written in place):

    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 0, 1, 2], [1, 2, 3, 3], nrows=4, ncols=4)
    >>> level = sr.Vector.from_coo([0], [0], size=4, dtype="int64")
    >>> q = sr.Vector.from_coo([0], [True], size=4)
    >>> def step(depth):
    ...     sr.vxm(q, A, sr.semirings.any_pair, mask=~level.S, replace=True, out=q)  # q<!level.S, replace> = q any.pair A
    ...     sr.assign(level, depth, None, mask=q.S)                                  # level<q.S> = depth
    >>> int(sr.while_nonempty(q, step))
    3
    >>> level.to_dense(-1).tolist()
    [0, 1, 1, 2]
    """
    if not isinstance(u, Vector):
        raise InvalidValue(f"while_nonempty: u must be a Vector; given {type(u).__name__}")
    if not callable(body):
        raise InvalidValue(f"while_nonempty: body must be callable; given {type(body).__name__}")
    max_iterations = _checks.integer(max_iterations, "while_nonempty", "max_iterations", low=0, none=True)
    limit = _NO_LIMIT if max_iterations is None else max_iterations
    it = Scalar(0, "int64", device=u.device)
    if limit == 0 or not u.nvals:
        return it
    if u.device == "gpu" and limit > 1:
        from ..backends.gpu.launch import before_recording

        with before_recording():
            _eager_step(u, body, it, 1)
    else:
        _eager_step(u, body, it, 1)
    if u.device == "gpu" and limit > 1:
        from ..backends.gpu import recording

        if recording.available():
            recording.run_while(u, body, it, limit)
            return it
    k = 1
    while k < limit and u.nvals:
        k += 1
        _eager_step(u, body, it, k)
    return it


def _eager_step(u, body, it, k):
    it._array[...] = k
    before = u._version
    body(it)
    if u._version == before:
        raise InvalidValue("while_nonempty: the body did not write u, so the loop would not end; write the "
                           "loop's vector in place (out=u, or assign into it)")


def _device_of(device, what):
    if not isinstance(device, str) or device not in ("cpu", "gpu"):
        raise InvalidValue(f"{what}: device must be 'cpu' or 'gpu'; given {device!r}"[:300])
    if device == "gpu":
        from ..backends.gpu import recording

        if not recording.available():
            return "cpu"
    return device
