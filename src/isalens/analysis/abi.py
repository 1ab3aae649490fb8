"""The AMDGPU function calling convention as unit bitsets, from ``data/calling_convention.toml``.

The callee-saved SGPRs depend on the LLVM release that produced the code (:func:`llvm_major_of`); the
convention is picked by it, else by the release of the compiler the project installs.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from isalens import tomlcache
from isalens.ir.registers import Reg, RegFile
from isalens.records import dataclass

#: the package's data files: beside this module (importlib.resources.files gives the same directory but its import
#: pulls in tempfile, shutil and zipfile, a few milliseconds of every run's start-up)
_DATA = Path(__file__).parent / "data"

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
    #: registers a function receives and passes on unchanged to its callees (the workitem ids in v31)
    function_passes: int
    #: kernel input name (``dispatch_ptr``...) -> the SGPRs a callee expects it in (unit bitset)
    special_inputs: dict[str, int]
    #: the LLVM release whose convention this is, and whether the input named it (else the default)
    llvm_major: int = 19
    llvm_named: bool = False

    @property
    def name(self) -> str:
        """How reports name the convention: ``LLVM 19 (from the input)``."""
        return f"LLVM {self.llvm_major} ({'from the input' if self.llvm_named else 'default'})"


#: ``.ident "Debian clang version 19.1.7 ..."``, ``AMD clang version 17.0.0 ...``, a .comment's text
_CLANG_VERSION = re.compile(r"\bclang version (\d+)\.")
_LINE_END = re.compile(r"[\r\n]")


def llvm_major_of(text: str) -> int | None:
    """The LLVM major release the input names as its producer (the ``.ident`` line clang writes), or None."""
    at = text.find(".ident")
    while at >= 0:  # found, not every line split: a 100k-instruction listing's lines took 11 ms to split
        newline = text.rfind("\n", 0, at)
        start = max(newline, text.rfind("\r", newline + 1, at)) + 1
        found = _LINE_END.search(text, at)
        end = found.start() if found else len(text)
        m = _CLANG_VERSION.search(text, start, end)
        if m:
            return int(m.group(1))
        at = text.find(".ident", end)
    return None


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
    text = (_DATA / "calling_convention.toml").read_text("utf-8")
    return tomlcache.loads(text)


def default_llvm_major() -> int:
    """The LLVM release of the compiler the project installs: its convention applies when the input does not
    name its producer."""
    value = _section(_document(), "callee_saved_sgprs").get("default_llvm_major")
    if not isinstance(value, int):
        raise ValueError("calling_convention.toml: callee_saved_sgprs.default_llvm_major must be an integer")
    return value


def _callee_saved_sgprs(llvm_major: int) -> int:
    """The callee-saved SGPRs of LLVM release ``llvm_major``: the first table whose ``llvm_max_major`` covers it."""
    tables = _section(_document(), "callee_saved_sgprs").get("by_llvm")
    if not isinstance(tables, list):
        raise ValueError("calling_convention.toml: missing [[callee_saved_sgprs.by_llvm]]")
    for table in tables:
        limit = table.get("llvm_max_major") if isinstance(table, dict) else None
        if not isinstance(limit, int):
            raise ValueError("calling_convention.toml: each by_llvm table needs an integer llvm_max_major")
        if llvm_major <= limit:
            return _ranges(table, "sgprs", RegFile.SGPR)
    raise ValueError(f"calling_convention.toml: no callee-saved SGPR set for LLVM {llvm_major}")


@cache
def calling_convention(unified_vgpr_file: bool, scratch_descriptor: bool = True,
                       llvm_major: int | None = None) -> CallingConvention:
    """The convention of LLVM release ``llvm_major`` (None: :func:`default_llvm_major`); AGPRs are
    callee-saved only on targets with a unified VGPR/AGPR file (gfx90a+), and s[0:3] carries a scratch
    descriptor only where :func:`uses_scratch_descriptor` says so."""
    doc = _document()
    args, results = _section(doc, "arguments"), _section(doc, "results")
    saved, reserved, call = _section(doc, "callee_saved"), _section(doc, "reserved"), _section(doc, "call")
    release = llvm_major if llvm_major is not None else default_llvm_major()
    callee_saved = _ranges(saved, "vgprs", RegFile.VGPR) | _callee_saved_sgprs(release)
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
        function_passes=_ranges(call, "function_passes_vgprs", RegFile.VGPR),
        special_inputs=_special_inputs(_section(doc, "special_inputs")),
        llvm_major=release,
        llvm_named=llvm_major is not None,
    )


def _special_inputs(table: dict[str, object]) -> dict[str, int]:
    out: dict[str, int] = {}
    for name, pair in table.items():
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, int) for x in pair)
                and pair[0] <= pair[1]):
            raise ValueError(f"calling_convention.toml: bad range {pair!r} for special input {name}")
        out[name] = Reg(RegFile.SGPR, pair[0], pair[1] - pair[0] + 1).mask()
    return out
