#!/usr/bin/env bash
# First command on a lent multi-GPU machine: MPI from the carried wheels, an NCCL
# exchange between the GPUs, the distributed GPU tests, and one BFS per GPU count.
#
#   bash benchmarks/distributed/check.sh            # from the repository root; carry .whl
#
# NVLink multicast stays off (NCCL_NVLS_ENABLE=0): it can put a shared host's GPUs out of service.
set -uo pipefail
cd "$(dirname "$0")/../.."
. benchmarks/distributed/env.sh
NGPU=$("$PY" -c "import cupy; print(cupy.cuda.runtime.getDeviceCount())")
echo "== $(command -v mpiexec), $NGPU GPU(s), $("$PY" -c 'import mpi4py.MPI as M; print(M.Get_library_version().splitlines()[0])')"
echo "== NCCL allreduce / allgather / all-to-all-v over $NGPU rank(s)"
cat > /tmp/nccl_smoke.py <<'PYEOF'
import numpy as np
import semiring.distributed as dist
ctx = dist.init(device="gpu", timeout=120)
cp, P, r = ctx.xp, ctx.size, ctx.rank
g = ctx.to_host(ctx.channel.allgather(cp.full(4, r + 1, dtype=np.int64)))
assert g.sum() == 4 * P * (P + 1) // 2, g
counts = np.full(P, 3, dtype=np.int64)
got = ctx.channel.alltoallv([cp.arange(3 * P, dtype=np.int32) + 1000 * r], counts, ctx.alltoall(counts), "smoke")[0]
assert (ctx.to_host(got) == np.concatenate([np.arange(3 * r, 3 * r + 3) + 1000 * j for j in range(P)])).all()
print(f"rank {r}: {type(ctx.channel).__name__} on GPU {cp.cuda.Device().id}: ok", flush=True)
PYEOF
mpiexec -n "$NGPU" "$PY" /tmp/nccl_smoke.py || exit 1
echo "== GPU tests of semiring.distributed (mpiexec inside)"
"$PY" -m pytest -q -m gpu tests/distributed/test_distributed.py -p no:cacheprovider || exit 1
for P in 1 $NGPU; do
  echo "== mpiexec -n $P semiring bfs kron:22 --distributed --device gpu --parents"
  mpiexec -n "$P" "$PY" -m semiring bfs kron:22 --distributed --device gpu --parents || exit 1
done
