#!/usr/bin/env bash
# The distributed GPU measurements of one scale: P = 1, then P = 2 compared with it (speed-up).
#
#   bash benchmarks/distributed/runs.sh SCALE OUTDIR [extra benchmarks.distributed options]
#
# Writes OUTDIR/distributed-kronSCALE-<algos>-p{1,2}-gpu.{json,md}; every search is validated.
set -uo pipefail
cd "$(dirname "$0")/../.."
. benchmarks/distributed/env.sh
SCALE=$1; OUTDIR=$2; shift 2
mkdir -p "$OUTDIR"
mpiexec -n 1 "$PY" -m benchmarks.distributed --graph "kron:$SCALE" --device gpu --out "$OUTDIR" "$@" || exit 1
mpiexec -n 2 "$PY" -m benchmarks.distributed --graph "kron:$SCALE" --device gpu --out "$OUTDIR" \
    --compare "$OUTDIR" "$@" || exit 1
