"""Type stub of the Cython extension ``_compiled.pyx`` (same signatures as :mod:`isalens._core.reference`)."""

from collections.abc import Sequence

from isalens._core.reference import LaneFacts, Solution, UnitFacts

NAME: str

def solve_liveness(instructions: Sequence[UnitFacts], lanes: Sequence[LaneFacts | None], starts: Sequence[int],
                   ends: Sequence[int], succs: Sequence[Sequence[int]], skips: Sequence[Sequence[int]],
                   skip_mask: int, exit_live: int, order: Sequence[int]) -> Solution: ...
