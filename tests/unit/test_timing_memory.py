"""Memory latency by level (issue 29 item 3): ``--memory-level``, the L2..DRAM range without it, device figures
over the family's, LDS latency, and bad input. Expected cycles are derived in the comments from the cited
figures of ``timing_gfx9.toml`` / ``timing_gfx10.toml`` ``[memory]`` and ``devices.toml``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import isalens
from isalens.arch.devices import get_device
from isalens.arch.timing import memory_latency, memory_table, timing_table
from isalens.cli import main
from isalens.engine.timing import kernel_timing

#: one wave waits for one global load: the add starts when the load's data is back
CHASE = "global_load_dword v1, v[2:3], off\ns_waitcnt vmcnt(0)\nv_add_f32_e32 v5, v1, v1\ns_endpgm\n"
#: the same with an LDS read
LDS = "ds_read_b32 v1, v2\ns_waitcnt lgkmcnt(0)\nv_add_f32_e32 v5, v1, v1\ns_endpgm\n"
#: a store only: nothing waits for a load, so there is no range to report
STORE = "global_store_dword v[2:3], v1, off\ns_endpgm\n"


def _wait_ends_at(text: str, arch: str = "gfx902", **kw: object) -> int:
    kernel = isalens.load(text, arch).kernels[0]
    t = kernel_timing(kernel, waves=1, **kw)  # type: ignore[arg-type]
    return {lt.line: lt.start for lt in t.profile.lines}[2]  # the s_waitcnt issues when the data is back


@pytest.mark.parametrize(("level", "cycles"), [("l1", 125), ("l2", 240), ("dram", 570)])
def test_gcn_load_takes_the_level_latency(level: str, cycles: int) -> None:
    # gfx9 [memory]: L1 125, L2 240, DRAM 570 cycles; the load issues at 0 and the s_waitcnt after it issues when
    # the data is back
    assert _wait_ends_at(CHASE, memory_level=level) == cycles


def test_without_a_level_the_range_runs_from_l2_hits_to_dram_misses(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "k.s"
    src.write_text("s_mov_b32 s0, 4\nBB0:\n" + CHASE.replace("s_endpgm\n", "") +
                   "s_sub_u32 s0, s0, 1\ns_cmp_lg_u32 s0, 0\ns_cbranch_scc1 BB0\ns_endpgm\n")
    assert main(["timing", str(src), "--arch", "gfx902", "--waves", "1", "--json"]) == 0
    t = json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]["timing"]
    assert t["memory"] == {"level": "l2", "from": "assumed", "latency_cycles": 240,
                           "range": {"levels": ["l2", "dram"], "latency_cycles": [240, 570]}}
    (loop,) = t["loops"]
    lo, hi = loop["memory_range"]["cycles_per_iteration"]["l2"], loop["memory_range"]["cycles_per_iteration"]["dram"]
    # the stable key keeps the L2 end; one wave waits for the load each iteration, so the ends differ by the
    # latencies' difference, 570 - 240 = 330 cycles
    assert loop["cycles_per_iteration"] == lo and hi - lo == 330
    assert any("L2 (240 cycles)" in a and "DRAM (570 cycles)" in a for a in t["assumptions"])
    assert main(["timing", str(src), "--arch", "gfx902", "--waves", "1"]) == 0
    assert f"range: {lo:.0f} (L2 hits) .. {hi:.0f} cyc/iter" in capsys.readouterr().out


def test_a_given_level_has_no_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "k.s"
    src.write_text(CHASE)
    assert main(["timing", str(src), "--arch", "gfx902", "--memory-level", "dram", "--json"]) == 0
    t = json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]["timing"]
    assert t["memory"] == {"level": "dram", "from": "--memory-level", "latency_cycles": 570}
    assert "memory_range" not in t["kernel"]


def test_no_loads_no_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "k.s"
    src.write_text(STORE)
    assert main(["timing", str(src), "--arch", "gfx902", "--json"]) == 0
    t = json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]["timing"]
    assert "range" not in t["memory"] and "memory_range" not in t["kernel"]


def test_stores_complete_at_l2_at_every_level() -> None:
    # the vector L1 is write-through: a store's latency is L2's (240 on gfx9) whichever level loads hit
    table = timing_table("gfx9")
    for level in ("l1", "dram"):
        levelled = memory_table(table, table.memory, level)
        assert levelled.classes["global.store"].latency == 240
        assert levelled.classes["global.load"].latency == table.memory.of(level)  # type: ignore[union-attr]


def test_device_figures_replace_the_family_figures() -> None:
    # RX 7900 XTX: its own Infinity Cache figure, 150.3 ns x 2.5 GHz = 376 cycles; L1/L2/DRAM stay the family's
    table = timing_table("gfx11")
    mem = memory_latency(table, get_device("rx-7900-xtx"))
    assert mem is not None and table.memory is not None
    assert (mem.mall, mem.l1, mem.l2, mem.dram) == (376, table.memory.l1, table.memory.l2, table.memory.dram)
    # the load issues at 0, the s_waitcnt when its data is back
    assert _wait_ends_at(CHASE, "gfx1100", memory_level="mall", device="rx-7900-xtx") == 376


def test_lds_read_latency_is_measured_not_acos_20() -> None:
    # gfx9 [memory] lds = 52 (ds_read_b32 on CDNA3, tingqli/pyhip); gfx10 [memory] lds = 33 (ds_load_b32 +
    # s_waitcnt on an RX 7900 XT, chanzhennan/ChipBenchmarker), which gfx11 and gfx12 inherit: the read issues at
    # 0 and the s_waitcnt after it when the data is back
    assert _wait_ends_at(LDS) == 52
    assert _wait_ends_at(LDS, "gfx1030") == 33
    assert _wait_ends_at(LDS.replace("ds_read_b32", "ds_load_b32"), "gfx1100") == 33
    gfx12 = LDS.replace("ds_read_b32", "ds_load_b32").replace("s_waitcnt lgkmcnt(0)", "s_wait_dscnt 0x0")
    assert _wait_ends_at(gfx12, "gfx1200") == 33


def test_a_level_without_a_figure_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "k.s"
    src.write_text(CHASE)
    # gfx9 parts have no MALL: one line naming the file, exit 2
    assert main(["timing", str(src), "--arch", "gfx902", "--memory-level", "mall"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "k.s" in err[0] and "MALL" in err[0] and "Traceback" not in err[0]
    with pytest.raises(SystemExit) as exc:  # argparse's own usage error for a level that does not exist
        main(["timing", str(src), "--arch", "gfx902", "--memory-level", "l3"])
    assert exc.value.code == 2 and "invalid choice: 'l3'" in capsys.readouterr().err


#: one wave waits for one scalar load (the scalar path of a pointer chase)
SCALAR_CHASE = "s_load_dword s4, s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\ns_add_u32 s5, s4, s4\ns_endpgm\n"


@pytest.mark.parametrize(("level", "cycles"), [("l1", 30), ("l2", 145), ("dram", 475)])
def test_an_explicit_level_sends_scalar_loads_past_the_scalar_cache(level: str, cycles: int) -> None:
    # gfx9: smem.load 30 cycles (a scalar-cache hit, ACO); [memory] L1 125, L2 240, DRAM 570. A miss pays the
    # level's vector latency with the scalar cache's hit in place of the vector L1's: L2 240 - 125 + 30 = 145,
    # DRAM 570 - 125 + 30 = 475; at l1 the load hits the scalar cache (30)
    assert _wait_ends_at(SCALAR_CHASE, memory_level=level) == cycles


def test_scalar_loads_reach_the_infinity_cache() -> None:
    # RX 7900 XTX: MALL 376 cycles (its device figure), gfx11 L0 73, scalar hit 30: 376 - 73 + 30 = 333 cycles
    # (Chips and Cheese measured the scalar chase 22 ns under the vector one there: 128.4 against 150.3 ns)
    assert _wait_ends_at(SCALAR_CHASE.replace("s_load_dword", "s_load_b32"), "gfx1100", memory_level="mall",
                         device="rx-7900-xtx") == 333


def test_without_a_level_scalar_loads_hit_the_scalar_cache(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    # the assumed L2 level and the range's DRAM end move vector loads only: uniform data is small and cached
    assert _wait_ends_at(SCALAR_CHASE) == 30
    src = tmp_path / "k.s"
    src.write_text(SCALAR_CHASE)
    assert main(["timing", str(src), "--arch", "gfx902", "--memory-level", "l2"]) == 0
    assert "every scalar load misses the scalar cache to L2 (145 cycles" in capsys.readouterr().out
    assert main(["timing", str(src), "--arch", "gfx902"]) == 0
    assert "scalar load" not in capsys.readouterr().out
