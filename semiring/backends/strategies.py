"""The names of the traversal strategies: the classic GPU work organizations of BFS and SSSP
that the backends implement (CuPy kernels on the GPU, the same organization in NumPy on the
CPU).

Named once, here, below the algorithms: the backends' strategy modules take their names from
this module, and :mod:`semiring.algorithms.engines` re-exports them with the rules of which
engine or strategy a call may take.
"""

#: BFS strategies (see :func:`semiring.algorithms.bfs`).
BFS_STRATEGIES = ("vertex_push", "vertex_pull", "edge", "queue_atomic", "queue_privatized", "single_block",
                  "degree_bucketed", "node_split")
#: SSSP strategies: Bellman-Ford work organizations, then near-far (see :func:`semiring.algorithms.sssp`).
SSSP_BELLMAN_FORD = ("topology", "worklist_atomic", "worklist_filter", "worklist_hash", "worklist_scan")
SSSP_STRATEGIES = SSSP_BELLMAN_FORD + ("near_far",)

__all__ = ["BFS_STRATEGIES", "SSSP_BELLMAN_FORD", "SSSP_STRATEGIES"]
