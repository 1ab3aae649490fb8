#version 450
// The smallest useful kernel: copy vec4s, guarded by a count (very few registers).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec4 src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { vec4 dst[]; };
layout(push_constant) uniform N { uint count; } n;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n.count) dst[i] = src[i];
}
