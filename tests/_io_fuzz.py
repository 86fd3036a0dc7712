"""Hostile graph files for the readers of ``semiring.io``: valid files written with random
formatting, mutations that damage them, and an independent oracle for each format.

The oracles parse line by line in plain Python (``bytes.split``, ``int``, ``float``) from the
grammar the readers document, sharing no code with the readers' regex-and-NumPy parsers. For
a file they give either the matrix it defines (shape, ``{(i, j): value}``, dtype) or
:class:`Reject`. :func:`check` runs a reader on a file and holds it to the oracle: a file the
oracle rejects must raise InvalidValue naming the file, a file it accepts must give exactly its
matrix (or OutOfMemory, for a declared size too large to build), and nothing else may escape.

Run as a script, it is the seeded fuzz run of ``tests/io/test_io_hostile.py``: it writes each case
under ``--dir``, prints one JSON line with the counts, and exits 0 unless a case broke a rule
(it prints the cases that did). A crash of the interpreter shows as the process dying; the
number of the case being read is the last line on stderr, and :func:`case` rebuilds it.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import os
import random
import sys
import time
import zlib
from contextlib import contextmanager
from unittest import mock

#: int64 bounds: values outside are refused, shapes must index at most MAX positions
MAX = 2**63 - 1
MIN = -(2**63)
PRINTABLE = frozenset(range(32, 127)) | {9}


class Reject(Exception):
    """The oracle finds the file malformed."""


# ---------------------------------------------------------------------------------------------
# token grammar, written out by hand
# ---------------------------------------------------------------------------------------------
def is_index(t):
    return t.isdigit()  # ASCII digits only for bytes


def is_int(t):
    return t.isdigit() or (t[:1] in (b"+", b"-") and t[1:].isdigit())


def is_real(t):
    r = t[1:] if t[:1] in (b"+", b"-") else t
    if r.lower() in (b"inf", b"infinity", b"nan"):
        return True
    mant, _, exp = r.partition(b"e") if b"e" in r else r.partition(b"E")
    if (b"e" in r or b"E" in r) and not (exp.isdigit() or (exp[:1] in (b"+", b"-") and exp[1:].isdigit())):
        return False
    whole, dot, frac = mant.partition(b".")
    if whole and not whole.isdigit() or frac and not frac.isdigit():
        return False
    return bool(whole or frac)


def lines(data):
    """(line number, line without its newline and one final carriage return)."""
    parts = data.split(b"\n")
    if parts[-1] == b"":
        parts.pop()
    return [(k, p[:-1] if p.endswith(b"\r") else p) for k, p in enumerate(parts, 1)]


def tokens(s):
    return [t for t in s.replace(b"\t", b" ").split(b" ") if t]


def clean(s):
    return all(b in PRINTABLE for b in s)


def blank(s):
    return s.strip(b" \t") == b""


def shape_ok(nrows, ncols):
    """Dimensions int64 indices can address (a Matrix may refuse more: see :func:`check`)."""
    return max(nrows, ncols) <= MAX


def build(entries, nrows, ncols, dup):
    """{(i, j): value} from 0-based (i, j, value) triples; repeats combined by ``dup`` or refused."""
    out = {}
    for i, j, x in entries:
        if not (0 <= i < nrows and 0 <= j < ncols):
            raise Reject("index out of range")
        if (i, j) in out:
            if dup is None:
                raise Reject("duplicate")
            x = dup(out[i, j], x)
        out[i, j] = x
    return out


def _min(a, b):
    if isinstance(a, float) and math.isnan(a):
        return a
    return min(a, b)


# ---------------------------------------------------------------------------------------------
# oracles: (shape, {(i, j): value}, dtype name) or Reject
# ---------------------------------------------------------------------------------------------
def oracle_mtx(data):
    L = lines(data)
    if not L:
        raise Reject("empty")
    head = L[0][1]
    t = tokens(head)
    if not head[:14].lower() == b"%%matrixmarket" or len(t) != 5 or t[0].lower() != b"%%matrixmarket":
        raise Reject("banner")
    obj, fmt, field, sym = (x.lower() for x in t[1:])
    if obj != b"matrix" or fmt != b"coordinate" or field not in (b"pattern", b"integer", b"real") \
            or sym not in (b"general", b"symmetric"):
        raise Reject("banner words")
    k = 1
    while k < len(L) and (blank(L[k][1]) or L[k][1].lstrip(b" \t").startswith(b"%")):
        k += 1
    if k == len(L):
        raise Reject("no size line")
    size = tokens(L[k][1])
    if not clean(L[k][1]) or len(size) != 3 or not all(map(is_index, size)):
        raise Reject("size line")
    nrows, ncols, nnz = map(int, size)
    if not shape_ok(nrows, ncols) or (sym == b"symmetric" and nrows != ncols):
        raise Reject("shape")
    width = 2 if field == b"pattern" else 3
    triples = []
    for _, s in L[k + 1:]:
        if blank(s):
            continue
        t = tokens(s)
        if not clean(s) or len(t) != width or not (is_index(t[0]) and is_index(t[1])):
            raise Reject("entry")
        if field == b"integer":
            if not is_int(t[2]) or not MIN <= int(t[2]) <= MAX:
                raise Reject("integer value")
            x = int(t[2])
        elif field == b"real":
            if not is_real(t[2]):
                raise Reject("real value")
            x = float(t[2])
        else:
            x = True
        i, j = int(t[0]) - 1, int(t[1]) - 1
        triples.append((i, j, x))
    if len(triples) != nnz:
        raise Reject("count")
    if sym == b"symmetric":
        triples += [(j, i, x) for i, j, x in triples if i != j]
    dtype = {b"pattern": "bool", b"integer": "int64", b"real": "float64"}[field]
    return (nrows, ncols), build(triples, nrows, ncols, None), dtype


def _dimacs(data, problems, tag, width):
    n = m = None
    rows = []
    for _, s in lines(data):
        t0 = s.lstrip(b" \t")
        if blank(s) or t0[:1] == b"%" or (t0[:1] == b"c" and (len(t0) == 1 or t0[1:2] in (b" ", b"\t", b"\r"))):
            continue
        t = tokens(s)
        if not clean(s):
            raise Reject("bytes")
        if t[0] == b"p":
            if n is not None or len(t) != 4 or t[1] not in problems or not (is_index(t[2]) and is_index(t[3])):
                raise Reject("problem line")
            n, m = int(t[2]), int(t[3])
        elif t[0] == tag:
            if n is None or len(t) != width + 1 or not (is_index(t[1]) and is_index(t[2])):
                raise Reject("entry")
            if width == 3 and (not is_int(t[3]) or not MIN <= int(t[3]) <= MAX):
                raise Reject("weight")
            rows.append([int(x) for x in t[1:]])
        else:
            raise Reject("line kind")
    if n is None or not shape_ok(n, n):
        raise Reject("no problem line / shape")
    if any(not (1 <= r[0] <= n and 1 <= r[1] <= n) for r in rows):
        raise Reject("vertex range")
    return n, m, rows


def oracle_gr(data):
    n, m, rows = _dimacs(data, (b"sp",), b"a", 3)
    if len(rows) != m:
        raise Reject("arc count")
    return (n, n), build([(u - 1, v - 1, w) for u, v, w in rows], n, n, _min), "int64"


def oracle_col(data):
    n, _, rows = _dimacs(data, (b"edge", b"edges", b"col"), b"e", 2)
    both = [(u - 1, v - 1, True) for u, v in rows if u != v] + [(v - 1, u - 1, True) for u, v in rows if u != v]
    return (n, n), build(both, n, n, lambda a, b: True), "bool"


def oracle_edgelist(data, base=0, n=None, symmetric=False):
    rows, width = [], None
    for _, s in lines(data):
        if blank(s) or s.lstrip(b" \t")[:1] in (b"#", b"%"):
            continue
        t = tokens(s)
        if not clean(s) or len(t) not in (2, 3) or (width is not None and len(t) != width):
            raise Reject("fields")
        width = len(t)
        if not (is_index(t[0]) and is_index(t[1])) or (width == 3 and not is_real(t[2])):
            raise Reject("token")
        rows.append(t)
    if not rows:
        raise Reject("no edges")
    ints = width == 3 and all(is_int(r[2]) for r in rows)
    triples = []
    for r in rows:
        u, v = int(r[0]), int(r[1])
        if u > MAX or v > MAX:
            raise Reject("id overflow")
        if width == 2:
            x = True
        elif ints:
            x = int(r[2])
            if not MIN <= x <= MAX:
                raise Reject("weight overflow")
        else:
            x = float(r[2])
        triples.append((u - base, v - base, x))
    if any(u < 0 or v < 0 for u, v, _ in triples):
        raise Reject("below base")
    nv = max(max(u, v) for u, v, _ in triples) + 1 if n is None else n
    if not shape_ok(nv, nv):
        raise Reject("shape")
    dup = None
    if symmetric:
        triples += [(v, u, x) for u, v, x in triples if u != v]
        dup = _min
    dtype = "bool" if width == 2 else "int64" if ints else "float64"
    return (nv, nv), build(triples, nv, nv, dup), dtype


ORACLES = {"mtx": oracle_mtx, "gr": oracle_gr, "col": oracle_col, "txt": oracle_edgelist}


# ---------------------------------------------------------------------------------------------
# valid files, randomly formatted
# ---------------------------------------------------------------------------------------------
def _sep(rnd):
    return rnd.choice([b" ", b" ", b" ", b"\t", b"  ", b" \t "])


def _join(rnd, lines_):
    eol = b"\r\n" if rnd.random() < 0.15 else b"\n"
    out = b""
    for k, s in enumerate(lines_):
        if k and rnd.random() < 0.1:  # a blank line (not before a Matrix Market banner)
            out += rnd.choice([b"", b"  ", b"\t"]) + eol
        out += s + eol
    return out if rnd.random() < 0.85 else out[:-len(eol)]


def _indent(rnd, s):
    return (rnd.choice([b"", b"", b"", b" ", b"\t"]) + s + rnd.choice([b"", b"", b"", b" ", b"\t "]))


def _int_text(rnd, x):
    s = str(x).encode()
    if rnd.random() < 0.05:  # a leading zero
        s = s.replace(b"-", b"-0") if x < 0 else b"0" + s
    if x >= 0 and rnd.random() < 0.1:
        s = b"+" + s
    return s


def _real_text(rnd, x):
    forms = [repr(x), f"{x:.6e}", f"{x:.3f}", f"{x:E}"]
    s = rnd.choice(forms).encode()
    if rnd.random() < 0.05:
        s = rnd.choice([b"inf", b"-inf", b"nan", b"Infinity", b"-NaN", b"+INF", b"1.", b".5", b"-.25e+2"])
    elif x >= 0 and rnd.random() < 0.1:
        s = b"+" + s
    return s


def _entries(rnd, nrows, ncols, count, lower=False):
    cells = [(i, j) for i in range(nrows) for j in range(ncols) if not lower or j <= i]
    rnd.shuffle(cells)
    return cells[:count]


def valid_mtx(rnd):
    field = rnd.choice([b"pattern", b"integer", b"real"])
    sym = rnd.choice([b"general", b"symmetric"])
    nrows = rnd.randint(1, 6)
    ncols = nrows if sym == b"symmetric" else rnd.randint(1, 6)
    cells = _entries(rnd, nrows, ncols, rnd.randint(0, 8), lower=sym == b"symmetric")
    banner = b"%%" + rnd.choice([b"MatrixMarket", b"matrixmarket"]) + b" matrix " + \
        rnd.choice([b"coordinate", b"Coordinate"]) + b" " + field + b" " + sym
    out = [banner]
    for _ in range(rnd.randint(0, 2)):
        out.append(rnd.choice([b"% a comment", b"%", b"%% 1 2 3", b"  % indented"]))
    out.append(_indent(rnd, _sep(rnd).join(b"%d" % x for x in (nrows, ncols, len(cells)))))
    for i, j in cells:
        t = [b"%d" % (i + 1), b"%d" % (j + 1)]
        if field == b"integer":
            t.append(_int_text(rnd, rnd.choice([0, 1, -7, 10**12, MAX, MIN, rnd.randint(-1000, 1000)])))
        elif field == b"real":
            t.append(_real_text(rnd, rnd.choice([0.0, -1.5, 1e-300, 2.5e300, rnd.uniform(-10, 10)])))
        out.append(_indent(rnd, _sep(rnd).join(t)))
    return _join(rnd, out)


def _valid_dimacs(rnd, problem, tag, weighted):
    n = rnd.randint(1, 6)
    m = rnd.randint(0, 8)
    arcs = [(rnd.randint(1, n), rnd.randint(1, n)) for _ in range(m)]
    out = [rnd.choice([b"c header", b"c", b"% percent"]) for _ in range(rnd.randint(0, 2))]
    out.append(_indent(rnd, b"p " + problem + b" %d %d" % (n, m)))
    for u, v in arcs:
        if rnd.random() < 0.15:
            out.append(rnd.choice([b"c between", b"c\tx", b"%"]))
        t = [tag, b"%d" % u, b"%d" % v]
        if weighted:
            t.append(_int_text(rnd, rnd.choice([0, 1, 803, -5, MAX, rnd.randint(0, 10**6)])))
        out.append(_indent(rnd, _sep(rnd).join(t)))
    return _join(rnd, out)


def valid_gr(rnd):
    return _valid_dimacs(rnd, b"sp", b"a", True)


def valid_col(rnd):
    return _valid_dimacs(rnd, rnd.choice([b"edge", b"edges", b"col"]), b"e", False)


def valid_edgelist(rnd):
    width = rnd.choice([2, 3])
    real = rnd.random() < 0.5
    out = [rnd.choice([b"# u v w", b"% header", b"#"]) for _ in range(rnd.randint(0, 2))]
    seen = set()
    for _ in range(rnd.randint(1, 8)):
        u, v = rnd.randint(0, 6), rnd.randint(0, 6)
        if (u, v) in seen:
            continue
        seen.add((u, v))
        t = [b"%d" % u, b"%d" % v]
        if width == 3:
            t.append(_real_text(rnd, rnd.uniform(-5, 5)) if real else _int_text(rnd, rnd.randint(-50, 50)))
        out.append(_indent(rnd, _sep(rnd).join(t)))
    return _join(rnd, out)


VALID = {"mtx": valid_mtx, "gr": valid_gr, "col": valid_col, "txt": valid_edgelist}


# ---------------------------------------------------------------------------------------------
# mutations
# ---------------------------------------------------------------------------------------------
JUNK = [b"", b"x", b"-", b"+", b"1-2", b"3-4", b"2-3", b"0x10", b"1.5abc", b"1e", b"1e+", b".", b"1..2",
        b"nan(1)", b"1d5", b"1,5", b"1_0", b"+-1", b"--1", b"1.5", b"-1", b"0", b"99999999999999999999",
        b"9223372036854775808", b"-9223372036854775809", b"9223372036854775807", b"1e999", b"inf", b"-nan",
        b"infinit", b"\x00", b"1\x00", b"\xff", b"\xc3\xa9", b"\xd9\xa1", b"1\x0b2", b"\x0c", b"%", b"#", b"c",
        b"p", b"a", b"e", b"1 2", b"1 1 1 1", b"1000000000000", b"4294967296", b"2000000000"]
BYTES = [b"\x00", b"\xff", b"\x0b", b"\x0c", b"\r", b"\t", b" ", b"\n", b"\x1b", b"\x80", b"%", b"#", b"-", b"+",
         b".", b"e", b"0", b"9"]
#: mutation -> how often it is picked by the fuzz run
MUTATIONS = {"truncate": 2, "token": 4, "value": 4, "insert": 3, "delete_byte": 1, "delete_line": 1,
             "duplicate_line": 1, "swap_lines": 1, "count": 1, "huge": 1, "keep": 1}


def _token_spans(data):
    spans, start = [], None
    for k, b in enumerate(data + b" "):
        ws = b in b" \t\r\n"
        if not ws and start is None:
            start = k
        elif ws and start is not None:
            spans.append((start, k))
            start = None
    return spans


def mutate(data, kind, pos, junk):
    """``data`` damaged by mutation ``kind`` at relative position ``pos`` (0..1) with ``junk``."""
    n = len(data)
    at = min(int(pos * (n + 1)), n)
    if kind == "truncate":
        return data[:at]
    if kind == "insert":
        return data[:at] + junk + data[at:]
    if kind == "delete_byte":
        return data[:at] + data[at + 1:]
    if kind == "value":  # the last token of a line past the first two (a value, a weight, a vertex)
        parts = data.split(b"\n")
        k = min(2 + int(pos * (len(parts) - 2)), len(parts) - 1)
        head, sep, last = parts[k].rstrip(b" \t\r").rpartition(b" ")
        parts[k] = (head + sep if sep else b"") + junk
        return b"\n".join(parts)
    if kind in ("token", "count", "huge"):
        spans = _token_spans(data)
        if not spans:
            return data + junk
        if kind == "token":
            s, e = spans[min(int(pos * len(spans)), len(spans) - 1)]
        else:  # a number of the size / problem line (the first few tokens)
            s, e = spans[min(int(pos * 6), len(spans) - 1)]
            if kind == "huge":
                junk = [b"1000000000000", b"2000000000", b"4294967296", b"99999999999999999999"][int(pos * 4) % 4]
            else:
                junk = b"%d" % max(0, int(data[s:e]) + (1 if pos < 0.5 else -1)) if data[s:e].isdigit() else b"7"
        return data[:s] + junk + data[e:]
    parts = data.split(b"\n")
    k = min(int(pos * len(parts)), len(parts) - 1)
    if kind == "delete_line":
        return b"\n".join(parts[:k] + parts[k + 1:])
    if kind == "duplicate_line":
        return b"\n".join(parts[:k + 1] + parts[k:])
    if kind == "swap_lines":
        j = (k + 1) % len(parts)
        parts[k], parts[j] = parts[j], parts[k]
        return b"\n".join(parts)
    return data  # "keep"


# ---------------------------------------------------------------------------------------------
# running a reader against its oracle
# ---------------------------------------------------------------------------------------------
def expected(fmt, raw, gz, options):
    """The oracle's answer for the file bytes ``raw`` (gzip-compressed when ``gz``)."""
    if gz:
        try:
            raw = gzip.GzipFile(fileobj=io.BytesIO(raw)).read()
        except (OSError, EOFError, zlib.error) as exc:
            raise Reject(f"gzip: {exc}") from None
    return ORACLES[fmt](raw, **options)


def entries_of(A):
    r, c, v = A.to_coo()
    return {(int(i), int(j)): x.item() for i, j, x in zip(r, c, v)}


def same_values(got, want):
    if got.keys() != want.keys():
        return False
    for k, x in want.items():
        y = got[k]
        if isinstance(x, float) and math.isnan(x):
            if not (isinstance(y, float) and math.isnan(y)):
                return False
        elif y != x or type(y) is not type(x):
            return False
    return True


def check(path, fmt, raw, gz, options=None):
    """Read ``path`` (holding ``raw``) with ``sr.io.read`` and hold the result to the oracle.

    Returns "rejected" or "accepted"; raises AssertionError when the reader disagrees with the
    oracle or lets anything but a SemiringError escape."""
    import semiring as sr

    options = options or {}
    try:
        want = expected(fmt, raw, gz, options)
    except Reject as why:
        want, reason = None, str(why)
    try:
        A = sr.io.read(path, **options)
    except sr.OutOfMemory as exc:
        assert os.fspath(path) in str(exc), f"OutOfMemory does not name the file: {exc}"
        assert want is None or max(want[0]) >= 2**24, f"OutOfMemory for a small valid file {raw!r}: {exc}"
        return "rejected"
    except sr.InvalidValue as exc:
        # a valid file may only be refused for a shape beyond what a Matrix indexes
        assert want is None or want[0][0] * want[0][1] > MAX, f"rejected a valid file {raw!r} (oracle: {want}): {exc}"
        assert os.fspath(path) in str(exc), f"the message does not name the file: {exc}"
        return "rejected"
    except sr.SemiringError as exc:
        raise AssertionError(f"{type(exc).__name__} (expected InvalidValue) on {raw!r}: {exc}") from None
    except Exception as exc:  # a raw exception: the defect this guards against
        raise AssertionError(f"raw {type(exc).__name__} on {raw!r}: {exc}") from exc
    assert want is not None, f"accepted a malformed file ({reason}) {raw!r}: {entries_of(A)}"
    shape, values, dtype = want
    assert A.shape == shape, (raw, A.shape, shape)
    assert A.dtype.name == dtype, (raw, A.dtype, dtype)
    assert same_values(entries_of(A), values), (raw, entries_of(A), values)
    return "accepted"


SUFFIX = {"mtx": ".mtx", "gr": ".gr", "col": ".col", "txt": ".txt"}


def case_name(fmt, gz, k, rnd):
    """A file name for the format, upper case one time in ten (the readers ignore the case)."""
    name = f"c{k}{SUFFIX[fmt]}" + (".gz" if gz else "")
    return name.upper() if rnd.random() < 0.1 else name


def make_case(rnd, fmt=None):
    """(format, gzip?, file bytes) of one random malformed (or intact) file."""
    fmt = fmt or rnd.choice(list(VALID))
    text = VALID[fmt](rnd)
    gz = rnd.random() < 0.2
    kind = rnd.choices(list(MUTATIONS), weights=list(MUTATIONS.values()))[0]
    junk = rnd.choice(JUNK) if rnd.random() < 0.7 else rnd.choice(BYTES) * rnd.randint(1, 2)
    if gz and rnd.random() < 0.5:  # damage the compressed bytes instead of the text
        raw = gzip.compress(text, mtime=0)
        return fmt, gz, mutate(raw, rnd.choice(("truncate", "insert", "delete_byte", "keep")), rnd.random(), junk)
    text = mutate(text, kind, rnd.random(), junk)
    if rnd.random() < 0.1:
        text = mutate(text, rnd.choice(list(MUTATIONS)), rnd.random(), rnd.choice(JUNK))
    return fmt, gz, gzip.compress(text, mtime=0) if gz else text


#: The memory the readers are told is free while fuzzed: the same on every machine, so that a
#: declared size of 2 * 10**9 vertices is refused (OutOfMemory) instead of built where it fits.
FUZZ_FREE_BYTES = 4 << 30


@contextmanager
def fixed_free_memory(nbytes=FUZZ_FREE_BYTES):
    with mock.patch("semiring._memory.available_bytes", lambda device="cpu": nbytes):
        yield


def fuzz(seed, count, directory, progress=None):
    """Read ``count`` generated files; returns the counts by outcome and the broken rules.

    Case ``k`` is drawn from ``random.Random(f"{seed}:{k}")`` alone (:func:`case`), so that a
    case can be rebuilt from its number; ``progress`` (a stream) gets each number before the
    case is read, so that the case that killed the interpreter is known."""
    counts = {"accepted": 0, "rejected": 0}
    failures = []
    with fixed_free_memory():
        for k in range(count):
            fmt, gz, raw, name = case(seed, k)
            if progress is not None:
                progress.write(f"{k}\n")
                progress.flush()
            path = os.path.join(directory, name)
            with open(path, "wb") as f:
                f.write(raw)
            try:
                counts[check(path, fmt, raw, gz)] += 1
            except AssertionError as exc:
                failures.append(f"case {k}, {fmt} gz={gz}: {exc}"[:600])
            os.remove(path)
    return counts, failures


def case(seed, k):
    """(format, gzip?, file bytes, file name) of case ``k`` of the fuzz run ``seed``."""
    rnd = random.Random(f"{seed}:{k}")
    fmt, gz, raw = make_case(rnd)
    return fmt, gz, raw, case_name(fmt, gz, k, rnd)


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--dir", required=True)
    args = ap.parse_args()
    t0 = time.perf_counter()
    counts, failures = fuzz(args.seed, args.count, args.dir, progress=sys.stderr)
    print(json.dumps({"counts": counts, "failures": failures[:20], "n_failures": len(failures),
                      "seconds": round(time.perf_counter() - t0, 2)}))
    sys.exit(1 if failures else 0)
