"""Graph arguments of the command line: a file path or a generator spec."""

from __future__ import annotations

import os

from .. import generators, io
from ..exceptions import InvalidValue

SPECS = "kron:SCALE[:EDGE_FACTOR], grid2d:SIDE, grid3d:SIDE, rgg:LOG2_N"


def load(spec, *, weighted=False, seed=0, device="cpu"):
    """A Matrix from a file path or a generator spec.

    Generated graphs get int64 weights uniform in [1, 255] when ``weighted`` (as the Graph500
    SSSP kernel's integer variant); files keep their own weights.
    """
    if os.path.exists(spec):
        A = io.read(spec)
        return A.to(device) if device != "cpu" else A
    name, _, rest = spec.partition(":")
    if name not in ("kron", "grid2d", "grid3d", "rgg") or not rest:
        raise InvalidValue(f"graph: expected an existing file or a generator spec ({SPECS}); given {spec!r}")
    try:
        nums = [int(x) for x in rest.split(":")]
    except ValueError:
        raise InvalidValue(f"graph: expected integers in the spec ({SPECS}); given {spec!r}") from None
    if min(nums) < 1:
        raise InvalidValue(f"graph: expected positive integers in the spec ({SPECS}); given {spec!r}")
    w = (1, 255) if weighted else None
    if name == "kron" and 1 <= len(nums) <= 2:
        return generators.kronecker(nums[0], *nums[1:], seed=seed, weights=w, device=device)
    if name == "grid2d" and len(nums) == 1:
        return generators.grid(nums[0], nums[0], weights=w, seed=seed, device=device)
    if name == "grid3d" and len(nums) == 1:
        return generators.grid(nums[0], nums[0], nums[0], weights=w, seed=seed, device=device)
    if name == "rgg" and len(nums) == 1:
        return generators.random_geometric(1 << nums[0], seed=seed, weights=w, device=device)
    raise InvalidValue(f"graph: expected one of {SPECS}; given {spec!r}")
