"""Loading ISA text, and the step every reader ends in: text -> :mod:`isalens.isa` ->
:class:`~isalens.ir.program.Module` -> :func:`finish_module` -> :class:`LoadedModule` (+ its :class:`ArchSpec`)
-> analysis passes. Requests come in through :func:`isalens.engine.load_input`, which also reads sources
(:mod:`isalens.engine.sources`) and code objects (:mod:`isalens.engine.binary`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from functools import cached_property
from pathlib import Path

from isalens import records
from isalens.analysis.abi import llvm_major_of, uses_scratch_descriptor
from isalens.analysis.calls import Solved, link_calls
from isalens.analysis.cfg import CFG
from isalens.analysis.cfg import cfg as build_cfg
from isalens.analysis.liveness import Liveness
from isalens.analysis.liveness import liveness as solve_liveness
from isalens.analysis.pipeline import KernelAnalysis, PassOptions, run
from isalens.arch.loader import all_archs
from isalens.arch.model import ArchSpec
from isalens.engine.disassembly import listing_gaps
from isalens.engine.target import check_wave_size, resolve_arch, same_target, target_info
from isalens.errors import ArchError, InputError, IsalensError, MissingPathError
from isalens.ir.diagnostics import Diagnostic
from isalens.ir.instruction import Instruction
from isalens.ir.program import Kernel, Module
from isalens.isa import registry
from isalens.lazyre import LazyPattern
from isalens.progress import step
from isalens.reading import StdinText, max_input_size, read_file
from isalens.records import dataclass, field

__all__ = [
    "LoadedKernel", "LoadedModule", "analyze_kernel", "finish_module", "load", "read_file_bytes", "read_input",
    "source_arg", "with_launch_size",
]

_DEFAULT_PASS_OPTIONS = PassOptions()
#: what a front end adds to each kernel it made (RADV: the stage, workgroup size and ACO's statistics)
Declare = Callable[[Kernel], Kernel]
#: text is read whole and parsed in memory: at most this much (or the smaller --max-input-size)
_MAX_TEXT_BYTES = 512 * 1024 * 1024


def _is_vliw(text: str) -> bool:
    from isalens.isa.vliw_sniff import vliw_dialect  # not the VLIW reader: ~11 ms of every GCN command's start-up

    return vliw_dialect(text) is not None


@dataclass(frozen=True)
class LoadedKernel:
    """A parsed kernel together with its target; analyses are computed on first use."""

    ir: Kernel
    arch: ArchSpec
    #: the CFG and liveness already solved for ``ir`` (by the call linking), else None; the first
    #: :meth:`analyze` takes them (:meth:`release`)
    solved: tuple[CFG, Liveness] | None = field(default=None, repr=False, compare=False)

    @property
    def name(self) -> str:
        return self.ir.name

    @property
    def instructions(self) -> tuple[Instruction, ...]:
        return self.ir.instructions

    @cached_property
    def cfg(self) -> CFG:
        return self.solved[0] if self.solved is not None else build_cfg(self.ir)

    def liveness(self) -> Liveness:
        """Per-instruction live-in/live-out unit sets (frozen)."""
        return self.solved[1] if self.solved is not None else solve_liveness(self.ir, self.cfg)

    def analyze(self, extra: Collection[str] = (), options: PassOptions = _DEFAULT_PASS_OPTIONS,
                leave_out: Collection[str] = ()) -> KernelAnalysis:
        """Every analysis pass (frozen results); ``extra`` names optional passes to run too (``stats``),
        ``leave_out`` passes not to run (:data:`~isalens.analysis.pipeline.LEAVABLE`)."""
        # ``self.cfg`` caches the handed CFG: it stays, as a CFG built here would (timing reads it after this)
        known = {} if self.solved is None else {"cfg": self.cfg, "liveness": self.solved[1]}
        result = run(self.ir, self.arch, extra=extra, options=options, leave_out=leave_out, known=known)
        # the result carries the liveness from here: a module analysed one kernel at a time then holds one
        # kernel's live sets at a time, not every kernel's for as long as the module lives
        self.release()
        return result

    def release(self) -> None:
        """Let go of the call linking's solution (a later :meth:`liveness` or :meth:`analyze` solves again,
        with the same result)."""
        object.__setattr__(self, "solved", None)  # frozen: a record's fields are set only here and in __init__


@dataclass(frozen=True)
class LoadedModule:
    """A parsed input: its kernels, dialect, target and diagnostics."""

    ir: Module
    arch: ArchSpec
    #: the call linking's solutions, per function name (:data:`isalens.analysis.calls.Solved`): a kernel whose
    #: entry holds that very kernel object starts its passes from them. Handed to :attr:`kernels` when they are
    #: made, and emptied then: each :class:`LoadedKernel` holds its own until its first analysis
    solved: Solved = field(default_factory=dict, repr=False, compare=False)
    #: the instructions' lines are those of an assembly isalens compiled from ``ir.file`` (a source), not lines
    #: of that file: a message about them names no line of it
    compiled: bool = False

    @cached_property
    def kernels(self) -> tuple[LoadedKernel, ...]:
        kernels = tuple(LoadedKernel(k, self.arch, _solved_for(k, self.solved)) for k in self.ir.kernels)
        self.solved.clear()
        return kernels

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return self.ir.diagnostics

    def kernel(self, name: str) -> LoadedKernel:
        for kernel in self.kernels:
            if kernel.name == name:
                return kernel
        raise KeyError(name)


def _solved_for(kernel: Kernel, solved: Solved) -> tuple[CFG, Liveness] | None:
    found = solved.get(kernel.name)
    return (found[1], found[2]) if found is not None and found[0] is kernel else None


def with_launch_size(module: LoadedModule, workgroup: tuple[int, int, int]) -> LoadedModule:
    """``module`` with every kernel launched with ``workgroup`` threads (``--wg``); refused when no launch can be
    that large on the target."""
    threads = workgroup[0] * workgroup[1] * workgroup[2]
    if threads > module.arch.max_workgroup_size:
        raise IsalensError(f"--wg {','.join(map(str, workgroup))}: {threads} threads exceed {module.arch.name}'s "
                           f"maximum workgroup of {module.arch.max_workgroup_size}", code="usage")
    kernels = tuple(records.replace(k, declared=records.replace(k.declared, launch_workgroup_size=workgroup))
                    for k in module.ir.kernels)
    return LoadedModule(records.replace(module.ir, kernels=kernels), module.arch, compiled=module.compiled)


def read_file_bytes(path: Path) -> bytes:
    """The bytes of the regular file ``path`` (at most the text cap), or a one-line :class:`InputError` naming it."""
    return read_file(path, cap=min(_MAX_TEXT_BYTES, max_input_size()))


def _names_a_file(text: str) -> bool:
    """Whether the one-word ``text`` is the name of an existing file (a mistaken ``str`` for a ``Path``)."""
    if "\n" in text or len(text) > 4096 or not text.strip() or any(c.isspace() for c in text.strip()):
        return False
    try:
        return os.path.isfile(text.strip())
    except (OSError, ValueError):  # a name too long for the system, a NUL byte: not a file either way
        return False


def read_input(path_or_text: str | Path) -> tuple[str, str]:
    """The text and a display name of a file (a :class:`~pathlib.Path`, with clear errors for missing, oversized,
    device or binary files) or of ISA text (a ``str``: never taken as a file name, see :func:`load`)."""
    if isinstance(path_or_text, Path):
        path = path_or_text
        data = read_file_bytes(path)
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            # UTF-16 with a byte-order mark (Windows editors, PowerShell's `>`): decode it, it is still text
            try:
                return data.decode("utf-16").removeprefix("\ufeff"), str(path)
            except UnicodeDecodeError:
                raise InputError("UTF-16 byte-order mark but not valid UTF-16 text", file=str(path), line=1,
                                 code="binary") from None
        if _binary(data[:65536]):
            raise InputError("binary file: expected ISA text (disassemble it with llvm-objdump -d first)",
                             file=str(path), line=1, code="binary")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise InputError("not UTF-8 text: expected ISA text", file=str(path), line=line,
                             code="binary") from None
        return text.removeprefix("\ufeff"), str(path)  # a UTF-8 byte-order mark is not part of the code
    if not isinstance(path_or_text, str):
        raise TypeError(f"expected ISA text (str) or a file (pathlib.Path), not {type(path_or_text).__name__}")
    if _names_a_file(path_or_text) and not isinstance(path_or_text, StdinText):
        # a str is ISA text: reading a file because a one-line text happens to name one would make the same
        # call mean two things (and read files an API caller never meant to open)
        name = path_or_text.strip()
        raise InputError(f"'{name}' is a file name, but a str is read as ISA text: pass pathlib.Path('{name}') "
                         "or path=... to read the file", file="<text>", code="text-names-file")
    return path_or_text.removeprefix("\ufeff"), text_name(path_or_text)


def _binary(head: bytes) -> bool:
    """Whether the first bytes of a file are binary data: a NUL byte before any comment on its line. LLVM's own
    assembly has NUL bytes in comments: ``.byte 0 ; \\0`` (each byte of a ``DW_OP_implicit_value`` of a
    ``-g`` build, printed as the character it is)."""
    at = head.find(b"\0")
    for _ in range(64):  # a binary file has a NUL before any comment at once; text, a few in comments
        if at < 0:
            return False
        line = head[head.rfind(b"\n", 0, at) + 1:at]
        if b";" not in line and b"//" not in line and b"#" not in line:
            return True
        at = head.find(b"\0", at + 1)
    return False


def text_name(text: str) -> str:
    """How errors and reports name ISA text given as a ``str``: ``<stdin>`` for standard input, else ``<text>``."""
    return text.name if isinstance(text, StdinText) else "<text>"


_NAME_WORD = LazyPattern(r"[A-Za-z0-9]+")


def _target_hint(text: str, file: str) -> str:
    """An example for the "pass --arch" error: a family the text names (``(RADV RAVEN)``) or a target in
    the file's name (``shader.navi21.s``). Only a hint: the target is never taken from either silently."""
    family = registry.declared_family(text)
    if family:
        return f"the text names {family.upper()}: --arch {family}"
    known = all_archs()
    named = [w for w in _NAME_WORD.findall(Path(file).name.lower()) if w in known]
    if not file.startswith("<") and named:
        return f"the file name says {named[-1]}: --arch {named[-1]}"
    return "e.g. --arch gfx902"


def source_arg(path_or_text: str | Path | None, path: str | Path | None) -> str | Path:
    """The one input of an API call: ``path_or_text`` (a ``Path`` is a file, a ``str`` is text) or ``path=``."""
    if path is not None:
        if path_or_text is not None:
            raise TypeError("give the input either as text/Path or as path=, not both")
        return Path(path)
    if path_or_text is None:
        raise TypeError("no input: give ISA text (str), a file (pathlib.Path) or path=")
    check_not_a_missing_path(path_or_text)
    return path_or_text


#: what an input file's name ends in (ISA text, listings, code objects and binaries, sources)
_INPUT_SUFFIXES = (".s", ".asm", ".isa", ".txt", ".dump", ".co", ".hsaco", ".o", ".so", ".hipfb", ".out", ".elf",
                   ".cl", ".hip", ".ll", ".bc", ".comp", ".frag", ".vert", ".geom", ".tesc", ".tese", ".glsl",
                   ".hlsl", ".hlsli", ".fx")


def check_not_a_missing_path(source: str | Path) -> None:
    """A ``str`` that can only be a file name (one line, no blanks, a path separator or an input file's suffix)
    but names no file raises :class:`~isalens.errors.MissingPathError`, a :class:`FileNotFoundError` (no ISA
    text looks like that: parsing it would give a misleading "unknown instruction")."""
    if not isinstance(source, str) or "\n" in source:
        return
    name = source.strip()
    if not name or any(c.isspace() for c in name):
        return
    if ("/" in name or "\\" in name or name.lower().endswith(_INPUT_SUFFIXES)) and not os.path.lexists(name):
        raise MissingPathError(name)


def load(path_or_text: str | Path | None = None, arch: str | None = None, *, path: str | Path | None = None,
         dialect: str | None = None, ignore_unknown: bool = False, wave_size: int | None = None,
         spec: ArchSpec | None = None, declare: Declare | None = None,
         notes: tuple[Diagnostic, ...] = ()) -> LoadedModule:
    """Parse ISA text (a ``str``) or a text file (a :class:`~pathlib.Path`, or ``path=`` as a string) into a
    :class:`LoadedModule`. A ``str`` is always text: one that names an existing file is refused with a
    message saying to pass a ``Path``, never read as a file. (Requests come through
    :func:`isalens.engine.load_input`, which also reads sources and binaries.)

    ``arch`` may be omitted when the input names its target (``.amdgcn_target``); when both are given
    they must agree. ``spec``: the request's target already resolved (a front end compiled for it), used
    instead of resolving ``arch`` again; ``declare`` and ``notes``: what the front end that made the text knows
    (:func:`finish_module`).
    """
    text, file = read_input(source_arg(path_or_text, path))
    return _parse_text(text, file, arch=spec.name if spec is not None else arch, spec=spec, dialect=dialect,
                       ignore_unknown=ignore_unknown, wave_size=wave_size, declare=declare, notes=notes)


def _parse_text(text: str, file: str, *, arch: str | None, spec: ArchSpec | None, dialect: str | None,
                ignore_unknown: bool, wave_size: int | None, declare: Declare | None,
                notes: tuple[Diagnostic, ...]) -> LoadedModule:
    """ISA text -> the readers -> :func:`finish_module`, with every check on the text and its target first."""
    if not text.strip():
        raise InputError("empty input: no instructions", file=file, line=1, code="empty")
    if dialect is not None and dialect not in registry.DIALECTS:
        raise InputError(f"unknown dialect '{dialect}' (choose from {', '.join(registry.DIALECTS)})",
                         file=file, code="dialect")
    dialect = dialect or registry.sniff(text)
    declared = registry.declared_target(text, dialect)
    if arch and declared and same_target(arch, declared) is False:
        raise ArchError(f"--arch {arch} conflicts with the input's target {declared}", file=file,
                        code="arch-conflict")
    name = arch or declared
    if not name and _is_vliw(text):
        raise InputError("VLIW (R600-Cayman) code: `isalens vliw` (or `isalens analyze`) reads it; this command "
                         "reads GCN, CDNA and RDNA ISA", file=file, code="vliw-input")
    why_not = registry.not_code(text, dialect)
    if why_not:
        raise InputError(why_not, file=file, code="no-code")
    if not name:
        raise ArchError(f"the input does not name its target: pass --arch ({_target_hint(text, file)})",
                        file=file, code="arch-required")
    if spec is None:
        spec = resolve_arch(name, file=file)
    check_wave_size(spec, wave_size, file=file)
    step(f"reading {file}")
    module = registry.parse(text, file=file, target=target_info(spec, wave_size), dialect=dialect,
                            ignore_unknown=ignore_unknown, packed_workitem_ids=spec.packed_workitem_ids)
    return finish_module(module, spec, declare=declare, notes=notes, llvm_major=llvm_major_of(text))


def finish_module(module: Module, spec: ArchSpec, *, declare: Declare | None = None,
                  notes: tuple[Diagnostic, ...] = (), llvm_major: int | None = None) -> LoadedModule:
    """The step every reader ends in (ISA text, a RADV dump, a code object): the declared wave sizes checked
    against the target, what a bare disassembly leaves out filled in (:mod:`isalens.engine.disassembly`), what a
    front end knows about each kernel attached (``declare``: RADV's stage, workgroup and statistics) with its
    ``notes``, and the call graph linked (analysis/calls.py) so that callers carry their callees' registers,
    under the calling convention of ``llvm_major``, the LLVM release the input names as its producer."""
    for kernel in module.kernels:  # a wave size the input declares must exist on the target too
        check_wave_size(spec, kernel.wave_size, file=module.file, what=f"kernel {kernel.name} declares")
    module = listing_gaps(module)
    if declare is not None:
        module = records.replace(module, kernels=tuple(declare(k) for k in module.kernels))
    solved: Solved = {}
    module = link_calls(module, has_flat_address_space=spec.generation >= 7,
                        unified_vgpr_file=spec.unified_vgpr_file,
                        scratch_descriptor=uses_scratch_descriptor(spec.generation, spec.architected_flat_scratch),
                        llvm_major=llvm_major, solved=solved)
    if notes:
        module = records.replace(module, diagnostics=(*module.diagnostics, *notes))
    # the analysis passes start from what linking solved (kept only for the kernel objects it solved)
    return LoadedModule(module, spec, solved)


def analyze_kernel(kernel: LoadedKernel) -> KernelAnalysis:
    """Run every analysis pass over one loaded kernel."""
    return kernel.analyze()
