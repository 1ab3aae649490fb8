"""A text the reader first met on a disassembly line (encoding words: the exact size, so the encoding rules'
size is not computed) and then on a line without words gets the rules' size, as a process that never saw the
listing gives it (issue 28: the size step skipped per distinct encoded text, docs/performance.md)."""

from __future__ import annotations

import isalens

# llvm-mc-19 -mcpu=gfx900 -show-encoding: v_mov_b32_e32 v0, 0x3e8 -> [0xff,0x02,0x00,0x7e,0xe8,0x03,0x00,0x00]
# (VOP1, 4 bytes, and its 32-bit literal, 4 more); s_endpgm -> [0x00,0x00,0x81,0xbf]
_LISTING = """
code-object.elf:\tfile format elf64-amdgpu

Disassembly of section .text:

0000000000001000 <k>:
\tv_mov_b32_e32 v0, 0x3e8                                    // 000000001000: 7E0002FF 000003E8
\ts_endpgm                                                   // 000000001008: BF810000
"""


def test_rules_size_of_a_text_first_read_with_encoding_words() -> None:
    listed = isalens.load(_LISTING, "gfx900").kernels[0].ir.instructions
    assert [(i.facts.size, i.facts.exact) for i in listed] == [(8, True), (4, True)]
    # the same texts without words, in the same process (the decoded texts are shared per target): sized by
    # the encoding rules, 8 and 4 bytes as llvm-mc encodes them
    plain = isalens.load("v_mov_b32_e32 v0, 0x3e8\ns_endpgm\n", "gfx900").kernels[0].ir.instructions
    assert [(i.facts.size, i.facts.exact) for i in plain] == [(8, False), (4, False)]
