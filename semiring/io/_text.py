"""Opening (possibly gzipped) text files and the error every reader raises."""

from __future__ import annotations

import gzip
import os

from ..exceptions import InvalidValue


def open_text(path):
    path = os.fspath(path)
    if not os.path.exists(path):
        raise InvalidValue(f"{path}: no such file")
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="ascii", errors="replace")
    return open(path, encoding="ascii", errors="replace")


def bad(path, lineno, msg):
    where = f"{os.fspath(path)}, line {lineno}" if lineno else os.fspath(path)
    return InvalidValue(f"{where}: {msg}")
