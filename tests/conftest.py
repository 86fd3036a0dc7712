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


def pytest_collection_modifyitems(config, items):
    """Tests marked ``gpu`` skip, with the reason CuPy gave, where no GPU can be used."""
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
