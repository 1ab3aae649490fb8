#version 450
// Many values live at once: 32 accumulators updated in an unrolled loop (high VGPR pressure).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec4 x[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { vec4 y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 acc[8];
    for (int k = 0; k < 8; ++k) acc[k] = x[i * 8u + uint(k)];
    for (int it = 0; it < 16; ++it)
        for (int k = 0; k < 8; ++k) acc[k] = fma(acc[k], acc[(k + 1) & 7], acc[(k + 3) & 7] * 0.5);
    for (int k = 0; k < 8; ++k) y[i * 8u + uint(k)] = acc[k];
}
