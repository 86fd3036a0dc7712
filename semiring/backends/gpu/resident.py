"""Vector operations that stay on the GPU: no host round trip, one generated kernel each.

Every vector an operation here touches is kept in bitmap form (a presence array and a dense
value array) with its entry count in device memory (``Vector._resident``). The kernels in
``kernels/resident_{write,products,reduce}.cu`` (sharing ``kernels/resident.cuh``) are
specialized per (operation, operator snippets, dtypes, mask kind, accumulator, replace,
device) and cached by :mod:`.compiler`:

- ``ewise_add``, ``ewise_mult``, ``apply``, ``select``, ``assign`` and ``extract`` over the
  whole vector: one ``pointwise`` launch computes T and applies the write step
  ``C<M, replace> = accum(C, T)`` (GraphBLAS C API 2.0, 3.5.4) and C's new count;
- ``mxv``/``vxm``: one ``product`` launch that decides on the device, from the input's and
  the mask's counts (on skewed matrices, from the exact edges of the input's entries, summed
  by an ``estimate`` launch), whether to push or pull (Beamer, Asanovic, Patterson,
  "Direction-optimizing breadth-first search", SC 2012; Yang, Buluc, Owens, "Implementing
  push-pull efficiently in GraphBLAS", ICPP 2018), writing T into a scratch bitmap, then the
  ``pointwise`` write step, which also returns the scratch to rest;
- ``reduce_scalar``: one ``reduce_all`` launch, then one read of the value.

Vectors of ``LIST_MIN`` positions or more that are written in place also keep an entry list
(their present positions, unordered; :func:`_lists`), the sparse device form: a kernel whose
positions to visit are listed and few walks the lists, O(entries), and the whole bitmap
otherwise; it decides on the device from the counts (as SuiteSparse:GraphBLAS switches
between sparse and bitmap forms, and GraphBLAST between sparse and dense vectors, but
without asking the host).

Launches go through :mod:`.launch` (``cuLaunchKernel`` with a parameter block per kernel).

Each entry point returns ``NotImplemented`` when it cannot compute the operation exactly (a
Matrix operand, an operator without a CUDA snippet, a cast C would do differently from
NumPy, a ``trace`` request, ...); the caller then runs the generic array code.

The families live in their own modules, named here: the write step and what they share
(:mod:`._resident_write`), the element-wise operations (:mod:`._resident_pointwise`), the
reductions (:mod:`._resident_reduce`) and the products (:mod:`._resident_products`). The
constants that tune them are set where they are used (e.g. ``_resident_write.LIST_MIN``).
"""

from __future__ import annotations

from ._resident_pointwise import apply, assign, ewise, extract, select
from ._resident_products import HEAVY, PULL_BIAS, PULL_HEAVY, PUSH_LIST_LANES, SKEW, matvec
from ._resident_reduce import reduce_lines, reduce_scalar
from ._resident_write import BLOCKS_PER_SM, LIST_DIV, LIST_MIN, MAX_SIZE, POINTWISE_BLOCKS_PER_SM, WriteStep

__all__ = ["WriteStep", "ewise", "apply", "select", "assign", "extract", "reduce_scalar", "reduce_lines", "matvec",
           "MAX_SIZE", "LIST_MIN", "LIST_DIV", "BLOCKS_PER_SM", "POINTWISE_BLOCKS_PER_SM", "PULL_BIAS", "HEAVY",
           "PULL_HEAVY", "PUSH_LIST_LANES", "SKEW"]
