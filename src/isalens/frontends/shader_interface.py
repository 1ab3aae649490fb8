"""What a shader's interface asks of the rest of a pipeline: the companion stage RADV needs to build a graphics
pipeline around one shader (a vertex shader for a fragment shader, a fragment shader for a vertex shader), the
vertex input formats and the colour attachment formats, all from the SPIR-V reflection."""

from __future__ import annotations

from collections.abc import Sequence

from isalens.frontends.clang import CompilerError
from isalens.frontends.spirv import InterfaceVariable, Reflection
from isalens.frontends.vk_messages import VertexAttribute

#: colour attachment formats a fragment shader's float outputs may be given (VkFormat numbers)
COLOR_FORMATS = {"rgba8": 37, "rgba16f": 97, "rgba32f": 109}

_SCALAR_NAMES = {("float", 16): "float16_t", ("float", 32): "float", ("float", 64): "double",
                 ("int", 8): "int8_t", ("int", 16): "int16_t", ("int", 32): "int", ("int", 64): "int64_t",
                 ("uint", 8): "uint8_t", ("uint", 16): "uint16_t", ("uint", 32): "uint", ("uint", 64): "uint64_t"}
_VECTOR_PREFIX = {("float", 16): "f16", ("float", 32): "", ("float", 64): "d", ("int", 8): "i8",
                  ("int", 16): "i16", ("int", 32): "i", ("int", 64): "i64", ("uint", 8): "u8", ("uint", 16): "u16",
                  ("uint", 32): "u", ("uint", 64): "u64"}


def _glsl_type(var: InterfaceVariable) -> str:
    key = (var.kind, var.width)
    if key not in _SCALAR_NAMES:
        raise CompilerError(f"unsupported stage interface type {var.kind}{var.width} ({var.name})", code="stage")
    if var.columns > 1:
        return f"{_VECTOR_PREFIX[key]}mat{var.columns}x{var.components}"
    if var.components > 1:
        return f"{_VECTOR_PREFIX[key]}vec{var.components}"
    return _SCALAR_NAMES[key]


def _extensions(variables: Sequence[InterfaceVariable]) -> str:
    lines = []
    if any(v.width != 32 and not (v.kind == "float" and v.width == 64) for v in variables):
        lines.append("#extension GL_EXT_shader_explicit_arithmetic_types : require")
    if any(v.width == 16 for v in variables):
        lines.append("#extension GL_EXT_shader_16bit_storage : require")
    if any(v.width == 8 for v in variables):
        lines.append("#extension GL_EXT_shader_8bit_storage : require")
    return "\n".join(lines)


def _layout(var: InterfaceVariable) -> str:
    return f"location = {var.location}" + (f", component = {var.component}" if var.component else "")


def companion_vertex_shader(fragment: Reflection, set_index: int) -> str:
    """GLSL for a vertex shader that feeds every input of ``fragment`` with a value the driver cannot fold.

    Each output is read from a storage buffer (descriptor set ``set_index``, binding 0) indexed by the vertex:
    constant or duplicated outputs would let RADV's cross-stage optimisations change the fragment shader.
    """
    members = ["vec4 pos;"]
    outs = []
    body = []
    for i, var in enumerate(fragment.inputs):
        array = f"[{var.array}]" if var.array else ""
        members.append(f"{_glsl_type(var)} m{i}{array};")
        outs.append(f"layout({_layout(var)}) out {_glsl_type(var)} o{i}{array};")
        body.append(f"  o{i} = isalens_in.v[gl_VertexIndex].m{i};")
    return "\n".join([
        "#version 450", _extensions(fragment.inputs),
        "struct IsalensVarying { " + " ".join(members) + " };",
        f"layout(set = {set_index}, binding = 0, std430) readonly buffer IsalensVaryings "
        "{ IsalensVarying v[]; } isalens_in;",
        *outs, "void main() {", *body, "  gl_Position = isalens_in.v[gl_VertexIndex].pos;", "}", ""])


def _components(name: str, var: InterfaceVariable) -> list[str]:
    """An expression for every scalar of an interface variable."""
    elements = [f"{name}[{k}]" for k in range(var.array)] if var.array else [name]
    out = []
    for element in elements:
        columns = [f"{element}[{c}]" for c in range(var.columns)] if var.columns > 1 else [element]
        for column in columns:
            if var.components > 1:
                out += [f"{column}[{r}]" for r in range(var.components)]
            else:
                out.append(column)
    return out


def companion_fragment_shader(vertex: Reflection) -> str:
    """GLSL for a fragment shader that reads every output of ``vertex``, so none is dead-code eliminated."""
    ins = []
    body = ["  vec4 acc = vec4(0.0);"]
    for i, var in enumerate(vertex.outputs):
        array = f"[{var.array}]" if var.array else ""
        # flat: integer and double inputs require it, and for floats it keeps the companion trivial
        ins.append(f"layout({_layout(var)}) flat in {_glsl_type(var)} i{i}{array};")
        for n, expr in enumerate(_components(f"i{i}", var)):
            body.append(f"  acc[{n % 4}] += float({expr});")
    return "\n".join(["#version 450", _extensions(vertex.outputs), *ins,
                      "layout(location = 0) out vec4 isalens_color;", "void main() {", *body,
                      "  isalens_color = acc;", "}", ""])


# ------------------------------------------------------------------------------------- vertex and colour formats
_FORMAT_BASE = {  # (kind, width) -> VkFormat of the 1-component format; +3/+6/+9... for 2/3/4 components
    ("uint", 16): 74, ("int", 16): 75, ("float", 16): 76, ("uint", 32): 98, ("int", 32): 99, ("float", 32): 100,
    ("uint", 64): 110, ("int", 64): 111, ("float", 64): 112,
}
_FORMAT_STEP = {16: 7, 32: 3, 64: 3}  # 16-bit formats have UNORM/SNORM/USCALED/SSCALED in between


def _vertex_format(var: InterfaceVariable) -> tuple[int, int]:
    key = (var.kind, var.width)
    if key not in _FORMAT_BASE:
        raise CompilerError(f"no vertex format for a {var.kind}{var.width} input ({var.name})", code="stage")
    return _FORMAT_BASE[key] + _FORMAT_STEP[var.width] * (var.components - 1), var.components * var.width // 8


def vertex_attributes(vertex: Reflection) -> list[VertexAttribute]:
    attrs = []
    for var in vertex.inputs:
        fmt, size = _vertex_format(var)
        step = 2 if var.width == 64 and var.components > 2 else 1
        for k in range(var.columns * max(var.array, 1)):
            attrs.append(VertexAttribute(var.location + k * step, fmt, size))
    return attrs


def color_formats(fragment: Reflection, color_format: str) -> list[int]:
    if color_format not in COLOR_FORMATS:
        raise CompilerError(f"unknown colour format '{color_format}' (choose {', '.join(COLOR_FORMATS)})",
                            code="usage")
    by_location: dict[int, int] = {}
    for var in fragment.outputs:
        if var.kind == "float":
            fmt = COLOR_FORMATS[color_format]
        else:
            fmt = {("uint", 16): 95, ("int", 16): 96, ("uint", 32): 107, ("int", 32): 108}.get(
                (var.kind, var.width), 108)
        for k in range(max(var.array, 1)):
            by_location[var.location + k] = fmt
    count = max(by_location, default=-1) + 1
    return [by_location.get(i, 0) for i in range(count)]
