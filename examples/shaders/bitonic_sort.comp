#version 450
// Bitonic sort of 1024 keys per workgroup in shared memory.
layout(local_size_x = 512) in;
layout(set = 0, binding = 0, std430) buffer Keys { uint keys[]; };
shared uint s[1024];
void main() {
    uint t = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 1024u;
    s[t] = keys[base + t];
    s[t + 512u] = keys[base + t + 512u];
    for (uint k = 2u; k <= 1024u; k <<= 1u) {
        for (uint j = k >> 1u; j > 0u; j >>= 1u) {
            barrier();
            uint i = 2u * t - (t & (j - 1u));
            uint p = i + j;
            bool up = (i & k) == 0u;
            uint x = s[i], y = s[p];
            if ((x > y) == up) { s[i] = y; s[p] = x; }
        }
    }
    barrier();
    keys[base + t] = s[t];
    keys[base + t + 512u] = s[t + 512u];
}
