#version 450
// Sum of a float buffer: each group of 256 threads reduces through subgroup adds and a small LDS array,
// then one atomic add per group. Shows subgroup ops (DPP / permlane on RDNA) and LDS traffic.
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer Values { float values[]; };
layout(set = 0, binding = 1, std430) buffer Total { uint bits; float partial[]; } total;
layout(push_constant) uniform Params { uint count; } params;

shared float per_subgroup[32];

void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = 0.0;
    for (uint k = i; k < params.count; k += gl_NumWorkGroups.x * 256u) {
        v += values[k];
    }
    v = subgroupAdd(v);
    if (subgroupElect()) {
        per_subgroup[gl_SubgroupID] = v;
    }
    barrier();
    if (gl_SubgroupID == 0u) {
        float s = gl_SubgroupInvocationID < gl_NumSubgroups ? per_subgroup[gl_SubgroupInvocationID] : 0.0;
        s = subgroupAdd(s);
        if (subgroupElect()) {
            total.partial[gl_WorkGroupID.x] = s;
            atomicAdd(total.bits, 1u);
        }
    }
}
