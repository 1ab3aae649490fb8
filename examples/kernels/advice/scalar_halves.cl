// Advice example (wasted halves): eight scalar fp16 values, each computed by its own 16-bit op, stay
// live together; each takes a whole VGPR although only its low half holds data.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void scalar_halves(__global const half *restrict in, __global half *restrict out, half scale)
{
    const int i = get_global_id(0);
    half a[8];
#pragma unroll
    for (int k = 0; k < 8; ++k)
        a[k] = in[i * 8 + k] * scale + (half)k;
    half s = 0.0h;
#pragma unroll
    for (int k = 0; k < 8; ++k)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            s = fma(a[k], a[(j * 3 + k) & 7], s * a[j]);
    out[i] = s;
}
