"""Shared fixtures.

``shared_data``: the real graphs in ``../shared/data`` (relative to the repository root; see
its README.md). They are never copied into the repository. When the folder is missing the
tests that need it fail under CI (``CI=true``), because a silently skipped published-answer
test hides regressions, and skip with a message on a user's machine.

Hypothesis profiles, chosen by ``HYPOTHESIS_PROFILE`` (unset: Hypothesis's own choice, its
``ci`` settings where ``CI`` is set and its defaults elsewhere):

- ``ci``: each test's own settings, derandomized (the same examples on every run), no deadline;
- ``nightly``: ``NIGHTLY_FACTOR`` times each test's examples (at least 1000), randomized (new
  examples every run; a failure prints the blob that reproduces it), no deadline, and the
  per-test timeout widened by the same factor. A test's own ``@settings`` override a profile's
  values, so ``_nightly`` widens them on each collected Hypothesis test.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

#: <repository root>/../shared/data
SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


settings.register_profile("ci", derandomize=True, deadline=None, database=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("nightly", max_examples=1000, derandomize=False, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
#: the nightly profile's multiplier of each test's examples and of its timeout
NIGHTLY_FACTOR = 10
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])


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


def _nightly(config, items):
    """Under the nightly profile: every Hypothesis test runs ``NIGHTLY_FACTOR`` times its own
    examples (at least the profile's), randomized, without a deadline, under a timeout as many
    times the configured one. Hypothesis keeps a test's settings on the test function
    (``_hypothesis_internal_use_settings``, read when the test runs); they are replaced here by
    settings derived from them."""
    if os.environ.get("HYPOTHESIS_PROFILE") != "nightly":
        return
    least = settings.get_profile("nightly").max_examples
    try:
        timeout = float(config.getini("timeout") or 0)  # pytest-timeout's ini option
    except ValueError:  # pytest-timeout is not installed
        timeout = 0.0
    done = set()
    for item in items:
        fn = getattr(item, "obj", None)
        if getattr(fn, "hypothesis", None) is None:
            continue
        if timeout and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(timeout * NIGHTLY_FACTOR))
        if id(fn) in done:
            continue
        done.add(id(fn))
        own = fn._hypothesis_internal_use_settings
        n = own.max_examples if own.max_examples == least else max(least, own.max_examples * NIGHTLY_FACTOR)
        fn._hypothesis_internal_use_settings = settings(own, max_examples=n, derandomize=False, deadline=None)


def pytest_collection_modifyitems(config, items):
    """Tests marked ``gpu`` skip, with the reason CuPy gave, where no GPU can be used; those
    marked ``suitesparse`` skip without python-graphblas (``_suitesparse_skips``); the nightly
    Hypothesis profile widens every Hypothesis test (``_nightly``)."""
    _suitesparse_skips(items)
    _nightly(config, items)
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
