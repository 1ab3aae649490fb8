"""The AMDGPU metadata note of a code object (v3 and later): MessagePack under note name ``AMDGPU``, type 32
(``NT_AMDGPU_METADATA``), per AMDGPUUsage "Code Object V3 Metadata" and later.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

import msgpack

from isalens.errors import InputError

__all__ = ["NT_AMDGPU_METADATA", "kernel_fields", "unpack_metadata"]

NT_AMDGPU_METADATA = 32


_MAX_DEPTH = 16


_CONTAINERS = (dict, list, tuple)


def _too_deep(doc: object) -> bool:
    """Whether maps and arrays in ``doc`` nest deeper than :data:`_MAX_DEPTH` (some value lies more than that many
    levels down), walked level by level without recursion; each level's values are gathered by ``itertools``
    and only the containers among them kept (a library's metadata holds a million small maps)."""
    level: list[Any] = [doc] if type(doc) in _CONTAINERS else []
    depth = 0  # of the containers in ``level``
    while level:
        values = list(chain(chain.from_iterable([x.values() for x in level if type(x) is dict]),
                            chain.from_iterable([x for x in level if type(x) is not dict])))
        if depth >= _MAX_DEPTH and values:
            return True
        level = [v for v in values if type(v) in _CONTAINERS]
        depth += 1
    return False


def unpack_metadata(desc: bytes, *, file: str, where: str) -> dict[str, Any]:
    """The decoded metadata map, or a one-line error."""
    try:
        # strict map keys: only strings and bytes (AMDGPUUsage's keys are strings); a map or list as a key
        # would otherwise fail later as "unhashable"
        doc = msgpack.unpackb(desc, raw=False, strict_map_key=True)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as exc:
        raise InputError(f"{where}: unreadable AMDGPU metadata note: {exc}", file=file, code="metadata") from None
    if not isinstance(doc, dict):
        raise InputError(f"{where}: AMDGPU metadata note is not a map", file=file, code="metadata")
    if _too_deep(doc):
        # AMDGPUUsage's metadata is at most a few levels deep; a deeper one would exhaust Python's recursion
        # when printed (found by the fuzzer: a kernel field of arrays nested thousands deep)
        raise InputError(f"{where}: AMDGPU metadata nested more than {_MAX_DEPTH} levels deep", file=file,
                         code="metadata")
    kernels = doc.get("amdhsa.kernels", [])
    if kernels is None:
        kernels = []
    if not isinstance(kernels, list) or not all(isinstance(k, dict) for k in kernels):
        raise InputError(f"{where}: AMDGPU metadata: amdhsa.kernels is not a list of maps", file=file,
                         code="metadata")
    for index, entry in enumerate(kernels):
        for key in ("name", "symbol"):
            if key not in entry and f".{key}" not in entry:
                continue
            value = entry.get(f".{key}", entry.get(key))
            if not isinstance(value, str):
                raise InputError(f"{where}: AMDGPU metadata: kernel {index}: .{key} is not a string", file=file,
                                 code="metadata")
    return {**doc, "amdhsa.kernels": kernels}


def kernel_fields(entry: dict[str, Any]) -> dict[str, str]:
    """One ``amdhsa.kernels`` entry as plain strings keyed without the leading dot (``vgpr_count``),
    the form the ISA parser reads from ``.amdgpu_metadata``; lists are space-separated, ``.args`` dropped."""
    fields: dict[str, str] = {}
    for key, value in entry.items():
        name = key.lstrip(".") if type(key) is str else str(key).lstrip(".")
        if name == "args":
            continue
        kind = type(value)  # msgpack gives exact types: the common ones first, the rest as before
        if kind is str:
            fields[name] = value
        elif kind is int or kind is float:
            fields[name] = str(value)
        elif isinstance(value, list | tuple):
            fields[name] = " ".join(str(v) for v in value)
        elif isinstance(value, bool):
            fields[name] = "1" if value else "0"
        elif isinstance(value, int | float | str):
            fields[name] = str(value)
    return fields
