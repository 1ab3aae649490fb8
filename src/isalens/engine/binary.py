"""Binaries as input: find the code objects of a file, list their kernels, and load them (disassembled by our
decoder or llvm-objdump into the ``objdump`` dialect, with each kernel's descriptor and metadata) as a
:class:`~isalens.engine.load.LoadedModule`, the same object ISA text gives.
"""

from __future__ import annotations

import dataclasses
import mmap
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from isalens.arch.loader import normalize_arch_name
from isalens.arch.model import ArchSpec
from isalens.binary.bundle import is_binary_file
from isalens.engine.code_listing import CodeReading, code_reading, wave64_code
from isalens.engine.load import LoadedModule, finish_module
from isalens.engine.target import resolve_arch, target_info
from isalens.errors import InputError, IsalensError
from isalens.ir.diagnostics import Diagnostic, Severity
from isalens.ir.program import Kernel, KernelFacts, Module
from isalens.names import name_matches
from isalens.reading import map_file

if TYPE_CHECKING:
    from isalens.binary.codeobject import CodeObject

T = TypeVar("T")

BINARY_EXTRA = "pip install 'isalens[binary]' (pyelftools, msgpack, zstandard)"

__all__ = ["Listed", "is_binary_file", "iter_code_objects", "list_code_objects", "load_binary",
           "load_code_object", "mapped", "read_all", "select_kernels", "wave64_code"]


@contextmanager
def mapped(path: Path) -> Iterator[bytes | mmap.mmap]:
    """The file's bytes, memory-mapped (a 1.3 GiB library is not read into memory); a device, a pipe or a file
    over the input cap is refused before it is mapped (:mod:`isalens.reading`)."""
    with map_file(path) as view:
        yield view


#: mnemonics that reach another function (a call, or a tail call through s_setpc)
_CALLS = ("s_swappc_b64", "s_setpc_b64", "s_call_b64")


@dataclass(frozen=True, slots=True)
class Listed:
    """One code object found in a file, or why it cannot be read (``error``)."""

    source: str
    code_object: CodeObject | None
    error: IsalensError | None = None


def list_code_objects(path: Path) -> list[Listed]:
    """Every code object in ``path``; one that cannot be read is listed with its error. A file that is not
    a binary at all, or whose container is damaged, raises."""
    return list(iter_code_objects(path))


def iter_code_objects(path: Path) -> Iterator[Listed]:
    """:func:`list_code_objects` one at a time: a caller that keeps only what it shows of each holds one code
    object at a time, not a whole library (`isalens list` of 1.3 GB)."""
    try:
        from isalens.binary.codeobject import read_code_object
        from isalens.binary.container import find_code_objects
    except ImportError as exc:
        raise InputError(f"reading binaries needs {exc.name}: {BINARY_EXTRA}", file=str(path),
                         code="binary-extra") from None
    with mapped(path) as data:
        # no collection of cycles here: reading a code object (binary.elf64, msgpack) makes none, so the pause of
        # the cyclic collector during a command (cli.main) costs nothing; pyelftools' readers made them, and a
        # collection every 64 code objects walked the growing listing (3 s of librocsparse's `list`)
        for ref in find_code_objects(data, file=str(path)):
            try:
                yield Listed(ref.source, read_code_object(ref.data, file=str(path), source=ref.source))
            except IsalensError as exc:
                yield Listed(ref.source, None, exc)


def _matches(co: CodeObject, target: str) -> bool:
    if ":" in target:
        return co.target == target
    return co.processor == normalize_arch_name(target)


def select_kernels(co: CodeObject, pattern: str | None) -> list[str]:
    """Symbols of the kernels of ``co`` whose name or symbol matches ``pattern`` (a name or shell glob, mangled or
    demangled), each once (damaged metadata may list one kernel thousands of times)."""
    return list(dict.fromkeys(
        k.symbol for k in co.kernels
        if pattern is None or name_matches(pattern, k.name) or name_matches(pattern, k.symbol)))


def _xnack_reserved(co: CodeObject) -> bool:
    """Whether the compiler counted the XNACK mask in ``.sgpr_count``: the target ID says ``xnack+`` or ``xnack-``;
    with neither ("any") LLVM 19 counts it (``isXnackOnOrAny``) while the LLVM 15 that built Debian's ROCm 5
    libraries did not (seen on their code objects); the version between is not known, 16 is assumed."""
    if ":xnack+" in co.target:
        return True
    if ":xnack-" in co.target:
        return False
    return co.compiler_major is None or co.compiler_major >= 16


#: a code object's fields not understood, shown one line each up to this many
_WARNINGS_SHOWN = 5


def load_code_object(co: CodeObject, *, file: str, kernel: str | None = None, ignore_unknown: bool = False,
                     wave_size: int | None = None, symbols: list[str] | None = None,
                     disassembly: CodeReading | None = None, spec: ArchSpec | None = None,
                     disassembler: str = "ours", inlines: bool = True, locations: bool = True) -> LoadedModule:
    """Disassemble ``co`` (only the kernels matching ``kernel``, or exactly ``symbols``, when given) and parse it;
    ``disassembly``, the whole object's from :func:`read_all`, saves the disassembler run; ``spec``, the
    target of ``co.processor`` when the request has resolved it already; ``disassembler``: ``ours`` or
    ``llvm`` (:mod:`isalens.engine.code_listing`); ``inlines=False`` leaves out the inlining call chains of the
    DWARF (a scan's rows need none: they show only in the document's ``source_lines`` list, not a column);
    ``locations=False`` gives each kernel only its ``debug_info`` kind, no source line per instruction (what a
    scan's row shows: ``binary.dwarf_lines.attach_line_kind``)."""
    if spec is None:
        spec = resolve_arch(co.processor, file=file)
    if symbols is None and kernel is not None:
        symbols = select_kernels(co, kernel)
    label = f"{file} [{co.source}]"
    if symbols == []:
        return LoadedModule(Module(kernels=(), dialect="objdump", arch=spec.name, file=label), spec)
    if disassembly is None:  # our decoder's drafts go to the reader without the text (code_reading)
        reading = code_reading(co, file=file, symbols=symbols, disassembler=disassembler)
    else:
        reading = disassembly if symbols is None else disassembly.only(symbols)
    keep = None
    if symbols is not None and reading.mentions(_CALLS):
        # a chosen kernel calls functions: they must be read too, or its registers would be a lower bound
        keep = set(symbols)
        if disassembly is None:
            reading = code_reading(co, file=file, disassembler=disassembler)
        else:  # the chosen kernels and every function that is not a kernel (what a kernel can call)
            entry_points = {k.symbol for k in co.kernels}
            reading = disassembly.only([*symbols, *(f for f in co.functions if f not in entry_points)])
    notes = reading.notes
    reserve = {"reserve_xnack_mask": "1" if _xnack_reserved(co) else "0"}
    # cut from one disassembly, the text holds only the chosen kernels: only their facts (the fallback of a scan
    # reads kernels one by one, and a code object's metadata may list thousands)
    chosen = set(symbols) if disassembly is not None and symbols is not None else None
    facts = {k.symbol: KernelFacts({**k.descriptor, **reserve}, dict(k.metadata)) for k in co.kernels
             if chosen is None or k.symbol in chosen}
    module = reading.parse(file=label, target=target_info(spec, wave_size), ignore_unknown=ignore_unknown,
                           packed_workitem_ids=spec.packed_workitem_ids, facts=facts)
    module = _with_line_table(module, co, file, inlines, locations)
    if notes:
        module = dataclasses.replace(module, diagnostics=(*notes, *module.diagnostics))
    if co.warnings:  # fields read but not understood: one line each, naming the code object and the kernel
        warned = [Diagnostic(Severity.WARNING, "descriptor", f"{co.source}: {w}", file, None)
                  for w in co.warnings[:_WARNINGS_SHOWN]]
        if len(co.warnings) > _WARNINGS_SHOWN:
            warned.append(Diagnostic(Severity.WARNING, "descriptor", f"{co.source}: and "
                                     f"{len(co.warnings) - _WARNINGS_SHOWN} more fields not understood", file, None))
        module = dataclasses.replace(module, diagnostics=(*module.diagnostics, *warned))
    # the same finishing step as ISA text: calls linked per code object, under its compiler's convention
    loaded = finish_module(module, spec, llvm_major=co.compiler_major)
    if keep is None:
        return loaded
    kept = tuple(k for k in loaded.ir.kernels if k.name in keep)
    return LoadedModule(dataclasses.replace(loaded.ir, kernels=kept), spec)


def read_all(co: CodeObject, file: str, disassembler: str = "ours") -> CodeReading:
    """Every function of ``co`` once, as the reader reads it (our decoder's drafts without the text, else the
    listing's text; cut per kernel by ``CodeReading.only``), without the listing's notes: the caller reads the
    code object whole, and the notes are its own (a cut of it has none, as ``CodeReading.only`` gives)."""
    return dataclasses.replace(code_reading(co, file=file, disassembler=disassembler), notes=())


#: the debug information last read, per reader: (reader, file, source, keywords) -> (the code object's bytes
#: object, result or error). A scan analyses a code object's kernels in several units, one after another in the
#: same worker; its DWARF (librocsparse: seconds per code object) is read for the first only
_DEBUG_READ: dict[tuple[object, ...], tuple[bytes, object]] = {}


def _read_once(reader: Callable[..., T], co: CodeObject, file: str, **keywords: Hashable) -> T:
    key = (reader, file, co.source, *sorted(keywords.items()))
    cached = _DEBUG_READ.get(key)
    if cached is not None and cached[0] is co.data:  # the same bytes object: the same code object
        result = cached[1]
    else:
        try:
            result = reader(co.data, file=file, where=co.source, **keywords)
        except IsalensError as exc:
            result = exc
        for old in [k for k in _DEBUG_READ if k[0] is reader]:
            del _DEBUG_READ[old]  # one code object per reader: its tables are megabytes
        _DEBUG_READ[key] = (co.data, result)
    if isinstance(result, IsalensError):
        raise result
    return cast(T, result)


def _spans(kernels: tuple[Kernel, ...]) -> tuple[tuple[int, int], ...] | None:
    """Each kernel's (first address, last address + 1); None when some kernel has no addresses."""
    out = []
    for k in kernels:
        first, last = (k.instructions[0].address, k.instructions[-1].address) if k.instructions else (None, None)
        if first is None or last is None:
            return None
        out.append((first, last + 1))
    return tuple(out)


def _with_line_table(module: Module, co: CodeObject, file: str, inlines: bool = True,
                     locations: bool = True) -> Module:
    """The kernels of ``module`` with their source lines from the code object's DWARF line table (``-g``,
    ``-gline-tables-only``; without ``locations``, only whether they have any), their inlining call chains (with
    ``inlines``) and variables; a damaged table is a warning, and the ISA figures stand without it."""
    if co.debug_info == "none":  # no .debug_line (read_code_object saw the sections): no second ELF parse
        return module
    from isalens.binary.dwarf_lines import attach_line_kind, attach_line_table, read_line_table

    try:
        table = _read_once(read_line_table, co, file)
    except IsalensError as exc:
        note = Diagnostic(Severity.WARNING, "debug-info", f"{exc.message}: no source lines", file, None)
        return dataclasses.replace(module, diagnostics=(*module.diagnostics, note))
    if not table:
        return module
    problems = list(table.problems)
    attach = attach_line_table if locations else attach_line_kind
    kernels = tuple(attach(k, table) for k in module.kernels)
    # the DWARF of the functions asked for only (a scan's passes read whole objects once, so only with locations)
    within = _spans(kernels) if locations else None
    if inlines:
        from isalens.binary.dwarf_inlines import attach_frames, read_frames

        try:  # which function each instruction is, and the call sites that inlined it
            frames, frame_problems = _read_once(read_frames, co, file, within=within)
            problems += frame_problems
            kernels = tuple(attach_frames(k, frames) for k in kernels)
        except IsalensError as exc:
            problems.append(f"{exc.message}: no inlining call chains")
    if co.debug_info == "lines+variables":  # location lists (-g): which registers hold which variables
        from isalens.binary.dwarf_variables import attach_variables_to_each, read_variable_ranges

        waves = {k.wave_size for k in kernels} or {64}
        try:
            # without locations only whether a variable covers each kernel is shown: one per function will do
            by_wave = {w: _read_once(read_variable_ranges, co, file, wave_size=w, first_only=not locations,
                                     within=within) for w in waves}
        except IsalensError as exc:
            problems.append(f"{exc.message}: no variables")
            by_wave = {}
        if by_wave:
            attached: dict[int, Kernel] = {}
            for wave in waves:
                chosen = [i for i, k in enumerate(kernels) if k.wave_size == wave]
                found = attach_variables_to_each(tuple(kernels[i] for i in chosen), by_wave[wave][0])
                attached.update(zip(chosen, found, strict=True))
            kernels = tuple(attached.get(i, k) for i, k in enumerate(kernels))
            problems += next(iter(by_wave.values()))[1]
    notes = [Diagnostic(Severity.WARNING, "debug-info", f"{co.source}: {p}", file, None) for p in problems[:5]]
    return dataclasses.replace(module, kernels=kernels, diagnostics=(*module.diagnostics, *notes))


def load_binary(path: Path, *, target: str | None = None, kernel: str | None = None,
                ignore_unknown: bool = False, wave_size: int | None = None, disassembler: str = "ours") -> LoadedModule:
    """The kernels of one target in the binary ``path`` (every code object of that target, e.g. one per bundle of
    a library), optionally only those matching ``kernel`` (name or glob)."""
    file = str(path)
    listed = list_code_objects(path)
    readable = [x.code_object for x in listed if x.code_object is not None]
    processors = sorted({co.processor for co in readable})
    if target is None:
        if len(processors) > 1:
            raise InputError(f"holds code objects for {', '.join(processors)}: choose one with --target", file=file,
                             code="target-required")
        chosen = readable
    else:
        chosen = [co for co in readable if _matches(co, target)]
        if not chosen:
            raise InputError(f"no code object for {target} (found: {', '.join(processors) or 'none readable'})",
                             file=file, code="no-target")
    if not chosen:
        first = next((x.error for x in listed if x.error is not None), None)
        raise first if first is not None else InputError("no AMDGPU code object with code", file=file,
                                                         code="no-code-object")
    kernels: list[Kernel] = []
    diagnostics: list[Diagnostic] = []
    spec = resolve_arch(chosen[0].processor, file=file)  # one processor: chosen by --target, or the only one
    for co in chosen:
        loaded = load_code_object(co, file=file, kernel=kernel, ignore_unknown=ignore_unknown, wave_size=wave_size,
                                  spec=spec, disassembler=disassembler)
        kernels += loaded.ir.kernels
        diagnostics += loaded.ir.diagnostics
    if not kernels:
        names = sorted({k.name for co in chosen for k in co.kernels})
        shown = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
        raise InputError(f"no kernel matches '{kernel}' (found: {shown or 'no kernels'})", file=file,
                         code="no-kernel")
    label = file if len(chosen) == 1 and chosen[0].source == "code object" else f"{file} [{chosen[0].target}]"
    module = Module(kernels=tuple(kernels), dialect="objdump", arch=spec.name, file=label,
                    diagnostics=tuple(diagnostics))
    return LoadedModule(module, spec)
