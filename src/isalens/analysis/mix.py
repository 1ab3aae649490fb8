"""The instruction mix a layout comparison needs: LDS operations by form, packed fp16 ops, conversions,
literal constants and code bytes (when the input carries encodings)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from isalens.ir.operands import ImmOperand
from isalens.ir.program import Kernel

_ENCODING_SUFFIXES = ("_e32", "_e64", "_sdwa", "_dpp8", "_dpp")


@dataclass(frozen=True, slots=True)
class Mix:
    instructions: int
    lds_reads: dict[str, int]
    lds_writes: dict[str, int]
    packed_f16: int
    conversions: int
    literals: int
    #: sum of the encoding words' sizes, None when any instruction came without its encoding
    code_bytes: int | None


def _base(mnemonic: str) -> str:
    for suffix in _ENCODING_SUFFIXES:
        if mnemonic.endswith(suffix):
            return mnemonic[: -len(suffix)]
    return mnemonic


def mix(kernel: Kernel) -> Mix:
    """Count the mix of ``kernel``."""
    reads: Counter[str] = Counter()
    writes: Counter[str] = Counter()
    packed = conversions = literals = 0
    code: int | None = 0
    for ins in kernel.instructions:
        for op in ins.ops or (ins.mnemonic,):
            base = _base(op)
            if base.startswith(("ds_read", "ds_load")):
                reads[base] += 1
            elif base.startswith(("ds_write", "ds_store")):
                writes[base] += 1
            elif base.startswith("v_pk_") and base.endswith(("_f16", "_bf16")):
                packed += 1
            elif base.startswith(("v_cvt_", "v_pack_")):
                conversions += 1
        literals += sum(1 for o in ins.operands if isinstance(o, ImmOperand) and o.literal)
        if code is not None:
            code = code + 4 * len(ins.encoding) if ins.encoding else None
    return Mix(len(kernel.instructions), dict(sorted(reads.items())), dict(sorted(writes.items())), packed,
               conversions, literals, code)
