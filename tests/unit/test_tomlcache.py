"""The parsed-TOML cache kept across runs (isalens/tomlcache.py): every table comes back as ``tomllib`` parses it,
the file is really read, and a damaged or hostile file or entry is ignored, never trusted."""

from __future__ import annotations

import hashlib
import marshal
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from isalens import tomlcache

SRC = Path(__file__).resolve().parents[2] / "src" / "isalens"
TABLES = sorted(SRC.rglob("*.toml"))


@pytest.fixture(autouse=True)
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache directory of the test's own, and the module as in a new process."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("ISALENS_TABLE_CACHE", "1")
    _restart()
    yield tomlcache.path()
    _restart()


def _restart() -> None:
    """Save what this 'process' parsed, then forget it all, as the next process starts."""
    if tomlcache._STATE["read"]:
        tomlcache._save(tomlcache.path())
    tomlcache._ENTRIES.clear()
    tomlcache._USED.clear()
    tomlcache._STATE.update(read=False, dirty=False)


def _seal(path: Path, entries: dict[bytes, bytes]) -> None:
    payload = marshal.dumps(entries)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(tomlcache._MAGIC + hashlib.blake2b(payload, digest_size=32).digest() + payload)
    path.chmod(0o600)


def test_every_table_comes_back_as_tomllib_parses_it(fresh: Path) -> None:
    assert len(TABLES) >= 10
    for table in TABLES:  # cold: parsed here
        text = table.read_text("utf-8")
        assert tomlcache.loads(text) == tomllib.loads(text), table
    _restart()
    assert fresh.is_file()
    for table in TABLES:  # warm: from the file
        text = table.read_text("utf-8")
        assert tomlcache.loads(text) == tomllib.loads(text), table
    assert not tomlcache._STATE["dirty"]  # nothing parsed again


def test_the_file_is_really_read_and_each_call_gets_its_own_document(fresh: Path) -> None:
    text = 'a = 1\n[b]\nc = ["x", 2.5, true]\n'
    key = hashlib.blake2b(text.encode(), digest_size=32).digest()
    _seal(fresh, {key: marshal.dumps({"a": 7})})  # an entry that differs from the text: proves the file is read
    assert tomlcache.loads(text) == {"a": 7}
    first = tomlcache.loads(text)
    first["a"] = 0
    assert tomlcache.loads(text) == {"a": 7}


@pytest.mark.parametrize("entry", [
    marshal.dumps(compile("1", "<x>", "eval")),  # code: never built into a document
    marshal.dumps({"a": {1, 2}}),  # not TOML data
    marshal.dumps({1: "a"}),
    marshal.dumps(["a"]),
    b"\xff\x00 not marshal",
], ids=["code", "set", "number-key", "list", "garbage"])
def test_a_foreign_entry_is_parsed_again(fresh: Path, entry: bytes) -> None:
    text = "a = 1\n"
    _seal(fresh, {hashlib.blake2b(text.encode(), digest_size=32).digest(): entry})
    assert tomlcache.loads(text) == {"a": 1}
    assert tomlcache._STATE["dirty"]  # and written again at exit


@pytest.mark.parametrize("damage", ["flip", "truncate", "foreign"])
def test_a_damaged_file_is_ignored(fresh: Path, damage: str) -> None:
    text = "a = 1\n"
    _seal(fresh, {hashlib.blake2b(text.encode(), digest_size=32).digest(): marshal.dumps({"a": 7})})
    data = bytearray(fresh.read_bytes())
    if damage == "flip":
        data[-3] ^= 0x10
    elif damage == "truncate":
        del data[len(data) // 2:]
    else:
        data[:] = b"not a cache\n" * 10
    fresh.write_bytes(bytes(data))
    assert tomlcache.loads(text) == {"a": 1}


def test_dates_are_parsed_every_time(fresh: Path) -> None:
    text = "when = 2026-11-27\n"
    assert tomlcache.loads(text) == tomllib.loads(text)
    assert tomlcache.loads(text) == tomllib.loads(text)
    assert not tomlcache._ENTRIES
