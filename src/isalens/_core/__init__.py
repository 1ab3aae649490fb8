"""The generic kernels under the analyses (where control goes, the block graph, the liveness dataflow, the timing
step's schedule), the reader's per-line loops and the listing's JSON writer, compiled when built, else the
pure-Python reference.

:mod:`isalens._core.graph` (control flow, blocks, dominators, loops), :mod:`isalens._core.reference`
(dataflow), :mod:`isalens._core.listing` (the JSON line objects), :mod:`isalens._core.reading` (a function's lines
of code, instruction rows from a text's known tail, a text's numbered registers), :mod:`isalens._core.schedule`
(one wave's in-order schedule), :mod:`isalens._core.lines` (occupied runs, per-line counts and per-block unions
after liveness) and
:mod:`isalens._core.ranges` (live ranges as int columns, the longest of them) are the readable implementation;
``_compiled`` (Cython, built by ``pip install`` when a C compiler is present) implements the same functions and
must give identical answers. This module picks one at
import: the compiled core unless it is missing or ``ISALENS_PURE_PYTHON=1`` is set. Nothing here knows register
semantics or an instruction set: callers pass unit bitsets (Python ints), per-instruction control-flow facts,
the listing's columns, and the reader's lines with each text's instruction tail. ``CORE`` names the running core
(``isalens --version`` and ``isalens toolchain`` print it).
"""

from __future__ import annotations

import os
import sys
import types

from isalens._core import dwarf, graph, lines, listing, ranges, reading, reference, schedule, totals, words
from isalens._core.graph import ENDS, FALLS, JUMPS, STOPS, Flow, Graph
from isalens._core.lines import COUNT_PAIRS, COUNT_SPLIT_PAIRS, COUNT_UNITS
from isalens._core.listing import LineColumns
from isalens._core.reference import LaneFacts, Solution, UnitFacts, needed_uses

__all__ = ["CORE", "COUNT_PAIRS", "COUNT_SPLIT_PAIRS", "COUNT_UNITS", "ENDS", "FALLS", "JUMPS", "STOPS", "Flow",
           "Graph", "LaneFacts", "LineColumns", "Solution", "UnitFacts", "block_graph", "block_issue",
           "block_schedules", "block_unions", "cached_runs",
           "control_flow", "costs_held", "cover_counts", "draft_rows", "encoded_rows", "forget_costs", "heaviest",
           "instruction_lines", "keyed_costs", "keyed_rows", "labelled_rows", "line_counts", "line_objects_json",
           "line_rows", "longest_runs",
           "mask_defined", "mask_restores",
           "maybe_defined", "natural_loops", "needed_uses", "next_reads", "object_counts", "occupied_runs",
           "ranked_runs",
           "register_shape", "release_costs", "rows_masked",
           "rows_prefixed", "schedule_passes", "solve_liveness", "undefined_reads",
           "unit_line_sums", "value_lines"]


#: what the extension must define (one compiled function per reference function)
_COMPILED = ("solve_liveness", "maybe_defined", "undefined_reads", "mask_defined", "line_objects_json", "block_graph",
             "natural_loops", "keyed_rows", "schedule_passes",
             # the per-line passes after liveness (isalens._core.lines)
             "occupied_runs", "line_counts", "block_unions", "value_lines", "next_reads",
             # dread (seventeenth session): the front half
             "control_flow", "instruction_lines", "rows_masked", "rows_prefixed",
             # dtime (eighteenth session): the timing step's per-block pass
             "block_schedules",
             # decfast (eighteenth session): the decoder listing's word loop
             "cached_runs",
             # lead (nineteenth session): live ranges as int columns
             "ranked_runs", "longest_runs",
             # dec3 (twentieth session): a disassembly's lines of texts decoded before
             "encoded_rows",
             # time4 (twentieth session): the timing step's per-block sums as columns
             "block_issue", "unit_line_sums", "release_costs",
             # lead (twenty-fifth session): the costs rows kernels share
             "costs_held", "forget_costs", "line_rows",
             # dec3 (twentieth session): the listing's rows as the reader's drafts
             "draft_rows",
             # dec4 (twenty-first session): a text's numbered registers set aside
             "register_shape",
             # live6 (twenty-second session): where a saved lane mask is restored
             "mask_restores",
             # lead (twenty-fourth session): the branches to labels
             "labelled_rows", "keyed_costs", "object_counts",
             # time8 (twenty-fourth session): the pressure advice's coverage column
             "cover_counts", "heaviest")
def _older_than_source(native: types.ModuleType) -> bool:
    """Whether the extension's file is older than the ``_compiled.pyx`` beside it (an editable install whose
    source changed since its last build); False where no source sits beside it (an installed wheel)."""
    built = getattr(native, "__file__", None)
    if not built:
        return False
    try:
        return os.stat(os.path.join(os.path.dirname(built), "_compiled.pyx")).st_mtime > os.stat(built).st_mtime
    except OSError:
        return False


#: the extension, when it is used (not named ``_compiled``: ``from isalens._core import _compiled`` would then find
#: this attribute instead of importing the submodule)
_native: types.ModuleType | None = None
if os.environ.get("ISALENS_PURE_PYTHON") == "1":
    CORE = "pure-python (ISALENS_PURE_PYTHON=1)"
elif sys.byteorder != "little":  # the compiled core copies words as little-endian bytes
    CORE = "pure-python (big-endian machine)"
else:
    try:
        from isalens._core import _compiled as _native
    except ImportError:
        CORE = "pure-python (compiled core not built)"
    else:
        CORE = "compiled"
        # an extension built from older sources (an editable install whose .pyx changed since its last build)
        # lacks the newer functions: the whole reference runs, and says why, instead of failing at import
        _missing = [name for name in _COMPILED if not hasattr(_native, name)]
        if _missing:
            _native = None
            CORE = f"pure-python (compiled core out of date, no {_missing[0]}: rebuild it with pip install -e .)"
        elif _native is not None and _older_than_source(_native):
            # a function changed since the build keeps its name, so the names cannot tell: the file dates do
            # (as Python's own .pyc files compare the source's date)
            _native = None
            CORE = "pure-python (compiled core older than _compiled.pyx: rebuild it with pip install -e .)"

if _native is None:
    solve_liveness = reference.solve_liveness
    maybe_defined = reference.maybe_defined
    undefined_reads = reference.undefined_reads
    mask_defined = reference.mask_defined
    line_objects_json = listing.line_objects_json
    block_graph = graph.block_graph
    natural_loops = graph.natural_loops
    keyed_rows = reading.keyed_rows
    labelled_rows = reading.labelled_rows
    keyed_costs = schedule.keyed_costs
    object_counts = totals.object_counts
    cover_counts = totals.cover_counts
    heaviest = totals.heaviest
    schedule_passes = schedule.schedule_passes
    occupied_runs = lines.occupied_runs
    line_counts = lines.line_counts
    block_unions = lines.block_unions
    value_lines = lines.value_lines
    next_reads = lines.next_reads
    # dread (seventeenth session): the front half
    control_flow = graph.control_flow
    instruction_lines = reading.instruction_lines
    rows_masked = graph.rows_masked
    rows_prefixed = graph.rows_prefixed
    # dtime (eighteenth session): the timing step's per-block pass
    block_schedules = schedule.block_schedules
    cached_runs = words.cached_runs
    # lead (nineteenth session): live ranges as int columns
    ranked_runs = ranges.ranked_runs
    longest_runs = ranges.longest_runs
    # dec3 (twentieth session): a disassembly's lines of texts decoded before
    encoded_rows = reading.encoded_rows
    # time4 (twentieth session): the timing step's per-block sums as columns
    block_issue = totals.block_issue
    unit_line_sums = totals.unit_line_sums
    release_costs = schedule.release_costs
    costs_held = schedule.costs_held
    line_rows = dwarf.line_rows
    forget_costs = schedule.forget_costs
    # dec3 (twentieth session): the listing's rows as the reader's drafts
    draft_rows = words.draft_rows
    # dec4 (twenty-first session): a text's numbered registers set aside
    register_shape = reading.register_shape
    # live6 (twenty-second session): where a saved lane mask is restored
    mask_restores = graph.mask_restores
else:
    solve_liveness = _native.solve_liveness
    maybe_defined = _native.maybe_defined
    undefined_reads = _native.undefined_reads
    mask_defined = _native.mask_defined
    line_objects_json = _native.line_objects_json
    block_graph = _native.block_graph
    natural_loops = _native.natural_loops
    keyed_rows = _native.keyed_rows
    labelled_rows = _native.labelled_rows
    keyed_costs = _native.keyed_costs
    object_counts = _native.object_counts
    cover_counts = _native.cover_counts
    heaviest = _native.heaviest
    schedule_passes = _native.schedule_passes
    occupied_runs = _native.occupied_runs
    line_counts = _native.line_counts
    block_unions = _native.block_unions
    value_lines = _native.value_lines
    next_reads = _native.next_reads
    # dread (seventeenth session): the front half
    control_flow = _native.control_flow
    instruction_lines = _native.instruction_lines
    rows_masked = _native.rows_masked
    rows_prefixed = _native.rows_prefixed
    # dtime (eighteenth session): the timing step's per-block pass
    block_schedules = _native.block_schedules
    cached_runs = _native.cached_runs
    # lead (nineteenth session): live ranges as int columns
    ranked_runs = _native.ranked_runs
    longest_runs = _native.longest_runs
    # dec3 (twentieth session): a disassembly's lines of texts decoded before
    encoded_rows = _native.encoded_rows
    # time4 (twentieth session): the timing step's per-block sums as columns
    block_issue = _native.block_issue
    unit_line_sums = _native.unit_line_sums
    release_costs = _native.release_costs
    costs_held = _native.costs_held
    line_rows = _native.line_rows
    forget_costs = _native.forget_costs
    # dec3 (twentieth session): the listing's rows as the reader's drafts
    draft_rows = _native.draft_rows
    # dec4 (twenty-first session): a text's numbered registers set aside
    register_shape = _native.register_shape
    # live6 (twenty-second session): where a saved lane mask is restored
    mask_restores = _native.mask_restores
