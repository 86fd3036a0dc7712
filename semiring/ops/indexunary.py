"""Built-in index-unary operators for ``select`` and ``apply`` (GraphBLAS C API 2.0, table 3.6).

Selection predicates (bool output): ``tril`` (j <= i + thunk), ``triu`` (j >= i + thunk),
``diag`` (j == i + thunk), ``offdiag`` (j != i + thunk), ``rowle`` (i <= thunk), ``rowgt``,
``colle`` (j <= thunk), ``colgt``, and the value comparisons ``valueeq``, ``valuene``,
``valuelt``, ``valuele``, ``valuegt``, ``valuege`` (x op thunk). Positional values (int64
output, for ``apply``): ``rowindex`` (i + thunk), ``colindex`` (j + thunk), ``diagindex``
(j - (i + thunk): zero where ``diag`` with the same thunk holds). For vectors, i is the index
and j is 0.
"""

from __future__ import annotations

from ..exceptions import InvalidValue
from ._base import IndexUnaryOp

__all__ = [
    "tril", "triu", "diag", "offdiag", "rowle", "rowgt", "colle", "colgt",
    "valueeq", "valuene", "valuelt", "valuele", "valuegt", "valuege",
    "rowindex", "colindex", "diagindex", "INDEXUNARY", "get",
]


def _mk(func, name, *, structural, output="bool", cuda=None):
    return IndexUnaryOp(func, name, output=output, structural=structural, cuda=cuda, _internal=True)


tril = _mk(lambda xp, x, i, j, t: j <= i + t, "tril", structural=True, cuda="j <= i + thunk")
triu = _mk(lambda xp, x, i, j, t: j >= i + t, "triu", structural=True, cuda="j >= i + thunk")
diag = _mk(lambda xp, x, i, j, t: j == i + t, "diag", structural=True, cuda="j == i + thunk")
offdiag = _mk(lambda xp, x, i, j, t: j != i + t, "offdiag", structural=True, cuda="j != i + thunk")
rowle = _mk(lambda xp, x, i, j, t: i <= t, "rowle", structural=True, cuda="i <= thunk")
rowgt = _mk(lambda xp, x, i, j, t: i > t, "rowgt", structural=True, cuda="i > thunk")
colle = _mk(lambda xp, x, i, j, t: j <= t, "colle", structural=True, cuda="j <= thunk")
colgt = _mk(lambda xp, x, i, j, t: j > t, "colgt", structural=True, cuda="j > thunk")
valueeq = _mk(lambda xp, x, i, j, t: x == t, "valueeq", structural=False, cuda="x == thunk")
valuene = _mk(lambda xp, x, i, j, t: x != t, "valuene", structural=False, cuda="x != thunk")
valuelt = _mk(lambda xp, x, i, j, t: x < t, "valuelt", structural=False, cuda="x < thunk")
valuele = _mk(lambda xp, x, i, j, t: x <= t, "valuele", structural=False, cuda="x <= thunk")
valuegt = _mk(lambda xp, x, i, j, t: x > t, "valuegt", structural=False, cuda="x > thunk")
valuege = _mk(lambda xp, x, i, j, t: x >= t, "valuege", structural=False, cuda="x >= thunk")
rowindex = _mk(lambda xp, x, i, j, t: i + t, "rowindex", structural=True, output="int64", cuda="i + thunk")
colindex = _mk(lambda xp, x, i, j, t: j + t, "colindex", structural=True, output="int64", cuda="j + thunk")
diagindex = _mk(lambda xp, x, i, j, t: j - (i + t), "diagindex", structural=True, output="int64",
                cuda="j - (i + thunk)")

INDEXUNARY = {
    op.name: op
    for op in (tril, triu, diag, offdiag, rowle, rowgt, colle, colgt, valueeq, valuene, valuelt,
               valuele, valuegt, valuege, rowindex, colindex, diagindex)
}


def get(name):
    """Return the built-in index-unary operator called ``name``; raise InvalidValue if there is none."""
    try:
        return INDEXUNARY[name]
    except (KeyError, TypeError):  # (TypeError: an unhashable name)
        raise InvalidValue(
            f"no built-in index-unary operator {name!r}; expected one of {sorted(INDEXUNARY)}"
        ) from None
