#version 450
// C = A * B for row-major float matrices, 16x16 tiles staged in shared memory.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, std430) readonly buffer A { float a[]; };
layout(set = 0, binding = 1, std430) readonly buffer B { float b[]; };
layout(set = 0, binding = 2, std430) writeonly buffer C { float c[]; };
layout(push_constant) uniform Size { uint n; } size;
shared float ta[16][16];
shared float tb[16][16];
void main() {
    uvec2 l = gl_LocalInvocationID.xy;
    uvec2 g = gl_GlobalInvocationID.xy;
    float acc = 0.0;
    for (uint k0 = 0u; k0 < size.n; k0 += 16u) {
        ta[l.y][l.x] = a[g.y * size.n + k0 + l.x];
        tb[l.y][l.x] = b[(k0 + l.y) * size.n + g.x];
        barrier();
        for (uint k = 0u; k < 16u; ++k) acc += ta[l.y][k] * tb[k][l.x];
        barrier();
    }
    c[g.y * size.n + g.x] = acc;
}
