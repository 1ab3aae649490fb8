"""The hardware validation table: loading, predictions through `isalens timing --json`, the generated doc.

Shared by tests/hardware/test_measurements.py. Every prediction goes through the public CLI and its JSON
(``timing.loops[].cycles_per_iteration``, ``waves``, ``flops``, ``bytes``, ``timing.wave_size``), then
is converted to the row's unit with the run's CU count and clock (from isalens' device data, or from
the run where the card is not an isalens device or the device entry does not describe what ran).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from isalens.arch.devices import get_device
from isalens.arch.loader import get_arch

HERE = Path(__file__).resolve().parent
SRC = HERE.parents[1] / "src" / "isalens"
TABLE = HERE / "measurements.toml"
KERNELS = HERE / "kernels"
DOC = HERE.parents[1] / "docs" / "timing-validation.md"

FAMILIES = ("fp32", "fp16", "fp64", "int32", "int24", "mfma", "bandwidth", "latency")
#: unit -> (kind, multiplier to the base unit per second, or None for latency units)
UNITS: dict[str, tuple[str, float | None]] = {
    "Gflop/s": ("rate", 1e9), "Gop/s": ("rate", 1e9), "Tflop/s": ("rate", 1e12), "Top/s": ("rate", 1e12),
    "GB/s": ("rate", 1e9), "ns": ("latency", None), "cycles": ("latency", None),
}
LEVELS = ("l1", "l2", "mall", "dram")
#: the per-row tolerance: a row whose error exceeds this must carry a written ``reason`` (the issue's threshold)
FLAG_PCT = 25.0
#: the summary before issue 29's calibration (commit fac7e98, the suite's first generated doc), per family:
#: (median |error| %, worst |error| %, rows beyond 25%)
BEFORE: dict[str, tuple[float, float, int]] = {
    "fp32": (6.5, 68.3, 5), "fp16": (8.4, 118.2, 10), "fp64": (17.1, 106.6, 31), "int32": (69.9, 163.5, 61),
    "int24": (40.7, 47.9, 57), "mfma": (13.9, 16.1, 0), "bandwidth": (30.6, 395.6, 36), "latency": (88.5, 126.9, 2),
    "all": (24.5, 395.6, 202),
}


@dataclass(frozen=True)
class Conditions:
    """What the measurement ran on, for converting per-clock model figures."""

    compute_units: int
    clock_mhz: float
    bandwidth_gbs: float | None


def load_table(path: Path = TABLE) -> dict[str, Any]:
    with path.open("rb") as fh:
        return tomllib.load(fh)


def conditions(run: dict[str, Any]) -> Conditions:
    """CUs, clock and nominal bandwidth: the run's own figures where given, else its isalens device's."""
    dev = get_device(run["device"]) if "device" in run else None
    cu = run.get("compute_units", dev.compute_units if dev else None)
    mhz = run.get("clock_mhz", dev.boost_clock_mhz if dev else None)
    # a run's own achievable (streaming) figure plays the role of a device's achievable_bandwidth_gbs
    bw = run.get("achievable_bandwidth_gbs", run.get("memory_bandwidth_gbs", dev.dram_roof_gbs if dev else None))
    if cu is None or mhz is None:
        raise ValueError(f"run {run.get('card')!r}: no compute_units/clock_mhz and no device")
    return Conditions(int(cu), float(mhz), None if bw is None else float(bw))


#: per run `frame`: the families whose rows are predicted for clpeak's whole kernel, and the loop trips of its
#: one-component kernel (trips = this / components). "clpeak", the OpenCL kernels from commit 7554865 on (the
#: straight-line kernels of 2019, 2d620cc, do the same work: 32 x MAD_64 in compute_sp_v1, 16 in compute_integer_v1):
#: compute_{sp,hp,dp}_kernels.cl `for(int i=0; i<128; i++) MAD_16(x, y)` in _v1, 64 in _v2 ... 8 in _v16;
#: compute_integer and compute_int24 64 down to 4. "clpeak-hip", the HIP kernels (rocm_kernels/*.hip at d0cd56f and
#: 6bc6ce7): compute_sp and compute_int32 128 / 64 / 32 for 1 / 2 / 4 components, compute_dp 16 / 8 / 4 (512 flops
#: per thread), compute_hp and compute_hp2 64 trips of two half chains (the rows' half2)
CLPEAK_TRIPS: dict[str, dict[str, int]] = {
    "clpeak": {"fp32": 128, "fp16": 128, "fp64": 128, "int32": 64, "int24": 64},
    "clpeak-hip": {"fp32": 128, "fp16": 128, "fp64": 16, "int32": 128},
    # clpeak of 2016 (1f90347, e3a44e4): straight-line kernels, 2048 multiply-adds per work-item for every type,
    # integers included (workPerWI = 4096 integer ops; 2048 from 2019 on): the same work as a 128 / width trip loop
    "clpeak-2016": {"fp32": 128, "fp64": 128, "int32": 128},
}


def _width(row: dict[str, Any]) -> int:
    """Components of the row's lane type (`T=float16` -> 16, `T=half` -> 1)."""
    (t,) = [d[2:] for d in row.get("defines", []) if d.startswith("T=")]
    digits = t.lstrip("abcdefghijklmnopqrstuvwxyz")
    return int(digits) if digits else 1


def clpeak_trips(row: dict[str, Any], run: dict[str, Any]) -> int | None:
    """The loop trips of clpeak's kernel for this row when it is predicted as that whole kernel, else None."""
    base = CLPEAK_TRIPS.get(run.get("frame", ""), {}).get(row["family"])
    if base is None or row["kernel"] != "fma_chain.cl":
        return None
    return base // _width(row)


def timing_args(row: dict[str, Any], run: dict[str, Any], *, level: str | None = None) -> tuple[str, ...]:
    """The `isalens timing` arguments that predict ``row`` (``level``: a latency row's other memory level, the
    one its `beyond_level` names)."""
    args = ["timing", "--json", "--arch", run["isa"]]
    if "device" in run:
        args += ["--device", run["device"]]  # the product's own rates (FP64 ratio), as users would ask
    for d in row.get("defines", []):
        args += ["-D", d]
    trips = clpeak_trips(row, run)
    if trips is not None:  # clpeak's set-up, trip count and final sum around the same loop
        args += ["-D", "CLPEAK_FRAME", "-D", f"W={_width(row)}", "-D", f"ITERS={trips}"]
    if row["family"] == "int32":
        args += ["-D", "SPLIT_MAD"]  # the measured v_mul_lo_u32 + add, not LLVM 19's fused v_mad_u64_u32
    if row["family"] == "latency":
        args += ["--waves", "1"]  # a pointer chase is one dependent load after another: no other wave hides it
        args += ["--memory-level", level or row["level"]]  # the level the measured footprint hit
    if row["family"] == "bandwidth":
        args += ["--memory-level", "dram"]  # a streaming read of buffers far beyond the caches misses to DRAM
    if row["family"] == "mfma":
        # clpeak's mfma_* kernels multiply constant operands (every element 1: rocm_kernels/mfma_fp16.hip at
        # d0cd56f), the low-toggle data whose clock AMD measured (devices.toml matrix_clock_low_toggle_mhz)
        args += ["--matrix-data", "low-toggle"]
    args.append(str(KERNELS / row["kernel"]))
    return tuple(args)


@functools.cache
def _source_digest() -> str:
    """A hash of every file a prediction depends on besides its arguments: isalens' source and the kernels."""
    h = hashlib.sha256()
    for path in sorted([*SRC.rglob("*.py"), *SRC.rglob("*.toml"), *SRC.rglob("*.pyx"), *KERNELS.iterdir()]):
        h.update(str(path.relative_to(HERE.parents[1])).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _cache_key(args: tuple[str, ...]) -> str:
    return hashlib.sha256("\0".join((_source_digest(), *args)).encode()).hexdigest()


def run_timing(args: tuple[str, ...]) -> dict[str, Any]:
    """`isalens timing --json` through the CLI, as users run it; the parsed ``timing`` object.

    With ``ISALENS_ORACLE_CACHE=DIR`` each result is kept in DIR under a hash of the arguments, the kernels and
    isalens' source, so regenerating the page after editing only measurements.toml (reasons, notes) reruns no
    compile; any change to the model or a kernel misses the cache.
    """
    cache_dir = os.environ.get("ISALENS_ORACLE_CACHE")
    cached = Path(cache_dir) / f"{_cache_key(args)}.json" if cache_dir else None
    if cached is not None and cached.is_file():
        hit: dict[str, Any] = json.loads(cached.read_text(encoding="utf-8"))
        return hit
    proc = subprocess.run([sys.executable, "-m", "isalens", *args], capture_output=True, text=True,
                          timeout=300, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"isalens {' '.join(args)} exited {proc.returncode}: {proc.stderr.strip()}")
    (kernel,) = json.loads(proc.stdout)["files"][0]["kernels"]  # every kernel file here holds one kernel
    timing: dict[str, Any] = kernel["timing"]
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(timing), encoding="utf-8")
    return timing


def main_loop(timing: dict[str, Any]) -> dict[str, Any]:
    """The kernel's measured loop: every kernel here has exactly one."""
    loops: list[dict[str, Any]] = timing["loops"]
    if len(loops) != 1:
        raise ValueError(f"expected one loop, the kernel has {len(loops)}")
    return loops[0]


def work_per_wave(row: dict[str, Any], timing: dict[str, Any]) -> float:
    return float(row["work_per_lane"]) * int(timing["wave_size"])


def predict(row: dict[str, Any], run: dict[str, Any], timing: dict[str, Any],
            beyond: dict[str, Any] | None = None) -> float:
    """The model's figure in the row's unit.

    Rates: work per loop iteration per wave x waves per SIMD x SIMDs per CU x CUs x clock, over the loop's
    cycles per iteration (all W waves' iterations); bandwidth rows are capped at the DRAM roof's
    bandwidth (achievable where recorded, else nominal: `conditions`). Latencies: the loop's cycles per
    iteration at one wave, in cycles or converted to ns at the run's clock; with ``beyond`` (the same kernel's
    timing at the row's `beyond_level`) less that loop's: the latency beyond that level's hit.
    """
    loop = main_loop(timing)
    cond = conditions(run)
    cycles = float(loop["cycles_per_iteration"])
    kind, scale = UNITS[row["unit"]]
    if kind == "latency" and beyond is not None:
        cycles -= float(main_loop(beyond)["cycles_per_iteration"])
    if kind == "latency":
        cycles /= float(row["work_per_lane"])  # loads per iteration: one dependent load each
        return cycles if row["unit"] == "cycles" else cycles / (cond.clock_mhz / 1000.0)
    assert scale is not None
    trips = clpeak_trips(row, run)
    if trips is not None:
        cycles *= whole_kernel_factor(timing, trips)
    simds = get_arch(run["isa"]).simds_per_cu
    per_clock_per_cu = work_per_wave(row, timing) * int(loop["waves"]) * simds / cycles
    rate = per_clock_per_cu * cond.compute_units * rate_clock_mhz(loop, cond) * 1e6 / scale
    if row["family"] == "bandwidth" and cond.bandwidth_gbs is not None:
        rate = min(rate, cond.bandwidth_gbs * 1e9 * dram_read_share(timing) / scale)
    return rate


def rate_clock_mhz(loop: dict[str, Any], cond: Conditions) -> float:
    """The clock a rate converts at: the run's (`conditions`), or for a matrix loop the matrix clock the JSON's
    roofs state (`roofs.clock_mhz` where `roofs.clock_basis` names it: the device's measured GEMM clock for the
    data `--matrix-data` named)."""
    roofs = loop.get("roofs") or {}
    if str(roofs.get("clock_basis") or "").startswith("matrix clock"):
        return float(roofs["clock_mhz"])
    return cond.clock_mhz


#: loads per work-item of the bandwidth test: clpeak's FETCH_PER_WI (global_bandwidth.cpp), global_read.cl's READS
BANDWIDTH_READS = 16


def dram_read_share(timing: dict[str, Any]) -> float:
    """The share of a bandwidth kernel's DRAM traffic that its counted reads are.

    clpeak counts the bytes read, but each work-item also stores its sum (one element per 16 read), and the DRAM
    serves both: the roof caps reads + writes, so the reads reach roof x reads / (reads + writes). From the JSON:
    the global bytes outside the loop (the kernel's, less the assumed trips x the loop's: the store) against the
    loop's at the benchmark's 16 reads; 16/17 for every width of clpeak's kernel.
    """
    loop = main_loop(timing)
    found = [int(m.group(1)) for a in timing.get("assumptions", []) if (m := _ASSUMED_TRIPS.search(a))]
    if len(found) != 1:
        raise ValueError(f"expected one assumed trip count in the timing assumptions, found {found}")
    per_iter = float(loop["bytes"]["global"])
    outside = float(timing["kernel"]["bytes"]["global"]) - found[0] * per_iter
    reads = BANDWIDTH_READS * per_iter
    if per_iter <= 0 or outside < 0:
        raise ValueError(f"a bandwidth kernel reads {per_iter} B per iteration and moves {outside} B outside it")
    return reads / (reads + outside)


_ASSUMED_TRIPS = re.compile(r"trip count (\d+) assumed")


def whole_kernel_factor(timing: dict[str, Any], trips: int) -> float:
    """The whole kernel's cycles per loop iteration over the loop's, at ``trips`` iterations.

    `timing.kernel` counts the code outside the loop once and the loop at the trip count it states it assumed
    (`assumptions`: "trip count 10 assumed ..."); the kernel figure is that set-up and end plus trips x the loop's
    cycles (checked: exact at 8 and 128 trips on gfx906 and gfx90a with --trip-count), so the code outside the
    loop costs P = kernel - assumed x loop, and the whole kernel at clpeak's trips is P + trips x loop.
    """
    loop = main_loop(timing)
    found = [int(m.group(1)) for a in timing.get("assumptions", []) if (m := _ASSUMED_TRIPS.search(a))]
    if len(found) != 1:
        raise ValueError(f"expected one assumed trip count in the timing assumptions, found {found}")
    kernel, per_iter = float(timing["kernel"]["cycles_per_iteration"]), float(loop["cycles_per_iteration"])
    if int(timing["kernel"]["waves"]) != int(loop["waves"]):
        raise ValueError("kernel and loop figures are for different wave counts")
    outside = kernel - found[0] * per_iter
    return (outside + trips * per_iter) / (trips * per_iter)


def error_pct(measured: float, predicted: float) -> float:
    return (predicted - measured) / measured * 100.0


@dataclass(frozen=True)
class Result:
    index: int
    row: dict[str, Any]
    run: dict[str, Any]
    predicted: float
    error: float
    timing: dict[str, Any]


#: measured figures closer than this (%) are a tie: the hardware ranked nothing (runs of one card differ by a few %)
TIE_PCT = 5.0
#: a measured tie is reproduced when the two predictions lie within this (%) of each other
TIE_PREDICTED_PCT = 10.0
#: products whose fp64 rate the issue asks to rank (1/4, 1/2 and 1/16 of fp32 respectively)
FP64_PRODUCTS = ("radeon-vii", "mi50", "rx-6900-xt")


@dataclass(frozen=True)
class Pair:
    """Two rows whose kernels differ in one operation kind (issue 29: timing must rank them as the hardware did)."""

    what: str
    a: int
    b: int


def _row_index(rows: list[dict[str, Any]], run: str, family: str, t: str, shape: str = "") -> int | None:
    """The row of ``run`` and ``family`` compiled with ``-D T=t`` alone and whose shape starts with ``shape``."""
    for i, row in enumerate(rows):
        if (row["run"] == run and row["family"] == family and row.get("defines", []) == [f"T={t}"]
                and row["shape"].startswith(shape)):
            return i
    return None


def variant_pairs(table: dict[str, Any]) -> list[Pair]:
    """The issue's pairs, wherever the table has both rows: scalar `half` against packed `half2` in every run;
    non-packed `float` against packed `float2` on CDNA2 and CDNA3 runs; one fp64 chain on the Radeon VII, the MI50
    and the RX 6900 XT, every run of one product against every run of another."""
    rows: list[dict[str, Any]] = table["rows"]
    runs: dict[str, dict[str, Any]] = table["runs"]
    pairs = []
    for rid, run in runs.items():
        # the scalar row by its shape: clpeak's HIP build runs two scalar chains per thread, compiled as half2
        h = _row_index(rows, rid, "fp16", "half", "fp16 FMA (scalar)")
        h = _row_index(rows, rid, "fp16", "half2", "fp16 FMA (scalar") if h is None else h
        h2 = _row_index(rows, rid, "fp16", "half2", "fp16 FMA (packed)")
        if h is not None and h2 is not None:
            pairs.append(Pair(f"{rid}: scalar vs packed fp16", h, h2))
        f1, f2 = _row_index(rows, rid, "fp32", "float"), _row_index(rows, rid, "fp32", "float2")
        if run["isa"].startswith(("gfx90a", "gfx94")) and f1 is not None and f2 is not None:
            pairs.append(Pair(f"{rid}: non-packed vs packed fp32", f1, f2))
    fp64 = [(runs[rid].get("device"), rid, i) for rid in runs
            if runs[rid].get("device") in FP64_PRODUCTS and (i := _row_index(rows, rid, "fp64", "double")) is not None]
    for (da, ra, ia), (db, rb, ib) in itertools.combinations(fp64, 2):
        if da != db:
            pairs.append(Pair(f"fp64: {ra} vs {rb}", ia, ib))
    return pairs


def rank_verdict(measured: tuple[float, float], predicted: tuple[float, float]) -> str | None:
    """None when the predictions rank the pair as the measurements do, else why not.

    Measured figures within TIE_PCT of each other are a tie, reproduced by predictions within TIE_PREDICTED_PCT;
    otherwise the predictions must order the pair the same way and not tie it.
    """
    m = (measured[1] - measured[0]) / measured[0] * 100.0
    p = (predicted[1] - predicted[0]) / predicted[0] * 100.0
    if abs(m) < TIE_PCT:
        return None if abs(p) <= TIE_PREDICTED_PCT else f"measured a tie ({m:+.1f}%), predicted {p:+.1f}%"
    if abs(p) < TIE_PCT or (m > 0) != (p > 0):
        return f"measured {m:+.1f}%, predicted {p:+.1f}%"
    return None


def _fmt(x: float) -> str:
    return f"{x:,.1f}" if abs(x) < 10000 else f"{x:,.0f}"


def summary(results: list[Result]) -> dict[str, tuple[int, float, float, int]]:
    """Per family (and "all"): rows, median |error| %, worst |error| %, rows beyond FLAG_PCT."""
    out: dict[str, tuple[int, float, float, int]] = {}
    groups: dict[str, list[float]] = {f: [] for f in FAMILIES}
    for r in results:
        groups[r.row["family"]].append(abs(r.error))
    groups["all"] = [abs(r.error) for r in results]
    for fam, errs in groups.items():
        if errs:
            out[fam] = (len(errs), statistics.median(errs), max(errs), sum(e > FLAG_PCT for e in errs))
    return out


INTRO = """\
# Timing validation against published hardware measurements

*Generated by `tests/hardware/test_measurements.py` (regenerate with
`.venv/bin/python -m pytest -q tests/hardware --update-golden`); do not edit by hand.*

`isalens timing` predicts cycles per loop iteration from an issue and latency model. This page checks
those predictions against what real AMD GPUs did on published benchmark runs (issue 29, item 5). The
only oracle is a measurement on hardware: llvm-mca and ACO's statistics are other models.

## What is measured

`tests/hardware/measurements.toml` holds {nrows} published figures from {nruns} runs on {ncards} cards
({isas}). Each row names the run (card, ISA, driver/compiler, citation: title, URL, date), the
measured loop shape, the figure and its unit. The kernels in `tests/hardware/kernels/` are isalens' own
OpenCL C reproducing each benchmark's loop shape as its documentation describes it:

- `fma_chain.cl`: clpeak's compute tests. Each vector component is one dependent chain of
  multiply-adds (16 per loop iteration), so `float4` is four independent chains per lane; `half2` and
  wider are what the compiler packs into `v_pk_fma_f16`, `float2` on CDNA2/3 into `v_pk_fma_f32`.
  Integer rows are the same chain on `int` (`v_mul_lo_u32` + add), `int24` rows use `mad24`. With
  `-D CLPEAK_FRAME` it is clpeak's whole kernel: clpeak's set-up (one vector from the lane id, one from the
  argument plus each component's index), clpeak's trip count (`-D ITERS`) and its final sum of the components.
- `global_read.cl`: clpeak's global memory bandwidth test: 16 coalesced reads per work-item, one
  store; bandwidth counts the bytes read.
- `pointer_chase.cl`: one dependent load after another (vector path, or scalar path with
  `-D SCALAR`; `-D POINTERS` chases 64-bit pointers through flat loads, gpu-benches' HIP form); the
  footprint the source used decides which level (L1, L2, MALL, DRAM) it hits, and the prediction passes
  that level as `--memory-level`.
- `mfma_loop.cl`: clpeak's `mfma_*` HIP kernels on CDNA3: 8 accumulators per wave, one 16x16 MFMA into
  each per loop iteration (f16, bf16, i8, fp8 forms).
- `fma_independent.cl`: Chips and Cheese's OpenCL FP32 FMA rate test: 8 `float4` accumulators per
  work-item, each updated `v += a * v` once per loop iteration (32 independent chains per lane).

## How predictions are computed

For every row the test runs `isalens timing --json --arch <isa> [--device <device>] [-D ...] kernel.cl`
(latency rows with `--waves 1 --memory-level <the level the footprint hit>`, bandwidth rows with
`--memory-level dram`; `--device` where the run's card is an isalens device, so the product's own rates apply:
Radeon VII fp64 1/4, MI50 and Radeon Pro VII 1/2) and reads the kernel's loop: `cycles_per_iteration` for
`waves` waves per SIMD and `timing.wave_size`. Integer rows compile the instructions the measured code ran:
`-D SPLIT_MAD` keeps clpeak's `v_mul_lo_u32` + add apart (LLVM 19 would fuse them into `v_mad_u64_u32`), `-D
MAD24` is one `v_mad_u32_u24` per step. The fp32 rows of the Clover run (RX 550) compile `-D SPLIT_MAD` too:
`v_mul_f32` + `v_add_f32` per step, what LLVM builds a multiply-add into for gfx8 when fp32 denormals are IEEE,
as Clover's compiler invocation leaves them (docs/timing.md, "Held-back runs"). The cycles are the loop's;
for the compute rows of clpeak runs (`frame` in the run: `"clpeak"` for clpeak's OpenCL kernels from 2019 on,
`"clpeak-2016"` for those of 2016, `"clpeak-hip"` for its HIP kernels) they are scaled to clpeak's whole kernel:
clpeak does the same work per work-item at every width (OpenCL: 128 / width loop trips of 16 multiply-adds per
component for fp32, fp16 and fp64, 64 / width for int and mad24, 128 / width for int in 2016; HIP: 128 / width
for fp32, fp16 and int, 16 / width for fp64; the kernels before 2020 are straight-line code of the same work),
so a wider vector has fewer trips to share the set-up and the final
sum with; `timing.kernel` counts that code once and the loop at its assumed trip count, so the kernel at clpeak's
trips is (kernel - assumed x loop) + trips x loop, and the rate uses that over trips x loop (1.0004-1.0054 at
one component, up to 1.005-1.051 at sixteen). Rates are

    work per lane per iteration x wave size x waves x SIMDs per CU x CUs x clock / cycles per iteration

with SIMDs per CU from isalens' arch data and CUs and clock from isalens' device data
(`src/isalens/arch/data/devices.toml`) where the run's card is an isalens device, else from the run
(clpeak prints WGPs as "compute units" on RDNA; the table stores CUs). Bandwidth rows are capped at
the DRAM roof (the device's achievable bandwidth where one is recorded, or for a card that is not an
isalens device the run's `achievable_bandwidth_gbs` from another published streaming benchmark, else the
nominal one) times the reads' share of the kernel's DRAM traffic: clpeak counts the bytes read, but each
work-item also stores one element per 16 it reads, so the reads reach 16/17 of the roof (the share comes from
the JSON's global bytes: the store outside the loop against 16 loop iterations' reads). Latency
rows are the loop's cycles per iteration at one wave, converted to ns at the run's clock (a row with
`beyond_level`, a source's "N ns away from L0", is the difference of the loop at its level and at that
one). The test also checks that the JSON's `flops` / `bytes` per iteration equal the row's work, so a
kernel that compiled to a different shape fails loudly.

What this page does **not** model: vector clocks. Every run converts at one published clock of its product: the
peak engine clock of the Instinct and Vega 20 parts, the boost clock of the Radeon RDNA parts (not the driver's
maximum DPM state clpeak prints under ROCm: 2660 MHz for the RX 6900 XT, 1900 for the RX 5500 XT), the clock
the log prints where that is the board's own (the GCN-era runs); each run's `clock_note` says which. clpeak
prints the driver's maximum engine clock, not the clock the card sustained; a power-limited card's clock
depends on the load even within one run (R9 Nano: fp64 rows imply ~985 MHz, fp32 rows 854-927 MHz), and no
published sustained clock under these loads was found for any run (docs/timing.md, "Clocks"). Part of the
per-card excess (MI250X GCD, MI300X) is therefore clock, not the issue model; no constant is fitted to hide it.
The one published clock under load is the matrix cores': AMD measured the MI300X's engine clock during dense
GEMMs at 1188 MHz with random data and 1792 MHz with zeros (ROCm blog "Measuring Max-Achievable FLOPs - Part 2",
2025-02-28, footnote 1), and `timing` runs a matrix loop at that clock (`--matrix-data random|low-toggle`, the
JSON's `roofs.clock_mhz`). The `mfma` rows pass `--matrix-data low-toggle` (clpeak multiplies constant operands,
every element 1) and convert at the clock the JSON states.
The prediction is the issue model's figure, not the printed `roofs.bound` (which also caps at the
device's vector peak).

## Sources

{sources}

## Uncertainty

- Clocks: see each run's `clock_note`. A few percent of every compute row's error can be clock.
- Compilers: several runs were built by the vendor driver (HSAIL, PAL) or by RADV/ACO (the RX 9070 XT
  Vulkan run), not by the LLVM back end isalens compiles the kernels with; the instruction mix can differ
  (e.g. whether scalar fp16 uses `v_fma_f16` or a packed form).
- eGPU runs (Thunderbolt 3) affect transfers, not these on-device figures.
- Run to run: the same product measures differently between published runs: the MI300X's two clpeak files
  (2026-05-30 and 2026-06-10, the same kernels) differ by 0-6% row for row, the three MI50 runs (2021) by up
  to 6% on compute rows and 18% on bandwidth rows. An error of a few percent is within that spread.
- Integer kernels reproduce the measured instructions (see above); the vendor compilers of the HSAIL/PAL
  runs may still have scheduled them differently.
- Latency rows: gpu-benches prints cycles at the clock it read, Chips and Cheese ns (converted at the
  device's boost clock); RDNA3 Infinity Cache latency depends on the fabric's power state. Families
  without a pointer chase of their own take a related family's figures (docs/timing.md).

## Current errors

Error = (predicted - measured) / measured. **Tolerance asserted by the suite**: every row is within
{flag:.0f}% of its measurement or carries a written reason (`reason` in measurements.toml, printed in the
row's last column: a measurement that contradicts another source, a compiler effect, a figure the model
does not have). The issue's goal of a 5% median over all rows is not reached (see the summary); "before"
is the suite's first run (commit fac7e98, its 410 rows), before the calibration of issue 29.
"""


def render(table: dict[str, Any], results: list[Result]) -> str:
    runs: dict[str, dict[str, Any]] = table["runs"]
    cards = sorted({r["card"] for r in runs.values()})
    isas = sorted({r["isa"] for r in runs.values()})
    srcs = "\n".join(f"- `{rid}`: {r['title']} ({r['date']}), <{r['url']}>; {r['compiler']}"
                     for rid, r in runs.items())
    parts = [INTRO.format(nrows=len(results), nruns=len(runs), ncards=len(cards), isas=", ".join(isas),
                          sources=srcs, flag=FLAG_PCT)]
    parts.append("### Summary by family\n\n| family | rows | median abs. error | worst abs. error | rows > 25% "
                 "(all with a reason) | before: median / worst / > 25% |\n|---|---:|---:|---:|---:|---|")
    for fam, (n, med, worst, flagged) in summary(results).items():
        b = BEFORE.get(fam)
        before = f"{b[0]:.1f}% / {b[1]:.1f}% / {b[2]}" if b else ""
        parts.append(f"| {fam} | {n} | {med:.1f}% | {worst:.1f}% | {flagged} | {before} |")
    worst_rows = sorted(results, key=lambda r: -abs(r.error))[:15]
    parts.append("\n### Worst disagreements\n\n| # | run | shape | measured | predicted | error |\n"
                 "|---|---|---|---:|---:|---:|")
    for r in worst_rows:
        parts.append(f"| {r.index} | {r.row['run']} | {r.row['shape']} | "
                     f"{_fmt(r.row['measured'])} {r.row['unit']} | {_fmt(r.predicted)} | {r.error:+.1f}% |")
    by_index = {r.index: r for r in results}
    pairs = [p for p in variant_pairs(table) if p.a in by_index and p.b in by_index]
    if pairs:
        parts.append(f"\n### Ranking of variants\n\nPairs of rows whose kernels differ in one operation kind "
                     f"(issue 29's acceptance list); `test_variants_rank_as_the_hardware_did` asserts the order. "
                     f"Second against first; measured figures within {TIE_PCT:.0f}% are a tie, which predictions "
                     f"within {TIE_PREDICTED_PCT:.0f}% reproduce.\n\n| pair | rows | measured | predicted | "
                     "second vs first: measured / predicted | ranked as measured |\n|---|---|---:|---:|---:|---|")
        for p in pairs:
            ra, rb = by_index[p.a], by_index[p.b]
            ms, ps = (ra.row["measured"], rb.row["measured"]), (ra.predicted, rb.predicted)
            verdict = rank_verdict(ms, ps)
            parts.append(f"| {p.what} | {p.a}, {p.b} | {_fmt(ms[0])} / {_fmt(ms[1])} {ra.row['unit']} | "
                         f"{_fmt(ps[0])} / {_fmt(ps[1])} | {(ms[1] - ms[0]) / ms[0] * 100:+.1f}% / "
                         f"{(ps[1] - ps[0]) / ps[0] * 100:+.1f}% | {'yes' if verdict is None else 'NO: ' + verdict} |")
    for fam in FAMILIES:
        fam_rows = [r for r in results if r.row["family"] == fam]
        if not fam_rows:
            continue
        parts.append(f"\n### {fam}\n\n| # | run | ISA | shape | defines | measured | predicted | error | reason |\n"
                     "|---|---|---|---|---|---:|---:|---:|---|")
        for r in fam_rows:
            flag = f"**>{FLAG_PCT:.0f}%**: {r.row.get('reason', 'NO REASON')}" if abs(r.error) > FLAG_PCT else ""
            note = f" ({r.row['note']})" if "note" in r.row else ""
            parts.append(f"| {r.index} | {r.row['run']} | {r.run['isa']} | {r.row['shape']}{note} | "
                         f"{' '.join(r.row.get('defines', []))} | {_fmt(r.row['measured'])} {r.row['unit']} | "
                         f"{_fmt(r.predicted)} | {r.error:+.1f}% | {flag} |")
    return "\n".join(parts) + "\n"
