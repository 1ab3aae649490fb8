"""The target of a request: its name becomes an :class:`ArchSpec` once (:func:`resolve_arch`), and the spec,
not the name, is handed down to the readers (:func:`target_info`) and the passes."""

from __future__ import annotations

from isalens.arch.loader import UnknownArchError, all_archs, get_arch, normalize_arch_name
from isalens.arch.model import ArchSpec
from isalens.errors import ArchError
from isalens.ir.program import TargetInfo

__all__ = ["check_arch_data", "check_wave_size", "resolve_arch", "same_target", "target_info"]


def resolve_arch(name: str, *, file: str | None = None) -> ArchSpec:
    """The :class:`ArchSpec` for ``name`` or a clear :class:`ArchError`."""
    try:
        return get_arch(name)
    except UnknownArchError:
        from isalens.isa.r600.rules import generation_of as r600_generation_of  # the VLIW reader loads on use

        if r600_generation_of(name) is not None:  # a chip `isalens vliw` reads: say so instead of "unknown"
            raise ArchError(f"'{name}' is a VLIW (R600-Cayman) target: `isalens vliw --target {name}` (or "
                            "`isalens analyze`) reads its code; this command reads GCN, CDNA and RDNA ISA",
                            file=file, code="vliw-target") from None
        import difflib  # on use: only a mistyped target needs it

        close = difflib.get_close_matches(name.lower(), sorted(all_archs()), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ArchError(f"unknown target architecture '{name}'{hint} (see `isalens arch list`)", file=file,
                        code="unknown-arch") from None


def check_wave_size(arch: ArchSpec, wave_size: int | None, *, file: str | None = None,
                    what: str = "--wave") -> None:
    """The one check every command makes: ``wave_size`` (None: the target's default) runs on ``arch``."""
    if wave_size is not None and wave_size not in arch.wave_sizes:
        sizes = " or ".join(f"wave{w}" for w in arch.wave_sizes)
        raise ArchError(f"{arch.name} runs {sizes}, not wave{wave_size} ({what} {wave_size})", file=file,
                        code="wave-size")


def target_info(arch: ArchSpec, wave_size: int | None = None) -> TargetInfo:
    """The plain figures the ISA readers need about ``arch``."""
    check_wave_size(arch, wave_size)
    return TargetInfo(
        name=arch.name,
        generation=arch.generation,
        wave_size=wave_size or arch.default_wave_size,
        wave_size_forced=wave_size is not None,
        addressable_vgprs=arch.addressable_vgprs,
        addressable_agprs=arch.agprs,
        addressable_sgprs=arch.addressable_sgprs,
        has_sdwa=arch.has_sdwa,
        mnemonic_lists=arch.mnemonic_lists,  # bench: target facts from arch data
    )


def same_target(a: str, b: str) -> bool | None:
    """Whether two target names mean the same chip (aliases such as raven resolved); None if one is unknown."""
    try:
        return get_arch(a).name == get_arch(b).name
    except UnknownArchError:
        return None if normalize_arch_name(a) == normalize_arch_name(b) else False


def check_arch_data() -> list[str]:
    """Problems found in the architecture data files (empty when consistent)."""
    from isalens.arch import check as arch_check  # only `isalens arch check` needs the self-check
    return arch_check.check_arch_data()
