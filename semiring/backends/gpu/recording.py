"""CUDA graphs of algebra operations: a block recorded once and replayed, and a device-side
while loop (a conditional WHILE node, CUDA >= 12.4) whose condition is a vector's entry
count in device memory.

Recording runs the block's Python code once with the GPU stream in capture mode: every kernel
launch and memset becomes a graph node, and nothing runs. Replaying launches the whole graph
with one call. What a replay computes is what the captured kernels compute on the buffers they
were given, so a recorded block must keep its data in place: loop-carried vectors are written
with ``out=`` (or ``assign``) and scalars that change are :class:`semiring.Scalar` values on
the device. Everything allocated while recording is kept alive for the graph's lifetime, so
no captured buffer is reused under it. An operation that needs the host (a read of ``nvals``,
an operation the device kernels do not cover) cannot be captured: recording raises
InvalidValue naming it, and the data are as the block's eager first run left them.
"""

from __future__ import annotations

import threading
from collections import deque

import numpy as np

from ...exceptions import InvalidValue
from . import compiler

_inflight = deque()
_lock = threading.Lock()


def _cudart():
    from cuda.bindings import runtime

    return runtime


def available():
    """True when conditional graph nodes can be used: cuda-bindings importable and a CUDA
    runtime and driver of version 12.4 or later."""
    try:
        import cupy as cp

        rt = _cudart()
        return (cp.cuda.runtime.runtimeGetVersion() >= 12040 and cp.cuda.runtime.driverGetVersion() >= 12040
                and hasattr(rt, "cudaGraphConditionalHandleCreate"))
    except Exception:  # noqa: BLE001 - no bindings, no GPU: the eager loop runs instead
        return False


def _check(result, what):
    err = result[0]
    if int(err) != 0:
        raise RuntimeError(f"{what}: {err}")
    return result[1] if len(result) == 2 else result[1:]


def _loop_kernel():
    return compiler.kernel("recording.cu", "set_condition")


class _Keep:
    """An allocator that keeps every block it hands out until the graph that uses it is gone."""

    def __init__(self):
        import cupy as cp

        self.pool = cp.get_default_memory_pool()
        self.blocks = []

    def malloc(self, size):
        mem = self.pool.malloc(size)
        self.blocks.append(mem)
        return mem


def _capture(graph, fn, what):
    """Capture the GPU work of ``fn()`` into ``graph`` (nothing runs)."""
    import cupy as cp

    rt = _cudart()
    stream = cp.cuda.Stream(non_blocking=True)
    keep = _Keep()
    _check(rt.cudaStreamBeginCaptureToGraph(stream.ptr, graph, None, None, 0,
                                            rt.cudaStreamCaptureMode.cudaStreamCaptureModeRelaxed), what)
    failure = None
    from . import launch

    launch._recording.keep = keep.blocks  # (arrays whose addresses the kernels were given)
    try:
        with stream, cp.cuda.using_allocator(keep.malloc):
            fn()
    except Exception as exc:  # noqa: BLE001 - reported below, after the capture is closed
        failure = exc
    finally:
        launch._recording.keep = None
    end = rt.cudaStreamEndCapture(stream.ptr)
    if failure is not None:
        raise InvalidValue(
            f"{what}: an operation of the block needs the host ({type(failure).__name__}: {failure}), so the "
            "block cannot run on the device. Recorded blocks may use the algebra's vector operations with "
            "out= (or assign), Scalars for changing values, and no reads (nvals, to_coo, get, ...)"[:900]
        ) from failure
    if int(end[0]) != 0:
        raise InvalidValue(f"{what}: the GPU could not record the block ({end[0]})")
    return keep, stream


def _graph_nodes(graph):
    """The nodes of ``graph`` (a list)."""
    rt = _cudart()
    r = rt.cudaGraphGetNodes(graph, 0)
    if int(r[0]) != 0:
        raise RuntimeError(f"cudaGraphGetNodes: {r[0]}")
    n = int(r[-1])
    if n == 0:
        return []
    r = rt.cudaGraphGetNodes(graph, n)
    if int(r[0]) != 0:
        raise RuntimeError(f"cudaGraphGetNodes: {r[0]}")
    return list(r[1])


def _nodes(graph):
    return len(_graph_nodes(graph))


class Graph:
    """An instantiated CUDA graph and everything its nodes use."""

    def __init__(self, graph, keep, nodes):
        rt = _cudart()
        self.graph, self.keep, self.nodes = graph, keep, nodes
        self.exec = _check(rt.cudaGraphInstantiate(graph, 0), "cudaGraphInstantiate")

    def launch(self):
        """Launch on the current stream (after the work queued there; no host wait)."""
        import cupy as cp

        rt = _cudart()
        _check(rt.cudaGraphLaunch(self.exec, cp.cuda.get_current_stream().ptr), "cudaGraphLaunch")

    def __del__(self):
        try:
            rt = _cudart()
            rt.cudaGraphExecDestroy(self.exec)
            rt.cudaGraphDestroy(self.graph)
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


def record(fn, what="record"):
    """A :class:`Graph` of the GPU work of ``fn()`` (already run once eagerly by the caller)."""
    rt = _cudart()
    graph = _check(rt.cudaGraphCreate(0), "cudaGraphCreate")
    keep, _ = _capture(graph, fn, what)
    return Graph(graph, keep, _nodes(graph))


def nodes_per_call(fn):
    """The number of graph nodes (kernel launches and memsets) one call of ``fn()`` records;
    ``fn`` is run once eagerly first. Raises InvalidValue if ``fn`` reads from the device."""
    from .launch import before_recording

    with before_recording():
        fn()
    return record(fn, "nodes_per_call").nodes


def run_while(u, body, it, limit):
    """Run ``it += 1; body(it)`` on the device while ``u.nvals > 0`` and ``it < limit``:
    one CUDA graph ``[set condition] -> WHILE { body; set condition }``, where setting the
    condition also advances ``it`` when the loop goes on. The host does not wait; the caller's
    stream orders what follows."""
    set_condition = _loop_kernel()
    count = u._resident()[2]
    counter = it._array
    limit = np.int64(limit)
    return run_loop(lambda h: set_condition((1,), (32,), (h, count, counter, limit)), lambda: body(it),
                    what="while_nonempty")


def run_loop(cond, body, keep=(), what="run_loop"):
    """Run ``cond(h); WHILE h { body(); cond(h) }`` on the device as one CUDA graph, where
    ``cond(h)`` launches a kernel that sets the loop's condition handle ``h`` (a NumPy uint64)
    with ``cudaGraphSetConditional``, and ``body()`` launches kernels only (no allocation, no
    read; their kernels compiled beforehand). ``keep``: objects (the buffers the kernels use) held
    until the device has run the graph. The host does not wait; the current stream orders what
    follows. Needs :func:`available`."""
    rt = _cudart()
    graph = _check(rt.cudaGraphCreate(0), "cudaGraphCreate")
    handle = _check(rt.cudaGraphConditionalHandleCreate(graph, 0, 0), "cudaGraphConditionalHandleCreate")
    h = np.uint64(int(handle))
    keep_first, _ = _capture(graph, lambda: cond(h), what)
    (first,) = _graph_nodes(graph)
    params = rt.cudaGraphNodeParams()
    params.type = rt.cudaGraphNodeType.cudaGraphNodeTypeConditional
    params.conditional.handle = handle
    params.conditional.type = rt.cudaGraphConditionalNodeType.cudaGraphCondTypeWhile
    params.conditional.size = 1
    _check(rt.cudaGraphAddNode(graph, [first], None, 1, params), "cudaGraphAddNode")
    body_graph = params.conditional.phGraph_out[0]

    def iteration():
        body()
        cond(h)

    keep_body, _ = _capture(body_graph, iteration, what)
    g = Graph(graph, [keep_first, keep_body, tuple(keep)], None)
    g.launch()
    _retire(g)
    return g


def _retire(g):
    """Keep ``g`` alive until the device has run it (checked without waiting, at later calls)."""
    import cupy as cp

    done = cp.cuda.Event(disable_timing=True)
    done.record()
    with _lock:
        _inflight.append((done, g))
        while _inflight and _inflight[0][0].done:
            _inflight.popleft()
