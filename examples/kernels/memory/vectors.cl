// Vector memory access: float4 loads/stores with a swizzle, uchar4 pixel unpacking and
// repacking (sub-dword values), and a strided gather of float2.

__kernel void float4_swizzle_scale(__global const float4 *restrict in, __global float4 *restrict out, float s)
{
    const int i = get_global_id(0);
    const float4 v = in[i];
    out[i] = v.wzyx * s + v.xxyy;
}

__kernel void rgba8_to_gray(__global const uchar4 *restrict px, __global uchar4 *restrict out, int n)
{
    const int i = get_global_id(0);
    if (i < n) {
        const float4 c = convert_float4(px[i]);
        const float y = 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
        const uchar g = convert_uchar_sat(y);
        out[i] = (uchar4)(g, g, g, px[i].w);
    }
}

__kernel void gather_float2(__global const float2 *restrict src, __global const int *restrict index,
                            __global float4 *restrict dst)
{
    const int i = get_global_id(0);
    const int4 j = vload4(i, index);
    const float2 a = src[j.x], b = src[j.y], c = src[j.z], d = src[j.w];
    dst[2 * i] = (float4)(a, b);
    dst[2 * i + 1] = (float4)(c, d) + (float4)(a.x);
}
