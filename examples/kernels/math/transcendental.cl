// Transcendental-heavy code through libclc: exp/log/pow, sin/cos with range reduction,
// and a small physics-style expression with atan2 and sqrt.

__kernel void exp_log_pow(__global const float2 *restrict in, __global float2 *restrict out)
{
    const int i = get_global_id(0);
    const float2 v = in[i];
    out[i] = exp(v) * 0.25f + log(fabs(v) + 1.0f) + pow(fabs(v), (float2)(0.3f, 1.7f));
}

__kernel void rotate_phase(__global const float2 *restrict in, __global const float *restrict phase,
                           __global float2 *restrict out)
{
    const int i = get_global_id(0);
    const float2 z = in[i];
    const float s = sin(phase[i]);
    const float c = cos(phase[i]);
    out[i] = (float2)(z.x * c - z.y * s, z.x * s + z.y * c);
}

__kernel void polar(__global const float2 *restrict xy, __global float2 *restrict rt, int n)
{
    const int i = get_global_id(0);
    if (i < n) {
        const float2 p = xy[i];
        rt[i] = (float2)(sqrt(p.x * p.x + p.y * p.y), atan2(p.y, p.x));
    }
}
