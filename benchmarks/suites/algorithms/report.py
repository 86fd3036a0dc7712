"""The algorithms suite's report: the method, the timings table with each row's CPU peer and
target, the oracles, the progress line of a row and the suite's part of the summary."""

from __future__ import annotations

from semiring._bench.report import cell, table


def ms(x):
    """Milliseconds, three significant-ish digits; a dash for none."""
    if x is None:
        return "—"
    return f"{x:.3f}" if x < 1 else f"{x:.2f}" if x < 100 else f"{x:,.0f}"


def yes_no(value, yes="yes", no="**no**", none="—"):
    return {True: yes, False: no, None: none}[value]


def peer_ms(r):
    """The peer's time, "> limit" when it ran past its limit, or why there is none."""
    status = r.get("peer_status")
    if status == "ok":
        return ms(r["peer_ms"])
    if status == "timeout":
        return f"> {r['peer_limit_s'] * 1e3:,.0f}"
    return status or "—"


def _valid(r):
    if r["status"] == "skipped":
        return "—"
    return {True: "yes", False: "**NO**", None: "n/a"}[r["validated"]]


def _note(r):
    note = r["check"] if r["status"] == "ok" else f"{r['status']}: {r['error'] or ''} {r['check']}".strip()
    if r.get("peer_detail"):
        note += f"; peer: {r['peer_detail']}"
    return note


def _median(r):
    if r["status"] not in ("ok",) and r["median_ms"] is None:
        return r["status"]
    return ms(r["median_ms"])


def _target(r):
    if r["target_ms"] is None:
        return "—"
    return ms(r["target_ms"]) + (" (previous)" if r["target_source"] != "target" else "")


def method(meta):
    """The method paragraph (the timer is the device's)."""
    timer = ("wall clock, the device synchronized before the start and the stop" if meta["device"] == "gpu"
             else "wall clock (time.perf_counter)")
    return ("Method: one fresh `Graph` per row; one warm-up run (its time is the \"warm-up\" column: it also builds "
            "what the algorithm caches on the Graph, and on a fresh machine compiles its kernels), then timed runs "
            f"(median; at least one), {timer}. `1*`: the warm-up alone took over half the budget and a third of "
            "the row's limit, and its time is the one reported. The warm-up's result is checked against "
            "the oracle. The CPU peer runs on the host in the same run (median of up to 3 runs while under 1 s; "
            "\"> X\": it ran past its limit); where the peer is the oracle, its time is the oracle's single run. "
            "\"beats peer\": the median is below the peer's time.")


def tables(doc):
    """Markdown lines: the timings table and the oracles."""
    rows = sorted(doc["rows"], key=lambda r: r.get("order", 0))
    lines = ["", "## Timings", ""] + table(
        ["algorithm", "variant", "graph", "n", "entries", "median ms", "runs", "warm-up ms", "validated", "target ms",
         "meets target", "CPU peer", "peer ms", "beats peer", "before ms", "result / check"],
        [[r["algorithm"], cell(r["variant"]), r["graph"], f"{r['n']:,}", f"{r['nvals']:,}", _median(r),
          ("1*" if r["warmup_only"] else str(r["runs"])) if r["status"] in ("ok", "validation failed") else "—",
          ms(r["warmup_ms"]), _valid(r), _target(r), yes_no(r["meets_target"]), cell(r["peer"] or "—"), peer_ms(r),
          yes_no(r["beats_peer"]), ms(r["before_ms"]), cell(_note(r))] for r in rows])
    oracles = sorted({(r["algorithm"], r["oracle"]) for r in rows if r.get("oracle")})
    if oracles:
        lines += ["", "Oracles: " + "; ".join(f"{a}: {o}" for a, o in oracles) + "."]
    return lines


def line(i, total, r):
    """The progress line of row ``i`` of ``total``."""
    head = f"{i}/{total} {r['algorithm']}{' (' + r['variant'] + ')' if r['variant'] else ''} on {r['graph']}"
    if r["status"] == "skipped":
        return f"{head}: skipped ({r['error']})"
    if r["status"] not in ("ok", "validation failed"):
        return f"{head}: {r['status'].upper()} {r['error']}"
    runs = "warm-up only" if r["warmup_only"] else f"median of {r['runs']}"
    valid = {True: "validated", False: "VALIDATION FAILED", None: "not validated"}[r["validated"]]
    out = (f"{head}: {ms(r['median_ms'])} ms ({runs}; warm-up {ms(r['warmup_ms'])} ms); {valid}: {r['check']}"
           + (f" [oracle {ms(r['oracle_ms'])} ms]" if r["oracle_ms"] is not None else ""))
    if r["peer"]:
        out += f"; peer {peer_ms(r)} ms{yes_no(r['beats_peer'], ' (beaten)', ' (NOT beaten)')}"
    if r["target_ms"] is not None:
        out += f"; target {ms(r['target_ms'])} ms{yes_no(r['meets_target'], ' met', ' NOT met')}"
    return out


def summary(doc):
    """The suite's part of the summary line: rows without an oracle, targets met, peers beaten."""
    rows = doc["rows"]
    unchecked = sum(1 for r in rows if r["status"] == "ok" and r["validated"] is None)
    with_target = [r for r in rows if r["target_ms"] is not None]
    met = sum(1 for r in with_target if r["meets_target"])
    with_peer = [r for r in rows if r["beats_peer"] is not None]
    beat = sum(1 for r in with_peer if r["beats_peer"])
    no_peer = sum(1 for r in rows if r["status"] != "skipped" and r["peer"] and r["beats_peer"] is None)
    out = f"{unchecked} without an oracle"
    if with_target:
        out += f"; {met} of {len(with_target)} rows with a target meet it"
    out += f"; {beat} of {len(with_peer)} rows with a measured CPU peer beat it"
    if no_peer:
        out += f" ({no_peer} rows without a peer time: unavailable or failed)"
    return out
