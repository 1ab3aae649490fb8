"""Mesa 22.3 ACO's "Latency" and "Inverse Throughput" statistics, re-implemented (``timing --model aco``).

ACO estimates, block by block in program order, an in-order issue of one wave: each instruction waits for
the ``s_waitcnt`` counters it names (a queue of completion cycles per counter), on GFX10+ for its source
registers, and for the resource it uses (scalar, branch/message, VALU, complex VALU, LDS, export/GDS,
VMEM); a block starts from the merged state of its linear predecessors. The program's latency is the sum of
block cycles weighted by assumed trip counts (8 for a loop, x4 for the second level, x2 beyond, x0.5 per
uniform if, x0.75 per divergent if, x0.25 for a divergent if's linear else); its inverse throughput divides
that by the waves that can overlap (the waves per SIMD, limited by the busiest resource's share).
Source: Mesa 22.3 ``src/amd/compiler/aco_statistics.cpp``; the figures are in ``arch/data/timing_aco.toml``.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from isalens.arch.timing import AcoCosts

__all__ = ["AcoBlock", "AcoInstruction", "AcoResult", "BlockShape", "aco_estimate", "aco_num_waves", "block_weights",
           "control_depths"]

RESOURCES = ("scalar", "branch_sendmsg", "valu", "valu_complex", "lds", "export_gds", "vmem")
#: a counter an instruction does not constrain
UNSET = 0xFF
_REGS = 512


@dataclass(frozen=True, slots=True)
class AcoInstruction:
    """One instruction as ACO's statistics pass sees it."""

    cls: str
    #: ACO register numbers (SGPR n = n, VCC 106, M0 124, EXEC 126, SCC 253, VGPR n = 256 + n)
    operands: tuple[int, ...] = ()
    definitions: tuple[int, ...] = ()
    has_definitions: bool = False
    #: "exp", "flat", "flatlike" (global/scratch), "smem", "ds", "vmem" (buffer/image) or ""
    memory: str = ""
    #: SMEM: likely a cache hit (descriptor load or constant offsets); s_memtime/s_memrealtime
    smem_cached: bool = False
    smem_time: bool = False
    #: (vm, exp, lgkm, vs) for s_waitcnt, s_waitcnt_vscnt and s_endpgm
    wait: tuple[int, int, int, int] | None = None
    endpgm: bool = False
    #: GFX11 ops that may issue as either half of a VOPD pair
    dual_capable: bool = False
    vector: bool = False


@dataclass(frozen=True, slots=True)
class AcoBlock:
    index: int
    kind: frozenset[str]
    logical_preds: tuple[int, ...]
    linear_preds: tuple[int, ...]
    instructions: tuple[AcoInstruction, ...] = ()
    #: assumed executions per program run (trip counts, branch probabilities)
    weight: float = 1.0


@dataclass(frozen=True, slots=True)
class AcoResult:
    latency: int
    inverse_throughput: int
    usage: dict[str, float]
    parallelism: float
    max_utilization: float
    num_waves: int
    #: per block: cycles of one pass through it, per instruction cycles
    block_cycles: dict[int, int]
    instruction_cycles: dict[int, tuple[int, ...]]


@dataclass(slots=True)
class _Estimator:
    costs: AcoCosts
    gfx: int
    cur: int = 0
    res_available: dict[str, int] = field(default_factory=dict)
    res_usage: dict[str, int] = field(default_factory=dict)
    reg: list[int] = field(default_factory=lambda: [0] * _REGS)
    lgkm: deque[int] = field(default_factory=deque)
    exp: deque[int] = field(default_factory=deque)
    vm: deque[int] = field(default_factory=deque)
    vs: deque[int] = field(default_factory=deque)

    def _wait_info(self, ins: AcoInstruction) -> tuple[int, int, int, int]:
        w = self.costs.wait
        m = ins.memory
        if m == "exp":
            return 0, w["exp"], 0, 0
        if m in ("flat", "flatlike"):
            lgkm = w["flat_lgkm"] if m == "flat" else 0
            return (w["vmem"], 0, lgkm, 0) if ins.has_definitions else (0, 0, lgkm, w["vmem"])
        if m == "smem":
            if not ins.has_definitions:
                return 0, 0, w["smem"], 0
            if ins.smem_time:
                return 0, 0, w["smem_time"], 0
            return 0, 0, w["smem_cached"] if ins.smem_cached else w["smem"], 0
        if m == "ds":
            return 0, 0, w["ds"], 0
        if m == "vmem":
            return (w["vmem"], 0, 0, 0) if ins.has_definitions else (0, 0, 0, w["vmem"])
        return 0, 0, 0, 0

    def _wait_imm(self, ins: AcoInstruction) -> tuple[int, int, int, int]:
        if ins.wait is not None:
            return ins.wait
        w = self.costs.wait
        vm, exp, lgkm, vs = self._wait_info(ins)
        max_lgkm = w["max_lgkm_gfx10"] if self.gfx >= 10 else w["max_lgkm_gfx6"]
        max_vm = w["max_vm_gfx9"] if self.gfx >= 9 else w["max_vm_gfx6"]
        return (max_vm if vm else UNSET, w["max_exp"] if exp else UNSET, max_lgkm if lgkm else UNSET,
                w["max_vs"] if vs else UNSET)

    def _dependency(self, ins: AcoInstruction) -> int:
        deps = self.cur
        for queue, limit in zip((self.vm, self.exp, self.lgkm, self.vs), self._wait_imm(ins), strict=True):
            if limit != UNSET:
                for i in range(len(queue) - limit):
                    deps = max(deps, queue[i])
        if ins.endpgm:
            deps = max(deps, max(self.reg))
        elif self.gfx >= 10:
            for r in ins.operands:
                deps = max(deps, self.reg[r])
        if self.gfx < 10:
            deps = -(-deps // 4) * 4
        return deps - self.cur

    def _until_free(self, uses: Sequence[tuple[str, int]]) -> int:
        cost = 0
        for res, _c in uses:
            cost = max(cost, self.res_available.get(res, 0) - self.cur)
        return cost

    def add(self, ins: AcoInstruction, cls: str, wave_size: int, workgroup_size: int | None) -> None:
        perf = self.costs.perf(self.gfx, cls)
        self.cur += self._dependency(ins)
        dual = (self.gfx >= 10 and wave_size == 64 and ins.vector and not ins.dual_capable
                and (workgroup_size is None or workgroup_size > 32))
        start = self.cur
        for _ in range(2 if dual else 1):
            self.cur += self._until_free(perf.uses)
            start = self.cur
            for res, cycles in perf.uses:
                self.res_available[res] = self.cur + cycles
                self.res_usage[res] = self.res_usage.get(res, 0) + cycles
            # GCN does not begin the next instruction until this one finishes
            self.cur += 1 if self.gfx >= 10 else perf.latency
        limits = self._wait_imm(ins)
        for queue, limit in zip((self.vm, self.exp, self.lgkm, self.vs), limits, strict=True):
            while len(queue) > limit:
                queue.popleft()
        vm, exp, lgkm, vs = self._wait_info(ins)
        for queue, extra in ((self.exp, exp), (self.lgkm, lgkm), (self.vm, vm), (self.vs, vs)):
            if extra:
                queue.append(self.cur + extra)
        available = start + max(perf.latency, exp, lgkm, vm)
        for r in ins.definitions:
            self.reg[r] = max(self.reg[r], available)

    def join(self, pred: _Estimator) -> None:
        for res, t in pred.res_available.items():
            self.res_available[res] = max(self.res_available.get(res, 0), t - pred.cur)
        shift = self.cur - pred.cur
        self.reg = [max(a, b + shift) for a, b in zip(self.reg, pred.reg, strict=True)]
        for mine, theirs in ((self.lgkm, pred.lgkm), (self.exp, pred.exp), (self.vm, pred.vm), (self.vs, pred.vs)):
            _join_queue(mine, theirs, -pred.cur)


def _join_queue(queue: deque[int], pred: deque[int], diff: int) -> None:
    """Merge a predecessor's outstanding completions, aligned on the newest."""
    n = min(len(queue), len(pred))
    for i in range(1, n + 1):
        queue[-i] = max(queue[-i], pred[-i] + diff)
    for i in range(len(pred) - len(queue) - 1, -1, -1):
        queue.appendleft(pred[i] + diff)


def block_weights(blocks: Sequence[AcoBlock], depths: Sequence[tuple[int, int, int]]) -> list[float]:
    """ACO's assumed executions per block from (loop depth, uniform-if depth, divergent-if depth)."""
    succs: dict[int, list[int]] = {b.index: [] for b in blocks}
    for b in blocks:
        for p in b.linear_preds:
            succs.setdefault(p, []).append(b.index)
    by_index = {b.index: b for b in blocks}
    out = []
    for b, (loop, uniform, divergent) in zip(blocks, depths, strict=True):
        it = 1.0
        it *= 8.0 if loop > 0 else 1.0
        it *= 4.0 if loop > 1 else 1.0
        it *= 2.0 ** (loop - 2) if loop > 2 else 1.0
        it *= 0.5 ** uniform
        it *= 0.75 ** divergent
        if (not b.logical_preds and len(b.linear_preds) == 1 and len(succs.get(b.index, ())) == 1
                and by_index.get(b.linear_preds[0]) is not None
                and by_index[b.linear_preds[0]].kind & {"branch", "invert"}):
            it *= 0.25  # a divergent if's linear else
        out.append(it)
    return out


def aco_estimate(blocks: Sequence[AcoBlock], costs: AcoCosts, *, gfx_level: int, wave_size: int,
                 num_waves: int, workgroup_size: int | None) -> AcoResult:
    """ACO's Latency and Inverse Throughput of a program (blocks in ACO's order, weights set)."""
    states: dict[int, _Estimator] = {}
    latency = 0.0
    usage = dict.fromkeys(RESOURCES, 0.0)
    block_cycles: dict[int, int] = {}
    per_instruction: dict[int, tuple[int, ...]] = {}
    for b in blocks:
        est = _Estimator(costs, gfx_level)
        for p in b.linear_preds:
            est.join(states.get(p) or _Estimator(costs, gfx_level))
        cycles = []
        for ins in b.instructions:
            before = est.cur
            est.add(ins, ins.cls, wave_size, workgroup_size)
            cycles.append(est.cur - before)
        states[b.index] = est
        block_cycles[b.index] = est.cur
        per_instruction[b.index] = tuple(cycles)
        latency += est.cur * b.weight
        for res, used in est.res_usage.items():
            if res in usage:
                usage[res] += used * b.weight
    parallelism = float(num_waves)
    for total in usage.values():
        if total > 0:
            parallelism = min(parallelism, latency / total)
    max_utilization = 1.0
    if workgroup_size is not None:
        max_utilization = float(workgroup_size) / (-(-workgroup_size // wave_size) * wave_size)
    # the same operations in the same order as ACO, so that halves round the same way
    waves_per_cycle = 1.0 / latency * parallelism if latency else 0.0
    wave64_per_cycle = waves_per_cycle * (wave_size / 64.0)
    wave64_per_cycle *= max_utilization
    inverse = _c_round(1 / wave64_per_cycle) if wave64_per_cycle else 0
    return AcoResult(_c_round(latency), inverse, usage, parallelism, max_utilization, num_waves,
                     block_cycles, per_instruction)


def _c_round(x: float) -> int:
    """C's round(): halves away from zero."""
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


@dataclass(frozen=True, slots=True)
class BlockShape:
    """What ACO's printed IR says about a block (see :mod:`isalens.isa.amdgcn.aco_ir`)."""

    index: int
    kind: frozenset[str]
    logical_preds: tuple[int, ...]
    linear_preds: tuple[int, ...]
    branch: str | None
    branch_on_scc: bool
    targets: tuple[int, ...]


def control_depths(shapes: Sequence[BlockShape]) -> list[tuple[int, int, int]]:
    """(loop depth, uniform-if depth, divergent-if logical depth) per block, as ACO's instruction selection
    assigned them. Blocks are created in order, so each construct covers a contiguous index range:

    * a loop raises the depth from its ``loop-header`` block up to (not including) its ``loop-exit``;
    * a uniform if with a condition (``p_cbranch_z`` on SCC ending a ``uniform`` block) from its then block
      up to its endif, the block created right after the else part (found by following the else part's
      chain of constructs to its last block);
    * a divergent if (a ``branch`` block) over its logical then blocks (up to the linear then block, whose
      only linear predecessor is the if) and its logical else blocks (after the invert block, up to the
      linear else block, whose only linear predecessor is the invert block).
    """
    n = len(shapes)
    position = {s.index: i for i, s in enumerate(shapes)}
    loop = [0] * n
    uniform = [0] * n
    divergent = [0] * n
    depth = 0
    for i, s in enumerate(shapes):
        if "loop-header" in s.kind:
            depth += 1
        if "loop-exit" in s.kind:
            depth -= 1
        loop[i] = max(depth, 0)

    def loop_exit(header: int) -> int | None:
        level = 0
        for k in range(header, n):
            level += ("loop-header" in shapes[k].kind) - ("loop-exit" in shapes[k].kind)
            if level == 0:
                return k
        return None

    def divergent_parts(i: int) -> tuple[int, int, int] | None:
        """(linear then, invert, linear else) of the divergent if that block ``i`` starts."""
        own = shapes[i].index
        then_linear = next((k for k in range(i + 2, n) if shapes[k].linear_preds == (own,)), None)
        if then_linear is None or then_linear + 1 >= n:
            return None
        invert = then_linear + 1
        inv = shapes[invert].index
        else_linear = next((k for k in range(invert + 2, n) if shapes[k].linear_preds == (inv,)), None)
        return None if else_linear is None else (then_linear, invert, else_linear)

    def is_uniform_if(s: BlockShape) -> bool:
        # ACO's optimiser may invert the condition of a uniform if's p_cbranch_z: p_cbranch_nz ends the same if
        return "uniform" in s.kind and s.branch in ("p_cbranch_z", "p_cbranch_nz") and len(s.targets) == 2

    def after(i: int, guard: int) -> int | None:
        """The block that becomes current once the construct ending block ``i`` is done (None: none)."""
        s = shapes[i]
        if guard > n:
            return None
        if "loop-preheader" in s.kind and i + 1 < n:
            return loop_exit(i + 1)
        if "branch" in s.kind:
            parts = divergent_parts(i)
            return None if parts is None else parts[2] + 1
        if is_uniform_if(s):
            other = position.get(max(s.targets))
            if other is None or other <= i + 1:
                return None
            return last_current(other, guard + 1) + 1
        if s.kind & {"break", "continue"} and "uniform" not in s.kind:
            return i + 2  # a divergent break/continue: the code goes on in a new block after the break block
        return None

    def last_current(i: int, guard: int) -> int:
        while True:
            nxt = after(i, guard)
            if nxt is None or nxt <= i or nxt >= n:
                return i
            i = nxt

    def bump(values: list[int], start: int, stop: int) -> None:
        for k in range(max(start, 0), min(stop, n)):
            values[k] += 1

    for i, s in enumerate(shapes):
        if is_uniform_if(s) and s.branch_on_scc:
            endif = after(i, 0)
            if endif is not None:
                bump(uniform, i + 1, endif)
        if "branch" in s.kind:
            parts = divergent_parts(i)
            if parts is not None:
                then_linear, invert, else_linear = parts
                bump(divergent, i + 1, then_linear)
                bump(divergent, invert + 1, else_linear)
    return list(zip(loop, uniform, divergent, strict=True))


def aco_num_waves(costs: AcoCosts, *, gfx_level: int, gfx10_3: bool, polaris: bool, wave_size: int, vgprs: int,
                  sgprs: int, lds_bytes: int, workgroup_size: int | None, wgp_mode: bool,
                  large_vgpr_file: bool = False) -> int:
    """ACO's waves per SIMD for the final register counts (``VGPRs``/``SGPRs`` statistics, already allocated);
    ``large_vgpr_file``: gfx1100/gfx1101, whose VGPR file Mesa 22.3 takes as 1.5x the GFX10 one."""
    w = costs.waves
    if gfx_level >= 10:
        wave64 = w["max_wave64_gfx10_3"] if gfx10_3 else w["max_wave64_gfx10"]
        file = "gfx1100" if large_vgpr_file else "gfx10"
        physical_vgprs = w[f"physical_vgprs_{file}_wave32"] if wave_size == 32 else w[f"physical_vgprs_{file}_wave64"]
        simd_per_cu = w["simd_per_cu_gfx10"]
    else:
        wave64 = w["max_wave64_polaris"] if polaris else w["max_wave64_gfx9"]
        physical_vgprs = w["physical_vgprs_gfx9"]
        simd_per_cu = w["simd_per_cu_gfx9"]
    max_waves = wave64 * (64 // wave_size)
    waves = physical_vgprs // max(vgprs, 1)
    if gfx_level < 10:
        physical_sgprs = w["physical_sgprs_gfx8"] if gfx_level >= 8 else w["physical_sgprs_gfx6"]
        waves = min(waves, physical_sgprs // max(sgprs, 1))
    simds = simd_per_cu * (2 if wgp_mode else 1)
    per_group = -(-(workgroup_size or wave_size) // wave_size)
    groups = max_waves * simds // per_group
    if lds_bytes:
        groups = min(groups, w["lds_limit"] * (2 if wgp_mode else 1) // lds_bytes)
    if per_group > 1:
        groups = min(groups, 32 if wgp_mode else 16)
    max_waves = min(max_waves, -(-(groups * per_group) // simds))
    return max(min(waves, max_waves), 0)
