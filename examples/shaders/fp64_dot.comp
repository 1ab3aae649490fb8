#version 450
// Double-precision dot products of 4-vectors (fp64 arithmetic and 64-bit registers).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer A { dvec4 a[]; };
layout(set = 0, binding = 1, std430) readonly buffer B { dvec4 b[]; };
layout(set = 0, binding = 2, std430) writeonly buffer C { double c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    c[i] = dot(a[i], b[i]) + sqrt(abs(a[i].x * b[i].w));
}
