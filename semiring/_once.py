"""Values computed once and cached, safe to read from several threads at the same time.

Thread-safety contract (the one SuiteSparse:GraphBLAS and python-graphblas state): any number
of threads may *read* the same Matrix, Vector or Graph at the same time: run algorithms on it,
use it as an input or a mask, take ``A.T``, its degrees, its symmetry. *Writing* an object (as
an operation's ``out``, by ``assign``, or by building it in place) while another thread reads
or writes it is a race the caller must prevent with a lock of their own; what the concurrent
reader sees is then undefined. What is guaranteed even then: once a write has returned, no
cache built from the old content (or half built) is served to a later read.

Reads fill caches: a matrix's transpose and row ids, a vector's second storage form, a graph's
degrees, symmetry and per-algorithm data, the compiled GPU kernels. Every such cache follows
one rule:

* **Publish atomically.** The value is built completely in local variables and stored with ONE
  assignment (one attribute, or one dict item, holding the whole value, a tuple when it has
  several parts). A reader sees either nothing (and builds) or the finished value, never a
  half-built one. Cheap builds (a vector's bitmap or index list, a row-id array) need nothing
  more: two threads may both build, and either result is right.
* **Build once under a lock** when building twice would be costly (a transpose, a graph's
  derived matrices, a CUDA compilation): :func:`once_attr` and :func:`once_item` take a
  reentrant lock, re-check, build and publish, so concurrent readers wait for one build.
  A build may read other caches of the same object (the lock is reentrant) and of objects it
  does not own; locks are taken from an owner to what it holds (Graph, then its matrices and
  vectors; the GPU backends' module locks last, their builds taking no other lock), never
  back, so they cannot deadlock.

* **Key the cache by the content version** when the object can be written. A Matrix carries
  ``_version``, a number that every write sets to a new, larger value *after* the new content
  is in place; its caches are stored as ``(version, value)`` pairs by :func:`versioned`, which
  reads the version *before* building and serves a pair only while the version still matches.
  A build that overlaps a write (another thread's race) may publish a value of the old
  content, but tagged with the old version, so no read that starts after the write returns
  is ever served it: it builds again from the new content.

The per-object locks live in a weak table, not on the objects, so a Matrix or Vector still
pickles and copies as plain data.
"""

from __future__ import annotations

import itertools
import threading
import weakref

_versions = itertools.count(1)  # next() on it is atomic under the GIL: versions never repeat

_table_lock = threading.Lock()
_locks = weakref.WeakKeyDictionary()


def lock_of(owner):
    """The reentrant lock that guards the cache builds of ``owner`` (created on first use).

    ``owner`` is any object compared by identity that takes weak references (a Matrix, a
    Graph); the lock lives as long as it does."""
    with _table_lock:
        lock = _locks.get(owner)
        if lock is None:
            lock = _locks[owner] = threading.RLock()
    return lock


def once_attr(owner, name, build):
    """``owner.<name>``, first set to ``build()`` under ``lock_of(owner)`` if it is None.

    ``build`` must return the finished value (not None); it is stored with one assignment.
    """
    value = getattr(owner, name)
    if value is None:
        with lock_of(owner):
            value = getattr(owner, name)
            if value is None:
                value = build()
                setattr(owner, name, value)
    return value


def once_item(cache, key, build, lock):
    """``cache[key]``, first set to ``build()`` if absent; ``lock`` (reentrant) guards the build.

    ``cache`` is a plain dict; its items are only ever added, each with one assignment.
    """
    try:
        return cache[key]
    except KeyError:
        pass
    with lock:
        try:
            return cache[key]
        except KeyError:
            value = build()
            cache[key] = value
            return value


def new_version():
    """A content version never handed out before (larger than every earlier one)."""
    return next(_versions)


def derived(owner, key, build):
    """A form of ``owner`` derived for ``key`` (a SciPy or cupyx view of a matrix, a check of its
    values), remembered for ``owner``'s current content (``owner._version``) in one dict that
    the next content replaces. Without a lock: a cheap build may run twice."""
    forms = getattr(owner, "_derived_forms", None)
    if forms is None or forms[0] != owner._version:
        forms = (owner._version, {})
        owner._derived_forms = forms
    value = forms[1].get(key)
    if value is None:
        value = forms[1][key] = build()
    return value


def versioned(owner, name, build, lock=True):
    """``owner.<name>`` as built from ``owner``'s current content (``owner._version``).

    The attribute holds None or a ``(version, value)`` pair. A pair of the current version is
    returned as is; otherwise ``build()`` runs (under ``lock_of(owner)`` when ``lock``, so
    threads asking at the same time build once; without, a cheap build may run twice) and its
    value is published with one assignment, tagged with the version read *before* the build.
    """
    version = owner._version
    entry = getattr(owner, name)
    if entry is not None and entry[0] == version:
        return entry[1]
    if not lock:
        value = build()
        setattr(owner, name, (version, value))
        return value
    with lock_of(owner):
        version = owner._version
        entry = getattr(owner, name)
        if entry is not None and entry[0] == version:
            return entry[1]
        value = build()
        setattr(owner, name, (version, value))
        return value


__all__ = ["lock_of", "new_version", "once_attr", "once_item", "versioned"]
