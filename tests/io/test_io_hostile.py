"""Hostile files for the readers of ``semiring.io``: bytes that once crashed the interpreter,
garbage tokens, damaged gzip data and paths that are not files.

The rule everywhere: a file either gives exactly the matrix its valid parts define or raises a
SemiringError (InvalidValue naming the file, and the line where one line is at fault). No other
exception escapes; nothing crashes. Huge sizes, options and extensions are in
test_io_hostile_sizes.py; the Hypothesis families and the seeded fuzz run in
test_io_hostile_fuzz.py."""

from __future__ import annotations

import gzip
import json
import os
import stat
import subprocess
import sys
import threading
import zlib

import numpy as np
import pytest

import semiring as sr
from semiring import InvalidValue, OutOfMemory
from _io_hostile import MM, READER_TEXT, assert_raises, entries, put


# ---------------------------------------------------------------------------------------------
# bytes that crashed SciPy's Matrix Market parser: each case read in one child interpreter, so
# that a crash fails these tests instead of killing pytest
# ---------------------------------------------------------------------------------------------
CRASHERS = {
    # name: (file name, bytes, line named, or "ok" and the entries when the file is valid)
    "real_nul_after_value": ("a.mtx", f"{MM} real general\n2 2 1\n1 1 1\x00\n", 3),
    "real_nul_in_index": ("b.mtx", f"{MM} real general\n2 2 1\n1\x00 1 1\n", 3),
    "real_nul_alone": ("c.mtx", f"{MM} real general\n2 2 2\n1 1 1\n\x00\n", 4),
    "real_nul_in_size_line": ("d.mtx", f"{MM} real general\n2 2\x00 1\n1 1 1\n", 2),
    "real_nul_in_banner": ("e.mtx", f"{MM} real general\x00\n2 2 1\n1 1 1\n", 1),
    "integer_nul": ("f.mtx", f"{MM} integer general\n2 2 1\n1 1 7\x00\n", 3),
    "pattern_nul": ("g.mtx", f"{MM} pattern general\n2 2 1\n1 1\x00\n", 3),
    "real_nul_gz": ("h.mtx.gz", f"{MM} real general\n2 2 1\n1 1 1\x00\n", 3),
    "real_non_utf8": ("i.mtx", f"{MM} real general\n2 2 1\n1 1 1\xff\xfe\n", 3),
    "real_control_bytes": ("j.mtx", f"{MM} real general\n2 2 1\n1 1\x0b1\x0c\n", 3),
    "real_escape": ("k.mtx", f"{MM} real general\n2 2 1\n1 1 1\x1b[0m\n", 3),
    # SciPy's parser crashes on a last line that ends in a blank without a newline: valid text
    "real_last_line_blank_no_newline": ("l.mtx", f"{MM} real general\n2 2 1\n1 2 -6.5\t ", {(0, 1): -6.5}),
    "real_last_line_space_no_newline": ("m.mtx", f"{MM} real general\n3 5 1\n  \n\t2 1 7 ", {(1, 0): 7.0}),
    # a NUL in a comment is never parsed: the file is valid
    "real_nul_in_comment": ("n.mtx", f"{MM} real general\n% \x00\xff\n2 2 1\n2 2 2.5\n", {(1, 1): 2.5}),
}
_CHILD = r"""
import json, sys
import semiring as sr
for name, path in json.loads(sys.argv[1]):
    print("start", name, flush=True)
    try:
        A = sr.io.read(path)
        r, c, v = A.to_coo()
        out = {"ok": [[int(i), int(j), float(x)] for i, j, x in zip(r, c, v)]}
    except Exception as exc:
        out = {"exc": type(exc).__name__, "msg": str(exc)}
    print("done", name, json.dumps(out), flush=True)
"""


@pytest.fixture(scope="module")
def crash_results(tmp_path_factory):
    """{case name: outcome} of reading every CRASHERS file in one child interpreter."""
    d = tmp_path_factory.mktemp("crashers")
    cases = [(name, str(put(d, fname, text))) for name, (fname, text, _) in CRASHERS.items()]
    proc = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(cases)], capture_output=True, text=True,
                          timeout=300, env=os.environ.copy())
    results = {}
    for line in proc.stdout.splitlines():
        kind, name, *rest = line.split(" ", 2)
        if kind == "start":
            results[name] = {"crashed": proc.returncode}  # replaced by "done" unless it died here
        else:
            results[name] = json.loads(rest[0])
    return results, proc


@pytest.mark.parametrize("name", list(CRASHERS))
def test_bytes_that_crashed_scipy_never_reach_it(crash_results, name):
    results, proc = crash_results
    fname, text, want = CRASHERS[name]
    got = results.get(name)
    assert got is not None, f"the child never reached {name}: rc={proc.returncode}, stderr={proc.stderr[-2000:]}"
    assert "crashed" not in got, f"the interpreter died (rc={got['crashed']}) reading {text!r}: {proc.stderr[-2000:]}"
    if isinstance(want, dict):
        assert "ok" in got, got
        assert {(i, j): x for i, j, x in got["ok"]} == want
    else:
        assert got.get("exc") == "InvalidValue", got
        assert fname in got["msg"] and f", line {want}:" in got["msg"], got["msg"]


# ---------------------------------------------------------------------------------------------
# every token parses completely, or InvalidValue names the file, the line and the token
# ---------------------------------------------------------------------------------------------
GARBAGE = [
    # (id, file name, text, line, token the message shows)
    ("pattern_range_like", "p.mtx", f"{MM} pattern general\n3 3 1\n1 2-3\n", 3, "2-3"),
    ("integer_range_like", "i.mtx", f"{MM} integer general\n3 3 1\n1 2 3-4\n", 3, "3-4"),
    ("real_trailing_letters", "r.mtx", f"{MM} real general\n3 3 2\n1 2 1.5\n1 1 1.5abc\n", 4, "1.5abc"),
    ("real_hex", "x.mtx", f"{MM} real general\n3 3 1\n1 2 0x10\n", 3, "0x10"),
    ("real_bare_exponent", "e.mtx", f"{MM} real general\n3 3 1\n1 2 1e\n", 3, "1e"),
    ("real_fortran_exponent", "d.mtx", f"{MM} real general\n3 3 1\n1 2 1d5\n", 3, "1d5"),
    ("real_two_signs", "s.mtx", f"{MM} real general\n3 3 1\n1 2 +-1\n", 3, "+-1"),
    ("real_nan_payload", "n.mtx", f"{MM} real general\n3 3 1\n1 2 nan(1)\n", 3, "nan(1)"),
    ("real_decimal_comma", "c.mtx", f"{MM} real general\n3 3 1\n1 2 1,5\n", 3, "1,5"),
    ("real_underscore", "u.mtx", f"{MM} real general\n3 3 1\n1 2 1_000\n", 3, "1_000"),
    ("real_two_dots", "t.mtx", f"{MM} real general\n3 3 1\n1 2 1.2.3\n", 3, "1.2.3"),
    ("integer_fraction", "f.mtx", f"{MM} integer general\n3 3 1\n1 2 1.0\n", 3, "1.0"),
    ("integer_two_signs", "g.mtx", f"{MM} integer general\n3 3 1\n1 2 --3\n", 3, "--3"),
    ("index_signed", "h.mtx", f"{MM} pattern general\n3 3 1\n+1 2\n", 3, "+1"),
    ("index_arabic_digit", "k.mtx", f"{MM} pattern general\n3 3 1\n1 \u0661\n".encode(), 3, None),
    ("gr_weight_range_like", "a.gr", "p sp 3 1\na 1 2 3-4\n", 2, "3-4"),
    ("gr_vertex_range_like", "b.gr", "c\np sp 3 1\na 1 2-3 4\n", 3, "2-3"),
    ("gr_weight_hex", "c.gr", "p sp 3 1\na 1 2 0x10\n", 2, "0x10"),
    ("col_vertex_range_like", "a.col", "p edge 3 1\ne 1 2-3\n", 2, "2-3"),
    ("col_vertex_letters", "b.col", "p edge 3 2\ne 1 2\ne 2 3x\n", 3, "3x"),
    ("edgelist_vertex_range_like", "a.txt", "0 1\n1 2-3\n", 2, "2-3"),
    ("edgelist_weight_letters", "b.txt", "0 1 2\n0 2 1.5abc\n", 2, "1.5abc"),
    ("edgelist_weight_hex", "c.el", "0 1 0x10\n", 1, "0x10"),
    ("edgelist_weight_range_like", "d.edges", "0 1 3-4\n", 1, "3-4"),
]


@pytest.mark.parametrize("name,fname,text,line,token", GARBAGE, ids=[g[0] for g in GARBAGE])
def test_garbage_token_is_refused_with_file_line_and_token(tmp_path, name, fname, text, line, token):
    p = put(tmp_path, fname, text)
    msg = assert_raises(InvalidValue, p, line, sr.io.read, p)
    if token is not None:
        assert repr(token) in msg, msg
    q = put(tmp_path, fname + ".GZ", text)  # the same through gzip
    assert_raises(InvalidValue, q, line, sr.io.read, q)


@pytest.mark.parametrize("fname,text,line", [
    ("a.mtx", f"{MM} integer general\n3 3 1\n1 1 9223372036854775808\n", 3),
    ("b.mtx", f"{MM} integer general\n3 3 2\n1 1 1\n2 2 -9223372036854775809\n", 4),
    ("c.mtx", f"{MM} pattern general\n3 3 1\n99999999999999999999 1\n", 3),
    ("d.mtx", f"{MM} real general\n3 3 1\n99999999999999999999 1 1.5\n", 3),
    ("e.gr", "p sp 3 2\na 1 2 1\na 2 3 99999999999999999999\n", 3),
    ("f.col", "p edge 3 1\ne 1 99999999999999999999\n", 2),
    ("g.txt", "0 1 5\n0 99999999999999999999 1\n", 2),
    ("h.txt", "0 1 0.5\n99999999999999999999 1 1\n", 2),
    ("i.txt", "0 1 9223372036854775808\n", 1),
])
def test_integer_beyond_int64_is_refused_with_its_line(tmp_path, fname, text, line):
    p = put(tmp_path, fname, text)
    assert_raises(InvalidValue, p, line, sr.io.read, p)


def test_real_spellings_accepted(tmp_path):
    # decimal and exponent forms, inf/infinity/nan in any case with a sign: what float() reads
    p = put(tmp_path, "s.mtx", f"{MM} real general\n3 3 8\n1 1 inf\n1 2 -Infinity\n1 3 NaN\n2 1 +INF\n"
                               f"2 2 1.\n2 3 .5\n3 1 -.25e+2\n3 2 +1E-3\n")
    got = entries(sr.io.read(p))
    assert np.isnan(got.pop((0, 2)))
    assert got == {(0, 0): np.inf, (0, 1): -np.inf, (1, 0): np.inf, (1, 1): 1.0, (1, 2): 0.5, (2, 0): -25.0,
                   (2, 1): 1e-3}


def test_integer_extremes_and_signs_accepted(tmp_path):
    p = put(tmp_path, "i.mtx", f"{MM} integer general\n2 2 3\n1 1 9223372036854775807\n1 2 -9223372036854775808\n"
                               f"2 2 +007\n")
    assert entries(sr.io.read(p)) == {(0, 0): 2**63 - 1, (0, 1): -(2**63), (1, 1): 7}


def test_comment_after_size_line_is_refused(tmp_path):
    p = put(tmp_path, "c.mtx", f"{MM} integer general\n3 3 2\n1 1 1\n% late\n2 2 2\n")
    msg = assert_raises(InvalidValue, p, 4, sr.io.read, p)
    assert "comment" in msg


# ---------------------------------------------------------------------------------------------
# damaged files and paths that are not files: InvalidValue naming the file, for every reader
# ---------------------------------------------------------------------------------------------
READERS = {"mtx": sr.io.read_mtx, "gr": sr.io.read_gr, "col": sr.io.read_col, "txt": sr.io.read_edgelist}


def _gz_damage(kind, text):
    z = gzip.compress(text.encode(), mtime=0)
    if kind == "truncated":
        return z[:len(z) // 2]
    if kind == "truncated_header":
        return z[:5]
    if kind == "plain_text":
        return text.encode()
    if kind == "magic_then_junk":
        return b"\x1f\x8b" + b"junk" * 20
    if kind == "corrupt_deflate":  # a valid header, then a deflate stream that cannot be decoded
        return z[:10] + b"\xff" * 20 + z[30:]
    if kind == "bad_crc":
        return z[:-8] + bytes(b ^ 0xFF for b in z[-8:-4]) + z[-4:]
    if kind == "trailing_junk":
        return z + b"junk"
    raise AssertionError(kind)


GZ_DAMAGE = ["truncated", "truncated_header", "plain_text", "magic_then_junk", "corrupt_deflate", "bad_crc",
             "trailing_junk"]


@pytest.mark.parametrize("fmt", list(READERS))
@pytest.mark.parametrize("damage", GZ_DAMAGE)
def test_damaged_gzip_is_invalid_value_naming_the_file(tmp_path, fmt, damage):
    raw = _gz_damage(damage, READER_TEXT[fmt])
    p = tmp_path / f"g.{fmt}.gz"
    p.write_bytes(raw)
    assert_raises(InvalidValue, p, None, sr.io.read, p)
    assert_raises(InvalidValue, p, None, READERS[fmt], p)


def test_corrupt_deflate_is_zlib_error_underneath(tmp_path):
    # the case above that zlib itself refuses: it must be the InvalidValue, not zlib.error
    raw = _gz_damage("corrupt_deflate", READER_TEXT["mtx"])
    with pytest.raises(zlib.error):
        gzip.decompress(raw)
    p = tmp_path / "z.mtx.gz"
    p.write_bytes(raw)
    assert "damaged" in assert_raises(InvalidValue, p, None, sr.io.read, p)


@pytest.mark.parametrize("fmt", list(READERS))
def test_directory_missing_and_unreadable(tmp_path, fmt, monkeypatch):
    d = tmp_path / f"dir.{fmt}"
    d.mkdir()
    assert "directory" in assert_raises(InvalidValue, d, None, sr.io.read, d)
    assert "directory" in assert_raises(InvalidValue, d, None, READERS[fmt], d)
    missing = tmp_path / f"none.{fmt}.gz"
    assert "no such file" in assert_raises(InvalidValue, missing, None, READERS[fmt], missing)
    inside_a_file = put(tmp_path, f"f.{fmt}", READER_TEXT[fmt]) / "x.mtx"  # a path through a file
    assert "no such file" in assert_raises(InvalidValue, inside_a_file, None, sr.io.read, inside_a_file)
    p = put(tmp_path, f"locked.{fmt}", READER_TEXT[fmt])
    from semiring.io import _text

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(p))

    monkeypatch.setattr(_text, "open", refuse, raising=False)
    assert "permission denied" in assert_raises(InvalidValue, p, None, sr.io.read, p)


_UNPRIVILEGED_READ = r"""
import os, sys
import semiring as sr
os.setuid(65534)  # root reads anything: read as nobody
try:
    sr.io.read(sys.argv[1])
    print("read")
except Exception as exc:
    print(type(exc).__name__, exc)
"""


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
def test_file_without_read_permission(tmp_path):
    p = put(tmp_path, "locked.mtx", READER_TEXT["mtx"])
    p.chmod(0)
    try:
        if os.geteuid() != 0:
            assert "permission denied" in assert_raises(InvalidValue, p, None, sr.io.read, p)
        else:
            proc = subprocess.run([sys.executable, "-c", _UNPRIVILEGED_READ, str(p)], capture_output=True,
                                  text=True, timeout=120, env=os.environ.copy())
            assert proc.stdout.startswith(f"InvalidValue {p}: permission denied"), (proc.stdout, proc.stderr[-1000:])
    finally:
        p.chmod(stat.S_IRUSR | stat.S_IWUSR)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this platform")
def test_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.mtx"
    os.mkfifo(fifo)
    outcome = []

    def read():
        try:
            sr.io.read(fifo)
        except Exception as exc:  # recorded, judged below
            outcome.append(exc)

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(30)
    assert not t.is_alive(), "reading a FIFO blocked"
    assert type(outcome[0]) is InvalidValue and str(fifo) in str(outcome[0]), outcome


def test_device_is_refused(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    assert "not a regular file" in assert_raises(InvalidValue, "/dev/zero", None, sr.io.read, "/dev/zero")


@pytest.mark.parametrize("arg", [None, 3, 1.5, ["a.mtx"], object()], ids=["None", "int", "float", "list", "object"])
def test_path_that_is_not_a_path(arg):
    # an int would be an open file descriptor to open(): refused like the rest
    for call in (sr.io.read, *READERS.values()):
        with pytest.raises(InvalidValue, match="expected a file path"):
            call(arg)
    with pytest.raises(InvalidValue, match="expected a file path"):
        sr.io.write_mtx(arg, sr.Matrix.from_coo([0], [0], [1.0], nrows=1, ncols=1))


def test_bytes_path_is_a_path(tmp_path):
    p = put(tmp_path, "b.mtx", READER_TEXT["mtx"])
    assert entries(sr.io.read(os.fsencode(p))) == {(0, 1): 0.5, (2, 0): -2.0}
    assert_raises(InvalidValue, os.fsdecode(tmp_path / "nope.gr"), None, sr.io.read, os.fsencode(tmp_path / "nope.gr"))


def test_gzip_bomb_stops_at_the_free_memory(tmp_path, monkeypatch):
    # 96 MiB of zeros in ~100 KB: decompression stops once the content would not fit
    p = tmp_path / "bomb.txt.gz"
    p.write_bytes(gzip.compress(b"0 1\n" + b" " * (96 << 20), compresslevel=1, mtime=0))
    monkeypatch.setattr("semiring._memory.available_bytes", lambda device="cpu": 70 << 20)
    msg = assert_raises(OutOfMemory, p, None, sr.io.read, p)
    assert "decompressed" in msg


def test_file_too_large_to_parse_is_refused_before_reading(tmp_path, monkeypatch):
    # parsing needs about PARSE_FACTOR times the text again: a 24 MB file with 40 MiB free
    p = tmp_path / "big.txt"
    p.write_bytes(b"0 1\n" * (6 << 20))
    monkeypatch.setattr("semiring._memory.available_bytes", lambda device="cpu": 40 << 20)
    msg = assert_raises(OutOfMemory, p, None, sr.io.read, p)
    assert f"{p.stat().st_size:,} bytes" in msg


@pytest.mark.parametrize("fmt", list(READERS))
def test_memory_error_while_parsing_becomes_out_of_memory(tmp_path, monkeypatch, fmt):
    p = put(tmp_path, f"m.{fmt}", READER_TEXT[fmt])

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(np, "fromstring", exhausted)
    monkeypatch.setattr("scipy.io.mmread", exhausted)
    assert_raises(OutOfMemory, p, None, READERS[fmt], p)
    assert_raises(OutOfMemory, p, None, sr.io.read, p)
