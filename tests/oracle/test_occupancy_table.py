"""``llvm_occupancy`` against LLVM itself: the committed table tests/data/occupancy_llvm19.csv holds
clang-19's ``; Occupancy:`` for 148,306 kernels (16 targets, VGPRs 0..256 / 0..512 unified, AGPRs,
SGPRs, LDS sizes, workgroup sizes, wave32/wave64, CU and WGP mode). tools/occupancy_sweep.py generated
it and ``--check`` recompiles a sample to show the table still reproduces."""

from __future__ import annotations

import csv
from collections import Counter

from isalens.analysis.occupancy import OccupancyInput, llvm_occupancy
from isalens.arch.loader import get_arch
from tests.conftest import ROOT

TABLE = ROOT / "tests" / "data" / "occupancy_llvm19.csv"


def _int(text: str) -> int:
    return int(text) if text else 0


def test_llvm_occupancy_equals_clang_on_the_whole_table() -> None:
    rows = 0
    targets: Counter[str] = Counter()
    mismatches = []
    with TABLE.open(newline="") as handle:
        for row in csv.DictReader(handle):
            name, _, mode = row["target"].partition(":")
            arch = get_arch(name)
            inp = OccupancyInput(
                vgprs=_int(row["num_vgprs"]), agprs=_int(row["num_agprs"]), sgprs=_int(row["num_sgprs"]),
                lds_bytes=_int(row["group_segment"]), workgroup_size=_int(row["wg_size"]),
                wave_size=int(row["wave_size"]), wgp_mode=None if arch.generation < 10 else mode != "cumode",
            )
            ours = llvm_occupancy(arch, inp)
            rows += 1
            targets[name] += 1
            if ours != int(row["llvm_occupancy"]) and len(mismatches) < 20:
                mismatches.append(f"{row} -> ours {ours}")
    assert rows > 140_000 and len(targets) >= 14
    assert not mismatches, "\n".join(mismatches)
