"""Command line: parse flags, call the API, pick a renderer, map errors to exit codes.

Exit codes: 0 success, 2 bad input or usage (one-line ``file:line: error: ...`` message), 3 internal error.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from isalens import (
    __version__,
    cli_check,
    cli_decode,
    cli_diff,
    cli_list,
    cli_query,
    cli_scan,
    cli_toolchain,
    cli_vliw,
)
from isalens.api import check_arch_data, compute_occupancy, load, plan_tiles, resolve_arch
from isalens.api_binary import is_binary_file, load_binary
from isalens.api_frontends import ToolchainMissingError, is_source, load_source
from isalens.api_stats import kernel_stats
from isalens.api_vliw import vliw_dialect
from isalens.arch.loader import all_archs
from isalens.errors import IsalensError
from isalens.ir.registers import RegFile
from isalens.isa.registry import DIALECTS
from isalens.report.compare import Variant, compare_dict, render_compare_html, render_compare_text
from isalens.report.csv import render_csv
from isalens.report.html import render_html
from isalens.report.json import render_json
from isalens.report.model import LiveRegReport, livereg_report
from isalens.report.occupancy import (
    curves_dict,
    occupancy_dict,
    render_occupancy_text,
    render_tiles_text,
    tile_dict,
)
from isalens.report.plot import PlotUnavailable, plot_occupancy, plot_pressure
from isalens.report.rga import render_rga
from isalens.report.stats import render_stats_text
from isalens.report.text import render_text

EXIT_OK = 0
EXIT_INPUT = 2
EXIT_INTERNAL = 3

_REG_FILES = {"vgpr": RegFile.VGPR, "sgpr": RegFile.SGPR, "agpr": RegFile.AGPR}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"isalens: error: {message}\n")
        raise SystemExit(EXIT_INPUT)


def _add_source_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("source files (.cl .hip .ll .bc through clang; .comp .frag .vert .hlsl through RADV/ACO)")
    g.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VAL]", help="preprocessor define")
    g.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR", help="include directory")
    g.add_argument("--cl-std", help="OpenCL C standard, e.g. CL1.2 or CL2.0")
    g.add_argument("-O", dest="opt", metavar="LEVEL", help="clang optimisation level (0-3, s, z)")
    g.add_argument("--stage", choices=("comp", "frag", "vert"), help="shader stage (default: from the suffix)")
    g.add_argument("--entry", default="main", help="shader entry point (default main)")
    g.add_argument("--keep-asm", type=Path, metavar="FILE", help="save the assembly that was analysed")


def _add_load_options(p: argparse.ArgumentParser) -> None:
    """Options every command that reads ISA or source files shares."""
    p.add_argument("--arch", "--target", help="target, e.g. gfx902, gfx90a, gfx1100, or a name such as raven/navi21 "
                                  "(taken from the input when it says, e.g. .amdgcn_target)")
    p.add_argument("--dialect", choices=DIALECTS, help="input format (default: detected)")
    p.add_argument("--kernel", help="analyse only this kernel or function (binaries: a name or shell glob)")
    p.add_argument("--wave", type=int, choices=(32, 64), help="wave size (default: declared, else inferred)")
    p.add_argument("--ignore-unknown", action="store_true",
                   help="treat unknown instructions as warnings (first operand written, rest read) "
                        "instead of errors; the report says how many were guessed")
    _add_source_options(p)


def _add_input_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="ISA text: clang -S / llc output, llvm-objdump -d, an RGA/driver listing, "
                                "Mesa ACO disassembly, or a bare list of instructions ('-' for stdin); or a "
                                "source file to compile first")
    _add_load_options(p)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="isalens",
        description="Static analysis of AMD GPU ISA: register liveness and pressure, checked against real "
                    "compilers.",
    )
    parser.add_argument("--version", action="version", version=f"isalens {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    lr = sub.add_parser(
        "livereg", help="live registers per instruction, pressure peaks, lifetimes, requested/allocated",
        description="Live-register analysis: for every instruction the registers live, written (^), read (v) "
                    "or both (x); the peak and what is live there; the longest live ranges; requested, "
                    "allocated and compiler-declared register counts.",
    )
    _add_input_options(lr)
    lr.add_argument("--reg", choices=tuple(_REG_FILES), default="vgpr", help="register file to map (default vgpr)")
    out = lr.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON (schema 1) instead of text")
    out.add_argument("--rga", action="store_true", help="print Radeon GPU Analyzer's livereg text format")
    lr.add_argument("--summary", action="store_true", help="text: omit the per-line listing")
    lr.add_argument("--longest", type=int, default=10, metavar="N", help="how many longest live ranges (10)")
    lr.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour the text view")

    an = sub.add_parser(
        "analyze", help="one-stop report: resources, occupancy, pressure peak, lifetimes, instruction mix",
        description="Analyse every kernel of one or more ISA files: registers requested/allocated/declared, "
                    "occupancy and its limiter, the pressure peak and what is live there, the longest live ranges, "
                    "wasted 16-bit halves, instructions by class and diagnostics.",
    )
    an.add_argument("files", nargs="+", metavar="FILE", help="ISA text or source files (see `isalens livereg --help`)")
    _add_load_options(an)
    an.add_argument("--json", action="store_true", help="print JSON (schema 1, as livereg, per file)")
    an.add_argument("--csv", type=Path, metavar="OUT.csv", help="write per-line live counts as CSV")
    an.add_argument("--html", type=Path, metavar="OUT.html",
                    help="write a self-contained interactive report (chart, listing, register highlighting)")
    an.add_argument("--plot", type=Path, metavar="OUT.png|OUT.svg",
                    help="draw live VGPRs per instruction with occupancy thresholds (needs matplotlib)")
    an.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour the text view")

    cmp_ = sub.add_parser(
        "compare", help="variants side by side: registers, occupancy, size, LDS forms, overlaid pressure",
        description="Compare kernels (one per file, or --kernel) side by side: VGPR/SGPR peak, requested and "
                    "allocated, occupancy, instruction count, code bytes, LDS reads/writes by form, packed fp16 "
                    "ops, conversions, literals; and overlaid pressure curves.",
    )
    cmp_.add_argument("files", nargs="+", metavar="FILE", help="ISA text files, one variant each")
    cmp_.add_argument("--labels", help="comma-separated names for the variants (default: file names)")
    _add_load_options(cmp_)
    cmp_.add_argument("--json", action="store_true", help="print JSON")
    cmp_.add_argument("--html", type=Path, metavar="OUT.html", help="write a self-contained page: table and chart")
    cmp_.add_argument("--plot", type=Path, metavar="OUT.png|OUT.svg",
                      help="overlay the pressure curves (absolute index); OUT-normalised.* aligns lengths")

    occ = sub.add_parser(
        "occupancy", help="waves per SIMD from registers, LDS and workgroup size; the limiter; what to change",
        description="Occupancy as LLVM computes it ('; Occupancy:') and as it really is when whole workgroups must "
                    "fit on a CU, the waves each resource allows, the limiter, and how much of each resource to "
                    "remove to reach the next level.",
    )
    occ.add_argument("--arch", required=True, help="target, e.g. gfx902, gfx90a, gfx1100")
    occ.add_argument("--vgprs", type=int, required=True, help="VGPRs per thread (architectural)")
    occ.add_argument("--agprs", type=int, default=0, help="AGPRs per thread (CDNA)")
    occ.add_argument("--sgprs", type=int, default=0, help="SGPRs per wave incl. VCC etc. (limits only before gfx10)")
    occ.add_argument("--lds", type=int, default=0, help="LDS bytes per workgroup")
    occ.add_argument("--wg", type=int, help="threads per workgroup (default: 1024, what LLVM assumes)")
    occ.add_argument("--wave", type=int, choices=(32, 64), help="wave size (default: the target's)")
    occ.add_argument("--mode", choices=("cu", "wgp"), help="gfx10+: CU or WGP mode (default: WGP, as LLVM)")
    occ.add_argument("--json", action="store_true", help="print JSON")
    occ.add_argument("--curves", action="store_true", help="JSON: add occupancy vs VGPRs, LDS and workgroup size")
    occ.add_argument("--plot", type=Path, metavar="OUT.png|OUT.svg",
                     help="draw occupancy vs VGPRs, LDS and workgroup size (needs matplotlib)")

    tile = sub.add_parser("tile", help="LDS tile planner for neighbourhood filters",
                          description="Loads, border overhead and LDS bytes of a tile plus its border, and a table "
                                      "over candidate tile sizes.")
    tile.add_argument("--dims", required=True, help="tile of outputs: 64, 16x16 or 8x8x8")
    tile.add_argument("--radius", type=int, default=1, help="border width in items (default 1)")
    tile.add_argument("--bytes-per-item", type=int, default=4, help="bytes per staged item (default 4)")
    tile.add_argument("--arch", help="target, for LDS allocation and groups per CU")
    tile.add_argument("--json", action="store_true", help="print JSON")

    cli_vliw.register(sub)
    cli_toolchain.register(sub)
    cli_decode.register(sub)
    cli_list.register(sub)
    cli_scan.register(sub)
    cli_query.register(sub)
    cli_diff.register(sub)
    cli_check.register(sub)

    arch = sub.add_parser("arch", help="list, show or check the known targets")
    arch.add_argument("action", choices=("list", "show", "check"), nargs="?", default="list",
                      help="list targets, show one, or check the data files for consistency")
    arch.add_argument("name", nargs="?", help="target to show")
    return parser


def _source(file: str) -> str | Path:
    """Standard input's text for ``-``, else the path (a missing file is the API's clear error)."""
    if file == "-":
        return sys.stdin.read()
    return Path(file)


def _cmd_livereg(args: argparse.Namespace) -> int:
    if args.longest < 0:
        raise IsalensError("--longest must be >= 0")
    report = _livereg_for(_source(args.file), args, longest=args.longest)
    if args.rga and len(report.kernels) > 1:
        raise IsalensError("--rga prints one kernel; choose it with --kernel (found: "
                           + ", ".join(k.name for k in report.kernels) + ")", file=args.file)
    file = _REG_FILES[args.reg]
    if args.json:
        sys.stdout.write(render_json(report))
    elif args.rga:
        if file is RegFile.AGPR:
            raise IsalensError("RGA's format has VGPR and SGPR modes only")
        sys.stdout.write(render_rga(report.kernels[0], file))
    else:
        color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
        sys.stdout.write(render_text(report, file, color=color, listing=not args.summary))
    if args.json or args.rga:
        for diag in report.diagnostics:
            sys.stderr.write(diag.format() + "\n")
    return EXIT_OK


def _livereg_for(source: str | Path, args: argparse.Namespace, longest: int = 10,
                 with_stats: bool = False) -> LiveRegReport:
    stats: dict[str, str | int] = {}
    # --- binaries (code objects, offload bundles, .hip_fatbin of executables/libraries): the engine should call
    # api_binary.load_binary the same way; --kernel there is a name or glob, --arch/--target picks the code objects
    binary = isinstance(source, Path) and is_binary_file(source)
    if binary:
        assert isinstance(source, Path)
        module = load_binary(source, target=args.arch, kernel=args.kernel, ignore_unknown=args.ignore_unknown,
                             wave_size=args.wave)
    # --- end binaries
    elif isinstance(source, Path) and is_source(source):
        module, stats = load_source(
            source, args.arch, stage=args.stage, entry=args.entry, defines=args.defines,
            include_dirs=args.include_dirs, cl_std=args.cl_std, opt=args.opt, keep_asm=args.keep_asm,
            wave=args.wave, ignore_unknown=args.ignore_unknown)
    else:
        module = load(source, args.arch, dialect=args.dialect, ignore_unknown=args.ignore_unknown,
                      wave_size=args.wave)
    kernels = module.kernels
    if args.kernel and not binary:
        names = [k.name for k in kernels]
        if args.kernel not in names:
            raise IsalensError(f"no kernel named '{args.kernel}' (found: {', '.join(names)})", file=str(source))
        kernels = tuple(k for k in kernels if k.name == args.kernel)
    report = livereg_report([k.analyze() for k in kernels], file=module.ir.file, dialect=module.ir.dialect,
                            diagnostics=module.ir.diagnostics, longest_count=longest, compiler_stats=stats)
    if with_stats:
        report = dataclasses.replace(report, stats=tuple(kernel_stats(k) for k in kernels))
    return report


def _write(path: Path, text: str) -> None:
    """Write an output file, or a one-line error naming it."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise IsalensError(f"cannot write: {exc.strerror or exc}", file=str(path), code="io") from None
    sys.stderr.write(f"isalens: wrote {path}\n")


def _cmd_analyze(args: argparse.Namespace) -> int:
    vliw_files = [f for f in args.files if f != "-" and not is_binary_file(Path(f)) and vliw_dialect(Path(f))]
    if vliw_files:
        # R600-Cayman code gets the VLIW report (slots, clauses, bounds); GCN files the rest of this command
        if len(vliw_files) != len(args.files) or args.html or args.csv or args.plot:
            raise IsalensError("VLIW (R600-Cayman) files are analysed alone and without --html/--csv/--plot; "
                               "see `isalens vliw --help`")
        code = EXIT_OK
        for f in vliw_files:
            code = max(code, cli_vliw.run(argparse.Namespace(file=f, device=None, target=None, fetch_gbs=None,
                                                               dialect=None, json=args.json)))
        return code
    reports = [_livereg_for(_source(f), args, with_stats=True) for f in args.files]
    if args.json:
        docs = [json.loads(render_json(r)) for r in reports]
        sys.stdout.write(json.dumps(docs[0] if len(docs) == 1 else {"schema": 1, "files": docs}, sort_keys=True,
                                    indent=1) + "\n")
    else:
        color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
        for report in reports:
            if len(reports) > 1:
                sys.stdout.write(f"== {report.file}\n")
            sys.stdout.write(render_text(report, RegFile.VGPR, color=color, listing=False))
            for kernel_stats_ in report.stats:
                sys.stdout.write("\n" + render_stats_text(kernel_stats_))
    if args.html is not None:
        if len(reports) > 1:
            raise IsalensError("--html writes one file's report; use `isalens compare` for several files")
        _write(args.html, render_html(reports[0]))
    if args.csv is not None:
        _write(args.csv, "".join(render_csv(r) if i == 0 else render_csv(r).split("\n", 1)[1]
                                 for i, r in enumerate(reports)))
    if args.plot is not None:
        kernels = [k for r in reports for k in r.kernels]
        series = [(k.name if len(reports) == 1 else f"{Path(r.file or '').name}:{k.name}",
                   tuple(row.live_vgpr for row in k.lines)) for r in reports for k in r.kernels]
        first = kernels[0]
        top = max((max(s[1], default=0) for s in series), default=0)
        thresholds: list[tuple[int, str]] = []
        for v, w in first.vgpr_thresholds:
            # label only steps far enough apart to read, within the plotted range
            if w > 1 and v <= top + 16 and (not thresholds or v - thresholds[-1][0] >= max(top, 1) / 12):
                thresholds.append((v, f"above {v} VGPRs: {w - 1} waves"))
        try:
            plot_pressure(series, args.plot, title=f"live VGPRs per instruction ({first.arch})",
                          thresholds=thresholds)
        except (PlotUnavailable, ValueError, OSError) as exc:
            raise IsalensError(str(exc), file=str(args.plot), code="plot") from None
        sys.stderr.write(f"isalens: wrote {args.plot}\n")
    return EXIT_OK


def _cmd_compare(args: argparse.Namespace) -> int:
    labels = [x.strip() for x in args.labels.split(",")] if args.labels else [Path(f).name for f in args.files]
    if len(labels) != len(args.files):
        raise IsalensError(f"--labels names {len(labels)} variants for {len(args.files)} files")
    variants = []
    for label, f in zip(labels, args.files, strict=True):
        report = _livereg_for(_source(f), args, longest=0)
        variants.append(Variant(label, report.kernels[0]))
    if args.json:
        sys.stdout.write(json.dumps(compare_dict(variants), sort_keys=True, indent=1) + "\n")
    else:
        sys.stdout.write(render_compare_text(variants))
    if args.html is not None:
        _write(args.html, render_compare_html(variants))
    if args.plot is not None:
        series = [(v.label, tuple(r.live_vgpr for r in v.kernel.lines)) for v in variants]
        normalised = args.plot.with_name(f"{args.plot.stem}-normalised{args.plot.suffix}")
        try:
            plot_pressure(series, args.plot, title="live VGPRs per instruction")
            plot_pressure(series, normalised, title="live VGPRs per instruction (normalised length)",
                          normalise=True)
        except (PlotUnavailable, ValueError, OSError) as exc:
            raise IsalensError(str(exc), file=str(args.plot), code="plot") from None
        sys.stderr.write(f"isalens: wrote {args.plot} and {normalised}\n")
    return EXIT_OK


def _cmd_occupancy(args: argparse.Namespace) -> int:
    result = compute_occupancy(
        args.arch, vgprs=args.vgprs, sgprs=args.sgprs, agprs=args.agprs, lds_bytes=args.lds,
        workgroup_size=args.wg, wave_size=args.wave, wgp_mode=None if args.mode is None else args.mode == "wgp",
        with_curves=args.curves or args.plot is not None,
    )
    if args.plot is not None:
        current = {"vgprs": args.vgprs, "lds_bytes": args.lds,
                   "workgroup_size": result.occupancy.waves_per_workgroup * result.occupancy.wave_size}
        try:
            plot_occupancy(result.occupancy, result.curves, current, args.plot)
        except (PlotUnavailable, ValueError, OSError) as exc:
            raise IsalensError(str(exc), file=str(args.plot), code="plot") from None
        sys.stderr.write(f"isalens: wrote {args.plot}\n")
    if args.json:
        doc = occupancy_dict(result.occupancy, workgroup_limit=result.workgroup_limit)
        if args.curves:
            doc["curves"] = curves_dict(result.curves)
        sys.stdout.write(json.dumps(doc, sort_keys=True, indent=1) + "\n")
    else:
        assumed = "" if args.wg is not None else " (workgroup size not given: 1024 assumed, as LLVM does)"
        sys.stdout.write(render_occupancy_text(result.occupancy, title=f"occupancy{assumed}"))
    return EXIT_OK


def _parse_dims(text: str) -> tuple[int, ...]:
    try:
        dims = tuple(int(x) for x in text.lower().split("x"))
    except ValueError:
        raise IsalensError(f"--dims {text!r}: expected sizes like 64, 16x16 or 8x8x8") from None
    return dims


def _cmd_tile(args: argparse.Namespace) -> int:
    plan, table = plan_tiles(_parse_dims(args.dims), args.radius, args.bytes_per_item, args.arch)
    if args.json:
        doc = {**tile_dict(plan), "table": [tile_dict(t) for t in table]}
        sys.stdout.write(json.dumps(doc, sort_keys=True, indent=1) + "\n")
    else:
        sys.stdout.write(render_tiles_text(plan, table))
    return EXIT_OK


def _cmd_arch(args: argparse.Namespace) -> int:
    if args.action == "check":
        problems = check_arch_data()
        for problem in problems:
            sys.stderr.write(f"isalens: arch data: {problem}\n")
        sys.stdout.write(f"{len(all_archs())} target names checked: "
                         f"{'ok' if not problems else f'{len(problems)} problem(s)'}\n")
        return EXIT_OK if not problems else EXIT_INPUT
    if args.action == "show":
        if not args.name:
            raise IsalensError("arch show needs a target name, e.g. `isalens arch show gfx90a`")
        spec = resolve_arch(args.name)
        for field in spec.__dataclass_fields__:
            sys.stdout.write(f"{field:28s} {getattr(spec, field)}\n")
        return EXIT_OK
    seen = set()
    for name, spec in sorted(all_archs().items()):
        if spec.name != name or name in seen:
            continue
        seen.add(name)
        aliases = f"  ({', '.join(spec.aliases)})" if spec.aliases else ""
        sys.stdout.write(f"{name:8s} {spec.family:6s} wave{'/'.join(str(w) for w in spec.wave_sizes)}{aliases}\n")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_INPUT
    try:
        if args.command == "livereg":
            return _cmd_livereg(args)
        if args.command == "arch":
            return _cmd_arch(args)
        if args.command == "occupancy":
            return _cmd_occupancy(args)
        if args.command == "analyze":
            return _cmd_analyze(args)
        if args.command == "compare":
            return _cmd_compare(args)
        if args.command == "vliw":
            return cli_vliw.run(args)
        if args.command == "toolchain":
            return cli_toolchain.run(args)
        if args.command == "decode":
            return cli_decode.run(args)
        if args.command == "list":
            return cli_list.run(args)
        if args.command == "scan":
            return cli_scan.run(args)
        if args.command == "query":
            return cli_query.run(args)
        if args.command == "diff":
            return cli_diff.run(args)
        if args.command == "check":
            return cli_check.run(args)
        if args.command == "tile":
            return _cmd_tile(args)
    except ToolchainMissingError as exc:
        sys.stderr.write(f"isalens: {exc}; install it with: {exc.install}\n")
        return EXIT_INPUT
    except IsalensError as exc:
        sys.stderr.write(f"isalens: {exc}\n")
        return EXIT_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug in isalens: one line, traceback only on request
        if os.environ.get("ISALENS_DEBUG"):
            raise
        sys.stderr.write(f"isalens: internal error: {type(exc).__name__}: {exc} "
                         "(please report it; set ISALENS_DEBUG=1 for a traceback)\n")
        return EXIT_INTERNAL
    parser.print_help()
    return EXIT_INPUT
