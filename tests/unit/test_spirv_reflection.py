"""SPIR-V reflection on modules glslang builds from examples/shaders (expected layouts written by hand
from the shader sources), the companion-stage generators, and malformed input."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from isalens.frontends import radv
from isalens.frontends.spirv import (
    COMBINED_IMAGE_SAMPLER,
    SAMPLED_IMAGE,
    SAMPLER,
    STORAGE_BUFFER,
    UNIFORM_BUFFER,
    InterfaceVariable,
    Reflection,
    SpirvError,
    reflect,
)
from tests.conftest import ROOT

SHADERS = ROOT / "examples" / "shaders"


@pytest.fixture(scope="module")
def glslang() -> str:
    tool = radv.find_glslang()
    if tool is None:
        pytest.skip("glslang is not installed (apt-get install glslang-tools)")
    return tool


def _spirv(glslang: str, name: str, tmp_path: Path, stage: str | None = None) -> bytes:
    source = SHADERS / name
    stage, hlsl = radv.detect_stage(source, source.read_text(), stage)
    out = radv.compile_to_spirv(source, stage, tmp_path / f"{name}.spv", hlsl=hlsl, glslang=glslang)
    return out.read_bytes()


def _bindings(refl: Reflection) -> list[tuple[int, int, int, int, str]]:
    return [(b.set, b.binding, b.descriptor_type, b.count, b.name) for b in refl.bindings]


def _io(variables: list[InterfaceVariable]) -> list[tuple[int, str, int, int, int, bool]]:
    return [(v.location, v.kind, v.width, v.components, v.columns, v.flat) for v in variables]


def test_neighborhood_fp16_compute(glslang: str, tmp_path: Path) -> None:
    refl = reflect(_spirv(glslang, "neighborhood_fp16.comp", tmp_path), "main")
    assert [(e.stage, e.name) for e in refl.entry_points] == [("comp", "main")]
    assert _bindings(refl) == [(0, 0, STORAGE_BUFFER, 1, "radiance"), (0, 1, STORAGE_BUFFER, 1, "moments")]
    assert refl.push_constant_size == 12  # uint width, uint height, float sigma
    assert refl.workgroup_size == (8, 8, 1)
    assert refl.inputs == [] and refl.outputs == []


def test_reduce_sum_compute(glslang: str, tmp_path: Path) -> None:
    refl = reflect(_spirv(glslang, "reduce_sum.comp", tmp_path), "main")
    assert [(b.set, b.binding, b.descriptor_type) for b in refl.bindings] == [(0, 0, STORAGE_BUFFER),
                                                                             (0, 1, STORAGE_BUFFER)]
    assert refl.push_constant_size == 4
    assert refl.workgroup_size == (256, 1, 1)


def test_tonemap_fragment(glslang: str, tmp_path: Path) -> None:
    refl = reflect(_spirv(glslang, "tonemap.frag", tmp_path), "main")
    assert _bindings(refl) == [(0, 0, COMBINED_IMAGE_SAMPLER, 2, "images"), (0, 1, UNIFORM_BUFFER, 1, "params")]
    assert refl.push_constant_size == 0
    assert _io(refl.inputs) == [(0, "float", 32, 2, 1, False)]
    assert _io(refl.outputs) == [(0, "float", 32, 4, 1, False)]
    assert refl.workgroup_size is None and not refl.writes_frag_depth


def test_lighting_fragment(glslang: str, tmp_path: Path) -> None:
    refl = reflect(_spirv(glslang, "lighting.frag", tmp_path), "main")
    assert _bindings(refl) == [(0, 0, STORAGE_BUFFER, 1, "scene"), (1, 0, SAMPLED_IMAGE, 8, "textures"),
                               (1, 1, SAMPLER, 1, "linear_sampler")]
    assert refl.push_constant_size == 16  # vec4 eye
    assert _io(refl.inputs) == [(0, "float", 32, 3, 1, False), (1, "float", 32, 3, 1, False),
                                (2, "float", 32, 4, 1, False), (3, "float", 32, 2, 1, False),
                                (4, "uint", 32, 1, 1, True)]


def test_skinning_vertex(glslang: str, tmp_path: Path) -> None:
    refl = reflect(_spirv(glslang, "skinning.vert", tmp_path), "main")
    assert _bindings(refl) == [(0, 0, UNIFORM_BUFFER, 1, "skeleton")]
    assert refl.push_constant_size == 64  # mat4, column stride 16
    assert _io(refl.inputs) == [(0, "float", 32, 3, 1, False), (1, "float", 32, 3, 1, False),
                                (2, "float", 32, 4, 1, False), (3, "float", 32, 2, 1, False),
                                (4, "uint", 32, 4, 1, False), (5, "float", 32, 4, 1, False)]
    # gl_Position is a built-in, not a located output
    assert [v.location for v in refl.outputs] == [0, 1, 2, 3]


def test_hlsl_registers_get_separate_binding_ranges(glslang: str, tmp_path: Path) -> None:
    refl = reflect(_spirv(glslang, "histogram.hlsl", tmp_path), "main")
    # b0 -> 0, t0 -> 64, u0 -> 192 (radv.HLSL_BINDING_SHIFTS)
    assert _bindings(refl) == [(0, 0, UNIFORM_BUFFER, 1, "Params"), (0, 64, SAMPLED_IMAGE, 1, "scene"),
                               (0, 192, STORAGE_BUFFER, 1, "histogram")]
    assert refl.workgroup_size == (16, 16, 1)


def test_hlsl_pixel_shader(glslang: str, tmp_path: Path) -> None:
    refl = reflect(_spirv(glslang, "blur.ps.hlsl", tmp_path), "main")
    assert [(e.stage, e.name) for e in refl.entry_points] == [("frag", "main")]
    assert [(b.binding, b.descriptor_type) for b in refl.bindings] == [(0, UNIFORM_BUFFER), (64, SAMPLED_IMAGE),
                                                                       (128, SAMPLER)]
    assert _io(refl.inputs) == [(0, "float", 32, 2, 1, False)]  # SV_Position is a built-in
    assert _io(refl.outputs) == [(0, "float", 32, 4, 1, False)]


def test_unknown_entry_point_lists_the_ones_there(glslang: str, tmp_path: Path) -> None:
    with pytest.raises(SpirvError, match=r"no entry point named 'nope' \(found: main \(comp\)\)"):
        reflect(_spirv(glslang, "reduce_sum.comp", tmp_path), "nope")


@pytest.mark.parametrize("name", ["tonemap.frag", "lighting.frag"])
def test_companion_vertex_shader_feeds_every_fragment_input(glslang: str, tmp_path: Path, name: str) -> None:
    fragment = reflect(_spirv(glslang, name, tmp_path), "main")
    set_index = max(b.set for b in fragment.bindings) + 1
    source = tmp_path / "companion.vert"
    source.write_text(radv.companion_vertex_shader(fragment, set_index))
    spv = radv.compile_to_spirv(source, "vert", tmp_path / "companion.vert.spv", glslang=glslang)
    vertex = reflect(spv.read_bytes(), "main")
    assert _io(vertex.outputs) == [(v.location, v.kind, v.width, v.components, v.columns, False)
                                   for v in fragment.inputs]
    assert [(b.set, b.binding, b.descriptor_type) for b in vertex.bindings] == [(set_index, 0, STORAGE_BUFFER)]


def test_companion_fragment_shader_reads_every_vertex_output(glslang: str, tmp_path: Path) -> None:
    vertex = reflect(_spirv(glslang, "skinning.vert", tmp_path), "main")
    source = tmp_path / "companion.frag"
    source.write_text(radv.companion_fragment_shader(vertex))
    spv = radv.compile_to_spirv(source, "frag", tmp_path / "companion.frag.spv", glslang=glslang)
    fragment = reflect(spv.read_bytes(), "main")
    assert [(v.location, v.kind, v.components) for v in fragment.inputs] == [
        (v.location, v.kind, v.components) for v in vertex.outputs]


# ------------------------------------------------------------------------------------------ no tools needed
def _module(*instructions: list[int]) -> bytes:
    words = [0x07230203, 0x00010000, 0, 100, 0]
    for ins in instructions:
        words += ins
    return struct.pack(f"<{len(words)}I", *words)


def _op(opcode: int, *operands: int) -> list[int]:
    return [((len(operands) + 1) << 16) | opcode, *operands]


def test_hand_assembled_uniform_and_storage_buffers() -> None:
    # %1 = float, %2 = struct{float} Block, %3 = ptr Uniform %2, %4 = var (set 1, binding 3),
    # %5 = struct{float} BufferBlock, %6 = ptr Uniform %5, %7 = var (set 0, binding 0): a pre-1.3 SSBO
    data = _module(
        _op(71, 2, 2), _op(71, 4, 34, 1), _op(71, 4, 33, 3), _op(71, 5, 3), _op(71, 7, 34, 0), _op(71, 7, 33, 0),
        _op(22, 1, 32), _op(30, 2, 1), _op(32, 3, 2, 2), _op(59, 3, 4, 2), _op(30, 5, 1), _op(32, 6, 2, 5),
        _op(59, 6, 7, 2))
    refl = reflect(data)
    assert [(b.set, b.binding, b.descriptor_type) for b in refl.bindings] == [(0, 0, STORAGE_BUFFER),
                                                                             (1, 3, UNIFORM_BUFFER)]


def test_conflicting_bindings_are_an_error() -> None:
    # two variables at set 0 binding 0: a uniform buffer and a sampler
    data = _module(
        _op(71, 2, 2), _op(71, 4, 34, 0), _op(71, 4, 33, 0), _op(71, 6, 34, 0), _op(71, 6, 33, 0),
        _op(22, 1, 32), _op(30, 2, 1), _op(32, 3, 2, 2), _op(59, 3, 4, 2), _op(26, 8), _op(32, 5, 0, 8),
        _op(59, 5, 6, 0))
    with pytest.raises(SpirvError, match="set 0 binding 0"):
        reflect(data)


@pytest.mark.parametrize(("data", "message"), [
    (b"\x00" * 8, "not a SPIR-V module"),
    (b"\x01\x02\x03\x04" * 6, "bad magic"),
    (struct.pack("<6I", 0x07230203, 0x10000, 0, 1, 0, (9 << 16) | 71), "truncated"),
])
def test_malformed_modules(data: bytes, message: str) -> None:
    with pytest.raises(SpirvError, match=message):
        reflect(data)
