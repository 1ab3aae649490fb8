"""Start-up of a small kernel (issue 32, item 3): a run imports what it uses, the command line it parses with
one command's flags means what it means with every command's, and the decode cache's file key lists the same files.

Speed itself is measured in ``benchmarks/startup.py`` (docs/performance.md), never asserted here; these tests guard
the structure that keeps it: which modules a small ``livereg --json`` run loads.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from isalens.cli import _COMMANDS, build_parser
from isalens.cli.examples import EXAMPLES

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "isa" / "fp16_half3_two_uint.gfx902.s"

#: what a `livereg --json` run of LLVM assembly never uses: the other commands' modules, the readers of the other
#: text forms, and the standard modules only the cache writers, the data-file finder or an error's hint needed
NOT_IMPORTED = (
    *(f"isalens.cli.{name}" for name in ("analyze", "compare", "occupancy", "vliw", "toolchain", "decode", "timing",
                                         "advise", "sweep", "list", "scan", "query", "diff", "check", "arch",
                                         "serve")),
    "isalens.isa.amdgcn.aco_listing", "isalens.isa.amdgcn.radv_dump", "isalens.isa.amdgcn.trailer_listing",
    # the source front ends (ISA text is not compiled; the compile flags' note imports them only when one is given)
    "isalens.engine.sources", "isalens.frontends.radv", "isalens.frontends.toolchain", "isalens.frontends.clang",
    "importlib.resources", "tempfile", "zipfile", "difflib",
    # argparse's formatter imports shutil (and with it bz2, lzma) for the terminal width: cli.examples.Formatter
    "shutil", "bz2", "lzma",
    # the run's classes are isalens.records and its small document is written without orjson (importing orjson
    # imports dataclasses, json, uuid, datetime, platform; dataclasses imports inspect, ast, dis)
    "dataclasses", "inspect", "orjson", "uuid", "platform",
    # the cache files' digests come from the interpreter's own BLAKE2 (isalens.cachefile.digest): hashlib loads
    # OpenSSL; the small writer takes json's C string encoders from _json, without the json package
    "hashlib", "_hashlib", "json", "json.decoder", "json.scanner", "json.encoder",
    # the decode cache reads with pickle's C classes (_pickle), without pickle.py
    "pickle",
)


def _modules_after(argv: list[str]) -> list[str]:
    """Every module loaded once ``isalens ARGV`` has run in a fresh interpreter (output discarded)."""
    code = ("import sys, io; from isalens.cli import main; sys.stdout = io.StringIO(); "
            f"code = main({argv!r}); sys.stdout = sys.__stdout__; assert code == 0, code; "
            "print('\\n'.join(sorted(sys.modules)))")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()


def test_small_livereg_run_imports_its_own_command_and_reader_only() -> None:
    modules = _modules_after(["livereg", str(EXAMPLE), "--json"])
    # the probe ran the command through its own module and the LLVM reader (so the list below can fail)
    assert {"isalens.cli.livereg", "isalens.isa.amdgcn.llvm_assembly", "isalens.report.json"} <= set(modules)
    assert [m for m in modules if m in NOT_IMPORTED or m.startswith(("importlib.resources.", "tempfile."))] == []


def test_a_bare_list_still_gets_its_reader(tmp_path: Path) -> None:
    """The other readers load on use: a bare list of instructions is read by its own reader, imported when asked."""
    bare = tmp_path / "bare.s"
    bare.write_text("v_mov_b32 v0, v1\nv_add_f32 v2, v0, v1\ns_endpgm\n")
    modules = _modules_after(["livereg", str(bare), "--json", "--arch", "gfx902"])
    assert "isalens.isa.amdgcn.trailer_listing" in modules


def _example_argvs() -> list[list[str]]:
    """Every ``--help`` example line (cli/examples.py) as the argument list after ``isalens``."""
    return [shlex.split(line.split("#", 1)[0])[1:] for lines in EXAMPLES.values() for line in lines]


@pytest.mark.parametrize("argv", _example_argvs(), ids=lambda a: " ".join(a)[:60])
def test_one_commands_parser_reads_a_line_as_the_whole_parser_does(argv: list[str]) -> None:
    """The oracle is argparse with every command registered (what `isalens` built for every run before)."""
    whole = vars(build_parser().parse_args(argv))
    alone = vars(build_parser(argv[0]).parse_args(argv))
    assert alone == whole
    assert whole["command"] == argv[0]


def test_every_command_is_registered_by_the_module_named_for_it() -> None:
    for name in _COMMANDS:
        sub = next(a for a in build_parser(name)._actions if a.dest == "command")
        assert name in sub.choices  # type: ignore[operator]


def _rglob_reader_files(package: Path, top: str) -> list[tuple[str, ...]]:
    """The decode cache's fingerprint files as it listed them before (Path.rglob, sorted Path objects): the oracle."""
    root = package / top
    paths = [root] if root.is_file() else sorted(root.rglob("*"))
    return [path.relative_to(package).parts for path in paths
            if path.suffix in (".py", ".txt", ".toml", ".json") and "__pycache__" not in path.parts]


def test_the_decode_cache_fingerprint_lists_the_files_rglob_listed(tmp_path: Path) -> None:
    from isalens.isa.amdgcn.decode_cache import _reader_files

    # names whose string order differs from their path order ("a-b.py" < "a/x.py" as text, after "a" as parts)
    for name in ("isa/a.py", "isa/a-b.py", "isa/a/x.py", "isa/a/z/y.toml", "isa/a.b/c.json", "isa/b.txt",
                 "isa/skip.pyc", "isa/noext", "isa/.hidden", "isa/__pycache__/a.cpython-311.py", "isa/Z.py",
                 "version.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    for top in ("isa", "version.py", "errors.py"):
        assert _reader_files(str(tmp_path), (top,)) == _rglob_reader_files(tmp_path, top)
    assert len(_reader_files(str(tmp_path), ("isa",))) == 7  # the 7 reader files written above (can fail)
    # and the package itself: the same files
    import isalens
    package = Path(isalens.__file__).parent
    for top in ("isa", "ir", "version.py", "errors.py"):
        assert _reader_files(str(package), (top,)) == _rglob_reader_files(package, top)


_PROBE = """
import dataclasses, gc, io, sys
from isalens.cli import main
made, collections = [], []
process_class = dataclasses._process_class
def probe(cls, *args, **kwargs):
    made.append(cls.__module__ + "." + cls.__qualname__)
    return process_class(cls, *args, **kwargs)
dataclasses._process_class = probe
gc.callbacks.append(lambda phase, info: phase == "start" and collections.append(info["generation"]))
sys.stdout = io.StringIO()
code = main(ARGV)
during = [*collections]  # the passes made while main ran (the collector runs again once main resumed it)
sys.stdout = sys.__stdout__
print(code, gc.isenabled(), made, during)
"""


def test_a_small_run_makes_no_dataclass_and_collects_no_garbage() -> None:
    """The 75 classes a ``livereg`` run makes are :mod:`isalens.records` (``@dataclass`` cost 14-17 ms for them
    with their method code cached, and computed ``inspect.signature`` for the ``__doc__`` of a class without a
    docstring); the collector, paused from the start of ``main``, made ~28 passes over the imports' objects,
    which hold no garbage worth the walk."""
    argv = ["livereg", str(EXAMPLE), "--json"]
    out = subprocess.run([sys.executable, "-c", _PROBE.replace("ARGV", repr(argv))], capture_output=True,
                         text=True, check=True).stdout
    assert out == "0 True [] []\n"


def test_the_formatter_width_is_shutils(monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle is ``shutil.get_terminal_size``, which argparse's own formatter asks."""
    import shutil

    from isalens.cli.examples import Formatter, terminal_columns

    for columns in ("57", "200", "0", "-3", "wide", None):
        if columns is None:
            monkeypatch.delenv("COLUMNS", raising=False)
        else:
            monkeypatch.setenv("COLUMNS", columns)
        assert terminal_columns() == shutil.get_terminal_size().columns
        # and the formatter is argparse's own, with the width argparse would have found
        ours, stock = Formatter("isalens livereg"), argparse.HelpFormatter("isalens livereg")
        assert (ours._width, ours._max_help_position) == (stock._width, stock._max_help_position)
    parser = build_parser("livereg")
    assert isinstance(parser._get_formatter(), Formatter)


_LAZY = {"isalens.reading": ("_SIZE_RE",), "isalens.analysis.calls": ("_SYMBOL",),
         "isalens.isa.amdgcn.debuginfo": ("_FILE_RE", "_LOC_RE", "_OBJDUMP_RE", "_DEBUG_VALUE_RE", "_FRAGMENT_RE",
                                          "_DIRECTIVE_LINE_RE"),
         "isalens.isa.amdgcn.dialects": ("_STAT_LINE_RE", "_EXE_LINE_RE", "_RGA_LIVEREG_RE"),
         "isalens.isa.amdgcn.declarations": ("_WAVE32_HINT", "_WAVE64_HINT"),
         "isalens.isa.amdgcn.encoding": ("_SYMBOL",), "isalens.engine.load": ("_NAME_WORD",)}


def test_a_small_run_compiles_none_of_the_patterns_it_never_matches(tmp_path: Path) -> None:
    """The example has no ``.file``/``.loc`` lines, no other dialect's header, no call, no symbol operand, a target
    named by its ``.amdgcn_target`` line and no --max-input-size; these patterns are compiled on first use only.
    Its texts are decoded (an empty cache directory), as a first run decodes them."""
    code = ("import importlib, io, sys; from isalens.cli import main; sys.stdout = io.StringIO(); "
            f"code = main({['livereg', str(EXAMPLE), '--json']!r}); sys.stdout = sys.__stdout__; "
            f"lazy = {_LAZY!r}; "
            "print(code, [m + '.' + n for m, names in lazy.items() for n in names "
            "if getattr(importlib.import_module(m), n)._compiled is not None])")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out == "0 []\n"


def test_a_lazy_pattern_matches_as_the_compiled_one() -> None:
    """The oracle is ``re.compile`` with the same source and flags."""
    import re

    from isalens.lazyre import LazyPattern

    text = "  .loc 1 42 7\nv_mov_b32 v0, v1\n\t.file 2 \"a.cl\"\nEXE x\n"
    for source, flags in ((r"^[^\S\n]*\.(?:file|loc)[^\n]*", re.M), (r"\d+", 0), (r"(v)(\d+)", 0), (r"^EXE", 0)):
        lazy, eager = LazyPattern(source, flags), re.compile(source, flags)
        assert lazy._compiled is None and lazy.pattern == source
        for pos, end in ((0, sys.maxsize), (3, 20), (16, 17)):
            for method in ("match", "fullmatch", "search"):
                ours, theirs = getattr(lazy, method)(text, pos, end), getattr(eager, method)(text, pos, end)
                assert (ours and (ours.span(), ours.groups())) == (theirs and (theirs.span(), theirs.groups()))
            assert lazy.findall(text, pos, end) == eager.findall(text, pos, end)
            spans = [m.span() for m in lazy.finditer(text, pos, end)]
            assert spans == [m.span() for m in eager.finditer(text, pos, end)]
        assert lazy._compiled is eager  # compiled once, through re's own cache
