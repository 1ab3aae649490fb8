"""LDS tile planning for neighbourhood filters: a tile of outputs plus a border of ``radius`` items on
every side must be staged; how much of that is overhead, how many bytes, how many groups fit by LDS."""

from __future__ import annotations

import math

from isalens.arch.model import ArchSpec, align_to
from isalens.records import dataclass


@dataclass(frozen=True, slots=True)
class TilePlan:
    """An LDS tile plan: items loaded, useful and in the border, the overhead, the LDS bytes and groups per CU."""

    dims: tuple[int, ...]
    radius: int
    bytes_per_item: int
    loads: int
    useful: int
    border: int
    #: border items per useful item (what "+56%" for an 8x8 tile with radius 1 means)
    overhead_vs_useful_pct: float
    #: border items as a share of everything loaded
    overhead_vs_total_pct: float
    lds_bytes: int
    lds_allocated: int
    groups_per_cu_by_lds: int | None
    #: the LDS the groups share: "CU", or "WGP" on gfx10+ in WGP mode (128 KB shared by two CUs), None
    #: without a target
    lds_pool: str | None = None
    #: the most LDS one workgroup may have on the target (a tile above it does not fit: 0 groups)
    lds_per_workgroup: int | None = None


def plan_tile(dims: tuple[int, ...], radius: int, bytes_per_item: int, arch: ArchSpec | None = None) -> TilePlan:
    """Plan one tile of ``dims`` outputs (1D, 2D or 3D) with a border of ``radius``."""
    if not 1 <= len(dims) <= 3 or any(d <= 0 for d in dims):
        raise ValueError("tile dimensions must be 1 to 3 positive sizes, e.g. 16x16")
    if radius < 0 or bytes_per_item <= 0:
        raise ValueError("the radius must be >= 0 and the item size > 0 bytes")
    useful = math.prod(dims)
    loads = math.prod(d + 2 * radius for d in dims)
    border = loads - useful
    lds = loads * bytes_per_item
    if arch is None:
        return TilePlan(dims, radius, bytes_per_item, loads, useful, border, 100.0 * border / useful,
                        100.0 * border / loads, lds, lds, None)
    allocated = align_to(lds, arch.lds_alloc_granule)
    wgp = bool(arch.default_wgp_mode and arch.lds_bytes_per_wgp)
    pool = arch.lds_bytes_per_wgp if wgp else arch.lds_bytes_per_cu
    groups = pool // allocated if allocated <= arch.lds_bytes_per_workgroup else 0
    return TilePlan(dims, radius, bytes_per_item, loads, useful, border, 100.0 * border / useful,
                    100.0 * border / loads, lds, allocated, groups, "WGP" if wgp else "CU",
                    arch.lds_bytes_per_workgroup)


def candidate_tiles(rank: int) -> list[tuple[int, ...]]:
    """Square/cubic power-of-two tiles from 4 to 64 per side (fewer for 3D)."""
    sides = (4, 8, 16, 32, 64) if rank < 3 else (2, 4, 8, 16)
    return [tuple([s] * rank) for s in sides]


#: item sizes and border radii :func:`tile_of_workgroup` tries, smallest first
_ITEM_BYTES = (1, 2, 4, 8, 16)
_MAX_RADIUS = 8


def tile_of_workgroup(workgroup: tuple[int, int, int], lds_bytes: int, arch: ArchSpec | None = None,
                      ) -> TilePlan | None:
    """The tile plan of a neighbourhood filter whose workgroup computes one output per thread: the tile is the
    workgroup's shape (its dimensions above 1) and the LDS holds exactly the tile plus a border, so the
    radius and item size are the smallest for which ``loads * bytes_per_item == lds_bytes`` (a 16x16 group with
    1296 bytes: radius 1, 4-byte items). None when no such tile explains the LDS (not a staged tile)."""
    dims = tuple(d for d in workgroup if d > 1)
    if not dims or lds_bytes <= 0:
        return None
    for radius in range(1, _MAX_RADIUS + 1):
        loads = math.prod(d + 2 * radius for d in dims)
        for size in _ITEM_BYTES:
            if loads * size == lds_bytes:
                return plan_tile(dims, radius, size, arch)
    return None
