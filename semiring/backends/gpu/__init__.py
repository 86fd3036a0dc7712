"""The GPU backend: CuPy arrays, with kernels CuPy compiles at run time.

Nothing here imports CuPy until a GPU is asked for, so CPU-only users pay nothing:
``load()`` imports it on first use and raises BackendUnavailable with CuPy's own reason when
it cannot be used.
"""

from __future__ import annotations

from ...exceptions import BackendUnavailable

_state = {"cupy": None, "error": None}


def load():
    """Import CuPy and check that a GPU is there; return the ``cupy`` module.

    Raises
    ------
    BackendUnavailable
        CuPy is not installed, or finds no usable GPU (the message gives CuPy's reason).
    """
    if _state["cupy"] is not None:
        return _state["cupy"]
    if _state["error"] is None:
        try:
            import cupy

            count = cupy.cuda.runtime.getDeviceCount()
            if count < 1:
                raise RuntimeError("CUDA reports no GPU")
            _state["cupy"] = cupy
            return cupy
        except Exception as exc:  # ImportError, CUDARuntimeError, ...: all mean "no GPU here"
            _state["error"] = f"{type(exc).__name__}: {exc}"
    raise BackendUnavailable(
        f"device='gpu' needs CuPy and an NVIDIA GPU (pip install 'semiring[cuda13]'); {_state['error']}"
    )


def available():
    """True if ``load()`` would succeed."""
    try:
        load()
        return True
    except BackendUnavailable:
        return False
