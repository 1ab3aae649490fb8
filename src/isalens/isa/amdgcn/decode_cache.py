"""Decoded instruction texts kept across runs, in a file under the user's cache directory.

Decoding a distinct instruction text (syntax, semantics table, facts) is the largest single cost of reading a
kernel: 12,375 distinct texts of the dense 100k benchmark took about 6 s, the 742 of an 800-instruction example
about 0.2 s, and the next run decodes the same texts again. The decoded texts of one target, wave size and
unknown-instruction policy are written here at exit and read back by the next process.

The file is named by a key that changes whenever its content could: the isalens version and the size and
modification time of every source and table file of the readers (``isalens/isa``, ``isalens/ir``), so an edited
table or decoder never meets an old file. Nothing read is trusted: the payload carries its SHA-256 and is read
only if the digest matches and the file is this user's own, writable by no one else (isalens/cachefile.py); the
unpickler builds only isalens classes and plain containers, and the caller checks each entry's type; a file
failing any of this is ignored (and rewritten at exit). ``ISALENS_DECODE_CACHE=0`` turns the cache off;
``XDG_CACHE_HOME`` moves it (default ``~/.cache/isalens``).
"""

from __future__ import annotations

import atexit
import hashlib
import io
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

from isalens.cachefile import cache_directory, read_sealed, write_sealed
from isalens.version import __version__

_MAGIC = b"isalens-decoded-1\n"
#: a file larger than this is not read (a 100,000-text cache is about 15 MB)
_MAX_BYTES = 256 << 20
_PACKAGE = Path(__file__).resolve().parents[2]  # src/isalens
_FINGERPRINT: list[str] = []
#: caches to write at exit: file path -> (the cache, the filter keeping what may be written)
_DIRTY: dict[Path, tuple[dict[str, Any], Callable[[Any], bool]]] = {}


def enabled() -> bool:
    return os.environ.get("ISALENS_DECODE_CACHE", "1") != "0"


def _fingerprint() -> str:
    """The version and every reader file's size and modification time, hashed (computed once per process)."""
    if not _FINGERPRINT:
        digest = hashlib.sha256(__version__.encode())
        for top in ("isa", "ir", "version.py", "errors.py"):
            root = _PACKAGE / top
            paths = [root] if root.is_file() else sorted(root.rglob("*"))
            for path in paths:
                if path.suffix in (".py", ".txt", ".toml", ".json") and "__pycache__" not in path.parts:
                    st = path.stat()
                    digest.update(f"{path.relative_to(_PACKAGE)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        _FINGERPRINT.append(digest.hexdigest())
    return _FINGERPRINT[0]


def _directory() -> Path:
    return cache_directory() / "decoded"


def path_for(key: str) -> Path:
    """The cache file of ``key`` (the target, wave size and policy, spelled by the caller)."""
    name = hashlib.sha256(f"{_fingerprint()}\0{key}".encode()).hexdigest()[:32]
    return _directory() / f"{name}.pickle"


class _Unpickler(pickle.Unpickler):
    """Builds isalens classes (dataclasses, enums) and nothing else: no function of any module is callable."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "isalens" or module.startswith("isalens."):
            obj = super().find_class(module, name)
            if isinstance(obj, type):
                return obj
        if module == "builtins" and name in ("frozenset", "set", "tuple", "list", "dict", "int", "str"):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a decode cache")


def load(path: Path, entry_ok: Callable[[Any], bool]) -> dict[str, Any]:
    """The entries stored in ``path`` for which ``entry_ok`` holds, or none if the file is missing, damaged, of
    another format or not safely owned (:func:`isalens.cachefile.read_sealed`; never an error: the cache only
    saves time)."""
    payload = read_sealed(path, _MAGIC, _MAX_BYTES)
    if payload is None:
        return {}
    try:
        entries = _Unpickler(io.BytesIO(payload)).load()
    except Exception:  # bad opcodes or a refused class under a good digest: no cache
        return {}
    if not isinstance(entries, dict):
        return {}
    return {k: v for k, v in entries.items() if isinstance(k, str) and entry_ok(v)}


def save_at_exit(path: Path, cache: dict[str, Any], keep: Callable[[Any], bool]) -> None:
    """Write ``cache`` (its entries ``keep`` accepts) to ``path`` when the process exits."""
    if not _DIRTY:
        atexit.register(_save_all)
    _DIRTY[path] = (cache, keep)


def _save_all() -> None:
    for path, (cache, keep) in list(_DIRTY.items()):
        _save(path, {k: v for k, v in cache.items() if keep(v)})
    _DIRTY.clear()


def _save(path: Path, entries: dict[str, Any]) -> None:
    """Write ``entries`` (:func:`isalens.cachefile.write_sealed`); one that cannot be pickled is no error."""
    try:
        payload = pickle.dumps(entries, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # a cache that cannot be written only costs time next run
        return
    if len(payload) <= _MAX_BYTES:
        write_sealed(path, _MAGIC, payload)
