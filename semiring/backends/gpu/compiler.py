"""The one kernel compiler and cache of the GPU backend.

CUDA sources live in ``backends/gpu/kernels/*.cu`` and share ``kernels/common.cuh`` (C types,
the atomic monoid updates, warp and block reductions, the grid-stride loop). A kernel is
specialized by preprocessor definitions (the semiring's types and snippets, the mask kind,
...), compiled by NVRTC through CuPy once per (file, definitions, options, device) and cached;
threads asking for the same kernel at the same time wait for one compilation
(:mod:`semiring._once`).

As cupyx.scipy.sparse does, kernels are built on first use, so ``import semiring`` never
needs CuPy or a GPU.
"""

from __future__ import annotations

import threading
from pathlib import Path

from ..._once import once_item

#: Where the ``.cu`` sources and their shared header live.
KERNELS = Path(__file__).resolve().parent / "kernels"

_modules = {}
_sources = {}
_lock = threading.RLock()


def source(filename):
    """The text of ``kernels/<filename>`` (read once)."""
    return once_item(_sources, filename, lambda: (KERNELS / filename).read_text(), _lock)


def _prelude(defines):
    lines = []
    for name, value in defines:
        if "\n" in str(value):
            raise ValueError(f"kernel definition {name} spans lines")
        lines.append(f"#define {name} {value}")
    return "\n".join(lines) + "\n"


def module(filename, defines=(), options=()):
    """The compiled ``cupy.RawModule`` of ``kernels/<filename>`` under ``defines``.

    Parameters
    ----------
    filename : str
        A file in ``kernels/``; it may ``#include "common.cuh"``.
    defines : mapping or sequence of (name, value)
        Prepended as ``#define name value`` lines, in the given order (a mapping keeps its
        insertion order). Values are C text: types, expressions, 0/1 flags.
    options : tuple of str
        Extra NVRTC options.
    """
    import cupy as cp

    items = tuple((str(k), str(v)) for k, v in (defines.items() if hasattr(defines, "items") else defines))
    key = (filename, items, tuple(options), cp.cuda.runtime.getDevice())

    def build():
        code = _prelude(items) + source(filename)
        return cp.RawModule(code=code, options=("--std=c++17", f"-I{KERNELS}", *options))

    return once_item(_modules, key, build, _lock)


def kernel(filename, name, defines=(), options=()):
    """One ``__global__`` function (``extern "C"``) of :func:`module`, compiled and cached."""
    return module(filename, defines, options).get_function(name)
