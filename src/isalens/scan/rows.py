"""One table row per kernel: the figures of the ``analyze --json`` document flattened into columns.

:func:`rows_from_document` is the one place that knows the document's shape, so the scan follows whatever
produces that document (today built like ``cli._livereg_for(..., with_stats=True)``); the scan itself uses
:func:`rows_from_kernels`, the same rows from each kernel's object before it becomes JSON text.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import orjson

from isalens.names import demangled

if TYPE_CHECKING:
    from isalens.report.model import KernelReport

__all__ = ["KEY_COLUMNS", "METRICS", "error_row", "printable", "row_place", "rows_from_document",
           "rows_from_kernels"]

#: what identifies a unit's rows: the same file, place in it and content means the same rows
KEY_COLUMNS = ("file", "source", "content_hash")
#: per-kernel lists and maps that are not figures (or have unbounded keys) stay out of the table
_SKIP = {"lines", "longest_lived", "peak_live_set", "entry_live_in", "unexpected_live_in", "unexpected_live_in_lines",
         "declared_raw", "name",
         "stats.blocks", "stats.literal_values", "stats.lds", "stats.lds_accesses", "stats.classes_by_loop_depth",
         "stats.modifiers", "stats.classes_weighted"}
_NON_WORD = re.compile(r"[^0-9A-Za-z]+")

#: the headline figures (diff, check, docs): column -> what it is
METRICS = {
    "vgpr_requested": "VGPRs the code uses (highest + 1)",
    "sgpr_requested": "SGPRs the code uses, with those LLVM reserves",
    "agpr_requested": "AGPRs the code uses",
    "occupancy_waves": "waves per SIMD (whole workgroups)",
    "spills": "VGPRs + SGPRs spilled (compiler metadata; RADV: ACO's statistics)",
    "scratch_bytes": "private segment bytes per work-item (RADV: its per-wave figure / wave size)",
    "lds_bytes": "LDS bytes per workgroup",
    "code_bytes": "bytes of machine code",
    "instructions": "instructions",
}


_COLUMNS: dict[str, str] = {}


def _column(path: str) -> str:
    column = _COLUMNS.get(path)
    if column is None:  # the same few hundred paths in every row
        column = _COLUMNS[path] = _NON_WORD.sub("_", path).strip("_").lower()
    return column


def _flatten(value: Any, path: str, out: dict[str, Any]) -> None:
    if path in _SKIP:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(item, f"{path}.{key}" if path else str(key), out)
    elif (isinstance(value, bool | int | float | str) or value is None) and path:
        out[_column(path)] = value
    # lists (peak lines, limiter names ...) are summarised explicitly below, not spread into columns


def _flatten_direct(value: Any, path: str, out: dict[str, Any]) -> None:
    """:func:`_flatten` of ``value`` as the JSON text of it would hold it (``report.serialize.dumps``: keys
    sorted, non-finite floats null, tuples lists), without writing and reading that text: plain dicts, strings,
    numbers and lists are taken as they are; anything else (an enum, a dataclass, a dict with keys that are not
    strings) goes through the JSON text, so it flattens exactly as before."""
    if path in _SKIP:
        return
    kind = type(value)
    if kind is dict:
        if all(type(key) is str for key in value):
            for key in sorted(value):
                _flatten_direct(value[key], f"{path}.{key}" if path else key, out)
            return
    elif kind is str or kind is int or kind is bool or value is None:
        if path:
            out[_column(path)] = value
        return
    elif kind is float:
        if path:
            out[_column(path)] = value if math.isfinite(value) else None
        return
    elif kind is list or kind is tuple:
        return  # lists are not spread into columns (_flatten)
    from isalens.report.serialize import dumps

    _flatten(orjson.loads(dumps(value)), path, out)


def _declared_int(raw: dict[str, str], key: str) -> int | None:
    try:
        return int(raw[key], 0)
    except (KeyError, ValueError):
        return None


def _first_int(raw: dict[str, str], *keys: str) -> int | None:
    """The first of ``keys`` that ``raw`` holds as an integer."""
    for key in keys:
        value = _declared_int(raw, key)
        if value is not None:
            return value
    return None


def kernel_row(kernel: dict[str, Any], flatten: Callable[[Any, str, dict[str, Any]], None] = _flatten
               ) -> dict[str, Any]:
    """The columns of one kernel object of the analyze document (``flatten``: :func:`_flatten_direct` for the
    object before it became JSON text)."""
    row: dict[str, Any] = {"kernel": kernel.get("name")}
    flatten(kernel, "", row)
    occ = kernel.get("occupancy") or {}
    raw = kernel.get("declared_raw") or {}
    stats = kernel.get("stats") or {}
    # LLVM's code-object metadata, else RADV/ACO's statistics (Mesa's pipeline executable statistics: "LDS size
    # in bytes per workgroup", "Private memory in bytes per subgroup", registers "spilled per subgroup")
    vspill = _first_int(raw, ".vgpr_spill_count", "Spilled VGPRs")
    sspill = _first_int(raw, ".sgpr_spill_count", "Spilled SGPRs")
    scratch = _declared_int(raw, ".private_segment_fixed_size")
    per_wave = _declared_int(raw, "Scratch size")
    wave = kernel.get("wave_size")
    if scratch is None and per_wave is not None and isinstance(wave, int) and wave > 0:
        scratch = -(-per_wave // wave)
    row.update({
        "occupancy_waves": occ.get("waves_per_simd"),
        "occupancy_limiter": ",".join(occ.get("limited_by") or []) or None,
        "vgpr_spills": vspill,
        "sgpr_spills": sspill,
        "spills": None if vspill is None and sspill is None else (vspill or 0) + (sspill or 0),
        "scratch_bytes": scratch,
        "lds_bytes": _first_int(raw, ".group_segment_fixed_size", "LDS size"),
        "code_bytes": stats.get("code_bytes"),
        "vgpr_peak_lines": json.dumps(kernel.get("vgpr", {}).get("peak_lines", [])),
        "declared_raw": json.dumps(raw, sort_keys=True),
    })
    return row


def rows_from_document(doc: dict[str, Any], **identity: Any) -> list[dict[str, Any]]:
    """One row per kernel (functions that are not kernels are left out) of the analyze document ``doc``,
    each starting with the ``identity`` columns (file, source, target, content hash, isalens version)."""
    rows = []
    for kernel in doc.get("kernels", []):
        if not kernel.get("is_kernel", True):
            continue
        rows.append({**identity, "error": None, "error_code": None, **kernel_row(kernel)})
    return rows


def rows_from_kernels(kernels: Sequence[KernelReport], **identity: Any) -> list[dict[str, Any]]:
    """:func:`rows_from_document` of the document ``kernels`` would print (``analyze --json`` without the
    per-line listings), made from each kernel's JSON object before it becomes text: the same rows, without
    writing the document's text and parsing it back (docs/performance.md, seventeenth session)."""
    from isalens.report.json import kernel_dict

    rows = []
    for k in kernels:
        if not k.is_kernel:
            continue
        rows.append({**identity, "error": None, "error_code": None,
                     **kernel_row(kernel_dict(k, lines=False, blocks=False), _flatten_direct)})
    return rows


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on (escape sequences, line breaks) shown as ``?``: a
    result file someone else made may hold any text in its names and messages, and check and diff print them."""
    return text if text.isprintable() else "".join(c if c.isprintable() else "?" for c in text)


def row_place(row: dict[str, Any]) -> str:
    """Where a row's kernel is, for a message: file (and place inside it), target and kernel, each said even when
    unknown (a code object that could not be read has no kernel names)."""
    file, source, line = row.get("file") or "?", row.get("source"), row.get("error_line")
    inside = source not in (None, "", "file", file)  # a bundle's or an archive's member ("file": the file itself)
    where = f"{file} ({source})" if inside else str(file)
    if type(line) is int:  # as diagnostics name it (a code object's: of its disassembly, as livereg prints it)
        where += f":{line}"
    kernel = row.get("kernel")
    return (f"{where}, target {row.get('target') or 'unknown'}, "
            + (f"kernel {kernel}" if kernel else "every kernel (none could be read)"))


def error_row(message: str, code: str, kernel: str | None = None, *, line: int | None = None,
              **identity: Any) -> dict[str, Any]:
    """The row recording that a unit (or one kernel of it) could not be analysed; ``line``: the input's line the
    error names (``error_line``: of the text file, or of the code object's disassembly listing)."""
    readable = demangled(kernel) if kernel is not None else None
    return {**identity, "kernel": kernel, "kernel_demangled": readable, "error": message, "error_code": code,
            "error_line": line}
