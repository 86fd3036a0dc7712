"""Argument types of the ``semiring`` command.

Each type checks its value while the command line is parsed, so that a bad argument is a usage
error (exit status 2, one line on stderr) before any graph is read or generated. Every message
says what was expected and what was given.
"""

from __future__ import annotations

import argparse
import math
import os

from .. import _checks
from ..exceptions import InvalidValue
from . import graphs



class UsageError(Exception):
    """A bad command line: the message is argparse's, the ``prog`` the (sub)command's name."""

    def __init__(self, message, prog):
        super().__init__(message)
        self.prog = prog


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises :class:`UsageError` instead of printing its usage and
    exiting, so that ``main`` prints one line and returns the exit status (subcommand parsers
    are of this class too)."""

    def error(self, message):
        raise UsageError(message, self.prog)


def _shown(text, limit=40):
    """``text`` quoted, shortened when long (a message stays one readable line)."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


def integer(lo, hi):
    """An argparse type: a decimal integer in lo..hi."""
    expected = f"an integer in {lo}..{hi}"

    def parse(text):
        value = _checks.decimal(text, lo, hi)
        if value is None:
            raise argparse.ArgumentTypeError(f"expected {expected}; given {_shown(text)}")
        return value

    return parse


def positive_float(text):
    """An argparse type: a finite number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive finite number; given {_shown(text)}") from None
    if not (0 < value < math.inf):
        raise argparse.ArgumentTypeError(f"expected a positive finite number; given {_shown(text)}")
    return value


def graph(text):
    """An argparse type: a readable graph file or a generator spec (:func:`graphs.parse`)."""
    try:
        return graphs.parse(text)
    except InvalidValue as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def real(lo, hi):
    """An argparse type: a finite number in [lo, hi] (``hi`` None: no upper bound)."""
    expected = f"a finite number in [{lo:g}, {hi:g}]" if hi is not None else f"a finite number >= {lo:g}"

    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}; given {_shown(text)}") from None
        if not (math.isfinite(value) and lo <= value and (hi is None or value <= hi)):
            raise argparse.ArgumentTypeError(f"expected {expected}; given {_shown(text)}")
        return value

    return parse


def vertex_list(text):
    """An argparse type: comma-separated distinct 0-based vertices (``0,5,17``)."""
    parts = text.split(",") if len(text) <= 10**7 else [""]
    vertices = [_checks.decimal(p, 0, 10**19 - 1, signed=False) for p in parts]
    if None in vertices:
        raise argparse.ArgumentTypeError(f"expected comma-separated 0-based vertices (e.g. 0,5,17); "
                                         f"given {_shown(text)}")
    if len(set(vertices)) != len(vertices):
        seen = set()
        twice = next(v for v in vertices if v in seen or seen.add(v))
        raise argparse.ArgumentTypeError(f"expected distinct vertices; given {_shown(text)} ({twice} twice)")
    return vertices


def output(text):
    """An argparse type: a file name that can be created (its directory exists and is writable;
    it is not a directory itself). Its suffix is checked with --format (see ``main``)."""
    if not text:
        raise argparse.ArgumentTypeError("expected a file name; given ''")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"expected a .csv or .mtx file name; given {text!r}, a directory")
    parent = os.path.dirname(text) or os.curdir
    if not os.path.isdir(parent):
        raise argparse.ArgumentTypeError(f"expected a file in an existing directory; given {text!r} "
                                         f"(no directory {parent!r})")
    if not os.access(parent, os.W_OK | os.X_OK) or (os.path.exists(text) and not os.access(text, os.W_OK)):
        raise argparse.ArgumentTypeError(f"expected a writable file name; given {text!r} (permission denied)")
    return text
