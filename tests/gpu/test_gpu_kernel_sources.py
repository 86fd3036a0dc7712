"""The GPU kernels' CUDA sources (backends/gpu/kernels) and the text the compiler builds from
them, checked without CuPy or a GPU: headers pasted in once, definitions first, and every
kernel file and kernel name the Python modules ask for present in the sources."""

import re
from pathlib import Path

import numpy as np
import pytest

from semiring.backends.gpu import (bfs_strategies, compiler, multi_source, paths, products, reduce, sssp_strategies,
                                   traversal)
from semiring.backends.gpu._partition_layout import KERNEL_FILES
from semiring.ops import semiring as S

ROOT = Path(compiler.__file__).resolve().parents[2]
_GLOBAL = re.compile(r'extern "C" __global__ void (?:__launch_bounds__\([^)]*\)\s*)?(\w+)\(')


def _python_sources():
    return [p for p in ROOT.rglob("*.py")]


def test_every_kernel_file_named_in_python_exists():
    named = set()
    for p in _python_sources():
        named |= set(re.findall(r'"(\w+\.cu)"', p.read_text()))
    assert {"products_pull.cu", "products_push.cu", "seg_fold.cu", "coloring.cu", "traversal.cu", "paths.cu",
            "bfs_strategies.cu", "sssp_strategies.cu", "distributed_bfs.cu", "multi_source.cu"} <= named
    for name in named:
        assert (compiler.KERNELS / name).is_file(), name


def test_no_cuda_source_left_in_python_strings():
    for p in _python_sources():
        text = p.read_text()
        assert not re.search(r"__global__ void \w+\(", text), p
        assert ("RawKernel(" not in text and "RawModule(" not in text) or p.name == "compiler.py", p


@pytest.mark.parametrize("filename", ["coloring.cu", "traversal.cu", "paths.cu", "bfs_strategies.cu",
                                      "sssp_strategies.cu", "distributed_bfs.cu", "multi_source.cu",
                                      "resident_write.cu", "resident_products.cu", "resident_reduce.cu",
                                      "partition_coarsen.cu", "partition_refine.cu", "partition_rebalance.cu"])
def test_headers_are_pasted_once(filename):
    code = compiler.code(filename, {"A_NAME": 1})
    assert code.startswith("#define A_NAME 1\n")
    assert "#include" not in code
    assert code.count("typedef long long i64;") == 1
    assert code.count("__device__ __forceinline__ unsigned lane_id()") == 1
    assert code.count("bool last_block(") == 1
    if filename in ("coloring.cu", "traversal.cu", "paths.cu", "multi_source.cu"):
        assert code.count("bool group_sync(") == 1
    if filename in ("resident_products.cu", "resident_reduce.cu"):
        assert code.count("void block_fold(") == 1
    if filename.startswith("partition_"):
        assert code.count("#define S_DONE 6") == 1


_DEVICE = re.compile(r"__device__\s+(?:__forceinline__\s+)?(?:[\w:<>*&]+\s+)+?(\w+)\s*\(")


def _uncommented(text):
    return re.sub(r"//[^\n]*", "", text)


def test_every_device_function_called_is_in_the_compiled_text():
    """A kernel file compiles on its own: each ``__device__`` function of any kernel source that
    its text calls is defined in that text (the file or a header it includes)."""
    sources = list(compiler.KERNELS.glob("*.cu")) + list(compiler.KERNELS.glob("*.cuh"))
    device = set()
    for p in sources:
        device |= set(_DEVICE.findall(_uncommented(p.read_text())))
    device.discard("cudaGraphSetConditional")  # (the CUDA runtime's)
    assert {"last_block", "block_fold", "group_conn", "allowed_at", "append", "heaviest"} <= device
    for p in compiler.KERNELS.glob("*.cu"):
        code = _uncommented(compiler.code(p.name))
        called = {n for n in device if re.search(r"\b%s\s*(?:<[^;()]*>)?\s*\(" % n, code)}
        defined = set(_DEVICE.findall(code)) | set(_GLOBAL.findall(code))
        assert called <= defined, (p.name, called - defined)


def test_every_kernel_python_asks_for_is_in_its_file():
    """The (file, kernel) pairs named in the Python sources, and the partitioner's table of
    files, name ``extern "C" __global__`` functions of those files."""
    pairs = {(f, k) for k, f in KERNEL_FILES.items()}
    for p in _python_sources():
        pairs |= set(re.findall(r'"(\w+\.cu)", *"(\w+)"', p.read_text()))
    assert {("resident_write.cu", "pointwise"), ("resident_products.cu", "product"),
            ("resident_products.cu", "estimate"), ("resident_reduce.cu", "reduce_all"),
            ("recording.cu", "set_condition"), ("partition_refine.cu", "jet_condition")} <= pairs
    for filename, name in pairs:
        assert name in _GLOBAL.findall(compiler.code(filename)), (filename, name)


def test_definitions_keep_their_order_and_a_line_each():
    code = compiler.code("seg_fold.cu", [("TV", "double"), ("SNIPPET", "x * y")])
    assert code.startswith("#define TV double\n#define SNIPPET x * y\n")
    with pytest.raises(ValueError):
        compiler.code("seg_fold.cu", {"SNIPPET": "x\ny"})


def _defined(code):
    return set(re.findall(r"^#define (\w+)", code, re.M))


def _used_placeholders(filename):
    """Upper-case names of the file that its own text never defines: the host must."""
    text = compiler.code(filename)
    names = set(re.findall(r"\b([A-Z][A-Z0-9_]*[A-Z0-9])\b", re.sub(r"//[^\n]*", "", text)))
    templates = set(re.findall(r"\b(?:class|typename) (\w+)", text))
    return names - _defined(text) - templates


def test_products_define_every_placeholder_for_each_kind():
    for kind, filename in (("pull", "products_pull.cu"), ("push", "products_push.cu"),
                           ("edge", "products_push.cu")):
        for name in ("any_pair", "plus_times", "min_plus", "lor_land", "any_secondi"):
            _, d, _ = products._defines(kind, getattr(S, name), np.dtype("float64"), np.dtype("float64"), kind == "edge",
                                        np.dtype("int64"), np.dtype("int32"))
            assert _used_placeholders(filename) <= set(d), (kind, name)
            names = set(_GLOBAL.findall(compiler.code(filename, d)))
            assert names == {"KIND"} if kind != "pull" else names == {"pull"}
            assert d.get("KIND", "pull") == kind


def test_other_kernels_define_every_placeholder():
    cases = [("seg_fold.cu", reduce._defines("x * y", np.dtype("int64"))),
             ("traversal.cu", traversal._defines(("int", "int", "long long", "long long"))),
             ("paths.cu", paths._defines("int", "long long", np.float32)),
             ("bfs_strategies.cu", bfs_strategies.defines(("int", "long long"))),
             ("sssp_strategies.cu", sssp_strategies.defines("int", "int", "double")),
             ("multi_source.cu", multi_source.defines("int", "long long", True)),
             ("multi_source.cu", multi_source.defines("long long", "int", False))]
    for filename, d in cases:
        assert _used_placeholders(filename) <= set(d), filename
