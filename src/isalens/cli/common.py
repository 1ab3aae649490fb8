"""What every command shares: exit codes, the input options, output helpers. Nothing heavy is imported here,
so ``isalens --help`` stays fast."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from isalens.engine import LoadOptions
    from isalens.errors import Diagnostic

EXIT_OK = 0
EXIT_INPUT = 2
EXIT_INTERNAL = 3

#: input formats of the GCN/CDNA/RDNA readers (isalens.isa.registry.DIALECTS; a test keeps the two equal)
DIALECTS = ("llvm", "objdump", "listing", "aco", "radv", "bare")


def add_source_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("source files (.cl .hip .ll .bc through clang; .comp .frag .vert .hlsl through RADV/ACO)")
    g.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VAL]", help="preprocessor define")
    g.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR", help="include directory")
    g.add_argument("--cl-std", help="OpenCL C standard, e.g. CL1.2 or CL2.0")
    g.add_argument("-O", dest="opt", metavar="LEVEL", help="clang optimisation level (0-3, s, z)")
    g.add_argument("--stage", choices=("comp", "frag", "vert"), help="shader stage (default: from the suffix)")
    g.add_argument("--entry", default="main", help="shader entry point (default main)")
    g.add_argument("--lang", choices=("glsl", "hlsl"), help="shader language (default: from the suffix; *.frag "
                                                            "etc. are GLSL)")
    g.add_argument("--keep-asm", type=Path, metavar="FILE",
                   help="save the assembly that was analysed (of one compiled source file)")
    debug = g.add_mutually_exclusive_group()
    debug.add_argument("--no-debug-info", dest="debug_info", action="store_const", const="none", default="lines",
                       help="compile without source lines (by default clang adds -gline-tables-only, which maps "
                            "each instruction to its source line and leaves the code unchanged)")
    debug.add_argument("--debug-variables", dest="debug_info", action="store_const", const="full",
                       help="compile with -g: source variables too (at the pressure peak), but with LLVM 19 the "
                            "code may differ from a build without -g (docs/source.md)")


def add_input_file(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="ISA text: clang -S / llc output, llvm-objdump -d, an RGA/driver listing, "
                                "Mesa ACO disassembly, or a bare list of instructions ('-' for stdin); or a "
                                "source file to compile first")


def add_load_options(p: argparse.ArgumentParser) -> None:
    """Options every command that reads ISA or source files shares."""
    p.add_argument("--arch", "--target", help="target, e.g. gfx902, gfx90a, gfx1100, or a name such as raven/navi21 "
                                              "(taken from the input when it says, e.g. .amdgcn_target); for a "
                                              "binary, which code objects to read")
    p.add_argument("--dialect", choices=DIALECTS, help="input format (default: detected)")
    p.add_argument("--kernel", help="analyse only this kernel or function (binaries: a name or shell glob)")
    p.add_argument("--wave", type=int, choices=(32, 64), help="wave size (default: declared, else inferred)")
    add_workgroup_option(p)
    p.add_argument("--ignore-unknown", action="store_true",
                   help="treat unknown instructions as warnings (first operand written, rest read) "
                        "instead of errors; the report says how many were guessed")
    add_disassembler_option(p)
    add_source_options(p)


def add_disassembler_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--disassembler", choices=("ours", "llvm"), default="ours",
                   help="binaries: disassemble code objects with isalens' own decoder (default; llvm-objdump for "
                        "a code object it does not read) or with llvm-objdump")


def add_source_view_options(p: argparse.ArgumentParser) -> None:
    """The source-level views (docs/source.md): inputs compiled with line tables map each instruction back."""
    p.add_argument("--source", action="store_true",
                   help="text: interleave the source lines with their instructions (like objdump -S)")
    p.add_argument("--by-source", action="store_true",
                   help="text: every source line's cost (instructions, bytes, cycles, live registers, memory "
                        "operations), costliest first; the summary shows the top 10")
    p.add_argument("--verbose", action="store_true",
                   help="list every diagnostic (default: one line per distinct message, its count and first lines)")
    add_source_dir_option(p)


def add_source_dir_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--source-dir", dest="source_dirs", action="append", default=[], metavar="DIR",
                   help="also look for source files in DIR (repeatable; after the input's own directory); only "
                        "files inside these directory trees are read")


def add_jobs_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", type=int, metavar="N", help="files analysed at once (default: every core)")


def jobs_of(args: argparse.Namespace) -> int | None:
    """``--jobs``, checked (None: every core)."""
    if args.jobs is not None and args.jobs < 1:
        from isalens.errors import IsalensError
        raise IsalensError("--jobs must be at least 1")
    return args.jobs  # type: ignore[no-any-return]


def add_json_options(p: argparse.ArgumentParser, help_text: str = "print JSON instead of text") -> None:
    p.add_argument("--json", action="store_true", help=help_text)
    p.add_argument("--pretty", action="store_true", help="indent the JSON for people (default: compact)")


def workgroup_size(text: str | None) -> tuple[int, int, int] | None:
    """``--wg``: ``N`` or ``X,Y,Z`` (``X,Y`` too) threads, each at least 1; a one-line usage error otherwise."""
    from isalens.errors import IsalensError

    if text is None:
        return None
    parts = text.split(",")
    try:
        dims = [int(p) for p in parts]
    except ValueError:
        dims = []
    if not 1 <= len(dims) <= 3 or min(dims) < 1 or max(dims) > 1 << 16:
        raise IsalensError(f"--wg: '{text}' is not a workgroup size: N or X,Y,Z threads, each at least 1 (e.g. 256 "
                           "or 16,16,1)", code="usage")
    x, y, z = (*dims, 1, 1)[:3]
    return (x, y, z)


def add_workgroup_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--wg", metavar="N|X,Y,Z",
                   help="the launch's workgroup size, for occupancy where the code requires none (default: the "
                        "compiler's upper bound, max_flat_workgroup_size or 1024, said to be assumed)")


#: the flags that only a compile reads (the source front ends), by the option each sets and its unset value
_COMPILE_FLAGS = (("-D", "defines", ()), ("-I", "include_dirs", ()), ("--cl-std", "cl_std", None), ("-O", "opt", None),
                  ("--stage", "stage", None), ("--entry", "entry", "main"), ("--lang", "lang", None),
                  ("--keep-asm", "keep_asm", None), ("--debug-variables", "debug_info", "lines"))


def note_unused_compile_flags(options: LoadOptions, files: Iterable[str]) -> None:
    """Say once on stderr which compile flags the inputs that are not source files (ISA text, standard input,
    binaries) leave unread: they were ignored without a word (``livereg kernel.s -O0`` analysed the code as
    it was)."""
    given = [flag for flag, name, unset in _COMPILE_FLAGS if getattr(options, name) not in (unset, [], ())]
    if not given:
        return  # (without importing the front ends: ~20 ms of a plain ISA-text run)
    if options.debug_info == "none":
        given[given.index("--debug-variables")] = "--no-debug-info"
    from isalens.engine.sources import is_source
    unread = ["<stdin>" if f == "-" else f for f in files if f == "-" or not is_source(f)]
    if given and unread:
        shown = ", ".join(unread[:3]) + (f" and {len(unread) - 3} more" if len(unread) > 3 else "")
        verb = "applies" if len(given) == 1 else "apply"
        sys.stderr.write(f"isalens: note: {', '.join(given)} {verb} to source files isalens compiles (.cl .hip .ll "
                         f".comp .frag .vert .hlsl ...); ignored for {shown}\n")


def load_options(args: argparse.Namespace) -> LoadOptions:
    """The engine's load options from parsed flags (noting compile flags the inputs leave unread)."""
    options = _load_options(args)
    files = getattr(args, "files", None) or ([args.file] if isinstance(getattr(args, "file", None), str) else [])
    note_unused_compile_flags(options, files)
    if options.keep_asm is not None and len(files) > 1:
        from isalens.engine.sources import is_source
        compiled = [f for f in files if f != "-" and is_source(f)]
        if len(compiled) > 1:  # each compile would overwrite the one file, the last to finish winning
            from isalens.errors import IsalensError
            raise IsalensError(f"--keep-asm keeps one assembly, and {len(compiled)} source files are compiled here "
                               f"({', '.join(compiled[:3])}{' ...' if len(compiled) > 3 else ''}): keep each with "
                               "its own run (isalens livereg FILE --keep-asm OUT.s)", file=str(options.keep_asm),
                               code="usage")
    return options


def _load_options(args: argparse.Namespace) -> LoadOptions:
    from isalens.engine import LoadOptions
    return LoadOptions(arch=args.arch, dialect=args.dialect, kernel=args.kernel, wave=args.wave,
                       ignore_unknown=args.ignore_unknown, defines=tuple(args.defines),
                       include_dirs=tuple(args.include_dirs), cl_std=args.cl_std, opt=args.opt, stage=args.stage,
                       entry=args.entry, lang=args.lang, keep_asm=args.keep_asm,
                       debug_info=getattr(args, "debug_info", "lines"),
                       source_dirs=tuple(getattr(args, "source_dirs", None) or ()),
                       workgroup=workgroup_size(getattr(args, "wg", None)),
                       disassembler=getattr(args, "disassembler", "ours"))


def use_color(choice: str) -> bool:
    return choice == "always" or (choice == "auto" and sys.stdout.isatty())


def write_chunks(chunks: Iterable[str], out: IO[str], batch: int = 2048) -> None:
    """Write text pieces as they are made, ``batch`` at a time (a listing of a million lines never exists
    as one string)."""
    pending: list[str] = []
    for piece in chunks:
        pending.append(piece)
        if len(pending) >= batch:
            out.write("".join(pending))
            pending.clear()
    out.write("".join(pending))


#: what the plotting module (report.plot) writes, by the name's ending
PLOT_ENDINGS = (".png", ".svg")


def check_output_files(*outputs: tuple[Path | None, tuple[str, ...]]) -> None:
    """Refuse output files (``--html``, ``--csv``, ``--plot``: each a path or None, with the endings it may have)
    whose name ends otherwise or whose directory does not exist, before any work: a bad path was said only after
    the whole report had been printed (exit 2, the report on stdout)."""
    from isalens.errors import IsalensError
    for path, suffixes in outputs:
        if path is None:
            continue
        if suffixes and path.suffix.lower() not in suffixes:
            raise IsalensError(f"written as {' or '.join(suffixes)} (by the name's ending)", file=str(path),
                               code="usage")
        if not path.parent.is_dir():
            raise IsalensError(f"cannot write: no such directory {path.parent}", file=str(path), code="io")


def write_output(path: Path, text: str | Callable[[IO[str]], None]) -> None:
    """Write an output file (a string, or a function writing to the open file), or a one-line error naming
    it."""
    from isalens.errors import IsalensError
    try:
        if isinstance(text, str):
            path.write_text(text, encoding="utf-8")
        else:
            with path.open("w", encoding="utf-8") as out:
                text(out)
    except OSError as exc:
        raise IsalensError(f"cannot write: {exc.strerror or exc}", file=str(path), code="io") from None
    sys.stderr.write(f"isalens: wrote {path}\n")


def print_diagnostics(diagnostics: Iterable[Diagnostic], *, verbose: bool = False) -> None:
    """Diagnostics on stderr (for machine-readable output on stdout): one line per distinct message unless
    ``verbose``."""
    from isalens.report.diagnostics import diagnostic_lines
    for line in diagnostic_lines(diagnostics, verbose=verbose):
        sys.stderr.write(line + "\n")
