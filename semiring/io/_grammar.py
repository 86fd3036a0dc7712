"""The token grammar shared by the text readers, checked in one compiled-regex pass, and the
vectorized parse of a checked body.

A reader describes one line of its body as a regular expression built from the fields below;
:func:`first_bad_line` matches the whole body with it in one pass (atomic groups and possessive
quantifiers, so the engine keeps no backtracking state per line) and returns a position in the
first line that is not in the grammar, for the message. A body that passes holds only whitespace-separated tokens of
the declared kinds, so :func:`parse_numbers` can hand it to NumPy's C number parser, which is
lenient (``"3-4"`` reads as 3) but is only ever given text the grammar accepted.

Field grammar
-------------
index
    ``[0-9]+``: a vertex or row/column number (the reader checks its range).
integer
    ``[+-]?[0-9]+``, within int64.
real
    ``[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?``, or ``inf``, ``infinity``, ``nan`` in any
    case with an optional sign (as ``float()`` and Matrix Market writers spell them).
"""

from __future__ import annotations

import re
import sys

import numpy as np

from ..exceptions import InvalidValue
from ._text import bad, line_at, line_text

WS = rb"[ \t]++"
OWS = rb"[ \t]*+"
INDEX = rb"[0-9]++"
INTEGER = rb"[+-]?+[0-9]++"
REAL = (rb"[+-]?+(?:(?:[0-9]++(?:\.[0-9]*+)?+|\.[0-9]++)(?:[eE][+-]?+[0-9]++)?+"
        rb"|(?i:inf(?:inity)?+|nan))")

#: Field kind -> (its regex, how a message names it)
KINDS = {
    "index": (INDEX, "a positive integer index"),
    "vertex": (INDEX, "a non-negative integer vertex id"),
    "integer": (INTEGER, "an integer"),
    "real": (REAL, "a real number"),
}

_INT64 = np.iinfo(np.int64)


def compile_grammar(pattern):
    """Compile a bytes regex written with atomic groups ``(?>...)`` and possessive quantifiers.

    Python before 3.11 has neither; the grammars here are deterministic (every alternative and
    every repeat is decided by its next byte), so plain groups and greedy quantifiers accept
    exactly the same text there, only more slowly.
    """
    if sys.version_info < (3, 11):
        pattern = pattern.replace(b"(?>", b"(?:")
        pattern = re.sub(rb"([*+?])\+", rb"\1", pattern)
    return re.compile(pattern)


def lines_grammar(line):
    """The regex of a body made of lines that each match ``line`` (no newline inside), the last
    one with or without its newline."""
    return compile_grammar(rb"(?>" + line + rb"\r?+\n)*+(?>" + line + rb"\r?+)?+")


class Preamble:
    """The lines before a file's first significant line (comment and blank lines, each
    matching ``line``): ``skip(data, pos)`` is the offset of the first other line, or None when
    only such lines are left (the last one maybe without its newline)."""

    def __init__(self, line):
        self._lines = compile_grammar(rb"(?>" + line + rb"\r?+\n)*+")
        self._last = compile_grammar(rb"(?>" + line + rb"\r?+)?+\Z")

    def skip(self, data, pos=0):
        pos = self._lines.match(data, pos).end()
        return None if self._last.match(data, pos) else pos


def first_bad_line(grammar, data, start=0):
    """Where the first line of ``data[start:]`` outside ``grammar`` is (a byte offset inside
    it), or None when every line is in it."""
    end = grammar.match(data, start).end()
    return None if end == len(data) else end


def field_problem(tokens, fields, names):
    """What is wrong with an entry line split into ``tokens``, for fields of the given kinds
    and names; None when nothing is."""
    if len(tokens) != len(fields):
        return f"expected {len(fields)} fields ({', '.join(names)}); given {len(tokens)}"
    for tok, kind, name in zip(tokens, fields, names):
        regex, desc = KINDS[kind]
        if not compile_grammar(regex).fullmatch(tok):
            text = tok[:40].decode("ascii", errors="backslashreplace")
            return f"expected {desc} as the {name}; given {text!r}"
    return None


def byte_problem(line):
    """A control or non-ASCII byte in ``line`` (tabs and a final carriage return are fine)."""
    body = line[:-1] if line.endswith(b"\r") else line
    for col, b in enumerate(body, 1):
        if b != 9 and not 32 <= b < 127:
            return f"the byte 0x{b:02x} (column {col}) is not allowed here: expected printable ASCII text"
    return None


def raise_bad_line(path, data, pos, describe):
    """Raise InvalidValue for the line of ``data`` holding byte ``pos``; ``describe(line)``
    (the line's bytes, without the newline) says what is wrong with it."""
    start = data.rfind(b"\n", 0, pos) + 1
    end = data.find(b"\n", pos)
    line = data[start:end if end >= 0 else len(data)]
    msg = byte_problem(line) or describe(line.rstrip(b"\r"))
    raise bad(path, line_at(data, pos), msg or f"not a valid line; given {line_text(data, pos)!r}")


def parse_numbers(path, body, kind, width):
    """All whitespace-separated numbers of a grammar-checked ``body``, ``width`` a line.

    Parameters
    ----------
    body : bytes
        Text that holds only numbers of ``kind`` (and whitespace): a body the reader's grammar
        accepted, with tags and comments taken out.
    kind : {"integer", "real"}
    width : int
        Numbers per entry line.

    Returns
    -------
    values : ndarray, int64 or float64, shape (entries, width)
    overflow : (int, bytes) or None
        Index and text of the first integer token outside int64 (NumPy saturates those), or None.
    """
    dtype = np.int64 if kind == "integer" else np.float64
    if not body or body.isspace():
        return np.zeros((0, width), dtype), None
    try:
        values = np.fromstring(body, dtype=dtype, sep=" ")
    except ValueError as exc:  # the grammar admits only what the C parser reads: a guard
        raise InvalidValue(f"{path}: the numbers could not be parsed ({exc})") from None
    if values.size % width:  # the same guard
        raise InvalidValue(f"{path}: expected {width} numbers an entry; given {values.size} numbers in all")
    if kind != "integer":
        return values.reshape(-1, width), None
    saturated = np.flatnonzero((values == _INT64.max) | (values == _INT64.min))
    if saturated.size:
        tokens = body.split()
        for k in saturated.tolist():
            if not _INT64.min <= int(tokens[k]) <= _INT64.max:
                return values.reshape(-1, width), (k, tokens[k])
    return values.reshape(-1, width), None


def exact_indices(body, columns, width):
    """Integer tokens of ``columns`` (of ``width`` per line) of a checked body, exactly (for
    indices beyond 2**53 that a float parse rounds).

    Returns
    -------
    list of int64 ndarray, one per column
    overflow : (int, bytes) or None
        Entry number and text of the first token beyond int64, or None.
    """
    tokens = body.split()
    out = []
    for c in columns:
        ints = [int(t) for t in tokens[c::width]]
        for k, x in enumerate(ints):
            if x > _INT64.max:
                return out, (k, tokens[k * width + c])
        out.append(np.array(ints, dtype=np.int64))
    return out, None


_BLANK = np.zeros(256, dtype=bool)
_BLANK[list(b" \t\r\n")] = True


def entry_line(data, start, k, first):
    """1-based line number of the ``k``-th (0-based) entry line of ``data[start:]``: the lines
    whose first non-blank byte is one of ``first``. Only used to name a line in an error."""
    buf = np.frombuffer(data, dtype=np.uint8)[start:]
    nonblank = ~_BLANK[buf]
    tok = np.flatnonzero(nonblank & np.concatenate([[True], ~nonblank[:-1]]))  # token starts
    line_of_tok = np.searchsorted(np.flatnonzero(buf == ord("\n")), tok)
    firsts = tok[np.concatenate([[True], line_of_tok[1:] != line_of_tok[:-1]])] if tok.size else tok
    entries = firsts[np.isin(buf[firsts], np.frombuffer(first, dtype=np.uint8))]
    if k >= entries.size:
        return None
    return line_at(data, start + int(entries[k]))
