"""What the GPU partitioner's kernels (``kernels/partition_*.cu``, sharing
``kernels/partition.cuh``) expect from the host: which file holds each kernel, the constants
mirrored from the kernel sources (status slots, the rebalancing keys' bucket bits,
block and chunk sizes, shared memory), the layout of the rebalancing keys and of the matching's
ranks, the lanes per vertex of the group kernels, and the workspace of device arrays the
refinement steps share.

Used by :mod:`semiring.backends.gpu.partition` (the scheme and :class:`CupyOps`) and by its
NumPy emulation (``tests/_partition_emulator.py``).
"""

from __future__ import annotations

import math

import numpy as np

#: The file in ``kernels/`` of each kernel: coarsening (matching, contraction), refinement (label
#: propagation, the status of a step, the device loop, the part weights and the cut) and
#: rebalancing.
KERNEL_FILES = {
    **dict.fromkeys(("match_init", "match_propose", "match_resolve", "match_hubkey", "match_pairs", "coarse_flags",
                     "coarse_keys", "coarse_starts", "coarse_fill", "coarse_sum"), "partition_coarsen.cu"),
    **dict.fromkeys(("jet_lp", "jet_afterburner", "jet_apply", "jet_status", "jet_copy", "jet_condition",
                     "scatter_add_i64", "edge_cut"), "partition_refine.cu"),
    **dict.fromkeys(("rb_conn", "rb_level", "rb_evict", "rb_rest", "rb_assign"), "partition_rebalance.cu"),
}
#: Bits of the loss bucket in a rebalancing key (sign, exponent and 3 mantissa bits of float32).
BUCKET_BITS = 12
#: status slots (kernels/partition.cuh: S_*)
S_CUT, S_IMB, S_BCUT, S_BIMB, S_COUNT, S_ROUNDS, S_DONE, S_COPY, S_MAXR, S_ITER = range(10)
_M64 = (1 << 64) - 1


def seed_mix(seed):
    """The matching's rank constant of ``seed`` (kernels/partition_coarsen.cu: rank_of)."""
    return (int(seed) * 0xBF58476D1CE4E5B9) & _M64


def digits(n, k):
    """(idbits, dbits, levels) of the rebalancing keys of a graph of at most n vertices and k
    parts: keys have BUCKET_BITS + idbits bits, selected dbits at a time (2^dbits bins per part,
    at most 2^21 bins in all) in ``levels`` levels."""
    idbits = max(1, int(n - 1).bit_length())
    kb = BUCKET_BITS + idbits
    dmax = max(5, min(11, int(math.floor(math.log2(max(1, (1 << 21) // max(k, 1)))))))
    levels = -(-kb // dmax)
    return idbits, -(-kb // levels), levels


#: Threads per block of the one-thread-per-item kernels.
BLOCK = 256
#: Most blocks of a grid-stride launch that ends in a last-block step.
MAX_BLOCKS = 2048
#: Vertices per block of the chunked rebalancing kernels (kernels/partition.cuh: CH).
CHUNK = 256 * 8
#: Shared memory a block of the connection kernels may use for its groups' arrays (bytes).
SHARED_BYTES = 48 * 1024
#: The largest k the device path handles (one group of 32 lanes holds k doubles in shared memory).
MAX_PARTS = SHARED_BYTES // 8


def lanes_per_vertex(avg_degree, k):
    """TPV of the group kernels: about the average degree (4 to 32 lanes), more when k is large
    (a block of one warp holds 32 / TPV arrays of k doubles)."""
    tpv = 4
    while tpv < 32 and (tpv < avg_degree or (32 // tpv) * k * 8 > SHARED_BYTES):
        tpv *= 2
    return tpv


class Workspace:
    """Device arrays of the refinement of every level of one call (views of the first n
    entries serve a level of n vertices)."""

    def __init__(self, xp, n, k):
        self.n, self.k = n, k
        self.idbits, self.dbits, self.levels = digits(n, k)
        self.nb = 1 << self.dbits
        m = max(n, 1)
        self.part = xp.zeros(m, dtype=np.int32)
        self.best = xp.zeros(m, dtype=np.int32)
        self.dest = xp.zeros(m, dtype=np.int32)
        self.lock = xp.zeros(m, dtype=np.int8)
        self.move = xp.zeros(m, dtype=np.int8)
        self.ev = xp.zeros(m, dtype=np.int8)
        self.gain = xp.zeros(m, dtype=np.float64)
        self.key = xp.zeros(m, dtype=np.int64)
        self.hist = xp.zeros(k * self.nb, dtype=np.int64)  # zero between uses
        self.sel = xp.zeros(2 * k, dtype=np.int64)
        self.sela = xp.zeros(2 * k, dtype=np.int64)
        self.sst = xp.zeros(k, dtype=np.int32)
        self.ssta = xp.zeros(k, dtype=np.int32)
        self.taken = xp.zeros(k, dtype=np.int64)  # zero between uses
        self.ends = xp.zeros(k, dtype=np.int64)
        self.pw = xp.zeros(k, dtype=np.int64)
        self.cap = xp.zeros(k, dtype=np.int64)
        self.opt = xp.zeros(k, dtype=np.int64)
        self.limit = xp.zeros(k, dtype=np.int64)
        self.bsum = xp.zeros(-(-m // CHUNK), dtype=np.int64)
        self.partial = xp.zeros(MAX_BLOCKS, dtype=np.float64)
        self.st = xp.zeros(16, dtype=np.float64)
        self.ticket = xp.zeros(8, dtype=np.uint32)  # zero between uses


class Refinement:
    """One refinement: its graph, workspace, and host parameters."""

    def __init__(self, G, k, ws, c, max_rounds):
        self.G, self.k, self.ws, self.c, self.max_rounds = G, k, ws, float(c), int(max_rounds)
        self.n = G.n
