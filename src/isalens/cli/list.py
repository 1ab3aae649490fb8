"""The ``isalens list`` command: the code objects of a binary (code object, offload bundle, executable or
shared library) with their targets and each kernel's registers, LDS and wave size from its metadata.

Exit codes as in :mod:`isalens.cli`: 0 success (code objects of versions before v4 are listed with a note),
2 bad input (a file that is not a readable binary, or a damaged code object: shown with its reason).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
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


def list_document(file: str, listed: Iterable[Listed]) -> dict[str, Any]:
    """The ``list --json`` document: a ``files`` entry per code object (``file`` the binary, ``code_object``
    where in it), each kernel with analyze's ``name``, ``arch`` and ``wave_size`` and the code object's
    ``metadata`` figures. ``listed`` is consumed one code object at a time (none is kept)."""
    from isalens.report.document import document

    entries = []
    for item in listed:
        co = item.code_object
        kernels = []
        if co is not None:
            for k in co.kernels:
                meta = k.summary()
                preload = {"length": meta.pop("kernarg_preload_length"),
                           "offset": meta.pop("kernarg_preload_offset")}  # the descriptor's, not the metadata's
                kernels.append({"name": meta.pop("name"), "kernel_demangled": meta.pop("kernel_demangled"),
                                "arch": co.target, "wave_size": meta.pop("wave_size"), "metadata": meta,
                                "kernarg_preload": preload, "debug_info": co.debug_info})
        entries.append({
            "file": file,
            "code_object": item.source,
            "target": co.target if co else None,
            "code_object_version": co.version if co else None,
            "debug_info": co.debug_info if co else None,
            "e_flags": None if co is None or co.flags is None else {
                "value": co.flags.value, "processor": co.flags.processor, "xnack": co.flags.xnack,
                "sramecc": co.flags.sramecc, "generic_version": co.flags.generic_version},
            "warnings": list(co.warnings) if co else [],
            "kernels": kernels,
            "error": None if item.error is None else {"code": item.error.code, "file": file, "line": None,
                                                      "message": item.error.message},
        })
    return document("list", files=entries)


def _text(file: str, doc: dict[str, Any]) -> str:
    lines = [f"{file}: {len(doc['files'])} code object(s)"]
    for co in doc["files"]:
        if co["error"]:
            lines.append(f"  {co['code_object']}: cannot read: {co['error']['message']}")
            continue
        lines.append(f"  {co['target']} (v{co['code_object_version']}) {co['code_object']}: "
                     f"{len(co['kernels'])} kernel(s)")
        for k in co["kernels"]:
            m = k["metadata"]
            readable = k["kernel_demangled"]
            name = k["name"] if readable == k["name"] else f"{readable}  [{k['name']}]"
            lines.append(f"    {name}  vgpr={m['vgpr_count']} sgpr={m['sgpr_count']} agpr={m['agpr_count']} "
                         f"lds={m['lds_bytes']} wave{k['wave_size']}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Run ``isalens list``; returns the exit code."""
    from isalens.engine.binary import iter_code_objects
    from isalens.report.serialize import dumps

    messages: list[str] = []
    damaged = readable = False

    def seen(listed: Iterator[Listed]) -> Iterator[Listed]:
        """Each code object passed on once, its messages and verdict kept (not the code object: a library's
        777 held 3 GB)."""
        nonlocal damaged, readable
        for item in listed:
            if item.error is not None:
                messages.append(f"isalens: {item.error}\n")
                # code objects too old (v2/v3) are noted; a damaged one, or none readable, is bad input
                damaged = damaged or item.error.code != "code-object-version"
            readable = readable or item.code_object is not None
            for warning in item.code_object.warnings if item.code_object else ():
                messages.append(f"isalens: {args.file}: warning: {item.source}: {warning}\n")
            yield item

    doc = list_document(args.file, seen(iter_code_objects(Path(args.file))))
    sys.stdout.write(dumps(doc, indent=1, sort_keys=False) if args.json else _text(args.file, doc))
    sys.stderr.write("".join(messages))
    return EXIT_INPUT if damaged or not readable else EXIT_OK
