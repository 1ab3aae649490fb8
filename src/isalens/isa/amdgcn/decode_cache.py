"""Decoded instruction texts kept across runs, in a file under the user's cache directory.

Decoding a distinct instruction text (syntax, semantics table, facts) is the largest single cost of reading a
kernel: 12,375 distinct texts of the dense 100k benchmark took about 6 s, the 742 of an 800-instruction example
about 0.2 s, and the next run decodes the same texts again. The decoded texts of one target, wave size and
unknown-instruction policy are written here at exit and read back by the next process.

A file is read lazily: its payload holds the texts of each mnemonic in 2**bits pickled "chunks" (a text's chunk
is picked by the CRC-32 of the text; ``bits`` grows with the mnemonic's count, so a chunk holds fewer than
:data:`CHUNK_TEXTS` texts on average), and a chunk is unpickled only when the run first meets one of its texts
that it has not decoded. A small kernel of a target once used for a big one unpickles about its own texts, not
the big one's: one chunk per mnemonic made the 812-instruction example unpickle most of the dense kernel's 12,000
texts.
Chunks never unpickled are written back as they were read. The file is read lazily too: after the magic line come
the digest and the length of a header (the index, and each chunk's offset, length and digest), then the chunks'
bytes (digests: BLAKE2b-256, isalens.cachefile.digest); opening a file reads and checks the header only, and a
chunk is read and checked when it is taken. A file holding a 1M-instruction kernel's texts (34 MB) made every
later small run of its target read and hash it whole: 0.09 s of a 0.27 s run (docs/performance.md, seventeenth
session). Dataclass entries are pickled as their constructor call (:class:`_Pickler`), which Python 3.11 rebuilds
several times faster than through ``__setstate__`` (that calls ``dataclasses.fields()`` per object).

The file is named by a key that changes whenever its content could: the isalens version and the size and
modification time of every source and table file of the readers (``isalens/isa``, ``isalens/ir``), so an edited
table or decoder never meets an old file. Nothing read is trusted: the header and every chunk carry their digest
and are used only if the digest matches and the file is this user's own, writable by no one else
(isalens/cachefile.py); the unpickler builds only isalens classes and plain containers, and the caller checks each
entry's type; a file or chunk failing any of this is ignored (and rewritten at exit). ``ISALENS_DECODE_CACHE=0``
turns the cache off; ``XDG_CACHE_HOME`` moves it (default ``~/.cache/isalens``). A file's name starts with the key's
fingerprint; a run that writes removes files of other fingerprints unwritten for a week, the oldest of them beyond
1 GiB, and temporary files of killed writers (:func:`prune`), so upgrades and edits do not grow the directory.
"""

from __future__ import annotations

import atexit
import io
import os
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from pathlib import Path
from typing import Any

from isalens.cachefile import DIGEST_SIZE, cache_directory, digest, owned_by_user, write_file
from isalens.records import fields as record_fields
from isalens.records import is_record
from isalens.version import __version__

try:  # pickle's own C classes (pickle.Pickler is _pickle.Pickler): importing pickle.py (with struct and a probe for
    # Jython's modules) was ~1.4 ms of a small run's start-up (docs/performance.md, twenty-first session)
    from _pickle import Pickler as _CPickler
    from _pickle import Unpickler as _CUnpickler
    from _pickle import UnpicklingError
    from _pickle import dumps as _pickle_dumps
except ImportError:  # an interpreter without the accelerator: pickle.py's
    from pickle import Pickler as _CPickler
    from pickle import Unpickler as _CUnpickler
    from pickle import UnpicklingError
    from pickle import dumps as _pickle_dumps

#: the pickle protocol written: pickle.HIGHEST_PROTOCOL of Python 3.8 and later (tests/unit/test_decode_cache.py)
PROTOCOL = 5

_MAGIC = b"isalens-decoded-5\n"  # 5: digests by cachefile.digest (was SHA-256)
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
        lines = [__version__]
        for top in ("isa", "ir", "version.py", "errors.py"):
            for parts in _reader_files(str(_PACKAGE), (top,)):
                st = os.stat(os.path.join(_PACKAGE, *parts))
                lines.append(f"{'/'.join(parts)}\0{st.st_size}\0{st.st_mtime_ns}\n")
        _FINGERPRINT.append(digest("".join(lines).encode()).hex())
    return _FINGERPRINT[0]


_READER_SUFFIXES = (".py", ".txt", ".toml", ".json")


def _reader_files(package: str, top: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The path parts (below ``package``) of the file ``top``, or of every source and table file in the directory
    ``top`` and below it, outside ``__pycache__``, ordered by their parts as sorted ``Path`` objects are. Walked with
    ``os.scandir``: ``Path.rglob`` and a ``Path`` per file took half of this fingerprint's 2-4 ms per run."""
    path = os.path.join(package, *top)
    if not os.path.isdir(path):
        return [top] if os.path.splitext(top[-1])[1] in _READER_SUFFIXES and os.path.exists(path) else []
    found: list[tuple[str, ...]] = []
    with os.scandir(path) as entries:
        for entry in entries:
            parts = (*top, entry.name)
            if entry.is_dir():
                if entry.name != "__pycache__":
                    found += _reader_files(package, parts)
            elif os.path.splitext(entry.name)[1] in _READER_SUFFIXES:
                found.append(parts)
    return sorted(found)


def _directory() -> Path:
    return cache_directory() / "decoded"


def _prefix() -> str:
    """The start of every file name this source tree writes: its fingerprint, so files of other versions (or
    other trees) are told apart without reading them."""
    return _fingerprint()[:16]


def path_for(key: str) -> Path:
    """The cache file of ``key`` (the target, wave size and policy, spelled by the caller)."""
    name = digest(f"{_fingerprint()}\0{key}".encode()).hex()[:32]
    return _directory() / f"{_prefix()}-{name}.pickle"


#: files of another fingerprint not written for this long are removed (they are read only by the isalens
#: version or source tree that wrote them: after an upgrade or an edit nothing reads them again)
STALE_SECONDS = 7 * 24 * 3600
#: and of those younger, the oldest are removed while they hold more than this (several trees in use at once
#: keep their files; an edited tree leaves one set of files per edit: a developer's directory reached 2.2 GB)
FOREIGN_BYTES = 1 << 30
#: a writer's temporary file older than this was left by a killed process (writing one takes milliseconds)
_TEMP_SECONDS = 3600


def prune(directory: Path, prefix: str, now: float) -> list[Path]:
    """Remove from ``directory`` what no run of this tree reads: files of another fingerprint (not starting
    with ``prefix``) last written over :data:`STALE_SECONDS` before ``now``, then the oldest others while
    they hold more than :data:`FOREIGN_BYTES`, and temporary files left by killed writers. This tree's files
    stay. Returns what was removed; a file that cannot be removed is no error (the cache only saves time)."""
    foreign: list[tuple[float, int, Path]] = []
    doomed: list[Path] = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    for entry in entries:
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if entry.name.startswith(".tmp-"):
            if now - st.st_mtime > _TEMP_SECONDS:
                doomed.append(Path(entry.path))
        elif entry.name.endswith(".pickle") and not entry.name.startswith(prefix + "-"):
            if now - st.st_mtime > STALE_SECONDS:
                doomed.append(Path(entry.path))
            else:
                foreign.append((st.st_mtime, st.st_size, Path(entry.path)))
    total = sum(size for _, size, _ in foreign)
    for _, size, path in sorted(foreign, key=lambda f: (f[0], f[2].name)):
        if total <= FOREIGN_BYTES:
            break
        doomed.append(path)
        total -= size
    removed: list[Path] = []
    for path in doomed:
        try:
            path.unlink()
        except OSError:
            continue
        removed.append(path)
    return removed


class _Unpickler(_CUnpickler):
    """Builds isalens classes (dataclasses, enums) and nothing else: no function of any module is callable."""

    def find_class(self, module: str, name: str) -> Any:
        found = _ALLOWED.get((module, name))
        if found is not None:  # every chunk names the same few classes: looked up once per process
            return found
        if module == "isalens" or module.startswith("isalens."):
            obj = super().find_class(module, name)
            if isinstance(obj, type):
                _ALLOWED[module, name] = obj
                return obj
        if module == "builtins" and name in ("frozenset", "set", "tuple", "list", "dict", "int", "str"):
            found = _ALLOWED[module, name] = super().find_class(module, name)
            return found
        raise UnpicklingError(f"{module}.{name} is not allowed in a decode cache")


#: the classes :class:`_Unpickler` has allowed, by module and name
_ALLOWED: dict[tuple[str, str], Any] = {}


#: a mnemonic's texts are split into more chunks (twice as many) once a chunk would hold more than this on average:
#: few enough texts that a small kernel unpickles little beyond its own, enough that a run needing every chunk
#: (the dense kernel) pays little for the per-chunk cost of an unpickler (measured in docs/performance.md)
CHUNK_TEXTS = 16
#: the most bits a mnemonic's chunks are numbered with (a file's index naming more is not read)
_MAX_BITS = 20


def mnemonic(text: str) -> str:
    """A text's first word (its mnemonic), "" for a blank text."""
    return text.split(None, 1)[0] if text.strip() else ""


def bits_for(count: int) -> int:
    """How many bits number the chunks of a mnemonic of ``count`` texts: the fewest giving at most
    :data:`CHUNK_TEXTS` texts per chunk on average (0 bits, one chunk, up to CHUNK_TEXTS - 1 texts)."""
    return min((count // CHUNK_TEXTS).bit_length(), _MAX_BITS)


def chunk_key(text: str, bits: int) -> str:
    """The chunk of ``text`` when its mnemonic's chunks are numbered with ``bits`` bits: the mnemonic and the low
    bits of the text's CRC-32 (stable across processes, unlike ``hash``)."""
    return f"{mnemonic(text)} {zlib.crc32(text.encode()) & ((1 << bits) - 1)}"


class Store:
    """One cache file's chunks, each unpickled only when :meth:`take` first asks for it."""

    def __init__(self, path: Path, entry_ok: Callable[[Any], bool]) -> None:
        self.path = path
        self.entry_ok = entry_ok
        #: mnemonic -> (the bits its chunks are numbered with, how many texts it holds)
        self.index: dict[str, tuple[int, int]]
        #: chunk key -> its pickled entries (written back as they are unless the chunk gained texts), each read
        #: from the file when first asked for
        self.raw: MutableMapping[str, bytes]
        self.index, self.raw = _read_chunks(path)
        #: chunk key -> the texts it holds, for every chunk taken (its entries went to the caller)
        self.taken: dict[str, frozenset[str]] = {}

    def key(self, text: str) -> str:
        """The chunk ``text`` is (or would be) stored in."""
        return chunk_key(text, self.index.get(mnemonic(text), (0, 0))[0])

    def take(self, text: str) -> dict[str, Any]:
        """The stored entries of ``text``'s chunk, the first time it is asked for (then none). A chunk that fails
        to unpickle, or holds an entry failing ``entry_ok`` or stored under another chunk or text, gives its good
        entries only and is not written back as it was."""
        key = self.key(text)
        return self._take_key(key) if key not in self.taken else {}

    def _take_key(self, key: str) -> dict[str, Any]:
        data = self.raw.get(key)
        if data is None:
            self.taken[key] = frozenset()
            return {}
        entries = _unpickle(data)
        word, _, number = key.rpartition(" ")
        mask = (1 << self.index.get(word, (0, 0))[0]) - 1
        good = {k: v for k, v in entries.items() if isinstance(k, str) and mnemonic(k) == word
                and str(zlib.crc32(k.encode()) & mask) == number and self.entry_ok(v) and getattr(v, "text", k) == k}
        if len(good) == len(entries) and good:
            self.taken[key] = frozenset(good)
        else:  # damaged: rewritten from what the run holds
            del self.raw[key]
            self.taken[key] = frozenset()
        return good

    def payload(self, entries: Iterable[tuple[str, Any]], keep: Callable[[Any], bool]) -> bytes:
        """The file's new payload: every chunk as read, except the chunks of ``entries`` (what ``keep`` accepts)
        that hold a text the file did not, pickled again (all of a mnemonic's chunks when its texts outgrow its
        bits: they are numbered again with more)."""
        fresh: dict[str, dict[str, Any]] = {}
        for text, entry in entries:
            if keep(entry):
                fresh.setdefault(mnemonic(text), {})[text] = entry
        for word, group in fresh.items():
            bits, count = self.index.get(word, (0, 0))
            for key in {self.key(text) for text in group} - self.taken.keys():
                # decoded without asking the file first: keep what it holds too
                group = {**self._take_key(key), **group}
            added = sum(1 for text in group if text not in self.taken[self.key(text)])
            if not added:
                continue
            count += added
            if bits_for(count) > bits:  # outgrown: every chunk of the mnemonic read and numbered again
                for number in range(1 << bits):
                    key = f"{word} {number}"
                    if key not in self.taken:
                        group = {**self._take_key(key), **group}
                    self.raw.pop(key, None)
                    del self.taken[key]
                bits, count = bits_for(len(group)), len(group)
            self.index[word] = (bits, count)
            chunks: dict[str, dict[str, Any]] = {}
            for text, entry in group.items():
                chunks.setdefault(chunk_key(text, bits), {})[text] = entry
            for key, chunk in chunks.items():
                if not chunk.keys() <= self.taken.get(key, frozenset()) or key not in self.raw:
                    self.raw[key] = _dumps(chunk)
                    self.taken[key] = frozenset(chunk)
        return _encode(self.index, self.raw)


#: the open store of each cache file (one per target, wave size and policy in a process)
_STORES: dict[Path, Store] = {}


def open_store(path: Path, entry_ok: Callable[[Any], bool]) -> Store:
    """The store of ``path``, read once per process (a missing, damaged, foreign or unsafely owned file gives an
    empty store: :func:`_read_chunks`; never an error: the cache only saves time)."""
    store = _STORES.get(path)
    if store is None:
        store = _STORES[path] = Store(path, entry_ok)
    return store


def load(path: Path, entry_ok: Callable[[Any], bool]) -> dict[str, Any]:
    """Every entry stored in ``path`` for which ``entry_ok`` holds (all chunks at once: for tests and tools)."""
    store = Store(path, entry_ok)
    entries: dict[str, Any] = {}
    for key in list(store.raw):
        entries.update(store._take_key(key))
    return entries


#: the header's digest and length, after the magic line
_HEAD = DIGEST_SIZE + 8


def _read_chunks(path: Path) -> tuple[dict[str, tuple[int, int]], MutableMapping[str, bytes]]:
    """The index and the chunks of ``path`` (read on demand); none when the file is missing, too large, not this
    user's own, of another format or its header is damaged (a dict of mnemonics to bits and counts, a dict of
    chunk keys to the offset, length and digest of their bytes in the file)."""
    try:
        f = path.open("rb")
    except OSError:
        return {}, _Chunks(None, {})
    try:
        st = os.fstat(f.fileno())
        head = f.read(len(_MAGIC) + _HEAD)
        size = int.from_bytes(head[len(_MAGIC) + DIGEST_SIZE:], "little")
        if not (owned_by_user(st) and st.st_size <= _MAX_BYTES and len(head) == len(_MAGIC) + _HEAD
                and head.startswith(_MAGIC) and size <= st.st_size):
            raise OSError("not a decode cache of this format")
        header = f.read(size)
        if digest(header) != head[len(_MAGIC):len(_MAGIC) + DIGEST_SIZE]:
            raise OSError("damaged")
    except OSError:
        f.close()
        return {}, _Chunks(None, {})
    obj = _unpickle_any(header)
    if not (isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], dict) and isinstance(obj[1], dict)):
        f.close()
        return {}, _Chunks(None, {})
    index = {k: v for k, v in obj[0].items() if isinstance(k, str) and isinstance(v, tuple) and len(v) == 2
             and all(type(n) is int for n in v) and 0 <= v[0] <= _MAX_BITS and v[1] >= 0}
    start = len(_MAGIC) + _HEAD + size
    body = st.st_size - start
    where = {k: (start + v[0], v[1], v[2]) for k, v in obj[1].items()
             if isinstance(k, str) and isinstance(v, tuple) and len(v) == 3 and type(v[0]) is int
             and type(v[1]) is int and isinstance(v[2], bytes) and len(v[2]) == DIGEST_SIZE and v[0] >= 0
             and v[1] >= 0 and v[0] + v[1] <= body}
    return index, _Chunks(f, where)


class _Chunks(MutableMapping[str, bytes]):
    """A file's chunks by key: each read from the file (and its digest checked) when first asked for; a chunk that
    cannot be read or fails its digest is not there. Chunks set here replace the file's."""

    def __init__(self, file: io.BufferedReader | None, where: dict[str, tuple[int, int, bytes]]) -> None:
        #: the file, open while chunks may be read from it (a file renamed over it by another run leaves this one
        #: readable: each run reads the file it opened)
        self._file = file
        #: key -> (offset in the file, length, digest) of the chunks not read yet
        self._where = where
        self._read: dict[str, bytes] = {}

    def __del__(self) -> None:
        if self._file is not None:
            self._file.close()

    def __getitem__(self, key: str) -> bytes:
        data = self._read.get(key)
        if data is not None:
            return data
        offset, length, sealed = self._where.pop(key)  # KeyError: not stored
        try:
            data = os.pread(self._file.fileno(), length, offset) if self._file is not None else b""
        except OSError:
            data = b""
        if len(data) != length or digest(data) != sealed:
            raise KeyError(key)  # damaged: as if never stored (the run decodes its texts and writes the chunk)
        self._read[key] = data
        return data

    def __contains__(self, key: object) -> bool:
        return key in self._read or key in self._where

    def __setitem__(self, key: str, data: bytes) -> None:
        self._where.pop(key, None)
        self._read[key] = data

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        self._where.pop(key, None)
        self._read.pop(key, None)

    def __iter__(self) -> Iterator[str]:
        return iter([*self._read, *self._where])

    def __len__(self) -> int:
        return len(self._read) + len(self._where)


def _encode(index: dict[str, tuple[int, int]], chunks: MutableMapping[str, bytes]) -> bytes:
    """The file after its magic line: the header's digest and length, the header (the index, and each chunk's
    offset in the body, length and digest), the body (every chunk readable from ``chunks``, in key order)."""
    body = io.BytesIO()
    table: dict[str, tuple[int, int, bytes]] = {}
    for key in sorted(chunks):
        data = chunks.get(key)
        if data is None:  # damaged in the file: dropped
            continue
        table[key] = (body.tell(), len(data), digest(data))
        body.write(data)
    header = _pickle_dumps((index, table), protocol=PROTOCOL)
    return digest(header) + len(header).to_bytes(8, "little") + header + body.getvalue()


def _unpickle_any(data: bytes) -> Any:
    """The object pickled in ``data``, or None if it is damaged or names a refused class."""
    try:
        return _Unpickler(io.BytesIO(data)).load()
    except Exception:  # bad opcodes or a refused class under a good digest: no cache
        return None


def _unpickle(data: bytes) -> dict[Any, Any]:
    """The dict pickled in ``data``, or an empty one if it is damaged, not a dict or names a refused class."""
    obj = _unpickle_any(data)
    return obj if isinstance(obj, dict) else {}


#: classes :class:`_Pickler` writes as a constructor call (None: the default way), decided once per class
_PLAIN: dict[type, tuple[str, ...] | None] = {}


def _plain_fields(cls: type) -> tuple[str, ...] | None:
    """The field names of a dataclass whose generated ``__init__`` takes exactly its fields in order and does
    nothing else (no ``__post_init__``, no init-only or non-init field), else None."""
    if hasattr(cls, "__post_init__"):
        return None
    if is_record(cls):  # isalens.records: its __init__ takes the fields in order when each is in it
        return cls.__record_names__ if all(f.init for f in record_fields(cls)) else None  # type: ignore[attr-defined]
    if not isinstance(cls.__dict__.get("__dataclass_fields__"), dict):  # not a dataclass (asked without importing it)
        return None
    import dataclasses
    init = cls.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    if code is None or code.co_filename != "<string>":  # not written by dataclasses (a hand-written __init__)
        return None
    fields = dataclasses.fields(cls)
    declared = [f for f in cls.__dataclass_fields__.values() if f._field_type is not dataclasses._FIELD_CLASSVAR]  # type: ignore[attr-defined]
    if len(declared) != len(fields) or not all(f.init for f in fields):
        return None
    return tuple(f.name for f in fields)


class _Pickler(_CPickler):
    """Writes a plain dataclass instance as ``cls(*fields)``: unpickled by its ``__init__``, not by the slower
    ``__setstate__`` of slotted dataclasses; any other object the default way."""

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        if cls not in _PLAIN:
            _PLAIN[cls] = _plain_fields(cls) if isinstance(cls, type) and cls.__module__.startswith("isalens") \
                else None
        names = _PLAIN[cls]
        if names is None:
            return NotImplemented
        return cls, tuple(getattr(obj, name) for name in names)


def _dumps(obj: Any) -> bytes:
    out = io.BytesIO()
    _Pickler(out, protocol=PROTOCOL).dump(obj)
    return out.getvalue()


def save_at_exit(path: Path, cache: dict[str, Any], keep: Callable[[Any], bool]) -> None:
    """Write ``cache`` (its entries ``keep`` accepts, with the chunks of ``path`` not taken) to ``path`` when the
    process exits."""
    if not _DIRTY:
        atexit.register(_save_all)
    _DIRTY[path] = (cache, keep)


def _save_all() -> None:
    for path, (cache, keep) in list(_DIRTY.items()):
        store = _STORES.get(path) or Store(path, keep)
        _save(path, store, cache, keep)
    _DIRTY.clear()
    prune(_directory(), _prefix(), time.time())


def _save(path: Path, store: Store, cache: dict[str, Any], keep: Callable[[Any], bool]) -> None:
    """Write the store's new payload (:func:`isalens.cachefile.write_file`); an entry that cannot be pickled
    is no error."""
    try:
        payload = store.payload(list(cache.items()), keep)
    except Exception:  # a cache that cannot be written only costs time next run
        return
    if len(_MAGIC) + len(payload) <= _MAX_BYTES:
        write_file(path, _MAGIC + payload)
