"""The example notebooks (``examples/*.ipynb``) run top to bottom, and are committed stripped.

Each notebook runs in a fresh Jupyter kernel (nbclient), with ``examples/`` as its working
directory, this checkout importable (``PYTHONPATH``) and ``SEMIRING_DATA`` set to
``../shared/data``. The notebooks check their own results against oracles (SciPy, networkx,
brute force, the published answers), so a notebook that runs to the end has passed them.

The kernel named ``python3`` (the notebooks' kernelspec) must be this interpreter, the one the
test extra was installed into: a kernel spec for ``sys.executable``, written by ipykernel,
comes first on ``JUPYTER_PATH``, ahead of any user-wide or system-wide ``python3`` spec.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from pathlib import Path

import pytest

try:
    import nbformat
    from ipykernel.kernelspec import write_kernel_spec
    from jupyter_client.kernelspec import KernelSpecManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
except ImportError as exc:  # the examples extra, part of the test extra
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and the notebook runner is missing (the examples extra is in the test extra): {exc}",
                    pytrace=False)
    pytest.skip(f"the notebook runner is not installed (pip install -e '.[examples]'): {exc}", allow_module_level=True)

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"

#: notebook -> (seconds it may take in all, whether it reads ../shared/data). The limits are
#: several times what each takes on a 2-core CPU machine.
NOTEBOOKS = {
    "01_algebra_in_ten_minutes": (120, False),
    "02_bfs_three_ways": (240, True),
    "03_shortest_paths_ny": (300, True),
    "04_coloring_dimacs": (180, True),
    "05_write_your_own_semiring": (180, False),
}


def _params():
    return [pytest.param(name, marks=[pytest.mark.data] if data else [], id=name)
            for name, (_, data) in NOTEBOOKS.items()]


@pytest.fixture(scope="session")
def jupyter_path(tmp_path_factory):
    """A JUPYTER_PATH whose kernels/python3 spec launches this interpreter."""
    root = tmp_path_factory.mktemp("jupyter")
    write_kernel_spec(root / "kernels" / "python3")
    return os.pathsep.join([str(root), os.environ.get("JUPYTER_PATH", "")]).rstrip(os.pathsep)


@pytest.fixture
def kernel_env(monkeypatch, jupyter_path):
    """The environment the kernel inherits: our kernel spec first, this checkout importable."""
    monkeypatch.setenv("JUPYTER_PATH", jupyter_path)
    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")


async def _execute(client, budget):
    """Run the notebook; False if it had not finished after ``budget`` seconds (then cancelled,
    which lets nbclient shut the kernel down). A failing cell raises CellExecutionError."""
    task = asyncio.ensure_future(client.async_execute())
    done, _ = await asyncio.wait({task}, timeout=budget)
    if not done:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return False
    task.result()
    return True


def test_every_notebook_is_listed():
    """A new notebook must be added to NOTEBOOKS (with its time limit), or it would never run."""
    assert sorted(p.stem for p in EXAMPLES.glob("*.ipynb")) == sorted(NOTEBOOKS)


@pytest.mark.parametrize("name", list(NOTEBOOKS))
def test_notebook_is_stripped(name):
    """Committed notebooks carry no outputs and no execution counts, and name the python3 kernel."""
    nb = nbformat.read(EXAMPLES / f"{name}.ipynb", as_version=4)
    nbformat.validate(nb)
    dirty = [i for i, cell in enumerate(nb.cells)
             if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None)]
    assert not dirty, (f"{name}.ipynb: code cells {dirty} have outputs or execution counts; clear them before "
                       f"committing (Jupyter: Clear All Outputs, or jupyter nbconvert --clear-output --inplace)")
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"


def test_python3_kernel_is_this_interpreter(kernel_env):
    spec = KernelSpecManager().get_kernel_spec("python3")
    assert spec.argv[0] == sys.executable, f"kernel python3 runs {spec.argv[0]}; expected {sys.executable}"


@pytest.mark.parametrize("name", _params())
def test_notebook_runs(name, kernel_env, request, monkeypatch):
    budget, needs_data = NOTEBOOKS[name]
    if needs_data:
        monkeypatch.setenv("SEMIRING_DATA", str(request.getfixturevalue("shared_data")))
    nb = nbformat.read(EXAMPLES / f"{name}.ipynb", as_version=4)
    client = NotebookClient(nb, kernel_name="python3", timeout=budget,
                            resources={"metadata": {"path": str(EXAMPLES)}})
    t0 = time.perf_counter()
    try:
        finished = asyncio.run(_execute(client, budget))
    except CellExecutionError as exc:
        plain = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))   # the kernel's traceback, without terminal colors
        pytest.fail(f"{name}.ipynb failed:\n{plain}", pytrace=False)
    seconds = time.perf_counter() - t0
    if not finished:
        pytest.fail(f"{name}.ipynb did not finish within {budget} s", pytrace=False)
    ran = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert all(cell.execution_count is not None for cell in ran), "some code cells did not run"
    print(f"{name}.ipynb: {len(ran)} code cells in {seconds:.1f} s")
