"""Compute kernels. A backend computes the temporary result T of an operation; the write step
(``semiring.core._write``) applies mask, accumulator and replace for every backend alike."""
