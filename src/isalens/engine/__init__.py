"""The one orchestrator: a request -> load (ISA text, a source through a real compiler, VLIW code) -> the
analysis passes -> one report model per file. The command line and the Python API both call it, so
``isalens.analyze(path).to_dict()`` is exactly what ``isalens analyze --json`` prints.

Heavy layers (compiler front ends, VLIW) are imported only when an input needs them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from isalens import records
from isalens.engine.load import (
    LoadedKernel,
    LoadedModule,
    check_not_a_missing_path,
    source_arg,
    text_name,
    with_launch_size,
)
from isalens.engine.load import load as load_text
from isalens.engine.pool import each_in_order
from isalens.errors import InputError, IsalensError
from isalens.names import name_matches
from isalens.progress import step
from isalens.records import dataclass, field
from isalens.report.model import KernelReport, LiveRegReport, livereg_report

if TYPE_CHECKING:
    import pandas

    from isalens.analysis.vliw import VliwAnalysis
    from isalens.ir.diagnostics import Diagnostic

__all__ = ["Analysis", "FileResult", "LoadOptions", "analyze", "analyze_file", "compare_variant", "compare_variants",
           "load_input", "load_module", "read_stdin", "report_of", "source_of", "vliw_dialect_of"]

#: the optional passes `analyze` runs beside the core ones (docs/reports.md)
ANALYZE_PASSES = ("stats", "timing", "advice")

#: suffixes the source front ends compile (clang: OpenCL C, HIP, LLVM IR; RADV: GLSL/HLSL); kept here so a
#: plain ISA file never imports the front ends
SOURCE_SUFFIXES = (".cl", ".hip", ".ll", ".bc", ".comp", ".frag", ".vert", ".glsl", ".hlsl", ".hlsli", ".fx")


@dataclass(frozen=True, slots=True)
class LoadOptions:
    """How to read one input: target, dialect, kernel choice, and the options of the source front ends."""

    arch: str | None = None
    dialect: str | None = None
    kernel: str | None = None
    wave: int | None = None
    ignore_unknown: bool = False
    defines: tuple[str, ...] = ()
    include_dirs: tuple[str, ...] = ()
    cl_std: str | None = None
    opt: str | None = None
    stage: str | None = None
    entry: str = "main"
    #: shader language when the suffix only names the stage (*.frag holding HLSL): "glsl" or "hlsl"
    lang: str | None = None
    keep_asm: Path | None = None
    #: what clang adds for source lines: ``lines`` (-gline-tables-only, same code), ``full`` (-g) or ``none``
    debug_info: str = "lines"
    #: more directories to find source files in (``--source-dir``), after the input's own directory
    source_dirs: tuple[str, ...] = ()
    #: the launch's workgroup size (``--wg``), for occupancy where the code requires none
    workgroup: tuple[int, int, int] | None = None
    #: binaries: ``ours`` (isalens' decoder, llvm-objdump as its fallback) or ``llvm`` (llvm-objdump)
    disassembler: str = "ours"


@dataclass(frozen=True, slots=True)
class FileResult:
    """One input's outcome: a GCN/CDNA/RDNA report, a VLIW analysis, or the error that stopped it."""

    source: str
    report: LiveRegReport | None = None
    vliw: VliwAnalysis | None = None
    error: IsalensError | None = None

    def to_dict(self, *, lines: bool = True, stream: bool = False) -> dict[str, Any]:
        """This file's entry of the document (``stream``: per-line arrays made while ``report.serialize.write``
        writes); a failed file has ``error`` and no kernels."""
        if self.report is not None:
            from isalens.report.json import report_dict
            return report_dict(self.report, lines=lines, stream=stream)
        if self.vliw is not None:
            from isalens.report.vliw import vliw_dict
            return vliw_dict(self.vliw)
        assert self.error is not None
        from isalens.report.document import error_entry
        d = self.error.diagnostic()
        return error_entry(self.source, d.code, d.line, d.message, where=d.file)


@dataclass(frozen=True, slots=True)
class Analysis:
    """The results of one ``analyze`` request, one per input file, in the order given."""

    files: tuple[FileResult, ...] = field(default=())

    @property
    def failed(self) -> tuple[FileResult, ...]:
        return tuple(f for f in self.files if f.error is not None)

    def to_dict(self, *, lines: bool = True, stream: bool = False) -> dict[str, Any]:
        """The schema-3 document: ``{"schema", "isalens_version", "command", "files": [...]}``, one entry per
        input in order (failed files carry ``error``)."""
        from isalens.report.document import document
        return document("analyze", files=[f.to_dict(lines=lines, stream=stream) for f in self.files])

    def frame(self, what: str) -> pandas.DataFrame:
        """``"lines"``, ``"source_lines"`` or ``"loops"`` of every file and kernel as a pandas DataFrame (the
        values of :meth:`to_dict`, led by ``file`` and ``kernel``; nested objects as dotted columns). pandas is
        the ``notebook`` extra."""
        from isalens.report.frames import frame
        return frame(self.to_dict(), what)

    def _repr_html_(self) -> str:
        """A notebook's view: each file's kernels with their key figures and live-VGPR chart."""
        from isalens.report.notebook import analysis_html
        return analysis_html(self.to_dict())


def source_of(file: str, stdin_text: str | None = None) -> str | Path:
    """The text for ``-`` (standard input), else the path."""
    if file == "-":
        return read_stdin() if stdin_text is None else stdin_text
    return Path(file)


def read_stdin() -> str:
    """Standard input as text, at most the input cap (``yes | isalens livereg -`` ends with a message)."""
    import sys

    from isalens.reading import StdinText, max_input_size, size_text

    cap = max_input_size()
    stream = getattr(sys.stdin, "buffer", None)
    # a text stream without .buffer: tests and IDEs replace sys.stdin with one
    data: bytes | str = stream.read(cap + 1) if stream is not None else sys.stdin.read(cap + 1)
    if len(data) > cap:
        raise InputError(f"standard input is over the {size_text(cap)} input cap (--max-input-size)",
                         file=StdinText.name, code="too-large")
    if isinstance(data, str):
        return StdinText(data)
    try:
        return StdinText(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError("not UTF-8 text: expected ISA text", file=StdinText.name,
                         line=data[:exc.start].count(b"\n") + 1, code="binary") from None


def _is_source(source: str | Path) -> bool:
    return isinstance(source, Path) and source.suffix.lower() in SOURCE_SUFFIXES


def load_input(source: str | Path, options: LoadOptions = LoadOptions(),
               ) -> tuple[LoadedModule, tuple[LoadedKernel, ...], dict[str, str | int]]:
    """Load one input: the module, the kernels chosen (``options.kernel``) and the compiler's own figures; with
    ``options.workgroup``, every kernel carries that launch size."""
    module, kernels, stats = _load_input(source, options)
    if options.workgroup is None:
        return module, kernels, stats
    launched = with_launch_size(module, options.workgroup)
    chosen = {id(k.ir) for k in kernels}
    return launched, tuple(new for old, new in zip(module.kernels, launched.kernels, strict=True)
                           if id(old.ir) in chosen), stats


def _load_input(source: str | Path, options: LoadOptions,
                ) -> tuple[LoadedModule, tuple[LoadedKernel, ...], dict[str, str | int]]:
    stats: dict[str, str | int] = {}
    if isinstance(source, Path) and _is_binary(source):
        # code objects, offload bundles, .hip_fatbin sections: --arch picks the code objects, --kernel is a glob
        from isalens.engine.binary import load_binary
        module = load_binary(source, target=options.arch, kernel=options.kernel,
                             ignore_unknown=options.ignore_unknown, wave_size=options.wave,
                             disassembler=options.disassembler)
        return module, module.kernels, stats
    if _is_source(source):
        from isalens.engine.sources import load_source
        module, stats = load_source(
            source, options.arch, stage=options.stage, entry=options.entry, defines=options.defines,
            include_dirs=options.include_dirs, cl_std=options.cl_std, opt=options.opt, keep_asm=options.keep_asm,
            wave=options.wave, ignore_unknown=options.ignore_unknown, lang=options.lang,
            debug_info=options.debug_info)
    else:
        module = load_text(source, options.arch, dialect=options.dialect, ignore_unknown=options.ignore_unknown,
                           wave_size=options.wave)
        if module.ir.dialect == "radv":  # a RADV_DEBUG=shaders dump carries the driver's own statistics
            from isalens.frontends.radv import dump_statistics
            stats = dump_statistics(module.ir)
    kernels = module.kernels
    if options.kernel:
        chosen = tuple(k for k in kernels if name_matches(options.kernel, k.name))
        if not chosen:
            names = ", ".join(k.name for k in kernels)
            raise IsalensError(f"no kernel named '{options.kernel}' (found: {names})", file=module.ir.file)
        taken = set(map(id, chosen))
        for k in kernels:
            if id(k) not in taken:
                k.release()  # the linking's solutions of kernels not analysed: nothing reads them
        kernels = chosen
    return module, kernels, stats


def load_module(path_or_text: str | Path | None = None, arch: str | None = None, *, path: str | Path | None = None,
         dialect: str | None = None, ignore_unknown: bool = False, wave_size: int | None = None,
         **options: Any) -> LoadedModule:
    """The parsed kernels of one input (``isalens.load``): ISA text (a ``str``) or a file (a
    :class:`~pathlib.Path`, or ``path=`` as a string: ISA text, a source a compiler reads, a code object or
    bundle). A ``str`` is always text: one that names an existing file is refused, never read as a file.
    ``arch`` may be omitted when the input names its target; further keywords are :class:`LoadOptions`."""
    opts = LoadOptions(arch=arch, dialect=dialect, ignore_unknown=ignore_unknown, wave=wave_size, **options)
    return load_input(source_arg(path_or_text, path), opts)[0]


def livereg(source: str | Path, options: LoadOptions = LoadOptions(), *, longest: int = 10,
            extra: Sequence[str] = ()) -> LiveRegReport:
    """The report model of one ISA or source input (``extra``: optional passes such as ``stats``)."""
    if longest < 0:
        raise IsalensError("--longest must be >= 0")
    from isalens.engine.source_text import check_source_dirs
    search = check_source_dirs(options.source_dirs)  # before the work: a mistyped directory fails at once
    module, kernels, stats = load_input(source, options)
    # source text is read from the input's own directory (for a compiled source: the source's, not the
    # temporary assembly's), then from each --source-dir
    own = (source.parent,) if isinstance(source, Path) else ()
    return report_of(module, kernels, stats, longest=longest, extra=extra, source_dirs=(*own, *search))


def report_of(module: LoadedModule, kernels: Sequence[LoadedKernel], compiler_stats: dict[str, str | int],
              *, longest: int = 10, extra: Sequence[str] = (), source_dirs: Sequence[Path] = (),
              leave_out: Sequence[str] = ()) -> LiveRegReport:
    """Run the passes over ``kernels`` of ``module`` and collect the report model (``extra``: optional passes;
    ``leave_out``: passes not run, their lists empty); the text of source lines is read only inside
    ``source_dirs`` (:func:`~isalens.engine.source_text.source_texts`; none given: none is read)."""
    analyses = [k.analyze(extra=extra, leave_out=leave_out) for k in kernels]
    step("building the report")
    report = livereg_report(analyses, file=module.ir.file,
                            dialect=module.ir.dialect, diagnostics=module.ir.diagnostics, longest_count=longest,
                            compiler_stats=compiler_stats, timing_requested="timing" in extra)
    if not any(k.source_lines for k in report.kernels):
        return report
    from isalens.engine.source_text import missing_text_diagnostics, source_texts

    with_text = tuple(records.replace(k, source_text=source_texts(k.source_lines, source_dirs))
                      for k in report.kernels)
    missing: list[Diagnostic] = []
    for k, loaded in zip(with_text, kernels, strict=True):
        # a compiled source's instruction lines are its temporary assembly's: no line of the file named
        lines = () if module.compiled else tuple(ins.line for ins in loaded.ir.instructions)
        missing.extend(missing_text_diagnostics(k.source_lines, k.source_text, source_dirs, module.ir.file, lines))
    return records.replace(report, kernels=with_text, diagnostics=(*report.diagnostics, *missing))


def compare_variant(source: str | Path, options: LoadOptions = LoadOptions()) -> tuple[KernelReport, ...]:
    """One build of ``compare``: every kernel of ``source`` (or those ``options.kernel`` names), with statistics
    and without their listings (the figures, summaries and ``vgpr_counts`` stay); kernels pair by name in
    ``report.compare.pair_kernels``."""
    report = livereg(source, options, longest=0, extra=("stats",))
    return tuple(k.without_listing() for k in report.kernels)


def _compare_task(args: tuple[str | Path, LoadOptions]) -> tuple[KernelReport, ...]:
    return compare_variant(*args)


def compare_variants(sources: Sequence[str | Path], options: LoadOptions = LoadOptions(), *,
                     jobs: int | None = None) -> tuple[tuple[KernelReport, ...], ...]:
    """:func:`compare_variant` of every source, several at once on every core (``jobs``); the first failing
    source (in the order given) raises its error."""
    return tuple(each_in_order(_compare_task, [(s, options) for s in sources], jobs, "variants analysed"))


def _is_binary(path: Path) -> bool:
    from isalens.binary.bundle import is_binary_file  # reads the first bytes only; the readers load on use
    return is_binary_file(path)


def vliw_dialect_of(source: str | Path) -> str | None:
    """The VLIW dialect (``llvm``, ``cal``) of an ISA text or text file, None for GCN text, source files and
    binaries (which are never VLIW: they are not read as text here)."""
    if _is_source(source) or (isinstance(source, Path) and _is_binary(source)):
        return None
    from isalens.engine.load import read_input
    from isalens.isa.vliw_sniff import vliw_dialect  # not the VLIW engine: most inputs are GCN

    return vliw_dialect(read_input(source)[0])


def analyze_file(source: str | Path, options: LoadOptions = LoadOptions(), *, longest: int = 10) -> FileResult:
    """Everything ``isalens analyze`` shows for one input; a user error becomes the result's ``error``."""
    name = source if isinstance(source, Path) else Path(text_name(source))
    try:
        if vliw_dialect_of(source):
            from isalens.engine.vliw import analyze_vliw, load_vliw
            return FileResult(str(name), vliw=analyze_vliw(load_vliw(source, options.dialect, target=options.arch)))
        return FileResult(str(name), report=livereg(source, options, longest=longest, extra=ANALYZE_PASSES))
    except IsalensError as exc:
        return FileResult(str(name), error=exc)


def _analyze_task(args: tuple[str | Path, LoadOptions, int, bool]) -> FileResult:
    source, options, longest, listing = args
    result = analyze_file(source, options, longest=longest)
    if listing or result.report is None:
        return result
    # a worker sends its result back pickled: without the rows (and the analysis behind them) a 10k-line
    # file's result is 1 MB instead of 9, and the parent unpickles it in 0.05 s instead of 0.12
    return records.replace(result, report=records.replace(
        result.report, kernels=tuple(k.without_listing() for k in result.report.kernels)))


def analyze(sources: str | Path | Sequence[str | Path] | None = None, options: LoadOptions | None = None, *,
            path: str | Path | None = None, longest: int = 10, jobs: int | None = None, listing: bool = True,
            **load: Any) -> Analysis:
    """Analyse one or more inputs (paths, or ISA text); several files run on every core (``jobs``).
    ``listing=False`` drops each kernel's per-line rows (:meth:`KernelReport.without_listing`): what the
    text view needs, and much less to carry back from the worker processes.

    Inputs: a :class:`~pathlib.Path` is a file (ISA text, a source, a binary), a ``str`` is ISA text (one that
    names an existing file is refused, never read as a file), ``path=`` names one file as a string.
    Load options come as ``options`` or as keywords (``arch="gfx902"``, ``kernel=...``: see :class:`LoadOptions`).
    A file that fails does not stop the others: its :class:`FileResult` carries the error.
    """
    if path is not None:
        if sources is not None:
            raise TypeError("give the inputs either as sources or as path=, not both")
        sources = Path(path)
    if sources is None:
        raise TypeError("no input: give ISA text (str), files (pathlib.Path) or path=")
    if options is None:
        options = LoadOptions(**load)
    elif load:
        raise TypeError("give load options either as `options` or as keywords, not both")
    items: list[str | Path] = ([sources] if isinstance(sources, (str, Path)) else list(sources))
    if not items:
        raise InputError("no input files")
    for item in items:
        check_not_a_missing_path(item)
    return Analysis(tuple(each_in_order(_analyze_task, [(s, options, longest, listing) for s in items], jobs,
                                        "files analysed")))
