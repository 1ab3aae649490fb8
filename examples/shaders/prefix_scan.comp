#version 450
// Work-efficient (Blelloch) exclusive prefix sum of 512 uints per workgroup in shared memory.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0, std430) buffer Data { uint values[]; } data;
shared uint tile[512];
void main() {
    uint t = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 512u;
    tile[2u * t] = data.values[base + 2u * t];
    tile[2u * t + 1u] = data.values[base + 2u * t + 1u];
    uint offset = 1u;
    for (uint d = 256u; d > 0u; d >>= 1u) {
        barrier();
        if (t < d) {
            uint ai = offset * (2u * t + 1u) - 1u;
            uint bi = offset * (2u * t + 2u) - 1u;
            tile[bi] += tile[ai];
        }
        offset *= 2u;
    }
    if (t == 0u) tile[511] = 0u;
    for (uint d = 1u; d < 512u; d *= 2u) {
        offset >>= 1u;
        barrier();
        if (t < d) {
            uint ai = offset * (2u * t + 1u) - 1u;
            uint bi = offset * (2u * t + 2u) - 1u;
            uint v = tile[ai];
            tile[ai] = tile[bi];
            tile[bi] += v;
        }
    }
    barrier();
    data.values[base + 2u * t] = tile[2u * t];
    data.values[base + 2u * t + 1u] = tile[2u * t + 1u];
}
