"""The documentation site (``mkdocs.yml``, ``docs/``): it builds with ``mkdocs build --strict``,
the ``>>>`` examples on its pages run, and the write-step table it generates follows the rules of
the GraphBLAS C API specification as stated here, independently of the reference implementation
the table is computed from.
"""

from __future__ import annotations

import doctest
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

import semiring as sr

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
HOOK = DOCS / "hooks" / "semiring_docs.py"


def _hook():
    spec = importlib.util.spec_from_file_location("semiring_docs_hook", HOOK)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_mkdocs_build_strict(tmp_path):
    site = tmp_path / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")  # Material's end-of-life banner
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}"
    pages = {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in site.rglob("index.html")}
    for name in ("semantics/index.html", "benchmarks/index.html", "reference/operators/index.html",
                 "reference/algorithms/index.html", "reference/nx/index.html", "networkx/index.html",
                 "gpu/index.html"):
        assert name in pages, sorted(pages)
    for name, html in pages.items():
        assert "<!-- generated:" not in html, f"{name}: a generated block was not expanded"
    # The generated tables are there, and the API reference shows the docstrings of the code.
    assert pages["semantics/index.html"].count("<table>") >= 2
    assert "accum(C(i), T(i))" in pages["semantics/index.html"]
    assert "min_plus" in pages["reference/operators/index.html"]
    from semiring.nx.backend import FUNCTIONS

    for name in FUNCTIONS:  # the networkx page lists every function the backend implements
        assert f"nx.{name}</code>" in pages["networkx/index.html"], name
    ref = pages["reference/algorithms/index.html"]
    for f in (sr.algorithms.bfs, sr.algorithms.sssp, sr.algorithms.coloring):
        assert f'id="semiring.algorithms.{f.__module__.rsplit(".", 1)[1]}.{f.__name__}"' in ref
        assert f.__doc__.splitlines()[0].replace("``", "") in ref.replace("<code>", "").replace("</code>", "")


PAGES_WITH_EXAMPLES = sorted(p for p in DOCS.rglob("*.md") if ">>>" in p.read_text(encoding="utf-8"))


def test_pages_have_examples():
    names = {p.name for p in PAGES_WITH_EXAMPLES}
    assert {"getting-started.md", "semantics.md", "algorithms.md", "gpu.md", "networkx.md"} <= names


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_page_examples_run(page):
    result = doctest.testfile(str(page), module_relative=False, verbose=False, report=True,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {page.name} failed (see above)"


# -- the write-step table -----------------------------------------------------------------------
#: Which mask states (no entry, a true entry, a false entry at i) allow writing at i.
INSIDE = {None: {"absent", "true", "false"}, "S": {"true", "false"}, "V": {"true"},
          "~S": {"absent"}, "~V": {"absent", "false"}}


def _spec(accum, replace, inside, c, t):
    """What C(i) holds after C<M, replace> = accum(C, T): the two phases of the write step.
    Z = T, or accum(C, T) on the union; inside the mask C takes Z (nothing in Z deletes), outside
    it keeps C unless replace."""
    if inside:
        if c and t:
            return "accum(C(i), T(i))" if accum else "T(i)"
        if c:
            return "C(i) kept" if accum else "deleted"
        return "T(i)" if t else "no entry"
    if c:
        return "deleted" if replace else "C(i) kept"
    return "no entry"


@pytest.fixture(scope="module")
def hook():
    return _hook()


@pytest.fixture(scope="module")
def rows(hook):
    return hook.write_step_rows()


def test_write_table_covers_every_case(rows):
    cases = {(r["mask"], r["accum"], r["replace"]) for r in rows}
    assert cases == {(m, a, rp) for m in INSIDE for a in (False, True) for rp in (False, True)}
    assert len(rows) == 20


def test_write_table_follows_the_spec(rows, hook):
    for r in rows:
        where = f"mask={r['mask']} accum={r['accum']} replace={r['replace']}"
        if r["replace"] and r["mask"] is None:
            assert r["error"] == "InvalidValue", where  # the library's choice: replace needs a mask
            continue
        assert r["error"] is None, where
        assert r["inside_states"] == INSIDE[r["mask"]], where
        for c, t in hook.CASES:
            assert r["inside"][(c, t)] == _spec(r["accum"], r["replace"], True, c, t), (where, "inside", c, t)
            if r["mask"] is None:
                assert r["outside"] == {}, where
            else:
                assert r["outside"][(c, t)] == _spec(r["accum"], r["replace"], False, c, t), (where, "outside", c, t)


def test_write_table_markdown(rows, hook):
    table = hook.write_table_markdown(rows).splitlines()
    assert len(table) == 2 + 20
    assert table[0].startswith("| mask | accum | replace | inside: C and T")
    masks = hook.mask_table_markdown(rows).splitlines()
    assert masks[4] == "| `M.V` value | outside | inside | outside |"


@pytest.mark.numpy_backend  # the defect is injected into the NumPy backend's write step
def test_write_table_stops_on_a_disagreement(hook, monkeypatch):
    """A library that ignored replace=True would make the table generation (and the docs build) fail."""
    from semiring.core import _write

    real = _write.write

    def ignores_replace(out, tk, tv, shape, mask, accum, replace, *args, **kwargs):
        return real(out, tk, tv, shape, mask, accum, False, *args, **kwargs)

    monkeypatch.setattr(_write, "write", ignores_replace)  # every operation calls _write.write
    with pytest.raises(hook.TableError, match="replace=True"):
        hook.write_step_rows()
