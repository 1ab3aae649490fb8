"""The ``isalens timing`` command: cycles per loop iteration, the bottleneck, work and roofs of GCN/CDNA/RDNA
code; ``--model aco`` reproduces Mesa ACO's "Latency" and "Inverse Throughput" statistics instead.

Exit codes as in :mod:`isalens.cli`: 0 success, 2 bad input or usage (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from isalens.cli.common import EXIT_OK, add_load_options, load_options
from isalens.errors import InputError

if TYPE_CHECKING:
    from isalens.engine.load import LoadedKernel, LoadedModule

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``timing`` subcommand to ``subparsers`` (the object ``add_subparsers`` returned)."""
    p = subparsers.add_parser(
        "timing", help="static timing: cycles per loop iteration, bottleneck, flops, bytes and roofs",
        description="Per basic block and natural loop, per wave: issue cycles per unit and a latency pass "
                    "honouring s_waitcnt, s_nop and hazards; for W waves per SIMD (occupancy or --waves) the "
                    "cycles per iteration and the bottleneck with its lines; flops by precision, bytes to "
                    "global memory and LDS and, with --device, the compute and bandwidth roofs. --model aco "
                    "reproduces Mesa ACO's Latency and Inverse Throughput statistics.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="ISA listing, or a source file (.cl .hip .comp .frag ...)")
    p.add_argument("--device", help="device for the roofs, e.g. ryzen-5-2400g, mi250x, rx-6900-xt")
    p.add_argument("--waves", metavar="N", help="waves per SIMD (default: the occupancy model's)")
    p.add_argument("--memory-level", choices=("l1", "l2", "mall", "dram"),
                   help="the level every vector load hits; l2, mall, dram: scalar loads miss their cache to it too "
                        "(default: L2 hits, with the range to all misses to DRAM)")
    p.add_argument("--matrix-data", choices=("random", "low-toggle"),
                   help="the data matrix (MFMA) loops multiply, which sets their clock on devices with AMD's "
                        "measured figures (mi300x: 1188 MHz random, 1792 MHz low-toggle such as zeros); "
                        "default: random, with the range to low-toggle")
    p.add_argument("--trip-count", action="append", default=[], metavar="LINE=N",
                   help="trip count of the loop whose header is at LINE (default: 10, stated as assumed)")
    p.add_argument("--what-if", action="append", default=[], metavar="waves=1,2,4|device=a,b",
                   help="re-evaluate under other wave counts and/or devices")
    p.add_argument("--model", choices=("isalens", "aco"), default="isalens",
                   help="isalens (default) or aco: Mesa 22.3's Latency / Inverse Throughput definition")
    add_load_options(p)
    p.add_argument("--lines", action="store_true", help="JSON: per-instruction issue and stall cycles too")
    p.add_argument("--json", action="store_true", help="print JSON")


def _waves(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"--waves expects a whole number of waves per SIMD, not {text!r}", code="usage") from None
    if value < 1:
        raise InputError(f"--waves must be at least 1, not {value}", code="usage")
    return value


def _what_if(specs: list[str]) -> tuple[list[int], list[str]]:
    waves: list[int] = []
    devices: list[str] = []
    for spec in specs:
        key, sep, values = spec.partition("=")
        items = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not items or key not in ("waves", "device"):
            raise InputError(f"--what-if expects waves=N,M or device=A,B, not {spec!r}", code="usage")
        if key == "waves":
            waves.extend(w for w in (_waves(v) for v in items) if w is not None)
        else:
            devices.extend(items)
    return waves, devices


def _kernels(file: str, args: argparse.Namespace) -> tuple[LoadedModule, list[LoadedKernel], dict[str, str | int]]:
    from isalens.engine import load_input, source_of, vliw_dialect_of

    # a binary or a source is never VLIW (read as text, a code object failed as "binary file")
    if file != "-" and vliw_dialect_of(Path(file)):
        raise InputError("VLIW (R600-Cayman) code: its loop figures come from `isalens vliw` (same names)",
                         file=file, code="usage")
    module, kernels, stats = load_input(source_of(file), load_options(args))
    return module, list(kernels), stats


def _aco_docs(file: str, args: argparse.Namespace) -> list[tuple[str, dict[str, Any]]]:
    """ACO mode: a shader is compiled by RADV (ACO's figures beside ours); an ACO listing is re-computed alone."""
    from isalens.engine.aco import aco_statistics, aco_timing_shader, dump_aco_ir  # only this mode needs them
    from isalens.engine.sources import SHADER_SUFFIXES, is_source
    path = Path(file)
    if path.suffix.lower() in SHADER_SUFFIXES or args.lang is not None:
        if not args.arch:
            raise InputError("compiling a shader needs a GPU: pass --arch (e.g. --arch navi21)", file=file,
                             code="arch-required")
        doc = aco_timing_shader(path, args.arch, stage=args.stage, entry=args.entry, defines=args.defines,
                                wave=args.wave, lang=args.lang, include_dirs=args.include_dirs)
        return [(path.stem, doc)]
    if is_source(path):
        raise InputError("--model aco needs a GLSL/HLSL shader (compiled by RADV/ACO) or an ACO listing",
                         file=file, code="usage")
    _module, kernels, stats = _kernels(file, args)
    # a RADV_DEBUG=shaders dump holds each stage's ACO IR before its disassembly: ACO's block structure
    irs = dump_aco_ir(_read_text(file))
    if len(irs) != len(kernels):
        irs = [""] * len(kernels)
    return [(k.name, aco_statistics(k, _kernel_stats(k, stats), aco_ir=ir, workgroup_size=_workgroup(k),
                                     stage=k.ir.declared.shader_stage))
            for k, ir in zip(kernels, irs, strict=True)]


def _read_text(file: str) -> str:
    try:
        return Path(file).read_text(encoding="utf-8", errors="replace") if file != "-" else ""
    except OSError:
        return ""


def _kernel_stats(kernel: LoadedKernel, stats: dict[str, str | int]) -> dict[str, str | int]:
    """The compiler statistics ACO mode reads: a dump's per-stage figures (its "SHADER STATS"), else the file's."""
    own: dict[str, str | int] = {}
    for key, value in dict(kernel.ir.declared.raw).items():
        try:
            own[key] = int(value)
        except (TypeError, ValueError):
            continue
    return {**stats, **own} if own else stats


def _workgroup(kernel: LoadedKernel) -> int | None:
    d = kernel.ir.declared
    if d.shader_stage == "comp" and d.workgroup_size:
        x, y, z = d.workgroup_size
        return x * y * z
    return None


def _aco_text(file: str, name: str, doc: dict[str, Any]) -> str:
    k = doc["kernel"]
    text = (f"{file}: {name}: ACO's model (Mesa 22.3) on {doc['target']}, wave{doc['wave_size']}, {doc['waves']} "
            f"waves per SIMD: Latency {k['latency']}, Inverse Throughput {k['inverse_throughput']}")
    reported = doc.get("reported")
    if reported:
        text += f" (ACO reported {reported.get('Latency')} and {reported.get('Inverse Throughput')})"
    lines = [text] + [f"  assumed: {a}" for a in doc.get("assumptions", [])]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Run ``isalens timing`` for parsed ``args``; returns the exit code."""
    from isalens.analysis.timing import DEFAULT_MEMORY_LEVEL
    from isalens.arch.devices import load_devices as all_devices
    from isalens.engine.devices import resolve_device
    from isalens.engine.timing import kernel_profile, kernel_timing, loop_spans, parse_trip_counts, what_if
    from isalens.names import demangled
    from isalens.report.document import document, file_entry
    from isalens.report.serialize import dumps
    from isalens.report.timing import render_timing_text, render_what_if_text, timing_dict, what_if_dict

    waves = _waves(args.waves)
    trips = parse_trip_counts(args.trip_count)
    device = resolve_device(args.device) if args.device else None
    if args.matrix_data and (device is None or device.matrix_clock_random_mhz is None):
        with_clocks = ", ".join(sorted(d.name for d in all_devices().values() if d.matrix_clock_random_mhz))
        raise InputError(f"--matrix-data needs a --device with measured matrix clocks ({with_clocks})",
                         code="usage")
    alt_waves, alt_devices = _what_if(args.what_if)
    for d in alt_devices:
        resolve_device(d)
    files: list[dict[str, Any]] = []
    texts: list[str] = []
    for file in args.files:
        docs: list[dict[str, Any]] = []
        if args.model == "aco":
            for name, doc in _aco_docs(file, args):
                # ACO's figures are their own section: "timing" is always isalens' model
                docs.append({"name": name, "arch": doc.get("target"), "aco_timing": doc})
                texts.append(_aco_text(file, name, doc))
            files.append(file_entry(file, docs))
            continue
        module, kernels, stats = _kernels(file, args)
        for kernel in kernels:
            level = args.memory_level
            prof = kernel_profile(kernel, trip_counts=trips, device=device, memory_level=level or DEFAULT_MEMORY_LEVEL,
                                  scalar_level=level is not None)
            t = kernel_timing(kernel, waves=waves, device=device, profile=prof, memory_level=level,
                              memory_range=True, matrix_data=args.matrix_data)
            spans = loop_spans(kernel)
            doc = timing_dict(t, lines=args.lines, spans=spans)
            text = render_timing_text(t, name=f"{file}: {kernel.name}",
                                      sources={line: span.short() for line, span in spans.items()})
            if alt_waves or alt_devices:
                variants = what_if(prof, kernel, waves=alt_waves or ([waves] if waves else []),
                                   devices=alt_devices or ([device.name] if device else []),
                                   trip_counts=trips, matrix_data=args.matrix_data)
                doc["what_if"] = what_if_dict(variants)
                text += render_what_if_text(variants)
            docs.append({"name": kernel.name, "kernel_demangled": demangled(kernel.name), "arch": module.arch.name,
                         "timing": doc})
            texts.append(text)
        files.append(file_entry(file, docs, dialect=module.ir.dialect, diagnostics=module.diagnostics,
                                compiler_stats=stats))
    if args.json:
        sys.stdout.write(dumps(document("timing", files=files), indent=1))
    else:
        sys.stdout.write("\n".join(texts))
    return EXIT_OK
