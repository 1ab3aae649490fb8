#version 450
// timing corpus (isalens timing --model aco): nested loops
layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;
layout(set = 0, binding = 0) buffer In { float a[]; } src;
layout(set = 0, binding = 1) buffer Out { float b[]; } dst;
layout(push_constant) uniform P { uint n; float k; int steps; } p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float s = 0.0;
    for (int j = 0;
    j < p.steps;
    ++j) for (int k = 0;
    k < p.steps;
    ++k) s = fma(src.a[i + uint(j * 7 + k)], p.k, s);
    dst.b[i] = s;
}
