"""What the parent sends to the Vulkan child process (:mod:`.vk`) and what it gets back, as JSON: the pipeline
to build (stages, bindings, vertex and colour formats) and each executable's statistics and representations."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field


@dataclass
class StageSpec:
    """One shader stage: ``comp``, ``vert`` or ``frag``, its SPIR-V file and entry point."""

    stage: str
    spirv: str
    entry: str = "main"


@dataclass
class BindingSpec:
    """One descriptor binding of a set layout."""

    set: int
    binding: int
    descriptor_type: int
    count: int = 1


@dataclass
class VertexAttribute:
    """A vertex input at ``location`` read with ``format`` (one binding per attribute, stride ``size``)."""

    location: int
    format: int
    size: int


@dataclass
class PipelineRequest:
    """Everything the child needs to build one pipeline (derived from SPIR-V reflection by the caller)."""

    stages: list[StageSpec]
    bindings: list[BindingSpec] = field(default_factory=list)
    push_constant_size: int = 0
    vertex_attributes: list[VertexAttribute] = field(default_factory=list)
    color_formats: list[int] = field(default_factory=list)
    depth_format: int = 0
    subgroup_size: int | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> PipelineRequest:
        raw = json.loads(text)
        return cls(
            stages=[StageSpec(**s) for s in raw["stages"]],
            bindings=[BindingSpec(**b) for b in raw.get("bindings", [])],
            push_constant_size=int(raw.get("push_constant_size", 0)),
            vertex_attributes=[VertexAttribute(**a) for a in raw.get("vertex_attributes", [])],
            color_formats=[int(f) for f in raw.get("color_formats", [])],
            depth_format=int(raw.get("depth_format", 0)),
            subgroup_size=raw.get("subgroup_size"),
        )


@dataclass
class ExecutableResult:
    """One pipeline executable: its stages, subgroup size, statistics and internal representations."""

    name: str
    description: str
    stages: int
    subgroup_size: int
    statistics: dict[str, int | float | bool] = field(default_factory=dict)
    representations: dict[str, str] = field(default_factory=dict)


@dataclass
class PipelineResult:
    """The device the pipeline was built on and its executables."""

    device_name: str
    driver_info: str
    executables: list[ExecutableResult] = field(default_factory=list)
    #: what the driver printed on stderr (the ``RADV_DEBUG=shaders`` dump when asked for); set by the parent
    log: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> PipelineResult:
        raw = json.loads(text)
        return cls(raw["device_name"], raw["driver_info"], [ExecutableResult(**e) for e in raw["executables"]])
