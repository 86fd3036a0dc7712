"""The CPU backend: what only NumPy and SciPy on the host can do, over the array layer
(:mod:`semiring.backends.array`): SciPy's compiled products where they win, and the
whole-search traversal engines (``traversal``: BFS; ``paths``: SSSP) and the NumPy
formulations of the GPU strategies (``bfs_strategies``, ``sssp_strategies``)."""
