"""Graph files in and out.

``read(path)`` picks the format by extension, in any case: Matrix Market (``.mtx``, ``.mtx.gz``),
DIMACS shortest-path (``.gr``, ``.gr.gz``), DIMACS coloring (``.col``, ``.col.gz``), and
whitespace edge lists (anything else). ``write_mtx(path, A)`` writes Matrix Market. All 1-based
file formats become 0-based indices. Every token of a file is checked before it is used: a
malformed, damaged or unreadable file raises InvalidValue naming the file and the line, a
declared size that would not fit the memory OutOfMemory. ``from_networkx`` and ``to_networkx`` convert networkx graphs
(with the node order, to map results back); ``from_graphblas`` and ``to_graphblas`` convert
python-graphblas Matrix and Vector objects (an optional dependency).
"""

from ._dimacs import read_col, read_gr
from ._edgelist import read_edgelist
from ._graphblas import from_graphblas, to_graphblas
from ._mtx import read_mtx, write_mtx
from ._networkx import from_networkx, to_networkx
from ._read import read

__all__ = ["read", "read_mtx", "read_gr", "read_col", "read_edgelist", "write_mtx", "from_networkx", "to_networkx",
           "from_graphblas", "to_graphblas"]
