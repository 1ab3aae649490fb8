"""What a bare ``llvm-objdump -d`` listing leaves out (engine/disassembly.py): which functions are callees, and
where a function's code ends before the alignment padding."""

from __future__ import annotations

import isalens

# a callee returning through s_setpc_b64, and a kernel calling it (s_getpc_b64's 0x1104 - 0x104 = 0x1000), then
# alignment padding: s_nop 0, and s_code_end at the end of .text
LISTING = """
k.co:\tfile format elf64-amdgpu

Disassembly of section .text:

0000000000001000 <twice>:
\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)                    // 000000001000: BF8C0000
\tv_add_nc_u32_e32 v0, v0, v0                                // 000000001004: 68000100
\ts_setpc_b64 s[30:31]                                       // 000000001008: BE801D1E

0000000000001100 <main>:
\ts_getpc_b64 s[4:5]                                         // 000000001100: BE841C00
\ts_add_u32 s4, s4, 0xfffffefc                               // 000000001104: 8004FF04 FFFFFEFC
\ts_addc_u32 s5, s5, -1                                      // 00000000110C: 8205C105
\ts_swappc_b64 s[30:31], s[4:5]                              // 000000001110: BE9E1E04
\ts_endpgm                                                   // 000000001114: BF810000
\ts_nop 0                                                    // 000000001118: BF800000
\ts_nop 0                                                    // 00000000111C: BF800000
\ts_code_end                                                 // 000000001120: BF9F0000
"""


def test_callee_is_a_function_and_padding_is_not_code() -> None:
    module = isalens.load(LISTING, "gfx1030")
    kinds = {k.name: k.ir.is_kernel for k in module.kernels}
    assert kinds == {"twice": False, "main": True}  # no s_endpgm and a return: a callee
    main = module.kernel("main")
    # 5 instructions up to s_endpgm (0x1100..0x1114): the three after it are padding
    assert len(main.instructions) == 5
    stats = main.analyze(extra=("stats",)).stats
    assert stats is not None and stats.code_bytes == 0x1118 - 0x1100
    assert not [d for d in module.diagnostics if d.code == "unknown-call"]


def test_code_after_a_fall_through_is_kept() -> None:
    # a conditional branch falls through: what follows it is code, nothing is cut
    module = isalens.load(LISTING.replace("\ts_endpgm", "\ts_cbranch_scc0 1"), "gfx1030")
    assert len(module.kernel("main").instructions) == 8
