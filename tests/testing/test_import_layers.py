"""The package's structure: no import cycle between its modules, every module imports only from
its own layer or below, and no module is longer than 600 lines.

The import graph is read from the source with ``ast`` (nothing is imported): every ``import``
and ``from ... import`` of a semiring module, at module level and inside functions (a
function-level import runs when its function is first called, but it ties the layers all the
same). An import names a module (``from ..ops import binary``: ``semiring.ops.binary``) or a
package's ``__init__`` (``from .. import core``: ``semiring.core``). The parent packages that
Python initializes on the way are not counted: ``semiring/__init__.py`` initializes the layers
in its own order before any module runs.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "semiring"

#: The layers, lowest first. A module belongs to the layer of the longest name here that is the
#: module or a package above it ("semiring" itself: only the package's front, its __init__).
LAYERS = (
    ("semiring.exceptions", "semiring.dtypes", "semiring._checks", "semiring._once", "semiring._host",
     "semiring._memory"),
    ("semiring.ops",),
    ("semiring.core",),
    ("semiring.backends",),
    ("semiring.algorithms", "semiring.io", "semiring.generators"),
    ("semiring",),  # the public front: it imports ops, core, algorithms, generators and io
    ("semiring.nx", "semiring.cli", "semiring.distributed", "semiring.testing", "semiring._bench"),
    ("semiring.__main__",),
)

#: Imports allowed from a lower layer into a higher one: (importer, imported) package prefixes.
UPWARD = {
    ("semiring.core", "semiring.backends"):
        "core's operations run the backends' kernels and pick the backend per call (backends._select)",
}

#: Function-level imports that stand where a module-level import would close an import cycle,
#: each with why it is a call-time import.
LATE_CYCLES = {
    ("semiring.backends._select", "semiring.backends.suitesparse.dispatch"):
        "loads python-graphblas, wanted only once a SuiteSparse operand is seen",
    ("semiring.backends.array.reduce", "semiring.backends.gpu.reduce"):
        "CuPy arrays go to the GPU fold, which falls back on the array layer's host_runs",
    ("semiring.core._validate", "semiring.backends.suitesparse.containers"):
        "the SuiteSparse containers subclass Matrix and Vector; core converts to them per call",
    ("semiring.core.matrix", "semiring.backends.suitesparse.containers"):
        "the SuiteSparse containers subclass Matrix and Vector; core converts to them per call",
    ("semiring.core.vector", "semiring.backends.suitesparse.containers"):
        "the SuiteSparse containers subclass Matrix and Vector; core converts to them per call",
    ("semiring.algorithms._graph_items", "semiring.algorithms.apsp"):
        "Graph's per-algorithm items are built by the algorithm that uses them, imported when first asked for",
    ("semiring.algorithms._graph_items", "semiring.algorithms.community"):
        "Graph's per-algorithm items are built by the algorithm that uses them, imported when first asked for",
    ("semiring.algorithms._graph_items", "semiring.algorithms.pagerank"):
        "Graph's per-algorithm items are built by the algorithm that uses them, imported when first asked for",
    ("semiring.algorithms._graph_items", "semiring.algorithms.partition"):
        "Graph's per-algorithm items are built by the algorithm that uses them, imported when first asked for",
    ("semiring.algorithms._graph_items", "semiring.algorithms.sssp"):
        "Graph's per-algorithm items are built by the algorithm that uses them, imported when first asked for",
    ("semiring.algorithms._graph_items", "semiring.algorithms.triangles"):
        "Graph's per-algorithm items are built by the algorithm that uses them, imported when first asked for",
    ("semiring.core._construct", "semiring.core._hyper"):
        "the hypersparse build works on Matrix; construction calls it only for keys past 2**63",
    ("semiring.core._validate", "semiring.core.matrix"):
        "the containers import the checks; the two checks of container arguments look Matrix up when called",
    ("semiring.core._validate", "semiring.core.vector"):
        "the containers import the checks; the two checks of container arguments look Vector up when called",
}

MAX_LINES = 600
#: Generated data tables, allowed any length.
GENERATED_DATA = {
    "semiring/nx/nxapi/_generator_data.py",  # networkx's fixed graphs (nodes, edges, attributes)
}


# ---------------------------------------------------------------------------------------------
# the graph
# ---------------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def package_sources(root=ROOT):
    """{module name: (source text, is a package __init__)} of every module of the package."""
    out = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        out[".".join(parts)] = (path.read_text(encoding="utf-8"), is_package)
    return out


def imports(sources):
    """(importer, imported, line, at module level) for every import of a module of ``sources``
    by a module of ``sources``; ``imported`` is the module named, or the nearest package above
    a name that is not a module (``from .ops import binary`` where binary is an attribute)."""
    def known(name):
        while name and name not in sources:
            name = name.rpartition(".")[0]
        return name or None

    edges = []
    for module, (text, is_package) in sources.items():
        here = module.split(".") if is_package else module.split(".")[:-1]
        tree = ast.parse(text, filename=module)

        def visit(node, top):
            for child in ast.iter_child_nodes(node):
                inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                names = []
                if isinstance(child, ast.Import):
                    names = [a.name for a in child.names]
                elif isinstance(child, ast.ImportFrom):
                    if child.level:
                        base = here[: len(here) - child.level + 1]
                        target = ".".join(base + ([child.module] if child.module else []))
                    else:
                        target = child.module
                    names = [f"{target}.{a.name}" if f"{target}.{a.name}" in sources else target
                             for a in child.names]
                for name in names:
                    if name == PACKAGE or name.startswith(PACKAGE + "."):
                        target = known(name)
                        if target is not None and target != module:
                            edges.append((module, target, child.lineno, top))
                visit(child, inner)

        visit(tree, True)
    return edges


def layer_of(module):
    """The index in LAYERS of ``module``'s layer, or None."""
    best, where = -1, None
    for i, names in enumerate(LAYERS):
        for name in names:
            inside = module == name or (name != PACKAGE and module.startswith(name + "."))
            if inside and len(name) > best:
                best, where = len(name), i
    return where


def _within(module, prefix):
    return module == prefix or module.startswith(prefix + ".")


def layer_violations(edges):
    """'importer -> imported (line n)' for every import of a higher layer not in UPWARD."""
    out = []
    for a, b, line, _ in edges:
        la, lb = layer_of(a), layer_of(b)
        if la is None or lb is None:  # (test_every_module_has_a_layer names them)
            continue
        if lb > la and not any(_within(a, pa) and _within(b, pb) for pa, pb in UPWARD):
            out.append(f"{a} -> {b} (line {line})")
    return sorted(set(out))


def cycles(edges):
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    graph = {}
    for a, b, _, _ in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on, found = {}, {}, [], set(), []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return sorted(found)


def late_cycle_imports(edges):
    """{(importer, imported)} of the function-level imports whose module-level form would
    close a cycle: the importer is reached from the imported module by module-level imports."""
    graph = {}
    for a, b, _, top in edges:
        if top:
            graph.setdefault(a, set()).add(b)

    def reaches(src, dst):
        seen, todo = {src}, [src]
        while todo:
            v = todo.pop()
            if v == dst:
                return True
            for w in graph.get(v, ()):
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        return False

    return {(a, b) for a, b, _, top in edges if not top and reaches(b, a)}


@pytest.fixture(scope="module")
def edges():
    return imports(package_sources())


# ---------------------------------------------------------------------------------------------
# the package
# ---------------------------------------------------------------------------------------------

def test_every_module_has_a_layer():
    assert [m for m in package_sources() if layer_of(m) is None] == []


def test_the_graph_is_read(edges):
    # a few imports the package is known to make, at module level and inside functions
    got = {(a, b, top) for a, b, _, top in edges}
    assert ("semiring.core.products", "semiring.backends._select", True) in got
    assert ("semiring.algorithms.partition", "semiring.algorithms._partition_coarsen", True) in got
    assert ("semiring.distributed.bfs", "semiring.distributed._array", True) in got
    assert ("semiring.core.reduce", "semiring.backends.gpu.resident", False) in got
    assert len(edges) > 1000


def test_no_import_cycle_at_module_level(edges):
    assert cycles([e for e in edges if e[3]]) == []


def test_imports_respect_the_layers(edges):
    assert layer_violations(edges) == []


def test_function_level_imports_close_only_the_listed_cycles(edges):
    assert late_cycle_imports(edges) == set(LATE_CYCLES)


def test_no_module_is_longer_than_600_lines():
    long = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES and name not in GENERATED_DATA:
            long[name] = lines
    assert long == {}
    assert all((ROOT / name).is_file() for name in GENERATED_DATA)


# ---------------------------------------------------------------------------------------------
# the checks themselves, on made-up modules
# ---------------------------------------------------------------------------------------------

def _made_up(modules, stubs=()):
    """Sources of made-up modules ({name: source}) and empty modules named ``stubs``."""
    out = {name: ("", False) for name in stubs}
    out.update({name: (text, False) for name, text in modules.items()})
    return out


def test_an_import_of_a_higher_layer_is_flagged():
    up = _made_up({"semiring.ops._upward": "from ..algorithms import bfs\n\n\ndef f():\n    from ..nx import graph\n"},
                  stubs=["semiring.algorithms.bfs", "semiring.nx.graph"])
    assert layer_violations(imports(up)) == ["semiring.ops._upward -> semiring.algorithms.bfs (line 1)",
                                             "semiring.ops._upward -> semiring.nx.graph (line 5)"]
    same = _made_up({"semiring.algorithms._sideways": "from ..io import read\nfrom ..core import matrix\n"},
                    stubs=["semiring.io.read", "semiring.core.matrix"])
    assert len(imports(same)) == 2 and layer_violations(imports(same)) == []
    allowed = _made_up({"semiring.core._down": "def f():\n    from ..backends import _select\n"},
                       stubs=["semiring.backends._select"])
    assert len(imports(allowed)) == 1 and layer_violations(imports(allowed)) == []


def test_an_import_cycle_is_flagged():
    loop = _made_up({"semiring.io._a": "from . import _b\n", "semiring.io._b": "from ._a import x\n"})
    assert cycles([e for e in imports(loop) if e[3]]) == [["semiring.io._a", "semiring.io._b"]]


def test_a_function_level_import_that_dodges_a_cycle_is_flagged():
    dodge = _made_up({"semiring.io._a": "def f():\n    from ._b import y\n", "semiring.io._b": "from ._a import x\n"})
    assert cycles([e for e in imports(dodge) if e[3]]) == []
    assert late_cycle_imports(imports(dodge)) == {("semiring.io._a", "semiring.io._b")}
