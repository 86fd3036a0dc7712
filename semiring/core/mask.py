"""Masks: which positions of the output an operation may write (GraphBLAS C API 2.0, 3.5.4).

``u.S`` is a structural mask (every entry of ``u`` allows its position), ``u.V`` a value mask
(an entry allows its position only if its value is true), ``~mask`` the complement.
"""

from __future__ import annotations


from .. import _checks
from .. import dtypes as _dt
from ..backends._xp import xp_of
from ..backends.array.sparse import member
from ..exceptions import InvalidValue


class Mask:
    """A structural or value mask over a Vector or Matrix, possibly complemented.

    Build one with ``u.S``, ``u.V``, ``A.S``, ``A.V`` and ``~``; an operation's ``mask=``
    takes it (a bare Vector or Matrix is taken as its value mask ``.V``).
    """

    __slots__ = ("parent", "structural", "complement")

    def __init__(self, parent, structural, complement=False):
        if not (hasattr(parent, "_keys") and hasattr(type(parent), "nvals")):  # a Vector or Matrix
            raise InvalidValue(f"Mask: expected a Vector or Matrix to mask by; given {type(parent).__name__}")
        self.parent = parent
        self.structural = structural if type(structural) is bool else _checks.flag(structural, "Mask structural")
        self.complement = complement if type(complement) is bool else _checks.flag(complement, "Mask complement")

    def __invert__(self):
        return Mask(self.parent, self.structural, not self.complement)

    def __repr__(self):
        return f"{'~' if self.complement else ''}{type(self.parent).__name__}.{'S' if self.structural else 'V'}"

    @property
    def shape(self):
        return self.parent.shape

    def true_keys(self):
        """Sorted keys where the mask (before complement) is true."""
        keys, vals = self.parent._keys()
        if self.structural:
            return keys
        _dt.check_bool_domain(vals, f"value mask {self!r}")
        return keys[vals != 0]

    def check(self):
        """Raise InvalidValue if a value mask holds NaN (not a boolean)."""
        if not self.structural and self.parent.dtype.kind == "f":  # only floats can hold NaN
            if self.parent.format == "bitmap":
                present, dense = self.parent._bitmap()
                vals = dense[present]
            else:
                vals = self.parent._keys()[1]
            _dt.check_bool_domain(vals, f"value mask {self!r}")

    def allows(self, keys):
        """Boolean array: the mask allows writing at ``keys``."""
        return self.allows_fn()(keys)

    def allows_fn(self):
        """``allows`` with the mask's lookup prepared once (for repeated tests within one operation).

        A bitmap Vector parent is indexed directly (O(len(keys))); otherwise the sorted true
        keys are searched."""
        complement = self.complement
        if self.parent.format == "bitmap":
            present, dense = self.parent._bitmap()
            self.check()
            table = present if self.structural else present & (dense != 0)

            def allows(keys):
                hit = table[keys]
                return ~hit if complement else hit

            return allows
        true_keys = self.true_keys()
        size = self.parent.size if len(self.shape) == 1 else None  # a Vector mask
        table = None

        def allows(keys):
            nonlocal table
            if table is None and size is not None and keys.shape[0] * 8 > size:
                # many lookups: a bool table over the vector (O(size)) beats binary search
                table = xp_of(true_keys).zeros(size, dtype=bool)
                table[true_keys] = True
            hit = member(true_keys, keys) if table is None else table[keys]
            return ~hit if complement else hit

        return allows

    def allows_dense(self):
        """Boolean array over every position of a Vector mask (length ``size``); OutOfMemory
        if it would not fit in the memory free now."""
        from .._memory import require

        require(self.parent.size * 2, f"the mask {self!r}: one bool for each of its {self.parent.size} positions",
                self.parent.device)
        if self.parent.format == "bitmap":
            present, dense = self.parent._bitmap()
            self.check()
            table = present if self.structural else present & (dense != 0)
            return ~table if self.complement else table.copy()
        keys = self.true_keys()
        present = xp_of(keys).zeros(self.parent.size, dtype=bool)
        present[keys] = True
        return ~present if self.complement else present

    def allowed_rows(self):
        """For a Matrix mask that is not complemented: bool array of rows with an allowed entry."""
        keys = self.true_keys()
        rows = xp_of(keys).zeros(self.parent.nrows, dtype=bool)
        rows[keys // max(self.parent.ncols, 1)] = True
        return rows
