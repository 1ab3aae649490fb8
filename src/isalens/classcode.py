"""The methods ``@dataclass`` writes for each class, compiled once and kept across runs.

Python's ``dataclasses`` writes every class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and frozen
``__setattr__``/``__delattr__`` as source text and compiles it with ``exec`` when the class is defined. The 76
dataclasses a ``livereg`` run imports made 439 such texts: about a third of the 0.3 s CPU of ``livereg --json``
on the 812-instruction example, two thirds of that compiling (docs/performance.md). The compiled code depends
only on the text and the interpreter, so :func:`install` gives ``dataclasses`` an ``exec`` that looks the text
up first, and the texts compiled in a run are written to a file under the user's cache directory at exit.

The file is named by the interpreter's bytecode tag and version, so another Python never reads it. Nothing read
is trusted blindly: the payload carries its digest (isalens.cachefile) and is read only if it matches, the file
must belong to this user and be writable by no one else (as a ``__pycache__`` file may be), and every entry must
be a text mapped to a code object compiled from ``<string>``; a file failing any of this is ignored and rewritten.
``ISALENS_CLASS_CACHE=0`` turns it off; ``XDG_CACHE_HOME`` moves it (default ``~/.cache/isalens``).

The classes a small run makes are :mod:`isalens.records`, whose ``__init__`` texts go through the same cache
(:func:`code_of_text`); ``dataclasses`` is given the cached ``exec`` when a command's layers first import it.

The file maps each text to its marshalled code, and a text's code is unmarshalled when a class first asks for
it: the file holds every text any command compiled (1,527 texts, 1.8 MB on a developer's machine), and
unmarshalling all of them took most of a small run's 10-13 ms in :func:`install`, for the ~430 it uses.
"""

from __future__ import annotations

import atexit
import marshal
import os
import sys
import types
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

from isalens.cachefile import cache_directory, digest, read_sealed, write_sealed

__all__ = ["install"]

_MAGIC = b"isalens-classcode-3\n"  # 3: sealed with cachefile.digest (was SHA-256)
#: a file larger than this is not read, and one holding more texts is trimmed to this run's (~0.4 MB per 500)
_MAX_BYTES = 16 << 20
_MAX_TEXTS = 5000
#: source text -> its code; _RAW: source text -> its marshalled code, read from the file and not yet asked for;
#: _USED: the texts this process looked up; _STATE: installed, dirty
_CODES: dict[str, types.CodeType] = {}
_RAW: dict[str, bytes] = {}
_USED: set[str] = set()
_STATE = {"installed": False, "dirty": False}


def enabled() -> bool:
    return os.environ.get("ISALENS_CLASS_CACHE", "1") != "0"


def path() -> Path:
    """The cache file of this interpreter (its bytecode tag, version and marshal format) and of this file format (a
    tree of another format keeps its own file instead of rewriting this one at every run)."""
    version = digest(f"{sys.version}\0{marshal.version}\0{_MAGIC!r}".encode()).hex()[:16]
    return cache_directory() / f"classcode-{sys.implementation.cache_tag}-{version}.marshal"


def code_of_text(source: str) -> types.CodeType:
    """The code of ``source`` compiled as ``dataclasses`` compiles its texts, once per process (and, when
    :func:`install` ran, once across runs: new texts are written at exit)."""
    code = _CODES.get(source)
    if code is None and source in _RAW:
        code = _code_of(_RAW.pop(source))
        if code is not None:
            _CODES[source] = code
        else:  # not code from <string> under a good digest: compiled below and the file rewritten
            _STATE["dirty"] = True
    if code is None:
        # dont_inherit: compiled exactly as dataclasses' own exec compiles it (this module's
        # `from __future__ import annotations` would otherwise turn the methods' annotations into strings)
        code = _CODES[source] = compile(source, "<string>", "exec", dont_inherit=True)
        _STATE["dirty"] = True
    _USED.add(source)
    return code


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
    """``exec`` as ``dataclasses`` calls it, with each source text compiled once."""
    if isinstance(source, str):
        source = code_of_text(source)
    exec(source, globals, locals)  # the text is dataclasses' own, as without this module


class _PatchDataclasses:
    """A finder ahead of the others that gives ``dataclasses`` the cached ``exec`` when it is first imported: a
    small run never imports ``dataclasses`` (its classes are :mod:`isalens.records`), another command's layers
    do, after :func:`install`."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "dataclasses":
            return None
        sys.meta_path.remove(self)
        spec = PathFinder.find_spec(name, path)
        loader = spec.loader if spec is not None else None
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        exec_module = loader.exec_module

        def patched(module: types.ModuleType) -> None:
            exec_module(module)
            module.exec = _exec  # type: ignore[attr-defined]  # a module global shadows the builtin there only

        loader.exec_module = patched  # type: ignore[method-assign]
        return spec


def install() -> None:
    """Compile dataclass methods through the cache from now on (once per process; a no-op when disabled)."""
    if _STATE["installed"] or not enabled():
        return
    _STATE["installed"] = True
    file = path()
    _RAW.update(_load_raw(file))
    dataclasses = sys.modules.get("dataclasses")
    if dataclasses is not None:
        # a module global shadows the builtin for dataclasses only (setattr: typeshed gives the module no `exec`)
        setattr(dataclasses, "exec", _exec)  # noqa: B010
    else:
        sys.meta_path.insert(0, _PatchDataclasses())
    atexit.register(_save, file)


def load(file: Path) -> dict[str, types.CodeType]:
    """The texts and code stored in ``file``, or none if it is missing, damaged, of another format or not safely
    owned (:func:`isalens.cachefile.read_sealed`; never an error: the cache only saves time). Every entry is
    unmarshalled here (for tests and tools); a run unmarshals each text's code when it is first asked for."""
    codes = {text: _code_of(raw) for text, raw in _load_raw(file).items()}
    return {text: code for text, code in codes.items() if code is not None}


def _load_raw(file: Path) -> dict[str, bytes]:
    """The texts stored in ``file`` and their marshalled code, not unmarshalled (:func:`load`'s checks but the
    last: each code is checked by :func:`_code_of` when it is unmarshalled)."""
    payload = read_sealed(file, _MAGIC, _MAX_BYTES)
    if payload is None:
        return {}
    try:
        entries = marshal.loads(payload)
    except Exception:  # bad marshal data under a good digest (written by another build): no cache
        return {}
    if not isinstance(entries, dict):
        return {}
    return {k: v for k, v in entries.items() if isinstance(k, str) and isinstance(v, bytes)}


def _code_of(raw: bytes) -> types.CodeType | None:
    """The code marshalled in ``raw`` if it is code compiled from ``<string>`` (as ``dataclasses`` compiles its
    texts), else None."""
    try:
        code = marshal.loads(raw)
    except Exception:  # damaged data: compiled again
        return None
    return code if isinstance(code, types.CodeType) and code.co_filename == "<string>" else None


def _save(file: Path) -> None:
    """Write the texts (:func:`isalens.cachefile.write_sealed`) if this run compiled new ones."""
    if not _STATE["dirty"]:
        return
    # the texts not asked for are written back as they were read, without unmarshalling them
    entries = {**_RAW, **{text: marshal.dumps(code) for text, code in _CODES.items()}}
    if len(entries) > _MAX_TEXTS:
        entries = {text: entries[text] for text in _USED if text in entries}
    payload = marshal.dumps(entries)
    if len(payload) <= _MAX_BYTES:
        write_sealed(file, _MAGIC, payload)
    _STATE["dirty"] = False
