"""Engine-level pieces of the networkx backend that ``semiring.algorithms`` does not provide.

They take and return engine objects (graphs, index arrays); ``semiring.nx.nxapi`` wraps them with
networkx's signatures and return types (graphblas-algorithms splits ``algorithms/`` from
``nxapi/`` the same way).
"""

from .traversal import levels, queue_order

__all__ = ["levels", "queue_order"]
