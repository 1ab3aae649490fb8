"""No figure is computed in two places (issue 10): ``compare`` and ``analyze`` print the same literals, code
bytes, LDS forms and class-derived counts for every kernel of the compiled corpus."""

from __future__ import annotations

import json

import pytest

from isalens.cli import main
from tests.oracle.corpus import CorpusEntry

pytestmark = pytest.mark.oracle


def test_compare_and_analyze_agree_on_every_corpus_kernel(corpus: list[CorpusEntry],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    seen: set[str] = set()
    checked = 0
    for entry in corpus:
        if entry.source.name in seen:  # one target per source keeps this quick; each file's kernels all checked
            continue
        seen.add(entry.source.name)
        assert main(["analyze", str(entry.clang_asm), "--json"]) == 0
        analyzed = json.loads(capsys.readouterr().out)
        for kernel in analyzed["files"][0]["kernels"]:
            assert main(["compare", str(entry.clang_asm), "--kernel", kernel["name"], "--json"]) == 0
            (found,) = json.loads(capsys.readouterr().out)["files"][0]["kernels"]
            row = {**found, **found["mix"], "code_bytes": found["stats"]["code_bytes"]}
            stats, classes = kernel["stats"], kernel["instruction_classes"]
            where = f"{entry.clang_asm.name}:{kernel['name']}"
            assert row["literals"] == stats["constants"].get("literal", 0), where
            assert row["code_bytes"] == stats["code_bytes"], where
            assert row["packed_f16"] == classes.get("valu.pk.f16", 0), where
            assert row["conversions"] == classes.get("valu.cvt", 0), where
            lds_reads = sum(n for c, n in classes.items() if c.startswith("ds.read"))
            assert sum(row["lds_reads"].values()) == lds_reads, where
            assert row["instructions"] == kernel["instructions"], where
            checked += 1
    assert checked >= 60
