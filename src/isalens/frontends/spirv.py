"""A small SPIR-V reflection: descriptor bindings, push constants, stage inputs/outputs, workgroup size.

Enough to build a Vulkan pipeline layout and a matching companion stage for a shader without the user
describing anything by hand. Opcodes, decorations and enums are those of the SPIR-V 1.6 specification
(unified spec, sections 3 and 3.32); only the instructions needed here are decoded.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

__all__ = [
    "DescriptorBinding",
    "EntryPoint",
    "InterfaceVariable",
    "Reflection",
    "SpirvError",
    "reflect",
]

MAGIC = 0x07230203

# Opcodes (SPIR-V spec 3.52).
OP_NAME = 5
OP_MEMBER_NAME = 6
OP_ENTRY_POINT = 15
OP_EXECUTION_MODE = 16
OP_TYPE_VOID = 19
OP_TYPE_BOOL = 20
OP_TYPE_INT = 21
OP_TYPE_FLOAT = 22
OP_TYPE_VECTOR = 23
OP_TYPE_MATRIX = 24
OP_TYPE_IMAGE = 25
OP_TYPE_SAMPLER = 26
OP_TYPE_SAMPLED_IMAGE = 27
OP_TYPE_ARRAY = 28
OP_TYPE_RUNTIME_ARRAY = 29
OP_TYPE_STRUCT = 30
OP_TYPE_POINTER = 32
OP_CONSTANT = 43
OP_CONSTANT_COMPOSITE = 44
OP_SPEC_CONSTANT = 50
OP_SPEC_CONSTANT_COMPOSITE = 51
OP_VARIABLE = 59
OP_DECORATE = 71
OP_MEMBER_DECORATE = 72
OP_EXECUTION_MODE_ID = 331
OP_TYPE_ACCELERATION_STRUCTURE = 5341

# Decorations (3.20).
DEC_SPEC_ID = 1
DEC_BLOCK = 2
DEC_BUFFER_BLOCK = 3
DEC_ROW_MAJOR = 4
DEC_ARRAY_STRIDE = 6
DEC_MATRIX_STRIDE = 7
DEC_BUILTIN = 11
DEC_NO_PERSPECTIVE = 13
DEC_FLAT = 14
DEC_LOCATION = 30
DEC_COMPONENT = 31
DEC_BINDING = 33
DEC_DESCRIPTOR_SET = 34
DEC_OFFSET = 35

# Storage classes (3.7).
SC_UNIFORM_CONSTANT = 0
SC_INPUT = 1
SC_UNIFORM = 2
SC_OUTPUT = 3
SC_PUSH_CONSTANT = 9
SC_STORAGE_BUFFER = 12

# Execution models (3.3) and modes (3.6).
EXECUTION_MODELS = {0: "vert", 1: "tesc", 2: "tese", 3: "geom", 4: "frag", 5: "comp"}
MODE_LOCAL_SIZE = 17
MODE_LOCAL_SIZE_ID = 38
BUILTIN_FRAG_DEPTH = 22
BUILTIN_WORKGROUP_SIZE = 25

IMAGE_DIM_BUFFER = 5
IMAGE_DIM_SUBPASS = 6

# VkDescriptorType values (vulkan_core.h).
SAMPLER = 0
COMBINED_IMAGE_SAMPLER = 1
SAMPLED_IMAGE = 2
STORAGE_IMAGE = 3
UNIFORM_TEXEL_BUFFER = 4
STORAGE_TEXEL_BUFFER = 5
UNIFORM_BUFFER = 6
STORAGE_BUFFER = 7
INPUT_ATTACHMENT = 10
ACCELERATION_STRUCTURE = 1000150000

DESCRIPTOR_TYPE_NAMES = {
    SAMPLER: "sampler", COMBINED_IMAGE_SAMPLER: "combined_image_sampler", SAMPLED_IMAGE: "sampled_image",
    STORAGE_IMAGE: "storage_image", UNIFORM_TEXEL_BUFFER: "uniform_texel_buffer",
    STORAGE_TEXEL_BUFFER: "storage_texel_buffer", UNIFORM_BUFFER: "uniform_buffer",
    STORAGE_BUFFER: "storage_buffer", INPUT_ATTACHMENT: "input_attachment",
    ACCELERATION_STRUCTURE: "acceleration_structure",
}


class SpirvError(ValueError):
    """The data is not a SPIR-V module this reflection can read."""


@dataclass(frozen=True)
class DescriptorBinding:
    """One resource: ``layout(set=S, binding=B)`` with its Vulkan descriptor type and array size."""

    set: int
    binding: int
    descriptor_type: int
    count: int
    name: str

    @property
    def type_name(self) -> str:
        return DESCRIPTOR_TYPE_NAMES.get(self.descriptor_type, str(self.descriptor_type))


@dataclass(frozen=True)
class InterfaceVariable:
    """A stage input or output at a location: scalar kind, bit width, vector size, matrix columns, array."""

    location: int
    component: int
    kind: str  # "float", "int", "uint"
    width: int
    components: int
    columns: int = 1
    array: int = 0
    flat: bool = False
    name: str = ""


@dataclass(frozen=True)
class EntryPoint:
    """An entry point: its stage name (``comp``, ``vert``, ``frag`` ...) and SPIR-V name."""

    stage: str
    name: str
    function_id: int
    interface: tuple[int, ...]


@dataclass
class Reflection:
    """What a pipeline needs to know about a module."""

    entry_points: list[EntryPoint] = field(default_factory=list)
    bindings: list[DescriptorBinding] = field(default_factory=list)
    push_constant_size: int = 0
    inputs: list[InterfaceVariable] = field(default_factory=list)
    outputs: list[InterfaceVariable] = field(default_factory=list)
    workgroup_size: tuple[int, int, int] | None = None
    writes_frag_depth: bool = False

    def entry(self, name: str) -> EntryPoint:
        for ep in self.entry_points:
            if ep.name == name:
                return ep
        found = ", ".join(f"{e.name} ({e.stage})" for e in self.entry_points) or "none"
        raise SpirvError(f"no entry point named '{name}' (found: {found})")


@dataclass
class _Module:
    """Decoded instructions, indexed the way the reflection needs them."""

    types: dict[int, tuple[int, list[int]]] = field(default_factory=dict)
    constants: dict[int, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    decorations: dict[int, dict[int, list[int]]] = field(default_factory=dict)
    member_decorations: dict[tuple[int, int], dict[int, list[int]]] = field(default_factory=dict)
    variables: list[tuple[int, int, int]] = field(default_factory=list)  # (pointer type, id, storage class)
    composites: dict[int, list[int]] = field(default_factory=dict)

    def has(self, target: int, decoration: int) -> bool:
        return decoration in self.decorations.get(target, {})

    def value(self, target: int, decoration: int, default: int = 0) -> int:
        operands = self.decorations.get(target, {}).get(decoration)
        return operands[0] if operands else default


def _string(words: list[int]) -> tuple[str, int]:
    """A nul-terminated UTF-8 literal packed in words, and how many words it used."""
    raw = b"".join(struct.pack("<I", w) for w in words)
    end = raw.find(b"\0")
    end = len(raw) if end < 0 else end
    return raw[:end].decode("utf-8", errors="replace"), end // 4 + 1


def _words(data: bytes) -> list[int]:
    if len(data) < 20 or len(data) % 4:
        raise SpirvError(f"not a SPIR-V module ({len(data)} bytes)")
    for order in ("<", ">"):
        if struct.unpack_from(order + "I", data)[0] == MAGIC:
            return list(struct.unpack(f"{order}{len(data) // 4}I", data))
    raise SpirvError("not a SPIR-V module (bad magic number)")


def _decode(words: list[int]) -> tuple[_Module, list[EntryPoint], list[tuple[int, int, list[int]]]]:
    mod = _Module()
    entries: list[EntryPoint] = []
    modes: list[tuple[int, int, list[int]]] = []
    i = 5
    while i < len(words):
        count, op = words[i] >> 16, words[i] & 0xFFFF
        if count == 0 or i + count > len(words):
            raise SpirvError(f"truncated instruction at word {i}")
        ops = words[i + 1 : i + count]
        i += count
        if op == OP_ENTRY_POINT:
            name, used = _string(ops[2:])
            entries.append(EntryPoint(EXECUTION_MODELS.get(ops[0], str(ops[0])), name, ops[1],
                                      tuple(ops[2 + used :])))
        elif op in (OP_EXECUTION_MODE, OP_EXECUTION_MODE_ID):
            modes.append((ops[0], ops[1], ops[2:]))
        elif op == OP_NAME:
            mod.names[ops[0]] = _string(ops[1:])[0]
        elif op == OP_DECORATE:
            mod.decorations.setdefault(ops[0], {})[ops[1]] = ops[2:]
        elif op == OP_MEMBER_DECORATE:
            mod.member_decorations.setdefault((ops[0], ops[1]), {})[ops[2]] = ops[3:]
        elif OP_TYPE_VOID <= op <= OP_TYPE_POINTER or op == OP_TYPE_ACCELERATION_STRUCTURE:
            mod.types[ops[0]] = (op, ops[1:])
        elif op in (OP_CONSTANT, OP_SPEC_CONSTANT):
            mod.constants[ops[1]] = ops[2] if len(ops) > 2 else 0
        elif op in (OP_CONSTANT_COMPOSITE, OP_SPEC_CONSTANT_COMPOSITE):
            mod.composites[ops[1]] = ops[2:]
        elif op == OP_VARIABLE:
            mod.variables.append((ops[0], ops[1], ops[2]))
    return mod, entries, modes


def _unwrap_arrays(mod: _Module, type_id: int) -> tuple[int, int]:
    """The element type under (possibly nested) arrays and the total element count (runtime arrays: 1)."""
    count = 1
    op, args = mod.types[type_id]
    while op in (OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY):
        if op == OP_TYPE_ARRAY:
            count *= max(mod.constants.get(args[1], 1), 1)
        type_id = args[0]
        op, args = mod.types[type_id]
    return type_id, count


def _descriptor_type(mod: _Module, storage: int, type_id: int) -> int | None:
    op, args = mod.types[type_id]
    if storage == SC_STORAGE_BUFFER:
        return STORAGE_BUFFER
    if storage == SC_UNIFORM:
        # SPIR-V 1.0-1.2 marks storage buffers as Uniform + BufferBlock.
        return STORAGE_BUFFER if mod.has(type_id, DEC_BUFFER_BLOCK) else UNIFORM_BUFFER
    if storage != SC_UNIFORM_CONSTANT:
        return None
    if op == OP_TYPE_SAMPLER:
        return SAMPLER
    if op == OP_TYPE_SAMPLED_IMAGE:
        return COMBINED_IMAGE_SAMPLER
    if op == OP_TYPE_ACCELERATION_STRUCTURE:
        return ACCELERATION_STRUCTURE
    if op == OP_TYPE_IMAGE:
        dim, sampled = args[1], args[5]
        if dim == IMAGE_DIM_SUBPASS:
            return INPUT_ATTACHMENT
        if dim == IMAGE_DIM_BUFFER:
            return STORAGE_TEXEL_BUFFER if sampled == 2 else UNIFORM_TEXEL_BUFFER
        return STORAGE_IMAGE if sampled == 2 else SAMPLED_IMAGE
    return None


def _size(mod: _Module, type_id: int, matrix_stride: int = 0, row_major: bool = False) -> int:
    """Bytes a value of ``type_id`` occupies in an explicitly laid-out block (push constants)."""
    op, args = mod.types[type_id]
    if op in (OP_TYPE_INT, OP_TYPE_FLOAT):
        return int(args[0]) // 8
    if op == OP_TYPE_BOOL:
        return 4
    if op == OP_TYPE_VECTOR:
        return int(args[1]) * _size(mod, args[0])
    if op == OP_TYPE_MATRIX:
        column_op, column_args = mod.types[args[0]]
        rows = int(column_args[1]) if column_op == OP_TYPE_VECTOR else 1
        if matrix_stride:
            return (rows if row_major else int(args[1])) * matrix_stride
        return int(args[1]) * _size(mod, args[0])
    if op == OP_TYPE_ARRAY:
        length = max(mod.constants.get(args[1], 1), 1)
        stride = mod.value(type_id, DEC_ARRAY_STRIDE) or _size(mod, args[0], matrix_stride, row_major)
        return length * stride
    if op == OP_TYPE_RUNTIME_ARRAY:
        return 0
    if op == OP_TYPE_STRUCT:
        end = 0
        for index, member in enumerate(args):
            decs = mod.member_decorations.get((type_id, index), {})
            offset = decs.get(DEC_OFFSET, [0])[0]
            stride = decs.get(DEC_MATRIX_STRIDE, [0])[0]
            end = max(end, offset + _size(mod, member, stride, DEC_ROW_MAJOR in decs))
        return end
    return 0


def _scalar(mod: _Module, type_id: int) -> tuple[str, int]:
    op, args = mod.types[type_id]
    if op == OP_TYPE_FLOAT:
        return "float", int(args[0])
    if op == OP_TYPE_INT:
        return ("int" if args[1] else "uint"), int(args[0])
    raise SpirvError(f"unsupported stage interface type (SPIR-V opcode {op})")


def _interface(mod: _Module, var_id: int, type_id: int) -> InterfaceVariable | None:
    if mod.has(var_id, DEC_BUILTIN) or not mod.has(var_id, DEC_LOCATION):
        return None
    array = 0
    op, args = mod.types[type_id]
    if op == OP_TYPE_ARRAY:
        array = max(mod.constants.get(args[1], 1), 1)
        type_id = args[0]
        op, args = mod.types[type_id]
    columns = components = 1
    if op == OP_TYPE_MATRIX:
        columns = int(args[1])
        type_id = args[0]
        op, args = mod.types[type_id]
    if op == OP_TYPE_VECTOR:
        components = int(args[1])
        type_id = args[0]
    if op == OP_TYPE_STRUCT:
        raise SpirvError(f"stage interface blocks/structs are not supported ({mod.names.get(var_id, var_id)})")
    kind, width = _scalar(mod, type_id)
    return InterfaceVariable(
        location=mod.value(var_id, DEC_LOCATION), component=mod.value(var_id, DEC_COMPONENT), kind=kind,
        width=width, components=components, columns=columns, array=array, flat=mod.has(var_id, DEC_FLAT),
        name=mod.names.get(var_id, ""))


def _workgroup_size(mod: _Module, entry_id: int | None,
                    modes: list[tuple[int, int, list[int]]]) -> tuple[int, int, int] | None:
    # A WorkgroupSize built-in constant overrides LocalSize (SPIR-V spec, BuiltIn WorkgroupSize).
    for cid, parts in mod.composites.items():
        if mod.value(cid, DEC_BUILTIN, -1) == BUILTIN_WORKGROUP_SIZE and len(parts) == 3:
            x, y, z = (mod.constants.get(p, 1) for p in parts)
            return x, y, z
    for target, mode, operands in modes:
        if target != entry_id or len(operands) < 3:
            continue
        if mode == MODE_LOCAL_SIZE:
            return operands[0], operands[1], operands[2]
        if mode == MODE_LOCAL_SIZE_ID:
            x, y, z = (mod.constants.get(p, 1) for p in operands[:3])
            return x, y, z
    return None


def reflect(data: bytes, entry: str | None = None) -> Reflection:
    """Reflect a SPIR-V binary; with ``entry``, inputs/outputs/workgroup size are those of that entry point."""
    mod, entries, modes = _decode(_words(data))
    out = Reflection(entry_points=entries)
    chosen = out.entry(entry) if entry is not None else (entries[0] if entries else None)
    seen: dict[tuple[int, int], DescriptorBinding] = {}
    for ptr_type, var_id, storage in mod.variables:
        pointee = mod.types[ptr_type][1][1]
        if storage in (SC_UNIFORM_CONSTANT, SC_UNIFORM, SC_STORAGE_BUFFER):
            element, count = _unwrap_arrays(mod, pointee)
            dtype = _descriptor_type(mod, storage, element)
            if dtype is None or not mod.has(var_id, DEC_BINDING):
                continue
            key = (mod.value(var_id, DEC_DESCRIPTOR_SET), mod.value(var_id, DEC_BINDING))
            # HLSL cbuffers become a variable named "" whose block type carries the name.
            name = mod.names.get(var_id) or mod.names.get(element, "")
            binding = DescriptorBinding(key[0], key[1], dtype, count, name)
            previous = seen.get(key)
            if previous is not None and previous.descriptor_type != dtype:
                raise SpirvError(f"set {key[0]} binding {key[1]} is used by '{previous.name}' "
                                 f"({previous.type_name}) and '{binding.name}' ({binding.type_name})")
            seen[key] = binding
        elif storage == SC_PUSH_CONSTANT:
            size = _size(mod, pointee)
            out.push_constant_size = max(out.push_constant_size, (size + 3) // 4 * 4)
        elif storage in (SC_INPUT, SC_OUTPUT):
            if chosen is not None and var_id not in chosen.interface:
                continue
            if storage == SC_OUTPUT and mod.value(var_id, DEC_BUILTIN, -1) == BUILTIN_FRAG_DEPTH:
                out.writes_frag_depth = True
            var = _interface(mod, var_id, pointee)
            if var is not None:
                (out.inputs if storage == SC_INPUT else out.outputs).append(var)
    out.bindings = sorted(seen.values(), key=lambda b: (b.set, b.binding))
    out.inputs.sort(key=lambda v: (v.location, v.component))
    out.outputs.sort(key=lambda v: (v.location, v.component))
    if chosen is not None and chosen.stage == "comp":
        out.workgroup_size = _workgroup_size(mod, chosen.function_id, modes)
    return out

