"""Test helpers shared by several test modules."""

from __future__ import annotations

import contextlib
import signal


@contextlib.contextmanager
def hang_guard(seconds):
    """Turn an endless loop into a test failure (a guard against hangs, not a timing check)."""
    def on_alarm(signum, frame):
        raise TimeoutError(f"did not finish within {seconds} s: an endless loop")
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
