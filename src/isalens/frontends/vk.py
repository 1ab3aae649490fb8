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
    byref,
    c_char_p,
    c_float,
    c_int32,
    c_uint32,
    c_uint64,
    c_void_p,
)
from typing import Any

from isalens.frontends import vk_types as vkt
from isalens.frontends.vk_messages import (
    BindingSpec,
    ExecutableResult,
    PipelineRequest,
    PipelineResult,
    StageSpec,
    VertexAttribute,
)
from isalens.frontends.vk_types import FORMAT_D32_SFLOAT, SHADER_STAGE_BITS, VulkanError

__all__ = [
    "FORMAT_D32_SFLOAT",
    "SHADER_STAGE_BITS",
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


# --------------------------------------------------------------------------------------- the calls
def _check(result: int, what: str) -> None:
    if result < 0:
        raise VulkanError(f"{what} failed: {vkt.ERRORS.get(result, result)}")


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
    app = vkt.ApplicationInfo(sType=vkt.ST_APPLICATION_INFO, pApplicationName=b"isalens", pEngineName=b"isalens",
                              apiVersion=vkt.API_VERSION_1_3)
    info = vkt.InstanceCreateInfo(sType=vkt.ST_INSTANCE_CREATE_INFO, pApplicationInfo=ctypes.addressof(app))
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
    driver = vkt.PhysicalDeviceDriverProperties(sType=vkt.ST_PHYSICAL_DEVICE_DRIVER_PROPERTIES)
    props = vkt.PhysicalDeviceProperties2(sType=vkt.ST_PHYSICAL_DEVICE_PROPERTIES_2, pNext=ctypes.addressof(driver))
    vk.lib.vkGetPhysicalDeviceProperties2.restype = None
    vk.lib.vkGetPhysicalDeviceProperties2(phys, byref(props))
    return props.properties.deviceName.decode(errors="replace"), driver.driverInfo.decode(errors="replace")


def _has_extension(vk: _Vulkan, phys: c_void_p) -> bool:
    count = c_uint32(0)
    _check(vk.vkEnumerateDeviceExtensionProperties(phys, None, byref(count), None), "extension query")
    exts = (vkt.ExtensionProperties * count.value)()
    _check(vk.vkEnumerateDeviceExtensionProperties(phys, None, byref(count), exts), "extension query")
    return any(e.extensionName == vkt.EXTENSION for e in exts[: count.value])


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
    families = (vkt.QueueFamilyProperties * count.value)()
    vk.lib.vkGetPhysicalDeviceQueueFamilyProperties(phys, byref(count), families)
    index = next((i for i, f in enumerate(families[: count.value]) if f.queueFlags & vkt.QUEUE_GRAPHICS), 0)
    priority = c_float(1.0)
    keep(priority)
    queue = vkt.DeviceQueueCreateInfo(sType=vkt.ST_DEVICE_QUEUE_CREATE_INFO, queueFamilyIndex=index, queueCount=1,
                                      pQueuePriorities=ctypes.pointer(priority))
    # Enable every feature the device has (fp16/int8 arithmetic, 16-bit storage, subgroup size control...)
    # so any shader the driver can compile is accepted: query the chain, then hand the same chain back.
    f13 = vkt.Vulkan13Features(sType=vkt.ST_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES)
    f12 = vkt.Vulkan12Features(sType=vkt.ST_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, pNext=keep(f13))
    f11 = vkt.Vulkan11Features(sType=vkt.ST_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, pNext=keep(f12))
    exe = vkt.PipelineExecutableFeatures(sType=vkt.ST_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
                                         pNext=keep(f11))
    features = vkt.PhysicalDeviceFeatures2(sType=vkt.ST_PHYSICAL_DEVICE_FEATURES_2, pNext=keep(exe))
    keep(features)
    vk.lib.vkGetPhysicalDeviceFeatures2.restype = None
    vk.lib.vkGetPhysicalDeviceFeatures2(phys, byref(features))
    exe.bools[0] = 1
    names = (c_char_p * 1)(vkt.EXTENSION)
    keep(names)
    info = vkt.DeviceCreateInfo(sType=vkt.ST_DEVICE_CREATE_INFO, pNext=ctypes.addressof(features),
                                queueCreateInfoCount=1, pQueueCreateInfos=keep(queue), enabledExtensionCount=1,
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
    info = vkt.ShaderModuleCreateInfo(sType=vkt.ST_SHADER_MODULE_CREATE_INFO, codeSize=len(code), pCode=keep(buf))
    module = c_uint64()
    _check(vk.vkCreateShaderModule(device, byref(info), None, byref(module)), f"vkCreateShaderModule({path})")
    return module.value


def _pipeline_layout(vk: _Vulkan, device: c_void_p, req: PipelineRequest, keep: _Keep) -> int:
    n_sets = max((b.set + 1 for b in req.bindings), default=0)
    layouts = (c_uint64 * max(n_sets, 1))()
    for s in range(n_sets):
        mine = sorted((b for b in req.bindings if b.set == s), key=lambda b: b.binding)
        arr = (vkt.DescriptorSetLayoutBinding * max(len(mine), 1))()
        for i, b in enumerate(mine):
            arr[i] = vkt.DescriptorSetLayoutBinding(b.binding, b.descriptor_type, b.count, vkt.SHADER_STAGE_ALL, None)
        info = vkt.DescriptorSetLayoutCreateInfo(sType=vkt.ST_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, bindingCount=len(mine),
                                                 pBindings=keep(arr))
        out = c_uint64()
        _check(vk.vkCreateDescriptorSetLayout(device, byref(info), None, byref(out)), "vkCreateDescriptorSetLayout")
        layouts[s] = out.value
    push = vkt.PushConstantRange(vkt.SHADER_STAGE_ALL, 0, req.push_constant_size)
    info = vkt.PipelineLayoutCreateInfo(sType=vkt.ST_PIPELINE_LAYOUT_CREATE_INFO, setLayoutCount=n_sets,
                                        pSetLayouts=keep(layouts), pPushConstantRanges=keep(push),
                                        pushConstantRangeCount=1 if req.push_constant_size else 0)
    layout = c_uint64()
    _check(vk.vkCreatePipelineLayout(device, byref(info), None, byref(layout)), "vkCreatePipelineLayout")
    return layout.value


def _stage_info(vk: _Vulkan, device: c_void_p, spec: StageSpec, subgroup: int | None,
                keep: _Keep) -> Any:
    entry = ctypes.create_string_buffer(spec.entry.encode())
    info = vkt.PipelineShaderStageCreateInfo(sType=vkt.ST_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                             stage=vkt.SHADER_STAGE_BITS[spec.stage],
                                             module=_shader_module(vk, device, spec.spirv, keep), pName=keep(entry))
    if subgroup:
        required = vkt.RequiredSubgroupSize(sType=vkt.ST_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
                                            requiredSubgroupSize=subgroup)
        info.pNext = keep(required)
    return info


def _compute_pipeline(vk: _Vulkan, device: c_void_p, req: PipelineRequest, layout: int, keep: _Keep) -> int:
    info = vkt.ComputePipelineCreateInfo(
        sType=vkt.ST_COMPUTE_PIPELINE_CREATE_INFO,
        flags=vkt.PIPELINE_CREATE_CAPTURE_STATISTICS | vkt.PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS,
        stage=_stage_info(vk, device, req.stages[0], req.subgroup_size, keep), layout=layout, basePipelineIndex=-1)
    pipeline = c_uint64()
    _check(vk.vkCreateComputePipelines(device, c_uint64(0), 1, byref(info), None, byref(pipeline)),
           "vkCreateComputePipelines")
    return pipeline.value


def _graphics_pipeline(vk: _Vulkan, device: c_void_p, req: PipelineRequest, layout: int, keep: _Keep) -> int:
    stages = (vkt.PipelineShaderStageCreateInfo * len(req.stages))()
    for i, spec in enumerate(req.stages):
        stages[i] = _stage_info(vk, device, spec, None, keep)
    attrs = req.vertex_attributes
    bind_arr = (vkt.VertexInputBindingDescription * max(len(attrs), 1))()
    attr_arr = (vkt.VertexInputAttributeDescription * max(len(attrs), 1))()
    for i, a in enumerate(attrs):
        bind_arr[i] = vkt.VertexInputBindingDescription(i, a.size, 0)
        attr_arr[i] = vkt.VertexInputAttributeDescription(a.location, i, a.format, 0)
    vertex = vkt.PipelineVertexInputStateCreateInfo(
        sType=vkt.ST_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO, vertexBindingDescriptionCount=len(attrs),
        pVertexBindingDescriptions=keep(bind_arr), vertexAttributeDescriptionCount=len(attrs),
        pVertexAttributeDescriptions=keep(attr_arr))
    assembly = vkt.PipelineInputAssemblyStateCreateInfo(sType=vkt.ST_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                        topology=vkt.TOPOLOGY_TRIANGLE_LIST)
    viewport = vkt.PipelineViewportStateCreateInfo(sType=vkt.ST_PIPELINE_VIEWPORT_STATE_CREATE_INFO, viewportCount=1,
                                                   scissorCount=1)
    raster = vkt.PipelineRasterizationStateCreateInfo(sType=vkt.ST_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                                      lineWidth=1.0)
    multisample = vkt.PipelineMultisampleStateCreateInfo(sType=vkt.ST_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                                         rasterizationSamples=1)
    depth = vkt.PipelineDepthStencilStateCreateInfo(
        sType=vkt.ST_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO, depthTestEnable=1 if req.depth_format else 0,
        depthWriteEnable=1 if req.depth_format else 0, depthCompareOp=vkt.COMPARE_OP_ALWAYS, maxDepthBounds=1.0)
    n_color = len(req.color_formats)
    blend_arr = (vkt.PipelineColorBlendAttachmentState * max(n_color, 1))()
    for i in range(n_color):
        blend_arr[i].colorWriteMask = 0xF
    blend = vkt.PipelineColorBlendStateCreateInfo(sType=vkt.ST_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                                  attachmentCount=n_color, pAttachments=keep(blend_arr))
    dyn_arr = (c_uint32 * 2)(vkt.DYNAMIC_STATE_VIEWPORT, vkt.DYNAMIC_STATE_SCISSOR)
    dynamic = vkt.PipelineDynamicStateCreateInfo(sType=vkt.ST_PIPELINE_DYNAMIC_STATE_CREATE_INFO, dynamicStateCount=2,
                                                 pDynamicStates=keep(dyn_arr))
    formats = (c_uint32 * max(n_color, 1))(*req.color_formats)
    # Dynamic rendering (core in Vulkan 1.3) spares us a render pass and framebuffer.
    rendering = vkt.PipelineRenderingCreateInfo(sType=vkt.ST_PIPELINE_RENDERING_CREATE_INFO,
                                                colorAttachmentCount=n_color, pColorAttachmentFormats=keep(formats),
                                                depthAttachmentFormat=req.depth_format)
    info = vkt.GraphicsPipelineCreateInfo(
        sType=vkt.ST_GRAPHICS_PIPELINE_CREATE_INFO, pNext=keep(rendering),
        flags=vkt.PIPELINE_CREATE_CAPTURE_STATISTICS | vkt.PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS,
        stageCount=len(req.stages), pStages=keep(stages), pVertexInputState=keep(vertex),
        pInputAssemblyState=keep(assembly), pViewportState=keep(viewport), pRasterizationState=keep(raster),
        pMultisampleState=keep(multisample), pDepthStencilState=keep(depth), pColorBlendState=keep(blend),
        pDynamicState=keep(dynamic), layout=layout, basePipelineIndex=-1)
    pipeline = c_uint64()
    _check(vk.vkCreateGraphicsPipelines(device, c_uint64(0), 1, byref(info), None, byref(pipeline)),
           "vkCreateGraphicsPipelines")
    return pipeline.value


def _statistic_value(stat: Any) -> int | float | bool:
    if stat.format == vkt.STAT_FORMAT_BOOL32:
        return bool(stat.value.b32)
    if stat.format == vkt.STAT_FORMAT_INT64:
        return int(stat.value.i64)
    if stat.format == vkt.STAT_FORMAT_FLOAT64:
        return float(stat.value.f64)
    return int(stat.value.u64)


def _filled(call: Any, args: tuple[Any, ...], struct: Any, stype: int, what: str) -> tuple[Any, c_uint32]:
    """Vulkan's two-call idiom: ask ``call`` for the count, then for that many ``struct`` records (each given
    its ``sType``); the records and the count."""
    count = c_uint32(0)
    _check(call(*args, byref(count), None), what)
    records = (struct * count.value)()
    for record in records:
        record.sType = stype
    _check(call(*args, byref(count), records), what)
    return records, count


def _executables(vk: _Vulkan, device: c_void_p, pipeline: int) -> list[ExecutableResult]:
    get_props = vk.device_fn(device, "vkGetPipelineExecutablePropertiesKHR")
    get_stats = vk.device_fn(device, "vkGetPipelineExecutableStatisticsKHR")
    get_reprs = vk.device_fn(device, "vkGetPipelineExecutableInternalRepresentationsKHR")
    pinfo = vkt.PipelineInfo(sType=vkt.ST_PIPELINE_INFO_KHR, pipeline=pipeline)
    props, count = _filled(get_props, (device, byref(pinfo)), vkt.PipelineExecutableProperties,
                           vkt.ST_PIPELINE_EXECUTABLE_PROPERTIES_KHR, "vkGetPipelineExecutablePropertiesKHR")
    results = []
    for index, prop in enumerate(props[: count.value]):
        einfo = vkt.PipelineExecutableInfo(sType=vkt.ST_PIPELINE_EXECUTABLE_INFO_KHR, pipeline=pipeline,
                                           executableIndex=index)
        result = ExecutableResult(prop.name.decode(errors="replace"), prop.description.decode(errors="replace"),
                                  prop.stages, prop.subgroupSize)
        stats, n = _filled(get_stats, (device, byref(einfo)), vkt.PipelineExecutableStatistic,
                           vkt.ST_PIPELINE_EXECUTABLE_STATISTIC_KHR, "vkGetPipelineExecutableStatisticsKHR")
        for s in stats[: n.value]:
            result.statistics[s.name.decode(errors="replace")] = _statistic_value(s)
        # Representations: ask for the count, then the sizes, then the data (the extension's two-call idiom).
        reprs, n = _filled(get_reprs, (device, byref(einfo)), vkt.PipelineExecutableInternalRepresentation,
                           vkt.ST_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR,
                           "vkGetPipelineExecutableInternalRepresentationsKHR")
        buffers = []
        for r in reprs[: n.value]:
            buf = ctypes.create_string_buffer(r.dataSize)
            buffers.append(buf)
            r.pData = ctypes.addressof(buf)
        rc = get_reprs(device, byref(einfo), byref(n), reprs)
        if rc not in (vkt.VK_SUCCESS, vkt.VK_INCOMPLETE):
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
            raise VulkanError(f"no Vulkan device with {vkt.EXTENSION.decode()} (devices: {names})")
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
