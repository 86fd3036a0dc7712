"""MkDocs hook: the parts of the documentation that are computed, not written.

A page asks for a generated block with an HTML comment on a line of its own,
``<!-- generated: NAME [ARG] -->``; :func:`on_page_markdown` replaces it before the page is
rendered. The blocks are

- ``write-table`` and ``mask-table``: the write step ``C<M, replace> = accum(C, T)``, every
  mask / accum / replace case, evaluated with the dict-of-keys reference implementation of the
  GraphBLAS C API (``semiring.testing.reference``) *and* with the library (``apply``,
  ``assign`` and ``mxv`` on sparse and bitmap vectors and on a matrix). A case where the two
  disagree, or where the outcome depends on anything but the columns of the table, stops the
  build with an error: the table cannot drift from the code.
- ``registry binary|unary|indexunary|monoid|semiring``: the built-in operators, read from the
  registries in ``semiring.ops``.
- ``readme SECTION``: a section of README.md, so the two never disagree; ``include PATH``: a
  Markdown file of the repository, without its title.
- ``nx-functions``: the functions the networkx backend implements, from its ``backend_info``.
- ``benchmark-results``: every Markdown report in ``benchmarks/results/``, newest first.

``tests/docs/test_docs.py`` imports this file to check the write table against the specification's
rules as stated there, independently of the reference implementation.
"""

from __future__ import annotations

import os
import re
from itertools import product

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_MARKER = re.compile(r"^<!-- generated: ([\w-]+)(?: ([^>]*?))? -->$", re.MULTILINE)

# -- the write step -----------------------------------------------------------------------------
MASKS = (None, "S", "V", "~S", "~V")
MASK_LABEL = {None: "none", "S": "`M.S` structural", "V": "`M.V` value",
              "~S": "`~M.S` complemented structural", "~V": "`~M.V` complemented value"}
#: What the mask holds at a position: no entry, an entry that is true (nonzero), a false entry (0).
MASK_STATES = ("absent", "true", "false")
MASK_STATE_LABEL = {"absent": "`M` has no entry at i", "true": "`M(i)` present, nonzero (true)",
                    "false": "`M(i)` present, 0 (false)"}
#: (C has an entry at i, T has an entry at i), in the order of the table's columns.
CASES = ((True, True), (True, False), (False, True), (False, False))
CASE_LABEL = {(True, True): "C and T", (True, False): "C only", (False, True): "T only",
              (False, False): "neither"}
#: What C(i) holds after the write step.
KEPT, NEW, ACCUM, DELETED, NONE = "C(i) kept", "T(i)", "accum(C(i), T(i))", "deleted", "no entry"


class TableError(AssertionError):
    """The library and the reference disagree, or a case has no single outcome."""


def _layout():
    """The example: one position per (mask state, C present, T present), 12 in all."""
    return [(m, c, t) for m in MASK_STATES for (c, t) in CASES]


def _values(layout):
    """Entries of C, T and the mask M (int64) by position; C(i) = 1000 + 10 i, T(i) = i + 1,
    so C(i), T(i) and C(i) + T(i) are distinct numbers."""
    C = {p: 1000 + 10 * p for p, (_, c, _) in enumerate(layout) if c}
    T = {p: p + 1 for p, (_, _, t) in enumerate(layout) if t}
    M = {p: (5 if m == "true" else 0) for p, (m, _, _) in enumerate(layout) if m != "absent"}
    return C, T, M


def _outcome(p, C, T, R):
    """Classify what the write step left at position p (accum is ``plus``)."""
    if p not in R:
        return DELETED if p in C else NONE
    v = int(R[p])
    if p in C and v == C[p]:
        return KEPT
    if p in T and v == T[p]:
        return NEW
    if p in C and p in T and v == C[p] + T[p]:
        return ACCUM
    raise TableError(f"position {p}: value {v} is none of C(i), T(i), C(i) + T(i)")


def _reference(shape, C, T, M, mask_kind, accum, replace):
    from semiring.testing import reference as ref

    cls = ref.RefVector if len(shape) == 1 else ref.RefMatrix
    mk = ref.mask(mask_kind, cls(*shape, "int64", M))
    return ref.write(cls(*shape, "int64", C), cls(*shape, "int64", T), mk, accum, replace).entries


def _library_results(shape, C, T, M, mask_kind, accum, replace):
    """The write step through the library's operations: {operation: entries of C afterwards}."""
    import semiring as sr
    from semiring.testing import reference as ref

    def build(d):
        keys = sorted(d)
        vals = np.array([d[k] for k in keys], dtype=np.int64)
        if len(shape) == 1:
            return sr.Vector.from_coo(np.array(keys, dtype=np.int64), vals, size=shape[0], dtype="int64")
        rows = np.array([k[0] for k in keys], dtype=np.int64)
        cols = np.array([k[1] for k in keys], dtype=np.int64)
        return sr.Matrix.from_coo(rows, cols, vals, nrows=shape[0], ncols=shape[1], dtype="int64")

    mvec = build(M)
    mask = None if mask_kind is None else {"S": mvec.S, "V": mvec.V, "~S": ~mvec.S, "~V": ~mvec.V}[mask_kind]
    kw = dict(mask=mask, accum=accum, replace=replace)
    Tx = build(T)
    runs = {"apply": lambda out: sr.apply(Tx, sr.unary.identity, out=out, **kw)}
    if len(shape) == 1:
        n = shape[0]
        eye = sr.Matrix.from_coo(np.arange(n), np.arange(n), np.ones(n, dtype=np.int64), nrows=n, ncols=n)
        runs["assign"] = lambda out: sr.assign(out, Tx, None, **kw)
        for direction in ("push", "pull"):
            runs[f"mxv ({direction})"] = (lambda d: lambda out: sr.mxv(
                eye, Tx, sr.semirings.plus_second, direction=d, out=out, **kw))(direction)
    out = {}
    for name, run in runs.items():
        C_lib = build(C)
        run(C_lib)
        out[name] = ref.from_semiring(C_lib).entries
    return out


def _embeddings(layout):
    """Where the example's positions go: a short vector (bitmap form), a long one (sparse
    form, positions 41 apart) and a 3 x 4 matrix."""
    n = len(layout)
    return (("bitmap Vector", (n,), lambda p: p), ("sparse Vector", (41 * n,), lambda p: 41 * p),
            ("Matrix", (3, n // 3), lambda p: (p // (n // 3), p % (n // 3))))


def write_step_rows():
    """Every mask / accum / replace case of the write step.

    Returns a list of dicts: ``mask`` (None, "S", "V", "~S", "~V"), ``accum`` (bool),
    ``replace`` (bool), ``error`` (the exception the library raises, or None), ``inside`` and
    ``outside``: {(C present, T present): outcome} for the positions the mask allows and for the
    others (``outside`` is empty for mask None), and ``inside_states``: the mask states
    (``MASK_STATES``) that allow writing.

    Raises TableError if the library and the reference differ at any position, or if positions
    of one table cell end differently.
    """
    import semiring as sr
    from semiring.testing import reference as ref

    layout = _layout()
    C, T, M = _values(layout)
    rows = []
    for mask_kind, use_accum, replace in product(MASKS, (False, True), (False, True)):
        row = {"mask": mask_kind, "accum": use_accum, "replace": replace, "error": None,
               "inside": {}, "outside": {}, "inside_states": set()}
        rows.append(row)
        if replace and mask_kind is None:
            try:
                _reference((1,), {}, {}, {}, None, None, True)
            except ValueError:
                pass
            else:
                raise TableError("the reference accepts replace=True without a mask")
            try:
                _library_results((1,), {}, {}, {}, None, None, True)
            except sr.InvalidValue:
                row["error"] = "InvalidValue"
            else:
                raise TableError("the library accepts replace=True without a mask")
            continue
        refmask = None if mask_kind is None else ref.mask(
            mask_kind, ref.RefVector(len(layout), "int64", M))
        for where, shape, place in _embeddings(layout):
            Cx, Tx, Mx = ({place(p): v for p, v in d.items()} for d in (C, T, M))
            accum = sr.binary.plus if use_accum else None
            expected = _reference(shape, Cx, Tx, Mx, mask_kind, accum, replace)
            for op, got in _library_results(shape, Cx, Tx, Mx, mask_kind, accum, replace).items():
                if set(got) != set(expected) or any(int(got[k]) != int(expected[k]) for k in got):
                    raise TableError(
                        f"mask={mask_kind} accum={use_accum} replace={replace}: {op} on a {where} gives "
                        f"{dict(sorted(got.items()))}, the reference {dict(sorted(expected.items()))}")
            for p, (state, c, t) in enumerate(layout):
                inside = refmask is None or refmask.allows(p)
                if inside:
                    row["inside_states"].add(state)
                cell = row["inside" if inside else "outside"]
                what = _outcome(place(p), Cx, Tx, expected)
                if cell.setdefault((c, t), what) != what:
                    raise TableError(f"mask={mask_kind} accum={use_accum} replace={replace}: C {c}, T {t} "
                                     f"{'inside' if inside else 'outside'} the mask ends as both "
                                     f"{cell[(c, t)]} and {what}")
    return rows


def _md_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def write_table_markdown(rows=None):
    rows = write_step_rows() if rows is None else rows
    shown = [c for c in CASES if c != (False, False)]
    header = (["mask", "accum", "replace"] + [f"inside: {CASE_LABEL[c]}" for c in shown]
              + [f"outside: {CASE_LABEL[c]}" for c in shown])
    body = []
    for r in rows:
        for region in ("inside", "outside"):  # "neither" always stays empty: checked, not shown
            if r[region].get((False, False), NONE) != NONE:
                raise TableError(f"{r}: a position with no entry in C or T gained one")
        head = [MASK_LABEL[r["mask"]], "given" if r["accum"] else "none", str(r["replace"])]
        if r["error"]:
            body.append(head + [f"raises `{r['error']}`"] + ["—"] * (2 * len(shown) - 1))
            continue
        inside = [r["inside"][c] for c in shown]
        outside = ([r["outside"][c] for c in shown] if r["mask"] is not None
                   else ["(every position is inside)"] + [""] * (len(shown) - 1))
        body.append(head + inside + outside)
    return _md_table(header, body)


def mask_table_markdown(rows=None):
    rows = write_step_rows() if rows is None else rows
    states = {}
    for r in rows:
        if not r["error"]:
            s = states.setdefault(r["mask"], r["inside_states"])
            if s != r["inside_states"]:
                raise TableError(f"mask {r['mask']}: the positions it allows depend on accum/replace")
    body = [[MASK_LABEL[m]] + ["inside" if s in states[m] else "outside" for s in MASK_STATES] for m in MASKS]
    return _md_table(["mask"] + [MASK_STATE_LABEL[s] for s in MASK_STATES], body)


# -- the operator registries --------------------------------------------------------------------
_DTYPES = ("bool", "int64", "uint8", "float64")


def _scalar(v):
    if v is None:
        return "—"
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if np.dtype(type(v)).kind == "f":
        return repr(float(v))
    return str(int(v))


def _takes(m, d):
    """True if the monoid ``m`` reduces values of dtype ``d`` (its operator runs on them)."""
    try:
        z = np.zeros(1, dtype=m.domain_for(d))
        m.op.eval(z, z)
        return True
    except Exception:  # DomainMismatch: the monoid or its operator refuses this dtype
        return False


def _per_dtype(m, f):
    return "<br>".join(f"{d}: {_scalar(f(d))}" for d in _DTYPES if _takes(m, d))


def _output_rule(op):
    if getattr(op, "positional", None):
        return "int64 (an index)"
    out = op._output
    if out is None:
        return "the input type"
    return "`" + np.dtype(out).name + "`"


def _code(s):
    return "—" if s is None else "`" + s.replace("|", "\\|") + "`"


def registry_markdown(kind):
    from semiring.ops import binary, indexunary, monoid, semiring, unary

    if kind == "binary":
        seen, body = set(), []
        for name, op in binary.BINARY.items():
            if id(op) in seen:
                body.append([f"`{name}`", f"alias of `{op.name}`", "", ""])
                continue
            seen.add(id(op))
            domain = "" if op.domain is None else f"`{op.domain.name}`"
            body.append([f"`{name}`", _code(op.cuda), _output_rule(op), domain])
        return _md_table(["name", "CUDA expression", "output type", "inputs cast to"], body)
    if kind == "unary":
        body = [[f"`{n}`", _code(op.cuda), _output_rule(op), "" if op.domain is None else f"`{op.domain.name}`"]
                for n, op in unary.UNARY.items()]
        return _md_table(["name", "CUDA expression", "output type", "input cast to"], body)
    if kind == "indexunary":
        body = [[f"`{n}`", _code(op.cuda), _output_rule(op), "yes" if op.structural else "no"]
                for n, op in indexunary.INDEXUNARY.items()]
        return _md_table(["name", "CUDA expression (x, i, j, thunk)", "output type", "ignores x"], body)
    if kind == "monoid":
        body = [[f"`{n}`", f"`{m.op.name}`", "any value" if m.is_any else _per_dtype(m, m.identity_for),
                 "every value (stops at the first)" if m.is_any else _per_dtype(m, m.terminal_for)]
                for n, m in monoid.MONOID.items()]
        return _md_table(["name", "operator", "identity", "terminal"], body)
    if kind == "semiring":
        from semiring.backends.gpu.products import supports

        def operands(s):
            logical = s.monoid.dtype == np.bool_ or s.multiply.domain == np.bool_
            return np.dtype("bool") if logical else np.dtype("int64")

        def gpu(s):
            d = operands(s)
            pull = supports(s, d, d, push=False)
            push = supports(s, d, d, push=True)
            return ", ".join(k for k, ok in (("pull", pull), ("push, edge", push)) if ok) or "generic only"

        body = [[f"`{n}`", f"`{s.monoid.name}`", f"`{s.multiply.name}`", f"`{operands(s).name}`", gpu(s)]
                for n, s in semiring.SEMIRING.items()]
        return _md_table(["name", "monoid (add)", "multiply", "operands", "GPU fast kernels"], body)
    raise ValueError(f"registry: unknown kind {kind!r}")


# -- the networkx backend ------------------------------------------------------------------------
def nx_functions_markdown():
    """The functions the ``semiring`` networkx backend implements, with what it does differently
    (``_nx_semiring.FUNCTIONS``, the text networkx shows in its own docs); checked against the
    adapters the backend registers (``semiring.nx.backend.FUNCTIONS``)."""
    import _nx_semiring
    from semiring.nx.backend import FUNCTIONS

    if set(_nx_semiring.FUNCTIONS) != set(FUNCTIONS):
        raise TableError(f"networkx backend: backend_info lists {sorted(_nx_semiring.FUNCTIONS)}, "
                         f"the backend implements {sorted(FUNCTIONS)}")
    body = [[f"`nx.{name}`", doc] for name, doc in _nx_semiring.FUNCTIONS.items()]
    return _md_table(["function", "on the semiring engine"], body)


# -- README sections and benchmark results ------------------------------------------------------
def readme_section(title):
    """The body of README.md's ``## title`` section (without its heading)."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(rf"^## {re.escape(title)}\s*$(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    if not m:
        raise ValueError(f"README.md has no section '## {title}'")
    return m.group(1).strip()


def include_markdown(path):
    """A Markdown file of the repository (``path`` relative to its root), without its title."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        text = f.read().strip()
    if text.startswith("# "):
        text = text.split("\n", 1)[1].strip() if "\n" in text else ""
    return _demote(text, 1)


def _demote(md, levels):
    return re.sub(r"^(#{1,5}) ", lambda m: "#" * min(len(m.group(1)) + levels, 6) + " ", md, flags=re.MULTILINE)


def _result_date(name, body):
    """When a report was run: its "date (UTC): ..." line, else the date in its file name."""
    m = re.search(r"date \(UTC\): (\S+?);", body)
    if m:
        return m.group(1)
    m = re.search(r"-(\d{4})(\d{2})(\d{2})", name)
    return "-".join(m.groups()) if m else ""


def benchmark_results_markdown():
    """Every ``benchmarks/results/*.md`` report (not the folder's README), newest run first, each
    in a collapsed block titled by its file name."""
    folder = os.path.join(ROOT, "benchmarks", "results")
    reports = []
    for name in os.listdir(folder):
        if name.endswith(".md") and name != "README.md":
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                body = f.read().strip()
            reports.append((_result_date(name, body), name, body))
    parts = []
    for when, name, body in sorted(reports, reverse=True):
        title = body.splitlines()[0].lstrip("# ").strip() if body.startswith("#") else name
        body = "\n".join(body.splitlines()[1:]) if body.startswith("#") else body
        body = _demote(body, 3)  # "## BFS" -> "##### BFS", below the page's own headings
        indented = "\n".join(("    " + line) if line.strip() else "" for line in body.splitlines())
        run = f", run {when.replace('T', ' ').replace('+00:00', ' UTC')}" if when else ""
        parts.append(f'??? note "`benchmarks/results/{name}`: {title}{run}"\n\n{indented}\n')
    return "\n".join(parts)


# -- the hook -----------------------------------------------------------------------------------
def render(name, arg=None):
    """The Markdown for one generated block."""
    if name == "write-table":
        return write_table_markdown()
    if name == "mask-table":
        return mask_table_markdown()
    if name == "registry":
        return registry_markdown(arg)
    if name == "readme":
        return readme_section(arg)
    if name == "nx-functions":
        return nx_functions_markdown()
    if name == "include":
        return include_markdown(arg)
    if name == "benchmark-results":
        return benchmark_results_markdown()
    raise ValueError(f"unknown generated block {name!r}")


def expand(markdown):
    return _MARKER.sub(lambda m: render(m.group(1), m.group(2)), markdown)


def on_page_markdown(markdown, page=None, config=None, files=None, **kwargs):
    return expand(markdown)
