"""Type stub of the Cython extension ``_compiled.pyx`` (same signatures as :mod:`isalens._core.reference`)."""

from collections.abc import Sequence

from isalens._core.reference import LaneFacts, Solution, UnitFacts

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
