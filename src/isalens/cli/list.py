"""The ``isalens list`` command: the code objects of a binary (code object, offload bundle, executable or
shared library) with their targets and each kernel's registers, LDS and wave size from its metadata.

Exit codes as in :mod:`isalens.cli`: 0 success (code objects of versions before v4 are listed with a note),
2 bad input (a file that is not a readable binary, or a damaged code object: shown with its reason).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from isalens.engine.binary import Listed

from isalens.cli.common import EXIT_INPUT, EXIT_OK

__all__ = ["list_document", "register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``list`` subcommand to ``subparsers``."""
    p = subparsers.add_parser(
        "list", help="targets and kernels of a code object, fat binary, executable or shared library",
        description="Every AMDGPU code object in FILE (a .hsaco/.co code object, a .hipfb offload bundle plain or "
                    "compressed, or an executable/library with a .hip_fatbin section) with its target and where "
                    "it was found, and each kernel's VGPRs, SGPRs, AGPRs, LDS bytes and wave size from the "
                    "code object's metadata.",
    )
    p.add_argument("file", help="binary to list")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")


def list_document(file: str, listed: list[Listed]) -> dict[str, Any]:
    """The ``list --json`` document."""
    objects = []
    for item in listed:
        co = item.code_object
        objects.append({
            "source": item.source,
            "target": co.target if co else None,
            "code_object_version": co.version if co else None,
            "debug_info": co.debug_info if co else None,
            "kernels": [{**k.summary(), "debug_info": co.debug_info} for k in co.kernels] if co else [],
            "error": item.error.message if item.error else None,
        })
    return {"schema": 1, "file": file, "code_objects": objects}


def _text(doc: dict[str, Any]) -> str:
    lines = [f"{doc['file']}: {len(doc['code_objects'])} code object(s)"]
    for co in doc["code_objects"]:
        if co["error"]:
            lines.append(f"  {co['source']}: cannot read: {co['error']}")
            continue
        lines.append(f"  {co['target']} (v{co['code_object_version']}) {co['source']}: {len(co['kernels'])} kernel(s)")
        for k in co["kernels"]:
            readable = k["kernel_demangled"]
            name = k["name"] if readable == k["name"] else f"{readable}  [{k['name']}]"
            lines.append(f"    {name}  vgpr={k['vgpr_count']} sgpr={k['sgpr_count']} agpr={k['agpr_count']} "
                         f"lds={k['lds_bytes']} wave{k['wave_size']}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Run ``isalens list``; returns the exit code."""
    from isalens.engine.binary import list_code_objects
    from isalens.report.serialize import dumps
    listed = list_code_objects(Path(args.file))
    doc = list_document(args.file, listed)
    sys.stdout.write(dumps(doc, indent=1, sort_keys=False) if args.json else _text(doc))
    for item in listed:
        if item.error is not None:
            sys.stderr.write(f"isalens: {item.error}\n")
    # code objects too old (v2/v3) are noted; a damaged one, or none readable, is bad input
    damaged = any(item.error and item.error.code != "code-object-version" for item in listed)
    return EXIT_INPUT if damaged or not any(item.code_object for item in listed) else EXIT_OK
