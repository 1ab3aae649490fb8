// Packed fp16 arithmetic on half2 (v_pk_* on gfx9+) and a mixed fp16/fp32 kernel
// where values move between register halves.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void axpy_half2(__global const half2 *restrict x, __global half2 *restrict y, half a, int n)
{
    const int i = get_global_id(0);
    if (i < n) {
        const half2 av = (half2)(a, a);
        half2 v = fma(av, x[i], y[i]);
        v = fmax(v, (half2)(0.0h));
        y[i] = v * v + (half2)(0.5h, -0.5h);
    }
}

__kernel void half_lerp_mix(__global const half4 *restrict a, __global const half4 *restrict b,
                            __global const float *restrict t, __global half4 *restrict out)
{
    const int i = get_global_id(0);
    const half w = (half)t[i];
    const half4 va = a[i], vb = b[i];
    half4 r = va + (vb - va) * w;
    r.xy = r.yx;
    r.w = (half)((float)r.z * t[i]);
    out[i] = r;
}
