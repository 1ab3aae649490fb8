"""The Vulkan vocabulary :mod:`.vk` speaks through ctypes: enum values and structure layouts as
``vulkan_core.h`` (Vulkan 1.3) declares them; only what is used is declared."""

from __future__ import annotations

import ctypes
from ctypes import (
    POINTER,
    Structure,
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
from typing import Any

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

ERRORS = {
    -1: "VK_ERROR_OUT_OF_HOST_MEMORY", -2: "VK_ERROR_OUT_OF_DEVICE_MEMORY", -3: "VK_ERROR_INITIALIZATION_FAILED",
    -6: "VK_ERROR_EXTENSION_NOT_PRESENT", -7: "VK_ERROR_FEATURE_NOT_PRESENT", -9: "VK_ERROR_INCOMPATIBLE_DRIVER",
    -13: "VK_ERROR_UNKNOWN", -1000012000: "VK_ERROR_INVALID_SHADER_NV",
}


class VulkanError(Exception):
    """A Vulkan call failed, or no RADV device could be created."""


# --------------------------------------------------------------------------------------- structures
class HeaderOnly(Structure):
    """A structure that starts with sType/pNext."""

    _fields_ = [("sType", c_uint32), ("pNext", c_void_p)]


def with_header(name: str, fields: list[tuple[str, Any]]) -> type[Structure]:
    return type(name, (Structure,), {"_fields_": [("sType", c_uint32), ("pNext", c_void_p), *fields]})


ApplicationInfo = with_header("ApplicationInfo", [
    ("pApplicationName", c_char_p), ("applicationVersion", c_uint32), ("pEngineName", c_char_p),
    ("engineVersion", c_uint32), ("apiVersion", c_uint32)])
InstanceCreateInfo = with_header("InstanceCreateInfo", [
    ("flags", c_uint32), ("pApplicationInfo", c_void_p), ("enabledLayerCount", c_uint32),
    ("ppEnabledLayerNames", c_void_p), ("enabledExtensionCount", c_uint32), ("ppEnabledExtensionNames", c_void_p)])
DeviceQueueCreateInfo = with_header("DeviceQueueCreateInfo", [
    ("flags", c_uint32), ("queueFamilyIndex", c_uint32), ("queueCount", c_uint32),
    ("pQueuePriorities", POINTER(c_float))])
DeviceCreateInfo = with_header("DeviceCreateInfo", [
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


PhysicalDeviceProperties2 = with_header("PhysicalDeviceProperties2", [("properties", PhysicalDeviceProperties)])
PhysicalDeviceDriverProperties = with_header("PhysicalDeviceDriverProperties", [
    ("driverID", c_uint32), ("driverName", c_char * MAX_DESCRIPTION), ("driverInfo", c_char * MAX_DESCRIPTION),
    ("conformanceVersion", c_uint8 * 4)])


def features(name: str, count: int) -> type[Structure]:
    # Feature structures are sType, pNext and then only VkBool32 members (counts from vulkan_core.h 1.3).
    return with_header(name, [("bools", c_uint32 * count)])


PhysicalDeviceFeatures2 = features("PhysicalDeviceFeatures2", 55)
Vulkan11Features = features("Vulkan11Features", 12)
Vulkan12Features = features("Vulkan12Features", 47)
Vulkan13Features = features("Vulkan13Features", 15)
PipelineExecutableFeatures = features("PipelineExecutableFeatures", 1)

ShaderModuleCreateInfo = with_header("ShaderModuleCreateInfo", [
    ("flags", c_uint32), ("codeSize", c_size_t), ("pCode", c_void_p)])
RequiredSubgroupSize = with_header("RequiredSubgroupSize", [("requiredSubgroupSize", c_uint32)])
PipelineShaderStageCreateInfo = with_header("PipelineShaderStageCreateInfo", [
    ("flags", c_uint32), ("stage", c_uint32), ("module", c_uint64), ("pName", c_void_p),
    ("pSpecializationInfo", c_void_p)])
ComputePipelineCreateInfo = with_header("ComputePipelineCreateInfo", [
    ("flags", c_uint32), ("stage", PipelineShaderStageCreateInfo), ("layout", c_uint64),
    ("basePipelineHandle", c_uint64), ("basePipelineIndex", c_int32)])


class DescriptorSetLayoutBinding(Structure):
    _fields_ = [("binding", c_uint32), ("descriptorType", c_uint32), ("descriptorCount", c_uint32),
                ("stageFlags", c_uint32), ("pImmutableSamplers", c_void_p)]


DescriptorSetLayoutCreateInfo = with_header("DescriptorSetLayoutCreateInfo", [
    ("flags", c_uint32), ("bindingCount", c_uint32), ("pBindings", c_void_p)])


class PushConstantRange(Structure):
    _fields_ = [("stageFlags", c_uint32), ("offset", c_uint32), ("size", c_uint32)]


PipelineLayoutCreateInfo = with_header("PipelineLayoutCreateInfo", [
    ("flags", c_uint32), ("setLayoutCount", c_uint32), ("pSetLayouts", c_void_p),
    ("pushConstantRangeCount", c_uint32), ("pPushConstantRanges", c_void_p)])


class VertexInputBindingDescription(Structure):
    _fields_ = [("binding", c_uint32), ("stride", c_uint32), ("inputRate", c_uint32)]


class VertexInputAttributeDescription(Structure):
    _fields_ = [("location", c_uint32), ("binding", c_uint32), ("format", c_uint32), ("offset", c_uint32)]


PipelineVertexInputStateCreateInfo = with_header("PipelineVertexInputStateCreateInfo", [
    ("flags", c_uint32), ("vertexBindingDescriptionCount", c_uint32), ("pVertexBindingDescriptions", c_void_p),
    ("vertexAttributeDescriptionCount", c_uint32), ("pVertexAttributeDescriptions", c_void_p)])
PipelineInputAssemblyStateCreateInfo = with_header("PipelineInputAssemblyStateCreateInfo", [
    ("flags", c_uint32), ("topology", c_uint32), ("primitiveRestartEnable", c_uint32)])
PipelineViewportStateCreateInfo = with_header("PipelineViewportStateCreateInfo", [
    ("flags", c_uint32), ("viewportCount", c_uint32), ("pViewports", c_void_p), ("scissorCount", c_uint32),
    ("pScissors", c_void_p)])
PipelineRasterizationStateCreateInfo = with_header("PipelineRasterizationStateCreateInfo", [
    ("flags", c_uint32), ("depthClampEnable", c_uint32), ("rasterizerDiscardEnable", c_uint32),
    ("polygonMode", c_uint32), ("cullMode", c_uint32), ("frontFace", c_uint32), ("depthBiasEnable", c_uint32),
    ("depthBiasConstantFactor", c_float), ("depthBiasClamp", c_float), ("depthBiasSlopeFactor", c_float),
    ("lineWidth", c_float)])
PipelineMultisampleStateCreateInfo = with_header("PipelineMultisampleStateCreateInfo", [
    ("flags", c_uint32), ("rasterizationSamples", c_uint32), ("sampleShadingEnable", c_uint32),
    ("minSampleShading", c_float), ("pSampleMask", c_void_p), ("alphaToCoverageEnable", c_uint32),
    ("alphaToOneEnable", c_uint32)])
PipelineDepthStencilStateCreateInfo = with_header("PipelineDepthStencilStateCreateInfo", [
    ("flags", c_uint32), ("depthTestEnable", c_uint32), ("depthWriteEnable", c_uint32),
    ("depthCompareOp", c_uint32), ("depthBoundsTestEnable", c_uint32), ("stencilTestEnable", c_uint32),
    ("front", c_uint32 * 7), ("back", c_uint32 * 7), ("minDepthBounds", c_float), ("maxDepthBounds", c_float)])


class PipelineColorBlendAttachmentState(Structure):
    _fields_ = [("blendEnable", c_uint32), ("srcColorBlendFactor", c_uint32), ("dstColorBlendFactor", c_uint32),
                ("colorBlendOp", c_uint32), ("srcAlphaBlendFactor", c_uint32), ("dstAlphaBlendFactor", c_uint32),
                ("alphaBlendOp", c_uint32), ("colorWriteMask", c_uint32)]


PipelineColorBlendStateCreateInfo = with_header("PipelineColorBlendStateCreateInfo", [
    ("flags", c_uint32), ("logicOpEnable", c_uint32), ("logicOp", c_uint32), ("attachmentCount", c_uint32),
    ("pAttachments", c_void_p), ("blendConstants", c_float * 4)])
PipelineDynamicStateCreateInfo = with_header("PipelineDynamicStateCreateInfo", [
    ("flags", c_uint32), ("dynamicStateCount", c_uint32), ("pDynamicStates", c_void_p)])
PipelineRenderingCreateInfo = with_header("PipelineRenderingCreateInfo", [
    ("viewMask", c_uint32), ("colorAttachmentCount", c_uint32), ("pColorAttachmentFormats", c_void_p),
    ("depthAttachmentFormat", c_uint32), ("stencilAttachmentFormat", c_uint32)])
GraphicsPipelineCreateInfo = with_header("GraphicsPipelineCreateInfo", [
    ("flags", c_uint32), ("stageCount", c_uint32), ("pStages", c_void_p), ("pVertexInputState", c_void_p),
    ("pInputAssemblyState", c_void_p), ("pTessellationState", c_void_p), ("pViewportState", c_void_p),
    ("pRasterizationState", c_void_p), ("pMultisampleState", c_void_p), ("pDepthStencilState", c_void_p),
    ("pColorBlendState", c_void_p), ("pDynamicState", c_void_p), ("layout", c_uint64), ("renderPass", c_uint64),
    ("subpass", c_uint32), ("basePipelineHandle", c_uint64), ("basePipelineIndex", c_int32)])

PipelineInfo = with_header("PipelineInfo", [("pipeline", c_uint64)])
PipelineExecutableInfo = with_header("PipelineExecutableInfo", [("pipeline", c_uint64),
                                                                 ("executableIndex", c_uint32)])
PipelineExecutableProperties = with_header("PipelineExecutableProperties", [
    ("stages", c_uint32), ("name", c_char * MAX_DESCRIPTION), ("description", c_char * MAX_DESCRIPTION),
    ("subgroupSize", c_uint32)])


class StatValue(ctypes.Union):
    _fields_ = [("b32", c_uint32), ("i64", ctypes.c_int64), ("u64", c_uint64), ("f64", ctypes.c_double)]


PipelineExecutableStatistic = with_header("PipelineExecutableStatistic", [
    ("name", c_char * MAX_DESCRIPTION), ("description", c_char * MAX_DESCRIPTION), ("format", c_uint32),
    ("value", StatValue)])
PipelineExecutableInternalRepresentation = with_header("PipelineExecutableInternalRepresentation", [
    ("name", c_char * MAX_DESCRIPTION), ("description", c_char * MAX_DESCRIPTION), ("isText", c_uint32),
    ("dataSize", c_size_t), ("pData", c_void_p)])
