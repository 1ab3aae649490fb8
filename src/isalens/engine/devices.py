"""Devices named on the command line (``--device``): found by name, and checked against the kernel they time.

Kept apart from :mod:`isalens.engine.vliw` (which uses them too) so that ``timing`` on GCN code does not import the
VLIW readers and analysis to look a device up.
"""

from __future__ import annotations

from isalens.arch.devices import DeviceSpec, UnknownDeviceError, get_device, load_devices
from isalens.arch.loader import get_arch
from isalens.arch.model import ArchSpec
from isalens.arch.timing import timing_family
from isalens.errors import ArchError, InputError

__all__ = ["device_for_kernel", "resolve_device"]


def resolve_device(name: str) -> DeviceSpec:
    """The named device (``hd4870``, ``Radeon HD 5870``) or a clear :class:`ArchError`."""
    try:
        return get_device(name)
    except UnknownDeviceError as exc:
        raise ArchError(str(exc), code="unknown-device") from None


def _arch_of(target: str) -> ArchSpec | None:
    """A device's target, None when it is no GCN target (a VLIW chip)."""
    try:
        return get_arch(target)
    except (KeyError, ValueError):
        return None


def _family_of(target: str) -> str | None:
    """The timing family of a device's target, None when it has none (gfx6/gfx7, a VLIW chip)."""
    arch = _arch_of(target)
    return timing_family(arch) if arch is not None else None


def device_for_kernel(arch: ArchSpec, spec: DeviceSpec, flag: str = "--device") -> str | None:
    """Refuse a device of another generation than the kernel's target (its CU count, clocks and bandwidth would
    be applied to rates of another timing family); for another target of the same family, the assumption that
    says so, and for a multi-die product (``mi250x``), that a kernel runs on one die; else None."""
    die = _one_die_note(spec)
    if spec.target == arch.name:
        return die
    family = timing_family(arch)
    if _family_of(spec.target) != family or family is None:
        same = sorted(d.name for d in load_devices().values() if family and _family_of(d.target) == family)
        choose = f"pick a {family} device ({', '.join(same)})" if same else f"no isalens device is {family}"
        if _arch_of(spec.target) is None:
            raise InputError(f"{flag} {spec.name} is a VLIW ({spec.target}) device, which `isalens vliw --device` "
                             f"times; for this {arch.name} kernel {choose}", code="usage")
        raise InputError(f"{flag} {spec.name} is a {spec.target} device and the kernel is {arch.name} ({family}): "
                         f"timing one generation's code with another's figures describes neither; compile for "
                         f"{spec.target}, or {choose}", code="usage")
    other = (f"device {spec.name} is {spec.target}, the kernel {arch.name}: its {family} rates are timed with the "
             "device's compute units, clocks and bandwidth")
    return f"{other}; {die}" if die else other


def _one_die_note(spec: DeviceSpec) -> str | None:
    """What a multi-die product's figures mean for one kernel, which runs on one of its dies."""
    if spec.one_die is None:
        return None
    die = load_devices()[spec.one_die]
    return (f"device {spec.name} counts all {spec.compute_units} compute units of the {spec.marketing_name}'s "
            f"{spec.compute_units // die.compute_units} dies; a kernel runs on one die ({die.compute_units} compute "
            f"units, {die.memory_bandwidth_gbs:g} GB/s), which the runtime lists as a device of its own: "
            f"--device {die.name} for one kernel's roofs")
