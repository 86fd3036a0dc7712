# Source from the repository root on a lent GPU machine: MPICH and mpi4py from the
# carried wheelhouse .whl (installed into /tmp/mpi, not over the image's packages), NVLink
# multicast off, the repository on PYTHONPATH.   . benchmarks/distributed/env.sh
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
PY=${PYTHON:-python3}
if compgen -G ".whl/*.whl" > /dev/null; then
  if [ ! -x /tmp/mpi/bin/mpiexec ]; then
    "$PY" -m pip install -q --ignore-installed --no-index --no-deps --no-compile --no-cache-dir --prefix /tmp/mpi .whl/*.whl
  fi
  SITE=$("$PY" -c "import sys; print(f'/tmp/mpi/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages')")
  export PATH=/tmp/mpi/bin:$PATH PYTHONPATH=$SITE:$PWD:${PYTHONPATH:-} LD_LIBRARY_PATH=/tmp/mpi/lib:${LD_LIBRARY_PATH:-}
else
  export PYTHONPATH=$PWD:${PYTHONPATH:-}
fi
export SEMIRING_MPIEXEC=$(command -v mpiexec)
