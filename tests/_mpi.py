"""The mpiexec of this environment, for the tests that start MPI programs."""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

import pytest


def mpiexec():
    """The mpiexec of this Python environment (the MPICH wheel puts it in its scripts folder);
    ``SEMIRING_MPIEXEC`` names another."""
    if os.environ.get("SEMIRING_MPIEXEC"):
        return os.environ["SEMIRING_MPIEXEC"]
    for cand in (Path(sysconfig.get_path("scripts")) / "mpiexec", Path(sys.executable).parent / "mpiexec"):
        if cand.exists():
            return str(cand)
    found = shutil.which("mpiexec")
    if found:
        return found
    msg = "no mpiexec: install the test extra (pip install -e '.[test]' brings the mpich wheel)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and {msg}", pytrace=False)
    pytest.skip(msg)
