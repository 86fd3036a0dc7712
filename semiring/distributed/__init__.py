"""Distributed graphs over MPI processes: 1D row-block matrices and vectors, BFS and SSSP.

Run a program under ``mpiexec -n P``; every rank makes the same calls::

    import semiring.distributed as dist

    ctx = dist.init(device="gpu")              # or "cpu"; one GPU per rank (rank % GPUs)
    A = dist.kronecker(22, ctx=ctx)            # each rank generates 1/P of the edges
    r = dist.bfs(A, 0)                         # direction-optimizing, push/pull per level
    level = r.level.to_vector()                # a semiring.Vector on every rank

Control goes through host MPI (mpi4py) and bulk data through host MPI on CPU ranks or NCCL
on GPU ranks (:mod:`semiring.distributed.comm`). A rank that fails or stops answering makes
every rank exit with a message instead of hanging. The bytes each rank sends per level are
in the traces; :mod:`semiring.distributed.model` predicts them for larger runs.
"""

from . import validate
from .bfs import DistBFSResult, DistLevelTrace, bfs
from .build import kronecker, read
from .comm import DEFAULT_TIMEOUT, Context, context, init
from .matrix import Blocks, DistMatrix, DistVector
from .sssp import DistSSSPResult, sssp

__all__ = ["Context", "init", "context", "DEFAULT_TIMEOUT", "Blocks", "DistMatrix", "DistVector", "kronecker",
           "read", "bfs", "DistBFSResult", "DistLevelTrace", "sssp", "DistSSSPResult", "validate"]
