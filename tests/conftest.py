"""Shared fixtures.

``shared_data``: the real graphs in ``../shared/data`` (relative to the repository root; see
its README.md). They are never copied into the repository. When the folder is missing the
tests that need it fail under CI (``CI=true``), because a silently skipped published-answer
test hides regressions, and skip with a message on a user's machine.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import numpy as np
import pytest

#: <repository root>/../shared/data
SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def require_data_dir(path: Path = SHARED_DATA, environ=os.environ) -> Path:
    """Return ``path`` if it is a directory; otherwise fail (CI) or skip (elsewhere)."""
    if path.is_dir():
        return path
    msg = (f"the real-graph data folder is missing: expected it at {path} (../shared/data relative "
           "to the repository root, holding small/, roads/, coloring/ and web/ as described in its "
           "README.md: LAGraph test matrices, LDBC Graphalytics, DIMACS roads and coloring instances)")
    if environ.get("CI") == "true":
        pytest.fail(f"CI=true and {msg}", pytrace=False)
    pytest.skip(msg)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path of ``../shared/data``; fails under CI=true and skips elsewhere when it is missing."""
    return require_data_dir()


def pytest_addoption(parser):
    parser.addoption("--cpu-backend", choices=("numpy", "suitesparse", "auto"), default=None,
                     help="the CPU backend of new containers (default: $SEMIRING_CPU_BACKEND, else auto)")


def pytest_configure(config):
    """``--cpu-backend`` sets the process-wide CPU backend (``semiring.backends.set_cpu_backend``)."""
    name = config.getoption("--cpu-backend")
    if name is not None:
        from semiring.backends import set_cpu_backend

        set_cpu_backend(name)


@pytest.fixture(autouse=True)
def _pinned_cpu_backend(request):
    """Tests marked ``numpy_backend`` inspect the NumPy storage itself: they run on the NumPy
    backend whatever the session's choice (process-wide, so their threads see it too)."""
    if request.node.get_closest_marker("numpy_backend") is None:
        yield
        return
    from semiring.backends import set_cpu_backend

    previous = set_cpu_backend("numpy")
    try:
        yield
    finally:
        set_cpu_backend(previous)


def _suitesparse_skips(items):
    """Tests marked ``suitesparse`` skip without python-graphblas, except under CI=true with
    SEMIRING_CPU_BACKEND=suitesparse, where a missing extra is a failure."""
    marked = [item for item in items if item.get_closest_marker("suitesparse")]
    if not marked:
        return
    from semiring.backends import suitesparse
    from semiring.exceptions import BackendUnavailable

    try:
        suitesparse.load()
        return
    except BackendUnavailable as exc:
        reason = str(exc)
    if os.environ.get("CI") == "true" and os.environ.get("SEMIRING_CPU_BACKEND") == "suitesparse":
        pytest.exit(f"CI=true and SEMIRING_CPU_BACKEND=suitesparse, but {reason}", returncode=1)
    for item in marked:
        item.add_marker(pytest.mark.skip(reason=reason))


def pytest_collection_modifyitems(config, items):
    """Tests marked ``gpu`` skip, with the reason CuPy gave, where no GPU can be used; those
    marked ``suitesparse`` skip without python-graphblas (``_suitesparse_skips``)."""
    _suitesparse_skips(items)
    if not any(item.get_closest_marker("gpu") for item in items):
        return
    from semiring.backends import gpu
    from semiring.exceptions import BackendUnavailable

    try:
        gpu.load()
        return
    except BackendUnavailable as exc:
        reason = f"no GPU: {exc}"
    for item in items:
        if item.get_closest_marker("gpu"):
            item.add_marker(pytest.mark.skip(reason=reason))


# ---------------------------------------------------------------------------------------------
# the containers of the error-path tests (tests/core/test_errors_*.py, tests/ops/test_errors_ops.py)
# ---------------------------------------------------------------------------------------------
@pytest.fixture
def A():
    """4x4 int64, four entries."""
    import semiring as sr

    return sr.Matrix.from_coo([0, 1, 2, 3], [1, 2, 3, 0], [1, 2, 3, 4], nrows=4, ncols=4)


@pytest.fixture
def u():
    """size-4 int64, two entries."""
    import semiring as sr

    return sr.Vector.from_coo([0, 2], [5, 7], size=4)


@pytest.fixture
def w():
    """size-4 int64 output with entries, to see that nothing is written on error."""
    import semiring as sr

    return sr.Vector.from_coo([1, 3], [11, 13], size=4)


@pytest.fixture
def C():
    """4x4 int64 output with entries."""
    import semiring as sr

    return sr.Matrix.from_coo([0, 3], [0, 3], [21, 23], nrows=4, ncols=4)


@pytest.fixture(scope="module")
def cnr2000(shared_data):
    """The LAW cnr-2000 crawl (a pattern) and its published strong-component labels."""
    import semiring as sr

    A = sr.io.read(shared_data / "web/cnr-2000.mtx.gz")
    assert (A.nrows, A.nvals) == (325_557, 3_216_152)
    with gzip.open(shared_data / "web/cnr-2000.scc.txt.gz", "rt") as f:
        header = f.readline()
        law = np.loadtxt(f, dtype=np.int64)
    assert header.startswith("#") and "100977 components" in header
    return A, law
