"""Calls: targets, register figures over the call graph (LLVM's resource-usage rule) and liveness across
a call, on small hand-written modules; every expectation is derived by hand in the test."""

from __future__ import annotations

from pathlib import Path

import pytest

import isalens
from isalens.cli import main
from isalens.ir.registers import RegFile, registers_in

MODULE = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.type\thelper,@function
helper:
\tv_mov_b32_e32 v40, v0
\tv_add_f32_e32 v0, v40, v1
\ts_setpc_b64 s[30:31]
.Lfunc_end0:
\t.type\tk,@function
k:
\tv_mov_b32_e32 v5, 2.0
\tv_mov_b32_e32 v0, v2
\tv_mov_b32_e32 v1, v3
\ts_getpc_b64 s[4:5]
\ts_add_u32 s4, s4, helper@rel32@lo+4
\ts_addc_u32 s5, s5, helper@rel32@hi+12
\ts_swappc_b64 s[30:31], s[4:5]
\tv_add_f32_e32 v6, v0, v5
\ts_setpc_b64 s[30:31]
.Lfunc_end1:
"""


def test_call_target_resolved_and_callee_registers_counted() -> None:
    """k calls helper (s_getpc + helper@rel32 pair). k itself names v0-v6 and s4-s5, s30-s31; helper names
    v40: LLVM's rule takes the maximum over the call graph, so k needs 41 VGPRs and helper limits it."""
    module = isalens.load(MODULE)
    k = module.kernel("k")
    assert k.ir.calls is not None and k.ir.calls.sites == ((6, "helper"),)
    res = k.analyze().resources
    assert res.vgpr.requested == 41
    assert res.callee_limiters == (("v", "helper"),)
    assert not res.lower_bound
    assert not [d for d in module.diagnostics if d.code == "unknown-call"]
    notes = [d.message for d in module.diagnostics if d.code == "callee-registers"]
    assert notes == ["requested registers of k include its callees' (VGPRs by helper sets the figure)"]


def test_liveness_across_a_call_follows_the_calling_convention() -> None:
    """helper reads v0 and v1 at entry (its arguments) and writes v0 (its result) and v40 (callee-saved,
    so not a clobber for the caller). By hand, before the call: v0, v1 (arguments) and v5 (read after
    the call) are live, v2/v3 are dead after the copies; after the call v0 (helper's result) and v5."""
    k = isalens.load(MODULE).kernel("k")
    live = k.liveness()
    assert registers_in(live.live_in[6], RegFile.VGPR) == [0, 1, 5]
    assert registers_in(live.live_out[6], RegFile.VGPR) == [0, 5]
    # s[4:5] holds the target: live from the s_getpc to the call
    assert registers_in(live.live_in[6], RegFile.SGPR) == [4, 5]


SAVING_CALLEE = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.type\tsaver,@function
saver:
\tbuffer_store_dword v40, off, s[0:3], s32
\tv_mov_b32_e32 v40, v0
\tv_add_f32_e32 v0, v40, v40
\tbuffer_load_dword v40, off, s[0:3], s32
\ts_waitcnt vmcnt(0)
\ts_setpc_b64 s[30:31]
.Lfunc_end0:
\t.type\tk,@function
k:
\tv_mov_b32_e32 v0, v2
\ts_getpc_b64 s[4:5]
\ts_add_u32 s4, s4, saver@rel32@lo+4
\ts_addc_u32 s5, s5, saver@rel32@hi+12
\ts_swappc_b64 s[30:31], s[4:5]
\tv_add_f32_e32 v6, v0, v0
\ts_setpc_b64 s[30:31]
.Lfunc_end1:
"""


def test_a_callee_saving_a_callee_saved_register_does_not_read_the_callers_value() -> None:
    """saver stores v40 at entry (its prologue saves the callee-saved register it uses), so v40 is live at
    its entry. That save is not a use of k's value: k never names v40, so v40 is live nowhere in k (before
    the fix the call read it, and v40 was live from k's entry to the call). By hand, before the call: v0
    (the argument) only."""
    module = isalens.load(SAVING_CALLEE)
    saver, k = module.kernel("saver"), module.kernel("k")
    assert 40 in registers_in(saver.liveness().entry, RegFile.VGPR)
    live = k.liveness()
    assert registers_in(live.live_in[4], RegFile.VGPR) == [0]
    assert all(40 not in registers_in(x, RegFile.VGPR) for x in live.live_in)


def test_function_return_address_and_reserved_registers_are_not_live() -> None:
    """LLVM's return reads s[30:31] as undefined and reserves s[0:3], s32, s33 in functions: none of them
    is live anywhere in helper, while helper's result v0 is live at its return (k reads it)."""
    helper = isalens.load(MODULE).kernel("helper")
    live = helper.liveness()
    for i in range(3):
        assert registers_in(live.live_in[i], RegFile.SGPR) == []
    assert registers_in(live.live_in[2], RegFile.VGPR) == [0]
    assert registers_in(live.entry, RegFile.VGPR) == [0, 1]


def test_a_call_address_set_up_far_before_the_call_is_resolved() -> None:
    """clang hoists a callee's address into an SGPR pair once and calls through it from far below in
    straight-line code (benchmarks/calls_kernel.py: thousands of lines). With 300 lines and a call to
    another function between the set-up and the call, the closest write of s[4:5] is still the set-up: the
    call is helper's, as its first. The search once stopped after 256 lines and called it unknown."""
    far = "".join(f"\tv_mov_b32_e32 v{7 + i % 8}, {i % 60}\n" for i in range(300))
    text = MODULE.replace("\ts_swappc_b64 s[30:31], s[4:5]\n",
                          "\ts_swappc_b64 s[30:31], s[4:5]\n" + far + "\ts_swappc_b64 s[30:31], s[4:5]\n")
    module = isalens.load(text)
    k = module.kernel("k")
    assert k.ir.calls is not None and k.ir.calls.sites == ((6, "helper"), (307, "helper"))
    assert not module.kernel("k").analyze().resources.lower_bound
    assert not [d for d in module.diagnostics if d.code == "unknown-call"]


def test_unknown_call_warns_and_marks_a_lower_bound() -> None:
    """The target of ``s_swappc_b64 s[30:31], s[8:9]`` is loaded from memory: unknown. LLVM then assumes
    the largest non-kernel function of the module (helper, 41 VGPRs); a warning names the line and the
    figure is marked as a lower bound."""
    text = MODULE.replace("\ts_getpc_b64 s[4:5]\n\ts_add_u32 s4, s4, helper@rel32@lo+4\n"
                          "\ts_addc_u32 s5, s5, helper@rel32@hi+12\n\ts_swappc_b64 s[30:31], s[4:5]\n",
                          "\ts_load_dwordx2 s[8:9], s[6:7], 0x0\n\ts_swappc_b64 s[30:31], s[8:9]\n")
    module = isalens.load(text)
    res = module.kernel("k").analyze().resources
    assert res.lower_bound
    assert res.vgpr.requested == 41
    warnings = [d for d in module.diagnostics if d.code == "unknown-call"]
    assert [d.line for d in warnings] == [15]


def test_reports_name_the_callee_that_sets_the_figure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same module through the API and the CLI: k's 41 VGPRs come from helper (v40), and both say so."""
    (kernel,) = isalens.analyze(MODULE, kernel="k").to_dict()["files"][0]["kernels"]
    assert kernel["vgpr"]["requested"] == 41 and kernel["vgpr"]["set_by"] == "helper"
    assert kernel["sgpr"]["set_by"] is None and kernel["requested_is_lower_bound"] is False
    source = tmp_path / "calls.s"
    source.write_text(MODULE)
    assert main(["livereg", str(source), "--kernel", "k", "--summary"]) == 0
    assert "requested   41 (set by callee helper)" in capsys.readouterr().out


UNKNOWN_CALL = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.type\tk,@function
k:
\ts_load_dwordx2 s[4:5], s[0:1], 0x0
\ts_swappc_b64 s[30:31], s[4:5]
\ts_setpc_b64 s[30:31]
.Lfunc_end0:
"""


def test_an_unknown_call_target_makes_the_figures_a_lower_bound() -> None:
    """The call goes through a pointer loaded from memory: nothing says where, so the figures may be too low."""
    (kernel,) = isalens.analyze(UNKNOWN_CALL).to_dict()["files"][0]["kernels"]
    assert kernel["requested_is_lower_bound"] is True


POINTER_CALL = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.type\tscale_up,@function
scale_up:
\tv_fma_f32 v0, v0, 4.0, 1.0
\ts_setpc_b64 s[30:31]
.Lfunc_end0:
\t.globl\tk
\t.type\tk,@function
k:
\ts_load_dword s11, s[6:7], 0x10
\ts_mov_b32 s12, s8
\ts_waitcnt lgkmcnt(0)
\ts_cmp_eq_u32 s11, s12
\ts_getpc_b64 s[14:15]
\ts_add_u32 s14, s14, scale_up@rel32@lo+4
\ts_addc_u32 s15, s15, scale_up@rel32@hi+12
\ts_cselect_b64 s[16:17], s[14:15], 0
\tv_mov_b32_e32 v31, v0
\tv_add_f32_e32 v2, v1, v1
\tv_mul_f32_e32 v0, v2, v2
\ts_mov_b32 s32, 0
\ts_swappc_b64 s[30:31], s[16:17]
\tv_add_f32_e32 v5, v0, v0
\ts_endpgm
.Lfunc_end1:
\t.section\t.rodata,"a",@progbits
\t.p2align\t6, 0x0
\t.amdhsa_kernel k
\t\t.amdhsa_user_sgpr_count 8
\t\t.amdhsa_user_sgpr_private_segment_buffer 1
\t\t.amdhsa_user_sgpr_dispatch_ptr 1
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_system_sgpr_workgroup_id_x 1
\t\t.amdhsa_system_vgpr_workitem_id 1
\t\t.amdhsa_next_free_vgpr 32
\t\t.amdhsa_next_free_sgpr 18
\t.end_amdhsa_kernel
\t.text
"""


def test_a_call_through_a_pointer_reads_what_llvm_passes() -> None:
    """The shape llc-19 emits for a call through a function pointer (examples/kernels/calls/indirect.cl,
    call_pointer on gfx900-gfx942), whose ``SI_CALL`` in the MIR reads ``implicit killed $sgpr4_sgpr5``
    (the dispatch ptr, already where a callee expects it: s[0:3] private segment buffer, then s[4:5]),
    ``killed $sgpr12`` (the workgroup id copied into place, then also read by the kernel), ``killed $vgpr31``
    and ``killed $vgpr0``, but neither the temporaries ``s11`` (loaded, compared) nor ``v2`` (computed, read
    by the next instruction). By hand, before the call (instruction 12): s[0:3] (scratch descriptor), s[4:5],
    s12 and s[16:17] (the target); v0 and v31. s[4:5] is live from the entry, since nothing writes it."""
    k = isalens.load(POINTER_CALL).kernel("k")
    live = k.liveness()
    assert registers_in(live.live_in[12], RegFile.SGPR) == [0, 1, 2, 3, 4, 5, 12, 16, 17]
    assert registers_in(live.live_in[12], RegFile.VGPR) == [0, 31]
    assert {4, 5} <= set(registers_in(live.live_in[0], RegFile.SGPR))
    assert 11 not in registers_in(live.live_in[4], RegFile.SGPR)  # the compare was its last read


def test_a_function_no_code_calls_directly_returns_the_results_it_sets_up() -> None:
    """scale_up is only reached through a pointer (its address is taken, no ``s_swappc`` names it): its
    callers are unknown, so its return reads the result register it writes last and does not read again,
    v0 (llc-19: ``S_SETPC_B64_return undef $sgpr30_sgpr31, implicit killed $vgpr0``)."""
    scale_up = isalens.load(POINTER_CALL).kernel("scale_up")
    assert registers_in(scale_up.liveness().live_out[0], RegFile.VGPR) == [0]


NO_CALLS = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.globl\tsum2
\t.type\tsum2,@function
sum2:
\tv_add_f32_e32 v2, v0, v1
\tv_mul_f32_e32 v0, v2, v2
\ts_setpc_b64 s[30:31]
.Lfunc_end0:
"""


def test_a_function_in_a_file_without_calls_returns_its_result_not_its_address() -> None:
    """No instruction of the file calls sum2 (a helper others link against, as Rodinia's particle_double.cl
    calcLikelihoodSum, whose double LLVM 19 returns in v[0:1]: ``S_SETPC_B64_return undef $sgpr30_sgpr31,
    implicit killed $vgpr0, implicit killed $vgpr1``). Its return reads the result it sets up, v0 (written
    last, read by nothing after), and not the return address s[30:31]; v2 is read by the multiply, so it is
    a temporary, dead at the return. By hand: live before the return {v0}, at entry {v0, v1}, no SGPR."""
    live = isalens.load(NO_CALLS).kernel("sum2").liveness()
    assert registers_in(live.live_in[2], RegFile.VGPR) == [0]
    assert registers_in(live.live_in[2], RegFile.SGPR) == []
    assert registers_in(live.entry, RegFile.VGPR) == [0, 1]
    assert registers_in(live.entry, RegFile.SGPR) == []


# llc-19's loop of examples/kernels/liveness/no_caller.cl sum_sq (gfx902): the pointer in v[0:1] is
# incremented in the loop, the sum in v3 is copied into v0 before the return
SUM_COPIED = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.globl\tsum_sq
\t.type\tsum_sq,@function
sum_sq:
\tv_cmp_lt_i32_e32 vcc, 0, v2
\tv_mov_b32_e32 v3, 0
\ts_and_saveexec_b64 s[4:5], vcc
\ts_cbranch_execz .LBB1_4
\ts_mov_b64 s[6:7], 0
.LBB1_2:
\tglobal_load_dword v4, v[0:1], off
\tv_add_co_u32_e32 v0, vcc, 4, v0
\tv_add_u32_e32 v2, -1, v2
\tv_addc_co_u32_e32 v1, vcc, 0, v1, vcc
\tv_cmp_eq_u32_e32 vcc, 0, v2
\ts_or_b64 s[6:7], vcc, s[6:7]
\ts_waitcnt vmcnt(0)
\tv_fma_f32 v3, v4, v4, v3
\ts_andn2_b64 exec, exec, s[6:7]
\ts_cbranch_execnz .LBB1_2
\ts_or_b64 exec, exec, s[6:7]
.LBB1_4:
\ts_or_b64 exec, exec, s[4:5]
\tv_mov_b32_e32 v0, v3
\ts_setpc_b64 s[30:31]
.Lfunc_end0:
"""

# the same loop with the pointer in v[2:3], the count in v1 and the sum kept in v0 up to the return
SUM_IN_PLACE = (SUM_COPIED.replace("vcc, 0, v2", "vcc, 0, v1").replace("v3, 0\n", "v0, 0\n")
                .replace("v4, v[0:1]", "v4, v[2:3]").replace("v0, vcc, 4, v0", "v2, vcc, 4, v2")
                .replace("v2, -1, v2", "v1, -1, v1").replace("v1, vcc, 0, v1, vcc", "v3, vcc, 0, v3, vcc")
                .replace("v3, v4, v4, v3", "v0, v4, v4, v0").replace("\tv_mov_b32_e32 v0, v3\n", ""))


@pytest.mark.parametrize("text", [SUM_COPIED, SUM_IN_PLACE], ids=["copied", "in place"])
def test_a_function_without_callers_here_returns_its_result_not_a_spent_pointer(text: str) -> None:
    """Both loops leave the pointer's last increment unread on the way out, which looks like a result set up
    for the caller. LLVM returns a value in v0, v1, ... in order (llc-19: ``S_SETPC_B64_return undef
    $sgpr30_sgpr31, implicit killed $vgpr0``): with the copy into v0 in the return's block nothing above v0
    is a result (v1, the pointer's high half, is not); with the sum in place the run of results from v0
    stops at v1 (the count, read by the compare after its last write), so v[2:3] are not results either.
    By hand, live before the return: v0 alone of the VGPRs."""
    kernel = isalens.load(text).kernel("sum_sq")
    ret = len(kernel.ir.instructions) - 1
    assert kernel.ir.instructions[ret].mnemonic == "s_setpc_b64"
    assert registers_in(kernel.liveness().live_in[ret], RegFile.VGPR) == [0]


# llc-19 for examples/kernels/liveness/no_caller_loops.cl running_total (gfx902): a void function whose loop
# stores through v[0:1] and loads through v[2:3], advancing both by 8 bytes per iteration
RUNNING_TOTAL = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.globl\trunning_total
\t.type\trunning_total,@function
running_total:
\tglobal_load_dwordx2 v[5:6], v[2:3], off
\tv_cmp_lt_i32_e32 vcc, 1, v4
\ts_waitcnt vmcnt(0)
\tglobal_store_dwordx2 v[0:1], v[5:6], off
\ts_and_saveexec_b64 s[4:5], vcc
\ts_cbranch_execz .LBB0_3
\tv_add_co_u32_e32 v2, vcc, 8, v2
\tv_addc_co_u32_e32 v3, vcc, 0, v3, vcc
\tv_add_co_u32_e32 v0, vcc, 8, v0
\tv_add_u32_e32 v4, -1, v4
\tv_addc_co_u32_e32 v1, vcc, 0, v1, vcc
\ts_mov_b64 s[6:7], 0
.LBB0_2:
\tglobal_load_dwordx2 v[7:8], v[2:3], off
\tv_add_co_u32_e32 v2, vcc, 8, v2
\tv_add_u32_e32 v4, -1, v4
\tv_addc_co_u32_e32 v3, vcc, 0, v3, vcc
\tv_cmp_eq_u32_e32 vcc, 0, v4
\ts_or_b64 s[6:7], vcc, s[6:7]
\ts_waitcnt vmcnt(0)
\tv_add_f64 v[5:6], v[5:6], v[7:8]
\tglobal_store_dwordx2 v[0:1], v[5:6], off
\tv_add_co_u32_e32 v0, vcc, 8, v0
\tv_addc_co_u32_e32 v1, vcc, 0, v1, vcc
\ts_andn2_b64 exec, exec, s[6:7]
\ts_cbranch_execnz .LBB0_2
.LBB0_3:
\ts_or_b64 exec, exec, s[4:5]
\ts_waitcnt vmcnt(0)
\ts_setpc_b64 s[30:31]
.Lfunc_end0:
"""

# a double sum kept in v[0:1] while the loop walks the pointer that arrived in v[2:3] (the shape of
# no_caller_loops.cl squared_offsets, cut down by hand)
SUM_AND_POINTER = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.globl\tdsum
\t.type\tdsum,@function
dsum:
\tv_mov_b32_e32 v0, 0
\tv_mov_b32_e32 v1, 0
\tv_cmp_lt_i32_e32 vcc, 0, v4
\ts_and_saveexec_b64 s[6:7], vcc
\ts_cbranch_execz .LBB1_3
\ts_mov_b64 s[8:9], 0
.LBB1_2:
\tglobal_load_dwordx2 v[5:6], v[2:3], off
\tv_add_u32_e32 v4, -1, v4
\tv_cmp_eq_u32_e32 vcc, 0, v4
\ts_or_b64 s[8:9], vcc, s[8:9]
\tv_add_co_u32_e32 v2, vcc, 8, v2
\tv_addc_co_u32_e32 v3, vcc, 0, v3, vcc
\ts_waitcnt vmcnt(0)
\tv_add_f64 v[0:1], v[0:1], v[5:6]
\ts_andn2_b64 exec, exec, s[8:9]
\ts_cbranch_execnz .LBB1_2
\ts_or_b64 exec, exec, s[8:9]
.LBB1_3:
\ts_or_b64 exec, exec, s[6:7]
\ts_setpc_b64 s[30:31]
.Lfunc_end0:
"""


@pytest.mark.parametrize(("text", "name", "results"), [(RUNNING_TOTAL, "running_total", []),
                                                        (SUM_AND_POINTER, "dsum", [0, 1])],
                         ids=["void", "double"])
def test_pointers_a_loop_walks_are_not_results(text: str, name: str, results: list[int]) -> None:
    """Without a copy into v0 in the return's block, the results are the run from v0 up of registers set up
    for the return: last written and not read since. A pointer's last increment in the loop is such a write,
    but a pointer the loop reads memory at and only advances by adds is spent after it (llc-19: the void
    running_total's return reads no VGPR; Rodinia's double calcLikelihoodSum returns v[0:1], not the pointer
    in v[2:3]). By hand, live before the return: running_total none (v[0:1], v[2:3] are both walked
    pointers; without the rule v0-v3), dsum v[0:1] (the sum, written by the last v_add_f64 and read by
    nothing after; v[2:3] walked; v4 read by the compare after its last write; without the rule v0-v3)."""
    kernel = isalens.load(text).kernel(name)
    ret = len(kernel.ir.instructions) - 1
    assert kernel.ir.instructions[ret].mnemonic == "s_setpc_b64"
    assert registers_in(kernel.liveness().live_in[ret], RegFile.VGPR) == results


UNKNOWN_CALL_KEEPS = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.globl\tk
\t.type\tk,@function
k:
\ts_load_dwordx2 s[40:41], s[4:5], 0x0
\ts_load_dwordx2 s[16:17], s[4:5], 0x8
\tv_cmp_gt_i32_e32 vcc, 8, v0
\ts_and_saveexec_b64 s[42:43], vcc
\ts_waitcnt lgkmcnt(0)
\ts_swappc_b64 s[30:31], s[16:17]
\ts_or_b64 exec, exec, s[42:43]
\tv_mov_b32_e32 v1, 0
\tglobal_store_dword v1, v0, s[40:41]
\ts_endpgm
.Lfunc_end0:
\t.ident\t"Debian clang version {major}.1.7 (3~deb12u1)"
"""


@pytest.mark.parametrize(("major", "kept"), [(19, True), (20, False)])
def test_an_unknown_call_keeps_the_sgprs_llvm_19_saves(major: int, kept: bool) -> None:
    """s[40:41] holds a kernel argument read after the call and s[42:43] the EXEC mask the region restores
    after it. LLVM 19's callee-saved SGPRs are s30-s105 (measured: llc 19.1.7 saves s34-s105 in the
    prologue of a function clobbering them), so under clang 19 (``.ident``) the unknown call keeps them
    and they are live before it; under the striped set of later LLVM (s40-s47 not saved) the call
    clobbers them and they are dead before it (the program would be wrong, which is why the producer
    decides)."""
    k = isalens.load(UNKNOWN_CALL_KEEPS.replace("{major}", str(major))).kernel("k")
    live = k.liveness()
    before_call = set(registers_in(live.live_in[5], RegFile.SGPR))
    assert ({40, 41, 42, 43} <= before_call) is kept
    assert not {40, 41, 42, 43} & before_call or kept


def test_without_a_producer_the_installed_compilers_convention_applies() -> None:
    """No ``.ident``: the default is LLVM 19 (the compiler scripts/setup.sh installs), so s[40:43] survive."""
    text = UNKNOWN_CALL_KEEPS.replace("\t.ident\t\"Debian clang version {major}.1.7 (3~deb12u1)\"\n", "")
    live = isalens.load(text).kernel("k").liveness()
    assert {40, 41, 42, 43} <= set(registers_in(live.live_in[5], RegFile.SGPR))


ARG_FROM_BRANCH = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.globl\tk
\t.type\tk,@function
k:
\ts_load_dwordx2 s[16:17], s[4:5], 0x8
\tv_mov_b32_e32 v1, 1.0
\tv_cmp_lt_f32_e32 vcc, 0, v0
\ts_and_saveexec_b64 s[8:9], vcc
\ts_cbranch_execz .LBB0_2
\tv_mov_b32_e32 v4, s13
\tv_add_f32_e32 v2, v4, v0
\tv_mul_f32_e32 v1, v2, v0
.LBB0_2:
\ts_or_b64 exec, exec, s[8:9]
\ts_waitcnt lgkmcnt(0)
\ts_swappc_b64 s[30:31], s[16:17]
\ts_endpgm
.Lfunc_end0:
"""


def test_an_unknown_call_reads_arguments_set_in_an_earlier_block() -> None:
    """v1 is set in both earlier blocks (1.0 before the branch, v2 * v0 in it) and nothing reads it before
    the call through s[16:17]: it is the call's argument (llc-19 puts a value computed in a branch straight
    into the argument register), so it is live before the call and at the join. v4 and v2 are temporaries
    of the branch (written, then read there): not arguments, so not live at the join. With no kernel
    descriptor k is a function, which passes the workitem ids it received in v31 on to its callees."""
    live = isalens.load(ARG_FROM_BRANCH).kernel("k").liveness()
    call, join = 10, 8
    assert 1 in registers_in(live.live_in[call], RegFile.VGPR)
    assert registers_in(live.live_in[join], RegFile.VGPR) == [1, 31]


WATERFALL = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
\t.text
\t.type\tf,@function
f:
\ts_mov_b32 s46, exec_lo
.LBB0_1:
\tv_readfirstlane_b32 s16, v0
\tv_readfirstlane_b32 s17, v1
\ts_mov_b32 s47, exec_lo
\tv_cmpx_eq_u64_e64 s[16:17], v[0:1]
\tv_mov_b32_e32 v0, v4
\ts_swappc_b64 s[30:31], s[16:17]
\tv_mov_b32_e32 v2, v0
\ts_xor_b32 exec_lo, exec_lo, s47
\ts_cbranch_execnz .LBB0_1
\ts_mov_b32 exec_lo, s46
\tv_add_f32_e32 v0, v2, v2
\ts_setpc_b64 s[30:31]
.Lfunc_end0:
"""


def test_a_waterfall_loop_runs_its_body_for_every_lane() -> None:
    """The loop calls through a divergent pointer once per distinct value: each pass switches on the lanes
    sharing v[0:1] (``v_cmpx``), and ``s_xor exec, exec, s47`` + ``s_cbranch_execnz`` send the others round
    again. Every lane runs the body, so v2 (written after the call, read after the loop) is not live into
    the loop (llc-19 MIR of calls_conv.cl call_through); lanes switched off skip only to the loop header."""
    live = isalens.load(WATERFALL).kernel("f").liveness()
    assert 2 not in registers_in(live.live_in[1], RegFile.VGPR)
    assert 2 not in registers_in(live.entry, RegFile.VGPR)


def test_a_call_line_counts_what_is_live_across_it_not_what_the_callee_clobbers() -> None:
    """The unknown call of ARG_FROM_BRANCH may clobber v0-v31 (every VGPR not callee-saved that the
    convention or the code names), but the caller holds none of them there: the line counts its live-in
    (v1, the argument, and v31, the workitem ids passed on) and live-out (nothing: s_endpgm follows), 2
    VGPRs, not 32. The peak is then in the branch, where real values are held: at ``v_add_f32 v2, v4, v0``
    v0, v4, v31 are live in, v2 written (4), at ``v_mul_f32 v1, v2, v0`` v0, v2, v31 in, v1 written (4)."""
    result = isalens.load(ARG_FROM_BRANCH).kernel("k").analyze()
    assert result.pressure.vgpr.counts[10] == 2
    assert result.pressure.vgpr.peak == 4
    assert result.pressure.vgpr.peak_indices == (6, 7)


@pytest.mark.parametrize(("text", "solved_by_link"), [
    (MODULE, {"helper", "k"}),           # helper: called (its entry is read); k: calls helper (its results)
    (ARG_FROM_BRANCH, set()),            # one unknown call, nothing calls k: linking needs no solution
    (WATERFALL, set()),
])
def test_analyses_start_from_the_solutions_linking_computed(text: str, solved_by_link: set[str]) -> None:
    """Linking solves the liveness of a function whose entry or callees' results it needs; the passes start
    from that solution instead of solving the same function again. Oracle: the CFG and liveness computed from
    scratch on the linked function (the definition the passes use), equal field by field; a function linking
    needed no solution for carries none."""
    from isalens.analysis.cfg import cfg
    from isalens.analysis.liveness import liveness

    module = isalens.load(text)
    assert {k.name for k in module.kernels if k.solved is not None} == solved_by_link
    for k in module.kernels:
        graph = cfg(k.ir)
        fresh = liveness(k.ir, graph)
        assert k.cfg == graph
        assert k.liveness() == fresh
        result = k.analyze()
        assert result.cfg == graph
        assert result.liveness == fresh


def test_the_linking_solutions_are_let_go_once_used() -> None:
    """The module hands each solution linking made to its kernel and keeps none itself; a kernel's first
    analysis takes it, and a kernel the request does not choose (``--kernel``) lets it go at once, so a module
    analysed one kernel at a time holds no analysed kernel's live sets. Oracle: the handed solution is the
    one the first analysis uses (identity), and an analysis after the release, solved afresh, equals it field
    by field (the definition the passes use)."""
    from isalens.engine import LoadOptions, load_input

    module = isalens.load(MODULE)
    helper = module.kernel("helper")
    assert module.solved == {}
    handed = helper.solved
    assert handed is not None
    first = helper.analyze()
    assert first.cfg is handed[0] and first.liveness is handed[1]
    assert helper.solved is None
    again = helper.analyze()
    assert again.liveness is not first.liveness
    assert (again.cfg, again.liveness) == (first.cfg, first.liveness)

    loaded, chosen, _stats = load_input(MODULE, LoadOptions(kernel="k"))
    assert [k.name for k in chosen] == ["k"]
    assert chosen[0].solved is not None              # still to be analysed: it keeps the linking's solution
    assert loaded.kernel("helper").solved is None    # not chosen: let go


TWO_TARGETS = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
\t.text
\t.type\thelper,@function
helper:
\tv_add_f32_e32 v0, v0, v1
\ts_setpc_b64 s[30:31]
.Lfunc_end0:
\t.type\tother,@function
other:
\tv_mov_b32_e32 v0, 1.0
\ts_setpc_b64 s[30:31]
.Lfunc_end1:
\t.type\tk,@function
k:
\ts_getpc_b64 s[4:5]
\ts_add_u32 s4, s4, helper@rel32@lo+4
\ts_addc_u32 s5, s5, helper@rel32@hi+12
\ts_getpc_b64 s[6:7]
\ts_add_u32 s6, s6, other@rel32@lo+4
\ts_addc_u32 s7, s7, other@rel32@hi+12
\ts_swappc_b64 s[30:31], s[4:5]
\ts_swappc_b64 s[30:31], s[6:7]
\ts_swappc_b64 s[30:31], s[4:5]
\ts_swappc_b64 s[30:31], s[10:11]
\ts_setpc_b64 s[30:31]
.Lfunc_end2:
"""


def test_calls_through_different_and_shared_address_pairs() -> None:
    """k's lines 6-9 call through s[4:5] (helper's address, built at lines 0-2), s[6:7] (other's, lines 3-5),
    s[4:5] again (the same writer, line 1: helper again) and s[10:11], which nothing here writes (unknown)."""
    k = isalens.load(TWO_TARGETS).kernel("k")
    assert k.ir.calls is not None
    assert k.ir.calls.sites == ((6, "helper"), (7, "other"), (8, "helper"), (9, None))
