"""The records of the timing model: per-instruction rows, per-block and per-loop profiles of one wave, and the
timings once waves and a device are applied (docs/timing.md)."""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from isalens.arch.devices import DeviceSpec
from isalens.arch.timing import UNITS
from isalens.ondemand import OnDemand

__all__ = [
    "DEFAULT_MEMORY_LEVEL", "DEFAULT_TRIP_COUNT", "BlockTiming", "BlockTimings", "KernelProfile", "KernelTiming",
    "LineTiming", "LoopProfile", "LoopTiming", "Roofs", "TimingInputError", "Work",
]

#: trip count assumed for a loop without ``--trip-count`` (the same weight the statistics use per loop level)
DEFAULT_TRIP_COUNT = 10
#: the level vector loads are assumed to hit without ``--memory-level``: the low end of the reported range (all
#: hits in L2 .. all misses to DRAM); a static tool does not know the hit rate (issue 29 item 3)
DEFAULT_MEMORY_LEVEL = "l2"


class TimingInputError(ValueError):
    """A request the model cannot answer (unknown loop in a trip count, waves below 1)."""


class LineTiming(NamedTuple):
    """One instruction in the single-wave schedule of its block (a named tuple: one per instruction)."""

    index: int  # type: ignore[assignment]  # shadows tuple.index(), which rows never use
    line: int
    unit: str
    issue: int
    #: cycle (from the start of its block) at which it issued
    start: int
    #: cycles it waited beyond in-order issue
    stall: int
    #: what it waited for: "", "unit", "dependency", "vmcnt", "lgkmcnt", ..., "hazard"
    reason: str


@dataclass(frozen=True, slots=True)
class BlockTiming:
    index: int
    start_line: int
    end_line: int
    loop_depth: int
    issue_cycles: dict[str, int]
    latency_cycles: int
    #: lines on the block's critical path (producers and the instructions that waited for them)
    critical_path: tuple[int, ...]


class BlockTimings(OnDemand[BlockTiming]):
    """The blocks' rows made when read, from columns: each block's bounds, its issue cycles per unit (a row of
    ``len(UNITS)`` in the report's order, 0 where none), its length and, for the few blocks that have one, its
    critical path (a 1M-instruction kernel has 250,000 blocks: a record and a dict each would stay beside it)."""

    __slots__ = ("_depths", "_ends", "_issue", "_lengths", "_lines", "_paths", "_rows", "_starts")

    def __init__(self, starts: Sequence[int], ends: Sequence[int], lines: Sequence[int], depths: Sequence[int],
                 issue: array[int], lengths: Sequence[int], paths: Mapping[int, tuple[int, ...]]) -> None:
        self._starts, self._ends, self._lines, self._depths = starts, ends, lines, depths
        self._issue, self._lengths, self._paths = issue, lengths, paths
        self._rows: dict[bytes, dict[str, int]] = {}

    def __len__(self) -> int:
        return len(self._starts)

    def fields(self, b: int) -> tuple[int, int, int, int, dict[str, int], int, tuple[int, ...]]:
        """Block ``b``'s row as a tuple of :class:`BlockTiming`'s fields in order (the JSON writer's, without the
        record)."""
        lo, hi, lines, width = self._starts[b], self._ends[b], self._lines, len(UNITS)
        row = self._issue[b * width:(b + 1) * width].tobytes()
        issue = self._rows.get(row)  # blocks repeat their issue rows: each distinct one's dict made once
        if issue is None:
            issue = self._rows[row] = self._issue_of(b)
        return (b, lines[lo] if hi > lo else 0, lines[hi - 1] if hi > lo else 0, self._depths[b], dict(issue),
                self._lengths[b], self._paths.get(b, ()))

    def dicts(self) -> Iterator[dict[str, Any]]:
        """Every block's JSON object (``report.timing``'s block keys) in block order, in one pass over the
        columns: what :meth:`fields` of each block gives, without a tuple and a call per block."""
        width, lines, depths, paths, rows = len(UNITS), self._lines, self._depths, self._paths, self._rows
        raw = self._issue.tobytes()  # each block's row as a slice of these bytes: :meth:`fields`' row key
        step = width * self._issue.itemsize
        for b, lo, hi, latency in zip(range(len(self._starts)), self._starts, self._ends, self._lengths,
                                      strict=True):
            row = raw[b * step:(b + 1) * step]
            issue = rows.get(row)
            if issue is None:
                issue = rows[row] = self._issue_of(b)
            yield {"index": b, "start_line": lines[lo] if hi > lo else 0, "end_line": lines[hi - 1] if hi > lo else 0,
                   "loop_depth": depths[b], "issue_cycles": dict(issue), "latency_cycles": latency,
                   "critical_path": list(paths.get(b, ()))}

    def columns(self) -> Iterator[tuple[int, int, int, int, bytes, int, tuple[int, ...]]]:
        """Each block's (index, start line, end line, loop depth, issue row, latency, critical path) in order,
        without a dict per block (the JSON writer's, report.timing). The issue row is its cycles per unit as bytes:
        equal rows, equal bytes (:meth:`issue_cycles` gives the dict)."""
        width, lines, depths, paths = len(UNITS), self._lines, self._depths, self._paths
        raw = self._issue.tobytes()
        step = width * self._issue.itemsize
        for b, lo, hi, latency in zip(range(len(self._starts)), self._starts, self._ends, self._lengths,
                                      strict=True):
            yield (b, lines[lo] if hi > lo else 0, lines[hi - 1] if hi > lo else 0, depths[b],
                   raw[b * step:(b + 1) * step], latency, paths.get(b, ()))

    def issue_cycles(self, b: int) -> dict[str, int]:
        """Block ``b``'s issue cycles per unit (units without any left out), in the report's unit order."""
        return self._issue_of(b)

    def _issue_of(self, b: int) -> dict[str, int]:
        width = len(UNITS)
        return {u: c for u, c in zip(UNITS, self._issue[b * width:(b + 1) * width], strict=True) if c}

    def _item(self, b: int) -> BlockTiming:
        lo, hi, lines = self._starts[b], self._ends[b], self._lines
        return BlockTiming(b, lines[lo] if hi > lo else 0, lines[hi - 1] if hi > lo else 0, self._depths[b],
                           self._issue_of(b), self._lengths[b], self._paths.get(b, ()))


@dataclass(frozen=True, slots=True)
class Work:
    """Work of one wave: floating-point operations by precision, bytes moved."""

    flops: dict[str, int] = field(default_factory=dict)
    bytes_global: int = 0
    bytes_lds: int = 0
    fma: int = 0

    def scaled(self, factor: int) -> Work:
        return Work({k: v * factor for k, v in self.flops.items()}, self.bytes_global * factor,
                    self.bytes_lds * factor, self.fma * factor)

    def __add__(self, other: Work) -> Work:
        flops = dict(self.flops)
        for k, v in other.flops.items():
            flops[k] = flops.get(k, 0) + v
        return Work(flops, self.bytes_global + other.bytes_global, self.bytes_lds + other.bytes_lds,
                    self.fma + other.fma)


@dataclass(frozen=True, slots=True)
class LoopProfile:
    """One natural loop, one wave, one iteration (inner loops x their trip counts)."""

    header_line: int
    depth: int
    trip_count: int
    trip_assumed: bool
    issue_cycles: dict[str, int]
    latency_cycles: int
    work: Work
    #: stall cycles by kind ("global-memory latency", "LDS latency", ...) and the lines that waited
    stalls: dict[str, int]
    stall_lines: dict[str, tuple[int, ...]]
    #: lines per unit, busiest instructions first
    unit_lines: dict[str, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class KernelProfile:
    """Everything per wave; W and the device are applied by :func:`evaluate`."""

    family: str
    wave_size: int
    lines: Sequence[LineTiming]
    blocks: Sequence[BlockTiming]
    loops: tuple[LoopProfile, ...]
    whole: LoopProfile
    occupancy_waves: int | None
    assumptions: tuple[str, ...]
    #: the level vector loads were timed at and its latency (None: the table has no memory figures)
    memory_level: str = DEFAULT_MEMORY_LEVEL
    memory_cycles: int | None = None
    #: the kernel has vector-memory loads (whose latency the level decides)
    has_vector_loads: bool = False
    #: scalar loads' latency when an explicit level sends them past the scalar cache (None: scalar-cache hits)
    scalar_cycles: int | None = None
    #: the kernel has scalar-memory loads
    has_scalar_loads: bool = False


@dataclass(frozen=True, slots=True)
class Roofs:
    """Gflop/s bounds on a device (None where the device lacks the figure or there is no such traffic)."""

    compute: float | None
    dram: float | None
    lds: float | None
    issue_model: float | None
    bound: str
    arithmetic_intensity: float | None
    #: the DRAM bandwidth the dram roof used (GB/s) and which figure it is: "achievable" (a published streaming
    #: measurement, devices.toml) or "nominal" (the memory interface's peak) - issue 29 item 4
    dram_gbs: float | None = None
    dram_basis: str = ""
    #: the engine clock (MHz) the issue-model and LDS figures use and which clock it is: the device's peak, or for a
    #: loop issuing matrix instructions the clock AMD measured for dense GEMMs, which follows the data multiplied
    clock_mhz: float | None = None
    clock_basis: str = ""
    #: the issue model at the other end of the matrix clock's range (low-toggle data) when no --matrix-data chose one
    issue_model_high: float | None = None


@dataclass(frozen=True, slots=True)
class LoopTiming:
    header_line: int
    depth: int
    trip_count: int
    trip_assumed: bool
    issue_cycles: dict[str, int]
    latency_cycles: int
    waves: int
    cycles_per_iteration: float
    bottleneck: str
    bottleneck_lines: tuple[int, ...]
    work: Work
    fma_per_clock_per_cu: float
    roofs: Roofs | None


@dataclass(frozen=True, slots=True)
class KernelTiming:
    profile: KernelProfile
    waves: int
    waves_from: str
    device: DeviceSpec | None
    loops: tuple[LoopTiming, ...]
    kernel: LoopTiming
    assumptions: tuple[str, ...]
    #: where the memory level came from: "--memory-level" or "assumed" (the low end of a range)
    memory_level_from: str = "assumed"
    #: the same kernel with every vector load missing to DRAM: the high end of the range when no level was given
    upper: KernelTiming | None = None
