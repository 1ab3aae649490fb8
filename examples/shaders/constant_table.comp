#version 450
// A constant lookup table indexed by data: ACO may place it after the code as constant data.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Data { uint v[]; };
const float table[16] = float[16](0.0, 0.1, 0.25, 0.3, 0.45, 0.5, 0.62, 0.7, 0.77, 0.8, 0.85, 0.9, 0.93, 0.96,
                                  0.98, 1.0);
void main() {
    uint i = gl_GlobalInvocationID.x;
    v[i] = floatBitsToUint(table[v[i] & 15u] * table[(v[i] >> 4u) & 15u]);
}
