"""The spills advice's slots (``advice/spills.vgpr_slots`` and ``sgpr_slots``) on short ISA texts, the answers
worked out by hand in each comment (the twenty-second session filters the candidates by mnemonic in C calls
before the per-instruction reading: these check that no slot instruction is left out, nor another let in)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import isalens
from isalens.analysis.advice.spills import Slot, sgpr_slots, vgpr_slots


def _input(text: str) -> Any:
    return SimpleNamespace(analysis=SimpleNamespace(kernel=isalens.load(text, "gfx902").kernels[0].ir))


LANES = """v_writelane_b32 v1, s5, 0
v_writelane_b32 v1, s6, 1
v_add_f32_e32 v2, v3, v4
v_readlane_b32 s7, v1, 0
v_readlane_b32 s8, v1, 2
s_endpgm"""


def test_sgpr_lane_slots() -> None:
    # By hand: lane v1[0] is written at instruction 0 (from s5) and read back at 3 (into s7): a slot; v1[1] is
    # written (1) and never read, v1[2] read (4) and never written: no slot. One SGPR per lane.
    assert sgpr_slots(_input(LANES)) == [Slot("v1[0]", 1, ((0, "s5"),), ((3, "s7"),))]


SCRATCH = """buffer_store_dword v1, off, s[0:3], 0 offset:8
buffer_store_dwordx2 v[2:3], off, s[0:3], 0 offset:16
v_add_f32_e32 v4, v5, v6
buffer_load_dword v7, off, s[0:3], 0 offset:8
buffer_load_dword v8, off, s[0:3], 0 offset:24
scratch_load_dword v9, v10, off offset:24
s_endpgm"""


def test_vgpr_scratch_slots() -> None:
    # By hand: scratch+8 is stored from v1 at instruction 0 (offset 8 + soffset 0) and reloaded into v7 at 3: a
    # one-dword slot; scratch+16 is stored (1) and never reloaded, scratch+24 reloaded (4, 5) and never stored.
    # (The kernel declares no scratch: its scratch_ instruction is what lets the detector look.)
    assert vgpr_slots(_input(SCRATCH)) == [Slot("scratch+8", 1, ((0, "v1"),), ((3, "v7"),))]
