"""The decoded-text cache kept across runs (isa/amdgcn/decode_cache.py): a warm run prints what an uncached run
prints, the cache is really read, and a damaged or hostile file is ignored, never trusted."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

from isalens.isa.amdgcn import decode_cache

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "isa" / "fp16_half3_two_uint.gfx902.s"


def _run(xdg: Path, *, enabled: bool = True) -> str:
    env = dict(os.environ, XDG_CACHE_HOME=str(xdg), ISALENS_DECODE_CACHE="1" if enabled else "0",
               PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run([sys.executable, "-m", "isalens", "livereg", str(EXAMPLE), "--json"], env=env,
                          capture_output=True, text=True, check=True)
    return done.stdout


def _files(xdg: Path) -> list[Path]:
    return sorted((xdg / "isalens" / "decoded").glob("*.pickle"))


def _seal_header(path: Path, header: bytes, body: bytes = b"") -> None:
    """A file in the cache's format (decode_cache's docstring) with a correct header digest: the magic line, the
    header's BLAKE2b-256 digest and length (8 bytes, little-endian), the header, the body."""
    path.write_bytes(decode_cache._MAGIC + hashlib.blake2b(header, digest_size=32).digest()
                     + len(header).to_bytes(8, "little") + header + body)


def _seal(path: Path, payload: bytes) -> None:
    """``payload``, a pickled (index, chunk key -> chunk bytes), in the cache's format with correct digests (what a
    damaged-but-resigned file would be): the header holds each chunk's offset in the body, length and digest."""
    index, chunks = pickle.loads(payload)
    body, table = b"", {}
    for key, data in chunks.items():
        table[key] = (len(body), len(data), hashlib.blake2b(data, digest_size=32).digest())
        body += data
    _seal_header(path, pickle.dumps((index, table)), body)


def _logical(payload: bytes) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The index and chunks of a file's content after its magic line (what ``Store.payload`` returns), every digest
    checked."""
    size = int.from_bytes(payload[32:40], "little")
    header, body = payload[40:40 + size], payload[40 + size:]
    assert hashlib.blake2b(header, digest_size=32).digest() == payload[:32]
    index, table = pickle.loads(header)
    chunks = {}
    for key, (offset, length, digest) in table.items():
        chunks[key] = body[offset:offset + length]
        assert hashlib.blake2b(chunks[key], digest_size=32).digest() == digest
    return index, chunks


def _bucket(text: str, bits: int) -> str:
    """The chunk key of the documented rule, spelled out here: the mnemonic, a space, and the low ``bits`` bits of
    the CRC-32 of the text's UTF-8 bytes."""
    return f"{text.split()[0]} {zlib.crc32(text.encode()) % (1 << bits)}"


def _write(path: Path, entries: dict[Any, Any], bits: int = 0) -> None:
    """``entries`` stored as the cache stores them: an index (mnemonic -> bits, count) and the pickled chunks of
    each mnemonic, numbered with ``bits`` bits (plain pickles here)."""
    chunks: dict[str, dict[Any, Any]] = {}
    counts: dict[str, int] = {}
    for text, entry in entries.items():
        chunks.setdefault(_bucket(str(text), bits), {})[text] = entry
        counts[str(text).split()[0]] = counts.get(str(text).split()[0], 0) + 1
    index = {word: (bits, count) for word, count in counts.items()}
    _seal(path, pickle.dumps((index, {key: pickle.dumps(chunk) for key, chunk in chunks.items()})))


def _accept(entry: object) -> bool:
    return True


@pytest.fixture(scope="module")
def oracle(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The output with the cache off: every text decoded in this run."""
    return _run(tmp_path_factory.mktemp("off"), enabled=False)


def test_warm_run_equals_uncached_and_reads_the_cache(tmp_path: Path, oracle: str) -> None:
    assert _run(tmp_path) == oracle  # cold: decodes, writes at exit
    [path] = _files(tmp_path)
    entries = decode_cache.load(path, _accept)
    assert entries and all(key == entry.text for key, entry in entries.items())
    assert _run(tmp_path) == oracle  # warm
    # the warm run really takes its decoded texts from the file: a changed entry changes the output
    key, entry = next((k, e) for k, e in entries.items() if e.mnemonic.startswith("v_") and e.defs)
    entries[key] = dataclasses.replace(entry, defs=0)
    _write(path, entries)
    assert _run(tmp_path) != oracle


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "foreign"])
def test_damaged_file_is_ignored_and_rewritten(tmp_path: Path, oracle: str, damage: str) -> None:
    _run(tmp_path)
    [path] = _files(tmp_path)
    stored = decode_cache.load(path, _accept)
    data = bytearray(path.read_bytes())
    if damage == "flip":
        data[len(data) // 2] ^= 0x40
    elif damage == "truncate":
        del data[len(data) // 3:]
    elif damage == "empty":
        data.clear()
    else:
        data[:] = b"not a cache at all\n" * 100
    path.write_bytes(bytes(data))
    damaged = decode_cache.load(path, _accept)
    # a flipped byte in the body loses its chunk only, a truncated file the chunks cut off (each chunk has its own
    # digest and place); a file of another kind gives nothing
    assert damaged.items() < stored.items()
    assert damage in ("flip", "truncate") or damaged == {}
    assert _run(tmp_path) == oracle
    assert decode_cache.load(path, _accept) == stored  # written again, whole


def test_hostile_payload_with_a_valid_digest_is_refused(tmp_path: Path) -> None:
    """A digest proves no damage, not good intent: the unpickler builds isalens classes only."""
    path = tmp_path / "x.pickle"
    _write(path, {"s_nop 0": os.getcwd})  # a function of another module
    assert decode_cache.load(path, _accept) == {}
    _write(path, {"s_nop 0": decode_cache.load})  # an isalens function, not a class
    assert decode_cache.load(path, _accept) == {}
    _seal_header(path, pickle.dumps(({}, {"s_nop 0": os.getcwd})))  # the same in the chunk table itself
    assert decode_cache.load(path, _accept) == {}
    _seal_header(path, pickle.dumps((os.getcwd, {})))  # and in the index
    assert decode_cache.load(path, _accept) == {}
    _seal_header(path, pickle.dumps(["not", "a", "dict"]))
    assert decode_cache.load(path, _accept) == {}
    _seal_header(path, pickle.dumps({"s_nop 0": pickle.dumps({"s_nop 0": 1})}))  # mnemonic-keyed format 2: no index
    assert decode_cache.load(path, _accept) == {}
    _seal(path, pickle.dumps(({}, {"s_nop 0": pickle.dumps(["not", "a", "dict"])})))
    assert decode_cache.load(path, _accept) == {}
    _write(path, {"s_nop 0": 1, 2: 3, "s_endpgm": "x"})  # entries the caller's check refuses are dropped
    assert decode_cache.load(path, lambda e: isinstance(e, int)) == {"s_nop 0": 1}
    # an entry filed under another mnemonic's chunk, or another chunk of its mnemonic, is not taken from it
    _seal(path, pickle.dumps(({}, {"s_nop 0": pickle.dumps({"s_nop 0": 1, "s_endpgm": 2})})))
    assert decode_cache.load(path, lambda e: isinstance(e, int)) == {"s_nop 0": 1}
    texts = [f"s_nop {i}" for i in range(8)]
    one = next(t for t in texts if _bucket(t, 1) == "s_nop 1")  # a text of chunk 1 when numbered with 1 bit
    _seal(path, pickle.dumps(({"s_nop": (1, 2)}, {"s_nop 0": pickle.dumps({"s_nop 99": 1, one: 2})})))
    expected = {"s_nop 99": 1} if _bucket("s_nop 99", 1) == "s_nop 0" else {}
    assert decode_cache.load(path, lambda e: isinstance(e, int)) == expected
    # an index entry that is not (bits, count) within range is ignored: the mnemonic's chunks count as one
    for bad in ((1,), (1, -1), (99, 1), ("1", 1), (True, 1)):
        _seal(path, pickle.dumps(({"s_nop": bad}, {"s_nop 0": pickle.dumps({"s_nop 0": 1})})))
        assert decode_cache.Store(path, _accept).index == {}, bad


def test_a_file_others_may_write_is_not_read(tmp_path: Path) -> None:
    """A cache directory may be shared (XDG_CACHE_HOME on a common disk): a file another user could have
    written is ignored, as Python ignores such a ``__pycache__`` file (isalens/cachefile.py)."""
    path = tmp_path / "x.pickle"
    _write(path, {"s_nop 0": 1})
    path.chmod(0o600)
    assert decode_cache.load(path, _accept) == {"s_nop 0": 1}  # the intact own file is read
    for mode in (0o620, 0o602):
        path.chmod(mode)
        assert decode_cache.load(path, _accept) == {}, oct(mode)


def test_chunks_are_unpickled_on_demand_and_written_back_unchanged(tmp_path: Path) -> None:
    """Only the chunk of a text asked for is unpickled; a chunk never asked for is written back byte for byte, and
    one that gained a text is written with it (so a small kernel never pays for a big one's texts)."""
    path = tmp_path / "x.pickle"
    texts = {f"s_nop {i}": i for i in range(12)}
    _write(path, {**texts, "v_mov_b32 v0, 0": 100}, bits=2)
    store = decode_cache.Store(path, lambda e: isinstance(e, int))
    before = dict(store.raw)
    asked = "s_nop 77"  # not stored: its chunk (by the rule) is unpickled, no other
    same = {t: i for t, i in texts.items() if _bucket(t, 2) == _bucket(asked, 2)}
    assert store.take(asked) == same and same
    assert store.take(next(iter(same))) == {}  # taken once only
    assert set(store.taken) == {_bucket(asked, 2)}
    payload = store.payload([*same.items(), (asked, 77)], lambda e: True)
    index, chunks = _logical(payload)
    assert index["s_nop"] == (2, 13) and index["v_mov_b32"] == (2, 1)  # 13 needs 0 bits (< 16): not outgrown
    changed = {key for key in chunks if chunks[key] != before.get(key)}
    assert changed == {_bucket(asked, 2)}
    assert pickle.loads(chunks[_bucket(asked, 2)]) == {**same, asked: 77}


@pytest.mark.parametrize("count", [1, 15, 16, 31, 32, 100, 300])
def test_a_mnemonic_is_split_into_chunks_of_at_most_chunk_texts_on_average(tmp_path: Path, count: int) -> None:
    """Written from nothing, a mnemonic of ``count`` texts gets 2**b chunks for the least b with
    count // 2**b < CHUNK_TEXTS (16: 1-15 texts one chunk, 16-31 two, 32-63 four, 100 eight (100 // 8 = 12),
    300 thirty-two (300 // 16 = 18, 300 // 32 = 9)), and each chunk holds exactly the texts the CRC-32 rule
    sends to it."""
    expected_bits = {1: 0, 15: 0, 16: 1, 31: 1, 32: 2, 100: 3, 300: 5}[count]
    assert decode_cache.CHUNK_TEXTS == 16
    texts = {f"v_add_u32 v{i}, v1, v2": i for i in range(count)}
    store = decode_cache.Store(tmp_path / "none.pickle", _accept)
    index, chunks = _logical(store.payload(texts.items(), _accept))
    assert index == {"v_add_u32": (expected_bits, count)}
    want: dict[str, dict[str, int]] = {}
    for text, i in texts.items():
        want.setdefault(_bucket(text, expected_bits), {})[text] = i
    assert {key: pickle.loads(data) for key, data in chunks.items()} == want


def test_an_outgrown_mnemonic_is_numbered_again_and_others_stay(tmp_path: Path) -> None:
    """A mnemonic stored with 0 bits (3 texts) that reaches 40 texts is split into 4 chunks (40 // 16 = 2 needs 2
    bits) holding all 40, including the stored ones the run never asked for; another mnemonic's chunk stays."""
    path = tmp_path / "x.pickle"
    old = {f"s_nop {i}": i for i in range(3)}
    _write(path, {**old, "s_endpgm": 50})
    store = decode_cache.Store(path, _accept)
    kept = store.raw["s_endpgm 0"]
    new = {f"s_nop {i}": i for i in range(3, 40)}
    index, chunks = _logical(store.payload(new.items(), _accept))
    assert index == {"s_nop": (2, 40), "s_endpgm": (0, 1)}
    assert chunks["s_endpgm 0"] == kept
    everything = {**old, **new}
    want: dict[str, dict[str, int]] = {}
    for text, i in everything.items():
        want.setdefault(_bucket(text, 2), {})[text] = i
    assert {k: pickle.loads(v) for k, v in chunks.items() if k.startswith("s_nop ")} == want


def test_plain_dataclasses_pickle_as_constructor_calls_and_come_back_equal() -> None:
    """The example's decoded texts survive the constructor-call pickling equal, field for field; a dataclass whose
    ``__init__`` does more than set its fields keeps the default way."""
    from isalens.engine import load_input
    from isalens.isa.amdgcn import instructions

    load_input(EXAMPLE)
    entries = next(t.decoded for t in instructions._TEXTS.values() if len(t.decoded) > 100)
    back = decode_cache._unpickle(decode_cache._dumps(entries))
    assert back == entries and len(back) > 100
    assert {type(e) for e in back.values()} == {instructions._Decoded}
    assert decode_cache._plain_fields(instructions._Decoded) is not None

    @dataclasses.dataclass(frozen=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            assert self.x > 0

    @dataclasses.dataclass(frozen=True)
    class Derived:
        x: int
        y: int = dataclasses.field(init=False, default=0)

    assert decode_cache._plain_fields(Checked) is None
    assert decode_cache._plain_fields(Derived) is None


def test_prune_removes_what_no_run_of_this_tree_reads(tmp_path: Path) -> None:
    """Files of other fingerprints go when stale or beyond the budget (oldest first), temporary files of killed
    writers go, this tree's files stay however old; expected sets follow from the rules' figures alone."""
    now = 1_000_000_000.0
    day = 24 * 3600

    def make(name: str, age_days: float, size: int = 10) -> Path:
        path = tmp_path / name
        path.write_bytes(b"x" * size)
        os.utime(path, (now - age_days * day, now - age_days * day))
        return path

    mine_old = make("aaaa-1.pickle", 400)       # this tree's: kept at any age
    mine_new = make("aaaa-2.pickle", 0)
    stale = make("bbbb-1.pickle", 8)            # another fingerprint, unwritten for 8 days > 7
    fresh = make("bbbb-2.pickle", 6)            # another fingerprint, 6 days: within the week
    legacy = make("0123456789abcdef.pickle", 30)  # the older naming (no fingerprint): foreign and stale
    old_temp = make(".tmp-abc", 2 / 24)         # 2 hours: a killed writer's
    new_temp = make(".tmp-def", 1 / 24 / 60)    # 1 minute: may be a live writer's
    other = make("notes.txt", 100)              # not the cache's: never touched
    removed = decode_cache.prune(tmp_path, "aaaa", now)
    assert sorted(removed) == sorted([stale, legacy, old_temp])
    assert all(p.exists() for p in (mine_old, mine_new, fresh, new_temp, other))


def test_prune_keeps_foreign_files_within_the_budget_oldest_removed_first(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    now = 1_000_000_000.0
    monkeypatch.setattr(decode_cache, "FOREIGN_BYTES", 250)
    paths = []
    for i, age in enumerate((3.0, 1.0, 2.0)):  # 100 bytes each, all younger than a week: 300 > 250
        path = tmp_path / f"cccc-{i}.pickle"
        path.write_bytes(b"x" * 100)
        os.utime(path, (now - age * 24 * 3600,) * 2)
        paths.append(path)
    mine = tmp_path / "dddd-0.pickle"
    mine.write_bytes(b"x" * 1000)  # this tree's bytes do not count against the budget
    # removing the oldest (3 days) leaves 200 <= 250
    assert decode_cache.prune(tmp_path, "dddd", now) == [paths[0]]
    assert paths[1].exists() and paths[2].exists() and mine.exists()


def test_a_run_names_its_file_by_fingerprint_and_prunes_stale_ones(tmp_path: Path, oracle: str) -> None:
    directory = tmp_path / "isalens" / "decoded"
    directory.mkdir(parents=True)
    stale = directory / "ffffffffffffffff-0123.pickle"
    stale.write_bytes(b"old")
    os.utime(stale, (0, 0))  # 1970: stale by any measure
    assert _run(tmp_path) == oracle
    [path] = _files(tmp_path)
    assert path.name.startswith(decode_cache._prefix() + "-")
    assert not stale.exists()


def test_opening_a_file_reads_its_header_and_each_chunk_is_checked_when_taken(tmp_path: Path) -> None:
    """Start-up: a store reads the header (index, where each chunk is) and no chunk; a chunk is read when taken and
    used only if its own digest matches, so a damaged chunk loses its texts and no other; table entries pointing
    outside the body, or not (offset, length, digest), are not chunks."""
    path = tmp_path / "x.pickle"
    texts = {f"s_nop {i}": i for i in range(12)}
    _write(path, {**texts, "v_mov_b32 v0, 0": 100}, bits=2)
    index, chunks = _logical(path.read_bytes()[len(decode_cache._MAGIC):])
    victim = _bucket("s_nop 0", 2)
    body, table = b"", {}
    for key, data in chunks.items():
        # the victim's bytes replaced by a well-formed chunk of other content, its recorded digest kept
        stored = data if key != victim else pickle.dumps({"s_nop 0": 999})
        table[key] = (len(body), len(stored), hashlib.blake2b(data, digest_size=32).digest())
        body += stored
    table["s_nop 9"] = (len(body), 10, bytes(32))  # beyond the body
    table["s_nop 8"] = (0, 1)  # not (offset, length, digest)
    _seal_header(path, pickle.dumps((index, table)), body)
    store = decode_cache.Store(path, lambda e: isinstance(e, int))
    assert store.index == index and "s_nop 9" not in store.raw and "s_nop 8" not in store.raw
    assert store.take("s_nop 0") == {}  # the damaged chunk: nothing from it
    other = next(t for t in texts if _bucket(t, 2) != victim)
    assert store.take(other) == {t: i for t, i in texts.items() if _bucket(t, 2) == _bucket(other, 2)}
    assert store.take("v_mov_b32 v0, 0") == {"v_mov_b32 v0, 0": 100}
    # written back: the damaged chunk is gone, the others are there byte for byte
    index2, chunks2 = _logical(store.payload([], _accept))
    assert index2 == index and chunks2 == {k: v for k, v in chunks.items() if k != victim}
    # the header itself is used only under its own digest
    data = bytearray(path.read_bytes())
    data[len(decode_cache._MAGIC):len(decode_cache._MAGIC) + 32] = bytes(32)
    path.write_bytes(bytes(data))
    assert decode_cache.Store(path, _accept).index == {} and decode_cache.load(path, _accept) == {}


def test_the_protocol_written_is_pickles_highest() -> None:
    """The cache writes with ``_pickle`` (pickle.py is not imported for a run that only reads): its protocol is the
    one pickle itself calls the highest."""
    assert decode_cache.PROTOCOL == pickle.HIGHEST_PROTOCOL
