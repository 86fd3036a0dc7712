"""The results format every suite writes (``<stem>.json``, rendered as ``<stem>.md``).

One dict, in this order of keys:

``meta``
    What ran where: ``suite``, ``size`` ("tiny" or "full"), ``device`` ("cpu" or "gpu"),
    ``command`` (the exact command line), ``env`` (:func:`semiring._bench.env.describe`:
    date, git commit, Python and package versions, CPU, memory, GPU), ``settings`` (the limits
    the run used: roots, time budgets, and the suite's own options), ``method`` (the report's
    method paragraph), ``gpu_reason`` (why no GPU was used, or None) and, on a GPU,
    ``copy_bandwidth`` (bytes/s of a device-to-device copy). A suite may add keys.
``graphs``
    One dict per graph built: ``name``, ``about`` (generator and parameters, or the file),
    ``n``, ``nvals`` (stored entries), ``kind`` ("undirected" or "directed"), ``load_s``
    (seconds to build it), and whatever else the suite knows (``role``, ``weighted``, ...).
``rows``
    One dict per measured thing (a system on a graph, an algorithm on a graph, a function on a
    graph). Every row has ``status`` (:data:`OK`, one of :data:`FAILED`, one of
    :data:`NOT_RUN`, or a suite's own word such as "stopped" or "> budget") and ``validated``
    (True: checked and right; False: checked and wrong; None: not checked), and says what it
    is with some of :data:`ID_KEYS`; ``note`` explains a status. The timings are the suite's:
    ``runs`` (every timed run), ``ms_median``, ``median_ms``, ``s_median``, ...
``targets``
    One dict per performance target: ``target`` (what is aimed at), ``measured`` (text, or
    None), ``system`` (the row judged, or None) and ``status`` ("met", "not met", "not
    measured", "n/a").
``notes``
    Strings: what was skipped and why, how references were computed.
``summary``
    One line: rows validated, failed and skipped, the suite's own counts, seconds.
``failed``
    One line per failure (:func:`failure_line`); the command exits with status 1 when it is
    not empty.

A suite may add sections after these (the cpu suite's ``algorithms`` table).
"""

from __future__ import annotations

from . import env

#: The status of a row that ran and was checked.
OK = "ok"
#: Statuses that fail the run (exit status 1).
FAILED = ("validation failed", "error", "timeout")
#: Statuses of rows that did not run, with the reason in their note.
NOT_RUN = ("skipped", "not available", "not installed", "not timed", "declined")
#: Keys that say what a row is, in the order a failure line names them.
ID_KEYS = ("graph", "kernel", "algorithm", "function", "variant", "system", "engine", "direction", "input")


def failed(rows):
    """The rows whose status fails the run."""
    return [r for r in rows if r.get("status") in FAILED]


def failure_line(row):
    """``"<graph> <kernel> <system> ...: <status>: <why>"`` for a failed row."""
    names = []
    for key in ID_KEYS:
        value = row.get(key)
        if value not in (None, "") and str(value) not in names:
            names.append(str(value))
    why = row.get("note") or row.get("error") or row.get("check")
    return f"{' '.join(names)}: {row['status']}: {why}"


def counts(rows):
    """``"<v> rows validated, <f> failed, <s> skipped or not available"``."""
    ok = sum(1 for r in rows if r.get("validated"))
    return (f"{ok} rows validated, {len(failed(rows))} failed, "
            f"{sum(1 for r in rows if r.get('status') in NOT_RUN)} skipped or not available")


def document(meta, result, targets, summary, failures):
    """The result dict of a run.

    Parameters
    ----------
    meta : dict
    result : dict
        What the suite's ``run`` returned: ``graphs``, ``rows``, ``notes`` and any sections.
    targets : list of dict
    summary : str
    failures : list of str

    Returns
    -------
    dict
        Keys meta, graphs, rows, targets, notes, summary, failed, then the suite's sections.
    """
    doc = {"meta": meta, "graphs": result.get("graphs", []), "rows": result.get("rows", []), "targets": targets,
           "notes": result.get("notes", []), "summary": summary, "failed": failures}
    doc.update({k: v for k, v in result.items() if k not in doc})
    return doc


def stem(suite, size, described):
    """``<suite>[-tiny]-<device slug>-<YYYYMMDD>``: the file name of a run without extension (the
    device slug is the GPU's name, or the CPU model without a GPU)."""
    gpu = described["gpu"]
    slug = env.slug(gpu["name"] if gpu else described["machine"]["cpu"])
    return f"{suite}{'-tiny' if size == 'tiny' else ''}-{slug}-{env.today()}"
