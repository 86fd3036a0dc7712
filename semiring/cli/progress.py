"""Progress on stderr for the ``semiring`` command: tqdm bars on a terminal, nothing elsewhere.

:func:`phase` shows a step whose length is unknown (generating, reading, an algorithm): after
:data:`DELAY` seconds, a line with the step's name, a spinner and the time spent, refreshed by a
background thread (the step itself runs in compiled code and cannot report). :func:`bar` is a
tqdm bar over an iterable of known length. Both are off when stderr is not a terminal (logs,
pipes, notebooks) and with ``--quiet`` (:func:`configure`).
"""

from __future__ import annotations

import sys
import threading
import time

#: seconds a step runs before its spinner appears (shorter steps print nothing)
DELAY = 0.5
#: seconds between two refreshes of a spinner
INTERVAL = 0.2
_SPIN = "|/-\\"

_state = {"quiet": False}


def configure(*, quiet):
    """Turn the bars off (``quiet=True``, ``--quiet``) or on where stderr is a terminal; the
    file readers' byte bar (:data:`semiring.io._text.SHOW_PROGRESS`) follows."""
    from ..io import _text

    _state["quiet"] = bool(quiet)
    _text.SHOW_PROGRESS = not quiet


def enabled():
    """Whether bars are shown: not ``--quiet``, and stderr is a terminal."""
    if _state["quiet"]:
        return False
    isatty = getattr(sys.stderr, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def bar(iterable, desc, total=None):
    """``iterable`` wrapped in a tqdm bar named ``desc`` on stderr (plain when bars are off)."""
    if not enabled():
        return iterable
    from tqdm import tqdm

    return tqdm(iterable, desc=desc, total=total, file=sys.stderr, leave=False, delay=DELAY)


class phase:
    """A context manager showing ``desc``, a spinner and the time spent while its block runs.

    Parameters
    ----------
    desc : str
        What the step does ("generating kron:20", "pagerank").

    Examples
    --------
    >>> with phase("bfs"):
    ...     pass
    """

    def __init__(self, desc):
        self.desc = desc
        self._stop = threading.Event()
        self._thread = None

    def __enter__(self):
        if enabled():
            self._thread = threading.Thread(target=self._spin, name=f"progress: {self.desc}", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
        return False

    def _spin(self):
        start = time.time()  # tqdm's clock
        if self._stop.wait(DELAY):
            return
        from tqdm import tqdm

        # delay > 0: no display from the constructor; the first refresh below shows the time
        # since the step began
        pbar = tqdm(total=None, desc=self.desc, file=sys.stderr, leave=False, bar_format="{desc} {elapsed}",
                    delay=DELAY)
        pbar.start_t = start
        try:
            k = 0
            while True:
                pbar.set_description_str(f"{self.desc} {_SPIN[k % len(_SPIN)]}", refresh=True)
                k += 1
                if self._stop.wait(INTERVAL):
                    break
        finally:
            pbar.close()
