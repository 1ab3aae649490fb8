"""``isalens toolchain``: the compilers and drivers the source front ends can use here."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from isalens.frontends.toolchain import Component

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``toolchain`` command to the CLI's subparsers."""
    p = subparsers.add_parser(
        "toolchain", help="installed compilers and drivers, their targets, and how to install the rest",
        description="Which source front ends work here: clang/llc (OpenCL C, LLVM IR), HIP, glslang and Mesa's "
                    "RADV driver (GLSL/HLSL through ACO on a null device), with versions, supported targets and "
                    "GPU families, and the apt-get command that installs what is missing.")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--no-probe", action="store_true",
                   help="do not start RADV to list the GPU families it supports (faster)")


def _text(components: list[Component], install: str | None) -> str:
    lines = []
    for comp in components:
        mark = "ok     " if comp.found else "missing"
        where = comp.path or ""
        version = f"  [{comp.version}]" if comp.version else ""
        lines.append(f"{mark} {comp.name:14s} {where}{version}")
        lines.append(f"        {comp.purpose}")
        if comp.targets:
            label = "families" if comp.name == "radv" else "targets"
            lines.append(f"        {label} ({len(comp.targets)}): {', '.join(comp.targets)}")
        if not comp.found:
            lines.append(f"        install: apt-get install -y {' '.join(comp.packages)}")
        if comp.note:
            lines.append(f"        note: {comp.note}")
    lines.append("")
    lines.append(f"to install everything missing: {install}" if install else "everything is installed")
    lines.append("plain ISA-text analysis needs none of these.")
    lines.append(f"analysis core: {_core_name()}")
    return "\n".join(lines) + "\n"


def _core_name() -> str:
    """The dataflow core that runs: ``compiled``, or ``pure-python (why)`` (``isalens._core``)."""
    from isalens._core import CORE
    return CORE


def run(args: argparse.Namespace) -> int:
    """Print the survey; exit 0 (the command only reports)."""
    from isalens.frontends.toolchain import install_command, survey

    components = survey(probe_radv=not args.no_probe)
    install = install_command(components)
    if args.json:
        doc = {"components": [c.to_dict() for c in components], "install": install, "core": _core_name()}
        from isalens.report.serialize import dumps
        sys.stdout.write(dumps(doc, pretty=True))
    else:
        sys.stdout.write(_text(components, install))
    return 0
