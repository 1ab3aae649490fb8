"""Type stub of the Cython extension ``_compiled.pyx`` (the signatures of :mod:`isalens._core.reference`,
:mod:`isalens._core.graph`, :mod:`isalens._core.listing`, :mod:`isalens._core.reading` and
:mod:`isalens._core.schedule`)."""

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from isalens._core.graph import Graph
from isalens._core.listing import LineColumns
from isalens._core.reading import LineItem
from isalens._core.reference import LaneFacts, Solution, UnitFacts
from isalens._core.schedule import Record, ScheduleCosts

NAME: str

def solve_liveness(instructions: Sequence[UnitFacts], lanes: Sequence[LaneFacts | None], starts: Sequence[int],
                   ends: Sequence[int], succs: Sequence[Sequence[int]], skips: Sequence[Sequence[int]],
                   skip_mask: int, exit_live: int, order: Sequence[int]) -> Solution: ...
def maybe_defined(instructions: Sequence[UnitFacts], starts: Sequence[int], ends: Sequence[int],
                  preds: Sequence[Sequence[int]], order: Sequence[int], entry: int) -> list[int]: ...
def undefined_reads(instructions: Sequence[UnitFacts], starts: Sequence[int], ends: Sequence[int],
                    defined: Sequence[int], skip: Sequence[bool]) -> list[tuple[int, int]]: ...
def mask_defined(instructions: Sequence[UnitFacts], starts: Sequence[int], ends: Sequence[int],
                 defined: Sequence[int], live_in: list[int], live_out: list[int]) -> None: ...
def line_objects_text(cols: LineColumns, start: int, stop: int) -> str: ...
def line_objects_json(cols: LineColumns) -> Iterator[str]: ...
def block_graph(jump_to: Sequence[int], ends_block: Sequence[bool], falls_through: Sequence[bool],
                extra_starts: Iterable[int]) -> Graph: ...
def natural_loops(rpo: list[int], succs: list[list[int]], preds: list[list[int]],
                  count: int) -> tuple[list[tuple[int, list[int]]], list[int]]: ...
def keyed_rows(cls: type[tuple[Any, ...]], first: int, items: Sequence[LineItem],
               tails: dict[str, tuple[Any, ...]], rows: list[Any]) -> list[int]: ...
def schedule_passes(order: Sequence[int], statics: Sequence[ScheduleCosts], interval: int, hazards: bool,
                    passes: int) -> list[tuple[list[Record], int]]: ...
