"""Frozen hardware descriptions. Only plain data: the analysis layer reads these, never parsers."""

from __future__ import annotations

from isalens.records import dataclass


def align_to(value: int, granule: int) -> int:
    """Round ``value`` up to a multiple of ``granule``."""
    return -(-value // granule) * granule


@dataclass(frozen=True, slots=True)
class ArchSpec:
    """One AMDGPU target (``gfx902``) with the figures register and occupancy analyses need.

    Every figure comes from a TOML file under ``arch/data`` where its source is cited.
    """

    name: str
    family: str
    generation: int
    wave_sizes: tuple[int, ...]
    default_wave_size: int
    max_waves_per_simd: int
    vgpr_total_wave64: int
    vgpr_total_wave32: int
    vgpr_granule_wave64: int
    vgpr_granule_wave32: int
    addressable_vgprs: int
    agprs: int
    unified_vgpr_file: bool
    sgpr_total: int
    sgpr_granule: int
    addressable_sgprs: int
    sgprs_limit_occupancy: bool
    xnack: bool
    architected_flat_scratch: bool
    packed_workitem_ids: bool
    has_sdwa: bool
    has_vopd: bool
    lds_bytes_per_cu: int
    #: ``mnemonics_<name>.txt`` files whose union is the target's instruction set
    mnemonic_lists: tuple[str, ...]
    #: field layout family of the encoding decoder (``gfx6`` has none: decoding is refused)
    encoding_layout: str
    #: (at most N SGPRs, waves per SIMD) in increasing N; ``sgpr_waves_beyond`` above the last
    sgpr_waves: tuple[tuple[int, int], ...]
    sgpr_waves_beyond: int
    simds_per_cu: int = 4
    #: LDS a single workgroup may allocate (LLVM getLocalMemorySize / AddressableLocalMemorySize)
    lds_bytes_per_workgroup: int = 65536
    #: LDS of a whole WGP in WGP mode (gfx10+); 0 where there are no WGPs
    lds_bytes_per_wgp: int = 0
    lds_alloc_granule: int = 512
    max_workgroup_size: int = 1024
    #: workgroups a CU can hold at once because each multi-wave group needs a barrier
    max_barriers_per_cu: int = 16
    max_barriers_per_wgp: int = 32
    #: gfx10+ compile in WGP mode unless told otherwise (LLVM's default: no +cumode)
    default_wgp_mode: bool = False
    #: SGPRs every kernel is given regardless of use (LLVM FIXED_NUM_SGPRS_FOR_INIT_BUG on targets with the SGPR
    #: initialisation bug, FeatureSGPRInitBug); 0 elsewhere
    fixed_sgprs: int = 0
    aliases: tuple[str, ...] = ()
    #: Mesa family names (``RADV_FORCE_FAMILY``); the first is used when only the target is named
    mesa_families: tuple[str, ...] = ()

    def waves_with_sgprs(self, sgprs: int) -> int:
        """Waves per SIMD ``sgprs`` allow by the SGPR table alone (not capped by ``max_waves_per_simd``)."""
        for limit, waves in self.sgpr_waves:
            if sgprs <= limit:
                return waves
        return self.sgpr_waves_beyond
    #: gfx10+ give every wave the same SGPR block whatever it uses (0: allocated per wave in granules)
    sgprs_fixed_per_wave: int = 0

    def vgpr_granule(self, wave_size: int) -> int:
        return self.vgpr_granule_wave32 if wave_size == 32 else self.vgpr_granule_wave64

    def vgpr_total(self, wave_size: int) -> int:
        return self.vgpr_total_wave32 if wave_size == 32 else self.vgpr_total_wave64

    def extra_sgprs(self, *, vcc: bool, xnack: bool | None = None, flat_scratch: bool = False) -> int:
        """SGPRs the compiler adds to the highest SGPR used (LLVM ``getNumExtraSGPRs``).

        VCC costs 2; on gfx8/9 an enabled XNACK mask raises it to 4 and flat scratch (or the
        architected flat scratch of gfx940+) to 6; gfx10+ counts only VCC.
        """
        extra = 2 if vcc else 0
        if self.generation >= 10:
            return extra
        if self.generation < 8:
            return 4 if flat_scratch else extra
        if self.xnack if xnack is None else xnack:
            extra = 4
        if flat_scratch or self.architected_flat_scratch:
            extra = 6
        return extra

    def total_vgprs(self, vgprs: int, agprs: int) -> int:
        """VGPRs a wave occupies given architectural VGPRs and AGPRs (LLVM ``getTotalNumVGPRs``)."""
        if self.unified_vgpr_file and agprs:
            return align_to(vgprs, 4) + agprs
        return max(vgprs, agprs)

    def allocated_vgprs(self, requested: int, wave_size: int) -> int:
        """VGPRs the hardware allocates for ``requested`` (rounded up to the granule)."""
        return align_to(max(requested, 1), self.vgpr_granule(wave_size))

    def allocated_sgprs(self, requested: int) -> int:
        """SGPRs a wave holds: the requested count in granules, or the fixed block of gfx10+."""
        if self.sgprs_fixed_per_wave:
            return self.sgprs_fixed_per_wave
        return align_to(max(requested, 1), self.sgpr_granule)
