"""Wiring for the timing model: class keys from the ISA tables, timing facts from ``arch``, occupancy from
the analysis, into :mod:`isalens.analysis.timing`.

    >>> kernel = isalens.load("sgemm.s", "gfx902").kernels[0]
    >>> t = kernel_timing(kernel, device="ryzen-5-2400g")     # KernelTiming: loops, kernel, roofs
    >>> timing_dict(t)                                         # from isalens.report.timing: the JSON section
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from isalens.analysis.occupancy import Occupancy, kernel_occupancy
from isalens.analysis.resources import resources
from isalens.analysis.source_lines import SourceSpan, loop_span
from isalens.analysis.timing import (
    DEFAULT_MEMORY_LEVEL,
    KernelProfile,
    KernelTiming,
    TimingInputError,
    evaluate,
    kernel_profile_on,
)
from isalens.arch.devices import DeviceSpec
from isalens.engine.devices import device_for_kernel, resolve_device
from isalens.engine.load import LoadedKernel
from isalens.errors import ArchError, InputError

__all__ = ["instruction_classes", "kernel_profile", "kernel_timing", "loop_spans", "parse_trip_counts", "what_if"]


def instruction_classes(kernel: LoadedKernel) -> list[str]:
    """The class key of every instruction, as the reader stored it (``Instruction.facts``)."""
    return [ins.facts.klass for ins in kernel.ir.instructions]


def loop_spans(kernel: LoadedKernel) -> dict[int, SourceSpan]:
    """Each natural loop's source lines by its header's input line (the ``loop@line`` of ``timing``); empty
    when the kernel carries no source lines."""
    if not kernel.ir.source.locs:
        return {}
    out: dict[int, SourceSpan] = {}
    for loop in kernel.cfg.loops:
        span = loop_span(kernel.ir, kernel.cfg, loop)
        if span is not None:
            out[kernel.ir.instructions[kernel.cfg.blocks[loop.header].start].line] = span
    return out


def parse_trip_counts(specs: Sequence[str]) -> dict[int, int]:
    """``["12=64", "40=8"]`` (loop header line = trip count) -> ``{12: 64, 40: 8}``."""
    out: dict[int, int] = {}
    for spec in specs:
        line, sep, count = spec.partition("=")
        try:
            if not sep:
                raise ValueError
            out[int(line)] = int(count)
        except ValueError:
            raise InputError(f"--trip-count expects LINE=N (a loop's header line and its trip count), not {spec!r}",
                             code="usage") from None
        if out[int(line)] < 0:
            raise InputError(f"--trip-count {spec}: a trip count cannot be negative", code="usage")
    return out


def _check_waves(kernel: LoadedKernel, counts: Sequence[int], flag: str) -> None:
    """Refuse a wave count the target cannot hold: a SIMD runs at most its file's waves (of the kernel's size:
    the occupancy model's maximum), and cycles for more would describe no hardware. The occupancy (a pass over
    every instruction) is asked once for all ``counts``."""
    for waves in counts:
        if waves < 1:
            raise InputError(f"{flag} must be at least 1, not {waves}", code="usage")
    if not counts:
        return
    occ = _occupancy(kernel)
    most, wave = (occ.max_waves_per_simd, occ.wave_size) if occ is not None else \
        (kernel.arch.max_waves_per_simd, kernel.ir.wave_size)
    for waves in counts:
        if waves > most:
            raise InputError(f"{flag} {waves}: {kernel.arch.name} holds at most {most} waves per SIMD (wave{wave})",
                             code="usage")


def _occupancy(kernel: LoadedKernel) -> Occupancy | None:
    """The kernel's occupancy, None when the model cannot give one."""
    try:
        occ = kernel_occupancy(kernel.ir, kernel.arch, resources(kernel.ir, kernel.arch))
    except (ValueError, KeyError):
        return None
    return occ[0] if occ is not None else None


def _occupancy_waves(kernel: LoadedKernel) -> int | None:
    occ = _occupancy(kernel)
    if occ is None:
        return None
    # a shader's figure is already in waves of its own size (ACO's wave32 units are aco_waves; issue 29:
    # ssao_kernel.frag on navi21 was timed with 32 wave64 waves, twice its cycles per iteration)
    return max(int(occ.waves_per_simd), 1)


def kernel_profile(kernel: LoadedKernel, *, trip_counts: Mapping[int, int] | None = None,
                   device: DeviceSpec | None = None, memory_level: str = DEFAULT_MEMORY_LEVEL,
                   scalar_level: bool = False) -> KernelProfile:
    """The per-wave simulation of ``kernel`` with vector loads hitting ``memory_level`` (scalar loads too with
    ``scalar_level``: an explicit ``--memory-level``) (independent of waves; of the device only through what
    differs by product: the FP64 ratio, measured memory latencies)."""
    if device is not None:
        device_for_kernel(kernel.arch, device)  # another generation's device is refused
    try:
        prof = kernel_profile_on(kernel.ir, kernel.arch, kernel.cfg, trip_counts=trip_counts,
                                 occupancy_waves=_occupancy_waves(kernel), device=device, memory_level=memory_level,
                                 scalar_level=scalar_level)
    except TimingInputError as exc:
        raise InputError(str(exc), file=kernel.ir.file, code="timing") from None
    if prof is None:
        raise ArchError(f"no timing facts for {kernel.arch.name} ({kernel.arch.family}): the model covers gfx8, "
                        "gfx9, CDNA1-3 and gfx10-gfx12", code="timing-arch")
    return prof


def kernel_timing(kernel: LoadedKernel, *, waves: int | None = None, device: str | DeviceSpec | None = None,
                  trip_counts: Mapping[int, int] | None = None, profile: KernelProfile | None = None,
                  memory_level: str | None = None, memory_range: bool = False,
                  matrix_data: str | None = None) -> KernelTiming:
    """Cycles per loop iteration, bottlenecks, work and (with ``device``) roofs of one kernel (``profile``:
    its :func:`kernel_profile` for these trip counts and level, when the caller has it already).

    ``memory_level`` (``--memory-level``) times vector loads at that level; without one they are assumed to hit
    in L2 and, with ``memory_range``, the timing carries the all-misses-to-DRAM variant as ``upper`` (the range
    a static tool can state without knowing the hit rate). ``matrix_data`` (``--matrix-data random|low-toggle``):
    the data matrix loops multiply, which sets their clock where the device has AMD's measured figures."""
    spec = resolve_device(device) if isinstance(device, str) else device
    note = device_for_kernel(kernel.arch, spec) if spec is not None else None
    if waves is not None:
        _check_waves(kernel, [waves], "--waves")
    level = memory_level or DEFAULT_MEMORY_LEVEL
    prof = profile if profile is not None else kernel_profile(kernel, trip_counts=trip_counts, device=spec,
                                                              memory_level=level,
                                                              scalar_level=memory_level is not None)
    t = _noted(evaluate(prof, waves=waves, device=spec, simds_per_cu=kernel.arch.simds_per_cu,
                        matrix_data=matrix_data), note)
    if memory_level is not None:
        return replace(t, memory_level_from="--memory-level")
    upper = None
    if memory_range and prof.has_vector_loads and prof.memory_cycles is not None:
        high = kernel_profile(kernel, trip_counts=trip_counts, device=spec, memory_level="dram")
        upper = evaluate(high, waves=waves, device=spec, simds_per_cu=kernel.arch.simds_per_cu,
                         matrix_data=matrix_data)
    return replace(t, upper=upper)


def _noted(t: KernelTiming, note: str | None) -> KernelTiming:
    """``t`` with ``note`` (a device of another target of the kernel's family) among its assumptions."""
    return replace(t, assumptions=(*t.assumptions, note)) if note else t


def _own_figures(spec: DeviceSpec) -> bool:
    """The device has figures of its own the simulation reads (FP64 ratio, memory latencies)."""
    return spec.fp64_ratio is not None or any(
        v is not None for v in (spec.l1_latency_cycles, spec.l2_latency_cycles, spec.mall_latency_cycles,
                                spec.dram_latency_cycles, spec.lds_latency_cycles))


def what_if(prof: KernelProfile, kernel: LoadedKernel, *, waves: Sequence[int] = (),
            devices: Sequence[str] = (), trip_counts: Mapping[int, int] | None = None,
            matrix_data: str | None = None) -> list[KernelTiming]:
    """The same profile under other wave counts and devices (``--what-if``); a device whose own rates differ
    from the profile's (FP64 ratio, measured memory latencies) is simulated again with them, at the profile's
    memory level."""
    out = []
    profiles: dict[str, KernelProfile] = {}
    _check_waves(kernel, waves, "--what-if waves")
    specs = [resolve_device(d) if d else None for d in devices or (None,)]
    for spec in specs:
        if spec is not None:  # another generation's device is refused (a variant lists no assumptions)
            device_for_kernel(kernel.arch, spec, "--what-if device")
    for w in waves or (None,):
        for spec in specs:
            p = prof
            if spec is not None and _own_figures(spec):
                if spec.name not in profiles:
                    profiles[spec.name] = kernel_profile(kernel, trip_counts=trip_counts, device=spec,
                                                         memory_level=prof.memory_level,
                                                         scalar_level=prof.scalar_cycles is not None)
                p = profiles[spec.name]
            out.append(evaluate(p, waves=w, device=spec, simds_per_cu=kernel.arch.simds_per_cu,
                                matrix_data=matrix_data))
    return out
