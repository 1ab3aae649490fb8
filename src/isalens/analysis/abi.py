"""The AMDGPU function calling convention as unit bitsets, from ``data/calling_convention.toml``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from isalens.ir.registers import Reg, RegFile

_FILES = {"vgprs": RegFile.VGPR, "sgprs": RegFile.SGPR, "agprs_unified": RegFile.AGPR}


@dataclass(frozen=True, slots=True)
class CallingConvention:
    """Register sets of the convention (unit bitsets, see :mod:`isalens.ir.registers`)."""

    arguments: int
    results: int
    callee_saved: int
    #: registers a function never has live: LLVM reserves them and does not track their liveness
    function_reserved: int
    #: the same for a kernel that makes calls (its stack pointer)
    caller_reserved: int
    scratch_descriptor: int
    return_address: int
    #: kernel input name (``dispatch_ptr``...) -> the SGPRs a callee expects it in (unit bitset)
    special_inputs: dict[str, int]


def _ranges(table: dict[str, object], key: str, file: RegFile) -> int:
    mask = 0
    value = table.get(key, [])
    if not isinstance(value, list):
        raise ValueError(f"calling_convention.toml: {key} must be a list of [first, last]")
    for pair in value:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, int) for x in pair)
                and pair[0] <= pair[1]):
            raise ValueError(f"calling_convention.toml: bad range {pair!r} in {key}")
        mask |= Reg(file, pair[0], pair[1] - pair[0] + 1).mask()
    return mask


def _section(doc: dict[str, object], name: str) -> dict[str, object]:
    section = doc.get(name)
    if not isinstance(section, dict):
        raise ValueError(f"calling_convention.toml: missing [{name}]")
    return section


def uses_scratch_descriptor(generation: int, architected_flat_scratch: bool) -> bool:
    """Whether functions receive a scratch buffer descriptor in s[0:3] on this target."""
    doc = _document()
    limit = _section(doc, "call").get("scratch_descriptor_max_generation", 0)
    return not architected_flat_scratch and isinstance(limit, int) and generation <= limit


@cache
def _document() -> dict[str, object]:
    text = (resources.files("isalens.analysis") / "data" / "calling_convention.toml").read_text("utf-8")
    return tomllib.loads(text)


@cache
def calling_convention(unified_vgpr_file: bool, scratch_descriptor: bool = True) -> CallingConvention:
    """The convention; AGPRs are callee-saved only on targets with a unified VGPR/AGPR file (gfx90a+), and
    s[0:3] carries a scratch descriptor only where :func:`uses_scratch_descriptor` says so."""
    doc = _document()
    args, results = _section(doc, "arguments"), _section(doc, "results")
    saved, reserved, call = _section(doc, "callee_saved"), _section(doc, "reserved"), _section(doc, "call")
    callee_saved = _ranges(saved, "vgprs", RegFile.VGPR) | _ranges(saved, "sgprs", RegFile.SGPR)
    if unified_vgpr_file:
        callee_saved |= _ranges(saved, "agprs_unified", RegFile.AGPR)
    descriptor = _ranges(call, "scratch_descriptor", RegFile.SGPR) if scratch_descriptor else 0
    return CallingConvention(
        arguments=_ranges(args, "vgprs", RegFile.VGPR) | _ranges(args, "sgprs", RegFile.SGPR),
        results=_ranges(results, "vgprs", RegFile.VGPR),
        callee_saved=callee_saved,
        function_reserved=_ranges(reserved, "function_sgprs", RegFile.SGPR) | descriptor,
        caller_reserved=_ranges(reserved, "caller_sgprs", RegFile.SGPR),
        scratch_descriptor=descriptor,
        return_address=_ranges(call, "return_address", RegFile.SGPR),
        special_inputs=_special_inputs(_section(doc, "special_inputs")),
    )


def _special_inputs(table: dict[str, object]) -> dict[str, int]:
    out: dict[str, int] = {}
    for name, pair in table.items():
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, int) for x in pair)
                and pair[0] <= pair[1]):
            raise ValueError(f"calling_convention.toml: bad range {pair!r} for special input {name}")
        out[name] = Reg(RegFile.SGPR, pair[0], pair[1] - pair[0] + 1).mask()
    return out
