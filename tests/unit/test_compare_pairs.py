"""Issue 31 item 2: ``compare`` pairs kernels by name across builds; kernels in only some builds are listed as
added/removed. Expected figures are hand counts: each kernel below writes v0..vN-1, so it requests N VGPRs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isalens.cli import main
from tests.schema_check import validate

HEAD = '\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"\n\t.text\n'


def _kernel(name: str, vgprs: int, n: int) -> str:
    body = "".join(f"\tv_mov_b32 v{i}, {i + 1}.0\n" for i in range(vgprs))
    return f"\t.type\t{name},@function\n{name}:\n{body}\ts_endpgm\n.Lfunc_end{n}:\n"


def _build(path: Path, kernels: list[tuple[str, int]]) -> Path:
    path.write_text(HEAD + "".join(_kernel(name, v, n) for n, (name, v) in enumerate(kernels)))
    return path


def test_two_builds_of_a_three_kernel_source_give_three_pairs(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    # the second build lists the kernels in another order and gives each a different register count
    old = _build(tmp_path / "old.s", [("a", 1), ("b", 2), ("c", 3)])
    new = _build(tmp_path / "new.s", [("c", 6), ("a", 4), ("b", 5)])
    assert main(["compare", str(old), str(new), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    validate(doc)
    assert [p["name"] for p in doc["pairs"]] == ["a", "b", "c"]  # in the first file's order
    assert all([v["kernel"] for v in p["variants"]] == [p["name"]] * 2 for p in doc["pairs"])
    requested = {(f["label"], k["name"]): k["vgpr"]["requested"] for f in doc["files"] for k in f["kernels"]}
    assert requested == {("old.s", "a"): 1, ("old.s", "b"): 2, ("old.s", "c"): 3,
                         ("new.s", "a"): 4, ("new.s", "b"): 5, ("new.s", "c"): 6}
    assert doc["added"] == [] and doc["removed"] == []
    assert main(["compare", str(old), str(new), "--html", str(tmp_path / "c.html")]) == 0
    text = capsys.readouterr().out
    assert [line for line in text.splitlines() if line.startswith("== ")] == ["== a", "== b", "== c"]
    page = (tmp_path / "c.html").read_text()
    data = json.loads(page.split('id="isalens-data">', 1)[1].split("</script>", 1)[0])
    assert [p["name"] for p in data["pairs"]] == ["a", "b", "c"]  # the page draws a table and chart per pair


def test_kernels_in_one_build_only_are_added_or_removed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = _build(tmp_path / "old.s", [("a", 1), ("b", 2), ("c", 3)])
    new = _build(tmp_path / "new.s", [("a", 1), ("c", 3), ("d", 4)])
    assert main(["compare", str(old), str(new), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    validate(doc)
    assert [p["name"] for p in doc["pairs"]] == ["a", "c"]
    assert doc["added"] == [{"name": "d", "labels": ["new.s"]}]
    assert doc["removed"] == [{"name": "b", "missing_from": ["new.s"]}]
    assert main(["compare", str(old), str(new)]) == 0
    text = capsys.readouterr().out
    assert "added (not in the first file): d (in new.s)" in text
    assert "removed (in the first file only): b (missing from new.s)" in text


def test_one_kernel_builds_pair_whatever_their_names_and_kernel_picks(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    one = _build(tmp_path / "one.s", [("fp32", 2)])
    other = _build(tmp_path / "other.s", [("half3", 1)])
    assert main(["compare", str(one), str(other), "--json"]) == 0
    (pair,) = json.loads(capsys.readouterr().out)["pairs"]
    assert pair["name"] == "fp32 vs half3" and [v["kernel"] for v in pair["variants"]] == ["fp32", "half3"]
    three = _build(tmp_path / "three.s", [("a", 1), ("b", 2), ("c", 3)])
    assert main(["compare", str(three), str(three), "--kernel", "b", "--json"]) == 0
    (pair,) = json.loads(capsys.readouterr().out)["pairs"]
    assert pair["name"] == "b"
