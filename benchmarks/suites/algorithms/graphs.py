"""The algorithms suite's graphs: one shared graph (``../shared/data``) and one generated graph
(``semiring.generators``) for each role, and their loaded form (the device's Matrix, host copies
for the oracles and the peers).

- undirected: USA-road-t.NY (DIMACS, 264,346 vertices) and Graph500 Kronecker scales 14 and 16;
- directed: cnr-2000 (LAW web crawl, 325,557 vertices, with published strong components) and the
  Kronecker scale-14 graph with a quarter of its arcs dropped (by a hash of (i, j));
- small: the whole of LAGraph's ``test_FW_2003`` (2,003 vertices) and a weighted Kronecker
  scale-8 graph (their algorithms' work grows as n**3, or n steps).

``--size tiny`` maps the same keys to tiny graphs (karate, west0067, Kronecker scales 8 and 6).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

import semiring as sr
from semiring.algorithms import Graph

from ...harness.graphs import kron_builder, kron_directed_builder, read_builder


@dataclass
class Spec:
    """A graph of the run.

    Attributes
    ----------
    name, about : str
    source : {"shared", "generated"}
    role : {"undirected", "directed", "small"}
        "undirected" and "small" graphs are symmetric and weighted; "directed" ones are patterns.
    build : callable ``data_dir -> Matrix`` (on the CPU)
    path : str or None
        Data file relative to the data folder (a missing file skips the graph's rows).
    scc : str or None
        Published strong-component labels, relative to the data folder.
    """

    name: str
    source: str
    role: str
    about: str
    build: Callable
    path: str | None = None
    scc: str | None = None


def _karate(role, about):
    return Spec("karate", "shared", role, about, read_builder("small/lagraph/karate.mtx"), "small/lagraph/karate.mtx")


def specs(size):
    """The graphs by key: {key: Spec}. The keys are the same in both sizes; "tiny" maps them to
    small graphs (several keys may then name the same graph)."""
    if size == "tiny":
        kron8 = Spec("kron8", "generated", "undirected", "Graph500 Kronecker scale 8, weights 1..255", kron_builder(8))
        return {
            "roads": _karate("undirected", "Zachary karate club (LAGraph)"),
            "kron14": kron8,
            "kron16": kron8,
            "web": Spec("west0067", "shared", "directed", "west0067 (LAGraph), pattern",
                        read_builder("small/lagraph/west0067.mtx"), "small/lagraph/west0067.mtx"),
            "kron14-directed": Spec("kron8-directed", "generated", "directed",
                                    "Kronecker scale 8 arcs, those with hash(i, j) = 0 mod 4 dropped",
                                    kron_directed_builder(8)),
            "fw": _karate("small", "Zachary karate club (LAGraph), unit weights"),
            "kron8": Spec("kron6", "generated", "small", "Graph500 Kronecker scale 6, weights 1..255", kron_builder(6)),
        }
    return {
        "roads": Spec("USA-road-t.NY", "shared", "undirected",
                      "DIMACS New York roads, travel times (parallel arcs: minimum)",
                      read_builder("roads/USA-road-t.NY.gr.gz"), "roads/USA-road-t.NY.gr.gz"),
        "kron14": Spec("kron14", "generated", "undirected",
                       "Graph500 Kronecker scale 14, edge factor 16, seed 0, weights 1..255", kron_builder(14)),
        "kron16": Spec("kron16", "generated", "undirected",
                       "Graph500 Kronecker scale 16, edge factor 16, seed 0, weights 1..255", kron_builder(16)),
        "web": Spec("cnr-2000", "shared", "directed", "LAW cnr-2000 web crawl, pattern",
                    read_builder("web/cnr-2000.mtx.gz"), "web/cnr-2000.mtx.gz", scc="web/cnr-2000.scc.txt.gz"),
        "kron14-directed": Spec("kron14-directed", "generated", "directed",
                                "Kronecker scale 14 arcs, those with hash(i, j) = 0 mod 4 dropped",
                                kron_directed_builder(14)),
        "fw": Spec("FW_2003", "shared", "small", "LAGraph test_FW_2003 (bcsstk13 pattern), all 2,003 vertices",
                   read_builder("small/lagraph/test_FW_2003.mtx"), "small/lagraph/test_FW_2003.mtx"),
        "kron8": Spec("kron8", "generated", "small", "Graph500 Kronecker scale 8, weights 1..255", kron_builder(8)),
    }


class Loaded:
    """A graph on the device with its host copies (scipy) for the oracles and the peers.

    Attributes
    ----------
    W, P : Matrix on the device: the weights (directed graphs: the pattern) and the bool pattern
    S, Ws : scipy CSR on the host: the pattern and the float64 weights
    kind : "undirected" or "directed"
    cache : dict  oracle answers, peer timings and inputs shared by the graph's rows
    """

    def __init__(self, spec, data, device):
        t = time.perf_counter()
        H = spec.build(data)
        P = H if H.dtype == np.bool_ else sr.apply(H, sr.unary.one).dup("bool")
        self.kind = "directed" if spec.role == "directed" else "undirected"
        if self.kind == "undirected" and not Graph(H).is_symmetric():
            raise sr.InvalidValue(f"{spec.name}: expected a symmetric matrix for the {spec.role} graphs")
        self.spec, self.n, self.nvals = spec, H.nrows, H.nvals
        self.S = P.to_scipy().tocsr()
        self.Ws = (H.dup("float64") if H.dtype != np.float64 else H).to_scipy().tocsr()
        H = P if spec.role == "directed" else H
        self.W = H.to(device) if device != "cpu" else H
        self.P = P.to(device) if device != "cpu" else P
        self.cache = {}
        self.load_s = time.perf_counter() - t

    def graph(self, weighted):
        """A fresh Graph of the weights or the pattern (nothing cached on it yet)."""
        return Graph(self.W if weighted else self.P, self.kind)

    def describe(self):
        s = self.spec
        return {"name": s.name, "source": s.source, "role": s.role, "about": s.about, "n": int(self.n),
                "nvals": int(self.nvals), "kind": self.kind, "dtype": str(self.W.dtype),
                "load_s": round(self.load_s, 3)}
