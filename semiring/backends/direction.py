"""Beamer's push / pull rule for a level-synchronous BFS, written once.

A direction-optimizing BFS expands a level either top-down (push: the frontier's out-edges)
or bottom-up (pull: every unvisited vertex scans its in-edges and stops at its first frontier
neighbour). Beamer et al. switch

- push -> pull when the frontier is growing and its out-edges ``m_f`` exceed the edges not yet
  explored ``m_u`` divided by :data:`ALPHA` (``m_f > m_u / ALPHA``);
- pull -> push when the frontier is shrinking and holds fewer than ``n / BETA`` vertices.

Every BFS engine takes its decision here: the algebra engine (``semiring.algorithms.bfs``),
the CPU whole-search engine (``semiring.backends.cpu.traversal``) and the distributed BFS
(``semiring.distributed.bfs``). The GPU persistent kernel (``semiring.backends.gpu.traversal``)
evaluates the same two comparisons on the device, with :data:`ALPHA` and :data:`BETA` passed
from here.

References
----------
Beamer, Asanovic, Patterson, "Direction-optimizing breadth-first search", SC 2012.
Beamer, Asanovic, Patterson, "The GAP benchmark suite", arXiv:1508.03619, 2015 (alpha 15, beta 18).
"""

from __future__ import annotations

#: Switch push -> pull when the frontier's out-edges exceed the unexplored edges / ALPHA
#: (Beamer et al. SC'12 and the GAP benchmark suite use 15; LAGraph uses 8).
ALPHA = 15.0
#: Switch pull -> push when the frontier has fewer than n / BETA vertices and is shrinking
#: (GAP uses 18; LAGraph's beta1 = 8, beta2 = 512 play the same role).
BETA = 18.0


def push_to_pull(nq, nq_last, frontier_edges, unexplored, alpha=ALPHA):
    """Whether a push search turns to pull: the frontier grew (``nq > nq_last``) and its
    out-edges exceed the unexplored edges / ``alpha``."""
    return nq > nq_last and frontier_edges > unexplored / alpha


def pull_to_push(nq, nq_last, n, beta=BETA):
    """Whether a pull search turns back to push: the frontier shrank and has fewer than
    ``n / beta`` vertices."""
    return nq < nq_last and nq < n / beta


class Beamer:
    """The direction of each level of one search.

    Parameters
    ----------
    n : int
        Vertices.
    nedges : int
        Stored edges (the unexplored edges before the first level).
    direction : {"auto", "push", "pull"}
        "auto" decides per level; "push" and "pull" fix the direction.
    alpha, beta : float
        The switching thresholds.

    Use: before each level ``pull = rule.next(nq, frontier_edges)``; after it
    ``rule.advance(nq, frontier_edges)`` (with the sizes of the frontier that level expanded).
    ``unexplored`` is the edges not yet explored before the next level.
    """

    __slots__ = ("n", "alpha", "beta", "auto", "pull", "nq_last", "unexplored")

    def __init__(self, n, nedges, direction="auto", alpha=ALPHA, beta=BETA):
        self.n, self.alpha, self.beta = n, alpha, beta
        self.auto = direction == "auto"
        self.pull = direction == "pull"
        self.nq_last = 0
        self.unexplored = nedges

    def next(self, nq, frontier_edges):
        """True to pull the level about to run, from frontier ``nq`` with ``frontier_edges``."""
        if self.auto:
            if not self.pull:
                self.pull = push_to_pull(nq, self.nq_last, frontier_edges, self.unexplored, self.alpha)
            else:
                self.pull = not pull_to_push(nq, self.nq_last, self.n, self.beta)
        return self.pull

    def advance(self, nq, frontier_edges):
        """Record a level run from frontier ``nq`` with ``frontier_edges`` out-edges."""
        self.unexplored -= frontier_edges
        self.nq_last = nq


__all__ = ["ALPHA", "BETA", "Beamer", "push_to_pull", "pull_to_push"]
