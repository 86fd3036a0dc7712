"""Exceptions raised by semiring.

Every error the library raises derives from :class:`SemiringError`, so callers can catch
one class. The names follow the GraphBLAS C API error codes (``GrB_DIMENSION_MISMATCH``,
``GrB_DOMAIN_MISMATCH``, ``GrB_INDEX_OUT_OF_BOUNDS``, ``GrB_INVALID_VALUE``).
"""


class SemiringError(Exception):
    """Base class of every exception raised by semiring."""


class DimensionMismatch(SemiringError, ValueError):
    """Shapes of the operands, mask or output do not agree (``GrB_DIMENSION_MISMATCH``)."""


class DomainMismatch(SemiringError, TypeError):
    """A dtype cannot be used where it was given (``GrB_DOMAIN_MISMATCH``)."""


class IndexOutOfBound(SemiringError, IndexError):
    """An index is negative or past the end of its dimension (``GrB_INDEX_OUT_OF_BOUNDS``)."""


class InvalidValue(SemiringError, ValueError):
    """A value or argument is not valid here (``GrB_INVALID_VALUE``)."""


class NegativeCycleError(SemiringError, ValueError):
    """A negative-weight cycle is reachable from the source of a shortest-path search."""


class OutOfMemory(SemiringError, MemoryError):
    """An operation would need more memory than is free (``GrB_OUT_OF_MEMORY``); raised before
    allocating, with the operation, the size asked for and the memory free."""


class BackendUnavailable(SemiringError, RuntimeError):
    """The requested device backend (e.g. ``"gpu"``) cannot be loaded on this machine."""


class ConvergenceFailure(SemiringError, RuntimeError):
    """An iterative algorithm did not reach its tolerance within its iteration limit
    (LAGraph's ``LAGRAPH_CONVERGENCE_FAILURE``). ``iterations`` is the number of iterations run."""

    def __init__(self, message, iterations=None):
        super().__init__(message)
        self.iterations = iterations
