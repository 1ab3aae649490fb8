"""The JSON ``blocks`` key: block live-ins as register names, derived by hand on a small loop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from isalens.cli import main

LOOP = """\
    s_mov_b32 s0, 0
    v_mov_b32_e32 v1, 0
loop:
    v_add_f32_e32 v1, v1, v0
    v_add_f32_e32 v2, v1, v3
    s_add_u32 s0, s0, 1
    s_cmp_lt_u32 s0, 8
    s_cbranch_scc1 loop
    global_store_dwordx2 v[4:5], v[1:2], off
    s_endpgm
"""


def test_blocks_key_lists_each_block_with_its_live_in_registers(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Blocks: [0,2) entry, [2,7) the loop (label ``loop``, depth 1), [7,9) the exit. By hand:
    at entry v0, v3 (read in the loop, never written) and v[4:5] (the store address) are live;
    at the loop header also v1 (accumulator) and s0 (counter); at the exit v[1:2] (stored) and v[4:5]."""
    src = tmp_path / "loop.s"
    src.write_text(LOOP)
    assert main(["livereg", str(src), "--arch", "gfx900", "--json"]) == 0
    blocks = json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]["blocks"]
    assert blocks == [
        {"index": 0, "labels": [], "first_line": 1, "loop_depth": 0, "live_in": ["v0", "v[3:5]"]},
        {"index": 1, "labels": ["loop"], "first_line": 4, "loop_depth": 1,
         "live_in": ["v[0:1]", "v[3:5]", "s0"]},
        {"index": 2, "labels": [], "first_line": 9, "loop_depth": 0, "live_in": ["v[1:2]", "v[4:5]"]},
    ]
