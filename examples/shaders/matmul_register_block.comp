#version 450
// Each invocation computes a 4x4 block of C from global memory (no shared memory): 16 accumulators.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, std430) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1, std430) readonly buffer B { vec4 b[]; };
layout(set = 0, binding = 2, std430) writeonly buffer C { vec4 c[]; };
layout(push_constant) uniform Size { uint n4; } size;
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    vec4 acc[4] = vec4[4](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));
    for (uint k = 0u; k < size.n4 * 4u; ++k) {
        vec4 bk = b[k * size.n4 + g.x];
        for (uint r = 0u; r < 4u; ++r) {
            float ar = a[(g.y * 4u + r) * size.n4 + k / 4u][k % 4u];
            acc[r] += ar * bk;
        }
    }
    for (uint r = 0u; r < 4u; ++r) c[(g.y * 4u + r) * size.n4 + g.x] = acc[r];
}
