"""Our Vulkan shader corpus (examples/shaders) compiled by glslang + RADV on its null device, with caching.

One pipeline build per (shader, family) gives both what the front end analyses (the executables, their
statistics and ACO's "Assembly") and RADV's own ``RADV_DEBUG=shaders,shaderstats`` dump of the same build.
Results are pickled under ``.cache/radv_corpus``, keyed by the shader's bytes, the family, the front end's
code and the installed driver and glslang, so a second session reuses them.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections.abc import Iterator
from pathlib import Path

from isalens.arch.loader import get_arch
from isalens.frontends import radv

__all__ = ["CACHE_DIR", "FAMILIES", "ONLY", "SHADERS", "compiled", "corpus_pairs", "waves_of_own_size"]

ROOT = Path(__file__).resolve().parents[2]
SHADERS = ROOT / "examples" / "shaders"
CACHE_DIR = ROOT / ".cache" / "radv_corpus"
#: GCN5, RDNA2, RDNA3
FAMILIES = ("raven", "navi21", "gfx1100")
#: shaders RADV compiles only for some families (ray queries need RDNA2+: ACO aborts on raven)
ONLY = {"rayquery_hits.comp": ("navi21", "gfx1100"), "rayquery_shadow.frag": ("navi21", "gfx1100")}
DUMP_FLAGS = "shaders,shaderstats"

_FORMAT = "1"  # bump when what is cached changes


def waves_of_own_size(aco: int, family: str, wave: int) -> int:
    """ACO's "Subgroups per SIMD" ``aco`` as waves of the shader's own size per SIMD: the oracle for
    ``occupancy.waves_per_simd`` of a shader.

    Mesa 22.3 ``radv_get_max_waves`` returns on gfx10+ its wave count times wave / 32 ("wave32 units"), and
    starts a wave32 shader from twice the SIMD's wave64 slots S. With "others" the VGPR/LDS limits in waves of
    the shader's size: wave64 A = 2 * min(S, others), so W = A / 2; wave32 A = min(2 * S, others), and a SIMD
    holds S waves of either size (LLVM getMaxWavesPerEU: 16 on gfx10.3+ whatever the wave size), so
    W = min(A, S). Before gfx10 A counts waves: W = A.
    """
    target = radv.resolve_target(family)
    arch = get_arch(target.gfx)
    if arch.generation < 10:
        return aco
    return aco // 2 if wave == 64 else min(aco, arch.max_waves_per_simd)


def corpus_pairs() -> Iterator[tuple[str, str]]:
    """(shader file name, family) for every build of the corpus."""
    for path in sorted(SHADERS.iterdir()):
        if path.is_file():
            for family in ONLY.get(path.name, FAMILIES):
                yield path.name, family


def _toolchain_identity() -> str:
    parts = [_FORMAT]
    for module in ("radv.py", "vk.py", "spirv.py"):
        parts.append(hashlib.sha256((Path(radv.__file__).parent / module).read_bytes()).hexdigest())
    for tool in (radv.find_glslang(), str(radv.find_radv_icd() or "")):
        if tool and Path(tool).exists():
            st = Path(tool).stat()
            parts.append(f"{tool}:{st.st_size}:{st.st_mtime_ns}")
    icd = radv.find_radv_icd()
    if icd is not None:
        # the driver library the manifest names: its size and time identify the Mesa build
        import json

        library = Path(json.loads(icd.read_text()).get("ICD", {}).get("library_path", ""))
        if library.is_file():
            st = library.stat()
            parts.append(f"{library}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(parts)


_IDENTITY: str | None = None
_MEMORY: dict[tuple[str, str], radv.RadvResult] = {}


def compiled(name: str, family: str) -> radv.RadvResult:
    """The RADV build of ``examples/shaders/<name>`` for ``family``, with its dump in ``log``."""
    global _IDENTITY
    if (name, family) in _MEMORY:
        return _MEMORY[(name, family)]
    if _IDENTITY is None:
        _IDENTITY = _toolchain_identity()
    source = SHADERS / name
    key = hashlib.sha256(b"\n".join([_IDENTITY.encode(), source.read_bytes(), family.encode()])).hexdigest()[:24]
    path = CACHE_DIR / f"{source.name}.{family}.{key}.pickle"
    result: radv.RadvResult | None = None
    if path.is_file():
        try:
            with path.open("rb") as fh:
                loaded = pickle.load(fh)  # our own cache, written below
            if isinstance(loaded, radv.RadvResult):
                result = loaded
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError):
            result = None
    if result is None:
        result = radv.compile_shader(source, family, radv_debug=DUMP_FLAGS)
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=CACHE_DIR, prefix=path.name + ".")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(result, fh)
        os.replace(tmp, path)  # atomic: concurrent sessions never read half a file
    _MEMORY[(name, family)] = result
    return result
