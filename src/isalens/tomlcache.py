"""The data tables' TOML, parsed once and kept across runs.

Every command parses some of isalens' TOML tables at start (the architecture families, the semantics and class
tables): 10 files, about a tenth of the CPU time of ``livereg --json`` on an 800-instruction kernel
(docs/performance.md). :func:`loads` gives what ``tomllib.loads`` gives, but looks the text up first in a
file under the user's cache directory that maps each text's digest (isalens.cachefile) to its parsed form,
marshalled; texts parsed in a run are added at exit. An edited table has another digest, so it is parsed again,
never confused.

Nothing read is trusted blindly: the file is sealed and owned as :mod:`isalens.cachefile` requires, and an
entry is used only if it unmarshals to plain TOML data (dicts with text keys, lists, text, numbers, booleans);
a file or entry failing this is ignored (and rewritten at exit). A table holding dates (which marshal cannot
write) is parsed every time. ``ISALENS_TABLE_CACHE=0`` turns the cache off; ``XDG_CACHE_HOME`` moves it.
"""

from __future__ import annotations

import atexit
import marshal
import os
from pathlib import Path
from typing import Any

from isalens.cachefile import cache_directory, digest, read_sealed, write_sealed

__all__ = ["loads"]

_MAGIC = b"isalens-toml-2\n"  # 2: sealed and keyed with cachefile.digest (was SHA-256)
_MAX_BYTES = 16 << 20
#: texts kept in the file: this run's first, then earlier runs' (other commands read other tables)
_MAX_TEXTS = 64
#: digest -> marshalled document (None until the file is read); _USED: digests looked up in this process
_ENTRIES: dict[bytes, bytes] = {}
_USED: dict[bytes, None] = {}
_STATE = {"read": False, "dirty": False}


def enabled() -> bool:
    return os.environ.get("ISALENS_TABLE_CACHE", "1") != "0"


def path() -> Path:
    """The cache file (named by this file format and the marshal format: a tree of another format keeps its own
    file instead of rewriting this one at every run)."""
    return cache_directory() / f"toml-2-{marshal.version}.marshal"


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``: a new document each call, from the cache when this text was parsed before."""
    if not enabled():
        return _parse(text)
    if not _STATE["read"]:
        _STATE["read"] = True
        _ENTRIES.update(_read(path()))
        atexit.register(_save, path())
    key = digest(text.encode("utf-8"))
    _USED[key] = None
    data = _ENTRIES.get(key)
    if data is not None:
        doc = _plain_document(data)
        if doc is not None:
            return doc
        del _ENTRIES[key]  # damaged or foreign: parsed again below and rewritten
    doc = _parse(text)
    try:
        _ENTRIES[key] = marshal.dumps(doc)
    except ValueError:  # dates and times: not marshallable, parsed every time
        return doc
    _STATE["dirty"] = True
    return doc


def _parse(text: str) -> dict[str, Any]:
    import tomllib  # only when a table is not cached

    return tomllib.loads(text)


def _read(file: Path) -> dict[bytes, bytes]:
    payload = read_sealed(file, _MAGIC, _MAX_BYTES)
    if payload is None:
        return {}
    try:
        entries = marshal.loads(payload)
    except Exception:  # bad marshal data under a good digest: no cache
        return {}
    if not isinstance(entries, dict):
        return {}
    return {k: v for k, v in entries.items() if isinstance(k, bytes) and len(k) == 32 and isinstance(v, bytes)}


def _plain_document(data: bytes) -> dict[str, Any] | None:
    """The document marshalled in ``data`` if it is plain TOML data (no code objects, sets, bytes ...), else
    None."""
    try:
        doc = marshal.loads(data)
    except Exception:
        return None
    return doc if isinstance(doc, dict) and _plain(doc) else None


def _plain(value: object) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return type(value) in (str, int, float, bool)


def _save(file: Path) -> None:
    """Write the entries (:func:`isalens.cachefile.write_sealed`) if this run parsed a text not in the file."""
    if not _STATE["dirty"]:
        return
    keep = {k: None for k in _USED if k in _ENTRIES}
    for k in _ENTRIES:
        if len(keep) >= _MAX_TEXTS:
            break
        keep.setdefault(k)
    payload = marshal.dumps({k: _ENTRIES[k] for k in keep})
    if len(payload) <= _MAX_BYTES:
        write_sealed(file, _MAGIC, payload)
    _STATE["dirty"] = False
