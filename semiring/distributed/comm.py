"""Process groups of :mod:`semiring.distributed`: MPI for control, host MPI or NCCL for data.

A :class:`Context` holds the MPI communicator (mpi4py) of the P processes, the device its
arrays live on, and a data channel for the bulk exchanges of the algorithms:

- :class:`HostChannel`: NumPy arrays through MPI (``Ialltoallv``, ``Iallgather``);
- :class:`NcclChannel`: CuPy arrays device to device through NCCL (``cupy.cuda.nccl``: grouped
  ``send``/``recv`` for all-to-all-v, ``allGather``), one GPU per rank;
- :class:`StagedChannel`: CuPy arrays copied through host memory and sent over MPI, where
  NCCL is missing.

Control and agreement (counts, frontier sizes, termination, errors) always go through host
MPI. Every host collective is nonblocking and polled against a deadline: a rank that fails or
hangs makes the others stop with a message naming the operation, through ``MPI_Abort``,
instead of waiting for ever. An exception that escapes on one rank aborts all of them too
(:func:`install_excepthook`, as ``python -m mpi4py`` does).

References
----------
MPI Forum, "MPI: A Message-Passing Interface Standard", version 4.1 (2023), chapter 6
(nonblocking collective operations).
Dalcin, Fang, "mpi4py: status update after 12 years of development", CiSE 23(4), 2021.
NVIDIA, "NCCL: point-to-point communication" (ncclSend/ncclRecv inside ncclGroupStart/End).
"""

from __future__ import annotations

import os
import sys
import time
import traceback

import numpy as np

from ..exceptions import BackendUnavailable, InvalidValue, SemiringError

#: Seconds a rank waits in one host collective before it declares the others lost
#: (``SEMIRING_DIST_TIMEOUT`` overrides; long graph builds on slow ranks need minutes).
DEFAULT_TIMEOUT = 600.0
#: Seconds of busy polling before a waiting rank sleeps between tests (latency of a level);
#: none when there are more ranks than cores (a spinning rank would take the core of the
#: rank it waits for).
_SPIN = 0.002
_SLEEP = 2e-5
#: Seconds a failing rank waits after writing its message and before MPI_Abort, so that the
#: launcher forwards the message before it kills the ranks (MPICH's hydra dropped it otherwise).
_ABORT_GRACE = 0.5


def _mpi():
    try:
        from mpi4py import MPI
    except ImportError as exc:  # pragma: no cover - the test extra installs it
        raise BackendUnavailable("semiring.distributed needs mpi4py and an MPI library "
                                 f"(pip install 'semiring[distributed]'); {exc}") from None
    return MPI


_OPS = {"sum": "SUM", "min": "MIN", "max": "MAX", "lor": "LOR"}


class Context:
    """The P processes of a distributed run, their device, and how they exchange data.

    Parameters
    ----------
    comm : mpi4py.MPI.Comm, optional
        Default ``MPI.COMM_WORLD``.
    device : {"cpu", "gpu", "auto"}
        Where each rank keeps its arrays. "gpu" takes GPU ``rank % ndev`` of the node
        (``cupy.cuda.Device(rank % ndev)``); "auto" is "gpu" when every rank has one.
    timeout : float, optional
        Seconds one host collective may wait (default ``SEMIRING_DIST_TIMEOUT`` or
        :data:`DEFAULT_TIMEOUT`).
    channel : {"auto", "nccl", "staged", "host"}
        Data channel: "auto" is NCCL for GPU ranks (staged through host MPI if
        ``cupy.cuda.nccl`` is missing) and host MPI for CPU ranks.

    Raises
    ------
    BackendUnavailable
        mpi4py missing, device="gpu" without a GPU, channel="nccl" without NCCL.
    InvalidValue
        Unknown device or channel, a non-positive timeout.
    """

    def __init__(self, comm=None, *, device="cpu", timeout=None, channel="auto"):
        MPI = _mpi()
        self.MPI = MPI
        self.comm = MPI.COMM_WORLD if comm is None else comm
        self.rank, self.size = self.comm.Get_rank(), self.comm.Get_size()
        if timeout is None:
            timeout = float(os.environ.get("SEMIRING_DIST_TIMEOUT", DEFAULT_TIMEOUT))
        if not (isinstance(timeout, (int, float)) and timeout > 0):
            raise InvalidValue(f"Context: timeout must be a positive number of seconds; given {timeout!r}")
        self.timeout = float(timeout)
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        self._spin = _SPIN if self.size <= cores else 0.0
        if device not in ("cpu", "gpu", "auto"):
            raise InvalidValue(f"Context: device must be 'cpu', 'gpu' or 'auto'; given {device!r}")
        if channel not in ("auto", "nccl", "staged", "host"):
            raise InvalidValue(f"Context: channel must be 'auto', 'nccl', 'staged' or 'host'; given {channel!r}")
        #: bytes this rank sent to other ranks through the data channel (self copies excluded)
        self.bytes_sent = 0
        if device == "auto":
            from ..backends import gpu

            device = "gpu" if self.all_true(gpu.available(), "device='auto' check") else "cpu"
        self.device = device
        if device == "gpu":
            from ..backends import gpu

            cp = gpu.load()
            ndev = cp.cuda.runtime.getDeviceCount()
            cp.cuda.Device(self.rank % ndev).use()
            self.xp = cp
        else:
            self.xp = np
        if channel == "auto":
            channel = "host" if device == "cpu" else ("nccl" if _nccl_available() else "staged")
        if channel != "host" and device == "cpu":
            raise InvalidValue(f"Context: channel {channel!r} moves GPU arrays; this context is on the CPU")
        try:
            self.channel = {"host": HostChannel, "staged": StagedChannel, "nccl": NcclChannel}[channel](self)
        except Exception as exc:  # the other ranks are already waiting in the channel's set-up
            if self.size > 1:
                self.abort(f"setting up the {channel} channel failed: {type(exc).__name__}: {exc}")
            raise

    def __repr__(self):
        return (f"<Context rank {self.rank} of {self.size}, device {self.device}, "
                f"channel {type(self.channel).__name__}>")

    # -- failure handling -------------------------------------------------------------------
    def abort(self, msg):
        """Print ``msg`` (with the rank) on stderr and end every rank through ``MPI_Abort``."""
        sys.stderr.write(f"semiring.distributed: rank {self.rank} of {self.size}: {msg}; aborting all ranks\n")
        sys.stderr.flush()
        time.sleep(_ABORT_GRACE)
        self.comm.Abort(1)

    def wait(self, req, what):
        """Poll a nonblocking request until it completes or the deadline passes (then abort)."""
        t0 = time.monotonic()
        while not req.Test():
            now = time.monotonic()
            if now - t0 > self.timeout:
                self.abort(f"no answer from the other ranks within {self.timeout:g} s in {what} "
                           "(a rank failed, hung or is far behind)")
            if now - t0 > self._spin:
                time.sleep(_SLEEP)

    # -- host collectives (control) -----------------------------------------------------------
    def allreduce(self, values, op="sum", what="allreduce"):
        """Element-wise reduction of a small NumPy array (or scalar) over the ranks."""
        scalar = np.ndim(values) == 0
        a = np.ascontiguousarray(np.atleast_1d(values))
        if a.dtype == np.bool_:
            a = a.astype(np.uint8)
        out = np.empty_like(a)
        self.wait(self.comm.Iallreduce(a, out, op=getattr(self.MPI, _OPS[op])), what)
        return out[0] if scalar else out

    def all_true(self, flag, what="agreement"):
        """True on every rank iff ``flag`` is true on every rank."""
        return bool(self.allreduce(np.uint8(bool(flag)), "min", what))

    def alltoall(self, counts, what="alltoall"):
        """Exchange one int64 per pair of ranks: ``out[j]`` is what rank j had in ``counts[rank]``."""
        a = np.ascontiguousarray(counts, dtype=np.int64)
        out = np.empty_like(a)
        self.wait(self.comm.Ialltoall(a, out), what)
        return out

    def allgather_obj(self, obj, what="allgather"):
        """Every rank's picklable ``obj``, as a list in rank order (small objects)."""
        import pickle

        data = np.frombuffer(pickle.dumps(obj), dtype=np.uint8)
        sizes = self.allgather_host(np.array([data.size], dtype=np.int64), what)
        out = np.empty(int(sizes.sum()), dtype=np.uint8)
        displ = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        self.wait(self.comm.Iallgatherv(data, [out, (sizes, displ)]), what)
        return [pickle.loads(out[d:d + s].tobytes()) for d, s in zip(displ, sizes)]

    def allgather_host(self, a, what="allgather"):
        """Concatenation of every rank's equal-sized NumPy array ``a``, in rank order."""
        a = np.ascontiguousarray(a)
        out = np.empty((self.size,) + a.shape, dtype=a.dtype)
        self.wait(self.comm.Iallgather(a, out), what)
        return out.reshape((-1,) + a.shape[1:])

    def barrier(self, what="barrier"):
        self.wait(self.comm.Ibarrier(), what)

    def agree(self, exc, what):
        """Collective error check: if any rank has an exception, raise it on every rank.

        ``exc`` is this rank's exception or None. Every rank calls this at the same point; the
        first failing rank's exception type and message are re-raised on all ranks, so that
        no rank goes on into a collective the failing one will never reach.
        """
        failed = self.allreduce(np.uint8(exc is not None), "max", what)
        if not failed:
            return
        infos = self.allgather_obj(None if exc is None else (type(exc), str(exc)), what)
        r, (cls, msg) = next((r, i) for r, i in enumerate(infos) if i is not None)
        if exc is not None:
            raise exc
        if not (isinstance(cls, type) and issubclass(cls, Exception)):
            cls = SemiringError
        raise cls(f"{msg} (raised on rank {r})")

    # -- device synchronisation -----------------------------------------------------------------
    def sync(self, what="device work"):
        """Wait for this rank's device work, polling against the deadline (no-op on the CPU)."""
        if self.device != "gpu":
            return
        ev = self.xp.cuda.Event(disable_timing=True)
        ev.record()
        t0 = time.monotonic()
        while not ev.done:
            if time.monotonic() - t0 > self.timeout:
                self.abort(f"device work did not finish within {self.timeout:g} s in {what} "
                           "(a device exchange with a lost rank may be stuck)")

    def to_host(self, a, what="copy to host"):
        """A NumPy copy of a (device) array, the copy waited for with the deadline."""
        if self.device != "gpu":
            return np.asarray(a)
        self.sync(what)  # the copy below then waits for nothing but itself
        return a.get()


def _nccl_available():
    try:
        from cupy.cuda import nccl

        return bool(nccl.available) if hasattr(nccl, "available") else True
    except Exception:
        return False


def _displacements(counts):
    d = np.zeros(len(counts), dtype=np.int64)
    np.cumsum(counts[:-1], out=d[1:])
    return d


class HostChannel:
    """Bulk exchanges of NumPy arrays through host MPI (nonblocking, deadline-polled)."""

    def __init__(self, ctx):
        self.ctx = ctx

    def alltoallv(self, arrays, send_counts, recv_counts, what="alltoallv", send_displs=None):
        """Send ``arrays[k][displ[j]:displ[j] + send_counts[j]]`` to rank j, for every array k.

        ``send_counts`` and ``recv_counts`` are host int64 arrays (the latter from
        :meth:`Context.alltoall`); ``send_displs`` defaults to the packed layout (the
        exclusive prefix sum of the counts). Returns the received arrays, packed by source rank.
        """
        ctx = self.ctx
        sd = _displacements(send_counts) if send_displs is None else np.asarray(send_displs, dtype=np.int64)
        rd = _displacements(recv_counts)
        out = []
        others = int(send_counts.sum() - send_counts[ctx.rank])
        for a in arrays:
            a = np.ascontiguousarray(a)
            raw = a.view(np.uint8) if a.dtype == np.bool_ else a
            r = np.empty(int(recv_counts.sum()), dtype=raw.dtype)
            ctx.wait(ctx.comm.Ialltoallv([raw, (send_counts, sd)], [r, (recv_counts, rd)]), what)
            out.append(r.view(a.dtype))
            ctx.bytes_sent += others * a.dtype.itemsize
        return out

    def allgather(self, a, what="allgather"):
        """The concatenation of every rank's equal-sized 1-D array ``a`` in rank order."""
        out = self.ctx.allgather_host(a, what)
        self.ctx.bytes_sent += a.nbytes * (self.ctx.size - 1)
        return out


class StagedChannel(HostChannel):
    """CuPy arrays copied to the host, exchanged over MPI, and copied back (no NCCL)."""

    def alltoallv(self, arrays, send_counts, recv_counts, what="alltoallv", send_displs=None):
        ctx, xp = self.ctx, self.ctx.xp
        if send_displs is not None:  # pack the segments on the device before the copy
            arrays = [xp.concatenate([a[int(d):int(d) + int(c)] for d, c in zip(send_displs, send_counts)])
                      for a in arrays]
        host = [ctx.to_host(a, what) for a in arrays]
        return [xp.asarray(r) for r in HostChannel.alltoallv(self, host, send_counts, recv_counts, what)]

    def allgather(self, a, what="allgather"):
        return self.ctx.xp.asarray(HostChannel.allgather(self, self.ctx.to_host(a, what), what))


#: Size of an NCCL unique id (NCCL_UNIQUE_ID_BYTES in nccl.h).
_NCCL_ID_BYTES = 128


class NcclChannel:
    """CuPy arrays device to device through NCCL, on the current stream; one GPU per rank.

    The NCCL communicator is created from a unique id that rank 0 broadcasts over MPI.
    All-to-all-v is one NCCL group of ``send``/``recv`` pairs (the counts come from host MPI
    first); the rank's own part is a device copy.
    """

    def __init__(self, ctx):
        try:
            from cupy.cuda import nccl
        except Exception as exc:
            raise BackendUnavailable(f"channel='nccl' needs cupy.cuda.nccl (pip install nvidia-nccl-cu13); {exc}") \
                from None
        self.ctx, self.nccl = ctx, nccl
        # The id (NCCL_UNIQUE_ID_BYTES = 128 chars) goes out as a byte buffer: mpi4py has no
        # nonblocking broadcast of Python objects, and a blocking one could hang on a lost rank.
        # CuPy 14 gives the id as bytes, older CuPy as a tuple of (signed char) ints; byte 0 of the
        # buffer says which, so every rank hands NcclCommunicator the same form.
        buf = np.zeros(1 + _NCCL_ID_BYTES, dtype=np.uint8)
        if ctx.rank == 0:
            raw = nccl.get_unique_id()
            as_bytes = isinstance(raw, (bytes, bytearray))
            body = np.frombuffer(bytes(raw), dtype=np.uint8) if as_bytes \
                else np.array([int(c) & 0xFF for c in raw], dtype=np.uint8)
            buf[0], buf[1:1 + body.size] = as_bytes, body
        ctx.wait(ctx.comm.Ibcast(buf, root=0), "the NCCL id broadcast from rank 0")
        body = buf[1:]
        uid = body.tobytes() if buf[0] else tuple(int(c) for c in body.view(np.int8))
        self.comm = nccl.NcclCommunicator(ctx.size, uid, ctx.rank)
        self._types = {np.dtype(k): getattr(nccl, v) for k, v in (
            ("int8", "NCCL_INT8"), ("uint8", "NCCL_UINT8"), ("bool", "NCCL_UINT8"), ("int32", "NCCL_INT32"),
            ("uint32", "NCCL_UINT32"), ("int64", "NCCL_INT64"), ("uint64", "NCCL_UINT64"),
            ("float32", "NCCL_FLOAT32"), ("float64", "NCCL_FLOAT64"))}

    def _stream(self):
        return self.ctx.xp.cuda.get_current_stream().ptr

    def alltoallv(self, arrays, send_counts, recv_counts, what="alltoallv", send_displs=None):
        ctx, xp, nccl = self.ctx, self.ctx.xp, self.nccl
        sd = _displacements(send_counts) if send_displs is None else np.asarray(send_displs, dtype=np.int64)
        rd = _displacements(recv_counts)
        me = ctx.rank
        stream = self._stream()
        out = []
        for a in arrays:
            a = xp.ascontiguousarray(a)
            r = xp.empty(int(recv_counts.sum()), dtype=a.dtype)
            t, isz = self._types[a.dtype], a.dtype.itemsize
            if recv_counts[me]:
                r[rd[me]:rd[me] + recv_counts[me]] = a[sd[me]:sd[me] + send_counts[me]]
            nccl.groupStart()
            for j in range(ctx.size):
                if j == me:
                    continue
                if send_counts[j]:
                    self.comm.send(a.data.ptr + int(sd[j]) * isz, int(send_counts[j]), t, j, stream)
                if recv_counts[j]:
                    self.comm.recv(r.data.ptr + int(rd[j]) * isz, int(recv_counts[j]), t, j, stream)
            nccl.groupEnd()
            out.append(r)
            ctx.bytes_sent += int(send_counts.sum() - send_counts[me]) * isz
        return out

    def allgather(self, a, what="allgather"):
        xp = self.ctx.xp
        a = xp.ascontiguousarray(a)
        out = xp.empty(a.size * self.ctx.size, dtype=a.dtype)
        self.comm.allGather(a.data.ptr, out.data.ptr, a.size, self._types[a.dtype], self._stream())
        self.ctx.bytes_sent += a.nbytes * (self.ctx.size - 1)
        return out


_default = {"ctx": None}


def init(*, device="cpu", timeout=None, channel="auto", comm=None):
    """Create the default :class:`Context` (once per process) and install the abort-on-error hook.

    Returns the context; later calls with the same arguments return it again.
    """
    ctx = _default["ctx"]
    if ctx is None or (ctx.device, ctx.timeout) != (device, ctx.timeout if timeout is None else timeout) \
            or (comm is not None and comm is not ctx.comm):
        ctx = Context(comm, device=device, timeout=timeout, channel=channel)
        _default["ctx"] = ctx
        install_excepthook(ctx)
    return ctx


def context(ctx=None):
    """``ctx``, else the default context (created on the CPU by :func:`init` if there is none)."""
    if ctx is not None:
        if not isinstance(ctx, Context):
            raise InvalidValue(f"expected a semiring.distributed Context; given {type(ctx).__name__}")
        return ctx
    return _default["ctx"] or init()


def install_excepthook(ctx):
    """Make an uncaught exception on any rank end all ranks (``MPI_Abort``) with its traceback.

    Without it the failing rank would finalize and exit while the others wait in their next
    collective for ever.
    """
    if ctx.size == 1 or getattr(sys.excepthook, "_semiring_dist", False):
        return
    previous = sys.excepthook

    def hook(etype, value, tb):
        try:
            # the one-line reason first: MPI_Abort may cut the rank's output short
            sys.stderr.write(f"semiring.distributed: rank {ctx.rank} of {ctx.size} failed with "
                             f"{etype.__name__}: {value}; aborting all ranks\n")
            sys.stderr.flush()
            traceback.print_exception(etype, value, tb, file=sys.stderr)
            sys.stderr.flush()
            time.sleep(_ABORT_GRACE)
        finally:
            try:
                ctx.comm.Abort(1)
            except Exception:
                previous(etype, value, tb)

    hook._semiring_dist = True
    sys.excepthook = hook


__all__ = ["Context", "init", "context", "install_excepthook", "HostChannel", "StagedChannel", "NcclChannel",
           "DEFAULT_TIMEOUT"]
