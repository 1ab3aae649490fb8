#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
// Min, max and sum of a float array with subgroup operations; one atomic per subgroup.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { float v[]; };
layout(set = 0, binding = 1, std430) buffer Out { uint min_bits; uint max_bits; uint count; };
void main() {
    float x = v[gl_GlobalInvocationID.x];
    float lo = subgroupMin(x), hi = subgroupMax(x);
    uint positive = subgroupBallotBitCount(subgroupBallot(x > 0.0));
    if (subgroupElect()) {
        atomicMin(min_bits, floatBitsToUint(lo));
        atomicMax(max_bits, floatBitsToUint(hi));
        atomicAdd(count, positive);
    }
}
