#version 450
// timing corpus (isalens timing --model aco): tile 8x8
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(set = 0, binding = 0) buffer In { float a[]; } src;
layout(set = 0, binding = 1) buffer Out { float b[]; } dst;
layout(push_constant) uniform P { uint n; float k; int steps; } p;
shared float tile[10][10];
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    uvec2 l = gl_LocalInvocationID.xy;
    tile[l.y + 1u][l.x + 1u] = src.a[g.y * p.n + g.x];
    if (l.x == 0u) tile[l.y + 1u][0] = src.a[g.y * p.n + g.x - 1u];
    barrier();
    float s = 0.0;
    for (int y = 0;
    y < 3;
    ++y) for (int x = 0;
    x < 3;
    ++x) s += tile[l.y + uint(y)][l.x + uint(x)];
    dst.b[g.y * p.n + g.x] = s / 9.0;
}
