"""The decoded-text cache kept across runs (isa/amdgcn/decode_cache.py): a warm run prints what an uncached run
prints, the cache is really read, and a damaged or hostile file is ignored, never trusted."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import subprocess
import sys
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


def _seal(path: Path, payload: bytes) -> None:
    """A file in the cache's format with a correct digest (what a damaged-but-resigned file would be)."""
    path.write_bytes(decode_cache._MAGIC + hashlib.sha256(payload).digest() + payload)


def _write(path: Path, entries: dict[Any, Any]) -> None:
    """``entries`` stored as the cache stores them: one pickled chunk per mnemonic (plain pickles here)."""
    chunks: dict[str, dict[Any, Any]] = {}
    for text, entry in entries.items():
        chunks.setdefault(decode_cache.chunk_key(str(text)), {})[text] = entry
    _seal(path, pickle.dumps({key: pickle.dumps(chunk) for key, chunk in chunks.items()}))


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
    assert decode_cache.load(path, _accept) == {}
    assert _run(tmp_path) == oracle
    assert decode_cache.load(path, _accept)  # written again, valid


def test_hostile_payload_with_a_valid_digest_is_refused(tmp_path: Path) -> None:
    """A digest proves no damage, not good intent: the unpickler builds isalens classes only."""
    path = tmp_path / "x.pickle"
    _write(path, {"s_nop 0": os.getcwd})  # a function of another module
    assert decode_cache.load(path, _accept) == {}
    _write(path, {"s_nop 0": decode_cache.load})  # an isalens function, not a class
    assert decode_cache.load(path, _accept) == {}
    _seal(path, pickle.dumps({"s_nop": os.getcwd}))  # the same in the chunk table itself
    assert decode_cache.load(path, _accept) == {}
    _seal(path, pickle.dumps(["not", "a", "dict"]))
    assert decode_cache.load(path, _accept) == {}
    _seal(path, pickle.dumps({"s_nop": pickle.dumps(["not", "a", "dict"])}))
    assert decode_cache.load(path, _accept) == {}
    _write(path, {"s_nop 0": 1, 2: 3, "s_endpgm": "x"})  # entries the caller's check refuses are dropped
    assert decode_cache.load(path, lambda e: isinstance(e, int)) == {"s_nop 0": 1}
    # an entry filed under another mnemonic's chunk is not taken from it
    _seal(path, pickle.dumps({"s_nop": pickle.dumps({"s_nop 0": 1, "s_endpgm": 2})}))
    assert decode_cache.load(path, lambda e: isinstance(e, int)) == {"s_nop 0": 1}


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
    _write(path, {"s_nop 0": 1, "s_nop 1": 2, "v_mov_b32 v0, 0": 3})
    store = decode_cache.Store(path, lambda e: isinstance(e, int))
    untouched = store.raw["v_mov_b32"]
    assert store.take("s_nop 7") == {"s_nop 0": 1, "s_nop 1": 2}
    assert store.take("s_nop 0") == {}  # taken once only
    payload = store.payload([("s_nop 0", 1), ("s_nop 1", 2), ("s_nop 7", 4)], lambda e: True)
    chunks = pickle.loads(payload)
    assert chunks["v_mov_b32"] == untouched
    assert pickle.loads(chunks["s_nop"]) == {"s_nop 0": 1, "s_nop 1": 2, "s_nop 7": 4}


def test_plain_dataclasses_pickle_as_constructor_calls_and_come_back_equal() -> None:
    """The example's decoded texts survive the constructor-call pickling equal, field for field; a dataclass whose
    ``__init__`` does more than set its fields keeps the default way."""
    from isalens.engine import load_input
    from isalens.isa.amdgcn import instructions

    load_input(EXAMPLE)
    entries = next(c for c in instructions._DECODED.values() if len(c) > 100)
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
