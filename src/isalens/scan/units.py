"""What a scan analyses: one unit per ISA text or source file and one per code object inside a binary, each
with a content hash, found lazily (a 1.3 GiB library is walked bundle by bundle)."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from isalens.engine.binary import is_binary_file, mapped
from isalens.engine.sources import is_source
from isalens.errors import IsalensError
from isalens.reading import open_regular, read_file

__all__ = ["TEXT_SUFFIXES", "Unit", "iter_units"]

#: ISA text a directory walk picks up (named files are read whatever their suffix)
TEXT_SUFFIXES = (".s", ".asm", ".isa", ".dis", ".lst")


@dataclass(frozen=True, slots=True)
class Unit:
    """One piece of work: ``kind`` is ``text``, ``source``, ``code-object`` or ``error`` (the container could not
    be read: ``error`` holds the message and code). A code object's ``kernels``, when set, are the symbols of
    the kernels this unit analyses (:mod:`isalens.scan.split`); None: all of them."""

    file: str
    source: str
    content_hash: str
    kind: str
    data: bytes | None = None
    triple: str | None = None
    error: tuple[str, str] | None = None
    kernels: tuple[str, ...] | None = None

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.file, self.source, self.content_hash)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_hash(path: Path) -> str:
    """The file's SHA-256, read in chunks; a device, a pipe or a file over the input cap is refused first."""
    digest = hashlib.sha256()
    with open_regular(path) as (fd, _size):
        for chunk in iter(lambda: os.read(fd, 1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _files(paths: Iterable[str | Path]) -> Iterator[tuple[Path, bool]]:
    """(file, named explicitly) for every path; a directory's files largest first (then by name), so the
    longest units start first and the workers finish together (a pool given the small files first ended
    with one worker alone on the largest), its subdirectories in name order."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for root, dirs, names in os.walk(path):
                dirs.sort()
                sizes: dict[Path, int] = {}
                for name in names:
                    candidate = Path(root) / name
                    try:
                        st = candidate.lstat()  # one call: a regular file, not a symlink, and its size
                    except OSError:  # gone since the directory was listed (is_file() said False too)
                        continue
                    if stat.S_ISREG(st.st_mode):
                        sizes[candidate] = st.st_size
                for candidate in sorted(sizes, key=lambda f: (-sizes[f], f.name)):
                    yield candidate, False
        else:
            yield path, True


def _target_of(triple: str | None) -> str | None:
    return triple.rsplit("--", 1)[-1] if triple else None


def iter_units(paths: Iterable[str | Path], *, target: str | None = None) -> Iterator[Unit]:
    """The units of ``paths`` in file order; code objects whose bundle entry names another processor than
    ``target`` are left out here (those without a bundle triple are filtered once parsed)."""
    for path, named in _files(paths):
        file = str(path.resolve()) if path.exists() else str(path)
        try:
            if is_binary_file(path):
                yield from _binary_units(path, file, named, target)
            elif is_source(path):
                yield Unit(file, "file", _file_hash(path), "source")
            elif named or path.suffix.lower() in TEXT_SUFFIXES:
                data = read_file(path)
                yield Unit(file, "file", _sha(data), "text", data)
        except OSError as exc:
            yield Unit(file, "file", "unreadable", "error", error=(f"cannot read: {exc.strerror}", "io"))
        except IsalensError as exc:  # a device, a pipe, a file over the input cap: the scan goes on
            yield Unit(file, "file", "unreadable", "error", error=(exc.message, exc.code))


def _binary_units(path: Path, file: str, named: bool, target: str | None) -> Iterator[Unit]:
    from isalens.binary.container import find_code_objects

    found = 0
    try:
        with mapped(path) as data:
            for ref in find_code_objects(data, file=file):
                found += 1
                entry_target = _target_of(ref.triple)
                if target and entry_target and entry_target.split(":", 1)[0] != target.split(":", 1)[0]:
                    continue
                yield Unit(file, ref.source, _sha(ref.data), "code-object", ref.data, ref.triple)
    except IsalensError as exc:
        if exc.code == "not-amdgpu" and not named and not found:
            return  # a directory's host programs without GPU code are not inputs
        try:
            digest = _file_hash(path)
        except IsalensError:
            digest = "unreadable"
        yield Unit(file, "file", digest, "error", error=(exc.message, exc.code))
