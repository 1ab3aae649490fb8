#version 450
#extension GL_ARB_gpu_shader_int64 : require
// 64-bit FNV-1a hash of 16 words per invocation (64-bit integer multiply and xor).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint words[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint64_t hashes[]; };
void main() {
    uint base = gl_GlobalInvocationID.x * 16u;
    uint64_t h = 14695981039346656037UL;
    for (uint k = 0u; k < 16u; ++k) {
        h ^= uint64_t(words[base + k]);
        h *= 1099511628211UL;
    }
    hashes[gl_GlobalInvocationID.x] = h;
}
