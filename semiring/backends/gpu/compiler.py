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

import re
import threading
from pathlib import Path

from ..._once import once_item

#: Where the ``.cu`` sources and their shared header live.
KERNELS = Path(__file__).resolve().parent / "kernels"

#: C type of each NumPy dtype a kernel is specialized for (the values of type definitions).
CTYPE = {
    "bool": "bool", "int8": "signed char", "int16": "short", "int32": "int", "int64": "long long",
    "uint8": "unsigned char", "uint16": "unsigned short", "uint32": "unsigned int",
    "uint64": "unsigned long long", "float32": "float", "float64": "double",
}

_modules = {}
_functions = {}
_sources = {}
_lock = threading.RLock()


#: NVRTC options of every kernel (the shared header's folder on the include path).
OPTIONS = ("--std=c++17", f"-I{KERNELS}")


def source(filename):
    """The text of ``kernels/<filename>`` (read once)."""
    return once_item(_sources, filename, lambda: (KERNELS / filename).read_text(), _lock)


def ctype(dtype):
    """The C type name of a NumPy dtype (``CTYPE``)."""
    import numpy as np

    return CTYPE[np.dtype(dtype).name]


def _items(defines):
    return tuple((str(k), str(v)) for k, v in (defines.items() if hasattr(defines, "items") else defines))


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

    items = _items(defines)
    key = (filename, items, tuple(options), cp.cuda.runtime.getDevice())

    def build():
        return cp.RawModule(code=code(filename, items), options=OPTIONS + tuple(options))

    return once_item(_modules, key, build, _lock)


_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"[ \t]*$', re.M)


def _inline(filename, seen):
    """``kernels/<filename>`` with its ``#include "..."`` of kernel headers pasted in, each header
    once (as ``#pragma once`` would)."""

    def paste(m):
        name = m.group(1)
        if name in seen:
            return ""
        seen.add(name)
        return _inline(name, seen)

    return _INCLUDE.sub(paste, source(filename))


def code(filename, defines=()):
    """The text NVRTC compiles for ``kernels/<filename>`` under ``defines`` (no CuPy needed).

    Headers are pasted in rather than left to the include path: CuPy's compilation cache keys on
    this text, so a changed header compiles anew."""
    return _prelude(_items(defines)) + _inline(filename, {filename})


def kernel(filename, name, defines=(), options=()):
    """One ``__global__`` function (``extern "C"``) of :func:`module`, compiled and cached."""
    import cupy as cp

    key = (filename, name, _items(defines), tuple(options), cp.cuda.runtime.getDevice())
    return once_item(_functions, key, lambda: module(filename, defines, options).get_function(name), _lock)
