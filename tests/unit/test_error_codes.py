"""One error-code registry: every ``code="..."`` in ``src/`` is in :data:`isalens.error_codes.ERROR_CODES`,
every registered code is used, and docs/errors.md lists exactly the registry (``pytest --update-golden``
rewrites its table)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from isalens.error_codes import ERROR_CODES
from tests.conftest import ROOT

SRC = ROOT / "src" / "isalens"
DOC = ROOT / "docs" / "errors.md"
BEGIN, END = "<!-- error codes: begin -->", "<!-- error codes: end -->"


def _codes_in(tree: ast.AST, where: str) -> Iterator[tuple[str, str]]:
    """(code, where) for each string passed as ``code=`` and each string default of a parameter ``code``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg != "code":
                    continue
                if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    yield kw.value.value, f"{where}:{node.lineno}"
                else:  # passing a code on (an error re-raised as another class) adds none
                    assert ast.unparse(kw.value) in ("code", "exc.code"), f"{where}:{node.lineno}: computed code"
        elif isinstance(node, ast.FunctionDef):
            positional = node.args.posonlyargs + node.args.args  # the defaults cover the last of both
            args = positional + node.args.kwonlyargs
            defaults = [None] * (len(positional) - len(node.args.defaults)) + list(node.args.defaults)
            for arg, default in zip(args, defaults + list(node.args.kw_defaults), strict=True):
                if arg.arg == "code" and isinstance(default, ast.Constant) and isinstance(default.value, str):
                    yield default.value, f"{where}:{node.lineno}"


def _used_codes(root: Path) -> dict[str, list[str]]:
    used: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        for code, where in _codes_in(ast.parse(path.read_text(encoding="utf-8")), str(path.relative_to(root))):
            used.setdefault(code, []).append(where)
    return used


def test_every_code_in_src_is_registered_and_every_registered_code_is_used() -> None:
    used = _used_codes(SRC)
    unregistered = {code: where for code, where in used.items() if code not in ERROR_CODES}
    assert not unregistered, f"add these codes to isalens/error_codes.py: {unregistered}"
    assert sorted(set(ERROR_CODES) - set(used)) == [], "registered but never raised: remove them"
    assert all(m and "\n" not in m and m == m.strip() for m in ERROR_CODES.values())


def test_the_scanner_finds_codes_and_defaults(tmp_path: Path) -> None:
    # the guard above is only as good as the scanner: a keyword, a default, a keyword-only default and a default
    # after positional-only parameters (classcode._exec's ``(source, globals=None, locals=None, /)`` made the
    # scanner pair parameters and defaults wrongly)
    (tmp_path / "m.py").write_text(
        "def f(code='from-default'): ...\n"
        "def g(*, code: str = 'from-kwonly'): ...\n"
        "def h(a, b=None, /, code='after-positional-only'): ...\n"
        "raise InputError('x', file=None, code='from-call')\n")
    assert sorted(_used_codes(tmp_path)) == ["after-positional-only", "from-call", "from-default", "from-kwonly"]


def _table() -> str:
    rows = [f"| `{code}` | {meaning} |" for code, meaning in sorted(ERROR_CODES.items())]
    return "\n".join(["| code | meaning |", "| --- | --- |", *rows])


def test_docs_list_the_registry(update_golden: bool) -> None:
    text = DOC.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _old, tail = rest.split(END, 1)
    expected = f"{head}{BEGIN}\n{_table()}\n{END}{tail}"
    if update_golden and text != expected:
        DOC.write_text(expected, encoding="utf-8")
        return
    assert text == expected, "docs/errors.md's table differs from isalens/error_codes.py (pytest --update-golden)"


@pytest.mark.parametrize("code", ["damaged", "error", "compiler"])
def test_the_defaults_of_the_error_classes_are_registered(code: str) -> None:
    assert code in ERROR_CODES


_ERROR_CLASSES = {"IsalensError", "InputError", "ParseError", "ArchError", "UnknownInstructionError", "DecodeError"}


def _caught(handler: ast.ExceptHandler) -> set[str]:
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {ast.unparse(t).rsplit(".", 1)[-1] for t in types if t is not None}


def test_only_cli_main_turns_errors_into_exit_codes() -> None:
    """Commands raise; ``isalens.cli.main`` alone catches IsalensError and prints it (exit 2)."""
    catching = []
    for path in sorted((SRC / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ExceptHandler) and _caught(node) & _ERROR_CLASSES:
                catching.append(f"{path.name}:{node.lineno}")
    assert [c.split(":")[0] for c in catching] == ["__init__.py"], catching
