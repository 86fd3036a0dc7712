"""Test helpers shared by several test modules."""

from __future__ import annotations

import contextlib
import signal
import time


@contextlib.contextmanager
def hang_guard(seconds):
    """Turn an endless loop into a test failure (a guard against hangs, not a timing check).

    The guard takes SIGALRM for the block, as pytest-timeout's per-test timeout (the ``signal``
    method) does for the whole test: an alarm set before the block (that timeout) is put back
    afterwards with the time it had left, so the test stays under it."""
    def on_alarm(signum, frame):
        raise TimeoutError(f"did not finish within {seconds} s: an endless loop")
    outer = signal.getitimer(signal.ITIMER_REAL)[0]
    start = time.monotonic()
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if outer:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - start), 1e-3))
