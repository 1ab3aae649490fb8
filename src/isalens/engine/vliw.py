"""The VLIW5/VLIW4 part of the Python API: text -> :mod:`isalens.isa.r600` -> :mod:`isalens.analysis.vliw`.

    >>> module = load_vliw("shader.isa")                  # CAL dump or LLVM r600 assembly
    >>> result = analyze_vliw(module, device="hd4870")    # slots, clauses, loops, ALU/fetch bounds
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from isalens.analysis.vliw import VliwAnalysis, vliw
from isalens.analysis.vliw_timing import DEFAULT_FETCH_LATENCY
from isalens.arch.devices import DeviceSpec, UnknownDeviceError, get_device
from isalens.engine.devices import resolve_device
from isalens.engine.load import read_input
from isalens.errors import InputError
from isalens.ir.vliw import VliwModule
from isalens.isa import r600

__all__ = ["analyze_vliw", "load_vliw", "resolve_device"]


def load_vliw(path_or_text: str | Path, dialect: str | None = None, *, target: str | None = None) -> VliwModule:
    """Parse a CAL / GPU ShaderAnalyzer dump or LLVM r600 assembly (a path, or the text itself).

    ``dialect`` is ``cal`` or ``llvm`` (default: detected). ``target`` is a chip (``rv770``, ``cypress``,
    ``cayman``), a generation (``r700``) or a device (``hd4870``) whose slot rules apply; without it the
    generation is inferred from the code.
    """
    text, file = read_input(path_or_text)
    if target is not None and r600.generation_of(target) is None:
        with contextlib.suppress(UnknownDeviceError):  # else the reader names the valid targets
            target = get_device(target).target
    return r600.parse(text, file=file, dialect=dialect, target=target)


def analyze_vliw(program: VliwModule, device: str | DeviceSpec | None = None,
                 fetch_gbs: float | None = None, fetch_latency: int | None = None) -> VliwAnalysis:
    """Groups, slots, clauses, loops, occupancy and timing of ``program``; with ``device``, each loop's ALU
    and fetch bounds.

    ``fetch_gbs`` overrides the device's fetch bandwidth (GB/s); ``fetch_latency`` the clocks a fetch clause
    waits (default 180, an L1 hit on RV770 as domain.md §1.4 reasons).
    """
    spec = resolve_device(device) if isinstance(device, str) else device
    if fetch_gbs is not None and not 0 < fetch_gbs < float("inf"):
        raise InputError(f"fetch bandwidth must be a positive, finite number of GB/s, not {fetch_gbs}",
                         file=program.file, code="usage")
    if fetch_latency is not None and (isinstance(fetch_latency, bool) or not isinstance(fetch_latency, int)
                                      or fetch_latency < 0):
        raise InputError(f"fetch latency must be a whole number of clocks >= 0, not {fetch_latency!r}",
                         file=program.file, code="usage")
    latency = DEFAULT_FETCH_LATENCY if fetch_latency is None else fetch_latency
    return vliw(program, device=spec, fetch_gbs=fetch_gbs, fetch_latency=latency)
