"""The dataclass method cache (isalens.classcode): classes built through it behave as stock ``dataclasses``
builds them, texts are compiled once across processes, and a damaged or unsafe cache file is ignored."""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import marshal
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from isalens import classcode

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "isa" / "fp16_half3_two_uint.gfx902.s"


def _define() -> type:
    # written without `from __future__` effects on the generated methods: the cache must not change them
    @dataclasses.dataclass(frozen=True, order=True, slots=True)
    class Point:
        x: int
        y: float = 0.5
        tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
    return Point


def _behaviour(cls: type) -> tuple[object, ...]:
    p, q = cls(1, 2.0), cls(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3
    return (str(inspect.signature(cls)), {k: str(v) for k, v in vars(cls)["__init__"].__annotations__.items()},
            repr(p), p == cls(1, 2.0), q < p, hash(p) == hash(cls(1, 2.0)), q.tags)


def test_a_class_built_through_the_cache_behaves_as_a_stock_dataclass(monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    stock = _behaviour(_define())  # the oracle: dataclasses with the builtin exec
    monkeypatch.setattr(classcode, "_CODES", {})
    monkeypatch.setattr(dataclasses, "exec", classcode._exec, raising=False)
    first = _behaviour(_define())  # compiled and stored
    cached = _behaviour(_define())  # looked up
    assert first == stock and cached == stock
    assert len(classcode._CODES) >= 5  # __init__, __repr__, __eq__, __hash__, __setattr__, ...


def test_a_second_process_compiles_nothing(tmp_path: Path) -> None:
    """The first command writes the texts; a second one finds every text it needs in the file."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "ISALENS_CLASS_CACHE": "1"}
    probe = ("import builtins, sys, dataclasses\n"
             "from isalens import classcode\n"
             "compiled = []\n"
             "def counting(*a, **k):\n"
             "    compiled.append(a[0]); return builtins.compile(*a, **k)\n"
             "classcode.compile = counting\n"
             "from isalens.cli import main\n"
             f"main(['livereg', {str(EXAMPLE)!r}, '--json'])\n"
             "classcode._save(classcode.path())\n"
             "sys.stderr.write(f'{len(compiled)} {len(classcode._USED)}\\n')\n")
    counts = []
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
        counts.append([int(n) for n in proc.stderr.split()])
    (first_compiled, first_used), (second_compiled, second_used) = counts
    # an empty cache: every text compiled once (a small run's texts are its 75 records' __init__, one per
    # layout of fields: isalens.records; before them, dataclasses' ~430 method texts)
    assert first_used > 50 and first_compiled == first_used
    assert second_used == first_used and second_compiled == 0


def _write(path: Path, payload: bytes, *, digest: bytes | None = None) -> None:
    path.write_bytes(classcode._MAGIC + (digest or hashlib.blake2b(payload, digest_size=32).digest()) + payload)
    path.chmod(0o600)


def test_damaged_or_unsafe_files_are_ignored(tmp_path: Path) -> None:
    code = compile("x = 1", "<string>", "exec", dont_inherit=True)
    good = marshal.dumps({"x = 1": marshal.dumps(code)})  # text -> its marshalled code
    path = tmp_path / "c.marshal"
    _write(path, good)
    assert classcode.load(path) == {"x = 1": code}  # the intact file is read (the checks below can fail)
    _write(path, good, digest=bytes(32))  # payload not matching its digest
    assert classcode.load(path) == {}
    _write(path, good[:-3])  # truncated, digest of the truncated payload: marshal refuses it
    assert classcode.load(path) == {}
    _write(path, good)
    path.chmod(0o622)  # writable by others: anyone could have put code there
    assert classcode.load(path) == {}
    _write(path, marshal.dumps({"a": marshal.dumps(1), "b": marshal.dumps(compile("y = 2", "evil.py", "exec")),
                                3: marshal.dumps(code), "c": code, "d": b"\xff", "x = 1": marshal.dumps(code)}))
    assert classcode.load(path) == {"x = 1": code}  # only text -> marshalled code compiled from <string>
    _write(path, marshal.dumps([code]))
    assert classcode.load(path) == {}
    assert classcode.load(tmp_path / "missing") == {}


def test_a_damaged_file_is_rewritten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.marshal"
    path.write_bytes(b"garbage")
    monkeypatch.setattr(classcode, "_CODES", {})
    # the texts this process read from its own cache file are written back with the new ones: none here
    monkeypatch.setattr(classcode, "_RAW", {})
    monkeypatch.setattr(classcode, "_USED", set())
    monkeypatch.setattr(classcode, "_STATE", {"installed": True, "dirty": False})
    classcode._exec("z = 3", {}, {})
    classcode._save(path)
    loaded = classcode.load(path)
    assert list(loaded) == ["z = 3"] and isinstance(loaded["z = 3"], types.CodeType)


def test_livereg_json_does_not_import_the_heavy_layers() -> None:
    """A small kernel's `livereg --json` imports what it prints and no more (issue 32, start-up)."""
    heavy = ("isalens.analysis.timing", "isalens.analysis.advice", "isalens.analysis.stats", "isalens.report.html",
             "isalens.report.text", "isalens.report.regmap", "isalens.report.plot", "isalens.engine.timing",
             "isalens.engine.advice", "isalens.frontends", "isalens.scan", "isalens.serve", "isalens.binary.dwarf",
             "isalens.isa.r600", "duckdb", "pyarrow", "pandas", "rich", "matplotlib", "jinja2", "numpy",
             "concurrent.futures", "multiprocessing")
    code = ("import sys, io; from isalens.cli import main; sys.stdout = io.StringIO(); "
            f"main(['livereg', {str(EXAMPLE)!r}, '--json']); sys.stdout = sys.__stdout__; "
            "print('\\n'.join(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    modules = out.split()
    assert "isalens.report.json" in modules  # the probe ran the command (this list can fail)
    assert [m for m in modules if m.startswith(heavy)] == []


def test_texts_are_unmarshalled_when_asked_for_and_the_rest_written_back(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A run unmarshals only the texts its classes ask for; the others go back to the file as they were read, and
    an entry that is not code from <string> is compiled again (and the file rewritten without it)."""
    path = tmp_path / "c.marshal"
    asked = compile("a = 1", "<string>", "exec", dont_inherit=True)
    other = compile("b = 2", "<string>", "exec", dont_inherit=True)
    _write(path, marshal.dumps({"a = 1": marshal.dumps(asked), "b = 2": marshal.dumps(other),
                                "c = 3": marshal.dumps(compile("c = 3", "evil.py", "exec"))}))
    monkeypatch.setattr(classcode, "_CODES", {})
    monkeypatch.setattr(classcode, "_RAW", classcode._load_raw(path))
    monkeypatch.setattr(classcode, "_STATE", {"installed": True, "dirty": False})
    compiled: list[str] = []

    def counting(*args: object, **kwargs: object) -> types.CodeType:
        compiled.append(str(args[0]))
        return compile(*args, **kwargs)  # type: ignore[call-overload,no-any-return]

    monkeypatch.setattr(classcode, "compile", counting, raising=False)
    space: dict[str, object] = {}
    classcode._exec("a = 1", space, space)
    assert space["a"] == 1 and compiled == [] and list(classcode._CODES) == ["a = 1"]  # from the file
    assert set(classcode._RAW) == {"b = 2", "c = 3"}  # not unmarshalled: never asked for
    assert not classcode._STATE["dirty"]
    classcode._exec("c = 3", space, space)
    assert space["c"] == 3 and compiled == ["c = 3"] and classcode._STATE["dirty"]  # evil.py's code not run
    classcode._save(path)
    assert classcode.load(path) == {"a = 1": asked, "b = 2": other,
                                    "c = 3": compile("c = 3", "<string>", "exec", dont_inherit=True)}


def test_install_reads_the_texts_without_unmarshalling_them(tmp_path: Path) -> None:
    """Start-up: :func:`install` keeps the file's texts marshalled; none is unmarshalled before a class asks."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "ISALENS_CLASS_CACHE": "1"}
    probe = ("import marshal, sys\n"
             "from isalens import classcode\n"
             "def code(t): return marshal.dumps(compile(t, '<string>', 'exec', dont_inherit=True))\n"
             "payload = marshal.dumps({t: code(t) for t in ('a = 1', 'b = 2')})\n"
             "from isalens.cachefile import write_sealed\n"
             "write_sealed(classcode.path(), classcode._MAGIC, payload)\n"
             "classcode.install()\n"
             "sys.stdout.write(f'{sorted(classcode._RAW)} {len(classcode._CODES)}')\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True).stdout
    assert out == "['a = 1', 'b = 2'] 0"
