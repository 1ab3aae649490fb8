#version 450
// timing corpus (isalens timing --model aco): shared reduce
layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;
layout(set = 0, binding = 0) buffer In { float a[]; } src;
layout(set = 0, binding = 1) buffer Out { float b[]; } dst;
layout(push_constant) uniform P { uint n; float k; int steps; } p;
shared float tile[256];
void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = src.a[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 128u;
    s > 0u;
    s >>= 1) { if (l < s) tile[l] += tile[l + s];
    barrier();
    } if (l == 0u) dst.b[gl_WorkGroupID.x] = tile[0];
}
