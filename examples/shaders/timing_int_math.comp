#version 450
// timing corpus (isalens timing --model aco): int math
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(set = 0, binding = 0) buffer In { float a[]; } src;
layout(set = 0, binding = 1) buffer Out { float b[]; } dst;
layout(push_constant) uniform P { uint n; float k; int steps; } p;
layout(set = 0, binding = 2) buffer U { uint u[]; } iu;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = iu.u[i];
    x = x * 2654435761u + (x >> 13) * p.n;
    x ^= x * 747796405u;
    iu.u[i] = x / 7u + x % 13u;
}
