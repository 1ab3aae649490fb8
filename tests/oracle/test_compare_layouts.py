"""The fp16 layout story (domain.md §1.1) on our own kernels: the five layouts compiled for gfx902 by
clang-19, compared in one table whose VGPR column equals each compile's ``.vgpr_count``."""

from __future__ import annotations

import json
import re

import pytest

from isalens.cli import main
from tests.oracle.corpus import CorpusEntry, corpus_set


def test_compare_five_layouts(corpus: list[CorpusEntry], capsys: pytest.CaptureFixture[str]) -> None:
    layouts = corpus_set("fp16_layouts")
    by_source = {e.source: e for e in corpus if e.target == "gfx902"}
    files = [by_source[p].clang_asm for p in layouts]
    labels = ["fp32", "half3_two_uint", "half4", "uint2", "half3"]
    assert main(["compare", *map(str, files), "--labels", ",".join(labels), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [f["label"] for f in doc["files"]] == labels
    (pair,) = doc["pairs"]  # one kernel per file: one pair whatever the names
    assert [v["label"] for v in pair["variants"]] == labels
    for (variant,), asm in zip((f["kernels"] for f in doc["files"]), files, strict=True):
        declared = int(re.search(r"\.vgpr_count:\s+(\d+)", asm.read_text()).group(1))  # type: ignore[union-attr]
        assert variant["vgpr"]["requested"] == declared
        assert variant["vgpr"]["peak_live"] <= declared
        assert len(variant["pressure"]) == variant["instructions"]
    assert main(["compare", *map(str, files), "--labels", ",".join(labels)]) == 0
    table = capsys.readouterr().out
    assert all(label in table for label in labels)
