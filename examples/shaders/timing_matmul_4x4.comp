#version 450
// timing corpus (isalens timing --model aco): matmul 4x4
layout(local_size_x = 16, local_size_y = 16, local_size_z = 1) in;
layout(set = 0, binding = 0) buffer In { float a[]; } src;
layout(set = 0, binding = 1) buffer Out { float b[]; } dst;
layout(push_constant) uniform P { uint n; float k; int steps; } p;
shared float as[16][16];
shared float bs[16][16];
void main() {
    uvec2 l = gl_LocalInvocationID.xy;
    uvec2 g = gl_GlobalInvocationID.xy;
    float acc = 0.0;
    for (uint t = 0u;
    t < p.n;
    t += 16u) { as[l.y][l.x] = src.a[g.y * p.n + t + l.x];
    bs[l.y][l.x] = src.a[(t + l.y) * p.n + g.x];
    barrier();
    for (uint k = 0u;
    k < 16u;
    ++k) acc = fma(as[l.y][k], bs[k][l.x], acc);
    barrier();
    } dst.b[g.y * p.n + g.x] = acc;
}
