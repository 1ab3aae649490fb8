// Advice example (sub-dword sequences): 16-bit arithmetic on the two halves of packed words, written with
// shifts and masks on 32-bit integers.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void subdword_halves(__global const uint *restrict a, __global const uint *restrict b,
                              __global uint *restrict out, __global half *restrict hout)
{
    const int i = get_global_id(0);
    const uint x = a[i];
    const uint y = b[i];
    const ushort lo = (ushort)x * (ushort)y;
    const ushort hi = (ushort)(x >> 16) + (ushort)(y >> 16);
    out[i] = ((uint)hi << 16) | lo;
    const half hx = as_half((ushort)(x >> 16));
    const half hy = as_half((ushort)y);
    hout[i] = fma(hx, hy, (half)0.25h) * hx;
}
