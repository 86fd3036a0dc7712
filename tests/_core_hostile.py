"""Helpers of the hostile-input tests of the core (tests/core/test_core_hostile_*.py): the
pytest.raises of exactly one error that also checks that the outputs are unchanged
(``raises``, with its snapshot of a container ``_snap``) and a small 3 x 3 operand (``_mat``)."""

from __future__ import annotations

import contextlib

import pytest

import semiring as sr

def _snap(x):
    if isinstance(x, sr.Matrix):
        return ("M", x.shape, x.dtype) + tuple(a.tolist() for a in x.to_coo())
    if isinstance(x, sr.Vector):
        return ("V", x.shape, x.dtype) + tuple(a.tolist() for a in x.to_coo())
    return None


@contextlib.contextmanager
def raises(exc, match, *untouched):
    """pytest.raises of exactly ``exc`` that also checks ``untouched`` containers are unchanged."""
    before = [_snap(x) for x in untouched]
    with pytest.raises(exc, match=match) as info:
        yield info
    assert type(info.value) is exc, f"expected {exc.__name__}, got {type(info.value).__name__}: {info.value}"
    assert [_snap(x) for x in untouched] == before, "a call that raised modified its output"


def _mat():
    return sr.Matrix.from_coo([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0], nrows=3, ncols=3)
