"""Opening (possibly gzipped) text files and the error every reader raises."""

from __future__ import annotations

import gzip
import io
import os
import sys

from ..exceptions import InvalidValue

#: Files from this size on (bytes on disk) show a progress bar while read, when stderr is a terminal.
PROGRESS_MIN_BYTES = 8 << 20


class _Counted(io.RawIOBase):
    """A raw binary stream that reports the bytes it reads to ``update``."""

    def __init__(self, f, update):
        self._f, self._update = f, update

    def readable(self):
        return True

    def readinto(self, b):
        n = self._f.readinto(b)
        self._update(n or 0)
        return n


class _Closing(io.BufferedReader):
    """A buffered binary stream that also closes what it reads through (the raw file, the bar)."""

    def __init__(self, stream, extras):
        super().__init__(stream)
        self._extras = extras

    def close(self):
        try:
            super().close()
        finally:
            for x in self._extras:
                x.close()
            self._extras = ()


def open_binary(path, *, progress=False):
    """Open ``path`` for reading bytes, decompressed when it ends in ``.gz``.

    With ``progress``, a file of at least :data:`PROGRESS_MIN_BYTES` shows a tqdm bar of the
    bytes read (compressed bytes for ``.gz``) on stderr, but only when stderr is a terminal:
    logs, pipes and notebooks stay quiet.

    Raises
    ------
    InvalidValue
        The file does not exist.
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise InvalidValue(f"{path}: no such file")
    raw = open(path, "rb")
    extras = [raw]
    stream = raw
    size = os.path.getsize(path)
    if progress and size >= PROGRESS_MIN_BYTES and getattr(sys.stderr, "isatty", lambda: False)():
        from tqdm import tqdm

        bar = tqdm(total=size, desc=f"reading {os.path.basename(path)}", unit="B", unit_scale=True,
                   leave=False, file=sys.stderr)
        extras.append(bar)
        stream = io.BufferedReader(_Counted(raw, bar.update))
    if path.endswith(".gz"):
        stream = gzip.GzipFile(fileobj=stream, mode="rb")  # it leaves its fileobj open: extras close it
    return _Closing(stream, extras)


def open_text(path, *, progress=False):
    """:func:`open_binary` as ASCII text (undecodable bytes replaced)."""
    return io.TextIOWrapper(open_binary(path, progress=progress), encoding="ascii", errors="replace")


def bad(path, lineno, msg):
    where = f"{os.fspath(path)}, line {lineno}" if lineno else os.fspath(path)
    return InvalidValue(f"{where}: {msg}")
