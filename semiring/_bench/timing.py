"""Timers, time limits, Graph500 roots, summary statistics, progress output and deadlines.

GPU runs are timed with CUDA events recorded on the current stream around the call (the device
is synchronized before the start event, so earlier work is not counted); CPU runs with
``time.perf_counter``. Every timer returns seconds; callers warm up first (kernel compilation,
caches). A call that may run for minutes is bounded by :func:`time_limit` (a SIGALRM timer).
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time

import numpy as np


class CpuTimer:
    """Wall-clock timer for host code."""

    device = "cpu"

    def time(self, fn, *args):
        """Run ``fn(*args)``; return ``(seconds, result)``."""
        t = time.perf_counter()
        out = fn(*args)
        return time.perf_counter() - t, out


class GpuTimer:
    """CUDA-event timer: ``start.record(); fn(); stop.record(); stop.synchronize()``."""

    device = "gpu"

    def __init__(self, cp):
        self.cp = cp

    def time(self, fn, *args):
        """Run ``fn(*args)``; return ``(seconds, result)`` measured between two CUDA events."""
        cp = self.cp
        cp.cuda.Device().synchronize()
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        out = fn(*args)
        stop.record()
        stop.synchronize()
        return cp.cuda.get_elapsed_time(start, stop) / 1e3, out


class WallTimer:
    """The user's wall clock around a call: ``time.perf_counter`` with the device synchronized
    before the start and before the stop (``cp`` None: host code, no synchronization).

    Unlike :class:`GpuTimer`, it counts what the host spends launching and waiting inside the
    call as the user sees it, which is what a per-operation cost of a few microseconds is."""

    def __init__(self, cp=None):
        self.cp = cp
        self.device = "cpu" if cp is None else "gpu"

    def time(self, fn, *args):
        """Run ``fn(*args)``; return ``(seconds, result)``."""
        sync = None if self.cp is None else self.cp.cuda.Device().synchronize
        if sync is not None:
            sync()
        t = time.perf_counter()
        out = fn(*args)
        if sync is not None:
            sync()
        return time.perf_counter() - t, out


class OverBudget(Exception):
    """A call ran past its time limit (raised by :func:`time_limit`)."""


@contextlib.contextmanager
def time_limit(seconds, what="the limit"):
    """Raise :class:`OverBudget` in the main thread after ``seconds`` (SIGALRM; Python code is
    interrupted between bytecodes, a long C call when it returns). ``seconds`` None, a platform
    without ``setitimer`` or another thread: no limit.

    Parameters
    ----------
    seconds : float or None
    what : str
        Named in the exception's message: "ran past {what} of {seconds} s".
    """
    usable = (seconds is not None and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def expire(signum, frame):
        raise OverBudget(f"ran past {what} of {seconds:.0f} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.01))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def timed(fn, budget_s=None):
    """``(seconds, value)`` of ``fn()`` on the wall clock; :class:`OverBudget` when it runs past
    ``budget_s`` seconds (None or 0: no limit)."""
    with time_limit(budget_s or None):
        t = time.perf_counter()
        out = fn()
        return time.perf_counter() - t, out


def graph500_roots(degree, k, seed=0):
    """``k`` distinct random vertices of degree >= 1 (Graph500 search keys), fixed seed.

    Parameters
    ----------
    degree : ndarray (NumPy or CuPy), shape (n,)
        Out-degree of every vertex.
    k : int
    seed : int

    Returns
    -------
    list of int
        ``min(k, #vertices with degree >= 1)`` roots, in the order drawn.
    """
    cand = degree.nonzero()[0]
    m = int(cand.shape[0])
    pick = np.random.default_rng(seed).choice(m, size=min(k, m), replace=False)
    if type(cand).__module__.startswith("cupy"):
        import cupy

        return [int(v) for v in cand[cupy.asarray(pick)].get()]
    return [int(v) for v in cand[pick]]


def harmonic_mean(values):
    """Harmonic mean of positive values (Graph500 reports TEPS this way); None if empty."""
    v = np.asarray([x for x in values if x is not None], dtype=float)
    if v.size == 0 or (v <= 0).any():
        return None
    return float(v.size / np.sum(1.0 / v))


def median(values):
    """Median of the non-None values, or None."""
    v = [x for x in values if x is not None]
    return float(np.median(v)) if v else None


class Progress:
    """A tqdm bar when stderr is a terminal, else one log line per step on stderr (``quiet``:
    nothing at all)."""

    def __init__(self, total, desc, quiet=False):
        self.bar = None
        self.quiet = quiet
        self.t0 = time.perf_counter()
        if not quiet and sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=desc, leave=False, file=sys.stderr)

    def step(self, msg):
        """Advance by one and say what was done."""
        if self.bar is not None:
            self.bar.set_postfix_str(msg[:60])
            self.bar.update(1)
        else:
            self.log(msg)

    def log(self, msg):
        """A message that does not advance the bar."""
        if self.bar is not None:
            self.bar.write(msg, file=sys.stderr)
        elif not self.quiet:
            print(f"[{time.perf_counter() - self.t0:7.1f} s] {msg}", file=sys.stderr, flush=True)

    def close(self):
        if self.bar is not None:
            self.bar.close()


class Deadline:
    """A wall-clock budget for a whole suite: optional work is skipped once it has passed."""

    def __init__(self, seconds):
        self.seconds = seconds
        self.t0 = time.perf_counter()

    def left(self):
        """Seconds left (may be negative); inf without a budget."""
        if self.seconds is None:
            return float("inf")
        return self.seconds - (time.perf_counter() - self.t0)

    def elapsed(self):
        return time.perf_counter() - self.t0
