#version 450
// Indirect gather and scatter through an index buffer (address arithmetic, 64-bit pointers in SGPRs).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer Index { uint idx[]; };
layout(set = 0, binding = 1, std430) readonly buffer Src { vec2 src[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Dst { vec2 dst[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint j = idx[i];
    dst[j ^ 1u] = src[j] * 0.5 + src[idx[(i + 1u) & 1023u]];
}
