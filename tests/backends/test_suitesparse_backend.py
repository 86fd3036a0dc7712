"""The SuiteSparse:GraphBLAS CPU backend: choosing it (the option, the environment, the
process-wide setting, a missing python-graphblas).

A SuiteSparse container holds its content as a python-graphblas object, a NumPy form, or both
(``semiring.backends.suitesparse.containers``); its containers are tested in
test_suitesparse_containers.py and the parity of every public operation with the NumPy
backend in test_suitesparse_parity.py."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import semiring as sr
from semiring.exceptions import InvalidValue


pytestmark = pytest.mark.suitesparse
ROOT = Path(__file__).resolve().parents[2]


# -- choosing the backend -----------------------------------------------------------------------
def test_names_and_availability():
    assert sr.backends.available_cpu_backends() == ("numpy", "suitesparse")
    with sr.backends.use_cpu_backend("suitesparse") as name:
        assert name == "suitesparse" == sr.backends.cpu_backend()
        assert sr.Matrix(2, 3).backend == "suitesparse" and sr.Vector(4).backend == "suitesparse"
        with sr.backends.use_cpu_backend("numpy") as inner:
            assert inner == "numpy" and sr.Vector(4).backend == "numpy"
        with sr.backends.use_cpu_backend("auto") as auto:
            assert auto == "suitesparse" == sr.backends.cpu_backend()  # auto: the extra is importable
        assert sr.backends.cpu_backend() == "suitesparse"


def test_set_cpu_backend_returns_the_previous_choice():
    first = sr.backends.set_cpu_backend("suitesparse")
    try:
        assert sr.backends.cpu_backend() == "suitesparse" and sr.Matrix(1, 1).backend == "suitesparse"
        assert sr.backends.set_cpu_backend("numpy") == "suitesparse"
        assert sr.Matrix(1, 1).backend == "numpy"
    finally:
        sr.backends.set_cpu_backend(first)


def test_use_cpu_backend_is_local_to_its_thread():
    seen = {}
    with sr.backends.use_cpu_backend("numpy"):
        previous = sr.backends.set_cpu_backend("suitesparse")
        try:
            t = threading.Thread(target=lambda: seen.setdefault("other", sr.Vector(3).backend))
            t.start()
            t.join()
            seen["here"] = sr.Vector(3).backend
        finally:
            sr.backends.set_cpu_backend(previous)
    assert seen == {"other": "suitesparse", "here": "numpy"}


@pytest.mark.parametrize("bad", ["scipy", "SuiteSparse", "", None, 3])
def test_unknown_backend_names_raise(bad):
    for call in (lambda: sr.backends.set_cpu_backend(bad), lambda: sr.backends.use_cpu_backend(bad).__enter__()):
        with pytest.raises(InvalidValue, match="expected one of 'numpy', 'suitesparse', 'auto'"):
            call()
    if bad is None:
        return
    A = sr.Matrix(2, 2, backend="numpy")
    for call in (lambda: sr.Matrix(2, 2, backend=bad), lambda: sr.Vector(2, backend=bad),
                 lambda: sr.Matrix.from_coo([0], [1], nrows=2, ncols=2, backend=bad),
                 lambda: sr.Vector.from_coo([0], size=2, backend=bad),
                 lambda: sr.Matrix.from_dense(np.ones((2, 2)), backend=bad),
                 lambda: sr.Vector.from_dense(np.ones(2), backend=bad),
                 lambda: sr.Matrix.from_scipy(sp.eye(2, format="csr"), backend=bad),
                 lambda: A.to("cpu", backend=bad)):
        with pytest.raises(InvalidValue, match=r"backend: expected one of .*'cupy'"):
            call()


def test_a_cpu_backend_on_the_gpu_is_refused_before_looking_for_a_gpu():
    for backend in ("suitesparse", "numpy"):
        msg = rf"backend='{backend}' stores on the CPU; device='gpu' stores with 'cupy'"
        with pytest.raises(InvalidValue, match=msg):
            sr.Matrix(2, 2, device="gpu", backend=backend)
        with pytest.raises(InvalidValue, match=msg):
            sr.Vector.from_coo([0], size=2, device="gpu", backend=backend)
        with pytest.raises(InvalidValue, match=msg):
            sr.Matrix(2, 2, backend="suitesparse").to("gpu", backend=backend)
    with pytest.raises(InvalidValue, match="backend='cupy' stores on the GPU"):
        sr.Vector(2, backend="cupy")


def test_every_constructor_takes_backend(tmp_path):
    dense = np.array([[0.0, 2.0], [3.0, 0.0]])
    made = [
        sr.Matrix(2, 2, backend="suitesparse"), sr.Vector(2, backend="suitesparse"),
        sr.Matrix.from_coo([0, 1], [1, 0], [2.0, 3.0], nrows=2, ncols=2, backend="suitesparse"),
        sr.Vector.from_coo([1], [2.0], size=2, backend="suitesparse"),
        sr.Matrix.from_dense(dense, missing=0.0, backend="suitesparse"),
        sr.Vector.from_dense(dense[0], backend="suitesparse"),
        sr.Matrix.from_scipy(sp.csr_array(dense), backend="suitesparse"),
        sr.Matrix.from_scipy(sp.coo_array(dense), backend="suitesparse"),
        sr.io.from_graphblas(sr.io.to_graphblas(sr.Matrix.from_dense(dense)), backend="suitesparse"),
        sr.io.from_graphblas(sr.io.to_graphblas(sr.Vector.from_dense(dense[1])), backend="suitesparse"),
    ]
    assert [x.backend for x in made] == ["suitesparse"] * len(made)
    assert made[2].isequal(made[4]) and made[4].isequal(made[6]) and made[6].isequal(made[7])
    with sr.backends.use_cpu_backend("suitesparse"):
        assert sr.Matrix.from_coo([0], [0], nrows=1, ncols=1, backend="numpy").backend == "numpy"
        assert sr.Matrix.from_dense(dense).backend == "suitesparse"
        path = tmp_path / "two.mtx"
        path.write_text("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 3.5\n")
        assert sr.io.read(path).backend == "suitesparse" and sr.io.read(path).get(0, 1) == 3.5
        assert sr.generators.kronecker(4).backend == "suitesparse"


def test_dimensions_past_2_60_stay_numpy():
    big = 2**60 + 1
    for backend in ("suitesparse", None):
        with sr.backends.use_cpu_backend("suitesparse"):
            assert sr.Matrix(big, 3, backend=backend).backend == "numpy"
            assert sr.Vector(big, backend=backend).backend == "numpy"
            A = sr.Matrix.from_coo([big - 1], [2], [1.5], nrows=big, ncols=3, backend=backend)
            assert A.backend == "numpy" and A.get(big - 1, 2) == 1.5
    A = sr.Matrix(2**60, 2, backend="suitesparse")  # GrB_INDEX_MAX + 1 is the largest dimension
    assert A.backend == "suitesparse" and A._gb().nrows == 2**60
    assert sr.Matrix(big, 2).to("cpu", backend="suitesparse").backend == "numpy"


def _run(code, env=None):
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=120)


def test_environment_variable_sets_the_initial_choice():
    r = _run("import semiring as sr; print(sr.backends.cpu_backend(), sr.Matrix(2, 2).backend, sr.Vector(1).backend)",
             {"SEMIRING_CPU_BACKEND": "suitesparse"})
    assert r.returncode == 0 and r.stdout.split() == ["suitesparse"] * 3, r.stderr
    r = _run("import semiring as sr; print(sr.backends.cpu_backend())", {"SEMIRING_CPU_BACKEND": ""})
    assert r.returncode == 0 and r.stdout.split() == ["suitesparse"], r.stderr  # auto: the extra is installed
    r = _run("import semiring as sr\ntry:\n sr.Matrix(2, 2)\nexcept sr.InvalidValue as e:\n print(e)",
             {"SEMIRING_CPU_BACKEND": "cuda"})
    assert r.returncode == 0 and "environment variable SEMIRING_CPU_BACKEND: expected one of" in r.stdout, r.stderr
    r = _run("import semiring as sr; print(sr.backends.set_cpu_backend('numpy'), sr.Matrix(2, 2).backend)",
             {"SEMIRING_CPU_BACKEND": "cuda"})  # set_cpu_backend replaces an unknown name
    assert r.returncode == 0 and r.stdout.split() == ["auto", "numpy"], r.stderr


def test_the_numpy_backend_never_imports_graphblas():
    code = ("import sys, semiring as sr\nA = sr.generators.kronecker(5)\n"
            "sr.algorithms.bfs(A, 0); sr.mxv(A, sr.Vector.from_dense([1.0] * A.nrows), 'plus_times')\n"
            "print(A.backend, sr.backends.cpu_backend(), 'graphblas' in sys.modules)")
    r = _run(code, {"SEMIRING_CPU_BACKEND": "numpy"})
    assert r.returncode == 0 and r.stdout.split() == ["numpy", "numpy", "False"], r.stderr


WITHOUT_GRAPHBLAS = """
import sys
sys.modules["graphblas"] = None  # as if python-graphblas were not installed
import semiring as sr
print(sr.backends.available_cpu_backends(), sr.backends.cpu_backend(), sr.Matrix(2, 2).backend)
for call in (lambda: sr.Matrix(2, 2, backend="suitesparse"), lambda: sr.backends.set_cpu_backend("suitesparse"),
             lambda: sr.Vector.from_coo([0], size=1, backend="suitesparse"),
             lambda: sr.Matrix(2, 2).to("cpu", backend="suitesparse")):
    try:
        call()
        print("no error")
    except sr.BackendUnavailable as e:
        print("BackendUnavailable:", e)
"""


def test_without_the_extra_numpy_works_and_suitesparse_says_how_to_install():
    r = _run(WITHOUT_GRAPHBLAS, {"SEMIRING_CPU_BACKEND": "auto"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "('numpy',) numpy numpy"
    assert len(lines) == 5
    for line in lines[1:]:
        assert line.startswith("BackendUnavailable: backend='suitesparse' needs python-graphblas: "
                               "pip install 'semiring[suitesparse]'; importing it failed: ")
    r = _run(WITHOUT_GRAPHBLAS.replace("print(sr.backends.available", "sr.Matrix(1, 1)\nprint(sr.backends.available"),
             {"SEMIRING_CPU_BACKEND": "suitesparse"})
    assert r.returncode != 0 and "BackendUnavailable: backend='suitesparse' needs python-graphblas" in r.stderr
