"""Counts of the backend's adapter calls, for the networkx-suite coverage gate.

With ``SEMIRING_NX_RECORD=<path>`` in the environment, :class:`semiring.nx.backend.BackendInterface`
wraps every adapter: each call that returned (or raised one of networkx's own errors) counts as
*ran*, each NotImplementedError as *declined*, and each ``can_run`` refusal is kept with its
reason. An iterator result counts as *ran* only once it is consumed (its first item, or its end):
a generator adapter's body runs lazily. The counts are written as JSON to the path when the
process exits. A backend whose adapters all decline would pass networkx's suite by fallback;
the gate (``semiring.nx._suite``) fails when an implemented adapter never ran.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import types
from collections import Counter, defaultdict

ENV = "SEMIRING_NX_RECORD"


class Recorder:
    """Per-adapter counts, written to ``path`` at exit."""

    def __init__(self, path):
        self.path = path
        self.ran = Counter()
        self.declined = Counter()
        self.cannot_run = defaultdict(Counter)
        atexit.register(self.dump)

    def wrap(self, name, func):
        """``func`` with its calls counted under ``name`` (``can_run`` kept)."""

        @functools.wraps(func)
        def adapter(*args, **kwargs):
            try:
                out = func(*args, **kwargs)
            except NotImplementedError:
                self.declined[name] += 1
                raise
            except Exception:
                self.ran[name] += 1
                raise
            if isinstance(out, types.GeneratorType):
                return self._consumed(name, out)
            self.ran[name] += 1
            return out

        return adapter

    def _consumed(self, name, gen):
        first = True
        try:
            for item in gen:
                if first:
                    self.ran[name] += 1
                    first = False
                yield item
        except Exception:
            if first:
                self.ran[name] += 1
            raise
        if first:
            self.ran[name] += 1

    def refused(self, name, reason):
        self.cannot_run[name][reason or "(no reason)"] += 1

    def dump(self):
        with open(self.path, "w") as f:
            json.dump({"ran": dict(self.ran), "declined": dict(self.declined),
                       "cannot_run": {k: dict(v) for k, v in self.cannot_run.items()}}, f, indent=1, sort_keys=True)


def from_environment(environ=os.environ):
    """A Recorder when ``SEMIRING_NX_RECORD`` names a file, else None."""
    path = environ.get(ENV)
    return Recorder(path) if path else None


__all__ = ["Recorder", "from_environment", "ENV"]
