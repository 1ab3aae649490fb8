// Sub-dword data: 8- and 16-bit loads and stores, short arithmetic that targets the
// 16-bit halves of VGPRs (SDWA on gfx9, true16/op_sel on newer targets).

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void short_saturating_add(__global const short2 *restrict a, __global const short2 *restrict b,
                                   __global short2 *restrict out)
{
    const int i = get_global_id(0);
    out[i] = add_sat(a[i], b[i]) + (short2)((short)i, (short)-i);
}

__kernel void bytes_to_halves(__global const uchar *restrict in, __global half *restrict lo,
                              __global half *restrict hi, int n)
{
    const int i = get_global_id(0);
    if (i < n) {
        const uchar x = in[2 * i];
        const uchar y = in[2 * i + 1];
        const half hx = (half)x * (half)(1.0f / 255.0f);
        const half hy = (half)y * (half)(1.0f / 255.0f);
        lo[i] = hx * hy;
        hi[i] = hx + hy;
    }
}
