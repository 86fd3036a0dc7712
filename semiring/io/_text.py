"""Reading a (possibly gzipped) file whole, and the errors every reader raises.

Every failure to get the bytes of a file (a wrong path argument, a missing file, a directory,
no permission, a damaged or truncated gzip stream, a decompressed size beyond the free memory)
becomes one :class:`~semiring.exceptions.InvalidValue` (or
:class:`~semiring.exceptions.OutOfMemory`) naming the file, here, for all readers.
"""

from __future__ import annotations

import gzip
import io
import os
import stat
import sys
import zlib

from .._memory import require
from ..exceptions import InvalidValue

#: Files from this size on (bytes on disk) show a progress bar while read, when stderr is a terminal.
PROGRESS_MIN_BYTES = 8 << 20
#: False turns the reading bar off everywhere (the command line's ``--quiet`` sets it).
SHOW_PROGRESS = True

#: Decompressed bytes are read in chunks of this size (the memory check runs between chunks).
_CHUNK = 16 << 20

#: The readers parse the whole text in memory: copies of its body and the numbers in it take
#: about this many times its size again (checked with the free memory before reading).
PARSE_FACTOR = 2


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


def file_name(path, what="read"):
    """The path as a ``str``: ``str``, ``bytes`` (decoded as the OS does) or ``os.PathLike``.

    Raises
    ------
    InvalidValue
        ``path`` is None or another type (an int would be taken by ``open`` as a file descriptor).
    """
    if isinstance(path, (str, bytes)) or isinstance(path, os.PathLike):
        try:
            name = os.fsdecode(path)
        except (TypeError, UnicodeError) as exc:
            raise InvalidValue(f"{what}: expected a file path (str, bytes or os.PathLike); "
                               f"given {path!r} ({exc})") from None
        if not name or "\x00" in name:
            raise InvalidValue(f"{what}: expected a file path; given {name!r}")
        return name
    raise InvalidValue(f"{what}: expected a file path (str, bytes or os.PathLike); "
                       f"given {type(path).__name__} {path!r:.60}")


def is_gzip(name):
    """Whether ``name`` names a gzip file (``.gz``, any case)."""
    return name.lower().endswith(".gz")


def read_bytes(path, *, progress=False):
    """The whole content of ``path``, decompressed when its name ends in ``.gz`` (any case).

    With ``progress``, a file of at least :data:`PROGRESS_MIN_BYTES` shows a tqdm bar of the
    bytes read (compressed bytes for ``.gz``) on stderr, but only when stderr is a terminal:
    logs, pipes and notebooks stay quiet.

    Parameters
    ----------
    path : str
        As returned by :func:`file_name`.

    Returns
    -------
    bytes

    Raises
    ------
    InvalidValue
        No such file, a directory or other non-regular file (a FIFO, a device), no permission
        to read, a ``.gz`` file that is not gzip data, is damaged or is cut short.
    OutOfMemory
        The (decompressed) content, and :data:`PARSE_FACTOR` times it to parse it, would not
        fit the memory free now.
    """
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise InvalidValue(f"{path}: is a directory, not a file")
        if not stat.S_ISREG(st.st_mode):  # a FIFO would block, a device never end
            raise InvalidValue(f"{path}: is not a regular file")
        raw = open(path, "rb")
    except (FileNotFoundError, NotADirectoryError):
        raise InvalidValue(f"{path}: no such file") from None
    except PermissionError:
        raise InvalidValue(f"{path}: permission denied") from None
    except OSError as exc:
        raise InvalidValue(f"{path}: cannot be opened ({exc.strerror or exc})") from None
    bar = None
    try:
        size = os.fstat(raw.fileno()).st_size
        stream = raw
        if progress and SHOW_PROGRESS and size >= PROGRESS_MIN_BYTES and getattr(sys.stderr, "isatty", lambda: False)():
            from tqdm import tqdm

            bar = tqdm(total=size, desc=f"reading {os.path.basename(path)}", unit="B", unit_scale=True,
                       leave=False, file=sys.stderr)
            stream = io.BufferedReader(_Counted(raw, bar.update))
        if not is_gzip(path):
            require((1 + PARSE_FACTOR) * size, f"read {path}: a file of {size:,} bytes")
            data = stream.read()
        else:
            data = _gunzip(path, stream)
            require(PARSE_FACTOR * len(data), f"read {path}: {len(data):,} bytes of decompressed data")
    except EOFError:
        raise InvalidValue(f"{path}: the gzip data is cut short (the file is truncated)") from None
    except gzip.BadGzipFile as exc:
        raise InvalidValue(f"{path}: the name ends in .gz but the content is not gzip data ({exc})") from None
    except zlib.error as exc:
        raise InvalidValue(f"{path}: the gzip data is damaged ({exc})") from None
    except OSError as exc:
        raise InvalidValue(f"{path}: cannot be read ({exc.strerror or exc})") from None
    finally:
        raw.close()
        if bar is not None:
            bar.close()
    return data


def _gunzip(path, stream):
    """Decompress a whole gzip stream, checking the memory free as the content grows."""
    chunks, total = [], 0
    with gzip.GzipFile(fileobj=stream, mode="rb") as g:
        while True:
            chunk = g.read(_CHUNK)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            # joining the chunks needs as much again: stop before a gzip bomb fills the memory
            require(total, f"read {path}: {total:,}+ bytes of decompressed data")
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def line_at(data, pos):
    """1-based number of the line of ``data`` that holds byte ``pos``."""
    return data.count(b"\n", 0, pos) + 1


def line_text(data, pos, limit=60):
    """The line of ``data`` holding byte ``pos`` (without its newline), shortened to ``limit``
    characters, for messages."""
    start = data.rfind(b"\n", 0, pos) + 1
    end = data.find(b"\n", pos)
    line = data[start:end if end >= 0 else len(data)].rstrip(b"\r")
    text = line[:limit].decode("ascii", errors="backslashreplace")
    return text + ("..." if len(line) > limit else "")


def bad(path, lineno, msg):
    """The InvalidValue of a malformed file: ``"<path>, line <lineno>: <msg>"``."""
    where = f"{os.fspath(path)}, line {lineno}" if lineno else os.fspath(path)
    return InvalidValue(f"{where}: {msg}")
