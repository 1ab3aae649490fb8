"""``isalens serve``'s bad input is one line naming the problem and exit code 2, before any server starts; the
file table opens exactly the sources of a directory (hidden ones and links out left out)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from isalens.cli import main

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_missing_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", str(tmp_path / "nope.cl")]) == 2
    assert "nope.cl: error: no such file or directory" in _one_error_line(capsys)


def test_directory_without_sources(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "readme.txt").write_text("x")
    assert main(["serve", str(tmp_path)]) == 2
    assert "no source files" in _one_error_line(capsys)


def test_unknown_target_and_bad_limits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "k.cl").write_text("__kernel void k() {}\n")
    assert main(["serve", str(tmp_path / "k.cl"), "--arch", "gfx902,gfx9999"]) == 2
    assert "unknown target 'gfx9999'" in _one_error_line(capsys)
    assert main(["serve", str(tmp_path / "k.cl"), "--compile-memory", "lots"]) == 2
    assert "--compile-memory" in _one_error_line(capsys)
    assert main(["serve", str(tmp_path / "k.cl"), "--compile-timeout", "0"]) == 2
    assert "--compile-timeout" in _one_error_line(capsys)


def test_port_in_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "k.cl").write_text("__kernel void k() {}\n")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve", str(tmp_path / "k.cl"), "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in _one_error_line(capsys)


def test_directory_table(tmp_path: Path) -> None:
    from isalens.serve.files import OpenedFiles

    (tmp_path / "outside.cl").write_text("x")
    root = tmp_path / "proj"
    (root / "sub").mkdir(parents=True)
    (root / ".hidden").mkdir()
    for name in ("a.cl", "sub/b.hip", "sub/c.comp", ".hidden/d.cl", "e.txt", ".f.cl"):
        (root / name).write_text("x")
    (root / "out.cl").symlink_to(tmp_path / "outside.cl")
    (root / "in.cl").symlink_to(root / "a.cl")  # a link inside the tree is the file it names
    opened = OpenedFiles.open(root)
    assert sorted(opened.files) == ["a.cl", "in.cl", "sub/b.hip", "sub/c.comp"]
    assert opened.files["in.cl"] == (root / "a.cl").resolve()
