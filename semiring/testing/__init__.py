"""Testing helpers: ``reference``, a dict-of-keys reference implementation of the GraphBLAS
semantics (import ``semiring.testing.validate`` for the result validators).

>>> import semiring as sr
>>> from semiring.testing import reference as ref
>>> u = sr.Vector.from_coo([0, 2], [1, 0], size=3, dtype="int64")
>>> ref.from_semiring(u).entries == {0: 1, 2: 0}
True
"""

from . import reference
from .reference import Choice, RefMask, RefMatrix, RefVector, assert_same, from_semiring, to_semiring

__all__ = ["reference", "Choice", "RefMask", "RefMatrix", "RefVector", "assert_same", "from_semiring", "to_semiring"]
