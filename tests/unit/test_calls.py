"""Calls: targets, register figures over the call graph (LLVM's resource-usage rule) and liveness across
a call, on small hand-written modules; every expectation is derived by hand in the test."""

from __future__ import annotations

import isalens
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


def test_function_return_address_and_reserved_registers_are_not_live() -> None:
    """LLVM's return reads s[30:31] as undefined and reserves s[0:3], s32, s33 in functions: none of them
    is live anywhere in helper, while helper's result v0 is live at its return (k reads it)."""
    helper = isalens.load(MODULE).kernel("helper")
    live = helper.liveness()
    for i in range(3):
        assert registers_in(live.live_in[i], RegFile.SGPR) == []
    assert registers_in(live.live_in[2], RegFile.VGPR) == [0]
    assert registers_in(live.entry, RegFile.VGPR) == [0, 1]


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
