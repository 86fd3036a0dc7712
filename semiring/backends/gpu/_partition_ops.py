"""The device operations of the GPU partitioner (``kernels/partition.cu``): matching and
contraction, Jet's label propagation, afterburner and rebalancing steps, the status kernel,
and the loop of a level's refinement as one CUDA graph where conditional nodes exist.

:class:`CupyOps` runs them on CuPy arrays (the NumPy emulation in
``tests/_partition_emulator.py`` mirrors it step for step); the multilevel scheme that calls
them is :mod:`semiring.backends.gpu.partition`.
"""

from __future__ import annotations

import math

import numpy as np

from ... import _host

#: Handshake rounds of the matching per level.
MATCH_ROUNDS = 6
#: A level's refinement stops after this many steps without a cut below JET_TOLERANCE x best.
JET_PATIENCE = 12
JET_TOLERANCE = 0.999
#: Destination limit of rebalancing: parts below (1 - DEST_SLACK) x cap take vertices.
DEST_SLACK = 0.01
#: Bits of the loss bucket in a rebalancing key (sign, exponent and 3 mantissa bits of float32).
BUCKET_BITS = 12
#: Run each level's refinement loop on the device as one CUDA graph where conditional graph nodes
#: are available (False: the host loop, which reads the status when the level can be done).
DEVICE_LOOPS = True
#: status slots (kernels/partition.cu: S_*)
S_CUT, S_IMB, S_BCUT, S_BIMB, S_COUNT, S_ROUNDS, S_DONE, S_COPY, S_MAXR, S_ITER = range(10)
_M64 = (1 << 64) - 1
#: Threads per block of the one-thread-per-item kernels.
BLOCK = 256
#: Most blocks of a grid-stride launch that ends in a last-block step.
MAX_BLOCKS = 2048
#: Vertices per block of the chunked rebalancing kernels (kernels/partition.cu: CH).
CHUNK = 256 * 8
#: Shared memory a block of the connection kernels may use for its groups' arrays (bytes).
SHARED_BYTES = 48 * 1024
#: The largest k the device path handles (one group of 32 lanes holds k doubles in shared memory).
MAX_PARTS = SHARED_BYTES // 8


def seed_mix(seed):
    """The matching's rank constant of ``seed`` (kernels/partition.cu: rank_of)."""
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


class CupyOps:
    """The device operations on CuPy arrays (compiled kernels; the host reads only where said).

    Kernels are launched through :func:`semiring.backends.gpu.launch.launch` (a driver call with
    a reused parameter block). Where CUDA graphs with conditional nodes are available
    (:func:`semiring.backends.gpu.recording.available`), a level's refinement loop is one graph
    whose WHILE node runs pairs of steps until the status says done: no read at all."""

    def __init__(self, k):
        from . import load

        self.xp = load()
        self.k = k
        self._kernels = {}

    # -- transfers -------------------------------------------------------------------------

    @staticmethod
    def to_host(a):
        """A device array on the host (one counted read)."""
        return _host.read(a)

    def from_host(self, a):
        return self.xp.asarray(a)

    def graph_to_host(self, G):
        """(indptr, indices, w, vw) of G on the host, in one read."""
        xp = self.xp
        parts = [G.indptr.astype(np.int64), G.indices.astype(np.int64), G.w.astype(np.float64), G.vw.astype(np.int64)]
        sizes = [int(a.shape[0]) for a in parts]
        buf = _host.read(xp.concatenate([a.view(np.uint8) for a in parts]))
        out, at = [], 0
        for a, m in zip(parts, sizes):
            out.append(buf[at:at + 8 * m].view(a.dtype))
            at += 8 * m
        return tuple(out)

    # -- kernels ---------------------------------------------------------------------------

    def _k(self, name, G=None, tpv=1, loop=False):
        """The compiled kernel ``name`` for G's index types and ``tpv`` lanes per vertex."""
        from . import compiler

        ipt = compiler.ctype(G.indptr.dtype) if G is not None else "int"
        ixt = compiler.ctype(G.indices.dtype) if G is not None else "int"
        key = (name, ipt, ixt, tpv, loop)
        kern = self._kernels.get(key)
        if kern is None:
            d = {"IPT": ipt, "IXT": ixt, "TPV": tpv, "BUCKET_BITS": BUCKET_BITS}
            if loop:
                d["LOOP"] = 1
            kern = self._kernels[key] = compiler.kernel("partition.cu", name, d)
        return kern

    @staticmethod
    def _run(kern, grid, block, args, shared=0):
        from .launch import launch

        launch(kern, grid, (block,), args, shared)

    @staticmethod
    def _grid(m, cap=65536):
        return (max(1, min(-(-int(m) // BLOCK), cap)),)

    def _tpv(self, G):
        if getattr(G, "_tpv", None) is None:
            G._tpv = lanes_per_vertex(G.nnz / max(G.n, 1), self.k)
        return G._tpv

    def _groups(self, G, k):
        """(tpv, groups per block, block, blocks) of a connection kernel with k-slot arrays."""
        tpv = self._tpv(G)
        groups = max(1, min(BLOCK // tpv, SHARED_BYTES // (k * 8)))
        groups = max(32 // tpv, (groups * tpv // 32) * 32 // tpv)  # whole warps
        return tpv, groups, groups * tpv, max(1, -(-G.n // groups))

    # -- small operations ------------------------------------------------------------------

    def scatter_add(self, out, idx, vals):
        m = int(idx.shape[0])
        if m:
            self._run(self._k("scatter_add_i64"), self._grid(m), BLOCK, (
                idx.astype(np.int32, copy=False), vals.astype(np.int64, copy=False), np.int64(m), out))

    def part_weights(self, part, vw, k):
        pw = self.xp.zeros(k, dtype=np.int64)
        self.scatter_add(pw, part, vw)
        return pw

    def edge_cut(self, G, part):
        """The cut of ``part`` on G (one read)."""
        out = self.xp.zeros(1, dtype=np.float64)
        if G.nnz:
            self._run(self._k("edge_cut", G), self._grid(G.nnz, 1024), BLOCK, (
                G.rows, G.indices, G.w, np.int64(G.nnz), part, out))
        return float(_host.read(out)[0])

    def restrict(self, cmap, part, nc):
        """The parts of the coarse vertices (each takes its members' common part)."""
        pc = self.xp.zeros(nc, dtype=np.int32)
        pc[cmap] = part
        return pc

    # -- coarsening ------------------------------------------------------------------------

    def coarsen(self, G, maxvw, seed, part, min_shrink):
        """(cmap, indptr, indices, rows, w, vw) of the coarse graph of one matching, or None when
        it keeps more than ``min_shrink`` of the vertices. One read (the coarse sizes)."""
        xp = self.xp
        n, nnz = G.n, G.nnz
        run = self._run
        K = lambda name: self._k(name, G)  # noqa: E731
        g1 = self._grid(n)
        smix = np.uint64(seed_mix(seed))
        use = np.int32(self.k if part is not None else 0)  # parts keep the two-hop groups apart
        pp = part if part is not None else G.rows  # a placeholder pointer when unused
        cand = xp.empty(n, dtype=np.int8)
        mate = xp.empty(n, dtype=np.int32)
        choice = xp.empty(n, dtype=np.int32)
        counter = xp.empty(1, dtype=np.int64)
        vw, mv, n32 = G.vw, np.int64(maxvw), np.int32(n)
        run(K("match_init"), g1, BLOCK, (n32, vw, mv, cand, mate, counter))
        for r in range(MATCH_ROUNDS):
            run(K("match_propose"), g1, BLOCK, (G.indptr, G.indices, G.w, n32, cand, smix, pp, use, choice))
            run(K("match_resolve"), g1, BLOCK, (n32, choice, cand, mate, vw, mv, np.int32(r == MATCH_ROUNDS - 1),
                                                counter))
        key = xp.empty(n, dtype=np.int64)
        run(K("match_hubkey"), g1, BLOCK, (G.indptr, G.indices, G.w, n32, mate, vw, mv, smix, pp, use, counter, key))
        order = xp.argsort(key)
        run(K("match_pairs"), g1, BLOCK, (n32, key, order, mate))
        # contraction
        flag = xp.empty(n, dtype=np.int32)
        run(K("coarse_flags"), g1, BLOCK, (n32, mate, flag))
        cid = xp.cumsum(flag, dtype=np.int32)
        cmap = xp.empty(n, dtype=np.int32)
        ekey = xp.empty(max(nnz, 1), dtype=np.int64)
        run(K("coarse_keys"), self._grid(max(n, nnz)), BLOCK, (n32, np.int64(nnz), G.rows, G.indices, mate, cid,
                                                             cmap, ekey))
        if nnz:
            eorder = xp.argsort(ekey[:nnz])
            sflag = xp.empty(nnz, dtype=np.int32)
            nvalid = xp.full(1, nnz, dtype=np.int64)
            run(K("coarse_starts"), self._grid(nnz), BLOCK, (np.int64(nnz), ekey, eorder, sflag, nvalid))
            sid = xp.cumsum(sflag, dtype=np.int32)
            nc, nnzc = (int(x) for x in _host.read(xp.concatenate((cid[-1:], sid[-1:]))))
        else:
            nc, nnzc = int(_host.read(cid[-1:])[0]), 0
        if nc > min_shrink * n:
            return None
        indptr = xp.zeros(nc + 1, dtype=np.int64)
        ccol = xp.empty(nnzc, dtype=np.int32)
        crow = xp.empty(nnzc, dtype=np.int32)
        wc = xp.empty(nnzc, dtype=np.float64)
        vwc = xp.zeros(nc, dtype=np.int64)
        if nnzc:
            start = xp.empty(nnzc + 1, dtype=np.int64)
            run(K("coarse_fill"), self._grid(nnz), BLOCK, (np.int64(nnz), n32, ekey, eorder, sflag, sid,
                                                          np.int64(nnzc), nvalid, start, crow, ccol))
        else:  # placeholders: no coarse edge
            start = eorder = xp.zeros(1, dtype=np.int64)
            crow = xp.zeros(1, dtype=np.int32)
        run(K("coarse_sum"), self._grid(max(nnzc, n)), BLOCK, (np.int64(nnzc), np.int32(nc), G.w, eorder, start, crow,
                                                               wc, indptr, n32, cmap, vw, vwc))
        return cmap, indptr, ccol, crow[:nnzc], wc, vwc

    # -- refinement ------------------------------------------------------------------------

    def workspace(self, n, k):
        return Workspace(self.xp, n, k)

    def refine_begin(self, G, part, k, capv, opt, c, max_rounds, ws):
        """A Refinement of ``part`` on G: the start's status (best = start); no read."""
        xp = self.xp
        n = G.n
        R = Refinement(G, k, ws, c, max_rounds)
        ws.part[:n] = part
        ws.lock[:n] = 0
        ws.pw[...] = 0
        self.scatter_add(ws.pw, ws.part[:n], G.vw)
        ws.cap[...] = capv
        ws.opt[...] = opt
        # limit = min(max(opt, cap - max(1, floor(DEST_SLACK * cap))), cap)
        lim = xp.maximum(opt, capv - xp.maximum(1, xp.floor(DEST_SLACK * capv).astype(np.int64)))
        ws.limit[...] = xp.minimum(lim, capv)
        ws.st[...] = 0
        ws.st[S_MAXR] = float(max_rounds)
        self.status(R, 0)
        self.copy(R)
        return R

    def status(self, R, kind):
        G, ws = R.G, R.ws
        blocks = max(1, min(-(-G.nnz // BLOCK), 1024))
        self._run(self._k("jet_status", G), (blocks,), BLOCK, (
            G.rows, G.indices, G.w, np.int64(G.nnz), ws.part, ws.pw, ws.cap, np.int32(R.k), ws.st, ws.partial,
            ws.ticket[0:], np.int32(kind), np.int32(JET_PATIENCE), np.float64(JET_TOLERANCE)))

    def copy(self, R):
        self._run(self._k("jet_copy"), self._grid(R.n), BLOCK, (np.int32(R.n), R.ws.part, R.ws.best, R.ws.st))

    def lp_step(self, R):
        """Jet label propagation, afterburner and moves (a no-op unless balanced and not done)."""
        G, ws, k = R.G, R.ws, R.k
        tpv, groups, block, blocks = self._groups(G, k)
        n32 = np.int32(G.n)
        self._run(self._k("jet_lp", G, tpv), (blocks,), block, (
            G.indptr, G.indices, G.w, ws.part, n32, np.int32(k), np.float64(R.c), ws.lock, ws.dest, ws.gain, ws.st),
            groups * k * 8)
        self._run(self._k("jet_afterburner", G, tpv), (max(1, -(-G.n // (BLOCK // tpv))),), BLOCK, (
            G.indptr, G.indices, G.w, ws.part, n32, ws.dest, ws.gain, ws.move, ws.st))
        self._run(self._k("jet_apply"), self._grid(G.n), BLOCK, (
            n32, ws.dest, ws.move, G.vw, ws.part, ws.pw, ws.lock, ws.st))

    def rb_step(self, R):
        """Rebalancing (a no-op unless unbalanced and not done)."""
        G, ws, k, n = R.G, R.ws, R.k, R.n
        tpv, groups, block, blocks = self._groups(G, k)
        D, L, nb = ws.dbits, ws.levels, np.int32(ws.nb)
        d32, n32, k32 = np.int32(D), np.int32(n), np.int32(k)
        shifts = [np.int32(D * (L - 1 - lv)) for lv in range(L)]
        g = self._grid(n, MAX_BLOCKS)
        self._run(self._k("rb_conn", G, tpv), (blocks,), block, (
            G.indptr, G.indices, G.w, ws.part, G.vw, n32, k32, ws.pw, ws.cap, ws.opt, ws.limit, np.int32(ws.idbits),
            ws.dest, ws.key, ws.hist, nb, d32, shifts[0], ws.sel, ws.sst, ws.ticket[1:], ws.st), groups * k * 8)
        level = self._k("rb_level")
        for mode, sel, sst in ((0, ws.sel, ws.sst), (1, ws.sela, ws.ssta)):
            if mode == 1:
                self._run(self._k("rb_evict"), g, BLOCK, (
                    n32, k32, shifts[0], ws.part, ws.dest, ws.key, G.vw, ws.pw, ws.cap, ws.limit, ws.sel, ws.sst,
                    ws.ev, ws.hist, nb, d32, ws.sela, ws.ssta, ws.ticket[3:], ws.st))
            for lv in range(1, L):
                self._run(level, g, BLOCK, (
                    n32, k32, np.int32(mode), np.int32(lv), shifts[lv], ws.part, ws.dest, ws.key, ws.ev, G.vw, ws.pw,
                    ws.cap, ws.limit, ws.hist, nb, d32, sel, sst, ws.ticket[2:], ws.st))
        chunks = (max(1, -(-n // CHUNK)),)
        self._run(self._k("rb_rest"), chunks, 256, (
            n32, k32, ws.dest, ws.key, G.vw, ws.pw, ws.cap, ws.limit, ws.sela, ws.ssta, ws.ev, ws.taken, ws.bsum,
            ws.ends, ws.ticket[4:], ws.st))
        self._run(self._k("rb_assign"), chunks, 256, (
            n32, k32, ws.dest, G.vw, ws.ev, ws.bsum, ws.ends, ws.part, ws.pw, ws.st))

    def step_pair(self, R):
        """A label-propagation step and a rebalancing step, each with its status and copy."""
        self.lp_step(R)
        self.status(R, 1)
        self.copy(R)
        self.rb_step(R)
        self.status(R, 2)
        self.copy(R)

    def run_on_device(self, R):
        """Run the level's loop as one CUDA graph (a WHILE node over step pairs, no read) and
        return True; False where such graphs are not available (the host loops instead)."""
        global graph_failure
        from . import recording

        if not DEVICE_LOOPS or graph_failure is not None or not recording.available():
            return False
        from .launch import launch

        cond = self._k("jet_condition", loop=True)
        st = R.ws.st
        try:
            kinds = (self.xp.cuda.runtime.getDevice(), str(R.G.indptr.dtype), str(R.G.indices.dtype),
                     self._tpv(R.G))
            if kinds not in _warm:
                # compile (and load) every kernel of a step pair before recording: a pair on a done
                # status launches them all and changes nothing
                saved = st[S_DONE].copy()
                st[S_DONE] = 1.0
                self.step_pair(R)
                st[S_DONE] = saved
                _warm.add(kinds)
            recording.run_loop(lambda h: launch(cond, (1,), (32,), (h, st)), lambda: self.step_pair(R),
                               keep=(R.ws, R.G), what="partition refinement")
        except Exception as exc:  # noqa: BLE001 - nothing was launched by a failed recording
            graph_failure = f"{type(exc).__name__}: {exc}"
            return False
        return True

    def read_status(self, R):
        """The status array on the host (one read)."""
        return _host.read(R.ws.st)

    def best(self, R):
        return R.ws.best[:R.n].copy()


#: Why the device loops (CUDA graphs) failed in this process, if they did (the host loops then).
graph_failure = None
#: (device, index types, lanes per vertex) whose refinement kernels have run once in this process
#: (compiled, loaded and their launch parameters built: a recording may use them).
_warm = set()
