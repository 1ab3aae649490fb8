"""The files a server was opened on, and the only ones it reads or writes.

A request names a file by the name this module listed, never by a path: the name is looked up in a table made at
start-up, so ``../``, absolute paths and other spellings simply do not exist. Symbolic links that lead out of the
opened directory are left out of the table, and every read or write refuses a file that has become a link since.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from isalens.errors import InputError

__all__ = ["EDITABLE_SUFFIXES", "MAX_FILES", "OpenedFiles", "UnknownFile"]

#: what the page can compile: the engine's source suffixes, and ISA text
EDITABLE_SUFFIXES = (".cl", ".hip", ".ll", ".comp", ".frag", ".vert", ".glsl", ".hlsl", ".s")
#: a directory with more candidate files than this is refused rather than walked for minutes
MAX_FILES = 2000


class UnknownFile(InputError):
    """A request named a file the server was not opened on."""


@dataclass(frozen=True)
class OpenedFiles:
    """Name shown on the page -> the real path of that file (symlinks resolved at start-up)."""

    root: Path
    files: dict[str, Path]

    @classmethod
    def open(cls, target: Path) -> OpenedFiles:
        """One file, or every editable file under a directory (hidden directories and outward links skipped)."""
        if not target.exists():
            raise InputError("no such file or directory", file=str(target), code="io")
        real = target.resolve()
        if real.is_file():
            return cls(real.parent, {real.name: real})
        if not real.is_dir():
            raise InputError("not a regular file or directory", file=str(target), code="not-regular")
        files: dict[str, Path] = {}
        for dirpath, dirnames, filenames in os.walk(real):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                if not name.lower().endswith(EDITABLE_SUFFIXES) or name.startswith("."):
                    continue
                found = Path(dirpath, name)
                resolved = found.resolve()
                if not resolved.is_relative_to(real) or not resolved.is_file():
                    continue  # a link out of the tree, or to something that is not a file
                files[found.relative_to(real).as_posix()] = resolved
                if len(files) > MAX_FILES:
                    raise InputError(f"more than {MAX_FILES} source files under this directory: open a smaller one",
                                     file=str(target), code="too-large")
        if not files:
            raise InputError(f"no source files ({', '.join(EDITABLE_SUFFIXES)}) under this directory",
                             file=str(target), code="empty")
        return cls(real, files)

    def path_of(self, name: str) -> Path:
        """The file listed under ``name``; anything else is :class:`UnknownFile`."""
        path = self.files.get(name)
        if path is None:
            raise UnknownFile(f"not a file this server was opened on: {name!r}", code="serve-forbidden")
        return path

    def read(self, name: str, cap: int) -> str:
        """The file's text (at most ``cap`` bytes), refused if it has become a link or something else."""
        path = self.path_of(name)
        fd = _open(path, os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as f:
            data = f.read(cap + 1)
        if len(data) > cap:
            raise InputError(f"larger than the {cap} bytes the page edits", file=name, code="too-large")
        return data.decode("utf-8", errors="replace")

    def write(self, name: str, text: str) -> int:
        """Replace the file's contents with ``text``; never creates a file or follows a link. Returns bytes written."""
        path = self.path_of(name)
        data = text.encode("utf-8")
        fd = _open(path, os.O_WRONLY | os.O_TRUNC | os.O_NONBLOCK)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        return len(data)


def _open(path: Path, flags: int) -> int:
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise InputError(f"cannot open: {exc.strerror or exc}", file=str(path), code="io") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InputError("not a regular file any more", file=str(path), code="not-regular")
    return fd
