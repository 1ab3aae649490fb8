#version 450
#extension GL_ARB_gpu_shader_fp64 : enable
// timing corpus (isalens timing --model aco): double math
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(set = 0, binding = 0) buffer In { float a[]; } src;
layout(set = 0, binding = 1) buffer Out { float b[]; } dst;
layout(push_constant) uniform P { uint n; float k; int steps; } p;
layout(set = 0, binding = 2) buffer D { double d[]; } dd;
void main() {
    uint i = gl_GlobalInvocationID.x;
    double x = dd.d[i];
    for (int j = 0;
    j < 4;
    ++j) x = fma(x, x, double(p.k)) / (x + 1.0lf);
    dd.d[i] = x;
}
