"""``timing --model aco``: Mesa 22.3 ACO's "Latency" and "Inverse Throughput", re-computed by
:mod:`isalens.analysis.aco_model` from ACO's final assembly plus the block structure of RADV's "ACO IR".

    >>> doc = aco_timing_shader(Path("blur.comp"), "navi21")     # compile with RADV, re-compute, compare
    >>> doc["kernel"]["latency"], doc["reported"]["Latency"]
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from isalens.analysis.aco_model import (
    AcoBlock,
    AcoInstruction,
    AcoResult,
    BlockShape,
    aco_estimate,
    aco_num_waves,
    block_weights,
    control_depths,
)
from isalens.arch.timing import AcoCosts, aco_costs
from isalens.engine.load import LoadedKernel, load
from isalens.errors import InputError
from isalens.frontends import radv
from isalens.ir.instruction import Instruction
from isalens.ir.operands import ImmOperand, RegOperand
from isalens.ir.registers import AGPR_BASE, SGPR_BASE, SPECIAL_BASE, SPECIAL_NAMES, VGPR_BASE
from isalens.isa.amdgcn.aco_ir import parse_aco_ir_blocks
from isalens.isa.amdgcn.semantics import base_mnemonic

__all__ = ["aco_instructions", "aco_statistics", "aco_timing_shader", "dump_aco_ir"]

#: ACO's physical register numbers of the special registers isalens tracks
_SPECIAL_ACO = {"vcc_lo": 106, "vcc_hi": 107, "exec_lo": 126, "exec_hi": 127, "scc": 253, "m0": 124,
                "flat_scratch_lo": 102, "flat_scratch_hi": 103, "xnack_mask_lo": 104, "xnack_mask_hi": 105,
                **{f"ttmp{i}": 108 + i for i in range(16)}}
_EXEC = {126, 127}
_VECTOR = {"valu32", "valu_convert32", "valu_fma", "valu_fma_slow", "valu_double", "valu_double_add",
           "valu_double_convert", "valu_double_transcendental", "vmem", "ds", "gds", "exp", "valu64",
           "valu_quarter_rate32", "valu_transcendental32"}
# Mesa 22.3 issues every wave64 vector op twice on GFX10+ (later releases exempt VOPD-capable ops on GFX11:
# measured, a wave64 v_mov_b32 costs 2 cycles in 22.3's perfinfo on gfx1100)
# Mesa 22.3 gives gfx1100 and gfx1101 a VGPR file 1.5x the size of other GFX10+ chips (768 per wave64 lane
# slice instead of 512, 1536 for wave32), which its wave count uses (issue 29: gfx1100 shaders of a public corpus)
_LARGE_VGPR_FILE = {"gfx1100", "gfx1101"}
# GFX6-8 chips with full-rate fp32 FMA (ACO: Tahiti, Hawaii, Carrizo)
_FAST_FMA = {"gfx600", "gfx701", "gfx801"}


def _aco_regs(mask: int) -> tuple[int, ...]:
    out: set[int] = set()
    while mask:
        low = mask & -mask
        unit = low.bit_length() - 1
        mask ^= low
        if unit < AGPR_BASE:
            out.add(256 + ((unit - VGPR_BASE) >> 1))
        elif SGPR_BASE <= unit < SPECIAL_BASE:
            out.add(unit - SGPR_BASE)
        elif unit >= SPECIAL_BASE and unit - SPECIAL_BASE < len(SPECIAL_NAMES):
            reg = _SPECIAL_ACO.get(SPECIAL_NAMES[unit - SPECIAL_BASE])
            if reg is not None:
                out.add(reg)
    return tuple(sorted(r for r in out if r < 512))


def _simm16(ins: Instruction) -> int | None:
    return ins.encoding[0] & 0xFFFF if ins.encoding else None


def _waitcnt_gfx10_3(packed: int) -> tuple[int, int, int, int]:
    """ACO decodes every ``s_waitcnt`` immediate with the GFX10.3 layout (aco_statistics.cpp get_wait_imm)."""
    vm = (packed & 0xF) | ((packed >> 10) & 0x30)
    exp = (packed >> 4) & 0x7
    lgkm = ((packed >> 8) & 0xF) | ((packed >> 8) & 0x30)
    return (0xFF if vm == 0x3F else vm, 0xFF if exp == 0x7 else exp, 0xFF if lgkm == 0x3F else lgkm, 0xFF)


def _memory(base: str, cls: str) -> str:
    if cls == "exp":
        return "exp"
    if base.startswith("flat_"):
        return "flat"
    if base.startswith(("global_", "scratch_")):
        return "flatlike"
    if cls == "smem":
        return "smem"
    if base.startswith("ds_"):
        return "ds"  # (GFX11 lds_param_load/lds_direct_load are not DS format: no counter in ACO's model)
    if base.startswith(("buffer_", "tbuffer_", "image_")):
        return "vmem"
    return ""


def aco_instructions(instructions: Sequence[Instruction], costs: AcoCosts, *, gfx_level: int,
                     target: str) -> list[AcoInstruction]:
    """Each assembly instruction as ACO's statistics pass sees it (class, registers, counters)."""
    out = []
    for ins in instructions:
        base = base_mnemonic(ins.mnemonic.lower())[0]
        cls = costs.class_of(base)
        if cls == "ds" and ins.modifier("gds") is not None:
            cls = "gds"
        if cls == "valu_fma" and gfx_level < 9 and target not in _FAST_FMA:
            cls = "valu_fma_slow"
        memory = _memory(base, cls)
        vector = cls in _VECTOR
        uses = _aco_regs(ins.uses)
        defs = _aco_regs(ins.defs)
        if vector:  # VALU and memory ops do not list EXEC among their ACO operands
            uses = tuple(r for r in uses if r not in _EXEC)
            defs = tuple(r for r in defs if r not in _EXEC) if not base.startswith("v_cmpx") else defs
        if base in ("lds_param_load", "lds_direct_load"):  # ACO lists M0 among their operands
            uses = tuple(sorted(set(uses) | {124}))
        if base.startswith("v_interp_p2"):  # ACO: the P1 result is an operand, tied to the definition
            uses = tuple(sorted(set(uses) | set(defs)))
        if base.startswith("image_") and ins.modifier("tfe") is not None:
            # with TFE ACO initialises the destination and passes it as an operand (it is read)
            uses = tuple(sorted(set(uses) | set(defs)))
        if cls == "branch":  # ACO's branches carry no operands
            uses = ()
        wait: tuple[int, int, int, int] | None = None
        if base == "s_waitcnt":
            packed = _simm16(ins)
            wait = _waitcnt_gfx10_3(packed) if packed is not None else (0, 0, 0, 0xFF)
        elif base == "s_waitcnt_vscnt":
            packed = _simm16(ins)
            wait = (0, 0, 0, packed if packed is not None else 0)
        elif base == "s_endpgm":
            wait = (0, 0, 0, 0)
        smem_cached = smem_time = False
        if memory == "smem":
            regs = [op for op in ins.operands if isinstance(op, RegOperand)]
            has_def = bool(ins.defs)
            sbase = regs[1] if has_def and len(regs) > 1 else regs[0] if regs else None
            offsets = [op for op in ins.operands[2 if has_def else 1:]]
            smem_time = not [op for op in ins.operands[1:] if not isinstance(op, ImmOperand)] and base in (
                "s_memtime", "s_memrealtime")
            desc = sbase is not None and sum(r.count for r in sbase.regs) == 2
            # gfx10's "null" soffset is ACO's constant 0
            smem_cached = desc or (bool(offsets) and all(isinstance(op, ImmOperand) or op.text == "null"
                                                         for op in offsets))
        out.append(AcoInstruction(cls, uses, defs, bool(ins.defs), memory, smem_cached, smem_time, wait,
                                  base == "s_endpgm", False, vector))
    return out


def _blocks_from_labels(kernel: LoadedKernel) -> dict[int, tuple[int, int]]:
    """ACO block index -> (first, end) instruction range, from the ``BBn:`` labels of its disassembly."""
    starts = sorted((i, int(name[2:])) for name, i in kernel.ir.labels.items()
                    if name.startswith("BB") and name[2:].isdigit())
    n = len(kernel.ir.instructions)
    ranges: dict[int, tuple[int, int]] = {}
    for k, (first, block) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else n
        ranges[block] = (first, end)
    return ranges


def aco_statistics(kernel: LoadedKernel, compiler_stats: dict[str, str | int], *, aco_ir: str = "",
                   workgroup_size: int | None = None, stage: str | None = None) -> dict[str, Any]:
    """The ``timing`` section in ACO mode for a kernel of ACO's disassembly.

    ``aco_ir`` (RADV's "ACO IR" representation) gives ACO's block structure; without it loops come from
    isalens' CFG and ifs are not weighted (stated in the output). The wave count is ACO's
    "Subgroups per SIMD" when ``compiler_stats`` has it, else the occupancy model's.
    """
    costs = aco_costs()
    arch = kernel.arch
    gfx = arch.generation
    assumptions: list[str] = []
    instructions = [ins for ins in kernel.ir.instructions if base_mnemonic(ins.mnemonic.lower())[0] != "s_code_end"]
    converted = aco_instructions(instructions, costs, gfx_level=gfx, target=arch.name)
    ranges = _blocks_from_labels(kernel)
    shapes = parse_aco_ir_blocks(aco_ir) if aco_ir else []
    blocks: list[AcoBlock]
    if shapes and ranges:
        known = {s.index for s in shapes}
        for i, ins in enumerate(instructions):
            # the branch to the discard early-exit block (added after the IR was printed) tests SCC itself
            if (ins.target and ins.target.startswith("BB") and ins.target[2:].isdigit()
                    and int(ins.target[2:]) not in known and ins.mnemonic.lower().startswith("s_cbranch_scc")):
                converted[i] = replace(converted[i], operands=(253,))
        depths = control_depths([BlockShape(s.index, s.kind, s.logical_preds, s.linear_preds, s.branch,
                                            s.branch_on_scc, s.targets) for s in shapes])
        plain = [AcoBlock(s.index, s.kind, s.logical_preds, s.linear_preds) for s in shapes]
        weights = block_weights(plain, depths)
        blocks = []
        for s, w in zip(shapes, weights, strict=True):
            first, end = ranges.get(s.index, (0, 0))
            body = tuple(converted[i] for i in range(first, min(end, len(converted))))
            blocks.append(AcoBlock(s.index, s.kind, s.logical_preds, s.linear_preds, body, w))
        # blocks added after the IR was printed (the discard early-exit block): preds from the branches to them
        for index in sorted(set(ranges) - known):
            first, end = ranges[index]
            preds = tuple(sorted({b for b, (f, e) in ranges.items() for i in range(f, e)
                                  if instructions[i].target == f"BB{index}"}))
            body = tuple(converted[i] for i in range(first, min(end, len(converted))))
            blocks.append(AcoBlock(index, frozenset(), (), preds, body, 1.0))
        blocks.sort(key=lambda b: b.index)
    else:
        cfg = kernel.cfg
        assumptions.append("no ACO IR: blocks from the listing, loops from isalens' CFG, ifs unweighted")
        blocks = []
        for b in cfg.blocks:
            depth = cfg.loop_depth[b.index]
            w = (8.0 if depth > 0 else 1.0) * (4.0 if depth > 1 else 1.0) * (2.0 ** (depth - 2) if depth > 2 else 1.0)
            blocks.append(AcoBlock(b.index, frozenset(), b.preds, tuple(p for p in b.preds if p < b.index),
                                   tuple(converted[b.start:b.end]), w))
    vgprs, sgprs = compiler_stats.get("VGPRs"), compiler_stats.get("SGPRs")
    lds = compiler_stats.get("LDS size", 0)
    if isinstance(vgprs, int) and isinstance(sgprs, int) and isinstance(lds, int):
        group = workgroup_size
        if group is None and stage == "vert" and gfx >= 10:
            # an NGG vertex shader runs in multi-wave subgroups (RADV 22.3); any size above one wave gives
            # ACO's figure (measured on every navi21/gfx1100 vertex shader of our corpus)
            group = 128
            assumptions.append("NGG vertex subgroup of 128 invocations assumed for ACO's wave count")
        num_waves = aco_num_waves(costs, gfx_level=gfx, gfx10_3=arch.name.startswith("gfx103") or gfx >= 11,
                                  polaris=arch.name == "gfx803", large_vgpr_file=arch.name in _LARGE_VGPR_FILE,
                                  wave_size=kernel.ir.wave_size, vgprs=vgprs,
                                  sgprs=sgprs, lds_bytes=lds, workgroup_size=group, wgp_mode=gfx >= 10)
    else:
        from isalens.engine.timing import _occupancy_waves  # the occupancy model, when ACO's figure is absent
        num_waves = _occupancy_waves(kernel) or 1
        assumptions.append(f"{num_waves} waves per SIMD from isalens' occupancy model (ACO's figure not given)")
    result = aco_estimate(blocks, costs, gfx_level=gfx, wave_size=kernel.ir.wave_size, num_waves=num_waves,
                          workgroup_size=workgroup_size)
    return _doc(result, kernel, compiler_stats, assumptions)


def _doc(r: AcoResult, kernel: LoadedKernel, stats: dict[str, str | int], assumptions: list[str]) -> dict[str, Any]:
    reported = {k: stats[k] for k in ("Latency", "Inverse Throughput") if k in stats}
    return {
        "model": "aco", "gfx_level": f"gfx{kernel.arch.generation}", "target": kernel.arch.name,
        "wave_size": kernel.ir.wave_size, "waves": r.num_waves,
        "kernel": {"latency": r.latency, "inverse_throughput": r.inverse_throughput},
        "usage": {k: round(v, 3) for k, v in r.usage.items()},
        "parallelism": round(r.parallelism, 4), "max_utilization": round(r.max_utilization, 4),
        "blocks": [{"index": b, "cycles": c} for b, c in r.block_cycles.items() if c],
        "reported": reported or None,
        "assumptions": assumptions,
    }


def aco_timing_shader(source: Path, arch: str, *, stage: str | None = None, entry: str = "main",
                      defines: Sequence[str] = (), wave: int | None = None, lang: str | None = None,
                      include_dirs: Sequence[str | Path] = ()) -> dict[str, Any]:
    """Compile ``source`` with RADV for ``arch`` (``lang``, ``include_dirs`` as the other commands take them),
    re-compute ACO's figures and put ACO's own beside them."""
    result = radv.compile_shader(source, arch, stage=stage, entry=entry, defines=defines, wave=wave, lang=lang,
                                 include_dirs=include_dirs)
    text = result.checked_assembly()
    with tempfile.TemporaryDirectory(prefix="isalens-aco-") as tmp:
        asm = Path(tmp) / f"{source.stem}.s"
        asm.write_text(text)
        module = load(asm, result.target.gfx, dialect="aco", wave_size=result.wave_size)
    if len(module.kernels) != 1:
        raise InputError("expected one program in ACO's assembly", file=str(source), code="driver")
    stats: dict[str, str | int] = {k: v for k, v in result.statistics.items() if isinstance(v, int)}
    wg = None
    if result.stage == "comp" and result.reflection.workgroup_size:
        x, y, z = result.reflection.workgroup_size
        wg = x * y * z
    ir = result.executable.representations.get("ACO IR", "")
    return aco_statistics(module.kernels[0], stats, aco_ir=ir, workgroup_size=wg, stage=result.stage)


_IR_START = re.compile(r"^(?:After [A-Za-z][\w ]*:|ACO shader stage:.*)\s*$")
_SECTION = re.compile(r"^(?:disasm:|\*\*\* SHADER STATS \*\*\*|shader: MESA_SHADER_\w+)\s*$")


def dump_aco_ir(text: str) -> list[str]:
    """The ACO IR of each ``disasm:`` section of a RADV_DEBUG=shaders dump, in order ("" where the stage has
    none): RADV prints a stage's IR ("After RA:", "ACO shader stage: ...", its blocks) before its disassembly,
    which is what the dump reader makes one kernel of."""
    out: list[str] = []
    pending: list[str] = []
    capturing = False
    for line in text.splitlines():
        if _IR_START.match(line):
            if not capturing:
                pending = []
            capturing = True
            pending.append(line)
        elif _SECTION.match(line):
            capturing = False
            if line.strip() == "disasm:":
                out.append("\n".join(pending))
                pending = []
        elif capturing:
            pending.append(line)
    return out
