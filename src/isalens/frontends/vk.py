"""Just enough Vulkan, through ctypes, to build one pipeline on RADV and read what the compiler reports.

The pipeline is created with ``VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR |
VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR``; ``VK_KHR_pipeline_executable_properties``
then gives, per executable (one per hardware shader), the driver's statistics and its internal
representations (for RADV/ACO: "NIR Shader(s)", "ACO IR", "Assembly").

This module runs in a child process (``python -m isalens.frontends.vk``, request as JSON on stdin, result
as JSON on stdout) for two reasons: RADV reads ``RADV_FORCE_FAMILY`` when it enumerates devices, so each
target needs its own environment, and a driver crash must not take the caller down with it.
Structure layouts and enum values follow ``vulkan_core.h`` (Vulkan 1.3); only what is used is declared.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
from ctypes import (
    POINTER,
    Structure,
    byref,
    c_char,
    c_char_p,
    c_float,
    c_int32,
    c_size_t,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = [
    "BindingSpec",
    "ExecutableResult",
    "PipelineRequest",
    "PipelineResult",
    "StageSpec",
    "VertexAttribute",
    "VulkanError",
    "compile_pipeline",
    "probe_devices",
]

# --------------------------------------------------------------------------------------- constants
ST_APPLICATION_INFO = 0
ST_INSTANCE_CREATE_INFO = 1
ST_DEVICE_QUEUE_CREATE_INFO = 2
ST_DEVICE_CREATE_INFO = 3
ST_SHADER_MODULE_CREATE_INFO = 16
ST_PIPELINE_SHADER_STAGE_CREATE_INFO = 18
ST_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO = 19
ST_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO = 20
ST_PIPELINE_VIEWPORT_STATE_CREATE_INFO = 22
ST_PIPELINE_RASTERIZATION_STATE_CREATE_INFO = 23
ST_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO = 24
ST_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO = 25
ST_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO = 26
ST_PIPELINE_DYNAMIC_STATE_CREATE_INFO = 27
ST_GRAPHICS_PIPELINE_CREATE_INFO = 28
ST_COMPUTE_PIPELINE_CREATE_INFO = 29
ST_PIPELINE_LAYOUT_CREATE_INFO = 30
ST_DESCRIPTOR_SET_LAYOUT_CREATE_INFO = 32
ST_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES = 49
ST_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES = 51
ST_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES = 53
ST_PHYSICAL_DEVICE_FEATURES_2 = 1000059000
ST_PHYSICAL_DEVICE_PROPERTIES_2 = 1000059001
ST_PHYSICAL_DEVICE_DRIVER_PROPERTIES = 1000196000
ST_PIPELINE_RENDERING_CREATE_INFO = 1000044002
ST_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO = 1000225001
ST_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR = 1000269000
ST_PIPELINE_INFO_KHR = 1000269001
ST_PIPELINE_EXECUTABLE_PROPERTIES_KHR = 1000269002
ST_PIPELINE_EXECUTABLE_INFO_KHR = 1000269003
ST_PIPELINE_EXECUTABLE_STATISTIC_KHR = 1000269004
ST_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR = 1000269005

VK_SUCCESS = 0
VK_INCOMPLETE = 5
API_VERSION_1_3 = (1 << 22) | (3 << 12)
PIPELINE_CREATE_CAPTURE_STATISTICS = 0x40
PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS = 0x80
QUEUE_GRAPHICS = 0x1
QUEUE_COMPUTE = 0x2
SHADER_STAGE_BITS = {"vert": 0x1, "frag": 0x10, "comp": 0x20}
SHADER_STAGE_ALL = 0x7FFFFFFF
EXTENSION = b"VK_KHR_pipeline_executable_properties"
STAT_FORMAT_BOOL32, STAT_FORMAT_INT64, STAT_FORMAT_UINT64, STAT_FORMAT_FLOAT64 = 0, 1, 2, 3
DYNAMIC_STATE_VIEWPORT, DYNAMIC_STATE_SCISSOR = 0, 1
TOPOLOGY_TRIANGLE_LIST = 3
COMPARE_OP_ALWAYS = 7
FORMAT_D32_SFLOAT = 126
MAX_DESCRIPTION = 256

_ERRORS = {
    -1: "VK_ERROR_OUT_OF_HOST_MEMORY", -2: "VK_ERROR_OUT_OF_DEVICE_MEMORY", -3: "VK_ERROR_INITIALIZATION_FAILED",
    -6: "VK_ERROR_EXTENSION_NOT_PRESENT", -7: "VK_ERROR_FEATURE_NOT_PRESENT", -9: "VK_ERROR_INCOMPATIBLE_DRIVER",
    -13: "VK_ERROR_UNKNOWN", -1000012000: "VK_ERROR_INVALID_SHADER_NV",
}


class VulkanError(Exception):
    """A Vulkan call failed, or no RADV device could be created."""


# --------------------------------------------------------------------------------------- structures
class _S(Structure):
    """A structure that starts with sType/pNext."""

    _fields_ = [("sType", c_uint32), ("pNext", c_void_p)]


def _with_header(name: str, fields: list[tuple[str, Any]]) -> type[Structure]:
    return type(name, (Structure,), {"_fields_": [("sType", c_uint32), ("pNext", c_void_p), *fields]})


ApplicationInfo = _with_header("ApplicationInfo", [
    ("pApplicationName", c_char_p), ("applicationVersion", c_uint32), ("pEngineName", c_char_p),
    ("engineVersion", c_uint32), ("apiVersion", c_uint32)])
InstanceCreateInfo = _with_header("InstanceCreateInfo", [
    ("flags", c_uint32), ("pApplicationInfo", c_void_p), ("enabledLayerCount", c_uint32),
    ("ppEnabledLayerNames", c_void_p), ("enabledExtensionCount", c_uint32), ("ppEnabledExtensionNames", c_void_p)])
DeviceQueueCreateInfo = _with_header("DeviceQueueCreateInfo", [
    ("flags", c_uint32), ("queueFamilyIndex", c_uint32), ("queueCount", c_uint32),
    ("pQueuePriorities", POINTER(c_float))])
DeviceCreateInfo = _with_header("DeviceCreateInfo", [
    ("flags", c_uint32), ("queueCreateInfoCount", c_uint32), ("pQueueCreateInfos", c_void_p),
    ("enabledLayerCount", c_uint32), ("ppEnabledLayerNames", c_void_p), ("enabledExtensionCount", c_uint32),
    ("ppEnabledExtensionNames", c_void_p), ("pEnabledFeatures", c_void_p)])


class QueueFamilyProperties(Structure):
    _fields_ = [("queueFlags", c_uint32), ("queueCount", c_uint32), ("timestampValidBits", c_uint32),
                ("granularity", c_uint32 * 3)]


class ExtensionProperties(Structure):
    _fields_ = [("extensionName", c_char * MAX_DESCRIPTION), ("specVersion", c_uint32)]


class PhysicalDeviceProperties(Structure):
    # Only the leading fields are read; the tail is generously oversized for the limits that follow.
    _fields_ = [("apiVersion", c_uint32), ("driverVersion", c_uint32), ("vendorID", c_uint32),
                ("deviceID", c_uint32), ("deviceType", c_uint32), ("deviceName", c_char * MAX_DESCRIPTION),
                ("pipelineCacheUUID", c_uint8 * 16), ("_rest", c_uint64 * 256)]


PhysicalDeviceProperties2 = _with_header("PhysicalDeviceProperties2", [("properties", PhysicalDeviceProperties)])
PhysicalDeviceDriverProperties = _with_header("PhysicalDeviceDriverProperties", [
    ("driverID", c_uint32), ("driverName", c_char * MAX_DESCRIPTION), ("driverInfo", c_char * MAX_DESCRIPTION),
    ("conformanceVersion", c_uint8 * 4)])


def _features(name: str, count: int) -> type[Structure]:
    # Feature structures are sType, pNext and then only VkBool32 members (counts from vulkan_core.h 1.3).
    return _with_header(name, [("bools", c_uint32 * count)])


PhysicalDeviceFeatures2 = _features("PhysicalDeviceFeatures2", 55)
Vulkan11Features = _features("Vulkan11Features", 12)
Vulkan12Features = _features("Vulkan12Features", 47)
Vulkan13Features = _features("Vulkan13Features", 15)
PipelineExecutableFeatures = _features("PipelineExecutableFeatures", 1)

ShaderModuleCreateInfo = _with_header("ShaderModuleCreateInfo", [
    ("flags", c_uint32), ("codeSize", c_size_t), ("pCode", c_void_p)])
RequiredSubgroupSize = _with_header("RequiredSubgroupSize", [("requiredSubgroupSize", c_uint32)])
PipelineShaderStageCreateInfo = _with_header("PipelineShaderStageCreateInfo", [
    ("flags", c_uint32), ("stage", c_uint32), ("module", c_uint64), ("pName", c_void_p),
    ("pSpecializationInfo", c_void_p)])
ComputePipelineCreateInfo = _with_header("ComputePipelineCreateInfo", [
    ("flags", c_uint32), ("stage", PipelineShaderStageCreateInfo), ("layout", c_uint64),
    ("basePipelineHandle", c_uint64), ("basePipelineIndex", c_int32)])


class DescriptorSetLayoutBinding(Structure):
    _fields_ = [("binding", c_uint32), ("descriptorType", c_uint32), ("descriptorCount", c_uint32),
                ("stageFlags", c_uint32), ("pImmutableSamplers", c_void_p)]


DescriptorSetLayoutCreateInfo = _with_header("DescriptorSetLayoutCreateInfo", [
    ("flags", c_uint32), ("bindingCount", c_uint32), ("pBindings", c_void_p)])


class PushConstantRange(Structure):
    _fields_ = [("stageFlags", c_uint32), ("offset", c_uint32), ("size", c_uint32)]


PipelineLayoutCreateInfo = _with_header("PipelineLayoutCreateInfo", [
    ("flags", c_uint32), ("setLayoutCount", c_uint32), ("pSetLayouts", c_void_p),
    ("pushConstantRangeCount", c_uint32), ("pPushConstantRanges", c_void_p)])


class VertexInputBindingDescription(Structure):
    _fields_ = [("binding", c_uint32), ("stride", c_uint32), ("inputRate", c_uint32)]


class VertexInputAttributeDescription(Structure):
    _fields_ = [("location", c_uint32), ("binding", c_uint32), ("format", c_uint32), ("offset", c_uint32)]


PipelineVertexInputStateCreateInfo = _with_header("PipelineVertexInputStateCreateInfo", [
    ("flags", c_uint32), ("vertexBindingDescriptionCount", c_uint32), ("pVertexBindingDescriptions", c_void_p),
    ("vertexAttributeDescriptionCount", c_uint32), ("pVertexAttributeDescriptions", c_void_p)])
PipelineInputAssemblyStateCreateInfo = _with_header("PipelineInputAssemblyStateCreateInfo", [
    ("flags", c_uint32), ("topology", c_uint32), ("primitiveRestartEnable", c_uint32)])
PipelineViewportStateCreateInfo = _with_header("PipelineViewportStateCreateInfo", [
    ("flags", c_uint32), ("viewportCount", c_uint32), ("pViewports", c_void_p), ("scissorCount", c_uint32),
    ("pScissors", c_void_p)])
PipelineRasterizationStateCreateInfo = _with_header("PipelineRasterizationStateCreateInfo", [
    ("flags", c_uint32), ("depthClampEnable", c_uint32), ("rasterizerDiscardEnable", c_uint32),
    ("polygonMode", c_uint32), ("cullMode", c_uint32), ("frontFace", c_uint32), ("depthBiasEnable", c_uint32),
    ("depthBiasConstantFactor", c_float), ("depthBiasClamp", c_float), ("depthBiasSlopeFactor", c_float),
    ("lineWidth", c_float)])
PipelineMultisampleStateCreateInfo = _with_header("PipelineMultisampleStateCreateInfo", [
    ("flags", c_uint32), ("rasterizationSamples", c_uint32), ("sampleShadingEnable", c_uint32),
    ("minSampleShading", c_float), ("pSampleMask", c_void_p), ("alphaToCoverageEnable", c_uint32),
    ("alphaToOneEnable", c_uint32)])
PipelineDepthStencilStateCreateInfo = _with_header("PipelineDepthStencilStateCreateInfo", [
    ("flags", c_uint32), ("depthTestEnable", c_uint32), ("depthWriteEnable", c_uint32),
    ("depthCompareOp", c_uint32), ("depthBoundsTestEnable", c_uint32), ("stencilTestEnable", c_uint32),
    ("front", c_uint32 * 7), ("back", c_uint32 * 7), ("minDepthBounds", c_float), ("maxDepthBounds", c_float)])


class PipelineColorBlendAttachmentState(Structure):
    _fields_ = [("blendEnable", c_uint32), ("srcColorBlendFactor", c_uint32), ("dstColorBlendFactor", c_uint32),
                ("colorBlendOp", c_uint32), ("srcAlphaBlendFactor", c_uint32), ("dstAlphaBlendFactor", c_uint32),
                ("alphaBlendOp", c_uint32), ("colorWriteMask", c_uint32)]


PipelineColorBlendStateCreateInfo = _with_header("PipelineColorBlendStateCreateInfo", [
    ("flags", c_uint32), ("logicOpEnable", c_uint32), ("logicOp", c_uint32), ("attachmentCount", c_uint32),
    ("pAttachments", c_void_p), ("blendConstants", c_float * 4)])
PipelineDynamicStateCreateInfo = _with_header("PipelineDynamicStateCreateInfo", [
    ("flags", c_uint32), ("dynamicStateCount", c_uint32), ("pDynamicStates", c_void_p)])
PipelineRenderingCreateInfo = _with_header("PipelineRenderingCreateInfo", [
    ("viewMask", c_uint32), ("colorAttachmentCount", c_uint32), ("pColorAttachmentFormats", c_void_p),
    ("depthAttachmentFormat", c_uint32), ("stencilAttachmentFormat", c_uint32)])
GraphicsPipelineCreateInfo = _with_header("GraphicsPipelineCreateInfo", [
    ("flags", c_uint32), ("stageCount", c_uint32), ("pStages", c_void_p), ("pVertexInputState", c_void_p),
    ("pInputAssemblyState", c_void_p), ("pTessellationState", c_void_p), ("pViewportState", c_void_p),
    ("pRasterizationState", c_void_p), ("pMultisampleState", c_void_p), ("pDepthStencilState", c_void_p),
    ("pColorBlendState", c_void_p), ("pDynamicState", c_void_p), ("layout", c_uint64), ("renderPass", c_uint64),
    ("subpass", c_uint32), ("basePipelineHandle", c_uint64), ("basePipelineIndex", c_int32)])

PipelineInfo = _with_header("PipelineInfo", [("pipeline", c_uint64)])
PipelineExecutableInfo = _with_header("PipelineExecutableInfo", [("pipeline", c_uint64),
                                                                 ("executableIndex", c_uint32)])
PipelineExecutableProperties = _with_header("PipelineExecutableProperties", [
    ("stages", c_uint32), ("name", c_char * MAX_DESCRIPTION), ("description", c_char * MAX_DESCRIPTION),
    ("subgroupSize", c_uint32)])


class _StatValue(ctypes.Union):
    _fields_ = [("b32", c_uint32), ("i64", ctypes.c_int64), ("u64", c_uint64), ("f64", ctypes.c_double)]


PipelineExecutableStatistic = _with_header("PipelineExecutableStatistic", [
    ("name", c_char * MAX_DESCRIPTION), ("description", c_char * MAX_DESCRIPTION), ("format", c_uint32),
    ("value", _StatValue)])
PipelineExecutableInternalRepresentation = _with_header("PipelineExecutableInternalRepresentation", [
    ("name", c_char * MAX_DESCRIPTION), ("description", c_char * MAX_DESCRIPTION), ("isText", c_uint32),
    ("dataSize", c_size_t), ("pData", c_void_p)])


# --------------------------------------------------------------------------------------- request/result
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


# --------------------------------------------------------------------------------------- the calls
def _check(result: int, what: str) -> None:
    if result < 0:
        raise VulkanError(f"{what} failed: {_ERRORS.get(result, result)}")


class _Vulkan:
    """The loader's entry points, resolved lazily, plus the device-level extension functions."""

    def __init__(self) -> None:
        try:
            self.lib = ctypes.CDLL("libvulkan.so.1")
        except OSError as exc:
            raise VulkanError(f"cannot load the Vulkan loader libvulkan.so.1 ({exc})") from None
        self.lib.vkGetDeviceProcAddr.restype = c_void_p
        self.lib.vkGetDeviceProcAddr.argtypes = [c_void_p, c_char_p]

    def __getattr__(self, name: str) -> Any:
        fn = getattr(self.lib, name)
        fn.restype = c_int32
        return fn

    def device_fn(self, device: c_void_p, name: str) -> Any:
        address = self.lib.vkGetDeviceProcAddr(device, name.encode())
        if not address:
            raise VulkanError(f"the driver does not provide {name}")
        return ctypes.CFUNCTYPE(c_int32, c_void_p, c_void_p, POINTER(c_uint32), c_void_p)(address)


def _instance(vk: _Vulkan) -> c_void_p:
    app = ApplicationInfo(sType=ST_APPLICATION_INFO, pApplicationName=b"isalens", pEngineName=b"isalens",
                          apiVersion=API_VERSION_1_3)
    info = InstanceCreateInfo(sType=ST_INSTANCE_CREATE_INFO, pApplicationInfo=ctypes.addressof(app))
    instance = c_void_p()
    _check(vk.vkCreateInstance(byref(info), None, byref(instance)), "vkCreateInstance")
    return instance


def _physical_devices(vk: _Vulkan, instance: c_void_p) -> list[c_void_p]:
    count = c_uint32(0)
    _check(vk.vkEnumeratePhysicalDevices(instance, byref(count), None), "vkEnumeratePhysicalDevices")
    devices = (c_void_p * count.value)()
    _check(vk.vkEnumeratePhysicalDevices(instance, byref(count), devices), "vkEnumeratePhysicalDevices")
    return [c_void_p(d) for d in devices[: count.value]]


def _describe(vk: _Vulkan, phys: c_void_p) -> tuple[str, str]:
    driver = PhysicalDeviceDriverProperties(sType=ST_PHYSICAL_DEVICE_DRIVER_PROPERTIES)
    props = PhysicalDeviceProperties2(sType=ST_PHYSICAL_DEVICE_PROPERTIES_2, pNext=ctypes.addressof(driver))
    vk.lib.vkGetPhysicalDeviceProperties2.restype = None
    vk.lib.vkGetPhysicalDeviceProperties2(phys, byref(props))
    return props.properties.deviceName.decode(errors="replace"), driver.driverInfo.decode(errors="replace")


def _has_extension(vk: _Vulkan, phys: c_void_p) -> bool:
    count = c_uint32(0)
    _check(vk.vkEnumerateDeviceExtensionProperties(phys, None, byref(count), None), "extension query")
    exts = (ExtensionProperties * count.value)()
    _check(vk.vkEnumerateDeviceExtensionProperties(phys, None, byref(count), exts), "extension query")
    return any(e.extensionName == EXTENSION for e in exts[: count.value])


def probe_devices() -> list[tuple[str, str, bool]]:
    """Each physical device's name, driver info and whether it has the executable-properties extension."""
    vk = _Vulkan()
    instance = _instance(vk)
    try:
        return [(*_describe(vk, p), _has_extension(vk, p)) for p in _physical_devices(vk, instance)]
    finally:
        vk.lib.vkDestroyInstance.restype = None
        vk.lib.vkDestroyInstance(instance, None)


class _Keep:
    """Holds ctypes objects alive until the call that reads them has returned."""

    def __init__(self) -> None:
        self.items: list[Any] = []

    def __call__(self, obj: Any) -> int:
        self.items.append(obj)
        return ctypes.addressof(obj)


def _create_device(vk: _Vulkan, phys: c_void_p, keep: _Keep) -> c_void_p:
    count = c_uint32(0)
    vk.lib.vkGetPhysicalDeviceQueueFamilyProperties.restype = None
    vk.lib.vkGetPhysicalDeviceQueueFamilyProperties(phys, byref(count), None)
    families = (QueueFamilyProperties * count.value)()
    vk.lib.vkGetPhysicalDeviceQueueFamilyProperties(phys, byref(count), families)
    index = next((i for i, f in enumerate(families[: count.value]) if f.queueFlags & QUEUE_GRAPHICS), 0)
    priority = c_float(1.0)
    keep(priority)
    queue = DeviceQueueCreateInfo(sType=ST_DEVICE_QUEUE_CREATE_INFO, queueFamilyIndex=index, queueCount=1,
                                  pQueuePriorities=ctypes.pointer(priority))
    # Enable every feature the device has (fp16/int8 arithmetic, 16-bit storage, subgroup size control...)
    # so any shader the driver can compile is accepted: query the chain, then hand the same chain back.
    f13 = Vulkan13Features(sType=ST_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES)
    f12 = Vulkan12Features(sType=ST_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, pNext=keep(f13))
    f11 = Vulkan11Features(sType=ST_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, pNext=keep(f12))
    exe = PipelineExecutableFeatures(sType=ST_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
                                     pNext=keep(f11))
    features = PhysicalDeviceFeatures2(sType=ST_PHYSICAL_DEVICE_FEATURES_2, pNext=keep(exe))
    keep(features)
    vk.lib.vkGetPhysicalDeviceFeatures2.restype = None
    vk.lib.vkGetPhysicalDeviceFeatures2(phys, byref(features))
    exe.bools[0] = 1
    names = (c_char_p * 1)(EXTENSION)
    keep(names)
    info = DeviceCreateInfo(sType=ST_DEVICE_CREATE_INFO, pNext=ctypes.addressof(features), queueCreateInfoCount=1,
                            pQueueCreateInfos=keep(queue), enabledExtensionCount=1,
                            ppEnabledExtensionNames=ctypes.addressof(names))
    device = c_void_p()
    _check(vk.vkCreateDevice(phys, byref(info), None, byref(device)), "vkCreateDevice")
    return device


def _shader_module(vk: _Vulkan, device: c_void_p, path: str, keep: _Keep) -> int:
    with open(path, "rb") as fh:
        code = fh.read()
    if len(code) % 4 or len(code) < 20:
        raise VulkanError(f"{path}: not a SPIR-V module ({len(code)} bytes)")
    buf = (c_uint32 * (len(code) // 4)).from_buffer_copy(code)
    info = ShaderModuleCreateInfo(sType=ST_SHADER_MODULE_CREATE_INFO, codeSize=len(code), pCode=keep(buf))
    module = c_uint64()
    _check(vk.vkCreateShaderModule(device, byref(info), None, byref(module)), f"vkCreateShaderModule({path})")
    return module.value


def _pipeline_layout(vk: _Vulkan, device: c_void_p, req: PipelineRequest, keep: _Keep) -> int:
    n_sets = max((b.set + 1 for b in req.bindings), default=0)
    layouts = (c_uint64 * max(n_sets, 1))()
    for s in range(n_sets):
        mine = sorted((b for b in req.bindings if b.set == s), key=lambda b: b.binding)
        arr = (DescriptorSetLayoutBinding * max(len(mine), 1))()
        for i, b in enumerate(mine):
            arr[i] = DescriptorSetLayoutBinding(b.binding, b.descriptor_type, b.count, SHADER_STAGE_ALL, None)
        info = DescriptorSetLayoutCreateInfo(sType=ST_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, bindingCount=len(mine),
                                             pBindings=keep(arr))
        out = c_uint64()
        _check(vk.vkCreateDescriptorSetLayout(device, byref(info), None, byref(out)), "vkCreateDescriptorSetLayout")
        layouts[s] = out.value
    push = PushConstantRange(SHADER_STAGE_ALL, 0, req.push_constant_size)
    info = PipelineLayoutCreateInfo(sType=ST_PIPELINE_LAYOUT_CREATE_INFO, setLayoutCount=n_sets,
                                    pSetLayouts=keep(layouts), pPushConstantRanges=keep(push),
                                    pushConstantRangeCount=1 if req.push_constant_size else 0)
    layout = c_uint64()
    _check(vk.vkCreatePipelineLayout(device, byref(info), None, byref(layout)), "vkCreatePipelineLayout")
    return layout.value


def _stage_info(vk: _Vulkan, device: c_void_p, spec: StageSpec, subgroup: int | None,
                keep: _Keep) -> Any:
    entry = ctypes.create_string_buffer(spec.entry.encode())
    info = PipelineShaderStageCreateInfo(sType=ST_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                         stage=SHADER_STAGE_BITS[spec.stage],
                                         module=_shader_module(vk, device, spec.spirv, keep), pName=keep(entry))
    if subgroup:
        required = RequiredSubgroupSize(sType=ST_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
                                        requiredSubgroupSize=subgroup)
        info.pNext = keep(required)
    return info


def _compute_pipeline(vk: _Vulkan, device: c_void_p, req: PipelineRequest, layout: int, keep: _Keep) -> int:
    info = ComputePipelineCreateInfo(
        sType=ST_COMPUTE_PIPELINE_CREATE_INFO,
        flags=PIPELINE_CREATE_CAPTURE_STATISTICS | PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS,
        stage=_stage_info(vk, device, req.stages[0], req.subgroup_size, keep), layout=layout, basePipelineIndex=-1)
    pipeline = c_uint64()
    _check(vk.vkCreateComputePipelines(device, c_uint64(0), 1, byref(info), None, byref(pipeline)),
           "vkCreateComputePipelines")
    return pipeline.value


def _graphics_pipeline(vk: _Vulkan, device: c_void_p, req: PipelineRequest, layout: int, keep: _Keep) -> int:
    stages = (PipelineShaderStageCreateInfo * len(req.stages))()
    for i, spec in enumerate(req.stages):
        stages[i] = _stage_info(vk, device, spec, None, keep)
    attrs = req.vertex_attributes
    bind_arr = (VertexInputBindingDescription * max(len(attrs), 1))()
    attr_arr = (VertexInputAttributeDescription * max(len(attrs), 1))()
    for i, a in enumerate(attrs):
        bind_arr[i] = VertexInputBindingDescription(i, a.size, 0)
        attr_arr[i] = VertexInputAttributeDescription(a.location, i, a.format, 0)
    vertex = PipelineVertexInputStateCreateInfo(
        sType=ST_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO, vertexBindingDescriptionCount=len(attrs),
        pVertexBindingDescriptions=keep(bind_arr), vertexAttributeDescriptionCount=len(attrs),
        pVertexAttributeDescriptions=keep(attr_arr))
    assembly = PipelineInputAssemblyStateCreateInfo(sType=ST_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                    topology=TOPOLOGY_TRIANGLE_LIST)
    viewport = PipelineViewportStateCreateInfo(sType=ST_PIPELINE_VIEWPORT_STATE_CREATE_INFO, viewportCount=1,
                                               scissorCount=1)
    raster = PipelineRasterizationStateCreateInfo(sType=ST_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, lineWidth=1.0)
    multisample = PipelineMultisampleStateCreateInfo(sType=ST_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                                     rasterizationSamples=1)
    depth = PipelineDepthStencilStateCreateInfo(
        sType=ST_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO, depthTestEnable=1 if req.depth_format else 0,
        depthWriteEnable=1 if req.depth_format else 0, depthCompareOp=COMPARE_OP_ALWAYS, maxDepthBounds=1.0)
    n_color = len(req.color_formats)
    blend_arr = (PipelineColorBlendAttachmentState * max(n_color, 1))()
    for i in range(n_color):
        blend_arr[i].colorWriteMask = 0xF
    blend = PipelineColorBlendStateCreateInfo(sType=ST_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                              attachmentCount=n_color, pAttachments=keep(blend_arr))
    dyn_arr = (c_uint32 * 2)(DYNAMIC_STATE_VIEWPORT, DYNAMIC_STATE_SCISSOR)
    dynamic = PipelineDynamicStateCreateInfo(sType=ST_PIPELINE_DYNAMIC_STATE_CREATE_INFO, dynamicStateCount=2,
                                             pDynamicStates=keep(dyn_arr))
    formats = (c_uint32 * max(n_color, 1))(*req.color_formats)
    # Dynamic rendering (core in Vulkan 1.3) spares us a render pass and framebuffer.
    rendering = PipelineRenderingCreateInfo(sType=ST_PIPELINE_RENDERING_CREATE_INFO, colorAttachmentCount=n_color,
                                            pColorAttachmentFormats=keep(formats),
                                            depthAttachmentFormat=req.depth_format)
    info = GraphicsPipelineCreateInfo(
        sType=ST_GRAPHICS_PIPELINE_CREATE_INFO, pNext=keep(rendering),
        flags=PIPELINE_CREATE_CAPTURE_STATISTICS | PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS,
        stageCount=len(req.stages), pStages=keep(stages), pVertexInputState=keep(vertex),
        pInputAssemblyState=keep(assembly), pViewportState=keep(viewport), pRasterizationState=keep(raster),
        pMultisampleState=keep(multisample), pDepthStencilState=keep(depth), pColorBlendState=keep(blend),
        pDynamicState=keep(dynamic), layout=layout, basePipelineIndex=-1)
    pipeline = c_uint64()
    _check(vk.vkCreateGraphicsPipelines(device, c_uint64(0), 1, byref(info), None, byref(pipeline)),
           "vkCreateGraphicsPipelines")
    return pipeline.value


def _statistic_value(stat: Any) -> int | float | bool:
    if stat.format == STAT_FORMAT_BOOL32:
        return bool(stat.value.b32)
    if stat.format == STAT_FORMAT_INT64:
        return int(stat.value.i64)
    if stat.format == STAT_FORMAT_FLOAT64:
        return float(stat.value.f64)
    return int(stat.value.u64)


def _executables(vk: _Vulkan, device: c_void_p, pipeline: int) -> list[ExecutableResult]:
    get_props = vk.device_fn(device, "vkGetPipelineExecutablePropertiesKHR")
    get_stats = vk.device_fn(device, "vkGetPipelineExecutableStatisticsKHR")
    get_reprs = vk.device_fn(device, "vkGetPipelineExecutableInternalRepresentationsKHR")
    pinfo = PipelineInfo(sType=ST_PIPELINE_INFO_KHR, pipeline=pipeline)
    count = c_uint32(0)
    _check(get_props(device, byref(pinfo), byref(count), None), "vkGetPipelineExecutablePropertiesKHR")
    props = (PipelineExecutableProperties * count.value)()
    for p in props:
        p.sType = ST_PIPELINE_EXECUTABLE_PROPERTIES_KHR
    _check(get_props(device, byref(pinfo), byref(count), props), "vkGetPipelineExecutablePropertiesKHR")
    results = []
    for index, prop in enumerate(props[: count.value]):
        einfo = PipelineExecutableInfo(sType=ST_PIPELINE_EXECUTABLE_INFO_KHR, pipeline=pipeline,
                                       executableIndex=index)
        result = ExecutableResult(prop.name.decode(errors="replace"), prop.description.decode(errors="replace"),
                                  prop.stages, prop.subgroupSize)
        n = c_uint32(0)
        _check(get_stats(device, byref(einfo), byref(n), None), "vkGetPipelineExecutableStatisticsKHR")
        stats = (PipelineExecutableStatistic * n.value)()
        for s in stats:
            s.sType = ST_PIPELINE_EXECUTABLE_STATISTIC_KHR
        _check(get_stats(device, byref(einfo), byref(n), stats), "vkGetPipelineExecutableStatisticsKHR")
        for s in stats[: n.value]:
            result.statistics[s.name.decode(errors="replace")] = _statistic_value(s)
        # Representations: ask for the count, then the sizes, then the data (the extension's two-call idiom).
        n = c_uint32(0)
        _check(get_reprs(device, byref(einfo), byref(n), None), "vkGetPipelineExecutableInternalRepresentationsKHR")
        reprs = (PipelineExecutableInternalRepresentation * n.value)()
        for r in reprs:
            r.sType = ST_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR
        _check(get_reprs(device, byref(einfo), byref(n), reprs), "vkGetPipelineExecutableInternalRepresentationsKHR")
        buffers = []
        for r in reprs[: n.value]:
            buf = ctypes.create_string_buffer(r.dataSize)
            buffers.append(buf)
            r.pData = ctypes.addressof(buf)
        rc = get_reprs(device, byref(einfo), byref(n), reprs)
        if rc not in (VK_SUCCESS, VK_INCOMPLETE):
            _check(rc, "vkGetPipelineExecutableInternalRepresentationsKHR")
        for r, buf in zip(reprs[: n.value], buffers, strict=True):
            if r.isText:
                result.representations[r.name.decode(errors="replace")] = buf.value.decode(errors="replace")
        results.append(result)
    return results


def compile_pipeline(req: PipelineRequest) -> PipelineResult:
    """Build the pipeline on the first device that has the extension (the environment selects RADV)."""
    vk = _Vulkan()
    instance = _instance(vk)
    keep = _Keep()
    try:
        devices = _physical_devices(vk, instance)
        chosen = next((d for d in devices if _has_extension(vk, d)), None)
        if chosen is None:
            names = ", ".join(_describe(vk, d)[0] for d in devices) or "none"
            raise VulkanError(f"no Vulkan device with {EXTENSION.decode()} (devices: {names})")
        name, driver = _describe(vk, chosen)
        device = _create_device(vk, chosen, keep)
        try:
            layout = _pipeline_layout(vk, device, req, keep)
            if req.stages[0].stage == "comp":
                pipeline = _compute_pipeline(vk, device, req, layout, keep)
            else:
                pipeline = _graphics_pipeline(vk, device, req, layout, keep)
            return PipelineResult(name, driver, _executables(vk, device, pipeline))
        finally:
            # The process exits right after; destroying the device is enough to release driver state.
            vk.lib.vkDestroyDevice.restype = None
            vk.lib.vkDestroyDevice(device, None)
    finally:
        vk.lib.vkDestroyInstance.restype = None
        vk.lib.vkDestroyInstance(instance, None)


def main() -> int:
    """Child-process entry: ``probe FAMILY...`` reports the device each family gives, one JSON line each
    (RADV exits the process on a family it does not know, so the caller restarts after the last line);
    without arguments a pipeline request is read from stdin and the result written to stdout."""
    try:
        if sys.argv[1:2] == ["probe"]:
            for family in sys.argv[2:]:
                os.environ["RADV_FORCE_FAMILY"] = family
                devices = [{"name": n, "driver": d, "executable_properties": e} for n, d, e in probe_devices()]
                sys.stdout.write(json.dumps({"family": family, "devices": devices}) + "\n")
                sys.stdout.flush()
        else:
            result = compile_pipeline(PipelineRequest.from_json(sys.stdin.read()))
            sys.stdout.write(result.to_json())
    except (VulkanError, OSError, ValueError, KeyError, TypeError) as exc:
        sys.stderr.write(f"{exc}\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
