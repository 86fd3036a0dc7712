"""The machine, library and device description written at the top of every result (no host name).

Functions
---------
gpu_status    (cupy module or None, reason)
describe      dict of versions, CPU, memory, GPU name, CUDA driver / runtime
copy_bandwidth  measured device-to-device copy bandwidth (bytes/s, read + write)
slug          file-name-safe device name
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
from datetime import datetime, timezone
from importlib import metadata


def gpu_status():
    """Return ``(cupy, None)`` when a GPU can be used, else ``(None, reason)``.

    Goes through ``semiring.backends.gpu.load`` so the harness agrees with the engine on
    what "a GPU is there" means.
    """
    from semiring.backends import gpu
    from semiring.exceptions import BackendUnavailable

    try:
        return gpu.load(), None
    except BackendUnavailable as exc:
        return None, str(exc)


def _version(dist):
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib():
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
        return round(kib / 2**20, 1)
    except (OSError, ValueError, IndexError):
        return None


def _git():
    """The commit measured; ``SEMIRING_COMMIT`` names it where the tree was copied without its
    history (a lent GPU machine receives the working tree, not the repository's HEAD)."""
    if os.environ.get("SEMIRING_COMMIT"):
        return {"commit": os.environ["SEMIRING_COMMIT"], "dirty": False}
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                              timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return {"commit": head or None, "dirty": bool(dirty)}
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}


def _gpu(cp):
    rt = cp.cuda.runtime
    props = rt.getDeviceProperties(cp.cuda.Device().id)
    name = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])

    def _cuda(v):
        return f"{v // 1000}.{(v % 1000) // 10}"

    return {
        "name": name,
        "memory_gib": round(props["totalGlobalMem"] / 2**30, 1),
        "compute_capability": f"{props['major']}.{props['minor']}",
        "multiprocessors": props["multiProcessorCount"],
        "cupy": cp.__version__,
        "cuda_driver": _cuda(rt.driverGetVersion()),
        "cuda_runtime": _cuda(rt.runtimeGetVersion()),
    }


def describe(cp=None, packages=()):
    """Versions and hardware, without the host name.

    Parameters
    ----------
    cp : module or None
        CuPy, when a GPU is in use.
    packages : iterable of str
        More distributions whose versions the report gives (a suite's optional peers).

    Returns
    -------
    dict
        ``date`` (UTC ISO), ``python``, ``packages`` (versions or None), ``machine`` (OS, CPU
        model, logical CPUs, memory), ``git`` (commit, dirty), ``gpu`` (or None).
    """
    import numpy
    import scipy

    return {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "packages": {"semiring": _version("semiring"), "numpy": numpy.__version__, "scipy": scipy.__version__,
                     "cupy": cp.__version__ if cp is not None else _version("cupy"),
                     "python-graphblas": _version("python-graphblas"),
                     "suitesparse-graphblas": _version("suitesparse-graphblas"),
                     "graphblas-algorithms": _version("graphblas-algorithms"), "networkx": _version("networkx")}
        | {p: _version(p) for p in packages},
        "machine": {"os": f"{platform.system()} {platform.release()}", "arch": platform.machine(),
                    "cpu": _cpu_model(), "logical_cpus": os.cpu_count(), "memory_gib": _memory_gib()},
        "git": _git(),
        "gpu": _gpu(cp) if cp is not None else None,
    }


def copy_bandwidth(cp, nbytes=2**30, repeat=5):
    """Device-to-device copy bandwidth of ``nbytes`` (default 1 GiB), timed with CUDA events.

    Returns
    -------
    float
        Bytes moved per second, counting the read and the write (2 * nbytes per copy), median
        of ``repeat`` copies after a warm-up.
    """
    src = cp.ones(nbytes // 4, dtype=cp.float32)
    dst = cp.empty_like(src)
    cp.copyto(dst, src)
    times = []
    for _ in range(repeat):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        cp.copyto(dst, src)
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) / 1e3)
    del src, dst
    cp.get_default_memory_pool().free_all_blocks()
    times.sort()
    return 2 * nbytes / times[len(times) // 2]


def slug(text):
    """Lower-case, dash-separated, file-name-safe: ``"NVIDIA H100 80GB HBM3"`` -> ``"nvidia-h100-80gb-hbm3"``."""
    s = re.sub(r"\(r\)|\(tm\)|cpu @.*$", "", text.lower())
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")[:48] or "unknown"


def today():
    """UTC date as YYYYMMDD."""
    return datetime.now(timezone.utc).strftime("%Y%m%d")
