"""Files isalens keeps under the user's cache directory to save time across runs (decoded instruction texts,
compiled dataclass methods): a magic line, the digest of the payload (:func:`digest`) and the payload, written
atomically and read back only whole, undamaged and owned by this user with no one else allowed to write it (as
Python trusts a ``__pycache__`` file). Reading or writing never fails: a cache only saves time. What a payload may
hold is the caller's to check."""

from __future__ import annotations

import os
from pathlib import Path

try:  # the interpreter's own BLAKE2: importing hashlib loads OpenSSL's libcrypto first, ~2.5 ms of a small run's
    # start-up, and every run checks its cache files (docs/performance.md, twenty-first session)
    from _blake2 import blake2b as _blake2b
except ImportError:  # an interpreter built without it: hashlib's
    from hashlib import blake2b as _blake2b

__all__ = ["cache_directory", "digest", "owned_by_user", "read_sealed", "write_file", "write_sealed"]

#: bytes of :func:`digest`
DIGEST_SIZE = 32


def digest(data: bytes) -> bytes:
    """The BLAKE2b digest of ``data`` in :data:`DIGEST_SIZE` bytes: what every cache file is sealed, checked and
    keyed with (a cryptographic hash as SHA-256 is, without hashlib's import)."""
    return _blake2b(data, digest_size=DIGEST_SIZE).digest()


def cache_directory() -> Path:
    """``$XDG_CACHE_HOME/isalens``, by default ``~/.cache/isalens``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "isalens"


def read_sealed(path: Path, magic: bytes, max_bytes: int) -> bytes | None:
    """The payload of ``path``, or None if it is missing, larger than ``max_bytes``, of another format, damaged,
    or not this user's own file (another user could have planted it in a shared cache directory)."""
    try:
        with path.open("rb") as f:
            st = os.fstat(f.fileno())
            if not owned_by_user(st):
                return None
            data = f.read(max_bytes + 1)
    except OSError:
        return None
    if len(data) > max_bytes or not data.startswith(magic):
        return None
    sealed, payload = data[len(magic):len(magic) + DIGEST_SIZE], data[len(magic) + DIGEST_SIZE:]
    return payload if digest(payload) == sealed else None


def write_sealed(path: Path, magic: bytes, payload: bytes) -> None:
    """Write ``payload`` to ``path`` atomically (a temporary file of mode 0600 renamed over the old one: a reader
    sees the old file or the new one); an unwritable cache directory is no error."""
    write_file(path, magic + digest(payload) + payload)


def owned_by_user(st: os.stat_result) -> bool:
    """Whether a file of status ``st`` is this user's own and writable by no one else (a cache file read at all)."""
    return st.st_uid == os.getuid() and not st.st_mode & 0o022


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` as :func:`write_sealed` does (atomically, mode 0600; never an error), for a file
    that carries its own digests (isa/amdgcn/decode_cache.py)."""
    import tempfile  # on use: a run whose caches are complete writes nothing

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:  # a cache that cannot be written only costs time next run
        pass
