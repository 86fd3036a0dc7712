"""Optional dependencies of the tests: ``require`` imports one, and a missing one fails the test
under CI (``CI=true``: the test extra installs every one of them, so a missing one is a broken
install that a skip would hide) and skips it, with the reason, on a user's machine. The same rule
as conftest.py's for the shared data folder and the SuiteSparse backend."""

from __future__ import annotations

import importlib
import os

import pytest


def require(name, extra="test"):
    """The module ``name``; fails (CI=true) or skips (elsewhere) the calling test without it."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        msg = f"{name} is not installed ({exc}); python -m pip install -e '.[{extra}]' installs it"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {msg}", pytrace=False)
        pytest.skip(msg)
