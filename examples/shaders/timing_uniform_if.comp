#version 450
// timing corpus (isalens timing --model aco): uniform if
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(set = 0, binding = 0) buffer In { float a[]; } src;
layout(set = 0, binding = 1) buffer Out { float b[]; } dst;
layout(push_constant) uniform P { uint n; float k; int steps; } p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = src.a[i];
    if (p.steps > 3) v = v * v + p.k;
    else v = sqrt(abs(v));
    dst.b[i] = v;
}
