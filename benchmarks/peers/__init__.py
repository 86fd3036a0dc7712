"""The peers the suites time semiring against, and the oracles that check its answers.

host        scipy.sparse.csgraph, python-graphblas and networkx: optional imports and the calls the
            per-root suites time (BFS levels, Dijkstra, Bellman-Ford, greedy coloring)
device      plain cupyx.scipy.sparse SpMV BFS and PageRank power iteration; Graph500-style
            validators that run on the GPU
gb_direct   graph algorithms written directly in python-graphblas, as LAGraph writes them
algorithms  the CPU peers of the graph algorithm rows (SciPy, networkx, METIS)
oracles     independent checks of the graph algorithms' results (SciPy, NumPy, networkx, published answers)
"""
