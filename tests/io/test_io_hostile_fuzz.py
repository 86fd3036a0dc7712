"""Hostile files for the readers of ``semiring.io``: Hypothesis families that damage valid files
in every way, and a seeded fuzz run of 10,000 files in a child interpreter.

A file either gives exactly the matrix its valid parts define (checked against the independent
line-by-line oracles of ``tests/_io_fuzz.py``) or raises a SemiringError. No other exception
escapes; nothing crashes."""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _io_fuzz import BYTES, JUNK, VALID, case, check, fixed_free_memory, mutate

FUZZ = Path(__file__).resolve().parents[1] / "_io_fuzz.py"


# ---------------------------------------------------------------------------------------------
# Hypothesis: valid files damaged every way, each held to the independent oracle
# ---------------------------------------------------------------------------------------------
HYP = settings(max_examples=150, deadline=None, derandomize=True, database=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
FORMATS = list(VALID)
junk = st.one_of(st.sampled_from(JUNK), st.sampled_from(BYTES), st.binary(min_size=1, max_size=3))
positions = st.floats(0, 1, allow_nan=False)


def _read_as(tmp_path, fmt, text, gz, upper=False):
    raw = gzip.compress(text, mtime=0) if gz else text
    name = f"h.{'txt' if fmt == 'txt' else fmt}" + (".gz" if gz else "")
    path = tmp_path / (name.upper() if upper else name)
    path.write_bytes(raw)
    with fixed_free_memory():
        return check(path, fmt, raw, gz)


@pytest.mark.parametrize("fmt", FORMATS)
@HYP
@given(rnd=st.randoms(use_true_random=False), gz=st.booleans(), upper=st.booleans())
def test_valid_files_read_exactly(tmp_path, fmt, rnd, gz, upper):
    # the generator's files are all valid (the oracle accepts them) and read to the oracle's matrix
    assert _read_as(tmp_path, fmt, VALID[fmt](rnd), gz, upper) == "accepted"


@pytest.mark.parametrize("fmt", FORMATS)
@HYP
@given(rnd=st.randoms(use_true_random=False), pos=positions, gz=st.booleans())
def test_truncated_anywhere(tmp_path, fmt, rnd, pos, gz):
    _read_as(tmp_path, fmt, mutate(VALID[fmt](rnd), "truncate", pos, b""), gz)


@pytest.mark.parametrize("fmt", FORMATS)
@HYP
@given(rnd=st.randoms(use_true_random=False), kind=st.sampled_from(["token", "value"]), pos=positions, junk=junk)
def test_corrupted_token(tmp_path, fmt, rnd, kind, pos, junk):
    _read_as(tmp_path, fmt, mutate(VALID[fmt](rnd), kind, pos, junk), False)


@pytest.mark.parametrize("fmt", FORMATS)
@HYP
@given(rnd=st.randoms(use_true_random=False), pos=positions,
       junk=st.sampled_from([b"\x00", b"\xff", b"\xc3\xa9", b"\x80\x81", b"\x0b", b"\x0c", b"\x1b", b"\x7f",
                             b"\r", b"\x00\x00"]))
def test_nul_control_and_non_utf8_bytes(tmp_path, fmt, rnd, pos, junk):
    _read_as(tmp_path, fmt, mutate(VALID[fmt](rnd), "insert", pos, junk), False)


@pytest.mark.parametrize("fmt", FORMATS)
@HYP
@given(rnd=st.randoms(use_true_random=False), kind=st.sampled_from(["count", "huge"]), pos=positions)
def test_wrong_counts_and_huge_sizes(tmp_path, fmt, rnd, kind, pos):
    _read_as(tmp_path, fmt, mutate(VALID[fmt](rnd), kind, pos, b""), False)


@pytest.mark.parametrize("fmt", FORMATS)
@HYP
@given(rnd=st.randoms(use_true_random=False), kind=st.sampled_from(["delete_line", "duplicate_line", "swap_lines"]),
       pos=positions)
def test_missing_duplicated_and_swapped_lines(tmp_path, fmt, rnd, kind, pos):
    _read_as(tmp_path, fmt, mutate(VALID[fmt](rnd), kind, pos, b""), False)


@pytest.mark.parametrize("fmt", FORMATS)
@HYP
@given(rnd=st.randoms(use_true_random=False), kind=st.sampled_from(["truncate", "insert", "delete_byte"]),
       pos=positions, junk=junk)
def test_damaged_gzip_stream(tmp_path, fmt, rnd, kind, pos, junk):
    raw = mutate(gzip.compress(VALID[fmt](rnd), mtime=0), kind, pos, junk)
    path = tmp_path / f"d.{fmt}.gz"
    path.write_bytes(raw)
    with fixed_free_memory():
        check(path, fmt, raw, True)


@pytest.mark.parametrize("fmt", FORMATS)
@HYP
@given(rnd=st.randoms(use_true_random=False), edits=st.lists(st.tuples(
    st.sampled_from(["token", "value", "insert", "delete_byte", "truncate", "duplicate_line"]), positions, junk),
    min_size=2, max_size=4))
def test_several_damages_at_once(tmp_path, fmt, rnd, edits):
    text = VALID[fmt](rnd)
    for kind, pos, j in edits:
        text = mutate(text, kind, pos, j)
    _read_as(tmp_path, fmt, text, False)


def test_grammar_without_atomic_groups_accepts_the_same(monkeypatch):
    # Python 3.10 has no atomic groups or possessive quantifiers: the plain forms must agree
    from semiring.io import _dimacs, _edgelist, _grammar, _mtx

    grammars = [*_mtx._BODY.values(), _dimacs._GR.body, _dimacs._COL.body, *_edgelist._BODY.values()]
    monkeypatch.setattr(sys, "version_info", (3, 10, 0))
    plain = [_grammar.compile_grammar(g.pattern) for g in grammars]
    assert all(b"(?>" not in p.pattern and b"++" not in p.pattern for p in plain)
    rnd = random.Random(0)
    for _ in range(300):
        fmt = rnd.choice(FORMATS)
        text = mutate(VALID[fmt](rnd), rnd.choice(["token", "value", "insert", "keep"]), rnd.random(), rnd.choice(JUNK))
        for g, p in zip(grammars, plain):
            assert g.match(text).end() == p.match(text).end(), (g.pattern, text)


# ---------------------------------------------------------------------------------------------
# the seeded fuzz run: 10,000 generated files over all readers, in a child interpreter
# ---------------------------------------------------------------------------------------------
FUZZ_SEED, FUZZ_COUNT = 20261124, 10_000


def test_fuzz_ten_thousand_files(tmp_path):
    proc = subprocess.run([sys.executable, str(FUZZ), "--seed", str(FUZZ_SEED), "--count", str(FUZZ_COUNT),
                           "--dir", str(tmp_path)], capture_output=True, text=True, timeout=600,
                          env=os.environ.copy())
    if proc.returncode not in (0, 1):  # the interpreter died: name the case it was reading
        last = proc.stderr.strip().splitlines()[-1:] or ["?"]
        k = int(last[0]) if last[0].isdigit() else None
        detail = case(FUZZ_SEED, k) if k is not None else proc.stderr[-2000:]
        pytest.fail(f"the fuzz run died with rc={proc.returncode} on case {k}: {detail!r}")
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["n_failures"] == 0, "\n".join(report["failures"])
    counts = report["counts"]
    assert counts["accepted"] + counts["rejected"] == FUZZ_COUNT
    # both outcomes are common, so both halves of the rule are exercised
    assert counts["accepted"] > FUZZ_COUNT // 10 and counts["rejected"] > FUZZ_COUNT // 10, counts
    print(f"fuzz: {counts['rejected']} rejected, {counts['accepted']} accepted in {report['seconds']} s")
