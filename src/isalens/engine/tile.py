"""``isalens occupancy --tile``: the LDS tile plan for a stencil's dimensions, and a table of candidate tiles."""

from __future__ import annotations

from isalens.analysis.tiles import TilePlan, candidate_tiles, plan_tile
from isalens.engine.target import resolve_arch
from isalens.errors import InputError

__all__ = ["plan_tiles"]


def plan_tiles(dims: tuple[int, ...], radius: int, bytes_per_item: int,
               arch: str | None = None) -> tuple[TilePlan, list[TilePlan]]:
    """The plan for ``dims`` and a table over candidate tiles of the same rank."""
    spec = resolve_arch(arch) if arch else None
    try:
        plan = plan_tile(dims, radius, bytes_per_item, spec)
        table = [plan_tile(d, radius, bytes_per_item, spec) for d in candidate_tiles(len(dims))]
    except ValueError as exc:
        raise InputError(str(exc), code="tile-input") from None
    return plan, table
