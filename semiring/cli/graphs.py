"""Graph arguments of the command line: a file path or a generator spec.

:func:`parse` checks the argument when the command line is parsed (a spec's syntax and ranges,
a file's existence and readability); :func:`load` reads or generates the graph, the generators
refusing with OutOfMemory before they allocate a graph that would not fit.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from .. import _checks, generators, io
from ..exceptions import InvalidValue, OutOfMemory
from ..generators import MAX_VERTICES


def _icbrt(n):
    """The largest k with k**3 <= n."""
    k = round(n ** (1 / 3))
    while k**3 > n:
        k -= 1
    while (k + 1) ** 3 <= n:
        k += 1
    return k


# name -> the names of its numbers and the range of each, given the numbers before it
# (the generators' limits: scale <= 31, edge_factor * 2**scale < 2**63, MAX_VERTICES vertices)
_GENERATORS = {
    "kron": (("SCALE", "EDGE_FACTOR"), (lambda: (1, 31), lambda scale: (1, (1 << (63 - scale)) - 1))),
    "grid2d": (("SIDE",), (lambda: (1, math.isqrt(MAX_VERTICES)),)),
    "grid3d": (("SIDE",), (lambda: (1, _icbrt(MAX_VERTICES)),)),
    "rgg": (("LOG2_N",), (lambda: (1, MAX_VERTICES.bit_length() - 1),)),
}
#: the generator specs, for help texts and messages
SPECS = "kron:SCALE[:EDGE_FACTOR], grid2d:SIDE, grid3d:SIDE, rgg:LOG2_N"
#: the same with the ranges of their numbers, for --help
SPEC_RANGES = (f"kron:SCALE[:EDGE_FACTOR] (SCALE 1..31, EDGE_FACTOR >= 1, default 16), "
               f"grid2d:SIDE (SIDE 1..{math.isqrt(MAX_VERTICES)}), grid3d:SIDE (SIDE 1..{_icbrt(MAX_VERTICES)}), "
               f"rgg:LOG2_N (2**LOG2_N vertices, LOG2_N 1..{MAX_VERTICES.bit_length() - 1})")
_EXPECTED = f"expected a readable graph file or a generator spec ({SPECS})"


@dataclass(frozen=True)
class GraphSpec:
    """A parsed graph argument: ``kind`` is "file" (``path`` set) or a generator name
    ("kron", "grid2d", "grid3d", "rgg") with its ``numbers``; ``text`` is the argument."""

    text: str
    kind: str
    path: str | None = None
    numbers: tuple = ()

    def __str__(self):
        return self.text

    @property
    def vertices(self):
        """The vertex count of a generator spec (None for a file: known once it is read)."""
        if self.kind == "file":
            return None
        k = self.numbers[0]
        return {"kron": 1 << k, "grid2d": k**2, "grid3d": k**3, "rgg": 1 << k}[self.kind]


def _file(text):
    """A GraphSpec of a readable regular file, else InvalidValue saying why not."""
    if os.path.isdir(text):
        raise InvalidValue(f"{_EXPECTED}; given {text!r}, a directory")
    try:
        with open(text, "rb"):
            pass
    except OSError as exc:
        raise InvalidValue(f"{_EXPECTED}; given {text!r} ({exc.strerror or exc})") from None
    if not os.path.isfile(text):
        raise InvalidValue(f"{_EXPECTED}; given {text!r}, not a regular file")
    return GraphSpec(text, "file", path=text)


def parse(text):
    """A graph argument: an existing file (preferred when a file has that name), else
    ``NAME:N[:N]`` with NAME a generator and each N a decimal integer in its range.

    Parameters
    ----------
    text : str
        The command-line argument.

    Returns
    -------
    GraphSpec

    Raises
    ------
    InvalidValue
        No such file or generator, a file that cannot be read, a malformed spec or a number
        out of range; the message says what was expected and what was given.
    """
    if not isinstance(text, str) or not text:
        raise InvalidValue(f"{_EXPECTED}; given {text!r}")
    if os.path.lexists(text):
        return _file(text)
    name, colon, rest = text.partition(":")
    if name not in _GENERATORS:
        why = f"no such file, and {name!r} is not a generator" if colon else "no such file"
        raise InvalidValue(f"{_EXPECTED}; given {text!r} ({why})")
    labels, ranges = _GENERATORS[name]
    parts = rest.split(":")
    form = f"{name}:{labels[0]}" + "".join(f"[:{label}]" for label in labels[1:])
    if not 1 <= len(parts) <= len(labels) or not all(p.isascii() and p.isdigit() for p in parts):
        raise InvalidValue(f"expected {form} with decimal integers; given {text!r}")
    numbers = []
    for label, part, bounds in zip(labels, parts, ranges):
        lo, hi = bounds(*numbers)
        value = _checks.decimal(part, lo, hi, signed=False)
        if value is None:
            shown = repr(text) if len(text) <= 60 else f"{text[:40]!r}... ({len(text)} characters)"
            raise InvalidValue(f"expected {form} with {label} in {lo}..{hi}; given {shown}")
        numbers.append(value)
    return GraphSpec(text, name, numbers=tuple(numbers))


def load(spec, *, weighted=False, seed=0, device="cpu"):
    """A Matrix from a parsed graph argument (:class:`GraphSpec`).

    Generated graphs get int64 weights uniform in [1, 255] when ``weighted`` (as the Graph500
    SSSP kernel's integer variant); files keep their own weights.

    Raises
    ------
    OutOfMemory
        A generated graph would not fit (checked before generating); the message names the spec.
    SemiringError, OSError
        From the file reader.
    """
    if spec.kind == "file":
        try:
            A = io.read(spec.path)
        except OSError as exc:
            if exc.filename is not None:
                raise
            raise OSError(f"{spec.path}: {exc}") from exc  # e.g. gzip.BadGzipFile: name the file
        return A.to(device) if device != "cpu" else A
    w = (1, 255) if weighted else None
    nums = spec.numbers
    try:
        if spec.kind == "kron":
            return generators.kronecker(nums[0], *nums[1:], seed=seed, weights=w, device=device)
        if spec.kind == "grid2d":
            return generators.grid(nums[0], nums[0], weights=w, seed=seed, device=device)
        if spec.kind == "grid3d":
            return generators.grid(nums[0], nums[0], nums[0], weights=w, seed=seed, device=device)
        return generators.random_geometric(1 << nums[0], seed=seed, weights=w, device=device)
    except OutOfMemory as exc:
        raise OutOfMemory(f"graph {spec.text}: {exc}") from None
