#version 450
// Data-dependent trip counts (Collatz steps) and a divergent branch inside the loop.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Data { uint n[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = n[i], steps = 0u;
    while (x != 1u && steps < 1000u) {
        if ((x & 1u) == 0u) x >>= 1u; else x = 3u * x + 1u;
        ++steps;
    }
    n[i] = steps;
}
