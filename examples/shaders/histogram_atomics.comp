#version 450
// 64-bin histogram of bytes with shared-memory atomics, merged into a global histogram.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint words[]; };
layout(set = 0, binding = 1, std430) buffer Hist { uint bins[64]; };
shared uint local_bins[64];
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t < 64u) local_bins[t] = 0u;
    barrier();
    uint w = words[gl_GlobalInvocationID.x];
    for (uint k = 0u; k < 4u; ++k) atomicAdd(local_bins[((w >> (8u * k)) & 0xffu) >> 2u], 1u);
    barrier();
    if (t < 64u) atomicAdd(bins[t], local_bins[t]);
}
