"""How a mnemonic is spelled: its encoding suffix, the two halves of a VOPD pair, the DPP and SDWA control
words. Every reader and analysis asks here instead of cutting strings itself."""

from __future__ import annotations

import re

from isalens.isa.amdgcn.syntax import RawInstruction, parse_instruction_text

__all__ = [
    "DPP_CONTROLS", "SDWA_SELECTS", "base_mnemonic", "dual_to_single", "is_dpp", "vopd_halves",
    "without_size_suffix",
]

_ENCODING_SUFFIX = re.compile(r"_(?:e32|e64|sdwa|dpp8|dpp|e64_dpp|e32_dpp|e64_dpp8)$")
#: suffixes that only choose the 32- or 64-bit VALU encoding of the same operation
_SIZE_SUFFIXES = ("_e32", "_e64", "_vop3")

#: SDWA operand selects [ISA guides, SDWA]
SDWA_SELECTS = ("dst_sel:", "dst_unused:", "src0_sel:", "src1_sel:")
#: DPP controls and masks as LLVM prints them [ISA guides, DPP; AMDGPUAsmParser]
DPP_CONTROLS = ("quad_perm:", "row_shl:", "row_shr:", "row_ror:", "wave_shl:", "wave_rol:", "wave_shr:", "wave_ror:",
                "row_mirror", "row_half_mirror", "row_bcast:", "row_share:", "row_xmask:", "row_newbcast:", "dpp8:",
                "row_mask:", "bank_mask:", "bound_ctrl:", "fi:")


def base_mnemonic(mnemonic: str) -> tuple[str, str]:
    """Split ``v_add_f32_e32`` into (``v_add_f32``, ``e32``): every encoding suffix (``_e32``, ``_e64``,
    ``_sdwa``, ``_dpp``, ``_dpp8``, ``_e64_dpp``...); no suffix gives ``""``."""
    m = _ENCODING_SUFFIX.search(mnemonic)
    if not m:
        return mnemonic, ""
    return mnemonic[: m.start()], m.group(0)[1:]


def without_size_suffix(mnemonic: str) -> str:
    """``v_add_f32_e32`` / ``_e64`` -> ``v_add_f32``: only the suffixes that pick the encoding size of one and the
    same operation; ``_sdwa`` and ``_dpp`` forms keep theirs (their sources read differently)."""
    for suffix in _SIZE_SUFFIXES:
        if mnemonic.endswith(suffix):
            return mnemonic[: -len(suffix)]
    return mnemonic


def is_dpp(mnemonic: str, words: tuple[str, ...] | list[str]) -> bool:
    """Whether an instruction is a DPP form: by its suffix or by a DPP control among its modifier words."""
    return mnemonic.endswith(("_dpp", "_dpp8")) or any(w.startswith(DPP_CONTROLS) for w in words)


def vopd_halves(text: str) -> tuple[RawInstruction, ...]:
    """The two operations of a VOPD pair (``v_dual_mul_f32 ... :: v_dual_add_f32 ...``), each parsed as an
    instruction of its own; mnemonics keep their ``v_dual_`` prefix (see :func:`dual_to_single`)."""
    return tuple(parse_instruction_text(half) for half in text.split("::"))


def dual_to_single(mnemonic: str) -> str:
    """The single-issue mnemonic of a VOPD half: ``v_dual_fmac_f32`` -> ``v_fmac_f32``."""
    return mnemonic.replace("v_dual_", "v_", 1)
