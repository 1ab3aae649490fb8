"""``tool_version`` runs ``tool --version`` once per executable, and again when the executable changes."""

from __future__ import annotations

import os
from pathlib import Path

from isalens.frontends.clang import tool_version


def _counting_tool(path: Path, version: str, log: Path) -> None:
    path.write_text(f'#!/bin/sh\necho run >> "{log}"\necho "{version}"\n')
    path.chmod(0o755)


def test_version_is_asked_once_per_executable(tmp_path: Path) -> None:
    tool, log = tmp_path / "fake-clang", tmp_path / "runs"
    _counting_tool(tool, "fake clang version 1.0", log)
    assert tool_version(str(tool)) == "fake clang version 1.0"
    assert tool_version(str(tool)) == "fake clang version 1.0"
    assert log.read_text().count("run") == 1

    # a new executable at the same path (an upgrade): asked again, the new answer is used
    _counting_tool(tool, "fake clang version 2.0", log)
    stat = tool.stat()
    os.utime(tool, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert tool_version(str(tool)) == "fake clang version 2.0"
    assert log.read_text().count("run") == 2
