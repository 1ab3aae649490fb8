// Bit manipulation: bitfield extract/insert by hand, reversal, popcount, clz, and
// Morton (Z-order) encoding.

__kernel void bitfields(__global const uint *restrict in, __global uint *restrict out)
{
    const int i = get_global_id(0);
    const uint v = in[i];
    const uint field = (v >> 7) & 0x3f;
    const uint inserted = (v & ~(0x1fu << 20)) | ((field & 0x1f) << 20);
    out[i] = inserted ^ (popcount(v) << 26) ^ clz(v | 1u);
}

__kernel void reverse_bits(__global const uint *restrict in, __global uint *restrict out)
{
    const int i = get_global_id(0);
    uint v = in[i];
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
    v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
    out[i] = rotate(v, 16u);
}

static uint spread_bits(uint x)
{
    x &= 0x3ff;
    x = (x | (x << 16)) & 0x030000ff;
    x = (x | (x << 8)) & 0x0300f00f;
    x = (x | (x << 4)) & 0x030c30c3;
    x = (x | (x << 2)) & 0x09249249;
    return x;
}

__kernel void morton3d(__global const uint4 *restrict coords, __global uint *restrict codes)
{
    const int i = get_global_id(0);
    const uint4 c = coords[i];
    codes[i] = spread_bits(c.x) | (spread_bits(c.y) << 1) | (spread_bits(c.z) << 2);
}
