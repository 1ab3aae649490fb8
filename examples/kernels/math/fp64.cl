// Double precision: a compensated (Kahan) dot product, Newton iterations for a
// reciprocal square root, and libclc's exp/log on doubles.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void kahan_dot(__global const double *restrict a, __global const double *restrict b,
                        __global double *restrict out, int n, int stride)
{
    const int g = get_global_id(0);
    double sum = 0.0, comp = 0.0;
    for (int i = g; i < n; i += stride) {
        const double y = a[i] * b[i] - comp;
        const double t = sum + y;
        comp = (t - sum) - y;
        sum = t;
    }
    out[g] = sum;
}

__kernel void rsqrt_newton(__global const double *restrict x, __global double *restrict y)
{
    const int i = get_global_id(0);
    const double v = x[i];
    double r = (double)native_rsqrt((float)v);
    for (int it = 0; it < 3; ++it)
        r = r * (1.5 - 0.5 * v * r * r);
    y[i] = v > 0.0 ? r : 0.0;
}

__kernel void log_sum_exp(__global const double4 *restrict x, __global double *restrict y)
{
    const int i = get_global_id(0);
    const double4 v = x[i];
    const double m = fmax(fmax(v.x, v.y), fmax(v.z, v.w));
    const double s = exp(v.x - m) + exp(v.y - m) + exp(v.z - m) + exp(v.w - m);
    y[i] = m + log(s);
}
