"""The generic dataflow kernels under the analyses, compiled when built, else the pure-Python reference.

:mod:`isalens._core.reference` is the readable implementation; ``_compiled`` (Cython, built by ``pip install``
when a C compiler is present) implements the same functions and must give identical answers. This module picks
one at import: the compiled core unless it is missing or ``ISALENS_PURE_PYTHON=1`` is set. Nothing here knows
register semantics: callers pass unit bitsets (Python ints) and CFG spans. ``CORE`` names the running core
(``isalens --version`` and ``isalens toolchain`` print it).
"""

from __future__ import annotations

import os
import sys

from isalens._core import reference
from isalens._core.reference import LaneFacts, Solution, UnitFacts, needed_uses

__all__ = ["CORE", "LaneFacts", "Solution", "UnitFacts", "needed_uses", "solve_liveness"]


if os.environ.get("ISALENS_PURE_PYTHON") == "1":
    solve_liveness = reference.solve_liveness
    CORE = "pure-python (ISALENS_PURE_PYTHON=1)"
elif sys.byteorder != "little":  # the compiled core copies words as little-endian bytes
    solve_liveness = reference.solve_liveness
    CORE = "pure-python (big-endian machine)"
else:
    try:
        from isalens._core import _compiled
    except ImportError:
        solve_liveness = reference.solve_liveness
        CORE = "pure-python (compiled core not built)"
    else:
        solve_liveness = _compiled.solve_liveness
        CORE = "compiled"
