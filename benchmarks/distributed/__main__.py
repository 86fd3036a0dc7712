"""``mpiexec -n P python -m benchmarks.distributed ...``: see :mod:`benchmarks.distributed.bench`."""

import sys

from .bench import main

sys.exit(main())
